use cfrkit_core::cfr::{Algorithm, Solver, DCFR_DEFAULTS};
use std::sync::Arc;
fn main() {
    let tree = Arc::new(cfrkit_core::games::load_game("leduc").unwrap());
    println!("public nodes {}", tree.num_nodes());
    let mut s = Solver::new(tree, Algorithm::parse("cfr+", DCFR_DEFAULTS).unwrap(), true, 1).unwrap();
    let t = std::time::Instant::now();
    let n: u64 = std::env::args().nth(1).map(|x| x.parse().unwrap()).unwrap_or(1000); s.run(n, None);
    println!("{:.1} us/iter", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}

//! Times CFR iterations: `leduc_speed [iterations] [algorithm] [game] [threads] [split]`
//! (defaults: 1000, cfr+, leduc, 1, the solver's split size). Prints a checksum of the solver's state so that speed work can check
//! that it changes no number.
use cfrkit_core::cfr::{Algorithm, Solver, DCFR_DEFAULTS};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let n: u64 = arg(1, "1000").parse().unwrap();
    let algorithm = Algorithm::parse(&arg(2, "cfr+"), DCFR_DEFAULTS).unwrap();
    let tree = Arc::new(cfrkit_core::games::load_game(&arg(3, "leduc")).unwrap());
    let threads: usize = arg(4, "1").parse().unwrap();
    println!("public nodes {}", tree.num_nodes());
    let mut s = Solver::new(tree, algorithm, true, threads).unwrap();
    if let Some(split) = args.get(5) {
        s.set_split_size(split.parse().unwrap());
    }
    let t = std::time::Instant::now();
    s.run(n, None);
    println!("{:.1} us/iter", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let mut h: u64 = 0xcbf29ce484222325;
    for x in s.regrets().iter().chain(s.current_policy()).chain(&s.average_policy()) {
        h = (h ^ x.to_bits()).wrapping_mul(0x100000001b3);
    }
    println!("checksum {h:016x}");
}

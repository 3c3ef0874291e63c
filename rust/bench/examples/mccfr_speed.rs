//! Times MCCFR iterations: `mccfr_speed [game] [algorithm] [iterations] [threads] [seed]`
//! (defaults leduc, es-mccfr, 10000, 1, 0). Prints iterations per second, the exploitability of
//! the average policy and a checksum of the tables (equal checksums, same run).
use cfrkit_core::eval::best_response::exploitability;
use cfrkit_core::sampled::mccfr::{Mccfr, Method};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let tree = Arc::new(cfrkit_core::games::load_game(&arg(1, "leduc")).unwrap_or_else(|e| panic!("{e}")));
    let method = Method::parse(&arg(2, "es-mccfr"), None).unwrap_or_else(|e| panic!("{e}"));
    let n: u64 = arg(3, "10000").parse().expect("iterations: a whole number");
    let threads: usize = arg(4, "1").parse().expect("threads: a whole number");
    let seed: u64 = arg(5, "0").parse().expect("seed: a whole number");
    let mut s = Mccfr::new(tree.clone(), None, method, seed, threads).unwrap_or_else(|e| panic!("{e}"));
    let t = Instant::now();
    s.run(n, None);
    let secs = t.elapsed().as_secs_f64();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for x in s.regrets().iter().chain(s.cumulative_policy()) {
        h = (h ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
    }
    let x = exploitability(&tree, &s.average_policy()).unwrap_or(f64::NAN);
    println!(
        "{} {} {n} iterations, {} threads: {:.0} it/s; exploitability {x:.6}; checksum {h:016x}",
        tree.spec,
        method.name(),
        s.threads(),
        n as f64 / secs
    );
}

//! Times Blackjack++ solver iterations:
//! `blackjack_speed [up] [max_hits] [iterations] [algorithm] [threads] [engine]`
//! (defaults: 1-1-1, 3, 10, cfr+, 1, ranges; `lanes` for the generic walk). Prints build and
//! iteration times and a checksum of the average policy so that speed work can check that it
//! changes no number.
use cfrkit_core::cfr::{Algorithm, DCFR_DEFAULTS};
use cfrkit_core::games::blackjack::Blackjack;
use cfrkit_core::spec::Spec;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let spec = format!("blackjack(up={},max_hits={})", arg(1, "1-1-1"), arg(2, "3"));
    let n: u64 = arg(3, "10").parse().unwrap();
    let algorithm = Algorithm::parse(&arg(4, "cfr+"), DCFR_DEFAULTS).unwrap();
    let threads: usize = arg(5, "1").parse().unwrap();
    let game = Blackjack::from_spec(&Spec::parse(&spec).unwrap()).unwrap();
    let t = Instant::now();
    let tree = Arc::new(game.build().unwrap());
    println!("{spec}: built {} public nodes in {:.3} s", tree.num_nodes(), t.elapsed().as_secs_f64());
    let t = Instant::now();
    let mut s = cfrkit_core::games::solver(tree, None, algorithm, true, threads).unwrap();
    if arg(6, "ranges") == "lanes" {
        s.use_lanes().unwrap();
    }
    println!("{} solver set-up {:.3} s", s.engine(), t.elapsed().as_secs_f64());
    s.run(1, None);
    let mut times = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        s.run(1, None);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!("median {:.2} ms/iter (min {:.2}, max {:.2})", times[times.len() / 2], times[0], times[times.len() - 1]);
    let mut h: u64 = 0xcbf29ce484222325;
    for x in s.average_policy() {
        h = (h ^ x.to_bits()).wrapping_mul(0x100000001b3);
    }
    println!("checksum {h:016x}");
}

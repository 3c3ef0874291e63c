//! Times Setback training from a checkpoint (steady state, e.g. one past 100k deals):
//! `setback_steady CHECKPOINT [deals] [threads]` (defaults 1000, 1). Loading is not timed.
//! Prints deals per second and the root value, which with one thread depends only on the
//! checkpoint and the deals (a check that speed work changes no number).
use cfrkit_core::games::setback::train::load_checkpoint;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: setback_steady CHECKPOINT [deals] [threads]");
        std::process::exit(2);
    };
    let deals: u64 = args.get(2).map_or(1000, |s| s.parse().expect("deals: a whole number"));
    let threads: usize = args.get(3).map_or(1, |s| s.parse().expect("threads: a whole number"));
    let mut t = load_checkpoint(Path::new(path), threads, None).unwrap_or_else(|e| panic!("{e}"));
    let from = t.stats().iterations;
    let start = Instant::now();
    t.run(from + deals, Duration::from_secs(86_400), &AtomicBool::new(false));
    let s = start.elapsed().as_secs_f64();
    println!(
        "{deals} deals from {from} in {s:.2} s: {:.1} deals/s; root value {:.12}",
        deals as f64 / s,
        t.stats().root_value
    );
}

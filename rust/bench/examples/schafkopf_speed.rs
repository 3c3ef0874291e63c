//! Games per second of Schafkopf matches: `cargo run --release -p cfrkit-bench --example
//! schafkopf_speed [DEALS] [THREADS...]` (default 200000 deals, threads 1 and 0 = all cores).
//! Each deal is played twice (the seed's protocol), so games = 2 × deals. Prints one line per
//! (pairing, threads) with the games per second and A's cents per game.

use cfrkit_core::arena::quiet;
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::trick::matches::{run_match, MatchSettings};
use std::time::Instant;

fn main() -> cfrkit_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deals: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let threads: Vec<usize> =
        if args.len() > 1 { args[1..].iter().filter_map(|s| s.parse().ok()).collect() } else { vec![1, 0] };
    for (a, b) in [("rules", "random-coward"), ("rules", "rules"), ("random", "random")] {
        let (aa, bb) = (registry::parse(a)?, registry::parse(b)?);
        for &t in &threads {
            let settings = MatchSettings { threads: t, ..MatchSettings::default() };
            let start = Instant::now();
            let r = run_match(aa.as_ref(), bb.as_ref(), deals, &settings, None, &mut quiet)?;
            let s = start.elapsed().as_secs_f64();
            println!(
                "{a} vs {b}, threads {t}: {} games in {s:.3} s = {:.0} games/s; {a} {:+.3} ± {:.3} cents per game",
                r.pair.games,
                r.pair.games as f64 / s,
                r.pair.a.mean,
                r.pair.a.ci95
            );
        }
    }
    Ok(())
}

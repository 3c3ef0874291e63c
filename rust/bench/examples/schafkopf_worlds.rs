//! Times Schafkopf determinization: `cargo run --release -p cfrkit-bench --example
//! schafkopf_worlds [GAMES]` (default 2000 games of the rules agent against itself).
//!
//! For the seat to act at each kind of point (its declaration, the contra round, the first
//! trick, the fifth trick, the last two tricks), prints the median and mean microseconds of
//! `Worlds::new`, of one world drawn (a complete game at the view's state) and of 40 worlds
//! (new + 40 draws, what a PIMC decision of 40 worlds spends on its worlds; also its 99th
//! percentile), and the share of proposals the replay check rejected.
use cfrkit_core::games::schafkopf::agents::rules_agent::RulesAgent;
use cfrkit_core::games::schafkopf::agents::Agent;
use cfrkit_core::games::schafkopf::pimc::worlds::Worlds;
use cfrkit_core::games::schafkopf::{Deal, Game, Phase, Rules, View};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

/// The kind of point of a game, if it is one the example times.
fn point(g: &Game) -> Option<&'static str> {
    match (g.phase(), g.tricks_done()) {
        (Phase::Bidding, _) => Some("bidding"),
        (Phase::Contra, _) => Some("contra"),
        (Phase::Tricks, 0) => Some("trick 1"),
        (Phase::Tricks, 4) => Some("trick 5"),
        (Phase::Tricks, 6 | 7) => Some("tricks 7-8"),
        _ => None,
    }
}

/// The `q` quantile of `v`.
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() -> cfrkit_core::Result<()> {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mut rng = Pcg64::seed_from_u64(1);
    let kinds = ["bidding", "contra", "trick 1", "trick 5", "tricks 7-8"];
    let mut positions: Vec<Vec<Game>> = vec![Vec::new(); kinds.len()];
    for i in 0..games {
        let mut g = Game::new(&Deal::for_game(3, i), Rules::SCHAFKOPFRL);
        while let Some(p) = g.player() {
            if let Some(k) = point(&g) {
                positions[kinds.iter().position(|&x| x == k).unwrap()].push(g);
            }
            let a = RulesAgent.act(&View::new(&g, p), &mut rng)?;
            g.apply(a)?;
        }
    }
    println!("{games} games of the rules agent; microseconds, median (mean) over the positions");
    println!(
        "{:<11} {:>9} {:>16} {:>16} {:>16} {:>10} {:>9}",
        "point", "positions", "Worlds::new", "one world", "new + 40 worlds", "40: p99", "rejected"
    );
    for (kind, list) in kinds.iter().zip(&positions) {
        let (mut new_t, mut one_t, mut forty_t) = (Vec::new(), Vec::new(), Vec::new());
        let (mut proposals, mut worlds) = (0u64, 0u64);
        for g in list {
            let view = View::new(g, g.player().unwrap());
            let t = Instant::now();
            let w = Worlds::new(&view)?;
            let built = t.elapsed().as_secs_f64() * 1e6;
            let mut r = Pcg64::seed_from_u64(worlds);
            for _ in 0..40 {
                std::hint::black_box(w.sample(&mut r)?);
            }
            let total = t.elapsed().as_secs_f64() * 1e6;
            new_t.push(built);
            one_t.push((total - built) / 40.0);
            forty_t.push(total);
            for _ in 0..40 {
                proposals += 1;
                worlds += w.propose(&mut r).is_some() as u64;
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (a, b, c) = (mean(&new_t), mean(&one_t), mean(&forty_t));
        println!(
            "{kind:<11} {:>9} {:>8.1} ({a:>5.1}) {:>8.2} ({b:>5.2}) {:>8.1} ({c:>5.1}) {:>10.1} {:>8.2}%",
            list.len(),
            quantile(&mut new_t, 0.5),
            quantile(&mut one_t, 0.5),
            quantile(&mut forty_t, 0.5),
            quantile(&mut forty_t, 0.99),
            100.0 * (proposals - worlds) as f64 / proposals as f64
        );
    }
    Ok(())
}

//! Times Skat's perfect-information solver and PIMC card play:
//! `skat_pimc [deals] [games] [seed] [worlds]` (defaults 400, 4, 1, 160).
//!
//! * **Solver**: `deals` random deals; the seat whose hand rates best ([`rate`]) declares its
//!   best game after a pickup ([`HeuristicBidder`]'s discard and declaration), or null when no
//!   seat has a playable suit or grand game; solved from the first trick's lead on one thread,
//!   one solve at a time: the whole result ([`Solver::value`]) and whether the declarer wins
//!   ([`Solver::declarer_wins`], one null-window search; on a second solver, so that neither
//!   finds the other's table entries). Prints the median, mean, p90 and p99
//!   time, per game type, and a checksum of the values (equal for every exact solver).
//! * **PIMC**: the first `games` of those deals of each game type played out by [`PimcAgent`]
//!   with `worlds` worlds in every seat, on 1 and on 2 threads; prints the times per card
//!   decision (decisions with one legal card excluded) overall, by game type and by trick, and
//!   a checksum of the cards played (equal on both thread counts).
use cfrkit_core::games::skat::agents::Agent;
use cfrkit_core::games::skat::pimc::agent::{playable, rate, HeuristicBidder, PimcAgent};
use cfrkit_core::games::skat::pimc::solver::Solver;
use cfrkit_core::games::skat::{Action, Contract, Deal, Game, GameType, Phase, View};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).map(|s| s.parse::<u64>().expect("an integer")).unwrap_or(d);
    let (deals, games, seed, worlds) = (arg(1, 400), arg(2, 4), arg(3, 1), arg(4, 160));
    let mut rng = Pcg64::seed_from_u64(seed);
    let positions: Vec<Game> = (0..deals).map(|_| declared(&Deal::random(&mut rng))).collect();

    let (mut solver, mut prober) = (Solver::new(), Solver::new());
    let mut by_kind: Vec<(&str, Vec<f64>, Vec<f64>)> =
        ["suit", "grand", "null"].iter().map(|&k| (k, Vec::new(), Vec::new())).collect();
    let mut nodes = [0u64; 3];
    // A checksum of the declarers' values: equal for any exact solver.
    let mut values = 0u64;
    for g in &positions {
        let d = g.declarer().unwrap();
        let kind = match g.contract().unwrap().game {
            GameType::Suit(_) => 0,
            GameType::Grand => 1,
            GameType::Null => 2,
        };
        let (t, n) = (Instant::now(), solver.nodes());
        let v = std::hint::black_box(solver.value(g, d).unwrap());
        values = values.wrapping_mul(31).wrapping_add(v as u64);
        by_kind[kind].1.push(t.elapsed().as_secs_f64());
        nodes[kind] += solver.nodes() - n;
        let t = Instant::now();
        std::hint::black_box(prober.declarer_wins(g).unwrap());
        by_kind[kind].2.push(t.elapsed().as_secs_f64());
    }
    let mut all = (Vec::new(), Vec::new());
    for (k, (kind, value, wins)) in by_kind.iter().enumerate() {
        if !value.is_empty() {
            println!(
                "solve {kind:5} ({:4} deals): value {} ({:.0} nodes/deal); wins? {}",
                value.len(),
                stats(value),
                nodes[k] as f64 / value.len() as f64,
                stats(wins)
            );
            all.0.extend(value);
            all.1.extend(wins);
        }
    }
    println!("solve all   ({:4} deals): value {}; wins? {}", all.0.len(), stats(&all.0), stats(&all.1));
    println!(
        "nodes per deal: value {:.0}, wins? {:.0}; values checksum {values:016x}",
        solver.nodes() as f64 / deals as f64,
        prober.nodes() as f64 / deals as f64
    );

    // The first `games` deals of each game type.
    let kind = |g: &Game| match g.contract().unwrap().game {
        GameType::Suit(_) => 0,
        GameType::Grand => 1,
        GameType::Null => 2,
    };
    let mut played: Vec<&Game> = Vec::new();
    for k in 0..3 {
        played.extend(positions.iter().filter(|g| kind(g) == k).take(games as usize));
    }
    for threads in [1usize, 2] {
        let agent = PimcAgent::new(worlds as usize, threads, seed).unwrap();
        let mut by_trick: Vec<Vec<f64>> = vec![Vec::new(); 10];
        let mut by_kind: Vec<Vec<f64>> = vec![Vec::new(); 3];
        let mut checksum = 0u64;
        let start = Instant::now();
        for (i, g0) in played.iter().enumerate() {
            let mut g = **g0;
            let mut rng = Pcg64::seed_from_u64(i as u64);
            while let Some(p) = g.player() {
                let view = View::new(&g, p);
                let many = view.legal_cards().count_ones() > 1;
                let t = Instant::now();
                let a = agent.act(&view, &mut rng).unwrap();
                if many {
                    let dt = t.elapsed().as_secs_f64();
                    by_trick[g.tricks_done() as usize].push(dt);
                    by_kind[kind(&g)].push(dt);
                }
                if let Action::Card(c) = a {
                    checksum = checksum.wrapping_mul(31).wrapping_add(c as u64 + 1);
                }
                g.apply(a).unwrap();
            }
        }
        let every: Vec<f64> = by_trick.iter().flatten().copied().collect();
        println!(
            "pimc worlds={worlds} threads={threads}: {} games in {:.1} s, checksum {checksum:016x}, per decision {}",
            played.len(),
            start.elapsed().as_secs_f64(),
            stats(&every)
        );
        for (k, v) in by_kind.iter().enumerate() {
            println!("  {:5}: {:3} decisions, {}", ["suit", "grand", "null"][k], v.len(), stats(v));
        }
        for (t, v) in by_trick.iter().enumerate() {
            if !v.is_empty() {
                println!("  trick {:2}: {:3} decisions, {}", t + 1, v.len(), stats(v));
            }
        }
    }
}

/// Median, mean, p90 and p99 of times in seconds, in milliseconds.
fn stats(times: &[f64]) -> String {
    if times.is_empty() {
        return "none".into();
    }
    let mut v = times.to_vec();
    v.sort_by(f64::total_cmp);
    let q = |f: f64| v[((v.len() as f64 * f) as usize).min(v.len() - 1)] * 1e3;
    format!(
        "median {:.3} ms, mean {:.3} ms, p90 {:.3} ms, p99 {:.3} ms",
        q(0.5),
        v.iter().sum::<f64>() / v.len() as f64 * 1e3,
        q(0.9),
        q(0.99)
    )
}

/// The game of `deal` at the first trick: the seat whose best suit or grand game rates highest
/// (among those with a playable one) wins the auction at 18, picks up, discards and declares
/// as [`HeuristicBidder`] does; with no playable game anywhere, Vorhand plays null after a
/// pickup.
fn declared(deal: &Deal) -> Game {
    let games = [GameType::Suit(0), GameType::Suit(1), GameType::Suit(2), GameType::Suit(3), GameType::Grand];
    let best = (0..3u8)
        .filter_map(|p| {
            let h = deal.hands[p as usize];
            let r = games.iter().filter(|&&g| playable(h, g, 3)).map(|&g| rate(h, g)).max()?;
            Some((r, p))
        })
        .max();
    let declarer = best.map_or(0, |(_, p)| p);
    let mut g = Game::new(deal);
    let calls: &[&str] = match declarer {
        0 => &["pass", "pass", "18"],
        1 => &["18", "pass", "pass"],
        _ => &["pass", "18", "pass"],
    };
    for c in calls {
        g.apply_name(c).unwrap();
    }
    let mut rng = Pcg64::seed_from_u64(0);
    while g.phase() != Phase::Tricks {
        let a = match (g.phase(), best) {
            (Phase::Declare, None) => Action::Declare(Contract::plain(GameType::Null)),
            _ => HeuristicBidder.act(&View::new(&g, declarer), &mut rng).unwrap(),
        };
        g.apply(a).unwrap();
    }
    g
}

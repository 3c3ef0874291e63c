//! Times Setback PIMC: `pimc_speed [positions] [seed]` (defaults 100, 1).
//!
//! Positions are the decisions with a choice (two or more legal bids or cards) of the deals the
//! rules agent plays until it has made `positions` card plays. Prints the median and 95th-percentile time per PIMC move with 16, 64 and 256 worlds on
//! one thread and on all threads (`CFRKIT_NUM_THREADS` or all cores), the time per PIMC bid, the
//! same for 64 worlds on all threads split by kind of move (bids, the trump-setting lead, the rest
//! of the first trick, later tricks) and over all the moves of the deals (bids and cards as they
//! come), and perfect-information solves per second (one solve = the values of every legal card of
//! one world).
use cfrkit_core::games::setback::pimc::solver::Solver;
use cfrkit_core::games::setback::pimc::worlds::Worlds;
use cfrkit_core::games::setback::pimc::PimcAgent;
use cfrkit_core::games::setback::play::rules_agent::RulesAgent;
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use cfrkit_core::threads;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

/// Card-play and bid decision views of deals played by the rules agent.
fn positions(n: usize, seed: u64) -> (Vec<View>, Vec<View>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let (mut plays, mut bids) = (Vec::new(), Vec::new());
    let mut k = 0;
    while plays.len() < n {
        let mut d = Deal::seeded(seed.wrapping_mul(1_000_003).wrapping_add(k));
        k += 1;
        while !d.is_finished() && !d.is_exhausted() {
            let view = View::of_actor(&d, [0, 0]).expect("a player to act");
            if d.phase() == Phase::Auction {
                if view.legal_bids().len() > 1 && bids.len() < n {
                    bids.push(view);
                }
                d.bid(RulesAgent.bid(&view, &mut rng).unwrap()).unwrap();
            } else {
                if view.legal_cards().count_ones() > 1 && plays.len() < n {
                    plays.push(view);
                }
                d.play_card(RulesAgent.play(&view, &mut rng).unwrap()).unwrap();
            }
        }
    }
    (plays, bids)
}

/// Median and 95th percentile of `times` (milliseconds).
fn quantiles(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

/// Milliseconds per decision of `agent` on each view.
fn time_moves(agent: &PimcAgent, views: &[View], bid: bool) -> Vec<f64> {
    let mut rng = Pcg64::seed_from_u64(7);
    views
        .iter()
        .map(|v| {
            let t = Instant::now();
            if bid {
                agent.bid(v, &mut rng).unwrap();
            } else {
                agent.play(v, &mut rng).unwrap();
            }
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().expect("positions: an integer")).unwrap_or(100);
    let seed: u64 = args.get(2).map(|s| s.parse().expect("seed: an integer")).unwrap_or(1);
    let all = threads::resolve(0).unwrap();
    let (plays, bids) = positions(n, seed);
    println!("{} card-play positions, {} bid positions, all threads = {all}", plays.len(), bids.len());
    println!("{:<8} {:>7} {:>7} {:>11} {:>11}", "decision", "worlds", "threads", "median ms", "p95 ms");
    for &(worlds, bid) in &[(16, false), (64, false), (256, false), (64, true)] {
        for t in [1, all] {
            let agent = PimcAgent::new(worlds, t, 0).unwrap();
            let views = if bid { &bids } else { &plays };
            // Warm up the threads' solvers.
            time_moves(&agent, &views[..views.len().min(3)], bid);
            let (median, p95) = quantiles(&mut time_moves(&agent, views, bid));
            let what = if bid { "bid" } else { "card" };
            println!("{what:<8} {worlds:>7} {t:>7} {median:>11.2} {p95:>11.2}");
            if all == 1 {
                break;
            }
        }
    }
    // Where the time goes: 64 worlds on all threads, by kind of move, and over every move of the
    // deals (bids and cards as they come).
    let agent = PimcAgent::new(64, all, 0).unwrap();
    let card_times = time_moves(&agent, &plays, false);
    let bid_times = time_moves(&agent, &bids, true);
    let kind = |v: &View| match (v.phase(), v.tricks_done()) {
        (Phase::Establish, _) => "lead",
        (_, 0) => "trick 1",
        _ => "later",
    };
    let mut by_kind: Vec<(&str, Vec<f64>)> = vec![("bid", bid_times.clone())];
    for k in ["lead", "trick 1", "later"] {
        by_kind.push((k, plays.iter().zip(&card_times).filter(|(v, _)| kind(v) == k).map(|(_, &t)| t).collect()));
    }
    by_kind.push(("all", card_times.iter().chain(&bid_times).copied().collect()));
    for (k, mut t) in by_kind {
        if !t.is_empty() {
            let (median, p95) = quantiles(&mut t);
            println!("64 worlds, {all} threads, {k:<8} {:>4} moves: median {median:.2} ms, p95 {p95:.2} ms", t.len());
        }
    }
    // Perfect-information solves on one thread.
    let mut rng = Pcg64::seed_from_u64(9);
    let mut solver = Solver::new();
    let deals: Vec<Deal> = plays
        .iter()
        .flat_map(|v| {
            let w = Worlds::new(v).unwrap();
            (0..16).map(|_| w.sample(&mut rng).unwrap()).collect::<Vec<_>>()
        })
        .collect();
    let t = Instant::now();
    for d in &deals {
        solver.card_values(d).unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "perfect-information solves: {:.0}/s on 1 thread ({} worlds, {:.0} nodes per solve, {:.1} M nodes/s)",
        deals.len() as f64 / s,
        deals.len(),
        solver.nodes() as f64 / deals.len() as f64,
        solver.nodes() as f64 / s / 1e6
    );
}

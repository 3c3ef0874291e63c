//! Makes PIMC decisions of one kind on one thread: `pimc_decisions KIND [n]` with KIND `bid`,
//! `lead` (the trump-setting lead), `trick1` (the rest of the first trick) or `later` (default n
//! 20). 64 worlds per decision, positions from deals played by the rules agent.
//!
//! Prints the time per decision and a checksum of the choices: equal checksums, same choices. The
//! work is deterministic, so instruction counts compare versions exactly on a noisy machine
//! (`valgrind --tool=cachegrind --cache-sim=no target/release/examples/pimc_decisions lead 12`).
use cfrkit_core::games::setback::pimc::PimcAgent;
use cfrkit_core::games::setback::play::rules_agent::RulesAgent;
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

/// The kind of a decision with a choice (None when there is only one legal move).
fn kind(d: &Deal, v: &View) -> Option<&'static str> {
    match d.phase() {
        Phase::Auction => (v.legal_bids().len() > 1).then_some("bid"),
        _ if v.legal_cards().count_ones() < 2 => None,
        Phase::Establish => Some("lead"),
        _ if d.tricks_done() == 0 => Some("trick1"),
        _ => Some("later"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let want = args.get(1).map(String::as_str).unwrap_or("lead");
    assert!(["bid", "lead", "trick1", "later"].contains(&want), "KIND: bid, lead, trick1 or later");
    let n: usize = args.get(2).map(|s| s.parse().expect("n: an integer")).unwrap_or(20);
    let mut rng = Pcg64::seed_from_u64(1);
    let mut views = Vec::new();
    let mut k = 0;
    while views.len() < n {
        let mut d = Deal::seeded(2_000_003 + k);
        k += 1;
        while !d.is_finished() && !d.is_exhausted() {
            let v = View::of_actor(&d, [0, 0]).expect("a player to act");
            if kind(&d, &v) == Some(want) && views.len() < n {
                views.push(v);
            }
            if d.phase() == Phase::Auction {
                d.bid(RulesAgent.bid(&v, &mut rng).unwrap()).unwrap();
            } else {
                d.play_card(RulesAgent.play(&v, &mut rng).unwrap()).unwrap();
            }
        }
    }
    let agent = PimcAgent::new(64, 1, 0).unwrap();
    let mut checksum = 0u64;
    let t = Instant::now();
    for (i, v) in views.iter().enumerate() {
        let mut r = Pcg64::seed_from_u64(i as u64);
        let choice = if want == "bid" { agent.bid(v, &mut r).unwrap() } else { agent.play(v, &mut r).unwrap() };
        checksum = checksum.wrapping_mul(31).wrapping_add(choice as u64);
    }
    println!(
        "{want} {n}: {:.2} ms per decision (64 worlds, 1 thread), choices checksum {checksum}",
        t.elapsed().as_secs_f64() * 1e3 / n as f64
    );
}

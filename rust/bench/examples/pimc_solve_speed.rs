//! Times the perfect-information solver on whole deals: `pimc_solve_speed [deals] [seed]`
//! (defaults 200, 1).
//!
//! Trump-setting leads: the values of every legal lead of random deals whose auction one random
//! bidder won; bids: the first bidder's candidate bids searched with one table
//! ([`Solver::values_across_bids`]). Prints time and nodes per solve and a checksum of the values
//! (equal checksums: equal values).
use cfrkit_core::games::setback::pimc::solver::Solver;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().expect("deals: an integer")).unwrap_or(200);
    let seed: u64 = args.get(2).map(|s| s.parse().expect("seed: an integer")).unwrap_or(1);
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut leads = Vec::with_capacity(n);
    let mut bids = Vec::with_capacity(n);
    for _ in 0..n {
        let d = Deal::random(&mut rng);
        bids.push(d);
        let mut l = d;
        let bidder = rng.gen_range(0..4);
        let bid = rng.gen_range(2..=4);
        for i in 0..4 {
            l.bid(if i == bidder { bid } else { 0 }).unwrap();
        }
        assert_eq!(l.phase(), Phase::Establish);
        leads.push(l);
    }
    let mut solver = Solver::new();
    report("leads", &mut solver, &leads, |s, d| {
        s.card_values(d).unwrap().into_iter().map(|(c, v)| v as i64 * 7 + c as i64).collect()
    });
    report("bids", &mut solver, &bids, |s, d| {
        let after: Vec<Deal> = d
            .legal_bids()
            .into_iter()
            .map(|b| {
                let mut a = *d;
                a.bid(b).unwrap();
                while a.phase() == Phase::Auction {
                    a.bid(0).unwrap();
                }
                a
            })
            .collect();
        s.values_across_bids(&after, 1).unwrap().into_iter().map(i64::from).collect()
    });
}

/// Solves every deal of `deals` with `solve` and prints the time and nodes per deal and a
/// checksum of the numbers `solve` returns.
fn report(label: &str, solver: &mut Solver, deals: &[Deal], solve: impl Fn(&mut Solver, &Deal) -> Vec<i64>) {
    let (t, nodes0) = (Instant::now(), solver.nodes());
    let mut sum = 0i64;
    for d in deals {
        for x in solve(solver, d) {
            sum = sum.wrapping_mul(31).wrapping_add(x);
        }
    }
    let s = t.elapsed().as_secs_f64();
    let (n, nodes) = (deals.len() as f64, (solver.nodes() - nodes0) as f64);
    println!(
        "{label}: {:.3} ms per deal, {:.0} nodes per deal, {:.1} M nodes/s, checksum {sum}",
        s * 1e3 / n,
        nodes / n,
        nodes / s / 1e6
    );
}

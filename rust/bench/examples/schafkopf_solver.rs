//! Times Schafkopf's perfect-information solver on whole deals:
//! `schafkopf_solver [deals] [seed] [rules]` (defaults 1000, 1, schafkopfrl).
//!
//! Per game type (Sauspiel, Wenz, Solo): `deals` random deals declared by the first seat that
//! may declare it (the others passing, no doubling), solved from the first trick's lead (the
//! payment to the seat to act, [`Solver::value`]) on one thread, one solve at a time. Prints the
//! solves per second, the mean, median, 90th and 99th percentile and largest time of a solve, the nodes per
//! solve (mean and median), and a checksum of the values (equal checksums: equal values).
use cfrkit_core::games::schafkopf::cards::{EICHEL, GRAS, HERZ, SCHELLEN};
use cfrkit_core::games::schafkopf::pimc::solver::Solver;
use cfrkit_core::games::schafkopf::{Action, Deal, Declaration, Game, Phase, Rules};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().expect("deals: an integer")).unwrap_or(1000);
    let seed: u64 = args.get(2).map(|s| s.parse().expect("seed: an integer")).unwrap_or(1);
    let rules = Rules::parse(args.get(3).map_or("schafkopfrl", String::as_str)).expect("rules");
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut solver = Solver::new();
    let kinds: [(&str, &[Declaration]); 3] = [
        ("sauspiel", &[Declaration::Sauspiel(SCHELLEN), Declaration::Sauspiel(GRAS), Declaration::Sauspiel(EICHEL)]),
        ("wenz", &[Declaration::Wenz]),
        (
            "solo",
            &[Declaration::Solo(SCHELLEN), Declaration::Solo(HERZ), Declaration::Solo(GRAS), Declaration::Solo(EICHEL)],
        ),
    ];
    let mut all = Vec::new();
    for (label, decls) in kinds {
        let mut games = Vec::with_capacity(n);
        while games.len() < n {
            let decl = decls[rng.gen_range(0..decls.len())];
            if let Some(g) = declared(&Deal::random(&mut rng), decl, rules) {
                games.push(g);
            }
        }
        let times = report(label, &mut solver, &games);
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    println!(
        "all: {:.0} solves/s, mean {:.3} ms, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms",
        all.len() as f64 / all.iter().sum::<f64>(),
        all.iter().sum::<f64>() / all.len() as f64 * 1e3,
        all[all.len() / 2] * 1e3,
        all[all.len() * 9 / 10] * 1e3,
        all[all.len() * 99 / 100] * 1e3
    );
}

/// The game of `deal` declared `decl` by the first seat that may (the others passing), nobody
/// doubling, at the first trick's lead; None if no seat may declare it.
fn declared(deal: &Deal, decl: Declaration, rules: Rules) -> Option<Game> {
    let mut g = Game::new(deal, rules);
    let mut done = false;
    while g.phase() == Phase::Bidding {
        let a = if !done && g.is_legal(Action::Declare(decl)) {
            done = true;
            Action::Declare(decl)
        } else {
            Action::Declare(Declaration::Pass)
        };
        g.apply(a).ok()?;
    }
    while matches!(g.phase(), Phase::Contra | Phase::Retour) {
        g.apply(Action::Double(false)).ok()?;
    }
    (done && g.phase() == Phase::Tricks).then_some(g)
}

/// Solves every game of `games` from its position (the payment to the seat to act), prints the
/// figures, and returns the time of each solve in seconds.
fn report(label: &str, solver: &mut Solver, games: &[Game]) -> Vec<f64> {
    let nodes0 = solver.nodes();
    let mut times = Vec::with_capacity(games.len());
    let mut per_solve = Vec::with_capacity(games.len());
    let mut sum = 0i64;
    for g in games {
        let (t, before) = (Instant::now(), solver.nodes());
        let v = solver.value(g, g.player().expect("a seat to act")).expect("a game in the tricks");
        times.push(t.elapsed().as_secs_f64());
        per_solve.push(solver.nodes() - before);
        sum = sum.wrapping_mul(31).wrapping_add(v);
    }
    let total: f64 = times.iter().sum();
    let nodes = (solver.nodes() - nodes0) as f64 / games.len() as f64;
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    per_solve.sort_unstable();
    let q = |x: f64| sorted[((sorted.len() as f64 * x) as usize).min(sorted.len() - 1)] * 1e3;
    println!(
        "{label}: {} deals, {:.0} solves/s, mean {:.3} ms, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.1} ms, {:.0} nodes/solve (median {}), {:.1} M nodes/s, checksum {sum}",
        games.len(),
        games.len() as f64 / total,
        total / games.len() as f64 * 1e3,
        q(0.5),
        q(0.9),
        q(0.99),
        sorted[sorted.len() - 1] * 1e3,
        nodes,
        per_solve[per_solve.len() / 2],
        nodes * games.len() as f64 / total / 1e6
    );
    times
}

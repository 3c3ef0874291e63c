//! Times Skat's search-based pre-cardplay agent and plays it head to head:
//! `skat_precardplay [deals] [worlds] [seed] [match_deals] [threads]` (defaults 30, 16, 1, 0, 1).
//!
//! * **Timing**: `deals` random deals (`Deal::for_game(seed, i)`) taken to the first card by
//!   [`PrecardplaySearch`] with `worlds` worlds in every seat, on one thread; prints the time per
//!   decision by kind (median, mean, max): bids and holds searched, bids decided by the `rules`
//!   prefilter, Hand or pickup, discard, declaration; and the decisions taken.
//! * **Match** (when `match_deals` > 0): `pimc:worlds=16,bidding=search` against
//!   `pimc:worlds=16` over `match_deals` deals in the six seatings (seed `seed`, on `threads`
//!   threads); prints TP/G of both and the difference with its 95% interval.
use cfrkit_core::games::skat::agents::rules_agent::{bid_limit, Thresholds};
use cfrkit_core::games::skat::agents::Agent;
use cfrkit_core::games::skat::pimc::precardplay::{PrecardplaySearch, PREFILTER_SLACK};
use cfrkit_core::games::skat::{registry, Action, Deal, Game, Phase, View};
use cfrkit_core::trick::matches::{run_match, MatchSettings};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).map(|s| s.parse::<u64>().expect("an integer")).unwrap_or(d);
    let (deals, worlds, seed, match_deals, threads) = (arg(1, 30), arg(2, 16), arg(3, 1), arg(4, 0), arg(5, 1));
    let agent = PrecardplaySearch::new(worlds as usize, 1, seed).expect("an agent");
    let th = Thresholds::default();
    let relaxed = Thresholds { bid: th.bid - PREFILTER_SLACK, ..th };
    let mut times: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut taken: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..deals {
        let mut g = Game::new(&Deal::for_game(seed, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while g.phase() != Phase::Tricks && !g.finished() {
            let p = g.player().expect("a seat to act");
            let view = View::new(&g, p);
            let kind = match g.phase() {
                Phase::Bidding if bid_limit(g.hand(p), &relaxed) == 0 => "bid (prefilter)",
                Phase::Bidding => "bid (searched)",
                Phase::Skat => "hand or pickup",
                Phase::Discard => "discard",
                _ => "declare",
            };
            let t = Instant::now();
            let a = agent.act(&view, &mut rng).expect("an action");
            times.entry(kind).or_default().push(t.elapsed().as_secs_f64());
            let name = match (g.phase(), a) {
                (Phase::Bidding, Action::Call(c)) => format!("{c:?}").split('(').next().unwrap_or("").to_string(),
                (Phase::Discard, _) => "discard".into(),
                _ => a.name(),
            };
            *taken.entry(name).or_default() += 1;
            g.apply(a).expect("a legal action");
        }
    }
    println!("pre-cardplay search, {worlds} worlds, {deals} deals, one thread:");
    for (kind, v) in &mut times {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        println!(
            "  {kind:16} n={:4}  median {:8.2} ms  mean {:8.2} ms  max {:8.2} ms",
            v.len(),
            1e3 * v[v.len() / 2],
            1e3 * mean,
            1e3 * v[v.len() - 1]
        );
    }
    println!("  decisions: {taken:?}");

    if match_deals > 0 {
        let a = registry::parse("pimc:worlds=16,bidding=search").expect("an agent");
        let b = registry::parse("pimc:worlds=16").expect("an agent");
        let settings = MatchSettings { seed, threads: threads as usize, ..MatchSettings::default() };
        let t = Instant::now();
        let r = run_match(a.as_ref(), b.as_ref(), match_deals, &settings, None, &mut cfrkit_core::arena::quiet)
            .expect("a match");
        let p = &r.pair;
        println!(
            "{} vs {}: {} deals, {} games, {:.0} s: TP/G {:.2} vs {:.2}, diff {:+.2} ± {:.2} (95%)",
            a.name(),
            b.name(),
            p.deals,
            p.games,
            t.elapsed().as_secs_f64(),
            p.a.mean,
            p.b.mean,
            p.diff.mean,
            p.diff.ci95
        );
        println!("  breakdown A {:?}", r.breakdown(0).iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>());
        println!("  breakdown B {:?}", r.breakdown(1).iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>());
    }
}

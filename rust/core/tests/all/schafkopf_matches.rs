//! Schafkopf matches and tournaments: reproducible for any number of threads, the same deals in
//! every seating, zero-sum cross tables.

use cfrkit_core::arena::{quiet, Protocol};
use cfrkit_core::games::schafkopf::agents::Schafkopf;
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::{Deal, Rules};
use cfrkit_core::trick::matches::{parse_protocol, play_deal, run_match, run_tournament, MatchSettings};

#[test]
fn tournaments_do_not_depend_on_threads() {
    let specs = ["rules", "random", "random-coward"];
    let list: Vec<_> = specs.iter().map(|s| registry::parse(s).unwrap()).collect();
    for protocol in [Protocol::Halves, Protocol::Rotation] {
        let run = |threads| {
            let s = MatchSettings { protocol, seed: 21, threads, ..MatchSettings::default() };
            run_tournament(&list, 400, &s, None, &mut quiet).unwrap()
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        assert_eq!(one.names, specs);
        for (i, j, r) in &one.pairs {
            // Zero-sum with two seats each: B's result is minus A's, deal by deal.
            assert!((r.a.mean + r.b.mean).abs() < 1e-9, "{i} {j} {r:?}");
            assert_eq!(r.deals, 400);
        }
        // The rule-based player beats random play clearly.
        let (m, ci) = one.cell(0, 1).unwrap();
        assert!(m - ci > 50.0, "{m} ± {ci}");
    }
    let e = run_tournament(&list[..1], 10, &MatchSettings::default(), None, &mut quiet).unwrap_err().to_string();
    assert!(e.contains("two or more"), "{e}");
}

#[test]
fn matches_replay_the_same_deals_and_a_different_seed_differs() {
    let (rules, random) = (registry::parse("rules").unwrap(), registry::parse("random").unwrap());
    let s = MatchSettings { seed: 5, threads: 2, ..MatchSettings::default() };
    let a = run_match(rules.as_ref(), random.as_ref(), 300, &s, None, &mut quiet).unwrap();
    assert_eq!(a, run_match(rules.as_ref(), random.as_ref(), 300, &s, None, &mut quiet).unwrap());
    let b = run_match(rules.as_ref(), random.as_ref(), 300, &MatchSettings { seed: 6, ..s }, None, &mut quiet).unwrap();
    assert_ne!(a.pair.a.mean, b.pair.a.mean);
    assert_eq!((a.pair.games, a.pair.deals), (600, 300));
    // Every seating of deal i plays Deal::for_game(seed, i), whatever the agents do.
    for i in 0..20 {
        let seats = [rules.as_ref(), rules.as_ref(), random.as_ref(), random.as_ref()];
        let g = play_deal(Rules::SCHAFKOPFRL, 5, i, 3, &seats).unwrap();
        assert_eq!(g.deal(), Deal::for_game(5, i));
    }
    assert_eq!(parse_protocol::<Schafkopf>("rotation").unwrap(), Protocol::Rotation);
    assert!(parse_protocol::<Schafkopf>("halves").is_err());
    assert!(run_match(rules.as_ref(), random.as_ref(), 0, &s, None, &mut quiet).is_err());
    // A match in parts: deals 0..100 and 100..300 are the deals of the whole match.
    let head = run_match(rules.as_ref(), random.as_ref(), 100, &s, None, &mut quiet).unwrap();
    let tail =
        run_match(rules.as_ref(), random.as_ref(), 200, &MatchSettings { first_deal: 100, ..s }, None, &mut quiet);
    let tail = tail.unwrap();
    assert_eq!((tail.pair.deals, tail.pair.games), (200, 400));
    assert!(((head.pair.a.mean * 100.0 + tail.pair.a.mean * 200.0) / 300.0 - a.pair.a.mean).abs() < 1e-9);
    assert_ne!(head.pair.a.mean, tail.pair.a.mean);
    let far = MatchSettings { first_deal: u64::MAX, ..s };
    assert!(run_match(rules.as_ref(), random.as_ref(), 10, &far, None, &mut quiet)
        .unwrap_err()
        .to_string()
        .contains("first_deal"));
}

/// Every seat-game is tallied once: a Sauspiel has one declarer, one partner and two defenders,
/// a Wenz or a Solo one declarer and three defenders; shared decisions make `random` against
/// itself a tie.
#[test]
fn the_tally_counts_each_seat_once_by_its_part_in_the_contract() {
    use cfrkit_core::games::schafkopf::matches::CATEGORIES;
    let (rules, random) = (registry::parse("rules").unwrap(), registry::parse("random").unwrap());
    let s = MatchSettings { seed: 8, threads: 2, ..MatchSettings::default() };
    let r = run_match(rules.as_ref(), random.as_ref(), 200, &s, None, &mut quiet).unwrap();
    let all: Vec<u64> = (0..CATEGORIES.len()).map(|c| r.tallies[0][c] + r.tallies[1][c]).collect();
    assert_eq!(all.iter().sum::<u64>(), 4 * r.pair.games);
    let [sauspiel, wenz, solo, partner, defender, passed] = all[..] else { unreachable!() };
    assert_eq!(partner, sauspiel, "{all:?}");
    assert_eq!(defender, 2 * sauspiel + 3 * (wenz + solo), "{all:?}");
    assert_eq!(passed % 4, 0);
    assert!(sauspiel > 0 && wenz > 0 && solo > 0, "{all:?}");
    // Each agent holds two seats of every game; random declares far more (and worse) solos.
    assert_eq!(r.tallies.each_ref().map(|t| t.iter().sum::<u64>()), [2 * r.pair.games; 2]);
    assert!(r.tallies[1][2] > 5 * r.tallies[0][2], "{:?}", r.tallies);
    let shared = MatchSettings { share_decisions: true, ..s };
    let tie = run_match(random.as_ref(), random.as_ref(), 50, &shared, None, &mut quiet).unwrap();
    assert_eq!((tie.pair.diff.mean, tie.pair.diff.sd), (0.0, 0.0));
    assert_ne!(run_match(random.as_ref(), random.as_ref(), 50, &s, None, &mut quiet).unwrap().pair.diff.mean, 0.0);
}

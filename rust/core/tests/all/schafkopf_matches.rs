//! Schafkopf matches and tournaments: reproducible for any number of threads, the same deals in
//! every seating, zero-sum cross tables.

use cfrkit_core::arena::{quiet, Protocol};
use cfrkit_core::games::schafkopf::matches::{parse_protocol, play_deal, run_match, run_tournament, MatchSettings};
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::{Deal, Rules};

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
    assert_ne!(a.a.mean, b.a.mean);
    assert_eq!((a.games, a.deals), (600, 300));
    // Every seating of deal i plays Deal::for_game(seed, i), whatever the agents do.
    for i in 0..20 {
        let seats = [rules.as_ref(), rules.as_ref(), random.as_ref(), random.as_ref()];
        let g = play_deal(5, i, 3, Rules::SCHAFKOPFRL, seats).unwrap();
        assert_eq!(g.deal(), Deal::for_game(5, i));
    }
    assert_eq!(parse_protocol("rotation").unwrap(), Protocol::Rotation);
    assert!(parse_protocol("halves").is_err());
    assert!(run_match(rules.as_ref(), random.as_ref(), 0, &s, None, &mut quiet).is_err());
    // A match in parts: deals 0..100 and 100..300 are the deals of the whole match.
    let head = run_match(rules.as_ref(), random.as_ref(), 100, &s, None, &mut quiet).unwrap();
    let tail =
        run_match(rules.as_ref(), random.as_ref(), 200, &MatchSettings { first_deal: 100, ..s }, None, &mut quiet);
    let tail = tail.unwrap();
    assert_eq!((tail.deals, tail.games), (200, 400));
    assert!(((head.a.mean * 100.0 + tail.a.mean * 200.0) / 300.0 - a.a.mean).abs() < 1e-9);
    assert_ne!(head.a.mean, tail.a.mean);
    let far = MatchSettings { first_deal: u64::MAX, ..s };
    assert!(run_match(rules.as_ref(), random.as_ref(), 10, &far, None, &mut quiet)
        .unwrap_err()
        .to_string()
        .contains("first_deal"));
}

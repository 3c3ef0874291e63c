//! Skat agents and matches: legal play over many games, the six seatings on identical deals,
//! results that do not depend on threads, the game-type breakdown, and `rules` beating `random`.

use cfrkit_core::arena::{quiet, Protocol};
use cfrkit_core::games::skat::agents::Agent;
use cfrkit_core::games::skat::features::{
    action_id, action_of, features, legal_ids, legal_mask, FEATURES, NUM_ACTIONS,
};
use cfrkit_core::games::skat::matches::{
    category, play_deal, run_match, run_tournament, MatchSettings, CATEGORIES, MAX_DEALS,
};
use cfrkit_core::games::skat::{registry, Deal, View};

fn agents() -> (std::sync::Arc<dyn Agent>, std::sync::Arc<dyn Agent>) {
    (registry::parse("rules").unwrap(), registry::parse("random").unwrap())
}

/// Every seat mixture of `rules` and `random` plays whole games legally (the match loop checks
/// every action), on the deal of its index; every view's features and mask are well formed.
#[test]
fn agents_play_legally_and_views_encode() {
    let (rules, random) = agents();
    let mut kinds = [0u32; 6];
    for i in 0..300u64 {
        let mix = i % 8;
        let seats: [&dyn Agent; 3] =
            std::array::from_fn(|s| if mix >> s & 1 == 0 { rules.as_ref() } else { random.as_ref() });
        let g = play_deal(9, i, mix, seats).unwrap();
        assert!(g.finished());
        assert_eq!(g.deal(), Deal::for_game(9, i));
        assert_eq!(g.returns(), g.result().unwrap().tp);
        for s in 0..3 {
            kinds[category(&g, s)] += 1;
        }
        // Replaying the history through the ids, every action is legal and has its id.
        let mut replay = cfrkit_core::games::skat::Game::new(&Deal::for_game(9, i));
        for (p, a) in g.history() {
            let v = View::new(&replay, p);
            let id = action_id(a).unwrap();
            assert!(legal_mask(&v)[id] && legal_ids(&v).contains(&id));
            assert_eq!(action_of(id), Some(a));
            let f = features(&v);
            assert_eq!(f.len(), FEATURES);
            assert!(f.iter().all(|x| x.is_finite() && (0.0..=1.0).contains(x)));
            assert!(legal_mask(&View::new(&replay, (p + 1) % 3)).iter().all(|&m| !m));
            replay.apply(a).unwrap();
        }
        assert_eq!(replay, g);
    }
    // Suit games, defenders and (with random bidders) thrown-in deals all occur.
    assert!(kinds[1] > 0 && kinds[4] > 0 && kinds[5] > 0, "{kinds:?}");
    assert_eq!(legal_mask(&View::new(&play_deal(9, 0, 0, [rules.as_ref(); 3]).unwrap(), 0)).len(), NUM_ACTIONS);
}

#[test]
fn matches_do_not_depend_on_threads_and_rules_beats_random() {
    let (rules, random) = agents();
    let run = |threads, seed| {
        let s = MatchSettings { seed, threads, ..MatchSettings::default() };
        run_match(rules.as_ref(), random.as_ref(), 300, &s, &mut quiet).unwrap()
    };
    let one = run(1, 4);
    assert_eq!(one, run(2, 4));
    assert_ne!(one.pair.a.mean, run(2, 5).pair.a.mean);
    assert_eq!((one.pair.deals, one.pair.games), (300, 1800));
    // Six seatings, AAB ABA ABB BAA BAB BBA: each program holds 9 of the 18 seats of a deal's games.
    let six = Protocol::Rotation.seatings(3).unwrap();
    assert_eq!(six, [[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0]]);
    for k in 0..2 {
        assert_eq!(one.tallies[k].len(), CATEGORIES.len());
        assert_eq!(one.tallies[k].iter().sum::<u64>(), 300 * 9);
        assert!((one.breakdown(k).iter().sum::<f64>() - 100.0).abs() < 1e-9);
    }
    eprintln!("rules vs random: {one:?} breakdowns {:?} {:?}", one.breakdown(0), one.breakdown(1));
    assert!((one.pair.diff.mean - (one.pair.a.mean - one.pair.b.mean)).abs() < 1e-9);
    // The rule-based player beats random play clearly.
    assert!(one.pair.diff.mean - one.pair.diff.ci95 > 100.0, "{one:?}");
    // A match in parts plays the deals of the whole match.
    let s = MatchSettings { seed: 4, threads: 2, ..MatchSettings::default() };
    let head = run_match(rules.as_ref(), random.as_ref(), 100, &s, &mut quiet).unwrap();
    let tail = run_match(rules.as_ref(), random.as_ref(), 200, &MatchSettings { first_deal: 100, ..s }, &mut quiet);
    let tail = tail.unwrap();
    assert!(((head.pair.a.mean * 100.0 + tail.pair.a.mean * 200.0) / 300.0 - one.pair.a.mean).abs() < 1e-9);
    for bad in [0, MAX_DEALS + 1] {
        assert!(run_match(rules.as_ref(), random.as_ref(), bad, &s, &mut quiet).is_err());
    }
}

#[test]
fn tournaments_give_a_cross_table() {
    let (rules, random) = agents();
    let list = vec![rules.clone(), random.clone(), rules];
    let s = MatchSettings { seed: 2, threads: 2, ..MatchSettings::default() };
    let t = run_tournament(&list, 60, &s, &mut quiet).unwrap();
    assert_eq!(t.pairs.len(), 3);
    assert_eq!(t.names, ["rules", "random", "rules"]);
    let m = run_match(list[0].as_ref(), list[1].as_ref(), 60, &s, &mut quiet).unwrap();
    assert_eq!(t.cell(0, 1), Some((m.pair.a.mean, m.pair.a.ci95)));
    // The same program on both sides: equal results.
    let (x, _) = t.cell(0, 2).unwrap();
    let (y, _) = t.cell(2, 0).unwrap();
    assert!((x - y).abs() < 1e-9, "{x} {y}");
    assert!(run_tournament(&list[..1], 10, &s, &mut quiet).is_err());
}

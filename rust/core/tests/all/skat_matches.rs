//! Skat agents and matches: legal play over many games, the six seatings on identical deals,
//! results that do not depend on threads, the game-type breakdown, and `rules` beating `random`.

use cfrkit_core::arena::{quiet, LogWriter, Protocol};
use cfrkit_core::games::skat::agents::{Agent, Skat};
use cfrkit_core::games::skat::features::{
    action_id, action_of, features, legal_ids, legal_mask, FEATURES, NUM_ACTIONS,
};
use cfrkit_core::games::skat::matches::CATEGORIES;
use cfrkit_core::games::skat::{registry, Deal, View};
use cfrkit_core::trick::matches::{play_deal, run_match, run_tournament, MatchSettings, MAX_DEALS};
use cfrkit_core::trick::MatchGame;

fn agents() -> (std::sync::Arc<dyn Agent<Skat>>, std::sync::Arc<dyn Agent<Skat>>) {
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
        let seats: [&dyn Agent<Skat>; 3] =
            std::array::from_fn(|s| if mix >> s & 1 == 0 { rules.as_ref() } else { random.as_ref() });
        let g = play_deal(Default::default(), 9, i, mix, &seats).unwrap();
        assert!(g.finished());
        assert_eq!(g.deal(), Deal::for_game(9, i));
        assert_eq!(g.returns(), g.result().unwrap().tp);
        for s in 0..3 {
            kinds[Skat::category(&g, s)] += 1;
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
    assert_eq!(
        legal_mask(&View::new(&play_deal(Default::default(), 9, 0, 0, &[rules.as_ref(); 3]).unwrap(), 0)).len(),
        NUM_ACTIONS
    );
}

#[test]
fn matches_do_not_depend_on_threads_and_rules_beats_random() {
    let (rules, random) = agents();
    let run = |threads, seed| {
        let s = MatchSettings { seed, threads, ..MatchSettings::default() };
        run_match(rules.as_ref(), random.as_ref(), 300, &s, None, &mut quiet).unwrap()
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
    let head = run_match(rules.as_ref(), random.as_ref(), 100, &s, None, &mut quiet).unwrap();
    let tail =
        run_match(rules.as_ref(), random.as_ref(), 200, &MatchSettings { first_deal: 100, ..s }, None, &mut quiet);
    let tail = tail.unwrap();
    assert!(((head.pair.a.mean * 100.0 + tail.pair.a.mean * 200.0) / 300.0 - one.pair.a.mean).abs() < 1e-9);
    for bad in [0, MAX_DEALS + 1] {
        assert!(run_match(rules.as_ref(), random.as_ref(), bad, &s, None, &mut quiet).is_err());
    }
}

/// With `share_decisions`, a deal's six games share their decisions (each keyed by the game's
/// history), which changes no game: each is the game played alone with its own decision
/// streams, a program's decision in a history is the same in every seating, and a program
/// against itself ties every deal to the point, even a random one. Without, each game has its
/// own stream, as `play_deal` plays it.
#[test]
fn a_deals_games_can_share_decisions_without_changing_them() {
    use cfrkit_core::arena::log::read;
    use cfrkit_core::arena::shared::Streams;
    use cfrkit_core::games::skat::Game;
    use cfrkit_core::trick::matches::{deal_choices, log_header, play_recorded};
    let scratch = tempfile::Builder::new().prefix("cfrkit-skat-shared-").tempdir().unwrap();
    let path = scratch.path().join("games.jsonl");
    let (pimc, random) = (registry::parse("pimc:worlds=3").unwrap(), registry::parse("random").unwrap());
    let shared = MatchSettings { seed: 3, threads: 2, share_decisions: true, ..MatchSettings::default() };
    let log = LogWriter::create(
        &path,
        &log_header(vec![pimc.name(), random.name()], &MatchSettings::<Skat> { seed: 3, ..Default::default() }),
    )
    .unwrap();
    let r = run_match(pimc.as_ref(), random.as_ref(), 3, &shared, Some(&log), &mut quiet).unwrap();
    log.finish().unwrap();
    let unshared = MatchSettings { share_decisions: false, ..shared };
    assert_ne!(r, run_match(pimc.as_ref(), random.as_ref(), 3, &unshared, None, &mut quiet).unwrap());
    let log = read(&path).unwrap();
    assert_eq!(log.games.len(), 18);
    let mut decided = std::collections::HashMap::new();
    for r in &log.games {
        let seats: [&dyn Agent<Skat>; 3] =
            std::array::from_fn(|p| if r.seating[p] == 0 { pimc.as_ref() } else { random.as_ref() });
        let mut alone = Game::new(&Deal::for_game(3, r.deal));
        let mut own = deal_choices::<Skat>(3, r.deal);
        play_recorded(&mut alone, &seats, &mut Streams::Shared { choices: &mut own, programs: &[0, 1, 2] }, None)
            .unwrap();
        let actions: Vec<u32> = r.decisions.iter().map(|d| d.action).collect();
        let ids: Vec<u32> = alone.history().iter().map(|&(_, a)| action_id(a).unwrap() as u32).collect();
        assert_eq!(actions, ids, "deal {} seating {:?}", r.deal, r.seating);
        for (k, d) in r.decisions.iter().enumerate() {
            let program = r.seating[d.seat as usize];
            let before = (r.deal, program, actions[..k].to_vec());
            assert_eq!(*decided.entry(before).or_insert(d.action), d.action);
        }
    }
    // Fewer decisions than moves: the first lead alone is taken once per program.
    assert!(decided.len() < log.games.iter().map(|r| r.decisions.len()).sum::<usize>());
    for spec in ["random", "rules"] {
        let agent = registry::parse(spec).unwrap();
        let r = run_match(agent.as_ref(), agent.as_ref(), 40, &shared, None, &mut quiet).unwrap();
        assert!(r.pair.per_deal.iter().all(|x| x[0] == x[1]), "{spec}: {:?}", r.pair.per_deal);
        assert_eq!(r.tallies[0], r.tallies[1]);
        // Shared or not, the same for any number of threads.
        assert_eq!(
            r,
            run_match(agent.as_ref(), agent.as_ref(), 40, &MatchSettings { threads: 1, ..shared }, None, &mut quiet)
                .unwrap()
        );
    }
    let random_alone = run_match(random.as_ref(), random.as_ref(), 40, &unshared, None, &mut quiet).unwrap();
    assert!(random_alone.pair.per_deal.iter().any(|x| x[0] != x[1]));
}

#[test]
fn tournaments_give_a_cross_table() {
    let (rules, random) = agents();
    let list = vec![rules.clone(), random.clone(), rules];
    let s = MatchSettings { seed: 2, threads: 2, ..MatchSettings::default() };
    let t = run_tournament(&list, 60, &s, None, &mut quiet).unwrap();
    assert_eq!(t.pairs.len(), 3);
    assert_eq!(t.names, ["rules", "random", "rules"]);
    let m = run_match(list[0].as_ref(), list[1].as_ref(), 60, &s, None, &mut quiet).unwrap();
    assert_eq!(t.cell(0, 1), Some((m.pair.a.mean, m.pair.a.ci95)));
    // The same program on both sides: equal results.
    let (x, _) = t.cell(0, 2).unwrap();
    let (y, _) = t.cell(2, 0).unwrap();
    assert!((x - y).abs() < 1e-9, "{x} {y}");
    assert!(run_tournament(&list[..1], 10, &s, None, &mut quiet).is_err());
}

/// A log of `deals` deals of `a` against `b` (deals from `first` on, the log going on after
/// `keep` games), written on `threads` threads: its bytes and the match's figures.
fn logged_match(a: &str, b: &str, first: u64, deals: u64, keep: u64, threads: usize, path: &std::path::Path) -> String {
    use cfrkit_core::arena::log::LogWriter;
    use cfrkit_core::trick::matches::log_header;
    let (a, b) = (registry::parse(a).unwrap(), registry::parse(b).unwrap());
    let header = log_header(vec![a.name(), b.name()], &MatchSettings::<Skat> { seed: 3, ..Default::default() });
    // A new log is a new file: the run before's is removed first.
    let log = if keep == 0 {
        let _ = std::fs::remove_file(path);
        LogWriter::create(path, &header)
    } else {
        LogWriter::resume(path, &header, keep)
    }
    .unwrap();
    let s = MatchSettings { seed: 3, threads, first_deal: first, ..MatchSettings::default() };
    let logged = run_match(a.as_ref(), b.as_ref(), deals, &s, Some(&log), &mut quiet).unwrap();
    assert_eq!(log.finish().unwrap(), 6 * (first + deals));
    // Logging changes nothing in the games.
    assert_eq!(logged, run_match(a.as_ref(), b.as_ref(), deals, &s, None, &mut quiet).unwrap());
    std::fs::read_to_string(path).unwrap()
}

/// Match logs: the same bytes on any number of threads and when written in parts; every game
/// replays from its cards and decisions to its result; PIMC's decisions carry its values, the
/// card played being the first of the highest mean.
#[test]
fn match_logs_replay_and_do_not_depend_on_threads() {
    use cfrkit_core::arena::log::read;
    use cfrkit_core::games::skat::Game;
    let scratch = tempfile::Builder::new().prefix("cfrkit-skat-log-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("games.jsonl");
    let one = logged_match("rules", "random", 0, 20, 0, 1, &path);
    assert_eq!(logged_match("rules", "random", 0, 20, 0, 2, &path), one);
    logged_match("rules", "random", 0, 7, 0, 2, &path);
    assert_eq!(logged_match("rules", "random", 7, 13, 42, 2, &path), one);
    let log = read(&path).unwrap();
    assert_eq!((log.header.game.as_str(), log.header.actions.len(), log.games.len()), ("skat", NUM_ACTIONS, 120));
    for r in &log.games {
        let hands: Vec<String> =
            r.cards["hands"].as_array().unwrap().iter().map(|h| h.as_str().unwrap().into()).collect();
        let deal = Deal::parse(&hands, r.cards["skat"].as_str().unwrap()).unwrap();
        assert_eq!(deal, Deal::for_game(3, r.deal));
        let mut g = Game::new(&deal);
        for d in &r.decisions {
            assert_eq!(Some(d.seat), g.player());
            let ids: Vec<u32> = legal_ids(&View::new(&g, d.seat)).into_iter().map(|x| x as u32).collect();
            assert_eq!(d.legal, ids);
            g.apply(action_of(d.action as usize).unwrap()).unwrap();
        }
        assert!(g.finished());
        assert_eq!(r.returns, g.returns().iter().map(|&x| x as i64).collect::<Vec<_>>());
        assert_eq!(r.result["list_score"].as_i64(), Some(g.result().unwrap().list_score() as i64));
    }
    logged_match("pimc:worlds=4", "rules", 0, 2, 0, 2, &path);
    let log = read(&path).unwrap();
    let valued: Vec<_> = log.games.iter().flat_map(|r| &r.decisions).filter(|d| d.values.is_some()).collect();
    assert!(valued.len() > 20, "{}", valued.len());
    for d in valued {
        let v = d.values.as_ref().unwrap();
        let best = (0..v.len()).fold(0, |b, k| if v[k] > v[b] { k } else { b });
        assert_eq!(d.legal[best], d.action, "{d:?}");
    }
    // A tournament logs its pairs one after the other, seats naming the header's agents.
    let list: Vec<_> = ["rules", "random", "rules"].iter().map(|a| registry::parse(a).unwrap()).collect();
    let header = cfrkit_core::trick::matches::log_header(
        list.iter().map(|a| a.name()).collect(),
        &MatchSettings::<Skat>::default(),
    );
    let _ = std::fs::remove_file(&path); // a new log is a new file
    let w = cfrkit_core::arena::log::LogWriter::create(&path, &header).unwrap();
    run_tournament(&list, 4, &MatchSettings { threads: 2, ..MatchSettings::default() }, Some(&w), &mut quiet).unwrap();
    assert_eq!(w.finish().unwrap(), 3 * 4 * 6);
    let log = read(&path).unwrap();
    let pairs: Vec<Vec<u8>> = log.games.iter().step_by(24).map(|r| r.seating.clone()).collect();
    assert_eq!(pairs, [vec![0, 0, 1], vec![0, 0, 2], vec![1, 1, 2]]);
}

/// Self-play: one game per deal with the agent in every seat, game `i` of the log being deal
/// `i` played as `play_deal` plays it; the same log on any number of threads and in parts;
/// the figures are the agent's alone.
#[test]
fn selfplay_plays_each_deal_once_and_logs_it() {
    use cfrkit_core::arena::log::{read, LogWriter};
    use cfrkit_core::arena::Protocol;
    use cfrkit_core::trick::matches::{log_header, run_selfplay};
    let scratch = tempfile::Builder::new().prefix("cfrkit-skat-selfplay-").tempdir().unwrap();
    let path = scratch.path().join("selfplay.jsonl");
    let agent = registry::parse("rules").unwrap();
    let header = log_header(
        vec![agent.name()],
        &MatchSettings::<Skat> { seed: 5, protocol: Protocol::Alone, ..Default::default() },
    );
    let run = |first: u64, deals: u64, keep: u64, threads: usize| {
        let log = if keep == 0 {
            let _ = std::fs::remove_file(&path); // a new log is a new file
            LogWriter::create(&path, &header)
        } else {
            LogWriter::resume(&path, &header, keep)
        };
        let log = log.unwrap();
        let s = MatchSettings { seed: 5, threads, first_deal: first, ..MatchSettings::default() };
        let r = run_selfplay(agent.as_ref(), deals, &s, Some(&log), &mut quiet).unwrap();
        assert_eq!(log.finish().unwrap(), first + deals);
        (r, std::fs::read_to_string(&path).unwrap())
    };
    let (whole, bytes) = run(0, 30, 0, 1);
    assert_eq!((whole.pair.deals, whole.pair.games), (30, 30));
    assert_eq!(whole.tallies[0].iter().sum::<u64>(), 90);
    assert_eq!(whole.tallies[1].iter().sum::<u64>(), 0);
    assert_eq!(run(0, 30, 0, 2).1, bytes);
    run(0, 11, 0, 2);
    assert_eq!(run(11, 19, 11, 2).1, bytes);
    let log = read(&path).unwrap();
    assert_eq!((log.header.agents.len(), log.header.settings.as_str()), (1, "protocol=alone"));
    let mut tp = 0i64;
    for (i, r) in log.games.iter().enumerate() {
        assert_eq!((r.game, r.deal, r.seating.clone()), (i as u64, i as u64, vec![0, 0, 0]));
        let a = agent.as_ref();
        let g = play_deal(Default::default(), 5, i as u64, 0, &[a, a, a]).unwrap();
        assert_eq!(r.returns, g.returns().iter().map(|&x| x as i64).collect::<Vec<_>>());
        tp += r.returns.iter().sum::<i64>();
    }
    assert!((whole.pair.a.mean - tp as f64 / 90.0).abs() < 1e-9, "{} {tp}", whole.pair.a.mean);
}

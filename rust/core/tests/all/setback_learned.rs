//! Setback game logs and learned policies: logging changes no figure and does not depend on the
//! threads; PIMC logs its means; logged games replay into samples (bad records refused); the
//! features of a hand-made position; imitation of `rules` beats the frequency baseline; the
//! `net:DIR` agent plays whole matches legally; the learned hybrid decides as the policy early
//! and as PIMC late; PIMC with inference weighs the true deal above most worlds.

use cfrkit_core::arena::log::{read, GameRecord, LogWriter};
use cfrkit_core::arena::quiet;
use cfrkit_core::games::setback::cards::parse_cards;
use cfrkit_core::games::setback::features::{features, FEATURES, LAYOUT};
use cfrkit_core::games::setback::learned::{kind_of, legal_net_ids, log_likelihood, SetbackPolicies, KINDS};
use cfrkit_core::games::setback::pimc::worlds::Worlds;
use cfrkit_core::games::setback::play::agent::{Agent, Move};
use cfrkit_core::games::setback::play::game::Game;
use cfrkit_core::games::setback::play::log::{log_header, LogSlot, SETTINGS};
use cfrkit_core::games::setback::play::matches::{play_pairs_logged, summarize, Summary};
use cfrkit_core::games::setback::play::rules_agent::RulesAgent;
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::registry;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use cfrkit_core::learn::learnable::Learnable;
use cfrkit_core::learn::{imitate, samples_from_logs, TrainSettings};
use cfrkit_core::search::Evidence;
use cfrkit_core::trick::act_checked;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::path::Path;
use tempfile::TempDir;

/// A scratch directory, removed when dropped.
fn temp(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("cfrkit-setback-learned-{name}-")).tempdir().unwrap()
}

/// Plays `pairs` duplicate pairs of `a` against `b` on `threads` threads, logged at `path`
/// when given.
fn play(a: &str, b: &str, pairs: u64, seed: u64, threads: usize, path: Option<&Path>) -> Summary {
    let (a, b) = (registry::agent(a).unwrap(), registry::agent(b).unwrap());
    let log = path.map(|p| LogWriter::create(p, &log_header(vec![a.name(), b.name()], seed)).unwrap());
    let outcomes = play_pairs_logged(
        a.as_ref(),
        b.as_ref(),
        0..pairs,
        seed,
        threads,
        log.as_ref().map(LogSlot::of_match),
        &mut quiet,
    )
    .unwrap();
    if let Some(log) = log {
        assert_eq!(log.finish().unwrap(), 2 * pairs);
    }
    summarize(&outcomes)
}

#[test]
fn logs_record_matches_without_changing_them() {
    let scratch = temp("logs");
    let dir = scratch.path();
    let (one, two) = (dir.join("one.jsonl"), dir.join("two.jsonl"));
    let plain = play("rules", "random", 30, 5, 2, None);
    assert_eq!(play("rules", "random", 30, 5, 1, Some(&one)), plain);
    assert_eq!(play("rules", "random", 30, 5, 2, Some(&two)), plain);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());

    let log = read(&one).unwrap();
    assert_eq!((log.header.game.as_str(), log.header.settings.as_str()), ("setback", SETTINGS));
    assert_eq!(log.header.actions.len(), 56);
    assert_eq!(
        (&log.header.actions[..4], log.header.actions[4].as_str()),
        (&["pass", "2", "3", "4"].map(String::from)[..], "2C")
    );
    assert_eq!(log.games.len(), 60);
    let mut wins = 0;
    let mut deals = 0;
    for g in &log.games {
        let deal_scores = g.result["deal_scores"].as_array().unwrap();
        let sum = |t: usize| deal_scores.iter().map(|s| s[t].as_i64().unwrap()).sum::<i64>();
        assert_eq!(
            [sum(0), sum(1)],
            [g.result["scores"][0].as_i64().unwrap(), g.result["scores"][1].as_i64().unwrap()]
        );
        let winner = g.result["winner"].as_u64().unwrap() as usize;
        assert_eq!(g.returns, (0..4).map(|s| if s % 2 == winner { 1 } else { -1 }).collect::<Vec<i64>>());
        assert_eq!(g.cards["deals"].as_array().unwrap().len(), deal_scores.len());
        wins += usize::from(winner == 0);
        deals += deal_scores.len() as u64;
    }
    assert_eq!((wins as u64, deals), (plain.a_wins, plain.deals));
    // Every decision replays into a sample of its kind, and every bid into one of bid-value.
    let samples = samples_from_logs::<SetbackPolicies>(std::slice::from_ref(&one), &[]).unwrap();
    let decisions: usize = log.games.iter().map(|g| g.decisions.len()).sum();
    let bid_value = KINDS.iter().position(|k| k.0 == "bid-value").unwrap();
    assert_eq!(samples[..bid_value].iter().map(|s| s.len()).sum::<usize>(), decisions);
    assert_eq!(samples[bid_value].len(), samples[0].len());
    assert!(samples.iter().all(|s| !s.is_empty()), "{:?}", samples.iter().map(|s| s.len()).collect::<Vec<_>>());
}

#[test]
fn pimc_logs_its_means_and_plays_as_unlogged() {
    let scratch = temp("pimc");
    let path = scratch.path().join("pimc.jsonl");
    let spec = "pimc:worlds=4,threads=1";
    let plain = play(spec, "rules", 2, 3, 2, None);
    assert_eq!(play(spec, "rules", 2, 3, 2, Some(&path)), plain);
    let log = read(&path).unwrap();
    let mut valued = 0;
    for d in log.games.iter().flat_map(|g| &g.decisions) {
        let Some(values) = &d.values else { continue };
        // The move taken is the first of the best means (PIMC's tie rule); only PIMC's seats
        // (West and East) give values, and never for a forced move.
        let best = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let first = values.iter().position(|&v| v == best).unwrap();
        assert_eq!(d.legal[first], d.action);
        assert!(d.seat % 2 == 0 && d.legal.len() > 1);
        valued += 1;
    }
    assert!(valued > 40, "{valued}");
}

/// A change made to a logged game.
type Change = dyn Fn(&mut GameRecord);

/// Replays one logged game, changed by `change`.
fn replay_changed(record: &GameRecord, change: impl FnOnce(&mut GameRecord)) -> Result<(), String> {
    let mut r = record.clone();
    change(&mut r);
    SetbackPolicies::replay(SETTINGS, &r, &mut |_, _, _, _, _, _| Ok(()))
}

#[test]
fn replay_refuses_records_that_break_the_rules() {
    let scratch = temp("replay");
    let path = scratch.path().join("log.jsonl");
    play("rules", "rules", 1, 9, 1, Some(&path));
    let game = read(&path).unwrap().games.remove(0);
    assert_eq!(replay_changed(&game, |_| {}), Ok(()));
    let e = SetbackPolicies::replay("protocol=rotation", &game, &mut |_, _, _, _, _, _| Ok(())).unwrap_err();
    assert!(e.contains("settings"), "{e}");
    let cases: [(&str, Box<Change>); 7] = [
        ("seat", Box::new(|r| r.decisions[0].seat = (r.decisions[0].seat + 1) % 4)),
        (
            "passes to seat",
            Box::new(|r| {
                let d = r.cards["deals"][1]["dealer"].as_u64().unwrap();
                r.cards["deals"][1]["dealer"] = serde_json::json!((d + 2) % 4);
            }),
        ),
        ("deals enough", Box::new(|r| r.cards["deals"].as_array_mut().unwrap().truncate(1))),
        ("before its score", Box::new(|r| r.decisions.truncate(10))),
        ("after the last deal", Box::new(|r| r.decisions.push(r.decisions[0].clone()))),
        ("not legal", Box::new(|r| r.decisions[5].action = 4 + 51)),
        ("four hands", Box::new(|r| r.cards["deals"][0]["hands"] = serde_json::json!(["AS"]))),
    ];
    for (want, change) in cases {
        let e = replay_changed(&game, change).unwrap_err();
        assert!(e.contains(want), "{want}: {e}");
    }
}

#[test]
fn features_of_a_hand_made_position() {
    assert_eq!(LAYOUT.last().map(|l| l.1 + l.2), Some(FEATURES));
    // Dealer-relative hands: the dealer 0, then 1, 2, 3 to its left.
    let hands = ["AS KS 2H 3D 4C 5C", "AH KH QH 2S 3S 4S", "JH TH 9H 8H 7H 6H", "AD KD QD JD TD 9D"];
    let mut deal = Deal::from_hands(hands.map(|h| parse_cards(h).unwrap())).unwrap();
    let auction = View::new(&deal, 1, [0, 0]);
    assert_eq!(kind_of(&auction), 0);
    assert_eq!(legal_net_ids(&auction), [0, 1, 2, 3]);
    for b in [2, 0, 3, 0] {
        deal.bid(b).unwrap();
    }
    let pitch = View::new(&deal, 3, [0, 0]);
    assert_eq!(kind_of(&pitch), 1);
    // Before trump is set cards keep their suits: AD is card 4 × 12 + 1.
    assert!(legal_net_ids(&pitch).contains(&(4 + 49)));
    deal.play_card(parse_cards("AD").unwrap().trailing_zeros() as u8).unwrap();

    // The dealer (player 0) to follow the trump lead AD, its team at 3 to −2.
    let view = View::new(&deal, 0, [3, -2]);
    let f = features(&view);
    let ones: Vec<usize> = (0..FEATURES).filter(|&i| f[i] != 0.0).collect();
    // Trump (diamonds) is suit 0, then hearts 1, spades 2, clubs 3: AS = 4 × 12 + 2 = 50,
    // KS 46, 2H 1, 3D 4, 4C 11, 5C 15; AD (by player 3) = 48.
    let want = [
        2,   // trick 1
        8,   // the viewer deals
        13,  // the viewer passed (last to bid)
        19,  // player 1 bid 2
        23,  // player 2 passed
        30,  // player 3 bid 3
        35,  // high bidder: relative player 3
        37,  // high bid 3
        40,  // 2H
        43,  // 3D
        50,  // 4C
        54,  // 5C
        85,  // KS
        89,  // AS
        295, // AD played by relative player 3
        503, // AD in the current trick, by relative player 3
        529, // the viewer's team's score
        530, // the other team's score
        531, // trump set
    ];
    assert_eq!(ones, want);
    assert_eq!((f[529], f[530]), (3.0 / 11.0, -2.0 / 11.0));
    assert_eq!(kind_of(&view), 4);
    assert_eq!(legal_net_ids(&view), [4 + 4]); // must follow trump: 3D only
    assert_eq!(kind_of(&View::new(&deal, 1, [0, 0])), 3);
}

#[test]
fn imitating_rules_beats_the_frequency_baseline_and_plays_legally() {
    let scratch = temp("imitate");
    let dir = scratch.path();
    let log = dir.join("rules.jsonl");
    play("rules", "rules", 300, 11, 2, Some(&log));
    let settings = TrainSettings { hidden: vec![64, 64], epochs: 8, batch: 128, seed: 3, ..TrainSettings::default() };
    let out = dir.join("policy");
    let report =
        imitate::<SetbackPolicies>(std::slice::from_ref(&log), &out, &settings, false, &mut |_, _, _| Ok(())).unwrap();
    let kinds: Vec<&str> = report.iter().map(|k| k.0.as_str()).collect();
    assert_eq!(kinds, KINDS.map(|k| k.0));
    for (kind, r) in &report {
        // A value network's figure is the sign of its predictions (checked below).
        assert!(kind.ends_with("-value") || r.heldout_accuracy > r.baseline_accuracy, "{kind}: {r:?}");
        if kind.starts_with("cards-") {
            assert!(r.heldout_accuracy > 0.8 && r.heldout_accuracy > r.baseline_accuracy + 0.2, "{kind}: {r:?}");
        }
    }

    // The agent plays whole matches legally (every move is checked), and near `rules`.
    let spec = format!("net:{}", out.display());
    let net = registry::agent(&spec).unwrap();
    assert_eq!(net.name(), spec);
    let s = play(&spec, "rules", 40, 99, 2, None);
    assert_eq!(s.games, 80);
    assert!(s.win_rate > 0.25, "{s:?}");
    assert!(play(&format!("{spec},sample=1"), "random", 20, 1, 2, None).win_rate > 0.6);
    // The default agent bids by likely value over the bid-value network, and beats random
    // outside the interval, in games won and in points per deal.
    let value = report.iter().find(|(k, _)| k == "bid-value").map(|x| &x.1).expect("a bid-value network");
    assert!(value.heldout_samples > 200, "{value:?}");
    let s = play(&spec, "random", 60, 5, 2, None);
    assert!(s.ci[0] > 0.5 && s.margin_ci[0] > 0.0, "{s:?}");
    assert_eq!(registry::agent(&format!("{spec},likely_value=0")).unwrap().name(), format!("{spec},likely_value=0"));
    for (spec, want) in [
        ("net:/nonexistent/policy".to_string(), "model.json"),
        (format!("{spec},sample=2"), "net sample: \"2\""),
        ("net:".to_string(), "net"),
    ] {
        let e = registry::agent(&spec).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{spec}: {e}");
    }
    hybrid_checks(&out);
    inference_checks(&out);
    // A policy of another game is refused.
    std::fs::write(
        out.join("model.json"),
        std::fs::read_to_string(out.join("model.json")).unwrap().replace("\"setback\"", "\"skat\""),
    )
    .unwrap();
    let e = registry::agent(&spec).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("skat"), "{e}");
}

/// PIMC with inference: the true deal is likelier under the policy than most uniform worlds
/// (in the third trick and later), its decisions do not depend on the threads, it plays legal
/// matches, and views without the card order and bad options are refused.
fn inference_checks(policy: &Path) {
    let spec = format!("net:{}", policy.display());
    let model = Evidence::new(registry::move_model(&spec).unwrap(), &spec, 0.1).unwrap();
    // The rules agent, who played these deals, as the model: in the true deal every move of the
    // others is the one it would make.
    let rules = Evidence::new(registry::move_model("rules").unwrap(), "rules", 0.1).unwrap();
    let (mut above, mut total, mut rules_above) = (0, 0, 0);
    let (mut views, mut deals) = (Vec::new(), Vec::new());
    for i in 0..40 {
        let mut game = Game::new(31, i, (i % 4) as u8, false).unwrap();
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(seat) = game.to_act() {
            let view = game.view(seat);
            if view.phase() != Phase::Auction && view.tricks_done() >= 2 {
                let truth = log_likelihood(&model, game.deal(), &view).unwrap();
                let worlds = Worlds::new(&view).unwrap();
                let mut sampled: Vec<f64> = (0..40)
                    .map(|_| log_likelihood(&model, &worlds.sample(&mut rng).unwrap(), &view).unwrap())
                    .collect();
                sampled.sort_by(f64::total_cmp);
                above += usize::from(truth > sampled[20]);
                total += 1;
                let truth = log_likelihood(&rules, game.deal(), &view).unwrap();
                let mut sampled: Vec<f64> = (0..40)
                    .map(|_| log_likelihood(&rules, &worlds.sample(&mut rng).unwrap(), &view).unwrap())
                    .collect();
                sampled.sort_by(f64::total_cmp);
                rules_above += usize::from(truth > sampled[20]);
                views.push(view);
                deals.push(*game.deal());
                break;
            }
            game.agent_move(&RulesAgent, &mut rng).unwrap();
        }
    }
    eprintln!("setback inference: true deal above the median in {above} of {total} ({rules_above} with rules)");
    assert!(total >= 20 && above * 10 >= total * 7, "true deal above the median in {above} of {total}");
    assert!(rules_above * 10 >= total * 8, "true deal above the median with rules in {rules_above} of {total}");

    // Decisions depend on the view and the stream only; a named agent plays legal matches.
    let agent =
        |threads: usize| registry::pimc(&format!("worlds=6,threads={threads},inference={spec},pool=12")).unwrap();
    let (one, two) = (agent(1), agent(2));
    for (i, view) in views.iter().enumerate().take(8) {
        let rng = Pcg64::seed_from_u64(i as u64);
        assert_eq!(one.card_values(view, &mut rng.clone()).unwrap(), two.card_values(view, &mut rng.clone()).unwrap());
    }
    assert_eq!(one.name(), format!("pimc:worlds=6,inference={spec},pool=12"));
    let named = format!("pimc:worlds=6,threads=1,bidding=rules,inference={spec}");
    assert_eq!(registry::agent(&named).unwrap().name(), format!("pimc:worlds=6,inference={spec},bidding=rules"));
    assert_eq!(play(&named, "rules", 2, 8, 2, None).games, 4);
    assert_eq!(play(&format!("pimc:worlds=4,inference={spec}"), "rules", 1, 9, 1, None).games, 2);

    // A view without the order of the cards played cannot be replayed; an order must name the
    // cards played, each once.
    let (view, deal) = (views[0], deals[0]);
    let bare = View::new(&deal, view.player(), view.score());
    assert!(bare.card_order().is_none() && View::new(&Deal::seeded(1), 1, [0, 0]).card_order() == Some(&[][..]));
    let e = log_likelihood(&model, &deal, &bare).unwrap_err().to_string();
    assert!(e.contains("order"), "{e}");
    let order = view.card_order().unwrap();
    assert!(
        bare.with_card_order(&order[1..]).is_err() && bare.with_card_order(&[order, &order[..1]].concat()).is_err()
    );
    let again = bare.with_card_order(order).unwrap();
    assert_eq!(log_likelihood(&model, &deal, &again).unwrap(), log_likelihood(&model, &deal, &view).unwrap());
    for (bad, want) in [
        ("pimc:pool=10".to_string(), "only with inference"),
        ("pimc:inference=pimc".to_string(), "net:DIR"),
        ("pimc:inference=rules:x".to_string(), "table-sampled"),
        ("pimc:inference=table:/nonexistent/run".to_string(), "nonexistent"),
        (format!("pimc:inference={spec},floor=0"), "floor"),
        (format!("pimc:inference={spec},temper=1.5"), "pimc temper"),
        (format!("pimc:inference={spec},pool=0"), "pool"),
        ("pimc:inference=net:/nonexistent/policy".to_string(), "model.json"),
    ] {
        let e = registry::agent(&bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{bad}: {e}");
    }
}

/// The learned hybrid decides as the policy before its trick and as PIMC from it on; with
/// `precardplay=pimc` it bids as PIMC.
fn hybrid_checks(policy: &Path) {
    let dir = policy.display();
    let hybrid = registry::agent(&format!("hybrid:net={dir},from=3,worlds=6,seed=4")).unwrap();
    assert_eq!(hybrid.name(), format!("hybrid:net={dir},from=3,worlds=6,seed=4"));
    let by_pimc = registry::agent(&format!("hybrid:net={dir},precardplay=pimc,worlds=6,seed=4")).unwrap();
    let net = registry::agent(&format!("net:{dir}")).unwrap();
    let pimc = registry::agent("pimc:worlds=6,seed=4").unwrap();
    let (mut seen, mut bids_differ) = ([0, 0], 0);
    for i in 0..12 {
        let mut deal = Deal::seeded(i);
        let rng = Pcg64::seed_from_u64(i);
        while let Some(view) = View::of_actor(&deal, [0, 0]) {
            let late = view.phase() != Phase::Auction && view.tricks_done() >= 2;
            let expected = if late { &pimc } else { &net };
            let m = act_checked(hybrid.as_ref(), &view, &mut rng.clone()).unwrap();
            assert_eq!(m, act_checked(expected.as_ref(), &view, &mut rng.clone()).unwrap());
            seen[usize::from(late)] += 1;
            if view.phase() == Phase::Auction {
                let p = act_checked(by_pimc.as_ref(), &view, &mut rng.clone()).unwrap();
                assert_eq!(p, act_checked(pimc.as_ref(), &view, &mut rng.clone()).unwrap());
                bids_differ += usize::from(p != m);
            }
            match m {
                Move::Bid(b) => deal.bid(b).unwrap(),
                Move::Card(c) => deal.play_card(c).unwrap(),
            }
        }
    }
    assert!(seen[0] > 40 && seen[1] > 40, "{seen:?}");
    assert!(bids_differ > 0, "the policy bids as PIMC in every auction: no check");
    let spec = format!("hybrid:net={dir},worlds=6,bidding=rules");
    assert_eq!(registry::agent(&spec).unwrap().name(), format!("hybrid:net={dir},from=3,worlds=6,bidding=rules"));
    assert_eq!(play(&spec, "rules", 2, 5, 2, None).games, 4);
    for (bad, want) in [
        ("hybrid:worlds=6".to_string(), "hybrid net"),
        (format!("hybrid:net={dir},from=7"), "1 to 6"),
        (format!("hybrid:net={dir},worlds=0"), "worlds"),
        ("hybrid:net=/nonexistent/policy".to_string(), "model.json"),
    ] {
        let e = registry::agent(&bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{bad}: {e}");
    }
}

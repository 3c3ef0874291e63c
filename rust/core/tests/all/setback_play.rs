//! Setback play: views, agents, games to 11 and duplicate matches.

use cfrkit_core::games::setback::abstraction::actions;
use cfrkit_core::games::setback::cards::{self, parse_card};
use cfrkit_core::games::setback::keys;
use cfrkit_core::games::setback::play::agent::{by_phase, Agent, Setback};
use cfrkit_core::games::setback::play::game::{Game, Move};
use cfrkit_core::games::setback::play::matches::{play_pair_games, run_match};
use cfrkit_core::games::setback::play::random::RandomAgent;
use cfrkit_core::games::setback::play::rules_agent::{best_suit, RulesAgent};
use cfrkit_core::games::setback::play::strategy_agent::{Source, StrategyAgent, TableMode, Tables};
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::registry;
use cfrkit_core::games::setback::rules::Deal;
use cfrkit_core::games::setback::store::{Stage, Strategy};
use cfrkit_core::games::setback::train::Algo;
use cfrkit_core::sampled::KeyedPolicy;
use cfrkit_core::search::MoveModel;
use cfrkit_core::Result;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::sync::Arc;

fn table_agent(baseline: Strategy, mode: TableMode, label: &str) -> StrategyAgent {
    StrategyAgent::new(Arc::new(Tables { baseline: Arc::new(baseline), bootstrap: None, mode }), label)
}

fn rng() -> Pcg64 {
    Pcg64::seed_from_u64(1)
}

fn strategy(entries: Vec<(u64, Vec<f32>)>) -> Strategy {
    let mut s = Strategy {
        stage: if entries.first().is_some_and(|e| keys::is_bootstrap(e.0)) {
            Stage::Bootstrap
        } else {
            Stage::Baseline
        },
        algo: Algo::CsCfr,
        seed: 0,
        iterations: 0,
        root_value: 0.0,
        policy: KeyedPolicy::new(),
    };
    let mut entries = entries;
    entries.sort_by_key(|e| e.0);
    for (k, p) in entries {
        s.policy.push(k, &p);
    }
    s
}

#[test]
fn duplicate_pairs_swap_the_hands_between_teams() {
    let (a, b) = (RulesAgent, RandomAgent);
    for pair in 0..6 {
        let [g1, g2] = play_pair_games(&a, &b, 11, pair, true).unwrap();
        let (r1, r2) = (g1.records(), g2.records());
        assert!(!r1.is_empty() && !r2.is_empty());
        for (d1, d2) in r1.iter().zip(r2) {
            assert_eq!((d1.dealer + 1) % 4, d2.dealer, "the second game's dealer sits one seat further");
            for seat in 0..4 {
                let moved = (seat + 1) % 4;
                assert_eq!(d1.hands[seat], d2.hands[moved], "the same hand, one seat on");
                assert_ne!(seat % 2, moved % 2, "… which belongs to the other team");
            }
        }
        // Both games end with a winner at 11 or more, strictly ahead.
        for g in [&g1, &g2] {
            let w = g.winner().unwrap();
            assert!(g.scores()[w] >= 11 && g.scores()[w] > g.scores()[1 - w]);
            let sum: [i32; 2] = g.records().iter().fold([0, 0], |s, r| [s[0] + r.score[0], s[1] + r.score[1]]);
            assert_eq!(sum, g.scores());
        }
    }
}

#[test]
fn matches_are_reproducible_by_seed_and_independent_of_threads() {
    let (a, b) = (RulesAgent, RandomAgent);
    let one = run_match(&a, &b, 40, 5, 1).unwrap();
    let two = run_match(&a, &b, 40, 5, 2).unwrap();
    assert_eq!(one, two);
    let other = run_match(&a, &b, 40, 6, 2).unwrap();
    assert_ne!(one, other, "another seed gives other decks");
    assert_eq!((one.pairs, one.games), (40, 80));
    assert!(one.ci[0] <= one.win_rate && one.win_rate <= one.ci[1]);
}

#[test]
fn rules_beat_random() {
    let r = run_match(&RulesAgent, &RandomAgent, 300, 1, 0).unwrap();
    assert!(r.win_rate > 0.9 && r.ci[0] > 0.85, "rules vs random: {r:?}");
    assert!(r.mean_points[0] > 1.0 && r.mean_points[1] < 0.0, "rules score, random is set back: {r:?}");
}

#[test]
fn the_view_shows_only_the_players_own_cards_and_public_play() {
    let mut d = Deal::seeded(3);
    let v = View::new(&d, 2, [4, -1]);
    assert!(!v.to_act() && v.legal_bids().is_empty() && v.legal_cards() == 0 && v.abstract_actions().is_none());
    assert_eq!(v.hand(), d.hands()[2]);
    assert_eq!(v.unseen().count_ones(), 46);
    assert_eq!(v.unseen() & v.hand(), 0);
    assert_eq!(v.score(), [4, -1]);
    // First bidder bids Two, the others pass; the bidder leads.
    for b in [2, 0, 0, 0] {
        d.bid(b).unwrap();
    }
    let lead = cards::lowest(d.legal_cards());
    d.play_card(lead).unwrap();
    let v = View::new(&d, 2, [0, 0]);
    assert!(v.to_act());
    assert_eq!(v.leader(), Some(1));
    assert_eq!(v.played(), cards::bit(lead));
    assert_eq!(v.played_by(1), cards::bit(lead));
    assert_eq!(v.unseen().count_ones(), 45);
    assert_eq!(v.trick(), &[lead]);
}

#[test]
fn agent_specs_and_their_errors() {
    assert_eq!(registry::agent("random").unwrap().name(), "random");
    assert_eq!(registry::agent("rules").unwrap().name(), "rules");
    for bad in ["bogus", "table", "table:", "rules:x"] {
        let e = registry::agent(bad).err().unwrap().to_string();
        assert!(e.contains(bad) && e.contains("random, rules, table:DIR"), "{e}");
    }
    let e = registry::agent("table:/nonexistent/dir").err().unwrap().to_string();
    assert!(e.contains("/nonexistent/dir") && e.contains("strategy.cfrkit"), "{e}");
}

/// An agent that always passes and plays its lowest legal card: games never end.
struct Passer;
impl Agent<Setback> for Passer {
    fn name(&self) -> String {
        "passer".into()
    }
    fn act(&self, v: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(v, rng, |_| Ok(0), |_| Ok(cards::lowest(v.legal_cards())))
    }
}

/// An agent that bids Four whatever the auction.
struct Cheater;
impl Agent<Setback> for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }
    fn act(&self, v: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(v, rng, |_| Ok(4), |_| Ok(parse_card("2C").unwrap()))
    }
}

#[test]
fn bad_agents_get_clear_errors() {
    let e = run_match(&Passer, &Passer, 1, 0, 1).unwrap_err().to_string();
    assert!(e.contains("no winner after 1000 deals"), "{e}");
    let e = run_match(&Cheater, &RandomAgent, 1, 0, 1).unwrap_err().to_string();
    assert!(e.contains("action of agent cheater") && e.contains("\"4\"") && e.contains("[0]"), "{e}");
    let mut g = Game::new(0, 0, 3, true).unwrap();
    let e = g.bid(1).unwrap_err().to_string();
    assert!(e.contains("one of [0, 2, 3, 4]"), "{e}");
    assert!(Game::new(0, 0, 4, true).unwrap_err().to_string().contains("South"));
}

#[test]
fn a_game_reports_every_move_and_deals_rotate() {
    let mut g = Game::new(9, 0, 3, true).unwrap();
    let mut r = rng();
    let mut cards_played = 0;
    while g.winner().is_none() {
        if g.deal_over() {
            let rec = g.next_deal().unwrap();
            assert!(rec.bids.len() == 4);
            continue;
        }
        let (seat, m) = g.agent_move(&RulesAgent, &mut r).unwrap();
        assert!(seat < 4);
        if let Move::Card(_) = m {
            cards_played += 1;
        }
    }
    for (k, rec) in g.records().iter().enumerate() {
        assert_eq!(rec.dealer as usize, (3 + k) % 4);
    }
    let bid_deals = g.records().iter().filter(|r| r.bids.iter().any(|&b| b > 0)).count();
    assert_eq!(cards_played, 24 * bid_deals, "played out: every card of every bid deal");
}

#[test]
fn stepping_a_game_scores_each_deal_and_ends_like_the_games_own_loop() {
    for seed in 0..4 {
        let (mut stepped, mut looped) = (Game::new(seed, 0, 3, true).unwrap(), Game::new(seed, 0, 3, true).unwrap());
        let (mut r1, mut r2) = (rng(), rng());
        assert!(!stepped.over() && stepped.returns() == [0; 4]);
        let before = (stepped.to_act(), legal_moves(&stepped));
        assert!(stepped.step(Move::Card(0)).is_err() && stepped.step(Move::Bid(1)).is_err());
        assert_eq!((stepped.to_act(), legal_moves(&stepped)), before, "an illegal move changes nothing");
        loop {
            let seat = stepped.to_act().expect("a game being stepped always has a player to act");
            let m = cfrkit_core::trick::act_checked(&RulesAgent, &stepped.view(seat), &mut r1).unwrap();
            if stepped.step(m).unwrap() {
                break;
            }
        }
        let w = looped.play([&RulesAgent, &RulesAgent], &mut r2).unwrap();
        assert_eq!((stepped.scores(), stepped.winner()), (looped.scores(), Some(w)), "seed {seed}");
        let returns = stepped.returns();
        assert!((0..4).all(|s| returns[s] == if s % 2 == w { 1 } else { -1 }));
        assert!(stepped.to_act().is_none() && stepped.step(Move::Bid(0)).is_err());
    }
    // Players that always bid four and go set: no winner after the most deals, a draw.
    let mut g = Game::new(3, 0, 3, true).unwrap();
    while !g.step(*legal_moves(&g).last().unwrap()).unwrap() {}
    assert!(g.over() && g.winner().is_none() && g.returns() == [0; 4] && g.records().len() == 1000);
}

fn legal_moves(g: &Game) -> Vec<Move> {
    let v = g.view(g.to_act().unwrap());
    let bids = v.legal_bids().into_iter().map(Move::Bid);
    bids.chain(cards::iter(v.legal_cards()).map(Move::Card)).collect()
}

#[test]
fn rules_agent_bids_strong_hands_and_passes_weak_ones() {
    let strong = cards::parse_cards("AS KS JS 2S TD 9C").unwrap();
    let (s, pts) = best_suit(strong);
    assert_eq!(s, 3);
    assert!(pts >= 3.2, "{pts}");
    let weak = cards::parse_cards("7C 8D 9H 6S 5C 8H").unwrap();
    assert!(best_suit(weak).1 < 1.8);
    let other = [cards::parse_cards("2H 3H 4H 5H 6H 7H").unwrap(), cards::parse_cards("2D 3D 4D 5D 6D 7D").unwrap()];
    let d = Deal::from_hands([other[0], strong, other[1], weak]).unwrap();
    let v = View::of_actor(&d, [0, 0]).unwrap();
    assert_eq!(RulesAgent.bid(&v, &mut rng()).unwrap(), 4);
}

#[test]
fn table_agent_plays_the_argmax_and_falls_back_on_missing_keys() {
    let hands = ["AS JS 4S KH 7H 9D", "QD TD 4D TS 9S 6S", "KC 5C KD 5H 2D 3S", "AH JH 8H 3H 2C 9C"];
    let sets = hands.map(|h| cards::parse_cards(h).unwrap());
    // Hands are dealer-relative: player 1 (first bidder) holds QD TD 4D TS 9S 6S, key 0QT4...Tx6.
    let d = Deal::from_hands([sets[0], sets[1], sets[2], sets[3]]).unwrap();
    let acts = actions(&d);
    let k = keys::key(&d, &acts).unwrap();
    assert_eq!(keys::key_string(k), "0QT4...Tx6");
    let v = View::of_actor(&d, [0, 0]).unwrap();
    let table = table_agent(strategy(vec![(k, vec![0.1, 0.6, 0.3])]), TableMode::Argmax, "t");
    assert_eq!(table.bid_with_source(&v, &mut rng()).unwrap(), (2, Source::Table));
    let empty = table_agent(strategy(vec![]), TableMode::Argmax, "empty");
    assert_eq!(empty.bid_with_source(&v, &mut rng()).unwrap(), (3, Source::Fallback), "missing: Three");
    // Sampled mode follows the probabilities.
    let sampled = table_agent(strategy(vec![(k, vec![0.0, 0.25, 0.75])]), TableMode::Sampled, "s");
    let mut r = rng();
    let threes = (0..4000).filter(|_| sampled.act(&v, &mut r).unwrap() == Move::Bid(3)).count();
    assert!((2800..3200).contains(&threes), "{threes}");
    // As models of their play (PIMC's inference): the strategy's probabilities of the bids its
    // abstract actions make (Four is not among them), the argmax's one bid, the fallback's.
    let p = |agent: &StrategyAgent, b: u8| agent.probability(&v, &Move::Bid(b)).unwrap().unwrap();
    assert_eq!([0, 2, 3, 4].map(|b| p(&sampled, b)), [0.0, 0.25, 0.75, 0.0]);
    assert_eq!([0, 2, 3, 4].map(|b| p(&table, b)), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!([0, 2, 3, 4].map(|b| p(&empty, b)), [0.0, 0.0, 1.0, 0.0]);

    // After Two, Three, Four the dealer (AS JS 4S: a candidate Jack) may Pass or steal the Four;
    // with the key missing and Three not legal, the fallback passes.
    let mut d2 = d;
    for b in [2, 3, 4] {
        d2.bid(b).unwrap();
    }
    let v2 = View::of_actor(&d2, [0, 0]).unwrap();
    assert_eq!(v2.abstract_actions().unwrap().n, 2);
    assert_eq!(empty.bid_with_source(&v2, &mut rng()).unwrap(), (0, Source::Fallback));

    // Missing playout key: the first abstract action in canonical order.
    let mut d3 = d;
    for b in [2, 0, 0, 0] {
        d3.bid(b).unwrap();
    }
    let v3 = View::of_actor(&d3, [0, 0]).unwrap();
    let a3 = v3.abstract_actions().unwrap();
    assert_eq!(a3.n, 2, "two candidate suits: E0, E1");
    let (c, src) = empty.play_with_source(&v3, &mut rng()).unwrap();
    assert_eq!((cards::card_name(c), src), ("QD".to_string(), Source::Fallback));
    let k3 = v3.key(&a3).unwrap();
    let t3 = table_agent(strategy(vec![(k3, vec![0.2, 0.8])]), TableMode::Argmax, "t3");
    let (c, src) = t3.play_with_source(&v3, &mut rng()).unwrap();
    assert_eq!((cards::card_name(c), src), ("9S".to_string(), Source::Table));
}

#[test]
fn bootstrap_keys_of_the_spec_examples() {
    let bootstrap_key = |v: &View| keys::key_string(v.bootstrap_key().expect("in the auction"));
    let a = "AS JS 4S KH 7H 9D";
    let d_hand = "AH JH 7H 3H 2C 9C";
    let fill = ["2D 3D 4D 5D 6D 7D", "8D TD QD KD AD 2S", "3S 5S 6S 7S 8S 9S"];
    let deal = |hands: [&str; 4]| Deal::from_hands(hands.map(|h| cards::parse_cards(h).unwrap())).unwrap();
    // First bidder (team 1) with A, us 5 / them 8: the dealer's team has 8.
    let d = deal([fill[0], a, fill[1], fill[2]]);
    assert_eq!(bootstrap_key(&View::of_actor(&d, [8, 5]).unwrap()), "3!/0/-1/0/AJ4.........");
    // The dealer (us 9, them 3) facing a Three by player 1 after 3 bids, holding D.
    let mut d = deal([d_hand, fill[0], fill[1], fill[2]]);
    for b in [3, 0, 0] {
        d.bid(b).unwrap();
    }
    assert_eq!(bootstrap_key(&View::of_actor(&d, [9, 3]).unwrap()), "x./3/1/3/AJx3........");
    // Tied at 11: player 2 after a Two by player 1.
    let mut d = deal([fill[0], fill[1], d_hand, fill[2]]);
    d.bid(2).unwrap();
    assert_eq!(bootstrap_key(&View::of_actor(&d, [11, 11]).unwrap()), "1./2/1/1/AJx3........");
    // Third bidder (player 3, team 1) after two passes; dealer's team -3, the other 10.
    let mut d = deal([fill[0], fill[1], fill[2], d_hand]);
    for b in [0, 0] {
        d.bid(b).unwrap();
    }
    assert_eq!(bootstrap_key(&View::of_actor(&d, [-3, 10]).unwrap()), "x./0/-1/2/AJx3........");
}

#[test]
fn bootstrap_keys_parse_back_and_know_their_legal_bids() {
    for (s, bids) in [
        ("3!/0/-1/0/AJ4.........", vec![0, 2, 3, 4]),
        ("x./3/1/3/AJx3........", vec![0, 4]),
        ("1./2/1/1/AJx3........", vec![0, 3, 4]),
        ("x./4/2/3/AJx3........", vec![0, 4]),
        ("x./4/2/2/AJx3........", vec![0]),
    ] {
        let k = keys::parse_key(s).unwrap();
        assert!(keys::is_bootstrap(k) && keys::is_valid(k), "{s}");
        assert_eq!(keys::key_string(k), s);
        let acts: Vec<_> = keys::key_actions(k).iter().map(|a| a.code()).collect();
        let want: Vec<_> = bids.iter().map(|b: &u8| b.to_string()).collect();
        assert_eq!(acts, want, "{s}");
    }
    for bad in ["3!/0/-1/0/AJ4", "5./0/-1/0/AJ4.........", "x!/0/-1/0/AJ4.........", "1./2/-1/1/AJx3........"] {
        assert!(keys::parse_key(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_deterministic_agent_against_itself_wins_exactly_one_game_of_each_pair() {
    // The second game of a pair replays the first with the seats of the two teams exchanged, so
    // a deterministic agent facing itself produces the mirror game: one win each.
    let r = run_match(&RulesAgent, &RulesAgent, 200, 3, 0).unwrap();
    assert_eq!((r.a_wins, r.games, r.ci), (200, 400, [0.5, 0.5]));
    assert_eq!(r.mean_points[0], r.mean_points[1]);
}

//! Schafkopf rules (specs/schafkopf.md §12): the regression deals A–D under both card policies
//! and rule sets, trick winners, follow and called-Ace legality, and property tests over random
//! games.

use cfrkit_core::cards::{highest, iter, lowest, CardSet};
use cfrkit_core::games::schafkopf::agents::{Agent, Schafkopf};
use cfrkit_core::games::schafkopf::cards::{name, parse_card, parse_hands, set_points, NOTATION};
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::{Action, Contract, Deal, Declaration, Game, Phase, Rules, NUM_ACTIONS};
use cfrkit_core::trick::matches::{choice_stream, play_out};
use rand::Rng;

const DEAL_A: [&str; 4] =
    ["EO GO EU HA HK G7 G9 S7", "HO GU H9 GA EA E7 SK S8", "SO HU SU H10 H8 G10 GK E8", "H7 G8 E10 EK E9 SA S10 S9"];
const DEAL_B: [&str; 4] =
    ["SO EU GU E9 H7 H8 H9 HA", "HU SU E8 E7 H10 HK G10 GK", "EO GO HO EA E10 EK GA SA", "G9 G8 G7 S10 SK S9 S8 S7"];
const DEAL_C: [&str; 4] =
    ["EU E9 E8 E7 GK G9 G8 G7", "GU EO GO HO SO HA H10 HK", "H9 H8 H7 S10 SK S9 S8 S7", "HU SU EA E10 EK GA G10 SA"];

#[derive(Clone, Copy, PartialEq)]
enum Policy {
    Lowest,
    Highest,
}

/// A scripted game: declarations by seat, contra and retour by seat (others say no), cards by
/// the policy. Returns the finished game and its tricks as names.
fn scripted(
    hands: [&str; 4],
    dealer: u8,
    rules: Rules,
    declarations: [&str; 4],
    contra: &[u8],
    retour: &[u8],
    policy: Policy,
) -> (Game, Vec<String>) {
    let mut g = Game::new(&Deal::new(parse_hands(&hands).unwrap(), dealer).unwrap(), rules);
    let mut tricks = Vec::new();
    while let Some(p) = g.player() {
        let action = match g.phase() {
            Phase::Bidding => Action::Declare(Declaration::parse(declarations[p as usize]).unwrap()),
            Phase::Contra => Action::Double(contra.contains(&p)),
            Phase::Retour => Action::Double(retour.contains(&p)),
            _ => {
                let legal = g.legal_cards();
                assert_ne!(legal, 0);
                Action::Card(if policy == Policy::Lowest { lowest(legal) } else { highest(legal) })
            }
        };
        let t = g.tricks_done() as usize;
        g.apply(action).unwrap_or_else(|e| panic!("{action:?}: {e}"));
        if g.tricks_done() as usize > t {
            tricks.push(g.trick(t).iter().map(|&c| name(c)).collect::<Vec<_>>().join(" "));
        }
    }
    (g, tricks)
}

fn winners(g: &Game) -> Vec<u8> {
    (0..8).map(|t| g.trick_winner(t).unwrap()).collect()
}

const SAUSPIEL_G0: [&str; 4] = ["sauspiel:G", "pass", "pass", "pass"];

#[test]
fn deal_a_gras_sauspiel() {
    for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
        let (g, tricks) = scripted(DEAL_A, 3, rules, SAUSPIEL_G0, &[], &[], Policy::Lowest);
        assert_eq!(
            tricks,
            [
                "S7 S8 H8 S9",
                "E8 E9 G7 E7",
                "H7 EU H9 SU",
                "G9 GA GK G8",
                "GU HU EK GO",
                "EO HO SO S10",
                "HK SK H10 E10",
                "G10 SA HA EA"
            ]
        );
        assert_eq!(winners(&g), [2, 3, 0, 1, 0, 0, 2, 0]);
        assert_eq!(g.scores(), [77, 15, 28, 0]);
        assert_eq!((g.contract(), g.declarer()), (Some(Contract::Sauspiel(2)), Some(0)));
        let s = g.settlement().unwrap();
        assert_eq!((s.team, s.team_points, s.schneider, s.laufende), (0b11, 92, true, 3));
        assert_eq!(g.returns(), [60, 60, -60, -60]);
        assert_eq!(g.steps(), 40);
        let (g, _) = scripted(DEAL_A, 3, rules, SAUSPIEL_G0, &[2], &[], Policy::Lowest);
        assert_eq!(g.returns(), [120, 120, -120, -120]);
        assert_eq!(g.steps(), 44);
        let (g, _) = scripted(DEAL_A, 3, rules, SAUSPIEL_G0, &[2], &[1], Policy::Lowest);
        assert_eq!(g.returns(), [240, 240, -240, -240]);
        let (g, _) = scripted(DEAL_A, 3, rules, SAUSPIEL_G0, &[], &[], Policy::Highest);
        assert_eq!(winners(&g), [1, 0, 0, 0, 0, 1, 3, 2]);
        assert_eq!(g.scores(), [71, 45, 0, 4]);
        assert_eq!(g.returns(), [60, 60, -60, -60]);
    }
}

#[test]
fn deal_b_eichel_solo_with_contra() {
    let decl = ["wenz", "sauspiel:G", "solo:E", "pass"];
    for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
        let (g, _) = scripted(DEAL_B, 1, rules, decl, &[0], &[], Policy::Lowest);
        assert_eq!((g.contract(), g.declarer()), (Some(Contract::Solo(3)), Some(2)));
        assert_eq!(winners(&g), [2, 2, 2, 0, 2, 2, 2, 2]);
        assert_eq!(g.scores(), [9, 0, 111, 0]);
        assert_eq!(g.returns(), [-180, -180, 540, -180]);
        let (g, _) = scripted(DEAL_B, 1, rules, decl, &[0], &[], Policy::Highest);
        assert_eq!(g.scores().iter().sum::<u32>(), 120);
        let r = g.returns();
        assert_eq!((r.iter().sum::<i32>(), r[2], r[0]), (0, -3 * r[0], r[1]));
    }
}

#[test]
fn deal_c_wenz_with_gegenlaufende() {
    let decl = ["pass", "pass", "pass", "wenz"];
    for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
        let (g, _) = scripted(DEAL_C, 2, rules, decl, &[], &[], Policy::Lowest);
        assert_eq!(g.scores(), [6, 0, 0, 114]);
        let s = g.settlement().unwrap();
        assert_eq!((s.laufende, s.laufende_paid, s.schneider), (2, true, true));
        assert_eq!(g.returns(), [-80, -80, -80, 240]);
        let (g, _) = scripted(DEAL_C, 2, rules, decl, &[], &[], Policy::Highest);
        assert_eq!(g.scores(), [16, 4, 0, 100]);
        assert_eq!(g.returns(), [-80, -80, -80, 240]);
    }
}

#[test]
fn deal_d_all_pass() {
    let decl = ["pass"; 4];
    let (g, tricks) = scripted(DEAL_A, 3, Rules::SCHAFKOPFRL, decl, &[1], &[], Policy::Lowest);
    assert_eq!(
        tricks,
        [
            "S7 S8 SO S9",
            "H8 H7 HK H9",
            "G7 GA GK G8",
            "E7 E8 E9 EO",
            "G9 GU G10 EK",
            "HO H10 S10 HA",
            "EU SK SU E10",
            "GO EA HU SA"
        ]
    );
    assert_eq!(winners(&g), [2, 0, 1, 0, 1, 0, 0, 2]);
    assert_eq!(g.scores(), [59, 31, 30, 0]);
    assert_eq!((g.contract(), g.declarer()), (Some(Contract::Passed), Some(3)));
    assert!(g.all_passed() && g.contra_given());
    assert_eq!(g.returns(), [0; 4]);
    assert_eq!(g.steps(), 44);
    // The contra round after four passes: every seat but the dealer may double until one does
    // (seat 1 here); the retour round: only the dealer.
    let mut g = Game::new(&Deal::new(parse_hands(&DEAL_A).unwrap(), 3).unwrap(), Rules::SCHAFKOPFRL);
    for _ in 0..4 {
        g.apply(Action::Declare(Declaration::Pass)).unwrap();
    }
    let doubles: Vec<bool> = (0..4)
        .map(|_| {
            let may = g.legal_actions().len() == 2;
            g.apply(Action::Double(g.player() == Some(1))).unwrap();
            may
        })
        .collect();
    assert_eq!(doubles, [true, true, false, false]);
    let retours: Vec<bool> = (0..4)
        .map(|_| {
            let may = g.legal_actions().len() == 2;
            g.apply(Action::Double(false)).unwrap();
            may
        })
        .collect();
    assert_eq!(retours, [false, false, false, true]);
    // Standard rules: the deal ends after the four passes.
    let (g, tricks) = scripted(DEAL_A, 3, Rules::STANDARD, decl, &[1], &[], Policy::Lowest);
    assert!(tricks.is_empty());
    assert_eq!((g.phase(), g.player(), g.steps(), g.returns()), (Phase::Finished, None, 4, [0; 4]));
    assert_eq!((g.contract(), g.declarer()), (None, None));
    assert!(g.all_passed());
}

#[test]
fn auction_precedence_and_ties() {
    let hands = parse_hands(&DEAL_A).unwrap();
    let play = |dealer: u8, decl: [&str; 4]| {
        let mut g = Game::new(&Deal::new(hands, dealer).unwrap(), Rules::SCHAFKOPFRL);
        for _ in 0..4 {
            let p = g.player().unwrap() as usize;
            g.apply(Action::Declare(Declaration::parse(decl[p]).unwrap())).unwrap();
        }
        (g.contract().unwrap().name(), g.declarer().unwrap())
    };
    // Ties go to the earlier seat from the first player, whatever the suit.
    assert_eq!(play(3, ["solo:S", "solo:E", "pass", "pass"]), ("solo:S".into(), 0));
    assert_eq!(play(0, ["solo:S", "solo:E", "pass", "pass"]), ("solo:E".into(), 1));
    assert_eq!(play(1, ["solo:S", "solo:E", "pass", "pass"]), ("solo:S".into(), 0));
    // Solo > Wenz > Sauspiel.
    assert_eq!(play(3, ["sauspiel:G", "wenz", "pass", "pass"]), ("wenz".into(), 1));
    assert_eq!(play(3, ["wenz", "pass", "solo:H", "wenz"]), ("solo:H".into(), 2));
    assert_eq!(play(3, ["pass", "pass", "sauspiel:E", "sauspiel:G"]), ("sauspiel:E".into(), 2));
}

/// Spec §12's follow cases, through whole games' trick orders.
#[test]
fn follow_cases() {
    let legal = |c: Contract, hand: &str, led: &str| {
        let h: CardSet = NOTATION.parse_set(hand).unwrap();
        let mut v: Vec<String> = iter(c.order().legal_after(h, parse_card(led).unwrap())).map(name).collect();
        v.sort();
        v.join(" ")
    };
    assert_eq!(legal(Contract::Solo(3), "EO GA H7", "E7"), "EO");
    assert_eq!(legal(Contract::Wenz, "EU E7 GA", "EO"), "E7");
    assert_eq!(legal(Contract::Sauspiel(0), "SU GA E7", "H7"), "SU");
}

// ---- Property tests over random games. ----

/// Plays a game of `deal` with the agents, checking invariants at every step; returns the game
/// and its actions.
fn checked_game(deal: &Deal, rules: Rules, agents: [&dyn Agent<Schafkopf>; 4], seed: u64) -> (Game, Vec<Action>) {
    let mut g = Game::new(deal, rules);
    let mut rng = choice_stream::<Schafkopf>(seed, 0, 0);
    let mut actions = Vec::new();
    while let Some(p) = g.player() {
        let mask = g.legal_mask();
        assert_ne!(mask, 0, "a seat to act has a legal action");
        assert_eq!(mask >> NUM_ACTIONS, 0);
        let legal = g.legal_actions();
        assert_eq!(legal.len() as u32, mask.count_ones());
        assert!(legal.iter().all(|&a| g.is_legal(a) && g.why_illegal(a).is_none()));
        if g.phase() == Phase::Tricks {
            assert_eq!(g.legal_cards() & !g.hand(p), 0);
        }
        // A random illegal action is refused with a reason and changes nothing.
        let bad = Action::from_id(rng.gen_range(0..NUM_ACTIONS as u8)).unwrap();
        if !g.is_legal(bad) {
            let before = g;
            assert!(g.why_illegal(bad).is_some());
            assert!(g.apply(bad).is_err());
            assert_eq!(g, before);
        }
        let view = cfrkit_core::games::schafkopf::View::new(&g, p);
        let a = agents[p as usize].act(&view, &mut rng).unwrap();
        g.apply(a).unwrap();
        actions.push(a);
    }
    (g, actions)
}

fn check_result(g: &Game, steps: usize) {
    let r = g.returns();
    assert_eq!(r.iter().sum::<i32>(), 0, "zero-sum");
    match g.contract() {
        Some(Contract::Passed) | None => assert_eq!(r, [0; 4]),
        Some(c) => {
            assert_eq!(g.scores().iter().sum::<u32>(), 120);
            assert_eq!(g.tricks_won().iter().sum::<u32>(), 8);
            let s = g.settlement().unwrap();
            let v = s.value.unsigned_abs() as i32;
            let base = if c.alone() { 50 } else { 20 };
            let ok = (0..=2).any(|sch| (0..=14).any(|l| [1, 2, 4].iter().any(|m| v == (base + 10 * sch + 10 * l) * m)));
            assert!(ok, "tariff {v}");
            let mut sorted = r;
            sorted.sort();
            if c.alone() {
                assert!(sorted == [-v, -v, -v, 3 * v] || sorted == [-3 * v, v, v, v], "{r:?}");
            } else {
                assert_eq!(sorted, [-v, -v, v, v]);
            }
            let team_points: u32 = (0..4).filter(|p| s.team & (1 << p) != 0).map(|p| g.scores()[p]).sum();
            assert_eq!(team_points, s.team_points);
            assert_eq!((s.value > 0), team_points >= 61);
            // Everything played, each seat's cards its own.
            for p in 0..4 {
                assert_eq!(g.played_by(p), g.dealt(p));
                assert_eq!(g.hand(p), 0);
            }
            assert_eq!(set_points(g.played()), 120);
        }
    }
    assert!(steps == 4 || steps == 40 || steps == 44, "{steps} steps");
}

#[test]
fn random_games_keep_the_invariants_and_replay() {
    let specs = ["random", "random-coward", "rules"];
    let agents: Vec<_> = specs.iter().map(|s| registry::parse(s).unwrap()).collect();
    let mut kinds = std::collections::BTreeMap::new();
    for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
        for i in 0..3000u64 {
            let deal = Deal::for_game(11, i);
            let seats: [&dyn Agent<Schafkopf>; 4] = std::array::from_fn(|p| agents[(i as usize + p) % 3].as_ref());
            let (g, actions) = checked_game(&deal, rules, seats, i);
            check_result(&g, actions.len());
            if rules == Rules::STANDARD && g.all_passed() {
                assert_eq!(actions.len(), 4);
            }
            *kinds.entry(g.contract().map(|c| c.name()).unwrap_or_default()).or_insert(0) += 1;
            // Replaying the actions reproduces the game.
            let mut replay = Game::new(&deal, rules);
            for &a in &actions {
                replay.apply(a).unwrap();
            }
            assert_eq!(replay, g);
            // The game's own history is the actions, seat by seat.
            let history = g.history();
            assert_eq!(history.iter().map(|h| h.1).collect::<Vec<_>>(), actions);
            let mut again = Game::new(&deal, rules);
            for (seat, a) in history {
                assert_eq!(again.player(), Some(seat));
                again.apply(a).unwrap();
            }
            assert_eq!(again, g);
            // And play_out with the same stream reproduces it too.
            let mut again = Game::new(&deal, rules);
            let mut rng = choice_stream::<Schafkopf>(5, i, 0);
            play_out(&mut again, &seats, &mut rng).unwrap();
            let mut third = Game::new(&deal, rules);
            play_out(&mut third, &seats, &mut choice_stream::<Schafkopf>(5, i, 0)).unwrap();
            assert_eq!(again, third);
        }
    }
    // Every kind of game turned up.
    for k in ["sauspiel:S", "sauspiel:G", "sauspiel:E", "wenz", "solo:S", "solo:H", "solo:G", "solo:E", "passed", ""] {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "{k}: {kinds:?}");
    }
}

/// The called Ace: never discarded before its suit is led (except the quirk), played when its
/// suit is led, and the holder runs away only with four or more of the suit.
#[test]
fn called_ace_invariants_over_random_games() {
    let random = registry::parse("random").unwrap();
    let seats: [&dyn Agent<Schafkopf>; 4] = [random.as_ref(); 4];
    let mut ran_away = 0;
    for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
        for i in 0..4000u64 {
            let mut g = Game::new(&Deal::for_game(12, i), rules);
            let mut rng = choice_stream::<Schafkopf>(12, i, 0);
            // Declare a Sauspiel when one is allowed.
            while g.phase() == Phase::Bidding {
                let m = g.legal_mask() & 0b1110;
                let a = if m != 0 {
                    Action::from_id(m.trailing_zeros() as u8).unwrap()
                } else {
                    Action::Declare(Declaration::Pass)
                };
                g.apply(a).unwrap();
            }
            let Some(Contract::Sauspiel(x)) = g.contract() else { continue };
            let ace = cfrkit_core::games::schafkopf::cards::ace(x);
            while let Some(p) = g.player() {
                if g.phase() == Phase::Tricks && g.hand(p) & (1 << ace) != 0 && g.davongelaufen() != Some(p) {
                    let legal = g.legal_cards();
                    let trick = g.current_trick();
                    let order = g.order().unwrap();
                    match trick.first() {
                        Some(&led) if order.suit(led) == x => assert_eq!(legal, 1 << ace),
                        Some(&led) if g.tricks_done() < 7 => {
                            let quirk = !rules.strict_rufsau && led % 4 == x;
                            assert!(quirk || legal & (1 << ace) == 0, "discarding the called Ace");
                        }
                        None => {
                            let others = g.hand(p) & order.suit_cards(x) & !(1 << ace);
                            if others.count_ones() < 3 {
                                assert_eq!(legal & others, 0);
                            } else {
                                assert_eq!(legal, g.hand(p));
                            }
                        }
                        _ => {}
                    }
                }
                let view = cfrkit_core::games::schafkopf::View::new(&g, p);
                let a = seats[p as usize].act(&view, &mut rng).unwrap();
                g.apply(a).unwrap();
            }
            ran_away += g.davongelaufen().is_some() as u32;
            check_result(&g, g.steps() as usize);
        }
    }
    assert!(ran_away > 0);
}

/// Actions that are none of the 43 are refused without a panic, and change nothing.
#[test]
fn malformed_actions_are_refused() {
    let mut g = Game::new(&Deal::for_game(1, 0), Rules::SCHAFKOPFRL);
    let before = g;
    for bad in [
        Action::Card(32),
        Action::Card(255),
        Action::Declare(Declaration::Sauspiel(1)),
        Action::Declare(Declaration::Solo(9)),
        Action::Declare(Declaration::Sauspiel(200)),
    ] {
        assert!(!g.is_legal(bad));
        let e = g.apply(bad).unwrap_err().to_string();
        assert!(e.contains("legal actions"), "{e}");
        assert_eq!(g, before);
    }
}

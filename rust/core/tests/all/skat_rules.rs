//! Skat rules (specs/skat.md §12): trick winners and following through games, matadors, the 13
//! scoring examples with their Seeger-Fabian vectors, the bidding sequences, declaration
//! legality, the counts, and property tests over random games with random legal actions.

use cfrkit_core::cards::{bit, iter, CardSet};
use cfrkit_core::games::skat::bidding::{Call, BID_VALUES};
use cfrkit_core::games::skat::cards::{set_points, DECK, NOTATION};
use cfrkit_core::games::skat::scoring::{matadors, DEFENDER_BONUS, WIN_BONUS};
use cfrkit_core::games::skat::{Action, Contract, Deal, Game, GameResult, GameType, Phase};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn set(names: &str) -> CardSet {
    NOTATION.parse_set(names).unwrap()
}

fn contract(name: &str) -> Contract {
    Contract::parse(name).unwrap()
}

/// The 12 cards of a declarer (10 dealt + 2 skat) padded from `filler` to twelve around
/// `cards`, the matador-relevant ones.
fn twelve(cards: &str, filler: &str) -> CardSet {
    let mut s = set(cards);
    for c in iter(set(filler)) {
        if s.count_ones() < 12 {
            s |= bit(c);
        }
    }
    assert_eq!(s.count_ones(), 12);
    s
}

/// One row of the spec's scoring table: the result of `declarer`'s game, the TP vector as
/// [declarer, defender, defender] and by seat.
#[allow(clippy::too_many_arguments)]
fn check_example(
    name: &str,
    c: Contract,
    bid: u16,
    cards: CardSet,
    points: u32,
    tricks: u32,
    value: u32,
    list_score: i32,
    tp: [i32; 3],
) {
    for declarer in 0..3u8 {
        let r = GameResult::played(declarer, c, bid, cards, points, tricks);
        assert_eq!(r.value(), value, "{name}: value");
        assert_eq!(r.list_score(), list_score, "{name}: list score");
        assert_eq!(r.won(), list_score > 0, "{name}: won");
        let mut by_seat = [tp[1]; 3];
        by_seat[declarer as usize] = tp[0];
        assert_eq!(r.tp, by_seat, "{name}: TP with declarer {declarer}");
    }
}

/// Spec §12, the 13 scoring examples.
#[test]
fn skat_the_thirteen_scoring_examples() {
    let low = "D7 D8 D9 H7 H8 H9 S7 S8 S9 C7 C8 C9 DQ HQ SQ";
    // ♣ with 2 (CJ SJ, no HJ).
    let clubs2 = twelve("CJ SJ CA CT", low);
    assert_eq!(matadors(GameType::Suit(3), clubs2), Some((2, true)));
    check_example("clubs bid 36", contract("clubs"), 36, clubs2, 75, 6, 36, 36, [86, 0, 0]);
    check_example("clubs bid 40, 75", contract("clubs"), 40, clubs2, 75, 6, 48, -96, [-146, 40, 40]);
    check_example("clubs bid 40, 95", contract("clubs"), 40, clubs2, 95, 8, 48, 48, [98, 0, 0]);
    // ♥ with 1, 28 points: Schneider counts against the declarer.
    let hearts1 = twelve("CJ HA", low);
    assert_eq!(matadors(GameType::Suit(1), hearts1), Some((1, true)));
    check_example("hearts 28 points", contract("hearts"), 20, hearts1, 28, 2, 30, -60, [-110, 40, 40]);
    // ♠ with 3, no trick: Schneider and Schwarz count (the skat's points do not save him).
    let spades3 = twelve("CJ SJ HJ SA", low);
    assert_eq!(matadors(GameType::Suit(2), spades3), Some((3, true)));
    check_example("spades no trick", contract("spades"), 44, spades3, 0, 0, 66, -132, [-182, 40, 40]);
    check_example("spades no trick, skat 10", contract("spades"), 44, spades3, 10, 0, 66, -132, [-182, 40, 40]);
    // Grand with 4, Hand, Schneider announced.
    let grand4 = twelve("CJ SJ HJ DJ", low);
    let ghs = contract("grand hand schneider");
    check_example("grand hand schneider 95", ghs, 120, grand4, 95, 8, 192, 192, [242, 0, 0]);
    check_example("grand hand schneider 75", ghs, 120, grand4, 75, 6, 192, -384, [-434, 40, 40]);
    // Grand without 2 (HJ the highest jack).
    let grand_without2 = twelve("HJ CA", low);
    assert_eq!(matadors(GameType::Grand, grand_without2), Some((2, false)));
    check_example("grand without 2", contract("grand"), 48, grand_without2, 58, 4, 72, -144, [-194, 40, 40]);
    // ♠ Hand "without 5" (ST highest), ♣J in the skat: with 1, overbid at 77.
    let dealt = twelve("ST S9 HA", low) & !set("D7 D8");
    let spades_hand = dealt | set("CJ D7");
    assert_eq!(matadors(GameType::Suit(2), dealt), Some((5, false)));
    assert_eq!(matadors(GameType::Suit(2), spades_hand), Some((1, true)));
    check_example("spades hand overbid", contract("spades hand"), 72, spades_hand, 80, 7, 77, -154, [-204, 40, 40]);
    // Null, a trick taken; Null Ouvert Hand without one.
    check_example("null lost", contract("null"), 23, grand4, 5, 1, 23, -46, [-96, 40, 40]);
    check_example("null ouvert hand", contract("null ouvert hand"), 59, grand4, 0, 0, 59, 59, [109, 0, 0]);
    // Grand ouvert with 4, all tricks: the maximum, 264.
    check_example("grand ouvert", contract("grand ouvert hand"), 264, grand4, 120, 10, 264, 264, [314, 0, 0]);
    // All pass: thrown in.
    let mut g = Game::new(&Deal::for_game(1, 0));
    for _ in 0..3 {
        g.apply_name("pass").unwrap();
    }
    let r = g.result().unwrap();
    assert!(g.finished() && g.thrown_in() && r.thrown_in());
    assert_eq!((r.tp, r.list_score(), r.value(), g.returns()), ([0; 3], 0, 0, [0; 3]));
    // The TP range (spec §12): best win 314, worst loss −578, smallest win 68.
    let worst = GameResult::played(0, contract("grand ouvert hand"), 264, grand4, 120, 9);
    assert_eq!(worst.tp, [-578, 40, 40]);
    let smallest = GameResult::played(0, contract("diamonds"), 18, twelve("CJ DA", low) & !set("SJ"), 61, 5);
    assert_eq!(smallest.tp[0], 68);
}

fn game(hands: [&str; 3], skat: &str) -> Game {
    Game::new(&Deal::parse(&hands, skat).unwrap())
}

fn play(g: &mut Game, actions: &str) {
    for a in actions.split(',') {
        g.apply_name(a.trim()).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
}

fn legal_names(g: &Game) -> Vec<String> {
    g.legal_actions().iter().map(|a| a.name()).collect()
}

/// Spec §12, bidding sequences (a)–(d) through games.
#[test]
fn skat_bidding_sequences() {
    let deal = Deal::for_game(5, 2);
    let run = |calls: &str| {
        let mut g = Game::new(&deal);
        play(&mut g, calls);
        g
    };
    let a = run("18, hold, 20, pass, pass");
    assert_eq!((a.phase(), a.declarer(), a.bid(), a.player()), (Phase::Skat, Some(1), 20, Some(1)));
    let b = run("pass, 18, hold, 20, hold, 22, pass");
    assert_eq!((b.phase(), b.declarer(), b.bid()), (Phase::Skat, Some(2), 22));
    let mut c = run("pass, pass");
    assert_eq!((c.player(), legal_names(&c)), (Some(0), vec!["pass".to_string(), "18".to_string()]));
    play(&mut c, "18");
    assert_eq!((c.declarer(), c.bid(), legal_names(&c)), (Some(0), 18, vec!["hand".to_string(), "pickup".to_string()]));
    let d = run("pass, pass, pass");
    assert_eq!((d.phase(), d.player(), d.declarer()), (Phase::Finished, None, None));
    // Who acts: M, V, M, V, H, …
    let mut g = Game::new(&deal);
    let mut seats = Vec::new();
    for a in ["18", "hold", "20", "pass", "22", "pass"] {
        seats.push(g.player().unwrap());
        g.apply_name(a).unwrap();
    }
    assert_eq!(seats, [1, 0, 1, 0, 2, 1]);
    assert_eq!((g.declarer(), g.bid()), (Some(2), 22));
    // The bidder's legal values are exactly those above the current one.
    let mut g = Game::new(&deal);
    assert_eq!(g.legal_actions().len(), 1 + 63);
    play(&mut g, "59, hold");
    let values: Vec<u16> = g
        .legal_actions()
        .iter()
        .filter_map(|a| if let Action::Call(Call::Bid(v)) = a { Some(*v) } else { None })
        .collect();
    assert_eq!(values, BID_VALUES.iter().copied().filter(|&v| v > 59).collect::<Vec<_>>());
    let before = g;
    for bad in ["59", "61", "hold", "hand", "CJ"] {
        let e = g.apply_name(bad).unwrap_err().to_string();
        assert!(e.contains(bad) && e.contains("legal actions: pass, 60, 63"), "{bad}: {e}");
        assert_eq!(g, before);
    }
}

/// Spec §12: bid 45 held as ♦ "without 4"; the pickup finds ♣J: ♦ is "with 1" and reaches 36
/// only; grand (96), clubs (48) and null ouvert (46) remain, null (23) and the Hand contracts
/// do not.
#[test]
fn skat_declaration_must_reach_the_bid() {
    let m = set("DA DT DK DQ D9 D8 D7 HA HT HK");
    let skat = set("CJ S7");
    let rest: Vec<_> = iter(DECK & !m & !skat).collect();
    let v = rest[..10].iter().fold(0, |s, &c| s | bit(c));
    let h = rest[10..].iter().fold(0, |s, &c| s | bit(c));
    let deal = Deal::new([v, m, h], skat).unwrap();
    let mut g = Game::new(&deal);
    play(&mut g, "45, pass, pass");
    assert_eq!((g.declarer(), g.bid()), (Some(1), 45));
    // In Hand the ten cards are "without 4" in diamonds: diamonds hand reaches 9 × 8 = 72.
    let mut hand = g;
    play(&mut hand, "hand");
    let hand_legal = legal_names(&hand);
    assert!(hand_legal.contains(&"diamonds hand".to_string()), "{hand_legal:?}");
    assert!(hand_legal.iter().all(|n| n.contains("hand")));
    assert!(!hand_legal.contains(&"null hand".to_string()), "35 < 45");
    assert!(hand_legal.contains(&"null ouvert hand".to_string()));
    play(&mut g, "pickup");
    assert_eq!(g.hand(1), m | skat);
    assert_eq!(g.legal_actions().len(), 66);
    play(&mut g, "HK S7");
    assert_eq!(g.put_away(), set("HK S7"));
    assert_eq!(legal_names(&g), ["clubs", "grand", "null ouvert"]);
    let before = g;
    let e = g.apply_name("diamonds").unwrap_err().to_string();
    assert!(e.contains("reaches at most 36 and cannot reach the bid 45"), "{e}");
    assert!(e.contains("legal actions: clubs, grand, null ouvert"), "{e}");
    assert!(g.apply_name("null").unwrap_err().to_string().contains("at most 23"));
    assert!(g.apply_name("grand hand").unwrap_err().to_string().contains("Hand contract after a pickup"));
    assert_eq!(g, before);
    play(&mut g, "grand");
    assert_eq!((g.phase(), g.player(), g.open_hand()), (Phase::Tricks, Some(0), None));
}

/// A bid no contract can reach: every suit and grand contract stays legal, lost as overbid.
#[test]
fn skat_a_bid_nothing_reaches_is_lost_as_overbid() {
    let mut g = Game::new(&Deal::for_game(2, 9));
    play(&mut g, "264, pass, pass, pickup");
    let discard = g.legal_actions()[0];
    g.apply(discard).unwrap();
    assert_eq!(legal_names(&g), ["diamonds", "hearts", "spades", "clubs", "grand"]);
    play(&mut g, "grand");
    while !g.finished() {
        let a = g.legal_actions()[0];
        g.apply(a).unwrap();
    }
    let r = g.result().unwrap();
    let s = r.score.unwrap();
    assert!(!r.won() && s.overbid && r.value() == 264, "{r:?}");
    assert_eq!(r.tp[1], -2 * 264 - 50);
}

/// Spec §12, tricks 1–6 played in games: the winner leads next and takes the points.
#[test]
fn skat_tricks_in_games() {
    // Hearts: V leads H7, M DJ, H HA → M wins 13 points and leads.
    let hands = ["H7 CA CT CK CQ C9 C8 C7 SA ST", "DJ D7 D8 D9 DQ DK DT DA SK SQ", "HA HT HK HQ H9 H8 CJ SJ HJ S9"];
    let mut g = game(hands, "S8 S7");
    play(&mut g, "pass, 18, pass, hand, hearts hand, H7, DJ, HA");
    assert_eq!((g.trick_winner(0), g.trick_points(), g.player()), (Some(1), [0, 13, 0], Some(1)));
    // Spec 4: clubs, ♠J led: {SA S7 C7} must play C7 (here: a hand with spades and clubs).
    let hands = ["SJ CA CT CK CQ C9 C8 DA DT DK", "SA S7 C7 D7 D8 D9 DQ H7 H8 H9", "CJ HJ DJ ST SK SQ S9 S8 HA HT"];
    let mut g = game(hands, "HK HQ");
    play(&mut g, "pass, 18, pass, hand, clubs hand, SJ");
    assert_eq!(legal_names(&g), ["C7"]);
    let e = g.apply_name("SA").unwrap_err().to_string();
    assert!(e.contains("must follow trump") && e.contains("legal actions: C7"), "{e}");
    // Null: ♠7 led, a hand holding ♠J must play it (J is a plain spade in null).
    let hands = ["S7 CA CT CK CQ C9 C8 DA DT DK", "SJ HA D7 D8 D9 DQ H7 H8 H9 C7", "CJ HJ DJ ST SK SQ S9 S8 SA HT"];
    let mut g = game(hands, "HK HQ");
    play(&mut g, "pass, 18, pass, pickup, HK HQ, null, S7");
    assert_eq!(legal_names(&g), ["SJ"]);
    let e = g.apply_name("HA").unwrap_err().to_string();
    assert!(e.contains("must follow spades"), "{e}");
}

/// The counts of spec §12.
#[test]
fn skat_counts() {
    assert_eq!((DECK.count_ones(), set_points(DECK)), (32, 120));
    assert_eq!(BID_VALUES.len(), 63);
    assert_eq!((Contract::after_pickup().len(), Contract::hand_contracts().len()), (7, 22));
    let trumps: Vec<u32> =
        [GameType::Suit(0), GameType::Grand, GameType::Null].iter().map(|g| g.order().trumps().count_ones()).collect();
    assert_eq!(trumps, [11, 4, 0]);
    let d = Deal::for_game(0, 0);
    assert!(d.hands.iter().all(|h| h.count_ones() == 10) && d.skat.count_ones() == 2);
}

/// A random legal action; bids mostly near the current value, so that every game type comes up.
fn random_action(g: &Game, rng: &mut Pcg64, uniform: bool) -> Action {
    let legal = g.legal_actions();
    assert!(!legal.is_empty(), "no legal action in {g:?}");
    if !uniform && g.phase() == Phase::Bidding {
        let k = if rng.gen_bool(0.45) { 0 } else { rng.gen_range(1..legal.len().min(5)) };
        return legal[k];
    }
    *legal.choose(rng).unwrap()
}

/// Property tests over random games: legal sets non-empty until the end and every listed action
/// accepted; illegal actions refused without a change; 120 points shared (skat included); ten
/// tricks; the result consistent with the spec's formula; replaying the history reproduces the
/// game; every game type played.
#[test]
fn skat_random_games() {
    let mut rng = Pcg64::seed_from_u64(22);
    let mut kinds = std::collections::HashMap::new();
    let (mut thrown_in, mut won) = (0, 0);
    for i in 0..4000u64 {
        let deal = Deal::for_game(11, i);
        let mut g = Game::new(&deal);
        let uniform = i % 4 == 0;
        let mut taken = Vec::new();
        while !g.finished() {
            let legal = g.legal_actions();
            for &a in &legal {
                assert!(g.is_legal(a), "{a:?}");
            }
            // An action of another phase, or a card not held, is refused and changes nothing.
            let wrong = match g.phase() {
                Phase::Tricks => Action::Card(iter(DECK & !g.hand(g.player().unwrap())).next().unwrap_or(40)),
                _ => Action::Card(0),
            };
            let before = g;
            assert!(g.apply(wrong).is_err());
            assert_eq!(g, before);
            let a = random_action(&g, &mut rng, uniform);
            g.apply(a).unwrap();
            taken.push((before.player().unwrap(), a));
            assert_eq!(g.history(), taken);
        }
        assert!(g.legal_actions().is_empty() && g.player().is_none());
        let r = g.result().unwrap();
        // Replaying the history reproduces the game.
        let mut replay = Game::new(&deal);
        for &(seat, a) in g.history().iter() {
            assert_eq!(replay.player(), Some(seat));
            replay.apply(a).unwrap();
        }
        assert_eq!(replay, g);
        let Some(d) = r.declarer else {
            thrown_in += 1;
            assert_eq!(r.tp, [0; 3]);
            continue;
        };
        let c = r.contract.unwrap();
        *kinds.entry(c.name()).or_insert(0) += 1;
        let tp = g.trick_points();
        assert_eq!(tp.iter().sum::<u32>() + set_points(g.put_away()), 120);
        assert_eq!(g.tricks_won().iter().sum::<u32>(), 10);
        assert_eq!(g.tricks_done(), 10);
        assert!(g.hand(0) | g.hand(1) | g.hand(2) == 0);
        assert_eq!(r.declarer_points, tp[d as usize] + set_points(g.put_away()));
        assert_eq!(r.declarer_tricks, g.tricks_won()[d as usize]);
        if g.hand_game() == Some(true) {
            assert_eq!(g.put_away(), deal.skat);
        } else {
            assert_eq!(g.put_away().count_ones(), 2);
            assert_eq!(g.put_away() & !(deal.hands[d as usize] | deal.skat), 0);
        }
        assert_eq!(c.hand, g.hand_game() == Some(true));
        // The spec's formula, written out again.
        let s = r.score.unwrap();
        let v = s.value as i32;
        assert_eq!(s.list_score, if s.won { v } else { -2 * v });
        let mut want = [if s.won { 0 } else { DEFENDER_BONUS }; 3];
        want[d as usize] = if s.won { v + WIN_BONUS } else { -2 * v - WIN_BONUS };
        assert_eq!(r.tp, want);
        assert_eq!(g.returns(), want);
        if s.won {
            won += 1;
            assert!(s.value >= r.bid as u32);
            match c.game {
                GameType::Null => assert_eq!(r.declarer_tricks, 0),
                _ => assert!(r.declarer_points >= 61),
            }
        }
        if let Some(nv) = c.null_value() {
            // A null is only declared when its fixed value reaches the bid: never overbid.
            assert_eq!((s.value, s.overbid), (nv, false));
            assert!(nv >= r.bid as u32);
        } else {
            let base = c.game.base();
            assert_eq!(s.value % base, 0);
            let levels = r.matadors.unwrap().0 + c.announced_levels() + s.schneider as u32 + s.schwarz as u32;
            assert!(s.value / base == levels || (s.overbid && s.value / base > levels));
            assert_eq!(s.overbid, base * levels < r.bid as u32);
        }
        // Ouvert: the declarer's hand is public.
        assert_eq!(g.open_hand().is_some(), c.ouvert);
    }
    assert!(thrown_in > 50, "{thrown_in}");
    assert!(won > 100, "{won}");
    for kind in ["diamonds", "hearts", "spades", "clubs", "grand", "null"] {
        assert!(kinds.keys().any(|k| k.starts_with(kind)), "{kind} never played: {kinds:?}");
    }
    assert!(kinds.keys().any(|k| k.contains("ouvert")), "{kinds:?}");
    assert!(kinds.keys().any(|k| k.contains("hand")), "{kinds:?}");
}

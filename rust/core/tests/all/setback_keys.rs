//! The abstraction's worked examples of specs/setback.md (§2.2–§2.5, Appendix A.3).

use cfrkit_core::games::setback::abstraction::{self, actions, candidates};
use cfrkit_core::games::setback::cards::{card_name, parse_card, parse_cards, CardSet};
use cfrkit_core::games::setback::keys::{self, describe, key_string, parse_key, sketch_string};
use cfrkit_core::games::setback::rules::Deal;
use rand::SeedableRng;

const A: &str = "AS JS 4S KH 7H 9D";
const B: &str = "QD TD 4D TS 9S 6S";
const C: &str = "KC 5C KH 5H 2D 3S";
const D: &str = "AH JH 7H 3H 2C 9C";
const E: &str = "KS QS JS 3S 7D 2C";

/// A deal giving `hand` to dealer-relative player `p` and filler cards to the others.
fn deal_with(p: usize, hand: &str) -> Deal {
    let h = parse_cards(hand).unwrap();
    let mut rest = (0..52u8).filter(|c| h & (1u64 << c) == 0);
    let mut hands = [0u64; 4];
    hands[p] = h;
    for (i, hh) in hands.iter_mut().enumerate() {
        if i != p {
            for _ in 0..6 {
                *hh |= 1u64 << rest.next().unwrap();
            }
        }
    }
    Deal::from_hands(hands).unwrap()
}

fn codes(d: &Deal) -> Vec<String> {
    describe(d).0
}

fn key(d: &Deal) -> Option<String> {
    describe(d).1
}

/// Plays an abstract action by its code and returns the concrete card (None for bids).
fn play(d: &mut Deal, code: &str) -> Option<String> {
    let a = actions(d);
    let i =
        a.as_slice().iter().position(|x| x.code() == code).unwrap_or_else(|| panic!("{code} not in {:?}", codes(d)));
    match a.acts[i] {
        abstraction::Action::Bid(b) => {
            d.bid(b).unwrap();
            None
        }
        _ => {
            d.play_card(a.cards[i]).unwrap();
            Some(card_name(a.cards[i]))
        }
    }
}

#[test]
fn hand_sketches_and_candidate_suits() {
    type Candidate = (u8, Vec<u8>);
    let expect: [(&str, &str, Vec<Candidate>); 5] = [
        (A, "AJ4.........", vec![(3, vec![14, 11, 4])]),
        (B, "QT4...Tx6...", vec![(1, vec![12, 10, 4]), (3, vec![10, 9, 6])]),
        (C, "K5..........", vec![(0, vec![13, 5])]),
        (D, "AJx3........", vec![(2, vec![14, 11, 7, 3])]),
        (E, "KQJ3........", vec![(3, vec![13, 12, 11, 3])]),
    ];
    for (hand, sk, cands) in expect {
        let h: CardSet = parse_cards(hand).unwrap();
        assert_eq!(sketch_string(h), sk, "{hand}");
        let c = candidates(h);
        let got: Vec<Candidate> = (0..c.n as usize)
            .map(|i| (c.suits[i], (2..=14u8).rev().filter(|r| c.ranks[i] & (1 << r) != 0).collect()))
            .collect();
        assert_eq!(got, cands, "{hand}");
    }
}

#[test]
fn auction_keys_and_jack_filter() {
    let d = deal_with(1, A);
    assert_eq!(key(&d).as_deref(), Some("0AJ4"));
    assert_eq!(codes(&d), ["0", "2", "3", "4"]);

    let mut d = deal_with(3, B);
    d.bid(2).unwrap();
    d.bid(0).unwrap();
    assert_eq!(key(&d).as_deref(), Some("2QT4...Tx6"));

    let mut d = deal_with(0, E);
    d.bid(4).unwrap();
    d.bid(0).unwrap();
    d.bid(0).unwrap();
    assert_eq!(key(&d).as_deref(), Some("DKQJ3"));
    assert_eq!(codes(&d), ["0", "4"]);

    let d = deal_with(1, C);
    assert_eq!(codes(&d), ["0", "2", "3"]);
    assert_eq!(key(&d).as_deref(), Some("0K5"));

    // A non-dealer facing Four has one action and no key; so has a dealer without a candidate Jack.
    let mut d = deal_with(0, C);
    d.bid(4).unwrap();
    assert_eq!(codes(&d), ["0"]);
    assert_eq!(key(&d), None);
    d.bid(0).unwrap();
    d.bid(0).unwrap();
    assert_eq!(d.legal_bids(), [0, 4]);
    assert_eq!(codes(&d), ["0"]);
    assert_eq!(key(&d), None);
}

#[test]
fn establish_keys_and_cards() {
    let mut d = deal_with(1, B);
    d.bid(3).unwrap();
    for _ in 0..3 {
        d.bid(0).unwrap();
    }
    assert_eq!(key(&d).as_deref(), Some("E3QT4...Tx6"));
    assert_eq!(codes(&d), ["E0", "E1"]);
    let mut d1 = d;
    assert_eq!(play(&mut d1, "E0").as_deref(), Some("QD"));
    assert_eq!(d1.trump(), Some(1));
    assert_eq!(play(&mut d, "E1").as_deref(), Some("9S"));
    assert_eq!(d.trump(), Some(3));

    for (hand, card) in [(A, "AS"), (C, "KC"), (D, "AH"), (E, "KS")] {
        let mut d = deal_with(1, hand);
        d.bid(2).unwrap();
        for _ in 0..3 {
            d.bid(0).unwrap();
        }
        assert_eq!(codes(&d), ["E0"], "{hand}");
        assert_eq!(key(&d), None, "a single candidate suit forces the lead");
        assert_eq!(play(&mut d, "E0").as_deref(), Some(card), "{hand}");
    }
    // The 2–4 low card is kept back whenever anything else is held in the suit.
    assert_eq!(abstraction::establish_rank((1 << 2) | (1 << 3)), 3);
    assert_eq!(abstraction::establish_rank((1 << 3) | (1 << 4) | (1 << 11)), 4);
    assert_eq!(abstraction::establish_rank(1 << 11 | 1 << 10), 10);
    assert_eq!(abstraction::establish_rank(1 << 11 | 1 << 2), 11);
    assert_eq!(abstraction::establish_rank(1 << 3), 3);
}

/// The playout examples of §2.5: a first trick A♠-3♠-2♥-6♠ won by the leader, then A♦.
#[test]
fn playout_keys_worked_example() {
    let hands = ["7D 8D 9D 2D 3D 6S", "AS KS QS JS AD QH", "3S TD 6D 2C 3C 4C", "2H 5C 6C 7C 8C 9C"];
    let mut d = Deal::from_hands(hands.map(|h| parse_cards(h).unwrap())).unwrap();
    play(&mut d, "2");
    for _ in 0..3 {
        play(&mut d, "0");
    }
    assert_eq!(key(&d), None);
    assert_eq!(play(&mut d, "E0").as_deref(), Some("AS"));
    assert_eq!(codes(&d).len(), 1, "player 2 must follow with its only trump");
    d.play_card(parse_card("3S").unwrap()).unwrap();
    d.play_card(parse_card("2H").unwrap()).unwrap();
    d.play_card(parse_card("6S").unwrap()).unwrap();
    assert_eq!(d.to_act(), Some(1));
    assert_eq!(codes(&d), ["TJ", "TQ", "TK", "S."]);
    assert_eq!(key(&d).as_deref(), Some("H3.+4.......TJTQTKS"));
    assert_eq!(play(&mut d, "S.").as_deref(), Some("AD"));
    assert_eq!(codes(&d), ["l0", "lT"]);
    assert_eq!(key(&d).as_deref(), Some("H3.-4Ax....0l0lT"));
    assert_eq!(play(&mut d, "l0").as_deref(), Some("6D"));
}

#[test]
fn follow_and_lead_card_mappings() {
    // Trump clubs, established by player 1's 2C; player 2 holds every kind of follow card.
    let hands = ["2H 3H 4H 5H 6H 7H", "2C 8H 9H TH JH QH", "AC 9C 3C TS KD 4D", "KH AH 2S 3S 4S 5S"];
    let mut d = Deal::from_hands(hands.map(|h| parse_cards(h).unwrap())).unwrap();
    d.bid(2).unwrap();
    for _ in 0..3 {
        d.bid(0).unwrap();
    }
    d.play_card(parse_card("2C").unwrap()).unwrap();
    // Trump led: player 2 must play trump. lowRef = 2 (the 2C on the table), AC has game points.
    assert_eq!(codes(&d), ["TA", "Wx"]);
    let a = actions(&d);
    assert_eq!(card_name(a.cards[1]), "9C", "Wx maps to the highest winning zero-point trump");
    // Undo by replaying a fresh deal where a heart is led instead.
    let mut d = Deal::from_hands(hands.map(|h| parse_cards(h).unwrap())).unwrap();
    d.bid(2).unwrap();
    for _ in 0..3 {
        d.bid(0).unwrap();
    }
    d.play_card(parse_card("8H").unwrap()).unwrap(); // trump = hearts
                                                     // Player 2 is void in hearts: everything is legal, no trump held.
    assert_eq!(codes(&d), ["N.", "G.", "D."]);
    let a = actions(&d);
    let names: Vec<String> = a.cards[..a.n].iter().map(|&c| card_name(c)).collect();
    assert_eq!(names, ["TS", "AC", "3C"]);
}

/// Every reachable key prints and parses back to itself; abstract actions map to distinct legal
/// cards in strictly canonical order, at most six.
#[test]
fn keys_round_trip_over_random_deals() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let mut seen = 0;
    for _ in 0..400 {
        let mut d = Deal::random(&mut rng);
        while !d.is_exhausted() {
            let a = actions(&d);
            assert!(a.n >= 1 && a.n <= 6);
            if let Some(k) = keys::key(&d, &a) {
                let s = key_string(k);
                assert!(s.len() <= 24 && !s.ends_with('.'));
                assert_eq!(parse_key(&s).unwrap(), k, "{s}");
                assert!(keys::is_valid(k));
                assert_eq!(keys::key_num_actions(k), a.n);
                let codes: Vec<String> = keys::key_actions(k).iter().map(|x| x.code()).collect();
                let want: Vec<String> = a.as_slice().iter().map(|x| x.code()).collect();
                assert_eq!(codes, want);
                seen += 1;
            }
            let legal = d.legal_cards();
            if d.phase() != cfrkit_core::games::setback::rules::Phase::Auction {
                let mut used = 0u64;
                for &c in &a.cards[..a.n] {
                    assert!(legal & (1 << c) != 0, "abstract action maps to an illegal card");
                    assert!(used & (1 << c) == 0, "two abstract actions map to one card");
                    used |= 1 << c;
                }
            }
            let i = rand::Rng::gen_range(&mut rng, 0..a.n);
            match a.acts[i] {
                abstraction::Action::Bid(b) => d.bid(b).unwrap(),
                _ => d.play_card(a.cards[i]).unwrap(),
            }
        }
    }
    assert!(seen > 1000);
}

#[test]
fn malformed_keys_are_refused() {
    for s in ["", "X", "0AJ4.........Q", "E5AJ4", "H3.+4.......TJTQTKSS.", "H3.+4.......TQTJ", "0aj4", "H3.+F"] {
        let e = parse_key(s).unwrap_err().to_string();
        assert!(e.contains("Setback key"), "{s}: {e}");
    }
    assert_eq!(key_string(parse_key("E3QT4...Tx6").unwrap()), "E3QT4...Tx6");
}

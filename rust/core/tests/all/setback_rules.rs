//! Setback rules (specs/setback.md §1): dealing, auction, legal plays, scoring, the game to 11.

use cfrkit_core::games::setback::cards::{self, game_points, parse_card, parse_cards, rank, suit, Card};
use cfrkit_core::games::setback::rules::{Deal, GameScore, Phase};
use rand::{Rng, SeedableRng};

fn deal(hands: [&str; 4]) -> Deal {
    Deal::from_hands(hands.map(|h| parse_cards(h).unwrap())).unwrap()
}

fn bids<const N: usize>(d: &mut Deal, bs: [u8; N]) {
    for b in bs {
        d.bid(b).unwrap();
    }
}

fn plays(d: &mut Deal, cs: &str) {
    for c in cs.split_whitespace() {
        d.play_card(parse_card(c).unwrap()).unwrap_or_else(|e| panic!("{c}: {e}"));
    }
}

#[test]
fn dealing_in_packets_of_three() {
    let deck: [Card; 52] = std::array::from_fn(|i| i as Card);
    let d = Deal::from_deck(&deck);
    let h = d.dealt();
    assert_eq!(h[1], 0b111 | 0b111 << 12);
    assert_eq!(h[2], 0b111 << 3 | 0b111 << 15);
    assert_eq!(h[3], 0b111 << 6 | 0b111 << 18);
    assert_eq!(h[0], 0b111 << 9 | 0b111 << 21);
}

#[test]
fn auction_rules() {
    let mut d = Deal::random(&mut rand_pcg::Pcg64::seed_from_u64(1));
    assert_eq!(d.to_act(), Some(1));
    assert_eq!(d.legal_bids(), [0, 2, 3, 4]);
    d.bid(2).unwrap();
    assert_eq!(d.legal_bids(), [0, 3, 4]);
    let before = d;
    let e = d.bid(2).unwrap_err().to_string();
    assert!(e.contains("bid") && e.contains("[0, 3, 4]"), "{e}");
    assert_eq!(d, before, "a refused bid leaves the deal unchanged");
    d.bid(3).unwrap();
    assert_eq!(d.legal_bids(), [0, 4]);
    d.bid(4).unwrap();
    assert_eq!(d.to_act(), Some(0));
    assert_eq!(d.legal_bids(), [0, 4], "the dealer may steal the Four");
    d.bid(4).unwrap();
    assert_eq!(d.high_bid(), (4, Some(0)));
    assert_eq!(d.phase(), Phase::Establish);
    assert_eq!(d.to_act(), Some(0), "the high bidder leads");
    assert_eq!(d.bids(), [2, 3, 4, 4]);
    assert!(d.bid(0).is_err());

    let mut d = Deal::random(&mut rand_pcg::Pcg64::seed_from_u64(2));
    d.bid(4).unwrap();
    assert_eq!(d.legal_bids(), [0], "a non-dealer facing Four can only pass");
    bids(&mut d, [0, 0, 0]);
    assert_eq!(d.high_bid(), (4, Some(1)));
}

#[test]
fn all_pass_is_thrown_in() {
    let mut d = Deal::random(&mut rand_pcg::Pcg64::seed_from_u64(3));
    bids(&mut d, [0, 0, 0, 0]);
    assert!(d.is_exhausted() && d.is_finished());
    assert_eq!(d.score(), Some([0, 0]));
    assert_eq!(d.to_act(), None);
    assert!(d.play_card(d.dealt()[1].trailing_zeros() as u8).is_err());
}

#[test]
fn follow_suit_or_trump() {
    let mut d = deal(["2H 3H 4H 5H 6H 7H", "AC 8H 9H TH JH QH", "KC 9D 3C TS KD 4D", "KH AH 2S 3S 4S 5S"]);
    bids(&mut d, [2, 0, 0, 0]);
    plays(&mut d, "AC"); // trump = clubs
    assert_eq!(d.trump(), Some(0));
    assert_eq!(d.legal_cards(), parse_cards("KC 3C").unwrap(), "trump led: trump holders must trump");
    plays(&mut d, "3C");
    assert_eq!(d.legal_cards(), parse_cards("KH AH 2S 3S 4S 5S").unwrap(), "void: anything");
    plays(&mut d, "2S 2H");
    assert_eq!(d.tricks_done(), 1);
    assert_eq!(d.to_act(), Some(1), "the ace of trump wins");
    plays(&mut d, "8H");
    // Player 2 holds no heart: anything. Player 3 holds hearts: hearts or trump.
    assert_eq!(d.legal_cards(), parse_cards("KC 9D TS KD 4D").unwrap());
    plays(&mut d, "9D");
    assert_eq!(d.legal_cards(), parse_cards("KH AH").unwrap());
    let before = d;
    let e = d.play_card(parse_card("3S").unwrap()).unwrap_err().to_string();
    assert!(e.contains("3S") && e.contains("one of KH AH"), "{e}");
    assert_eq!(d, before);
    plays(&mut d, "AH 3H");
    assert_eq!(d.to_act(), Some(3), "highest of the suit led wins when no trump is played");
    // A player holding the suit led may still trump in.
    let mut d = deal(["2H 3H 4H 5H 6H 7H", "AC 8H 9H TH JH QH", "KC 9D 3C TS KD 4D", "KH AH 2S 3S 4S 5S"]);
    bids(&mut d, [2, 0, 0, 0]);
    plays(&mut d, "AC 3C 2S 2H 8H 9D");
    let mut d2 = d;
    plays(&mut d2, "KH 3H");
    assert_eq!(d2.to_act(), Some(3));
}

/// Jack of trump not dealt (3 points at most) and a bidder set back.
#[test]
fn jack_not_dealt_and_setback() {
    let hands = ["AS KS QS JS TS 9S", "2C 3C 4C 5C 6C 7C", "AD KD QD JD TD 9D", "AH KH QH JH TH 9H"];
    let mut d = deal(hands);
    d.bid(4).unwrap();
    bids_rest(&mut d);
    play_lowest(&mut d);
    assert!(d.is_finished());
    assert_eq!(d.raw_points(), Some([0, 3]), "High, Low, Game; no Jack");
    assert_eq!(d.score(), Some([0, -4]), "short of the Four: set back");
    let mut d = deal(hands);
    d.bid(3).unwrap();
    bids_rest(&mut d);
    play_lowest(&mut d);
    assert_eq!(d.score(), Some([0, 3]));
}

fn bids_rest(d: &mut Deal) {
    while d.phase() == Phase::Auction {
        d.bid(0).unwrap();
    }
}

fn play_lowest(d: &mut Deal) {
    while !d.is_finished() {
        d.play_card(cards::lowest(d.legal_cards())).unwrap();
    }
}

/// A single trump is High, Low and (here) Jack; the deal is exhausted after its trick.
#[test]
fn single_trump() {
    let mut d = deal(["7C 8C 9C 8D 9D 8S", "JH 2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S"]);
    bids(&mut d, [2, 0, 0, 0]);
    plays(&mut d, "JH 2D 2S 7C");
    assert!(d.is_exhausted(), "Low, Jack and Game are decided after one trick");
    assert_eq!(d.score(), Some([0, 4]));
    play_lowest(&mut d);
    assert_eq!(d.score(), Some([0, 4]));
}

/// Low goes to the team that captures it; Game tied means no Game point.
#[test]
fn low_to_captor_and_game_tie() {
    let mut d = deal(["7C 8C 9C 7D 8D 8S", "AH 2C 3C 4C 5C 6C", "2H 2D 3D 4D 5D 6D", "2S 3S 4S 5S 6S 7S"]);
    bids(&mut d, [4, 0, 0, 0]);
    plays(&mut d, "AH 2H 2S 7D");
    assert!(d.is_exhausted());
    assert_eq!(d.raw_points(), Some([0, 3]), "High and Low (captured from team 0) and Game; no Jack");
    assert_eq!(d.score(), Some([0, -4]));

    let mut d = deal(["7C 8C 9C 7D 8D 8S", "JH 2C 3C 4C 5C 6C", "JD 2D 3D 4D 5D 6D", "2S 3S 4S 5S 6S 7S"]);
    bids(&mut d, [2, 0, 0, 0]);
    plays(&mut d, "JH 2D 2S 7D");
    assert!(!d.is_exhausted(), "1 game point left can still tie a 1-point lead");
    assert_eq!(d.score(), None);
    plays(&mut d, "2C JD 3S 9C");
    assert!(d.is_exhausted());
    assert_eq!(d.raw_points(), Some([0, 3]), "Game tied 1-1: nobody gets it");
    assert_eq!(d.score(), Some([0, 3]));
}

#[test]
fn game_to_eleven() {
    let mut g = GameScore::default();
    g.add_deal(3, [4, -2]).unwrap(); // dealer South (team 1)
    assert_eq!(g.scores, [-2, 4]);
    g.add_deal(0, [8, 3]).unwrap();
    assert_eq!(g.scores, [6, 7]);
    assert_eq!(g.winner(), None);
    g.add_deal(1, [4, 5]).unwrap();
    assert_eq!(g.scores, [11, 11]);
    assert_eq!(g.winner(), None, "tied at 11: play on");
    g.add_deal(2, [-3, 1]).unwrap();
    assert_eq!(g.scores, [8, 12]);
    assert_eq!(g.winner(), Some(1));
    let g = GameScore { scores: [12, 11] };
    assert_eq!(g.winner(), Some(0), "both at 11 or more: the higher wins");
    assert!(GameScore::default().add_deal(4, [0, 0]).is_err());
}

#[test]
fn bad_hands_are_refused() {
    let e = Deal::from_hands([parse_cards("AS KS").unwrap(), 0, 0, 0]).unwrap_err().to_string();
    assert!(e.contains("hand 0") && e.contains("exactly 6"), "{e}");
    let h = parse_cards("AS KS QS JS TS 9S").unwrap();
    let e = Deal::from_hands([h, h, h, h]).unwrap_err().to_string();
    assert!(e.contains("dealt twice"), "{e}");
}

/// Independent scorer from the trick log.
fn score_from_log(dealt: [u64; 4], tricks: &[[(usize, Card); 4]], bid: u8, bidder: usize) -> [i32; 2] {
    let trump = suit(tricks[0][0].1);
    let all: u64 = dealt.iter().fold(0, |a, h| a | h);
    let trumps: Vec<Card> = cards::iter(all).filter(|&c| suit(c) == trump).collect();
    let hi = *trumps.iter().max_by_key(|&&c| rank(c)).unwrap();
    let lo = *trumps.iter().min_by_key(|&&c| rank(c)).unwrap();
    let mut pts = [0i32; 2];
    pts[(0..4).find(|&p| dealt[p] & (1 << hi) != 0).unwrap() % 2] += 1;
    let mut gp = [0i32; 2];
    for t in tricks {
        let led = suit(t[0].1);
        let best = t.iter().max_by_key(|(_, c)| (suit(*c) == trump, suit(*c) == led, rank(*c))).unwrap();
        let team = best.0 % 2;
        for &(_, c) in t {
            gp[team] += game_points(rank(c)) as i32;
            if c == lo {
                pts[team] += 1;
            }
            if suit(c) == trump && rank(c) == 11 {
                pts[team] += 1;
            }
        }
    }
    if gp[0] != gp[1] {
        pts[if gp[0] > gp[1] { 0 } else { 1 }] += 1;
    }
    if pts[bidder % 2] < bid as i32 {
        pts[bidder % 2] = -(bid as i32);
    }
    pts
}

/// The phase a deal is in, read from its public state (the deal keeps its own up to date).
fn expected_phase(d: &Deal) -> Phase {
    if d.bids().len() < 4 {
        Phase::Auction
    } else if d.high_bid().0 == 0 || d.hands().iter().all(|&h| h == 0) {
        Phase::Finished
    } else if d.trump().is_none() {
        Phase::Establish
    } else {
        Phase::Playout
    }
}

/// Random deals played to the end with random legal moves: the phase follows every move, cards
/// are conserved, every play obeys the follow rule, the score equals an independent scorer's,
/// and once exhausted it never changes.
#[test]
fn random_deals_property() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let mut scored = 0;
    for _ in 0..3000 {
        let mut d = Deal::random(&mut rng);
        let dealt = d.dealt();
        assert_eq!(dealt.iter().map(|h| h.count_ones()).sum::<u32>(), 24);
        assert_eq!(dealt.iter().fold(0u64, |a, h| a | h).count_ones(), 24);
        while d.phase() == Phase::Auction {
            let l = d.legal_bids();
            d.bid(l[rng.gen_range(0..l.len())]).unwrap();
            assert_eq!(d.phase(), expected_phase(&d));
        }
        if d.high_bid().0 == 0 {
            assert_eq!(d.score(), Some([0, 0]));
            continue;
        }
        let mut log: Vec<[(usize, Card); 4]> = Vec::new();
        let mut cur: Vec<(usize, Card)> = Vec::new();
        let mut played = 0u64;
        let mut exhausted_score = None;
        while !d.is_finished() {
            let p = d.to_act().unwrap() as usize;
            let hand = d.hands()[p];
            let legal = d.legal_cards();
            assert_eq!(legal & !hand, 0);
            if let Some(&(_, lead)) = cur.first() {
                let on = hand & cards::SUIT_MASK[suit(lead) as usize];
                let tr = hand & cards::SUIT_MASK[d.trump().unwrap() as usize];
                assert_eq!(legal, if on == 0 { hand } else { on | tr });
            } else {
                assert_eq!(legal, hand);
            }
            let all: Vec<Card> = cards::iter(legal).collect();
            let c = all[rng.gen_range(0..all.len())];
            d.play_card(c).unwrap();
            assert_eq!(d.phase(), expected_phase(&d));
            played |= 1 << c;
            cur.push((p, c));
            if cur.len() == 4 {
                log.push([cur[0], cur[1], cur[2], cur[3]]);
                cur.clear();
            }
            for (held, given) in d.hands().iter().zip(dealt) {
                assert_eq!(held | (played & given), given, "cards conserved");
                assert_eq!(held & played, 0);
            }
            if exhausted_score.is_none() && d.is_exhausted() {
                exhausted_score = d.score();
            }
        }
        assert_eq!(played, dealt.iter().fold(0, |a, h| a | h));
        let (bid, bidder) = d.high_bid();
        let want = score_from_log(dealt, &log, bid, bidder.unwrap() as usize);
        assert_eq!(d.score(), Some(want));
        assert_eq!(exhausted_score, Some(want), "the score is fixed once exhausted");
        scored += 1;
    }
    assert!(scored > 2000);
}

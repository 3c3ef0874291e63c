//! The rules agent: a hand-written Setback player, the yardstick a newcomer understands.
//!
//! **Bidding.** For every suit of the hand it estimates the deal points the hand would take
//! with that suit as trump ([`suit_points`]): High from the top trump (A 1.0, K 0.55, Q 0.3),
//! Low from the lowest trump (2 0.8, 3 0.6, 4 0.4, 5 0.2), Jack from holding it (0.8 when
//! guarded by the A, K or two more trumps, else 0.45; 0.25 for A+K without it), Game from Tens
//! and length. The best suit's estimate gives the level: ≥ 3.2 Four, ≥ 2.5 Three, ≥ 1.8 Two,
//! else Pass; it bids that level when it outbids the high bid. Over its partner's bid it needs
//! half a point more; when the opponents need 2 points or less to win it bids 0.4 lighter. The
//! dealer steals a Four with an estimate of at least 3.2.
//!
//! **Establishing trump** (the bidder's first lead): the best suit, leading its Ace, King or
//! Queen, else a middle card, keeping a low trump back (the abstraction's lead rule, §2.4).
//!
//! **Leading.** The master trump (no unseen trump above it) while trumps are out; else a master
//! off-suit Ace or King; else the lowest off-suit card worth no game points; else the cheapest
//! card.
//!
//! **Following.** When the partner is winning safely (it is the last card, or the partner holds
//! the trick with the master trump), give it points: the lowest trump if it may be Low, the Jack
//! of trump, an off-suit Ten, then the off-suit card with the most game points. When an
//! opponent is winning: win with the lowest card of the suit led that beats it; else trump in
//! with the cheapest winning trump if the trick is worth it (game points ≥ 3, or the Jack or a
//! trump ≤ 4 in it) or it is the last card; otherwise throw the cheapest card (low off-suit
//! cards first, Tens and trumps last).

use super::super::abstraction::establish_rank;
use super::super::cards::{self, bit, card, game_points, rank, suit, Card, CardSet, JACK, SUIT_MASK, TEN};
use super::super::rules::{Phase, WIN_THRESHOLD};
use super::agent::{by_phase, Agent, Move, Setback};
use super::view::View;
use crate::error::{Error, Result};
use crate::search::MoveModel;
use rand_pcg::Pcg64;

/// The hand-written player (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesAgent;

/// Estimated deal points of `hand` with `trump` as trump (see the module documentation).
pub fn suit_points(hand: CardSet, trump: u8) -> f64 {
    let t = hand & SUIT_MASK[trump as usize];
    let n = t.count_ones();
    if n == 0 {
        return 0.0;
    }
    let has = |r: u8| t & bit(card(r, trump)) != 0;
    let top = rank(cards::highest(t));
    let high = match top {
        14 => 1.0,
        13 => 0.55,
        12 => 0.3,
        _ => 0.1,
    };
    let low = match rank(cards::lowest(t)) {
        2 => 0.8,
        3 => 0.6,
        4 => 0.4,
        5 => 0.2,
        _ => 0.05,
    };
    let jack = if has(JACK) {
        if has(14) || has(13) || n >= 3 {
            0.8
        } else {
            0.45
        }
    } else if has(14) && has(13) {
        0.25
    } else {
        0.05
    };
    let tens = cards::iter(hand).filter(|&c| rank(c) == TEN).count() as f64;
    let aces = cards::iter(hand & !t).filter(|&c| rank(c) == 14).count() as f64;
    let game = (0.2 + 0.2 * tens + 0.08 * n as f64 + 0.08 * aces + if has(TEN) { 0.15 } else { 0.0 }).min(0.9);
    high + low + jack + game
}

/// The best trump suit of a hand and its estimate (ties: the lower suit).
pub fn best_suit(hand: CardSet) -> (u8, f64) {
    (0..4u8).map(|s| (s, suit_points(hand, s))).fold((0, f64::MIN), |best, x| if x.1 > best.1 { x } else { best })
}

fn level(points: f64) -> u8 {
    if points >= 3.2 {
        4
    } else if points >= 2.5 {
        3
    } else if points >= 1.8 {
        2
    } else {
        0
    }
}

/// Whether card `c` would beat the winning card `w` with trump `trump`.
fn beats(c: Card, w: Card, trump: u8) -> bool {
    (suit(c) == suit(w) && rank(c) > rank(w)) || (suit(c) == trump && suit(w) != trump)
}

/// Whether no unseen card of `c`'s suit ranks above it.
fn is_master(c: Card, unseen: CardSet) -> bool {
    cards::iter(unseen & SUIT_MASK[suit(c) as usize]).all(|u| rank(u) < rank(c))
}

/// The card of `set` minimising `cost` (ties: the first in ascending order).
fn cheapest(set: CardSet, cost: impl Fn(Card) -> i32) -> Card {
    cards::iter(set).min_by_key(|&c| cost(c)).expect("a non-empty set")
}

impl RulesAgent {
    fn choose_bid(view: &View) -> u8 {
        let legal = view.legal_bids();
        let (_, mut est) = best_suit(view.dealt_hand());
        let us = view.team();
        let score = view.score();
        if WIN_THRESHOLD - score[1 - us] <= 2 && score[us] < score[1 - us] + 2 {
            est += 0.4;
        }
        let (high, bidder) = view.high_bid();
        let partner_bid = bidder.is_some_and(|b| (b % 2) as usize == us);
        if partner_bid {
            if high == 4 {
                return 0;
            }
            est -= 0.5;
        }
        let want = level(est);
        if want > 0 && legal.contains(&want) && (want > high || (want == 4 && high == 4)) {
            want
        } else {
            0
        }
    }

    fn lead(view: &View, trump: u8) -> Card {
        let legal = view.legal_cards();
        let unseen = view.unseen();
        let trumps = legal & SUIT_MASK[trump as usize];
        if trumps != 0 && unseen & SUIT_MASK[trump as usize] != 0 {
            let top = cards::highest(trumps);
            if is_master(top, unseen) {
                return top;
            }
        }
        let off = legal & !SUIT_MASK[trump as usize];
        if let Some(c) = cards::iter(off).filter(|&c| rank(c) >= 13 && is_master(c, unseen)).last() {
            return c;
        }
        let dull = cards::iter(off).filter(|&c| game_points(rank(c)) == 0);
        if let Some(c) = dull.min_by_key(|&c| rank(c)) {
            return c;
        }
        cheapest(legal, |c| Self::throw_cost(c, trump))
    }

    /// Cost of giving a card away: low off-suit cards first, game points and trumps last.
    fn throw_cost(c: Card, trump: u8) -> i32 {
        let r = rank(c) as i32;
        if suit(c) == trump {
            100 + if r <= 4 { 50 } else { 0 } + r
        } else {
            game_points(rank(c)) as i32 * 5 + r
        }
    }

    fn follow(view: &View, trump: u8) -> Card {
        let legal = view.legal_cards();
        let unseen = view.unseen();
        let trick = view.trick();
        let wpos = view.trick_winner().expect("a card has been led");
        let w = trick[wpos];
        let leader = view.leader().expect("the playout has a leader");
        let partner_wins = ((leader as usize + wpos) % 2) == view.team();
        let last = trick.len() == 3;
        let tmask = SUIT_MASK[trump as usize];
        if partner_wins && (last || (suit(w) == trump && is_master(w, unseen))) {
            let my_trumps = legal & tmask;
            let lowest_unseen = cards::iter(unseen & tmask).next().map(rank).unwrap_or(15);
            if my_trumps != 0 {
                let lo = cards::lowest(my_trumps);
                if rank(lo) <= 5 && rank(lo) < lowest_unseen {
                    return lo;
                }
                let jack = card(JACK, trump);
                if my_trumps & bit(jack) != 0 {
                    return jack;
                }
            }
            let off = legal & !tmask;
            if let Some(c) = cards::iter(off).find(|&c| rank(c) == TEN) {
                return c;
            }
            if let Some(c) =
                cards::iter(off).filter(|&c| game_points(rank(c)) > 0 && !is_master(c, unseen)).max_by_key(|&c| rank(c))
            {
                return c;
            }
            return cheapest(legal, |c| Self::throw_cost(c, trump));
        }
        if !partner_wins {
            let led = suit(trick[0]);
            let winners = cards::iter(legal).filter(|&c| beats(c, w, trump));
            let (on_suit, trumps): (Vec<Card>, Vec<Card>) = winners.partition(|&c| suit(c) != trump);
            if let Some(&c) = on_suit.iter().filter(|&&c| suit(c) == led).min_by_key(|&&c| rank(c)) {
                return c;
            }
            let trick_pts: u32 = trick.iter().map(|&c| game_points(rank(c)) as u32).sum();
            let valuable =
                trick_pts >= 3 || trick.iter().any(|&c| suit(c) == trump && (rank(c) == JACK || rank(c) <= 4));
            if !trumps.is_empty() && (valuable || last) {
                // Cheapest winning trump: keep the Jack, the Ten and a low trump back if possible.
                let cost = |c: Card| {
                    let r = rank(c) as i32;
                    let special = r == JACK as i32 || r == TEN as i32 || r <= 4;
                    (special as i32) * 100 + r
                };
                return *trumps.iter().min_by_key(|&&c| cost(c)).expect("non-empty");
            }
        }
        cheapest(legal, |c| Self::throw_cost(c, trump))
    }
}

impl Agent<Setback> for RulesAgent {
    fn name(&self) -> String {
        "rules".into()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(view, rng, |r| self.bid(view, r), |r| self.play(view, r))
    }
}

impl RulesAgent {
    /// The rules' bid for the viewing player, who is to act in the auction.
    pub fn bid(&self, view: &View, _rng: &mut Pcg64) -> Result<u8> {
        if view.legal_bids().is_empty() {
            return Err(Error::invalid("bid request", "no legal bid", "a view of a player to act in the auction"));
        }
        Ok(Self::choose_bid(view))
    }

    /// The rules' card for the viewing player, who is to act after the auction.
    pub fn play(&self, view: &View, _rng: &mut Pcg64) -> Result<Card> {
        if view.legal_cards() == 0 {
            return Err(Error::invalid("card request", "no legal card", "a view of a player to act in the playout"));
        }
        Ok(match (view.phase(), view.trump()) {
            (Phase::Establish, _) | (_, None) => {
                let (s, _) = best_suit(view.hand());
                card(establish_rank(cards::suit_ranks(view.hand(), s)), s)
            }
            (_, Some(t)) if view.trick().is_empty() => Self::lead(view, t),
            (_, Some(t)) => Self::follow(view, t),
        })
    }
}

/// The rules agent as a model of its own play, for PIMC with inference: it decides without
/// chance, so its move has probability 1 and every other 0.
impl MoveModel<View, Move> for RulesAgent {
    fn probability(&self, view: &View, m: &Move) -> Result<Option<f64>> {
        let own = match m {
            Move::Bid(_) => Move::Bid(Self::choose_bid(view)),
            Move::Card(_) => Move::Card(self.play(view, &mut Pcg64::new(0, 0))?),
        };
        Ok(Some(f64::from(u8::from(own == *m))))
    }
}

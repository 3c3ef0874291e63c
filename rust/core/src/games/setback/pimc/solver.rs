//! The perfect-information solver: the value of a Setback position with every hand known.
//!
//! Two-team negamax with alpha-beta over the remaining card plays. A position's value is its deal
//! score difference after the setback rule ([`Deal::score`]) for the team of the player to act; a
//! line ends as soon as the score can no longer change (the early-end rule, spec §2.8), which is
//! where [`Deal::apply_card`] marks the deal exhausted. Values are small integers (−8…8).
//!
//! Speed-ups, all exact:
//! * a transposition table at trick boundaries, keyed by the cards still held (which, in one
//!   world, also says who holds them), the leader, trump, the game points taken by team 0 and who
//!   took the Low and the Jack once taken; it stores lower and upper bounds;
//! * static bounds at trick boundaries: the points already decided and those still open bound the
//!   final score from both sides;
//! * move ordering: the table's best card first, then high cards and trumps to lead, cheap winners
//!   and cheap discards to follow;
//! * equivalent cards: two cards of one suit in one hand, both worth no game points, neither the
//!   lowest trump dealt, with no card of that suit ranked between them still in play (in a hand or
//!   in the current trick), lead to the same outcomes, so only the lower one is searched.

use super::super::cards::{self, bit, card, game_points, rank, suit, Card, CardSet, SUIT_MASK};
use super::super::rules::{Deal, Phase};
use crate::error::{Error, Result};

/// The rules' "none" marker for player, team and trump fields.
const NONE: u8 = u8::MAX;
/// Above any value.
const INF: i32 = 100;
const TT_BITS: u32 = 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Game points taken by team 0 (the part of the key that does not fit in `key`).
    g0: u8,
    lo: i8,
    hi: i8,
    best: u8,
    /// Search generation that wrote the entry; older entries are empty.
    gen: u32,
}

/// A reusable solver (its transposition table is allocated once).
pub struct Solver {
    tt: Vec<Entry>,
    gen: u32,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("nodes", &self.nodes).finish()
    }
}

/// The score difference of a decided deal for `team`.
#[inline]
fn outcome(d: &Deal, team: u8) -> i32 {
    let s = d.score().expect("an exhausted deal has a score");
    s[team as usize] - s[1 - team as usize]
}

/// Whether `c` beats the winning card `w`.
#[inline]
fn beats(c: Card, w: Card, trump: u8) -> bool {
    (suit(c) == suit(w) && c > w) || (suit(c) == trump && suit(w) != trump)
}

/// Bounds on the final value for `team` at a trick boundary after trump is set.
fn bounds(d: &Deal, team: u8) -> (i32, i32) {
    let mut sure = [0i32; 2];
    let mut open = 0;
    sure[d.high_team as usize] += 1;
    if d.low_taken == d.low_dealt {
        sure[d.low_taken_team as usize] += 1;
    } else {
        open += 1;
    }
    if d.jack_dealt {
        if d.jack_taken != NONE {
            sure[d.jack_taken as usize] += 1;
        } else {
            open += 1;
        }
    }
    let [g0, g1] = [d.game_pts[0] as i32, d.game_pts[1] as i32];
    let left = d.game_pts_dealt as i32 - g0 - g1;
    if left < (g0 - g1).abs() {
        sure[if g0 > g1 { 0 } else { 1 }] += 1;
    } else if left > 0 {
        open += 1;
    }
    let b = (d.high_bidder % 2) as usize;
    let bid = d.high_bid as i32;
    let set = |x: i32| if x >= bid { x } else { -bid };
    // The bidding team's score rises with its points; the other's is its points.
    let hi = set(sure[b] + open) - sure[1 - b];
    let lo = set(sure[b]) - (sure[1 - b] + open);
    if team as usize == b {
        (lo, hi)
    } else {
        (-hi, -lo)
    }
}

/// The legal cards of the player to act with equivalent cards merged into the lowest of each
/// run (see the module documentation).
pub fn distinct_moves(d: &Deal) -> CardSet {
    let legal = d.playable();
    if d.trump == NONE {
        return legal;
    }
    let live = d.hands.iter().fold(0, |a, h| a | h) | d.trick().iter().fold(0, |a, &c| a | bit(c));
    let low = card(d.low_dealt.max(2), d.trump);
    let mut out = 0;
    let mut prev: Option<Card> = None;
    for c in cards::iter(legal) {
        let plain = rank(c) < 10 && !(suit(c) == d.trump && c == low);
        if let Some(p) = prev.filter(|&p| suit(p) == suit(c)) {
            let between = SUIT_MASK[suit(c) as usize] & (bit(c) - 1) & !((bit(p) << 1) - 1);
            if plain && live & between == 0 {
                // Equivalent to `p`; the next card may be equivalent to this one in turn.
                prev = Some(c);
                continue;
            }
        }
        out |= bit(c);
        prev = plain.then_some(c);
    }
    out
}

/// The legal cards in search order, `first` (if legal) ahead of the others.
fn ordered(d: &Deal, first: Card) -> ([Card; 13], usize) {
    let moves = distinct_moves(d);
    let mut list = [0u8; 13];
    let mut keys = [0i32; 13];
    let mut n = 0;
    let me = d.actor();
    let trump = d.trump;
    for c in cards::iter(moves) {
        let is_trump = suit(c) == trump;
        let r = rank(c) as i32;
        let gp = game_points(rank(c)) as i32;
        let key = if c == first {
            1000
        } else if d.trick_len == 0 {
            r + if is_trump { 16 } else { 0 }
        } else {
            let w = d.trick[d.trick_winner as usize];
            let partner_wins = (d.leader + d.trick_winner) % 2 == me % 2;
            if partner_wins {
                4 * gp - r - if is_trump { 40 } else { 0 }
            } else if beats(c, w, trump) {
                100 - r - if is_trump { 20 } else { 0 }
            } else {
                -4 * gp - r - if is_trump { 20 } else { 0 }
            }
        };
        // Insertion by descending key; equal keys keep ascending card order.
        let mut i = n;
        while i > 0 && keys[i - 1] < key {
            list[i] = list[i - 1];
            keys[i] = keys[i - 1];
            i -= 1;
        }
        list[i] = c;
        keys[i] = key;
        n += 1;
    }
    (list, n)
}

impl Solver {
    /// A solver with an empty transposition table.
    pub fn new() -> Solver {
        Solver { tt: vec![Entry::default(); 1 << TT_BITS], gen: 0, nodes: 0 }
    }

    /// Positions searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn next_generation(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.tt.fill(Entry::default());
            self.gen = 1;
        }
    }

    fn check(deal: &Deal) -> Result<()> {
        match deal.phase() {
            Phase::Establish | Phase::Playout => Ok(()),
            p => Err(Error::invalid("position", format!("{p:?}"), "a deal after the auction with cards left to play")),
        }
    }

    /// The value of `deal` for `team` (0 or 1) under perfect play by everyone.
    pub fn value(&mut self, deal: &Deal, team: usize) -> Result<i32> {
        if deal.is_exhausted() && deal.high_bid().0 > 0 {
            return Ok(outcome(deal, team as u8 % 2));
        }
        Self::check(deal)?;
        self.next_generation();
        let v = self.search(deal, -INF, INF);
        Ok(if deal.actor() % 2 == team as u8 % 2 { v } else { -v })
    }

    /// The value of every legal card of the player to act, for that player's team, in ascending
    /// card order.
    pub fn card_values(&mut self, deal: &Deal) -> Result<Vec<(Card, i32)>> {
        Self::check(deal)?;
        self.next_generation();
        let team = deal.actor() % 2;
        let distinct = distinct_moves(deal);
        let mut out: Vec<(Card, i32)> = Vec::with_capacity(6);
        for c in cards::iter(deal.playable()) {
            if distinct & bit(c) == 0 {
                // Equivalent to the card before it in the same suit.
                let v = out.last().expect("a merged card follows its representative").1;
                out.push((c, v));
                continue;
            }
            let v = self.child_value(deal, c, team, -INF, INF);
            out.push((c, v));
        }
        Ok(out)
    }

    /// The value for `team` of playing `c` in `d`, searched in the window (alpha, beta).
    #[inline]
    fn child_value(&mut self, d: &Deal, c: Card, team: u8, alpha: i32, beta: i32) -> i32 {
        let mut child = *d;
        child.apply_card(c);
        if child.exhausted {
            outcome(&child, team)
        } else if child.actor() % 2 == team {
            self.search(&child, alpha, beta)
        } else {
            -self.search(&child, -beta, -alpha)
        }
    }

    /// Negamax value of `d` for the team to act, fail-soft within (alpha, beta).
    fn search(&mut self, d: &Deal, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let team = d.actor() % 2;
        let boundary = d.trick_len == 0 && d.trump != NONE;
        let mut slot = usize::MAX;
        let (mut key, mut g0, mut first) = (0u64, 0u8, NONE);
        let (mut lo, mut hi) = (-INF, INF);
        if boundary {
            (lo, hi) = bounds(d, team);
            if let Some(e) = self.probe(d, &mut key, &mut g0, &mut slot) {
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
                first = e.best;
            }
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let (moves, n) = ordered(d, first);
        let mut best = -INF;
        let mut best_card = moves[0];
        let a0 = alpha;
        for &c in &moves[..n] {
            let v = self.child_value(d, c, team, alpha, beta);
            if v > best {
                best = v;
                best_card = c;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if boundary {
            if best <= a0 {
                hi = hi.min(best);
            } else if best >= beta {
                lo = lo.max(best);
            } else {
                (lo, hi) = (best, best);
            }
            self.tt[slot] = Entry { key, g0, lo: lo as i8, hi: hi as i8, best: best_card, gen: self.gen };
        }
        best
    }

    /// Computes the key and slot of a trick-boundary position; returns its entry if stored.
    #[inline]
    fn probe(&self, d: &Deal, key: &mut u64, g0: &mut u8, slot: &mut usize) -> Option<Entry> {
        let held = d.hands.iter().fold(0, |a, h| a | h);
        let low_team = if held & bit(card(d.low_dealt.max(2), d.trump)) == 0 { d.low_taken_team & 1 } else { 0 };
        let jack_team = if d.jack_taken != NONE { d.jack_taken & 1 } else { 0 };
        *key = held
            | (d.leader as u64) << 52
            | (d.trump as u64) << 54
            | (low_team as u64) << 56
            | (jack_team as u64) << 57;
        *g0 = d.game_pts[0];
        let h = (*key ^ (*g0 as u64) << 58).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        *slot = (h >> (64 - TT_BITS)) as usize;
        let e = self.tt[*slot];
        (e.gen == self.gen && e.key == *key && e.g0 == *g0).then_some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Plain minimax over every legal card: the value for the team to act.
    fn exhaustive(d: &Deal) -> i32 {
        let team = d.actor() % 2;
        cards::iter(d.playable())
            .map(|c| {
                let mut child = *d;
                child.apply_card(c);
                if child.exhausted {
                    outcome(&child, team)
                } else if child.actor() % 2 == team {
                    exhaustive(&child)
                } else {
                    -exhaustive(&child)
                }
            })
            .max()
            .expect("a player to act holds a card")
    }

    /// A random deal with a random auction (never all-pass), played at random until `left` tricks
    /// remain plus `extra` cards of the next trick (None if the deal ended earlier).
    pub(crate) fn random_position(rng: &mut Pcg64, left: u8, extra: u8) -> Option<Deal> {
        let mut d = Deal::random(rng);
        while d.phase() == Phase::Auction {
            let legal = d.legal_bids();
            let b = if d.bids().len() == 3 && d.high_bid().0 == 0 { 2 } else { legal[rng.gen_range(0..legal.len())] };
            d.bid(b).unwrap();
        }
        while d.tricks_done() < 6 - left || d.trick().len() < extra as usize {
            if d.is_exhausted() {
                return None;
            }
            let legal: Vec<Card> = cards::iter(d.legal_cards()).collect();
            d.play_card(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
        (!d.is_exhausted()).then_some(d)
    }

    /// The solver's card values and position value equal plain minimax on random endgames of one
    /// to three tricks, at and inside trick boundaries.
    #[test]
    fn solver_equals_exhaustive_search_on_endgames() {
        let mut rng = Pcg64::seed_from_u64(17);
        let mut solver = Solver::new();
        let mut checked = 0;
        while checked < 1500 {
            let left = rng.gen_range(1..=3);
            let extra = rng.gen_range(0..4);
            let Some(d) = random_position(&mut rng, left, extra) else { continue };
            let team = d.actor() % 2;
            let values = solver.card_values(&d).unwrap();
            assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), cards::iter(d.playable()).collect::<Vec<_>>());
            for &(c, v) in &values {
                let mut child = d;
                child.apply_card(c);
                let want = if child.exhausted {
                    outcome(&child, team)
                } else if child.actor() % 2 == team {
                    exhaustive(&child)
                } else {
                    -exhaustive(&child)
                };
                assert_eq!(v, want, "card {} in {d:?}", cards::card_name(c));
            }
            let best = values.iter().map(|v| v.1).max().unwrap();
            assert_eq!(best, exhaustive(&d));
            assert_eq!(solver.value(&d, team as usize).unwrap(), best);
            assert_eq!(solver.value(&d, 1 - team as usize).unwrap(), -best);
            checked += 1;
        }
    }

    /// Merged cards are equivalent: every legal card is represented, and the representatives'
    /// values equal those of the cards merged into them (checked by the test above); here the
    /// merge is exercised: some positions do merge.
    #[test]
    fn equivalent_cards_are_merged_somewhere() {
        let mut rng = Pcg64::seed_from_u64(23);
        let mut merged = 0;
        for _ in 0..500 {
            if let Some(d) = random_position(&mut rng, 4, 0) {
                let m = distinct_moves(&d);
                assert_eq!(m & !d.playable(), 0);
                merged += (m != d.playable()) as u32;
            }
        }
        assert!(merged > 0);
    }

    #[test]
    fn positions_before_the_playout_are_refused() {
        let d = Deal::seeded(1);
        assert!(Solver::new().card_values(&d).is_err());
        assert!(Solver::new().value(&d, 0).is_err());
    }
}

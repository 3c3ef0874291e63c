//! The baseline abstraction's actions (spec §2.2–§2.6): candidate trump suits, the 12-character
//! hand sketch, Jack-filtered bids, establish-trump choices, and the lead and follow action
//! abstractions with their fixed mappings back to one concrete card, in canonical order.

use super::cards::{self, game_points, lower, rank, suit, Card, CardSet, FIVE, JACK, TEN};
use super::rules::{Deal, Phase};

/// Candidate trump suits of a hand (§2.2a): one or two suits, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidates {
    /// Number of candidate suits (1 or 2).
    pub n: u8,
    /// The suits, strongest first.
    pub suits: [u8; 2],
    /// Rank masks (bit `rank`) of the suits.
    pub ranks: [u16; 2],
}

/// Candidate trump suits: strength Σ(rank − 1), ties by the descending rank list (a longer list
/// wins over its prefix), then the lower suit; the second suit counts when it is within 2 of the
/// first and its rank list differs.
pub fn candidates(hand: CardSet) -> Candidates {
    let mut suits: [(u32, u16, u8); 4] = [(0, 0, 0); 4];
    let mut n = 0;
    for s in 0..4u8 {
        let m = cards::suit_ranks(hand, s);
        if m != 0 {
            let strength = (2..=14u32).filter(|r| m & (1 << r) != 0).map(|r| r - 1).sum();
            suits[n] = (strength, m, s);
            n += 1;
        }
    }
    // Comparing rank masks as integers is the lexicographic order of descending rank lists.
    suits[..n].sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let first = suits[0];
    if n > 1 && first.0 - suits[1].0 < 2 && first.1 != suits[1].1 {
        Candidates { n: 2, suits: [first.2, suits[1].2], ranks: [first.1, suits[1].1] }
    } else {
        Candidates { n: 1, suits: [first.2, 0], ranks: [first.1, 0] }
    }
}

/// Character codes of the sketch and of key fields: 0 = `.`, 1..=13 = ranks 2..A, 14 = `x`.
pub const SKETCH_DOT: u8 = 0;
/// Code of `x` in a sketch.
pub const SKETCH_X: u8 = 14;

/// The 12-character hand sketch (§2.2b) as 12 four-bit codes, first character in the lowest bits.
pub fn sketch(hand: CardSet) -> u64 {
    let c = candidates(hand);
    let mut out = 0u64;
    for slot in 0..c.n as usize {
        let m = c.ranks[slot];
        let low = m.trailing_zeros() as u8;
        let mut pos = slot * 6;
        for r in (2..=14u8).rev() {
            if m & (1 << r) != 0 {
                let code = if r >= TEN || r == low { r - 1 } else { SKETCH_X };
                out |= (code as u64) << (4 * pos);
                pos += 1;
            }
        }
    }
    out
}

/// Whether a Jack is among the ranks of the hand's candidate suits (the Four filter of §2.3).
pub fn has_candidate_jack(c: &Candidates) -> bool {
    (0..c.n as usize).any(|i| c.ranks[i] & (1 << JACK) != 0)
}

/// The card led to establish trump in a suit of rank mask `ranks` (§2.4): the best by
/// (group, rank) with groups A/K/Q 3; middles (lowCut < r < Ten) 2; Ten 1; Jack 0; r <= lowCut −1.
pub fn establish_rank(ranks: u16) -> u8 {
    let low = ranks.trailing_zeros() as u8;
    let low_cut = low.min(4);
    let group = |r: u8| -> i8 {
        match r {
            12..=14 => 3,
            10 => 1,
            11 => 0,
            _ if r <= low_cut => -1,
            _ => 2,
        }
    };
    (2..=14u8).filter(|r| ranks & (1 << r) != 0).max_by_key(|&r| (group(r), r)).expect("a non-empty suit")
}

/// An abstract action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A bid: 0 (Pass), 2, 3 or 4.
    Bid(u8),
    /// Establish trump by leading from candidate suit 0 or 1.
    Establish(u8),
    /// A lead action, by its index in [`LEAD_CODES`] order.
    Lead(u8),
    /// A follow action, by its index in [`FOLLOW_CODES`] order.
    Follow(u8),
}

/// Lead codes in canonical order: `Tx`, `T2`…`TA`, `S.`, `W.`.
pub const LEAD_CODES: [&str; 16] =
    ["Tx", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "TT", "TJ", "TQ", "TK", "TA", "S.", "W."];
/// Follow codes in canonical order: `T2`…`TA`, `Wx`, `Lx`, `w0`…`wT`, `l0`…`lT`, `N.`, `G.`, `D.`.
pub const FOLLOW_CODES: [&str; 30] = [
    "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "TT", "TJ", "TQ", "TK", "TA", "Wx", "Lx", "w0", "w1", "w2", "w3",
    "w4", "wT", "l0", "l1", "l2", "l3", "l4", "lT", "N.", "G.", "D.",
];
const LEAD_TX: u8 = 0;
const LEAD_S: u8 = 14;
const LEAD_W: u8 = 15;
const FOLLOW_WX: u8 = 13;
const FOLLOW_LX: u8 = 14;
const FOLLOW_W: u8 = 15;
const FOLLOW_L: u8 = 21;
const FOLLOW_N: u8 = 27;
const FOLLOW_G: u8 = 28;
const FOLLOW_D: u8 = 29;

impl Action {
    /// The bid of a bid action.
    pub fn bid(&self) -> Option<u8> {
        match *self {
            Action::Bid(b) => Some(b),
            _ => None,
        }
    }

    /// The original's code: `0`/`2`/`3`/`4`, `E0`/`E1`, or a two-character play code.
    pub fn code(&self) -> String {
        match *self {
            Action::Bid(b) => b.to_string(),
            Action::Establish(k) => format!("E{k}"),
            Action::Lead(i) => LEAD_CODES[i as usize].to_string(),
            Action::Follow(i) => FOLLOW_CODES[i as usize].to_string(),
        }
    }
}

/// Index 0..6 of a game-point value in the `w`/`l` code order (0, 1, 2, 3, 4, 10).
#[inline]
fn gp_index(gp: u8) -> u8 {
    if gp == 10 {
        5
    } else {
        gp
    }
}

/// The abstract actions at a decision point, in canonical order, with each action's concrete card.
#[derive(Clone, Copy, Debug)]
pub struct Actions {
    /// Number of actions.
    pub n: usize,
    /// The actions.
    pub acts: [Action; 6],
    /// Concrete card of each play action (unused for bids).
    pub cards: [Card; 6],
    /// Bit set of the lead/follow code indexes (playout keys).
    pub mask: u32,
}

impl Actions {
    fn empty() -> Actions {
        Actions { n: 0, acts: [Action::Bid(0); 6], cards: [0; 6], mask: 0 }
    }
    fn push(&mut self, a: Action, c: Card) {
        self.acts[self.n] = a;
        self.cards[self.n] = c;
        self.n += 1;
    }
    /// The actions as a slice.
    pub fn as_slice(&self) -> &[Action] {
        &self.acts[..self.n]
    }
}

/// Abstract actions of the player to act (empty when the deal is finished). They exist after
/// the deal is exhausted too (play goes on to the last card); training stops there.
pub fn actions(d: &Deal) -> Actions {
    let mut out = Actions::empty();
    match d.phase() {
        Phase::Auction => {
            let p = ((d.num_bids + 1) % 4) as usize;
            let jack = has_candidate_jack(&candidates(d.dealt[p]));
            for b in d.legal_bids() {
                if b != 4 || jack {
                    out.push(Action::Bid(b), 0);
                }
            }
        }
        Phase::Establish => {
            let hand = d.dealt[d.high_bidder as usize];
            let c = candidates(hand);
            for k in 0..c.n {
                let r = establish_rank(c.ranks[k as usize]);
                out.push(Action::Establish(k), cards::card(r, c.suits[k as usize]));
            }
        }
        Phase::Playout => play_actions(d, &mut out),
        Phase::Finished => {}
    }
    out
}

/// Keeps, per code, the card chosen by the code's mapping rule while cards arrive in ascending
/// (rank, suit) order: the first card for "lowest" rules, a strictly higher rank for "highest".
struct Picker {
    cards: [Card; 30],
    mask: u32,
}

impl Picker {
    #[inline]
    fn lowest(&mut self, code: u8, c: Card) {
        if self.mask & (1 << code) == 0 {
            self.mask |= 1 << code;
            self.cards[code as usize] = c;
        }
    }
    #[inline]
    fn highest(&mut self, code: u8, c: Card) {
        if self.mask & (1 << code) == 0 || rank(c) > rank(self.cards[code as usize]) {
            self.mask |= 1 << code;
            self.cards[code as usize] = c;
        }
    }
}

fn play_actions(d: &Deal, out: &mut Actions) {
    let p = d.actor() as usize;
    let legal = d.playable();
    let trump = d.trump;
    let low_ref = lower(d.hand_low[p], d.trick_low);
    let mut pick = Picker { cards: [0; 30], mask: 0 };
    if d.trick_len == 0 {
        for c in cards::iter(legal) {
            let r = rank(c);
            if suit(c) == trump {
                if game_points(r) > 0 || r == low_ref {
                    pick.lowest(r - 1, c);
                } else {
                    pick.highest(LEAD_TX, c);
                }
            } else if r > TEN {
                pick.highest(LEAD_S, c);
            } else {
                pick.lowest(LEAD_W, c);
            }
        }
        emit(out, &pick, Action::Lead);
    } else {
        let led = suit(d.trick[0]);
        let h = d.trick[d.trick_winner as usize];
        let h_trump = suit(h) == trump;
        for c in cards::iter(legal) {
            let r = rank(c);
            let gp = game_points(r);
            if suit(c) == trump {
                if gp > 0 || r == low_ref {
                    pick.lowest(r - 2, c);
                } else if !h_trump || r > rank(h) {
                    pick.highest(FOLLOW_WX, c);
                } else {
                    pick.lowest(FOLLOW_LX, c);
                }
            } else if suit(c) == led {
                if suit(h) == led && r > rank(h) {
                    pick.highest(FOLLOW_W + gp_index(gp), c);
                } else {
                    pick.lowest(FOLLOW_L + gp_index(gp), c);
                }
            } else if r == TEN {
                pick.lowest(FOLLOW_N, c);
            } else if gp > 0 {
                pick.highest(FOLLOW_G, c);
            } else {
                pick.lowest(FOLLOW_D, c);
            }
        }
        emit(out, &pick, Action::Follow);
    }
}

fn emit(out: &mut Actions, pick: &Picker, make: fn(u8) -> Action) {
    out.mask = pick.mask;
    let mut m = pick.mask;
    while m != 0 {
        let code = m.trailing_zeros() as u8;
        m &= m - 1;
        out.push(make(code), pick.cards[code as usize]);
    }
}

/// The trick-play character of a played card in a playout key (§2.5): rank char (as a sketch
/// code) for game-point cards and for a trump of rank <= Five that is still the Low candidate
/// from `p`'s view; else `x`.
pub fn play_rank_code(d: &Deal, p: usize, c: Card) -> u8 {
    let r = rank(c);
    // Non-short-circuit `|` and `&`: the operands are cheap and the branches unpredictable.
    let low_candidate = (suit(c) == d.trump) & (r <= FIVE) & (r <= lower(d.trick_low, d.hand_low[p]));
    if (game_points(r) > 0) | low_candidate {
        r - 1
    } else {
        SKETCH_X
    }
}

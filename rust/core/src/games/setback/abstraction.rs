//! The baseline abstraction's actions (spec §2.2–§2.6): candidate trump suits, the 12-character
//! hand sketch, Jack-filtered bids, establish-trump choices, and the lead and follow action
//! abstractions with their fixed mappings back to one concrete card, in canonical order.

use super::cards::{
    self, game_points, lower, rank, suit, Card, CardSet, FIVE, GAME_POINT_CARDS, HONOURS, JACK, SPOT_CARDS, SUIT_MASK,
    TEN, TEN_CARDS,
};
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
    /// No actions.
    pub fn empty() -> Actions {
        Actions { n: 0, acts: [Action::Bid(0); 6], cards: [0; 6], mask: 0 }
    }
    fn push(&mut self, a: Action, c: Card) {
        self.acts[self.n] = a;
        self.cards[self.n] = c;
        self.n += 1;
    }
    /// Pushes a lead or follow action, adding its code to the key's action set.
    #[inline]
    fn push_play(&mut self, a: Action, c: Card) {
        let (Action::Lead(code) | Action::Follow(code)) = a else { unreachable!("a play action") };
        self.mask |= 1 << code;
        self.push(a, c);
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
    fill_actions(d, &mut out);
    out
}

/// [`actions`] written into `out` (its previous contents discarded): tree walks fill one value
/// in place instead of copying a returned one at every node.
pub fn fill_actions(d: &Deal, out: &mut Actions) {
    out.n = 0;
    out.mask = 0;
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
        Phase::Playout => play_actions(d, out),
        Phase::Finished => {}
    }
}

/// The highest card of a non-empty set by rank, the lowest suit among that rank: the card a
/// "highest" mapping picks when cards of several suits share the code.
#[inline]
fn top(set: CardSet) -> Card {
    let base = cards::highest(set) & !3;
    base + (set >> base).trailing_zeros() as u8
}

/// Pushes the codes of one side of the suit led, by game points: spot cards (`base`, picked by
/// `pick_spot`), then Jack, Queen, King, Ace (`base + 1..=4`), then the Ten (`base + 5`). The
/// cards lie in one suit, so every code but the spot cards' has one card.
#[inline]
fn push_by_points(out: &mut Actions, base: u8, set: CardSet, pick_spot: fn(CardSet) -> Card) {
    let spots = set & SPOT_CARDS;
    if spots != 0 {
        out.push_play(Action::Follow(base), pick_spot(spots));
    }
    for c in cards::iter(set & HONOURS) {
        out.push_play(Action::Follow(base + gp_index(game_points(rank(c)))), c);
    }
    if set & TEN_CARDS != 0 {
        out.push_play(Action::Follow(base + gp_index(game_points(TEN))), cards::lowest(set & TEN_CARDS));
    }
}

/// The lead and follow abstractions (§2.6) on whole card sets: each code's group of legal cards
/// is a mask, and its card the lowest or the highest of the group, pushed in code order.
fn play_actions(d: &Deal, out: &mut Actions) {
    let p = d.actor() as usize;
    let legal = d.playable();
    let trump_suit = SUIT_MASK[d.trump as usize];
    let low_ref = lower(d.hand_low[p], d.trick_low);
    let low_ref_card = if low_ref == 0 { 0 } else { cards::bit(cards::card(low_ref, d.trump)) };
    let trumps = legal & trump_suit;
    // Trumps named by their rank: game-point ranks and the player's Low reference.
    let named = trumps & (GAME_POINT_CARDS | low_ref_card);
    let unnamed = trumps ^ named;
    let others = legal & !trump_suit;
    if d.trick_len == 0 {
        if unnamed != 0 {
            out.push_play(Action::Lead(LEAD_TX), cards::highest(unnamed));
        }
        for c in cards::iter(named) {
            out.push_play(Action::Lead(rank(c) - 1), c);
        }
        if others & HONOURS != 0 {
            out.push_play(Action::Lead(LEAD_S), top(others & HONOURS));
        }
        if others & !HONOURS != 0 {
            out.push_play(Action::Lead(LEAD_W), cards::lowest(others & !HONOURS));
        }
        return;
    }
    let led = suit(d.trick[0]);
    let h = d.trick[d.trick_winner as usize];
    let beats_h = cards::above(rank(h));
    for c in cards::iter(named) {
        out.push_play(Action::Follow(rank(c) - 2), c);
    }
    // An unnamed trump wins unless a higher trump holds the trick.
    let (win, lose) = if suit(h) == d.trump { (unnamed & beats_h, unnamed & !beats_h) } else { (unnamed, 0) };
    if win != 0 {
        out.push_play(Action::Follow(FOLLOW_WX), cards::highest(win));
    }
    if lose != 0 {
        out.push_play(Action::Follow(FOLLOW_LX), cards::lowest(lose));
    }
    // Trumps are out of `others`, so a trump lead leaves no on-suit cards here.
    let on_suit = others & SUIT_MASK[led as usize];
    let (win, lose) = if suit(h) == led { (on_suit & beats_h, on_suit & !beats_h) } else { (0, on_suit) };
    push_by_points(out, FOLLOW_W, win, cards::highest);
    push_by_points(out, FOLLOW_L, lose, cards::lowest);
    let off = others & !on_suit;
    if off & TEN_CARDS != 0 {
        out.push_play(Action::Follow(FOLLOW_N), cards::lowest(off & TEN_CARDS));
    }
    if off & HONOURS != 0 {
        out.push_play(Action::Follow(FOLLOW_G), top(off & HONOURS));
    }
    if off & SPOT_CARDS != 0 {
        out.push_play(Action::Follow(FOLLOW_D), cards::lowest(off & SPOT_CARDS));
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// §2.6 read literally, one card at a time in ascending (rank, suit) order: each card's code,
    /// and whether the code keeps its lowest card or its highest (a strictly higher rank wins).
    fn play_actions_by_card(d: &Deal) -> Vec<(u8, Card)> {
        let p = d.actor() as usize;
        let trump = d.trump;
        let low_ref = lower(d.hand_low[p], d.trick_low);
        let mut chosen: [Option<Card>; 30] = [None; 30];
        let mut keep = |code: u8, c: Card, highest: bool| {
            let slot = &mut chosen[code as usize];
            if slot.is_none() || (highest && rank(c) > rank(slot.unwrap())) {
                *slot = Some(c);
            }
        };
        for c in cards::iter(d.playable()) {
            let (r, gp) = (rank(c), game_points(rank(c)));
            let named = suit(c) == trump && (gp > 0 || r == low_ref);
            if d.trick_len == 0 {
                match () {
                    _ if named => keep(r - 1, c, false),
                    _ if suit(c) == trump => keep(LEAD_TX, c, true),
                    _ if r > TEN => keep(LEAD_S, c, true),
                    _ => keep(LEAD_W, c, false),
                }
                continue;
            }
            let led = suit(d.trick[0]);
            let h = d.trick[d.trick_winner as usize];
            match () {
                _ if named => keep(r - 2, c, false),
                _ if suit(c) == trump && (suit(h) != trump || r > rank(h)) => keep(FOLLOW_WX, c, true),
                _ if suit(c) == trump => keep(FOLLOW_LX, c, false),
                _ if suit(c) == led && suit(h) == led && r > rank(h) => keep(FOLLOW_W + gp_index(gp), c, true),
                _ if suit(c) == led => keep(FOLLOW_L + gp_index(gp), c, false),
                _ if r == TEN => keep(FOLLOW_N, c, false),
                _ if gp > 0 => keep(FOLLOW_G, c, true),
                _ => keep(FOLLOW_D, c, false),
            }
        }
        (0..30u8).filter_map(|code| chosen[code as usize].map(|c| (code, c))).collect()
    }

    #[test]
    fn card_set_abstraction_matches_the_card_by_card_reading() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..3000 {
            let mut d = Deal::random(&mut rng);
            while d.phase() == Phase::Auction {
                let bids = d.legal_bids();
                d.bid(bids[rng.gen_range(0..bids.len())]).unwrap();
            }
            while !d.is_finished() {
                if d.phase() == Phase::Playout {
                    let a = actions(&d);
                    let got: Vec<(u8, Card)> = (0..a.n)
                        .map(|i| match a.acts[i] {
                            Action::Lead(code) | Action::Follow(code) => (code, a.cards[i]),
                            other => panic!("a play action, not {other:?}"),
                        })
                        .collect();
                    assert_eq!(got, play_actions_by_card(&d), "deal {d:?}");
                    assert_eq!(a.mask, got.iter().fold(0, |m, &(code, _)| m | 1 << code));
                    checked += 1;
                }
                let legal: Vec<Card> = cards::iter(d.legal_cards()).collect();
                d.play_card(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
        }
        assert!(checked > 20_000, "only {checked} decision points");
    }
}

//! The perfect-information solver: the value of a Setback position with every hand known.
//!
//! Two-team negamax with alpha-beta over the remaining card plays. A position's value is its deal
//! score difference after the setback rule ([`Deal::score`]) for the team of the player to act; a
//! line ends as soon as the score can no longer change (the early-end rule, spec §2.8). Values are
//! small integers (−8…8).
//!
//! Once trump is set the search runs on a compact position ([`Pos`]: the hands, the current trick,
//! the game points taken and who took the Low and the Jack) with the facts of the world fixed at
//! trump time kept aside ([`Facts`]); the tests check it against plain minimax over [`Deal`].
//!
//! Speed-ups, all exact:
//! * a transposition table at trick boundaries, keyed by the cards still held (which, in one
//!   world, also says who holds them), the leader, trump, the game points taken by team 0 and who
//!   took the Low and the Jack once taken; it stores lower and upper bounds and the best card;
//! * static bounds at trick boundaries: the points already decided and those still open bound the
//!   final score from both sides; the highest trumps in play count as taken by their team when one
//!   team holds them all;
//! * move ordering: the table's best card first, then high cards and trumps to lead, cheap winners
//!   and cheap discards to follow, and at the trump-setting lead the suits the bidding team is
//!   long and high in; the cards after the first are tried with a null window first (principal
//!   variation search);
//! * the last two tricks are searched by a lean routine (`two_tricks`) over the cards of the
//!   next trick, without copies of the position, the last trick scored directly;
//! * equivalent cards: two cards of one suit in one hand, both worth no game points, neither the
//!   lowest trump dealt, with no card of that suit ranked between them still in play (in a hand or
//!   in the current trick), lead to the same outcomes, so only the lower one is searched; the same
//!   holds for the trump-setting lead, where the card that would be Low is its suit's lowest card.

use super::super::cards::{self, bit, card, game_points, rank, suit, trick_order, Card, CardSet, JACK, SUIT_MASK};
use super::super::rules::{Deal, Phase};
use crate::cards::{NaturalSuits, TrickOrder, NO_SUIT};
use crate::error::{Error, Result};

/// The rules' "none" marker for player, team and trump fields.
const NONE: u8 = u8::MAX;
/// Above any value.
const INF: i32 = 100;
/// The least value of a deal: a team set back by 4 while the other takes 4 points.
const VALUE_MIN: i32 = -8;
const TT_BITS: u32 = 14;
/// Tricks left (the current one included) from which trick-boundary positions go in the table.
const TT_MIN_TRICKS: u32 = 2;

/// Game points of every card.
const CARD_POINTS: [u8; 52] = {
    let mut t = [0u8; 52];
    let mut c = 0;
    while c < 52 {
        t[c] = game_points(rank(c as Card));
        c += 1;
    }
    t
};

/// Cards worth game points (Ten to Ace).
const POINT_CARDS: CardSet = !((1u64 << card(10, 0)) - 1) & ((1u64 << 52) - 1);

/// What a world fixes once trump is set.
#[derive(Clone, Copy, Debug)]
struct Facts {
    trump: u8,
    /// Team dealt the highest trump (High).
    high_team: u8,
    /// The lowest trump dealt (Low) and the Jack of trump, as sets (the Jack's empty if not
    /// dealt).
    low_bit: CardSet,
    jack_bit: CardSet,
    /// The bidding team and its bid.
    bidder_team: u8,
    bid: i32,
    /// Game points of all dealt cards.
    points_dealt: u8,
    /// The trick rules.
    order: TrickOrder<NaturalSuits>,
    /// [`TrickOrder::beaten_by`] of every card (asked at every node).
    beaten_by: [CardSet; 64],
}

/// A position of the playout.
#[derive(Clone, Copy, Debug)]
struct Pos {
    hands: [CardSet; 4],
    /// The cards of the current trick.
    trick: CardSet,
    /// The card led to it and the card winning it so far.
    led: Card,
    winning: Card,
    len: u8,
    leader: u8,
    /// Position in the trick of the winning card.
    win: u8,
    /// Game points taken by each team.
    taken: [u8; 2],
    /// Teams that took the Low and the Jack (NONE until taken).
    low_team: u8,
    jack_team: u8,
}

impl Facts {
    fn of(d: &Deal) -> Facts {
        let order = trick_order(d.trump);
        Facts {
            trump: d.trump,
            high_team: d.high_team,
            low_bit: bit(card(d.low_dealt, d.trump)),
            jack_bit: if d.jack_dealt { bit(card(JACK, d.trump)) } else { 0 },
            bidder_team: d.high_bidder % 2,
            bid: d.high_bid as i32,
            points_dealt: d.game_pts_dealt,
            order,
            beaten_by: order.beaten_by_all(),
        }
    }

    /// Team 0's and team 1's points, the score left open (Low, Jack or Game still to decide), at a
    /// trick boundary. Besides what is taken, the top trumps in play are sure to their team when
    /// one team holds them all: any trick they fall in is won by that team's trump.
    #[inline]
    fn points(&self, p: &Pos) -> ([i32; 2], i32) {
        debug_assert_eq!(p.len, 0);
        let mut sure = [0i32; 2];
        let mut open = 0;
        // The run of the highest trumps in play held by one team, and that team.
        let trumps = p.live() & self.order.trumps();
        let (mut safe, mut owner) = (0, 0);
        if trumps != 0 {
            let top = bit(cards::highest(trumps));
            owner = ((p.hands[1] | p.hands[3]) & top != 0) as usize;
            let other = trumps & !(p.hands[owner] | p.hands[owner + 2]);
            safe = if other == 0 { trumps } else { trumps & !((bit(cards::highest(other)) << 1) - 1) };
        }
        sure[self.high_team as usize] += 1;
        if p.low_team != NONE {
            sure[p.low_team as usize] += 1;
        } else if safe & self.low_bit != 0 {
            sure[owner] += 1;
        } else {
            open += 1;
        }
        if self.jack_bit != 0 {
            if p.jack_team != NONE {
                sure[p.jack_team as usize] += 1;
            } else if safe & self.jack_bit != 0 {
                sure[owner] += 1;
            } else {
                open += 1;
            }
        }
        // Game: each team's least final game points, and the points that may go either way.
        let left = self.points_dealt as i32 - p.taken[0] as i32 - p.taken[1] as i32;
        let safe_points = points(safe) as i32;
        let mut least = [p.taken[0] as i32, p.taken[1] as i32];
        least[owner] += safe_points;
        let unsure = left - safe_points;
        if least[0] > least[1] + unsure {
            sure[0] += 1;
        } else if least[1] > least[0] + unsure {
            sure[1] += 1;
        } else if unsure > 0 {
            open += 1;
        }
        (sure, open)
    }

    /// The value for `team` of a finished deal: the game points each team took and the teams
    /// that took the Low and the Jack (NONE if not dealt).
    #[inline]
    fn final_value(&self, taken: [u8; 2], low_team: u8, jack_team: u8, team: u8) -> i32 {
        let mut pts = [0i32; 2];
        pts[self.high_team as usize] += 1;
        pts[low_team as usize] += 1;
        if jack_team != NONE {
            pts[jack_team as usize] += 1;
        }
        if taken[0] != taken[1] {
            pts[(taken[1] > taken[0]) as usize] += 1;
        }
        let b = self.bidder_team as usize;
        let v = self.set(pts[b]) - pts[1 - b];
        if team as usize == b {
            v
        } else {
            -v
        }
    }

    /// The setback rule for the bidding team's points.
    #[inline]
    fn set(&self, x: i32) -> i32 {
        if x >= self.bid {
            x
        } else {
            -self.bid
        }
    }

    /// Bounds on the final value for `team`; equal when the score is decided.
    #[inline]
    fn bounds(&self, p: &Pos, team: u8) -> (i32, i32) {
        let (sure, open) = self.points(p);
        let b = self.bidder_team as usize;
        // The bidding team's score rises with its points; the other's is its points.
        let hi = self.set(sure[b] + open) - sure[1 - b];
        let lo = self.set(sure[b]) - (sure[1 - b] + open);
        if team as usize == b {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// Whether `c` beats the winning card `w`.
    #[inline]
    fn beats(&self, c: Card, w: Card) -> bool {
        self.beaten_by[w as usize & 63] & bit(c) != 0
    }
}

impl Pos {
    fn of(d: &Deal) -> Pos {
        Pos {
            hands: d.hands,
            trick: d.trick[..d.trick_len as usize].iter().fold(0, |t, &c| t | bit(c)),
            led: d.trick[0],
            winning: d.trick[d.trick_winner as usize],
            len: d.trick_len,
            leader: d.leader,
            win: d.trick_winner,
            taken: d.game_pts,
            low_team: if d.low_taken == d.low_dealt { d.low_taken_team } else { NONE },
            jack_team: d.jack_taken,
        }
    }

    #[inline]
    fn actor(&self) -> u8 {
        (self.leader + self.len) & 3
    }

    #[inline]
    fn legal(&self, f: &Facts) -> CardSet {
        let hand = self.hands[self.actor() as usize];
        if self.len == 0 {
            return hand;
        }
        f.order.legal_after(hand, self.led)
    }

    /// The position after the player to act plays `c`.
    #[inline]
    fn play(&self, f: &Facts, c: Card) -> Pos {
        let mut p = *self;
        p.hands[self.actor() as usize] &= !bit(c);
        p.trick |= bit(c);
        if p.len == 0 {
            p.win = 0;
            p.led = c;
            p.winning = c;
        } else if f.beats(c, p.winning) {
            p.win = p.len;
            p.winning = c;
        }
        p.len += 1;
        if p.len == 4 {
            let winner = (p.leader + p.win) & 3;
            let team = winner & 1;
            if p.trick & f.low_bit != 0 {
                p.low_team = team;
            }
            if p.trick & f.jack_bit != 0 {
                p.jack_team = team;
            }
            p.taken[team as usize] += points(p.trick);
            p.leader = winner;
            p.len = 0;
            p.win = 0;
            p.trick = 0;
        }
        p
    }

    /// Cards still in play: in a hand or in the current trick.
    #[inline]
    fn live(&self) -> CardSet {
        self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] | self.trick
    }
}

/// `legal` with each run of equivalent cards merged into its lowest card: cards of `plain` of one
/// suit with no card of `live` ranked between them. A plain card goes when the next lower live
/// card of its suit is plain too.
fn merge(legal: CardSet, plain: CardSet, live: CardSet) -> CardSet {
    let mut out = legal;
    for c in cards::iter(plain) {
        let below = live & SUIT_MASK[suit(c) as usize] & (bit(c) - 1);
        if below != 0 && plain & bit(cards::highest(below)) != 0 {
            out &= !bit(c);
        }
    }
    out
}

/// The legal cards of `p`'s player to act with equivalent cards merged into the lowest of each run
/// (see the module documentation).
fn distinct(p: &Pos, f: &Facts) -> CardSet {
    let legal = p.legal(f);
    let plain = legal & !POINT_CARDS & !f.low_bit;
    if plain.count_ones() < 2 {
        return legal;
    }
    merge(legal, plain, p.live())
}

/// The trump-setting leads of `d` with equivalent cards merged: as in the playout, where the card
/// that would be Low is the lowest card of its suit dealt (nothing has been played yet).
fn distinct_leads(d: &Deal) -> CardSet {
    let legal = d.legal_cards();
    let dealt = d.hands.iter().fold(0, |a, h| a | h);
    let mut plain = legal & !POINT_CARDS;
    for mask in SUIT_MASK {
        if dealt & mask != 0 {
            plain &= !bit(cards::lowest(dealt & mask));
        }
    }
    merge(legal, plain, dealt)
}

/// The distinct trump-setting leads of `d`, the likeliest best first: suits where the cards
/// `held` are more and include the top card dealt, then higher cards. Searching the best lead
/// first lets the others fail low cheaply.
fn lead_order(d: &Deal, held: CardSet) -> Vec<Card> {
    let dealt = d.hands.iter().fold(0, |a, h| a | h);
    let mut leads: Vec<(i32, Card)> = cards::iter(distinct_leads(d))
        .map(|c| {
            let m = SUIT_MASK[suit(c) as usize];
            let count = (held & m).count_ones() as i32;
            let top = (held & bit(cards::highest(dealt & m)) != 0) as i32;
            ((4 * count + 6 * top) * 64 + c as i32, c)
        })
        .collect();
    leads.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    leads.into_iter().map(|(_, c)| c).collect()
}

/// The legal cards of a deal's player to act with equivalent cards merged.
pub fn distinct_moves(d: &Deal) -> CardSet {
    match d.phase() {
        Phase::Establish => distinct_leads(d),
        Phase::Playout => distinct(&Pos::of(d), &Facts::of(d)),
        _ => 0,
    }
}

/// The first card worth game points (the Ten of clubs); the point cards are the twenty from it.
const FIRST_POINT_CARD: u32 = card(10, 0) as u32;

/// Game points of every subset of ten consecutive point cards: the first ten (`[0]`) and the
/// last ten (`[1]`).
const TEN_CARD_POINTS: [[u8; 1024]; 2] = {
    let mut t = [[0u8; 1024]; 2];
    let mut half = 0;
    while half < 2 {
        let mut s = 0;
        while s < 1024 {
            let mut i = 0;
            while i < 10 {
                if s & (1 << i) != 0 {
                    t[half][s] += CARD_POINTS[FIRST_POINT_CARD as usize + 10 * half + i];
                }
                i += 1;
            }
            s += 1;
        }
        half += 1;
    }
    t
};

/// Game points of a set of cards: two table lookups instead of a loop over the cards.
#[inline]
fn points(set: CardSet) -> u8 {
    let s = set >> FIRST_POINT_CARD;
    TEN_CARD_POINTS[0][(s & 0x3ff) as usize] + TEN_CARD_POINTS[1][((s >> 10) & 0x3ff) as usize]
}

/// The value for the team to lead of a trick-boundary position with two tricks left (every hand
/// holds two cards), fail-soft within (alpha, beta): the plays of the next trick searched
/// without table, ordering or copies of the position, the last trick played out directly.
fn two_tricks(f: &Facts, p: &Pos, alpha: i32, beta: i32) -> i32 {
    let live = p.live();
    let end = Endgame { f, p, live, live_points: points(live) };
    end.search(0, 0, NO_SUIT, NONE, 0, alpha, beta)
}

/// A two-trick position and what its lines share.
struct Endgame<'a> {
    f: &'a Facts,
    p: &'a Pos,
    live: CardSet,
    live_points: u8,
}

impl Endgame<'_> {
    /// The value after `k` plays of the next trick (the cards `trick`, led in the suit `led`,
    /// `winning` at position `win`) for the team of the `k`-th player.
    #[allow(clippy::too_many_arguments)]
    fn search(&self, trick: CardSet, k: u8, led: u8, winning: Card, win: u8, mut alpha: i32, beta: i32) -> i32 {
        if k == 4 {
            return self.last_trick_value(trick, win);
        }
        let (f, p) = (self.f, self.p);
        let hand = p.hands[((p.leader + k) & 3) as usize] & !trick;
        let legal = f.order.legal(hand, led);
        let mut best = -INF;
        for c in cards::iter(legal) {
            let v = if k == 0 {
                -self.search(bit(c), 1, f.order.suit(c), c, 0, -beta, -alpha)
            } else {
                let (w, at) = if f.beats(c, winning) { (c, k) } else { (winning, win) };
                -self.search(trick | bit(c), k + 1, led, w, at, -beta, -alpha)
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The final value for the team to lead after the next trick's cards `trick` (won at
    /// position `win`): the last trick plays itself.
    #[inline]
    fn last_trick_value(&self, trick: CardSet, win: u8) -> i32 {
        let (f, p) = (self.f, self.p);
        let first = (p.leader + win) & 3;
        let rest = self.live & !trick;
        let lead = cards::lowest(p.hands[first as usize] & rest);
        let top = bit(f.order.strongest(rest, f.order.suit(lead)).expect("the card led contends"));
        let second = (0..4).find(|&i| p.hands[i] & top != 0).expect("a hand holds the top card") as u8;
        let (t1, t2) = (first & 1, second & 1);
        let trick_points = points(trick);
        let mut taken = p.taken;
        taken[t1 as usize] += trick_points;
        taken[t2 as usize] += self.live_points - trick_points;
        let team_of = |b: CardSet, taken_by: u8| {
            if taken_by != NONE {
                taken_by
            } else if trick & b != 0 {
                t1
            } else {
                t2
            }
        };
        let jack = if f.jack_bit != 0 { team_of(f.jack_bit, p.jack_team) } else { NONE };
        f.final_value(taken, team_of(f.low_bit, p.low_team), jack, p.leader & 1)
    }
}

/// Most legal cards of a position (a hand holds six).
const MAX_MOVES: usize = 8;

/// Writes the distinct legal cards in search order into `list`, `first` (if legal) ahead of the
/// others, and returns how many there are.
#[inline]
fn ordered(p: &Pos, f: &Facts, first: Card, list: &mut [Card; MAX_MOVES]) -> usize {
    let moves = distinct(p, f);
    let mut keys = [0i32; MAX_MOVES];
    let mut n = 0;
    let me = p.actor();
    let partner_wins = p.len > 0 && (p.leader + p.win) & 1 == me & 1;
    for c in cards::iter(moves) {
        let is_trump = (suit(c) == f.trump) as i32;
        let r = rank(c) as i32;
        let gp = CARD_POINTS[c as usize] as i32;
        let key = if c == first {
            1000
        } else if p.len == 0 {
            r + 16 * is_trump
        } else if partner_wins {
            4 * gp - r - 40 * is_trump
        } else if f.beats(c, p.winning) {
            100 - r - 20 * is_trump
        } else {
            -4 * gp - r - 20 * is_trump
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
    n
}

#[derive(Clone, Copy, Default)]
#[repr(align(16))]
struct Entry {
    key: u64,
    /// Game points taken by team 0 (the part of the key that does not fit in `key`).
    g0: u8,
    lo: i8,
    hi: i8,
    best: u8,
    /// The bid and the bidding team the bounds are for (see [`Solver::values_across_bids`]).
    bid: u8,
    bidder_team: u8,
    /// Search generation that wrote the entry; older entries are empty.
    gen: u16,
}

/// A reusable solver (its transposition table is allocated once).
pub struct Solver {
    tt: Vec<Entry>,
    gen: u16,
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

/// The value to return, fail-soft, when bounds `lo..=hi` on a position's value settle it within
/// the window (alpha, beta).
#[inline]
fn cutoff(lo: i32, hi: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lo >= beta || lo == hi {
        Some(lo)
    } else if hi <= alpha {
        Some(hi)
    } else {
        None
    }
}

/// The score difference of a decided deal for `team`.
fn outcome(d: &Deal, team: u8) -> i32 {
    let s = d.score().expect("an exhausted deal has a score");
    s[team as usize] - s[1 - team as usize]
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
        self.next_generation();
        self.value_in_generation(deal, team)
    }

    /// The values for `team` of `deals`: positions of one world that differ only in the
    /// auction (a bidder's candidate bids), searched with one transposition table. For one
    /// bidding team a higher bid never raises that team's final score (the setback rule), so
    /// neither does it raise any position's value for that team: the bounds found for one bid
    /// bound the others' from one side, and later searches start with them.
    /// A deal thrown in (every player passed) is worth 0.
    pub fn values_across_bids(&mut self, deals: &[Deal], team: usize) -> Result<Vec<i32>> {
        let mut bid = deals.iter().filter(|d| d.high_bid().0 > 0);
        if let Some(first) = bid.next() {
            if bid.any(|d| d.dealt != first.dealt) {
                return Err(Error::invalid(
                    "positions",
                    "deals with different hands",
                    "one world's positions that differ only in the auction",
                ));
            }
        }
        self.next_generation();
        deals.iter().map(|d| if d.high_bid().0 == 0 { Ok(0) } else { self.value_in_generation(d, team) }).collect()
    }

    /// [`Self::value`] within the current search generation.
    fn value_in_generation(&mut self, deal: &Deal, team: usize) -> Result<i32> {
        let team = team as u8 % 2;
        if deal.is_exhausted() && deal.high_bid().0 > 0 {
            return Ok(outcome(deal, team));
        }
        Self::check(deal)?;
        let me = deal.actor() % 2;
        let mut best = -INF;
        if deal.phase() == Phase::Establish {
            // The bidding team's strongest suits first.
            let me = deal.actor() as usize;
            for c in lead_order(deal, deal.hands[me] | deal.hands[(me + 2) % 4]) {
                // Only the best lead's value is needed: a lead no better than `best` may fail low.
                best = best.max(self.lead_value(deal, c, best, INF));
            }
        } else {
            let (f, p) = (Facts::of(deal), Pos::of(deal));
            best = self.search(&f, &p, -INF, INF);
        }
        Ok(if me == team { best } else { -best })
    }

    /// The value of every legal card of the player to act, for that player's team, in ascending
    /// card order.
    pub fn card_values(&mut self, deal: &Deal) -> Result<Vec<(Card, i32)>> {
        Ok(self.card_bounds(deal, true)?.into_iter().map(|(c, v, _)| (c, v)).collect())
    }

    /// Bounds `(card, lo, hi)` on the value of every legal card of the player to act, for that
    /// player's team, in ascending card order. With `exact` every value (`lo == hi`); without,
    /// the values of the first card searched (the likeliest best) and of any card that beats the
    /// best before it, and for the others an upper bound no higher than the best (and
    /// [`VALUE_MIN`] below): a cheaper search that still shows which cards can be best.
    pub fn card_bounds(&mut self, deal: &Deal, exact: bool) -> Result<Vec<(Card, i32, i32)>> {
        Self::check(deal)?;
        self.next_generation();
        let playout = Self::playout(deal);
        let mut bounds = [(0i32, 0i32); 52];
        let mut best = -INF;
        // The likeliest best cards first (for play, the highest): the best sets the window.
        let distinct = distinct_moves(deal);
        let order = match playout {
            // By the leader's own hand, so that the worlds of a PIMC decision mostly search the
            // same card first: it gets an exact value, and the choice is often exact everywhere.
            None => lead_order(deal, deal.hands[deal.actor() as usize]),
            Some(_) => cards::iter(distinct).collect::<Vec<_>>().into_iter().rev().collect(),
        };
        for c in order {
            let alpha = if exact { -INF } else { best };
            let v = self.root_value(deal, &playout, c, alpha, INF);
            bounds[c as usize] = if v > alpha { (v, v) } else { (VALUE_MIN, v) };
            best = best.max(bounds[c as usize].0);
        }
        // A merged card is equivalent to the last card before it in its suit.
        let mut last = [(0i32, 0i32); 4];
        let mut out = Vec::with_capacity(6);
        for c in cards::iter(deal.legal_cards()) {
            if distinct & bit(c) != 0 {
                last[suit(c) as usize] = bounds[c as usize];
            }
            let (lo, hi) = last[suit(c) as usize];
            out.push((c, lo, hi));
        }
        Ok(out)
    }

    /// Given `hi`, an upper bound on the value of the legal card `c` of the player to act (for
    /// that player's team): the value if it is `hi`, otherwise an upper bound below `hi`. One
    /// null-window search, cheaper than the exact value.
    pub fn card_below(&mut self, deal: &Deal, c: Card, hi: i32) -> Result<i32> {
        Self::check(deal)?;
        if deal.legal_cards() & bit(c) == 0 {
            return Err(Error::invalid("card", cards::card_name(c), "a legal card of the player to act"));
        }
        self.next_generation();
        Ok(self.root_value(deal, &Self::playout(deal), c, hi - 1, hi).min(hi))
    }

    /// The facts and position of a deal in the playout (None at the trump-setting lead).
    fn playout(deal: &Deal) -> Option<(Facts, Pos)> {
        (deal.phase() == Phase::Playout).then(|| (Facts::of(deal), Pos::of(deal)))
    }

    /// The value of the legal card `c` of the player to act in `deal` (whose playout position is
    /// `playout`), for that player's team, searched in the window (alpha, beta).
    fn root_value(&mut self, deal: &Deal, playout: &Option<(Facts, Pos)>, c: Card, alpha: i32, beta: i32) -> i32 {
        match playout {
            Some((f, p)) => self.child_value(f, p, c, alpha, beta),
            None => self.lead_value(deal, c, alpha, beta),
        }
    }

    /// The value for the bidder's team of leading `c` to set trump in `d`.
    fn lead_value(&mut self, d: &Deal, c: Card, alpha: i32, beta: i32) -> i32 {
        let mut child = *d;
        child.apply_card(c);
        let (f, p) = (Facts::of(&child), Pos::of(&child));
        -self.search(&f, &p, -beta, -alpha)
    }

    /// The value for the team to act in `p` of playing `c`, searched in the window (alpha, beta).
    #[inline]
    fn child_value(&mut self, f: &Facts, p: &Pos, c: Card, alpha: i32, beta: i32) -> i32 {
        let team = p.actor() & 1;
        let child = p.play(f, c);
        if child.actor() & 1 == team {
            self.search(f, &child, alpha, beta)
        } else {
            -self.search(f, &child, -beta, -alpha)
        }
    }

    /// Negamax value of `p` for the team to act, fail-soft within (alpha, beta).
    fn search(&mut self, f: &Facts, p: &Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let team = p.actor() & 1;
        let left = p.hands[p.leader as usize].count_ones();
        let boundary = p.len == 0;
        // The table pays only with a few tricks left to search.
        let stored = boundary && left >= TT_MIN_TRICKS;
        let mut slot = usize::MAX;
        let (mut key, mut first) = (0u64, NONE);
        let (mut lo, mut hi) = (-INF, INF);
        if boundary {
            // The static bounds first: they settle decided deals (the early end) and many others.
            (lo, hi) = f.bounds(p, team);
            if let Some(v) = cutoff(lo, hi, alpha, beta) {
                return v;
            }
            if left == 1 {
                // The last trick plays itself.
                let mut q = *p;
                for _ in 0..4 {
                    q = q.play(f, cards::lowest(q.hands[q.actor() as usize]));
                }
                return f.bounds(&q, team).0;
            }
            if stored {
                (key, slot) = self.key(f, p);
                let e = self.tt[slot];
                if e.gen == self.gen && e.key == key && e.g0 == p.taken[0] {
                    // Bounds found for another bid hold on one side (see `values_across_bids`):
                    // for the bidding team a lower bid's upper bound, a higher bid's lower bound.
                    let falls = team == f.bidder_team;
                    let (use_lo, use_hi) = match (e.bid as i32).cmp(&f.bid) {
                        _ if e.bidder_team != f.bidder_team => (false, false),
                        std::cmp::Ordering::Equal => (true, true),
                        std::cmp::Ordering::Less => (!falls, falls),
                        std::cmp::Ordering::Greater => (falls, !falls),
                    };
                    if use_lo {
                        lo = lo.max(e.lo as i32);
                    }
                    if use_hi {
                        hi = hi.min(e.hi as i32);
                    }
                    first = e.best;
                }
                if let Some(v) = cutoff(lo, hi, alpha, beta) {
                    return v;
                }
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let a0 = alpha;
        let (best, best_card) = if boundary && left == 2 {
            (two_tricks(f, p, alpha, beta), NONE)
        } else {
            self.moves(f, p, first, alpha, beta)
        };
        if stored {
            if best <= a0 {
                hi = hi.min(best);
            } else if best >= beta {
                lo = lo.max(best);
            } else {
                (lo, hi) = (best, best);
            }
            let g0 = p.taken[0];
            self.tt[slot] = Entry {
                key,
                g0,
                lo: lo as i8,
                hi: hi as i8,
                best: best_card,
                bid: f.bid as u8,
                bidder_team: f.bidder_team,
                gen: self.gen,
            };
        }
        best
    }

    /// The best value for the team to act in `p` over its distinct legal cards and the card that
    /// gives it, fail-soft within (alpha, beta); `first` is searched first.
    fn moves(&mut self, f: &Facts, p: &Pos, first: Card, mut alpha: i32, beta: i32) -> (i32, Card) {
        let mut moves = [0; MAX_MOVES];
        let n = ordered(p, f, first, &mut moves);
        let mut best = -INF;
        let mut best_card = moves[0];
        for (i, &c) in moves[..n].iter().enumerate() {
            // The first card with the full window, the others first with a null window (cheap to
            // refute), searched again only when they beat the best so far.
            let mut v;
            if i == 0 {
                v = self.child_value(f, p, c, alpha, beta);
            } else {
                v = self.child_value(f, p, c, alpha, alpha + 1);
                if v > alpha && v < beta {
                    v = self.child_value(f, p, c, v, beta);
                }
            }
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
        (best, best_card)
    }

    /// The key and slot of a trick-boundary position.
    #[inline]
    fn key(&self, f: &Facts, p: &Pos) -> (u64, usize) {
        let held = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3];
        let key = held
            | (p.leader as u64) << 52
            | (f.trump as u64) << 54
            | ((p.low_team & 1) as u64) << 56
            | ((p.jack_team & 1) as u64) << 57;
        let h = (key ^ (p.taken[0] as u64) << 58).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (key, (h >> (64 - TT_BITS)) as usize)
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
    /// to three tricks (and a few of four), at and inside trick boundaries.
    #[test]
    fn solver_equals_exhaustive_search_on_endgames() {
        let mut rng = Pcg64::seed_from_u64(17);
        let mut solver = Solver::new();
        let mut checked = 0;
        while checked < 1520 {
            // Mostly one to three tricks left, and a few positions with four.
            let left = if checked < 1500 { rng.gen_range(1..=3) } else { 4 };
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

    /// A random deal after the bids `bids`, at the trump-setting lead.
    fn random_lead(rng: &mut Pcg64, bids: [u8; 4]) -> Deal {
        let mut d = Deal::random(rng);
        for b in bids {
            d.bid(b).unwrap();
        }
        d
    }

    /// Trump-setting leads: merged leads get the values of a search of every lead.
    #[test]
    fn merged_leads_equal_searched_leads() {
        let mut rng = Pcg64::seed_from_u64(29);
        let mut solver = Solver::new();
        let mut merged = 0;
        for _ in 0..25 {
            let d = random_lead(&mut rng, [2, 0, 0, 0]);
            let values = solver.card_values(&d).unwrap();
            merged += (distinct_moves(&d) != d.legal_cards()) as u32;
            let mut best = -INF;
            for (c, v) in values {
                solver.next_generation();
                assert_eq!(v, solver.lead_value(&d, c, -INF, INF), "lead {}", cards::card_name(c));
                best = best.max(v);
            }
            assert_eq!(solver.value(&d, 1).unwrap(), best);
        }
        assert!(merged > 0);
    }

    /// The cheaper bounds hold the exact values: some best card's value is exact, the others'
    /// upper bounds are no higher than the best; tightening a bound with `card_below` gives the
    /// value or a lower upper bound.
    #[test]
    fn card_bounds_hold_the_values() {
        let mut rng = Pcg64::seed_from_u64(37);
        let mut solver = Solver::new();
        let (mut open, mut tightened) = (0, 0);
        for k in 0..120 {
            // Trump-setting leads, and positions from the first trick to the fourth.
            let d = if k % 3 == 0 {
                random_lead(&mut rng, [0, 3, 0, 0])
            } else {
                let (left, extra) = (rng.gen_range(3..=5), rng.gen_range(0..4));
                let Some(d) = random_position(&mut rng, left, extra) else { continue };
                d
            };
            let values = solver.card_values(&d).unwrap();
            let bounds = solver.card_bounds(&d, false).unwrap();
            let best = values.iter().map(|v| v.1).max().unwrap();
            assert!(bounds.iter().zip(&values).any(|(b, v)| v.1 == best && (b.1, b.2) == (best, best)));
            for (&(c, v), &(b, lo, hi)) in values.iter().zip(&bounds) {
                assert_eq!(c, b);
                assert!(
                    lo <= v && v <= hi && hi <= best && lo >= VALUE_MIN,
                    "{} {v} in {lo}..={hi}",
                    cards::card_name(c)
                );
                if lo < hi {
                    open += 1;
                    // Tighten until exact, as the agent does.
                    let mut hi = hi;
                    while hi > v {
                        let below = solver.card_below(&d, c, hi).unwrap();
                        assert!(v <= below && below < hi, "{} {v}: {below} from {hi}", cards::card_name(c));
                        hi = below;
                        tightened += 1;
                    }
                    assert_eq!(solver.card_below(&d, c, hi).unwrap(), v);
                }
            }
        }
        assert!(open > 0 && tightened > 0, "{open} {tightened}");
    }

    /// One world's candidate bids searched with one table (bounds shared across bids) give
    /// the values of separate searches; thrown-in deals are worth 0; other worlds are refused.
    #[test]
    fn values_across_bids_equal_separate_searches() {
        let mut rng = Pcg64::seed_from_u64(31);
        let mut solver = Solver::new();
        let mut compared = 0;
        for _ in 0..30 {
            let mut d = Deal::random(&mut rng);
            // Random bids, then the candidates of the player to act with every later bidder passing.
            for _ in 0..rng.gen_range(0..4) {
                let legal = d.legal_bids();
                d.bid(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            let after: Vec<Deal> = d
                .legal_bids()
                .into_iter()
                .map(|b| {
                    let mut a = d;
                    a.bid(b).unwrap();
                    while a.phase() == Phase::Auction {
                        a.apply_bid(0);
                    }
                    a
                })
                .collect();
            for team in 0..2 {
                let shared = solver.values_across_bids(&after, team).unwrap();
                for (a, v) in after.iter().zip(shared) {
                    let want = if a.high_bid().0 == 0 { 0 } else { solver.value(a, team).unwrap() };
                    assert_eq!(v, want, "bid {:?} for team {team}", a.high_bid());
                    compared += 1;
                }
            }
        }
        assert!(compared > 60);
        let (mut a, mut b) = (Deal::seeded(1), Deal::seeded(2));
        for x in [&mut a, &mut b] {
            for bid in [2, 0, 0, 0] {
                x.bid(bid).unwrap();
            }
        }
        assert!(solver.values_across_bids(&[a, b], 0).is_err());
    }

    #[test]
    fn positions_before_the_playout_are_refused() {
        let d = Deal::seeded(1);
        assert!(Solver::new().card_values(&d).is_err());
        assert!(Solver::new().value(&d, 0).is_err());
    }
}

//! The perfect-information solver: the result of a Skat world (every hand known) under optimal
//! play by the declarer and the two defenders, from any position of the tricks.
//!
//! **What is solved.** In a world the declarer, the contract, the bid, the matadors and the
//! cards put away are fixed, so the result is a step function of what the declarer takes from
//! the tricks. Its *tally* adds up per trick:
//!
//! * suit and grand: `11 × card points + 1` for every trick the declarer wins (its card points
//!   and its tricks both read back exactly: a game has at most 10 tricks);
//! * null: 1 for every trick a defender wins.
//!
//! *Levels* cut the tally at thresholds (spec §10, "threshold tests at 61, 90, all tricks"):
//! suit and grand have six — Schwarz lost (no trick), Schneider lost (30 or fewer points, the
//! cards put away included), lost, won (61 or more), Schneider (90 or more), Schwarz (every
//! trick) — null has two: the declarer takes a trick, or none. The declarer's Seeger-Fabian
//! points never fall as the level rises (an overbid game is lost at the same value at every
//! level below the bid; a lost announced game is lost at its announced value) and the defenders'
//! never rise, so the minimax result is the result at the minimax level, and the minimax level
//! is the level of the minimax tally: the declarer maximizes it, the defenders minimize it. The
//! value of a world to a seat is its Seeger-Fabian points at that level. (A defender's own
//! points are 40 however the declarer loses; the search settles the game as if the defenders
//! also minimized the declarer's loss level, which changes nothing for them.)
//!
//! **Search.** Alpha-beta over the tally still to take, asked only with null windows at the
//! thresholds (MTD-style): whether the declarer reaches a level. [`Solver::value`] asks whether
//! the declarer wins first, then Schneider or Schwarz either way as needed (two or three
//! searches). Speed-ups, all exact:
//!
//! * a transposition table at trick boundaries keyed by the three hands and the leader (what
//!   the tally still to take depends on, for one contract and declarer) in canonical form (the
//!   cards left of each run of interchangeable cards moved to the run's top, see [`Run`]), in
//!   buckets of two on one cache line (one keeping the earlier trick, one always replaced); it
//!   stores bounds on the tally still to take (so they serve every threshold, every world of a
//!   decision and every order of the tricks before) and the best card;
//! * static bounds at trick boundaries: the trumps a side holds above all of the other side's
//!   win their tricks, and so do the leader's plain cards above every other card of their suit
//!   for as many rounds as each other hand holding a trump must follow the suit (a declarer on
//!   lead who can draw the defenders' trumps with sure ones: all his trumps, and his plain
//!   masters with no ruff to fear); so the other side takes at most the tricks left less
//!   those, and in them at most the points of that many most valuable cards of each hand (the
//!   sure cards left out);
//! * equivalent cards merged: two cards of one hand, of one effective suit, worth the same card
//!   points (any two in null, where points do not count), with no card in play ranked between
//!   them, lead to the same outcomes, so only the lower is searched;
//! * move ordering: the table's card first; to lead, the top card of a suit first (the
//!   defenders' plain cards before their trumps), a plain card an opponent can ruff last and
//!   one the partner can ruff early; to follow, points onto a trick the partner holds for good
//!   (no opponent left who can beat it), else the cheapest card that wins, else the cheapest
//!   discard; in null, the declarer's highest card that stays below the trick, the defenders'
//!   low cards; ties by a history heuristic;
//! * the last trick plays itself.

use super::super::actions::Phase;
use super::super::cards::{bit, points, rank_cards, set_points, ACE, DECK, JACK, KING, QUEEN, RANK_POINTS, TEN};
use super::super::contract::{Contract, GameType, Order};
use super::super::game::Game;
use super::super::scoring::GameResult;
use crate::cards::{iter, lowest, Card, CardSet, Suits, TRUMP_SUIT};
use crate::error::{Error, Result};
use crate::search::PerfectInfoSolver;
use std::cell::RefCell;

/// No card.
const NONE: u8 = u8::MAX;
/// Above any tally.
const INF: i32 = 1 << 14;
/// Most levels (suit and grand).
const MAX_LEVELS: usize = 6;
/// Entries of the transposition table: 2^TT_BITS (24 bytes each), in buckets of two (one
/// cache line).
const TT_BITS: u32 = 20;
/// Most legal cards of a position (a hand holds ten).
const MAX_MOVES: usize = 10;

/// What a world fixes for the whole play.
#[derive(Clone, Debug)]
struct Facts {
    order: Order,
    /// [`crate::cards::TrickOrder::beaten_by`] of every card.
    beaten_by: [CardSet; 32],
    /// The cards of each card's effective suit ranked below it.
    weaker: [CardSet; 32],
    /// Card points that make cards differ for the search (all 0 in null).
    worth: [u8; 32],
    declarer: u8,
    null: bool,
    levels: usize,
    /// Runs of interchangeable cards (see [`Run`]) of two or more cards.
    runs: Vec<Run>,
    /// The index in `runs` of each card's run (NONE for none).
    run_of: [u8; 32],
    /// The least whole-game tally of each level from the second.
    thresholds: [i32; MAX_LEVELS - 1],
    /// Each seat's Seeger-Fabian points at each level.
    pay: [[i64; 3]; MAX_LEVELS],
}

impl Facts {
    /// The facts of a world in the tricks.
    fn of(world: &Game, contract: Contract, declarer: u8) -> Facts {
        let order = contract.order();
        let null = contract.game == GameType::Null;
        let suits = order.suits();
        let beaten_by = std::array::from_fn(|c| order.beaten_by(c as Card));
        let weaker = std::array::from_fn(|c| {
            let c = c as Card;
            suits.mates(c) & !suits.stronger(c) & !bit(c)
        });
        let worth = std::array::from_fn(|c| if null { 0 } else { points(c as Card) });
        let cards12 = world.dealt(declarer) | world.skat();
        let result = |pts: u32, tricks: u32| -> [i64; 3] {
            GameResult::played(declarer, contract, world.bid(), cards12, pts, tricks).tp.map(i64::from)
        };
        let mut thresholds = [0; MAX_LEVELS - 1];
        let mut pay = [[0; 3]; MAX_LEVELS];
        let levels = if null {
            thresholds[0] = 10;
            pay[0] = result(0, 1);
            pay[1] = result(0, 0);
            2
        } else {
            let s = set_points(world.put_away()) as i32;
            thresholds = [1, 11 * (31 - s), 11 * (61 - s), 11 * (90 - s), 11 * (120 - s) + 10];
            let s = s as u32;
            for (l, (pts, tricks)) in [(s, 0), (30, 1), (60, 1), (61, 1), (90, 9), (120, 10)].into_iter().enumerate() {
                pay[l] = result(pts, tricks);
            }
            MAX_LEVELS
        };
        let runs = Run::all(order, &worth);
        let mut run_of = [NONE; 32];
        for (i, r) in runs.iter().enumerate() {
            for c in iter(r.mask) {
                run_of[c as usize] = i as u8;
            }
        }
        Facts { order, beaten_by, weaker, worth, declarer, null, levels, runs, run_of, thresholds, pay }
    }

    /// The level of a whole-game tally.
    #[inline]
    fn level(&self, tally: i32) -> usize {
        self.thresholds[..self.levels - 1].iter().filter(|&&t| tally >= t).count()
    }

    /// The lowest level at which the declarer wins (61 points, 90 with Schneider announced,
    /// every trick with Schwarz announced, none when overbid beyond reach): `levels` for none.
    #[inline]
    fn win_level(&self) -> usize {
        (0..self.levels).find(|&l| self.pay[l][self.declarer as usize] > 0).unwrap_or(self.levels)
    }

    /// The tally a trick of `points` card points won by `winner` adds.
    #[inline]
    fn gain(&self, points: u32, winner: u8) -> i32 {
        match (self.null, winner == self.declarer) {
            (true, false) => 1,
            (false, true) => 11 * points as i32 + 1,
            _ => 0,
        }
    }

    /// Bounds on the tally still to take at a trick boundary. Null: none to all tricks left.
    /// Suit and grand: the trumps a side holds above every trump of the other side win their
    /// tricks (the declarer's all win; a defender's, however many the other defender has, win
    /// at least as many tricks as one of them holds), and so do the leader's plain masters
    /// ([`Self::plain_masters`]: he cashes them first, keeping the lead), so each side takes
    /// at most the tricks left less the other side's sure tricks, and in them at most the
    /// points of that many most valuable cards of each hand, the other side's sure cards left
    /// out.
    #[inline]
    fn bounds(&self, p: &Pos) -> (i32, i32) {
        let left = 10 - p.done as u32;
        if self.null {
            return (0, left as i32);
        }
        let d = self.declarer as usize;
        let trumps = self.order.trumps();
        let mine = p.hands[d] & trumps;
        let theirs = [p.hands[(d + 1) % 3] & trumps, p.hands[(d + 2) % 3] & trumps];
        // The cards of `set` above every card of `other` (both trumps).
        let above = |set: CardSet, other: CardSet| match self.order.strongest(other, self.order.trump_suit()) {
            Some(top) => set & self.beaten_by[top as usize & 31],
            None => set,
        };
        let mut mine_sure = above(mine, theirs[0] | theirs[1]);
        let mut theirs_sure = [above(theirs[0], mine), above(theirs[1], mine)];
        // The leader's plain cards above every other card of their suit win too, leading them
        // one after the other and keeping the lead, for as many rounds of a suit as every other
        // hand holding a trump must follow it. A declarer on lead with at least as many sure
        // trumps as either defender holds trumps draws them first: then all his trumps win, and
        // his plain masters with no ruff to fear.
        let leader = p.leader as usize;
        let mut others = [p.hands[(leader + 1) % 3], p.hands[(leader + 2) % 3]];
        if leader == d && mine_sure.count_ones() >= theirs[0].count_ones().max(theirs[1].count_ones()) {
            mine_sure = mine;
            others = others.map(|h| h & !trumps);
        }
        let masters = self.plain_masters(p.hands[leader], others);
        if leader == d {
            mine_sure |= masters;
        } else {
            theirs_sure[usize::from(leader != (d + 1) % 3)] |= masters;
        }
        let sure_mine = mine_sure.count_ones();
        let sure_theirs = theirs_sure[0].count_ones().max(theirs_sure[1].count_ones());
        // Each trick takes one card of each hand; a sure trump never falls in a trick the other
        // side wins.
        let (d1, d2) = (p.hands[(d + 1) % 3], p.hands[(d + 2) % 3]);
        let most = |tricks: u32, hands: [CardSet; 3]| hands.iter().map(|&h| top_points(h, tricks)).sum::<u32>();
        let live = p.live_points as u32;
        let hi = most(left - sure_theirs, [p.hands[d], d1 & !theirs_sure[0], d2 & !theirs_sure[1]]).min(live);
        let lo = live - most(left - sure_mine, [p.hands[d] & !mine_sure, d1, d2]).min(live);
        ((11 * lo + sure_mine) as i32, (11 * hi + left - sure_theirs) as i32)
    }

    /// The plain cards of `hand` that win their tricks when its player leads them: in each
    /// suit, of the cards above every card of the suit in the `others`' hands, as many (from the
    /// top) as the fewest cards of the suit an other hand holding a trump has (it follows them
    /// and cannot trump them).
    #[inline]
    fn plain_masters(&self, hand: CardSet, others: [CardSet; 2]) -> CardSet {
        let trumps = self.order.trumps();
        let all = others[0] | others[1];
        let mut out = 0;
        for c in iter(hand & !trumps) {
            let c = c as usize & 31;
            if all & self.order.suit_cards(self.order.suit(c as Card)) & !self.weaker[c] == 0 {
                out |= bit(c as Card);
            }
        }
        let ruffers = others.map(|h| if h & trumps != 0 { h } else { 0 });
        if out == 0 || ruffers == [0, 0] {
            return out;
        }
        for s in 0..4 {
            let cards = self.order.suit_cards(s);
            let rounds = ruffers.iter().filter(|&&h| h != 0).map(|&h| (h & cards).count_ones()).min().unwrap_or(10);
            for _ in rounds..(out & cards).count_ones() {
                // Keep the strongest `rounds`: drop the weakest.
                let weakest = iter(out & cards).find(|&c| out & self.weaker[c as usize & 31] == 0).unwrap_or(NONE);
                out &= !bit(weakest);
            }
        }
        out
    }
}

/// The card points of the `k` most valuable cards of `hand`.
#[inline]
fn top_points(hand: CardSet, k: u32) -> u32 {
    let mut left = k;
    let mut sum = 0;
    for r in [ACE, TEN, KING, QUEEN, JACK] {
        let n = (hand & rank_cards(r)).count_ones().min(left);
        sum += n * RANK_POINTS[r as usize] as u32;
        left -= n;
        if left == 0 {
            break;
        }
    }
    sum
}

/// A run of interchangeable cards: cards of one effective suit, consecutive in its order, of
/// equal worth (card points; any in null). Whatever cards of a run are still in play, only
/// their order and holders matter, not which of the run's cards they are: a position's
/// *canonical* form moves them to the run's top, keeping their order, and so keys the
/// transposition table for all such positions at once.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    mask: CardSet,
    /// The cards from the strongest down (the first `len`).
    cards: [Card; 11],
    len: usize,
    /// `top[k]`: the strongest `k` cards.
    top: [CardSet; 12],
}

impl Run {
    /// The runs of two or more cards of `order` under `worth`.
    fn all(order: Order, worth: &[u8; 32]) -> Vec<Run> {
        let mut out = Vec::new();
        let mut close = |run: &mut Vec<Card>| {
            if run.len() >= 2 {
                let mut r = Run::default();
                for (i, &c) in run.iter().enumerate() {
                    r.mask |= bit(c);
                    r.cards[i] = c;
                    r.top[i + 1] = r.mask;
                }
                r.len = run.len();
                out.push(r);
            }
            run.clear();
        };
        for s in [0, 1, 2, 3, TRUMP_SUIT] {
            let mut cards: Vec<Card> = iter(order.suit_cards(s) & DECK).collect();
            cards.sort_by_key(|&c| std::cmp::Reverse(order.power(c, s)));
            let mut run: Vec<Card> = Vec::new();
            for c in cards {
                if run.last().is_some_and(|&l| worth[l as usize] != worth[c as usize]) {
                    close(&mut run);
                }
                run.push(c);
            }
            close(&mut run);
        }
        out
    }
}

/// `hands` in canonical form (see [`Run`]).
#[inline]
fn canonical(f: &Facts, hands: [CardSet; 3]) -> [CardSet; 3] {
    let held = hands[0] | hands[1] | hands[2];
    let mut h = hands;
    for r in &f.runs {
        let live = held & r.mask;
        let k = live.count_ones() as usize;
        if live == r.top[k] {
            continue;
        }
        for x in h.iter_mut() {
            *x &= !r.mask;
        }
        let mut j = 0;
        for &c in &r.cards[..r.len] {
            if live & bit(c) != 0 {
                let owner = (0..3).find(|&s| hands[s] & bit(c) != 0).unwrap_or(0);
                h[owner] |= bit(r.cards[j]);
                j += 1;
            }
        }
    }
    h
}

/// The canonical form of card `c` among the cards `held` (see [`Run`]).
#[inline]
fn canonical_card(f: &Facts, held: CardSet, c: Card) -> Card {
    let i = f.run_of[c as usize & 31];
    if i == NONE {
        return c;
    }
    let r = &f.runs[i as usize];
    r.cards[(held & r.mask & f.order.suits().stronger(c)).count_ones() as usize % 11]
}

/// The card among `held` whose canonical form is `c` (NONE for none).
#[inline]
fn actual_card(f: &Facts, held: CardSet, c: Card) -> Card {
    if c == NONE || f.run_of[c as usize & 31] == NONE {
        return c;
    }
    let r = &f.runs[f.run_of[c as usize & 31] as usize];
    let j = (r.mask & f.order.suits().stronger(c)).count_ones() as usize;
    iter(held & r.mask)
        .find(|&x| (held & r.mask & f.order.suits().stronger(x)).count_ones() as usize == j)
        .unwrap_or(NONE)
}

/// A position of the tricks.
#[derive(Clone, Copy, Debug)]
struct Pos {
    hands: [CardSet; 3],
    /// The cards of the current trick.
    trick: CardSet,
    /// The card led to it and the card winning it so far.
    led: Card,
    winning: Card,
    len: u8,
    leader: u8,
    /// Position in the trick of the winning card.
    win: u8,
    /// Completed tricks.
    done: u8,
    /// Card points of the current trick, and of every card in play.
    trick_points: u8,
    live_points: u8,
}

impl Pos {
    /// The position of a game in the tricks.
    fn of(world: &Game, f: &Facts) -> Pos {
        let done = world.tricks_done();
        let trick = world.current_trick();
        let win = f.order.winner(trick).unwrap_or(0);
        Pos {
            hands: std::array::from_fn(|p| world.hand(p as u8)),
            trick: trick.iter().fold(0, |m, &c| m | bit(c)),
            led: trick.first().copied().unwrap_or(0),
            winning: trick.get(win).copied().unwrap_or(0),
            len: trick.len() as u8,
            leader: world.trick_leader(done as usize),
            win: win as u8,
            done,
            trick_points: trick.iter().map(|&c| points(c)).sum(),
            live_points: 0,
        }
        .with_live_points()
    }

    /// The position with its live points counted.
    fn with_live_points(mut self) -> Pos {
        self.live_points = set_points(self.live()) as u8;
        self
    }

    #[inline]
    fn actor(&self) -> u8 {
        (self.leader + self.len) % 3
    }

    /// Cards still in play: in a hand or in the current trick.
    #[inline]
    fn live(&self) -> CardSet {
        self.hands[0] | self.hands[1] | self.hands[2] | self.trick
    }

    /// The legal cards of the seat to act.
    #[inline]
    fn legal(&self, f: &Facts) -> CardSet {
        let hand = self.hands[self.actor() as usize];
        if self.len == 0 {
            hand
        } else {
            f.order.legal_after(hand, self.led)
        }
    }

    /// The position after the seat to act plays `c`, and the tally the trick adds if `c`
    /// completed it (else 0).
    #[inline]
    fn play(&self, f: &Facts, c: Card) -> (Pos, i32) {
        // Built as one value from locals (not by patching a copy field by field, which stalls
        // on reading back the bytes just written).
        let mut hands = self.hands;
        hands[self.actor() as usize] &= !bit(c);
        let trick_points = self.trick_points + points(c);
        let (led, winning, win) = if self.len == 0 {
            (c, c, 0)
        } else if f.beaten_by[self.winning as usize & 31] & bit(c) != 0 {
            (self.led, c, self.len)
        } else {
            (self.led, self.winning, self.win)
        };
        if self.len < 2 {
            let p =
                Pos { hands, trick: self.trick | bit(c), led, winning, win, len: self.len + 1, trick_points, ..*self };
            return (p, 0);
        }
        let winner = (self.leader + win) % 3;
        let p = Pos {
            hands,
            trick: 0,
            led,
            winning,
            len: 0,
            leader: winner,
            win: 0,
            done: self.done + 1,
            trick_points: 0,
            live_points: self.live_points - trick_points,
        };
        (p, f.gain(trick_points as u32, winner))
    }

    /// The tally the last trick adds, every hand holding one card, at its start.
    #[inline]
    fn last_trick(&self, f: &Facts) -> i32 {
        let live = self.live();
        let led = f.order.suit(lowest(self.hands[self.leader as usize]));
        let top = f.order.strongest(live, led).unwrap_or(0);
        let winner = (0..3).find(|&p| self.hands[p] & bit(top) != 0).unwrap_or(0) as u8;
        f.gain(self.live_points as u32, winner)
    }
}

/// The legal cards of the seat to act in `p` with equivalent cards merged into the lowest of
/// each run (see the module documentation).
#[inline]
fn distinct(f: &Facts, p: &Pos) -> CardSet {
    let legal = p.legal(f);
    if legal.count_ones() < 2 {
        return legal;
    }
    let live = p.live();
    let mut out = legal;
    for c in iter(legal) {
        let below = live & f.weaker[c as usize & 31];
        if below == 0 {
            continue;
        }
        // The next lower card in play of c's suit.
        let b = f.order.strongest(below, f.order.suit(c)).unwrap_or(NONE);
        if b != NONE && legal & bit(b) != 0 && f.worth[b as usize & 31] == f.worth[c as usize & 31] {
            out &= !bit(c);
        }
    }
    out
}

/// Writes the distinct legal cards of `p` in search order into `list`, `first` (if among them)
/// ahead of the others, and returns how many there are.
#[inline]
fn ordered(f: &Facts, p: &Pos, first: u8, history: &[u32; 32], list: &mut [Card; MAX_MOVES]) -> usize {
    let moves = distinct(f, p);
    let mut keys = [0i64; MAX_MOVES];
    let mut n = 0;
    let me = p.actor();
    let declarer = me == f.declarer;
    let live = p.live();
    let led = f.order.suit(p.led);
    let trumps = f.order.trumps();
    // The partner holds the trick for good: after the mover, only an opponent can take it.
    let last_beats = |hand: CardSet| f.order.legal_after(hand, p.led) & f.beaten_by[p.winning as usize & 31] != 0;
    let partner_wins = p.len > 0
        && (((p.leader + p.win) % 3 == f.declarer) == declarer)
        && (p.len == 2 || !last_beats(p.hands[((p.leader + 2) % 3) as usize]));
    for c in iter(moves) {
        let worth = f.worth[c as usize & 31] as i32;
        let is_trump = (trumps & bit(c) != 0) as i32;
        let power = f.order.power(c, if p.len == 0 { f.order.suit(c) } else { led }) as i32;
        let beats = p.len > 0 && f.beaten_by[p.winning as usize & 31] & bit(c) != 0;
        let key = if c == first {
            1000
        } else if f.null {
            match (declarer, p.len == 0, beats) {
                // The declarer: lead low; follow with the highest card that stays below.
                (true, true, _) => -power,
                (true, false, false) => 300 + power,
                (true, false, true) => -power,
                // The defenders: low cards, and stay below the declarer's card.
                (false, _, false) => 100 - power,
                (false, _, true) => -power,
            }
        } else if p.len == 0 {
            // The top card of its suit in play first, trumps before plain cards; never first a
            // plain card an opponent can ruff, rather one the partner can.
            let top = (live & f.order.suits().stronger(c) == 0) as i32;
            let mut ruff = 0;
            if is_trump == 0 {
                let suit_cards = f.order.suit_cards(f.order.suit(c));
                for s in (0..3u8).filter(|&s| s != me) {
                    let hand = p.hands[s as usize];
                    if hand & suit_cards == 0 && hand & trumps != 0 {
                        ruff += if (s == f.declarer) == declarer { 50 } else { -250 };
                    }
                }
            }
            if declarer {
                200 * top + power + ruff
            } else {
                200 * top + ruff + if is_trump == 1 { -power } else { power }
            }
        } else if partner_wins {
            // Points onto the partner's trick, sparing trumps.
            4 * worth - 40 * is_trump - power
        } else if beats {
            // The cheapest winner.
            300 + worth - power
        } else {
            -4 * worth - power
        };
        let key = ((key as i64) << 24) + history[c as usize & 31].min((1 << 24) - 1) as i64;
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

/// A trick-boundary position's key: the three hands and the leader.
type Key = [u64; 2];

#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    /// Bounds on the tally still to take from the position.
    lo: i16,
    hi: i16,
    best: u8,
    /// Tricks done in the position.
    done: u8,
    /// Generation that wrote the entry; older entries are empty.
    gen: u16,
}

/// Two entries of the transposition table on one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; 2]);

/// A reusable solver: its transposition table is allocated once and kept. Entries depend only
/// on the position, the contract and the declarer, so they serve every world of a decision; a
/// new contract or declarer starts a new generation.
pub struct Solver {
    tt: Vec<Bucket>,
    gen: u16,
    /// The contract and declarer of the current generation.
    current: Option<(Contract, u8)>,
    /// History heuristic: per seat and card, how much search its cutoffs saved (move
    /// ordering only; reset with the table).
    history: [[u32; 32]; 3],
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

thread_local! {
    /// One solver (and transposition table) per thread, reused across decisions.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

impl PerfectInfoSolver for Solver {
    fn with_thread_solver<T>(f: impl FnOnce(&mut Self) -> T) -> T {
        SOLVER.with(|s| f(&mut s.borrow_mut()))
    }
}

/// A world ready to search: its facts, its position and the tally taken so far.
struct Root {
    f: Facts,
    p: Pos,
    taken: i32,
}

impl Solver {
    /// A solver with an empty transposition table.
    pub fn new() -> Solver {
        Solver {
            tt: vec![Bucket::default(); 1 << (TT_BITS - 1)],
            gen: 0,
            current: None,
            history: [[0; 32]; 3],
            nodes: 0,
        }
    }

    /// Positions searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The root of `world` (None for a finished game); a world outside the tricks is refused.
    fn root(&mut self, world: &Game) -> Result<Option<Root>> {
        match world.phase() {
            Phase::Tricks => {}
            Phase::Finished => return Ok(None),
            p => {
                return Err(Error::invalid(
                    "position",
                    p.name(),
                    "a game in the tricks (the perfect-information solver plays cards only)",
                ))
            }
        }
        let (Some(contract), Some(declarer)) = (world.contract(), world.declarer()) else {
            return Err(Error::invalid("position", "no contract", "a game in the tricks"));
        };
        if self.current != Some((contract, declarer)) {
            self.gen = self.gen.wrapping_add(1);
            if self.gen == 0 {
                self.tt.fill(Bucket::default());
                self.gen = 1;
            }
            self.current = Some((contract, declarer));
            self.history = [[0; 32]; 3];
        }
        let f = Facts::of(world, contract, declarer);
        let p = Pos::of(world, &f);
        let d = declarer as usize;
        let (won, pts) = (world.tricks_won(), world.trick_points());
        let taken =
            if f.null { (world.tricks_done() as u32 - won[d]) as i32 } else { 11 * pts[d] as i32 + won[d] as i32 };
        Ok(Some(Root { f, p, taken }))
    }

    /// The Seeger-Fabian points of `seat` in `world` (a game in the tricks with every hand
    /// known, or a finished one) when everyone plays perfectly (see the module documentation).
    pub fn value(&mut self, world: &Game, seat: u8) -> Result<i64> {
        let Some(r) = self.root(world)? else { return Ok(world.returns()[seat as usize % 3] as i64) };
        let s = seat as usize % 3;
        let level = self.level(&r.f, &r.p, r.taken, 0, r.f.levels - 1, s);
        Ok(r.f.pay[level][s])
    }

    /// Whether the declarer of `world` (in the tricks) wins under perfect play: one null-window
    /// search.
    pub fn declarer_wins(&mut self, world: &Game) -> Result<bool> {
        let Some(r) = self.root(world)? else { return Ok(world.result().is_some_and(|x| x.won())) };
        let w = r.f.win_level();
        if w == r.f.levels {
            return Ok(false);
        }
        let (lo, _) = self.test(&r.f, &r.p, r.taken, w, (0, r.f.levels - 1));
        Ok(lo >= w)
    }

    /// The Seeger-Fabian points of the seat to act for each of its legal cards (the card
    /// played, then perfect play), in ascending card order.
    pub fn card_values(&mut self, world: &Game) -> Result<Vec<(Card, i64)>> {
        self.card_levels(world, true).map(|v| v.into_iter().map(|(c, lo, _)| (c, lo)).collect())
    }

    /// Bounds `(card, lo, hi)` on [`Self::card_values`], in ascending card order: exact for the
    /// card searched first (the likeliest best) and for every card found to beat the best
    /// before it; for the others an upper bound no higher than the best card's value. The
    /// bounds [`crate::search::Pimc::choose_by_bounds`] asks for, cheaper than exact values.
    pub fn card_bounds(&mut self, world: &Game) -> Result<Vec<(Card, i64, i64)>> {
        self.card_levels(world, false)
    }

    /// The value of the legal card `c` to the seat to act if below `upper`, else `upper` (with
    /// `upper` an upper bound on it, as [`Self::card_bounds`] gives, that is the value).
    pub fn card_below(&mut self, world: &Game, c: Card, upper: i64) -> Result<i64> {
        if world.phase() != Phase::Tricks || world.legal_cards() & bit(c) == 0 {
            return Err(Error::invalid("card", c, "a legal card of the seat to act"));
        }
        let me = world.player().unwrap_or(0) as usize;
        let Some(r) = self.root(world)? else { return Ok(upper.min(0)) };
        let (child, gain) = r.p.play(&r.f, c);
        Ok(self.payment_below(&r.f, &child, r.taken + gain, me, upper))
    }

    /// The payment to seat `me` of `p` (the tally `taken` so far) if below `upper`, else
    /// `upper`; one search at the level `upper` needs settles the second case.
    fn payment_below(&mut self, f: &Facts, p: &Pos, taken: i32, me: usize, upper: i64) -> i64 {
        let pay = |l: usize| f.pay[l][me];
        let top = f.levels - 1;
        // The levels that pay at least `upper`: the top ones for the declarer, the bottom ones
        // for a defender.
        let reach = (0..f.levels).filter(|&l| pay(l) >= upper);
        let level = if me as u8 == f.declarer {
            let Some(lu) = reach.min() else { return pay(self.level(f, p, taken, 0, top, me)) };
            let (lo, hi) = self.test(f, p, taken, lu, (0, top));
            if lo >= lu {
                return upper;
            }
            self.level(f, p, taken, lo, hi, me)
        } else {
            let Some(lu) = reach.max() else { return pay(self.level(f, p, taken, 0, top, me)) };
            if lu == top {
                return upper;
            }
            let (lo, hi) = self.test(f, p, taken, lu + 1, (0, top));
            if hi <= lu {
                return upper;
            }
            self.level(f, p, taken, lo, hi, me)
        };
        pay(level).min(upper)
    }

    /// Per legal card of the seat to act, in ascending card order, bounds on its value to that
    /// seat: all exact with `exact`, else as [`Self::card_bounds`] says.
    fn card_levels(&mut self, world: &Game, exact: bool) -> Result<Vec<(Card, i64, i64)>> {
        let legal = world.legal_cards();
        let Some(r) = self.root(world)? else {
            return Ok(iter(legal).map(|c| (c, 0, 0)).collect());
        };
        let (f, p) = (&r.f, &r.p);
        let me = p.actor();
        let seat = me as usize;
        let maximize = me == f.declarer;
        let top = f.levels - 1;
        // The mover's points by level: rising with the level for the declarer, falling for a
        // defender (see the module documentation).
        let pay = |l: usize| f.pay[l][seat];
        let mut list = [0; MAX_MOVES];
        let n = ordered(f, p, NONE, &self.history[seat], &mut list);
        let mut bounds = [(0i64, 0i64); 32];
        let mut best: Option<i64> = None;
        for &c in &list[..n] {
            let (child, gain) = p.play(f, c);
            let taken = r.taken + gain;
            let (mut lo, mut hi) = (0, top);
            if let (Some(b), false) = (best, exact) {
                // Only whether the card beats the best so far, and if so its value: one search
                // at the level where the mover's points pass the best.
                if maximize {
                    let Some(m) = (0..=top).find(|&l| pay(l) > b) else {
                        bounds[c as usize] = (pay(0), b);
                        continue;
                    };
                    (lo, hi) = self.test(f, &child, taken, m, (lo, hi));
                    if hi < m {
                        bounds[c as usize] = (pay(lo), pay(hi));
                        continue;
                    }
                } else {
                    let Some(m) = (0..=top).rev().find(|&l| pay(l) > b) else {
                        bounds[c as usize] = (pay(top), b);
                        continue;
                    };
                    if m < top {
                        (lo, hi) = self.test(f, &child, taken, m + 1, (lo, hi));
                    }
                    if lo > m {
                        bounds[c as usize] = (pay(hi), pay(lo));
                        continue;
                    }
                }
            }
            let v = pay(self.level(f, &child, taken, lo, hi, seat));
            bounds[c as usize] = (v, v);
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        // A merged card is equivalent to the next lower searched card of its suit in its hand.
        let searched = list[..n].iter().fold(0, |m, &c| m | bit(c));
        Ok(iter(legal)
            .map(|c| {
                let mut d = c;
                while searched & bit(d) == 0 {
                    d = f.order.strongest(legal & f.weaker[d as usize & 31], f.order.suit(d)).unwrap_or(c);
                    if d == c {
                        break;
                    }
                }
                let (lo, hi) = bounds[d as usize & 31];
                (c, lo, hi)
            })
            .collect())
    }

    /// Whether the level of `p` (the tally `taken` so far) is at least `m`, known to lie in
    /// `bounds`: the bounds narrowed by one null-window search.
    fn test(&mut self, f: &Facts, p: &Pos, taken: i32, m: usize, bounds: (usize, usize)) -> (usize, usize) {
        let (lo, hi) = bounds;
        if m <= lo || m > hi {
            return bounds;
        }
        let need = f.thresholds[m - 1] - taken;
        let v = self.search(f, p, need - 1, need);
        if v >= need {
            (lo.max(f.level(taken + v)).max(m), hi)
        } else {
            (lo, hi.min(f.level(taken + v)).min(m - 1))
        }
    }

    /// The level of `p` (the tally `taken` so far), known to lie in `lo..=hi`; or, once all
    /// levels left pay `seat` alike (a defender's 40 however the declarer loses, an overbid
    /// game's loss), the lowest of them: a level that pays `seat` exactly.
    fn level(&mut self, f: &Facts, p: &Pos, taken: i32, mut lo: usize, mut hi: usize, seat: usize) -> usize {
        let w = f.win_level();
        let differ = |lo: usize, hi: usize| f.pay[lo + 1..=hi].iter().any(|x| x[seat] != f.pay[lo][seat]);
        while lo < hi && differ(lo, hi) {
            // Win or lose first, then the level next to that boundary (Schneider either way,
            // then Schwarz).
            let m = if lo < w && w <= hi {
                w
            } else if lo >= w {
                lo + 1
            } else {
                hi
            };
            (lo, hi) = self.test(f, p, taken, m, (lo, hi));
        }
        lo
    }

    /// The tally still to take from `p` under perfect play (the declarer maximizing), fail-soft
    /// within (alpha, beta).
    fn search(&mut self, f: &Facts, p: &Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let boundary = p.len == 0;
        let (mut key, mut slot, mut first) = ([0u64; 2], 0usize, NONE);
        let (mut lo, mut hi) = (-INF, INF);
        if boundary {
            match p.done {
                10 => return 0,
                9 => return p.last_trick(f),
                _ => {}
            }
            (lo, hi) = f.bounds(p);
            if let Some(v) = cutoff(lo, hi, alpha, beta) {
                return v;
            }
            (key, slot) = Self::key(f, p);
            let bucket = &self.tt[slot].0;
            let hit = (0..2).find(|&i| bucket[i].gen == self.gen && bucket[i].key == key);
            if let Some(i) = hit {
                let e = bucket[i];
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
                first = actual_card(f, p.live(), e.best);
                if let Some(v) = cutoff(lo, hi, alpha, beta) {
                    return v;
                }
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let (a0, b0) = (alpha, beta);
        let maximize = p.actor() == f.declarer;
        let mut list = [0; MAX_MOVES];
        let me = p.actor() as usize;
        let n = ordered(f, p, first, &self.history[me], &mut list);
        let mut best = if maximize { -INF } else { INF };
        let mut best_card = list[0];
        for &c in &list[..n] {
            let (child, gain) = p.play(f, c);
            let v = gain + self.search(f, &child, alpha - gain, beta - gain);
            if maximize {
                if v > best {
                    best = v;
                    best_card = c;
                    alpha = alpha.max(v);
                }
            } else if v < best {
                best = v;
                best_card = c;
                beta = beta.min(v);
            }
            if alpha >= beta {
                let left = 30 - 3 * p.done as u32 - p.len as u32;
                self.history[me][c as usize & 31] += left * left;
                break;
            }
        }
        if boundary {
            if best <= a0 {
                hi = hi.min(best);
            } else if best >= b0 {
                lo = lo.max(best);
            } else {
                (lo, hi) = (best, best);
            }
            // The first entry of the bucket keeps the earlier trick, the second takes the rest.
            let e0 = self.tt[slot].0[0];
            let i = usize::from(!(e0.gen != self.gen || e0.key == key || p.done <= e0.done));
            self.tt[slot].0[i] = Entry {
                key,
                lo: lo as i16,
                hi: hi as i16,
                best: canonical_card(f, p.live(), best_card),
                done: p.done,
                gen: self.gen,
            };
        }
        best
    }

    /// The key and bucket of a trick-boundary position: its canonical hands and the leader.
    #[inline]
    fn key(f: &Facts, p: &Pos) -> (Key, usize) {
        let h = canonical(f, p.hands);
        let a = (h[0] & DECK) | (h[1] & DECK) << 32;
        let b = (h[2] & DECK) | (p.leader as u64) << 32;
        let x = (a ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 31) ^ b).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ([a, b], (x >> (64 - TT_BITS + 1)) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::NOTATION;
    use super::super::super::deal::Deal;
    use super::*;

    fn facts(game: GameType) -> Facts {
        let mut g = Game::new(&Deal::for_game(1, 0));
        for a in ["18", "pass", "pass", "hand"] {
            g.apply_name(a).unwrap();
        }
        let c = Contract { hand: true, ..Contract::plain(game) };
        g.apply(super::super::super::actions::Action::Declare(c)).unwrap();
        Facts::of(&g, c, 1)
    }

    /// The exact tally still to take from `p`: exhaustive minimax.
    fn exact(f: &Facts, p: &Pos) -> i32 {
        if p.done == 10 {
            return 0;
        }
        let values = iter(p.legal(f)).map(|c| {
            let (child, gain) = p.play(f, c);
            gain + exact(f, &child)
        });
        if p.actor() == f.declarer {
            values.max().unwrap_or(0)
        } else {
            values.min().unwrap_or(0)
        }
    }

    /// The static bounds at trick boundaries hold the exact tally still to take (exhaustive
    /// minimax over the last four and five tricks of random suit and grand games, the cards
    /// before played at random), also where the leader's plain masters count as sure tricks.
    #[test]
    fn static_bounds_hold_the_exact_tally() {
        use rand::{Rng, SeedableRng};
        let games = [GameType::Grand, GameType::Suit(0), GameType::Suit(1), GameType::Suit(2), GameType::Suit(3)];
        let mut with_masters = 0;
        for seed in 0..240u64 {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let mut g = Game::new(&Deal::for_game(seed, 0));
            for a in ["18", "pass", "pass", "hand"] {
                g.apply_name(a).unwrap();
            }
            let c = Contract { hand: true, ..Contract::plain(games[seed as usize % games.len()]) };
            g.apply(super::super::super::actions::Action::Declare(c)).unwrap();
            let done = if seed % 4 == 0 { 5 } else { 6 };
            while g.tricks_done() < done || !g.current_trick().is_empty() {
                let legal: Vec<Card> = iter(g.legal_cards()).collect();
                g.apply(super::super::super::actions::Action::Card(legal[rng.gen_range(0..legal.len())])).unwrap();
            }
            let f = Facts::of(&g, c, 1);
            let p = Pos::of(&g, &f);
            let (lo, hi) = f.bounds(&p);
            let v = exact(&f, &p);
            assert!(lo <= v && v <= hi, "seed {seed}: {v} outside {lo}..={hi}");
            let l = p.leader as usize;
            with_masters += usize::from(f.plain_masters(p.hands[l], [p.hands[(l + 1) % 3], p.hands[(l + 2) % 3]]) != 0);
        }
        assert!(with_masters > 60, "{with_masters}");
    }

    /// Runs: in clubs the four Jacks (2 points each) and the trumps 9 8 7 are runs; in null
    /// every suit is one run of eight (points do not count).
    #[test]
    fn runs_of_interchangeable_cards() {
        let f = facts(GameType::Suit(3));
        let masks: Vec<String> = f.runs.iter().map(|r| NOTATION.names(r.mask)).collect();
        assert!(masks.contains(&NOTATION.names(NOTATION.parse_set("CJ SJ HJ DJ").unwrap())), "{masks:?}");
        assert!(masks.contains(&NOTATION.names(NOTATION.parse_set("C9 C8 C7").unwrap())), "{masks:?}");
        assert!(f.runs.iter().all(|r| r.mask & NOTATION.parse_set("CA CT").unwrap() == 0));
        let n = facts(GameType::Null);
        assert_eq!(n.runs.len(), 4);
        assert!(n.runs.iter().all(|r| r.len == 8));
        // Canonical cards map back to the cards held.
        for f in [f, n] {
            let held = NOTATION.parse_set("CJ HJ C8 C7 SA SQ S9 H7 DK D9").unwrap();
            for c in iter(held) {
                assert_eq!(actual_card(&f, held, canonical_card(&f, held, c)), c);
            }
        }
    }

    /// Under every contract, bid, matador count and points put away, the declarer's points
    /// never fall and a defender's never rise as the level rises (what the search relies on).
    #[test]
    fn payments_are_monotone_in_the_level() {
        use super::super::super::bidding::BID_VALUES;
        use super::super::super::scoring::score;
        let mut checked = 0;
        for c in Contract::ALL {
            for &bid in BID_VALUES.iter().step_by(3) {
                for m in 1..=11 {
                    for s in [0u32, 4, 10, 21, 22] {
                        let at = [(s, 0), (30, 1), (60, 1), (61, 1), (90, 9), (120, 10)];
                        let levels: Vec<_> = if c.game == GameType::Null { vec![(0, 1), (0, 0)] } else { at.to_vec() };
                        let pays: Vec<(i32, i32)> = levels
                            .iter()
                            .map(|&(pts, tricks)| {
                                let x = score(c, bid as u32, m, pts, tricks);
                                (x.declarer_tp, x.defender_tp)
                            })
                            .collect();
                        assert!(
                            pays.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 >= w[1].1),
                            "{c:?} {bid} {m}: {pays:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The levels of a suit game cut at Schwarz, 31, 61, 90 and every trick (the skat's points
    /// counted for the declarer), and the declarer's points never fall as the level rises.
    #[test]
    fn levels_and_payments() {
        let f = facts(GameType::Suit(3));
        assert_eq!(f.levels, 6);
        assert_eq!(f.level(0), 0);
        assert_eq!(f.level(1), 1);
        assert_eq!(f.level(f.thresholds[2]), 3);
        assert_eq!(f.level(11 * 120 + 10), 5);
        assert!(f.pay.windows(2).all(|w| w[0][1] <= w[1][1] && w[0][0] >= w[1][0]), "{:?}", f.pay);
        assert_eq!(f.win_level(), 3);
        assert_eq!(top_points(NOTATION.parse_set("CA ST DK D7").unwrap(), 2), 21);
        let n = facts(GameType::Null);
        assert_eq!((n.levels, n.level(9), n.level(10), n.win_level()), (2, 0, 1, 1));
    }
}

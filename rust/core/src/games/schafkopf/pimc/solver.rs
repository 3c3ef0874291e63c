//! The perfect-information solver: the payment of a Schafkopf world (every hand known) under
//! optimal play by both parties, from any position of the tricks.
//!
//! In a world the teams are known (the declarer, in a Sauspiel with the holder of the called
//! Ace; the soloist alone), and the contract, the Laufende and the doublings are fixed. So the
//! payment of every seat is a step function of one additive score of the player team, its
//! *tally* `X`: its card points under [`Rules::SCHAFKOPFRL`] (Schwarz by points), and
//! `9 * points + tricks` under Schwarz by tricks ([`Rules::schwarz_by_tricks`]). Six *levels*
//! cut it at five thresholds: Schwarz lost (no points / no trick), Schneider lost (30 or
//! fewer), lost, won (61 or more), Schneider won (91 or more), Schwarz won (120 / every trick).
//! The payment rises with the level for the player team and falls for the others, so the
//! minimax payment is the payment of the minimax level, and the minimax level is the level of
//! the minimax tally.
//!
//! The search is alpha-beta over the tally the player team takes from the current trick on
//! (the player team maximizes it, the others minimize it), asked only with null windows at
//! the thresholds (MTD-style, [`Solver::value`] needs two or three): whether the team reaches
//! a threshold. Speed-ups, all exact:
//! * a transposition table at trick boundaries keyed by the cards still held and their holders in
//!   canonical form (the cards left of each run of interchangeable cards moved to the run's top,
//!   see [`Group`]), the leader and whether the called Ace's holder ran away, in buckets of two
//!   (one keeping the earlier trick, one always replaced); it stores
//!   bounds on the tally still to take (independent of the tally already taken, so they serve
//!   every threshold and every order of the tricks before) and the best card. Entries carry a
//!   generation per world (kept for the last 256 worlds, so a PIMC decision that returns to
//!   a world finds its entries);
//! * static bounds at trick boundaries: the trumps in play above every trump of the other party
//!   win their tricks for their party, and so do the leader's top plain cards it can cash
//!   before anyone can ruff; so the other party wins at most the tricks left less the most such
//!   cards one seat holds, and takes at most the points of that many most valuable cards of
//!   each hand (those cards left out);
//! * equivalent cards merged: two cards of one hand, of one effective suit, worth the same card
//!   points, with no card in play ranked between them, lead to the same outcomes, so only the
//!   lower is searched (not the called Ace, nor, under SchafkopfRL's quirk, the Ober and Unter
//!   of the called suit, whose lead lets the Ace be discarded);
//! * move ordering: the table's card first, then to lead high trumps and top cards, to follow
//!   the cheapest card that wins, points onto a partner's trick, else the cheapest discard;
//! * the last trick plays itself.
//!
//! Legality is [`trick_legal`], the function [`Game::legal_cards`] asks: the called Ace's rules
//! (forced Ace, running away, no discarding it, the quirk flags) are the game's, not a copy.

use super::super::actions::Phase;
use super::super::cards::{bit, card, points, rank_cards, set_points, ACE, DECK, KING, OBER, TEN, UNTER};
use super::super::contract::{Contract, Order};
use super::super::game::{trick_legal, Game};
use super::super::rules::Rules;
use super::super::scoring::{player_team, settle};
use crate::cards::{iter, Card, CardSet, Suits};
use crate::error::{Error, Result};
use crate::search::PerfectInfoSolver;
use std::cell::RefCell;
use std::collections::VecDeque;

/// No seat, no card.
const NONE: u8 = u8::MAX;
/// Above any tally.
const INF: i32 = 1 << 14;
/// Levels of the payment's step function.
const LEVELS: usize = 6;
/// The level [`Solver::value`] tests first: the player team wins (61 points or more).
const WIN_LEVEL: usize = 3;
/// Entries of the transposition table: 2^TT_BITS (24 bytes each), in buckets of two.
const TT_BITS: u32 = 19;
/// Worlds whose table entries are kept for a return to them (a PIMC decision comes back to its
/// worlds when it tightens bounds): generations are never reused before the counter wraps.
const RECENT_WORLDS: usize = 256;
/// Most legal cards of a position (a hand holds eight).
const MAX_MOVES: usize = 8;

/// What a world fixes for the whole play.
#[derive(Clone, Debug)]
struct Facts {
    order: Order,
    /// [`crate::cards::TrickOrder::beaten_by`] of every card.
    beaten_by: [CardSet; 32],
    /// The cards of each card's effective suit ranked below it.
    weaker: [CardSet; 32],
    trumps: CardSet,
    /// The called suit of a Sauspiel.
    called: Option<u8>,
    strict_rufsau: bool,
    /// The called Ace (empty outside a Sauspiel).
    ace: CardSet,
    /// Cards never merged with another (see the module documentation).
    no_merge: CardSet,
    /// Runs of interchangeable cards (see [`Group`]) of two or more cards.
    groups: [Group; MAX_GROUPS],
    n_groups: usize,
    /// The index in `groups` of each card's run (NONE for none).
    group_of: [u8; 32],
    /// Seats of the player team, as a mask.
    team: u8,
    /// The tally of a trick won by the player team: `k * points + t`.
    k: i32,
    t: i32,
    /// The least tally of each level from the second.
    thresholds: [i32; LEVELS - 1],
    /// Each seat's payment at each level.
    pay: [[i64; 4]; LEVELS],
}

impl Facts {
    /// The facts of a world in the tricks of a contract with a payment (not the play-out after
    /// all passed).
    fn of(world: &Game, contract: Contract, declarer: u8) -> Facts {
        let order = contract.order();
        let rules = world.rules();
        let dealt = world.deal().hands;
        let team = player_team(contract, declarer, &dealt);
        let (k, t) = if rules.schwarz_by_tricks { (9, 1) } else { (1, 0) };
        let thresholds = [1, 31 * k, 61 * k, 91 * k, 120 * k + 8 * t];
        // Each level's payments: settle a tally of that level (the team's points and tricks given
        // to one of its seats, the rest to another seat).
        let other = (0..4).find(|&p| team & (1 << p) == 0).expect("the player team has at most two seats");
        let doublings = world.contra_given() as u32 + (world.contra_given() && world.retour_given()) as u32;
        let pay = [(0, 0), (30, 1), (60, 2), (61, 4), (91, 7), (120, 8)].map(|(points, tricks)| {
            let (mut scores, mut won) = ([0; 4], [0; 4]);
            scores[declarer as usize] = points;
            won[declarer as usize] = tricks;
            scores[other] = 120 - points;
            won[other] = 8 - tricks;
            settle(&rules, contract, declarer, &dealt, &scores, &won, doublings).payments.map(i64::from)
        });
        let called = contract.called_suit();
        let ace = contract.called_ace().map_or(0, bit);
        let quirk = match called {
            Some(x) if !rules.strict_rufsau => bit(card(OBER, x)) | bit(card(UNTER, x)),
            _ => 0,
        };
        let suits = order.suits();
        let no_merge = ace | quirk;
        let (groups, n_groups) = Group::runs(order, no_merge);
        let mut group_of = [NONE; 32];
        for (i, g) in groups[..n_groups].iter().enumerate() {
            for c in iter(g.mask) {
                group_of[c as usize & 31] = i as u8;
            }
        }
        Facts {
            order,
            beaten_by: std::array::from_fn(|c| order.beaten_by(c as Card)),
            weaker: std::array::from_fn(|c| suits.mates(c as Card) & !suits.stronger(c as Card) & !bit(c as Card)),
            trumps: order.trumps(),
            called,
            strict_rufsau: rules.strict_rufsau,
            ace,
            no_merge,
            groups,
            n_groups,
            group_of,
            team,
            k,
            t,
            thresholds,
            pay,
        }
    }

    /// The level of a final tally.
    #[inline]
    fn level(&self, tally: i32) -> usize {
        self.thresholds.iter().filter(|&&x| tally >= x).count()
    }

    /// Whether seat `p` is on the player team.
    #[inline]
    fn in_team(&self, p: u8) -> bool {
        self.team >> (p & 3) & 1 != 0
    }

    /// Bounds on the tally the player team takes from a trick boundary on, `r` tricks left.
    /// A party's *sure* trumps, those stronger than every trump of the other party, win every
    /// trick they fall in; so do, if the leader's party plays them first, the leader's *cashed*
    /// plain cards (see [`Facts::cash`]). One seat's sure and cashed cards fall in different
    /// tricks. So if a seat of one party holds `n` of them, the other party wins at most
    /// `w = r - n` tricks, and since every trick takes one card from each seat (and none of the
    /// first party's sure or cashed cards lands in a trick the other party wins), the other
    /// party takes at most the points of the `w` most valuable cards of each hand less those
    /// cards. The rest of the tally goes to the first party.
    #[inline]
    fn bounds(&self, p: &Pos) -> (i32, i32) {
        let live = p.live();
        let r = 8 - p.done as u32;
        let total = self.k * set_points(live) as i32 + self.t * r as i32;
        let trumps = live & self.trumps;
        let mine = trumps & p.team_cards(self.team);
        let theirs = trumps & !mine;
        let trump = self.order.trump_suit();
        // The trumps of `a` stronger than every trump of `b`.
        let safe = |a: CardSet, b: CardSet| match self.order.strongest(b, trump) {
            None => a,
            Some(top) => a & self.beaten_by[top as usize & 31],
        };
        let (mut safe_mine, mut safe_theirs) = (safe(mine, theirs), safe(theirs, mine));
        if self.in_team(p.leader) {
            safe_mine |= self.cash(p);
        } else {
            safe_theirs |= self.cash(p);
        }
        // The most a party can take when the other party's sure cards are `sure`.
        let most = |sure: CardSet| -> i32 {
            if sure == 0 {
                return total;
            }
            let n = (0..4).map(|s| (p.hands[s] & sure).count_ones()).max().unwrap_or(0);
            let w = r - n;
            let pts: u32 = p.hands.iter().map(|&h| top_points(h & !sure, w)).sum();
            self.k * pts as i32 + self.t * w as i32
        };
        let hi = most(safe_theirs).min(total);
        let lo = (total - most(safe_mine)).max(0);
        (lo, hi)
    }

    /// The plain cards the leader of a trick-boundary position `p` can cash: of each plain
    /// suit, its cards above every other card of the suit in play, as many as each seat of the
    /// other party holding a trump holds cards of the suit (so that it must follow and cannot
    /// ruff); and only while each partner of the leader holds as many cards neither trump nor
    /// the called Ace (so that it never has to play a trump and take the lead). Led from the
    /// top of each suit, each wins its trick and keeps the lead.
    fn cash(&self, p: &Pos) -> CardSet {
        let me = p.leader as usize;
        let party = self.in_team(p.leader);
        let hand = p.hands[me];
        let others = p.live() & !hand;
        let mut spare = u32::MAX;
        for s in 0..4 {
            if s != me && self.in_team(s as u8) == party {
                spare = spare.min((p.hands[s] & !self.trumps & !self.ace).count_ones());
            }
        }
        let mut out = 0;
        for x in 0..8u8 {
            let suit = self.order.suit_cards(x) & !self.trumps & DECK;
            let mut top = hand & suit;
            if top == 0 {
                continue;
            }
            if let Some(c) = self.order.strongest(others & suit, x) {
                top &= self.beaten_by[c as usize & 31];
            }
            let mut k = top.count_ones();
            for s in 0..4 {
                if self.in_team(s as u8) != party && p.hands[s] & self.trumps != 0 {
                    k = k.min((p.hands[s] & suit).count_ones());
                }
            }
            k = k.min(spare);
            spare -= k;
            // The k strongest.
            for _ in 0..k {
                let c = self.order.strongest(top, x).expect("k cards left");
                out |= bit(c);
                top &= !bit(c);
            }
        }
        out
    }
}

/// Cards by their points, most valuable first.
const BY_POINTS: [(CardSet, u32); 5] = [
    (rank_cards(ACE), 11),
    (rank_cards(TEN), 10),
    (rank_cards(KING), 4),
    (rank_cards(OBER), 3),
    (rank_cards(UNTER), 2),
];

/// The card points of the `w` most valuable cards of `set`.
#[inline]
fn top_points(set: CardSet, mut w: u32) -> u32 {
    let mut sum = 0;
    for (mask, pts) in BY_POINTS {
        if w == 0 {
            break;
        }
        let n = (set & mask).count_ones().min(w);
        sum += n * pts;
        w -= n;
    }
    sum
}

/// A run of interchangeable cards: cards of one effective suit worth the same card points, each
/// next in rank to the one before (the Obers, the Unters, the nine, eight and seven of a suit),
/// none of them the called Ace or a quirk card. Once some of a run are played, which of its cards
/// are left does not matter, only their order and holders: a trick-boundary position is keyed by
/// its *canonical* form, the cards left of each run moved to the run's top.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    mask: CardSet,
    /// The cards from the strongest down (the first `len`).
    cards: [Card; 4],
    len: usize,
    /// `top[k]`: the strongest `k` cards.
    top: [CardSet; 5],
}

/// The most runs of two or more cards a contract has.
const MAX_GROUPS: usize = 12;

impl Group {
    /// The runs of two or more cards of `order`, none holding a card of `no_merge`.
    fn runs(order: Order, no_merge: CardSet) -> ([Group; MAX_GROUPS], usize) {
        let mut out = [Group::default(); MAX_GROUPS];
        let mut n = 0;
        let mut close = |run: &mut Vec<Card>| {
            if run.len() >= 2 {
                let mut g = Group::default();
                for (i, &c) in run.iter().enumerate() {
                    g.mask |= bit(c);
                    g.cards[i] = c;
                    g.top[i + 1] = g.mask;
                }
                g.len = run.len();
                out[n] = g;
                n += 1;
            }
            run.clear();
        };
        for s in 0..8u8 {
            let mut cards: Vec<Card> = iter(order.suit_cards(s) & DECK).collect();
            if cards.is_empty() {
                continue;
            }
            // Strongest first.
            cards.sort_by_key(|&c| std::cmp::Reverse(order.power(c, s)));
            let mut run: Vec<Card> = Vec::new();
            for c in cards {
                let joins = run.last().is_some_and(|&l| points(l) == points(c)) && no_merge & bit(c) == 0;
                if !joins {
                    close(&mut run);
                }
                if no_merge & bit(c) == 0 {
                    run.push(c);
                }
            }
            close(&mut run);
        }
        (out, n)
    }
}

/// A position of the tricks.
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
    /// Completed tricks.
    done: u8,
    /// The seat that ran away from the called Ace (NONE until one does).
    runner: u8,
}

impl Pos {
    /// The position of a game in the tricks.
    fn of(world: &Game, f: &Facts) -> Pos {
        let done = world.tricks_done();
        let trick = world.current_trick();
        let led = trick.first().copied().unwrap_or(0);
        let win = f.order.winner(trick).unwrap_or(0);
        Pos {
            hands: std::array::from_fn(|p| world.hand(p as u8)),
            trick: trick.iter().fold(0, |m, &c| m | bit(c)),
            led,
            winning: trick.get(win).copied().unwrap_or(0),
            len: trick.len() as u8,
            leader: world.trick_leader(done as usize),
            win: win as u8,
            done,
            runner: world.davongelaufen().unwrap_or(NONE),
        }
    }

    #[inline]
    fn actor(&self) -> u8 {
        (self.leader + self.len) & 3
    }

    /// Cards still in play: in a hand or in the current trick.
    #[inline]
    fn live(&self) -> CardSet {
        self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] | self.trick
    }

    /// The cards the seats of `team` (a mask) hold.
    #[inline]
    fn team_cards(&self, team: u8) -> CardSet {
        (0..4).filter(|&p| team >> p & 1 != 0).fold(0, |m, p| m | self.hands[p])
    }

    /// The legal cards of the seat to act.
    #[inline]
    fn legal(&self, f: &Facts) -> CardSet {
        let me = self.actor();
        trick_legal(
            f.order,
            f.called,
            f.strict_rufsau,
            self.hands[me as usize],
            (self.len > 0).then_some(self.led),
            self.runner == me,
            self.done == 7,
        )
    }

    /// The position after the seat to act plays `c`, and the tally the player team took with
    /// the trick if `c` completed it (else 0).
    #[inline]
    fn play(&self, f: &Facts, c: Card) -> (Pos, i32) {
        let mut p = *self;
        p.hands[self.actor() as usize] &= !bit(c);
        p.trick |= bit(c);
        if p.len == 0 {
            p.led = c;
            p.winning = c;
            p.win = 0;
        } else if f.beaten_by[p.winning as usize & 31] & bit(c) != 0 {
            p.winning = c;
            p.win = p.len;
        }
        p.len += 1;
        let mut gain = 0;
        if p.len == 4 {
            let winner = (p.leader + p.win) & 3;
            if f.in_team(winner) {
                gain = f.k * set_points(p.trick) as i32 + f.t;
            }
            if let Some(x) = f.called {
                // Leading a plain card of the called suit while holding its Ace is running away.
                let plain_called = f.order.suit(p.led) == x && bit(p.led) != f.ace;
                if plain_called && p.hands[p.leader as usize] & f.ace != 0 {
                    p.runner = p.leader;
                }
            }
            p.leader = winner;
            p.len = 0;
            p.win = 0;
            p.trick = 0;
            p.done += 1;
        }
        (p, gain)
    }

    /// The tally the player team takes with the last trick, every hand holding one card.
    #[inline]
    fn last_trick(&self, f: &Facts) -> i32 {
        let live = self.live();
        let lead = self.hands[self.leader as usize];
        let top = f.order.strongest(live, f.order.suit(crate::cards::lowest(lead))).expect("the card led contends");
        let winner = (0..4).find(|&p| self.hands[p] & bit(top) != 0).expect("a hand holds the top card") as u8;
        if f.in_team(winner) {
            f.k * set_points(live) as i32 + f.t
        } else {
            0
        }
    }
}

/// The legal cards of `p`'s seat to act with equivalent cards merged into the lowest of each run
/// (see the module documentation).
#[inline]
fn distinct(f: &Facts, p: &Pos) -> CardSet {
    let legal = p.legal(f);
    if legal.count_ones() < 2 {
        return legal;
    }
    let live = p.live();
    let mut out = legal;
    for c in iter(legal & !f.no_merge) {
        let below = live & f.weaker[c as usize & 31];
        if below == 0 {
            continue;
        }
        // The next lower card in play of c's suit.
        let b = f.order.strongest(below, f.order.suit(c)).expect("a card of its own suit contends");
        if legal & !f.no_merge & bit(b) != 0 && set_points(bit(b)) == set_points(bit(c)) {
            out &= !bit(c);
        }
    }
    out
}

/// Writes the distinct legal cards of `p` in search order into `list`, `first` (if legal) ahead
/// of the others, and returns how many there are.
#[inline]
fn ordered(f: &Facts, p: &Pos, first: u8, list: &mut [Card; MAX_MOVES]) -> usize {
    let moves = distinct(f, p);
    let mut keys = [0i32; MAX_MOVES];
    let mut n = 0;
    let me = p.actor();
    let live = p.live();
    let led = f.order.suit(p.led);
    let partner_wins = p.len > 0 && f.in_team((p.leader + p.win) & 3) == f.in_team(me);
    for c in iter(moves) {
        let points = set_points(bit(c)) as i32;
        let is_trump = (f.trumps & bit(c) != 0) as i32;
        let power = f.order.power(c, if p.len == 0 { f.order.suit(c) } else { led }) as i32;
        let key = if c == first {
            1000
        } else if p.len == 0 {
            // The top card of its suit in play first, trumps before plain cards.
            let top = (live & f.order.suits().stronger(c) == 0) as i32;
            200 * top + power
        } else if partner_wins {
            // Points onto the partner's trick, sparing trumps.
            4 * points - 40 * is_trump - power
        } else if f.beaten_by[p.winning as usize & 31] & bit(c) != 0 {
            // The cheapest winner.
            300 + points - power
        } else {
            -4 * points - power
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

#[derive(Clone, Copy, Default)]
struct Entry {
    key: Key,
    /// Bounds on the tally the player team takes from the position on.
    lo: i16,
    hi: i16,
    best: u8,
    /// Tricks done in the position.
    done: u8,
    /// Search generation that wrote the entry; older entries are empty.
    gen: u16,
}

/// What identifies a world for the transposition table: the hands dealt, the contract and its
/// declarer, and the rules (the tally and the legal cards depend on nothing else).
type Fingerprint = ([CardSet; 4], Contract, u8, Rules);

/// A reusable solver: its transposition table is allocated once and kept across worlds (each
/// world gets a new generation of entries).
pub struct Solver {
    tt: Vec<Entry>,
    gen: u16,
    /// The worlds searched last and their generations, the newest last.
    recent: VecDeque<(Fingerprint, u16)>,
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

/// A world ready to search: its facts, its position and the tally the player team has taken.
struct Root {
    f: Facts,
    p: Pos,
    taken: i32,
}

impl Solver {
    /// A solver with an empty transposition table.
    pub fn new() -> Solver {
        Solver { tt: vec![Entry::default(); 1 << TT_BITS], gen: 0, recent: VecDeque::new(), nodes: 0 }
    }

    /// Positions searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Starts a new generation of table entries.
    fn next_generation(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.tt.fill(Entry::default());
            self.recent.clear();
            self.gen = 1;
        }
    }

    /// The root of `world` (None when nothing is left to search: the game is over, or it is the
    /// play-out after all passed, which pays nothing); a world outside the tricks is refused.
    /// Keeps the table's entries when the world is one of the last [`RECENT_WORLDS`] searched.
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
        if contract.kind().is_none() {
            return Ok(None);
        }
        let fingerprint = (world.deal().hands, contract, declarer, world.rules());
        match self.recent.iter().rev().find(|(w, _)| *w == fingerprint) {
            Some(&(_, gen)) => self.gen = gen,
            None => {
                self.next_generation();
                if self.recent.len() == RECENT_WORLDS {
                    self.recent.pop_front();
                }
                self.recent.push_back((fingerprint, self.gen));
            }
        }
        let f = Facts::of(world, contract, declarer);
        let p = Pos::of(world, &f);
        let (scores, tricks) = (world.scores(), world.tricks_won());
        let taken = (0..4u8)
            .filter(|&s| f.in_team(s))
            .map(|s| f.k * scores[s as usize] as i32 + f.t * tricks[s as usize] as i32)
            .sum();
        Ok(Some(Root { f, p, taken }))
    }

    /// The payment to `seat` of `world` (a game in the tricks with every hand known, or a finished
    /// one) when both parties play perfectly: the player team maximizes its payment, the others
    /// theirs. The play-out after all passed is worth 0.
    pub fn value(&mut self, world: &Game, seat: u8) -> Result<i64> {
        let Some(r) = self.root(world)? else { return Ok(world.returns()[seat as usize & 3] as i64) };
        let level = self.level(&r.f, &r.p, r.taken, 0, LEVELS - 1);
        Ok(r.f.pay[level][seat as usize & 3])
    }

    /// The payment to the seat to act of each of its legal cards (the card played, then perfect
    /// play by both parties), in ascending card order.
    pub fn card_values(&mut self, world: &Game) -> Result<Vec<(Card, i64)>> {
        self.card_levels(world, true).map(|v| v.into_iter().map(|(c, lo, _)| (c, lo)).collect())
    }

    /// Bounds `(card, lo, hi)` on the payment to the seat to act of each of its legal cards, in
    /// ascending card order: exact (`lo == hi`) for the card searched first (the likeliest
    /// best) and for every card found to beat the best before it; for the others an upper bound
    /// no higher than the best card's value. The best cards are thus those with the highest
    /// upper bound, and [`Self::card_below`] tightens the others: the bounds
    /// [`crate::search::Pimc::choose_by_bounds`] asks for, cheaper than [`Self::card_values`].
    pub fn card_bounds(&mut self, world: &Game) -> Result<Vec<(Card, i64, i64)>> {
        self.card_levels(world, false)
    }

    /// The payment to the seat to act of its legal card `c` if it is below `upper`, else
    /// `upper` (with `upper` an upper bound on it, as [`Self::card_bounds`] gives, that is the
    /// value): the tightening [`crate::search::Pimc::choose_by_bounds`] asks for.
    pub fn card_below(&mut self, world: &Game, c: Card, upper: i64) -> Result<i64> {
        if world.phase() != Phase::Tricks || world.legal_cards() & bit(c) == 0 {
            return Err(Error::invalid("card", c, "a legal card of the seat to act"));
        }
        let me = world.player().expect("a game in the tricks has a seat to act") as usize;
        let Some(r) = self.root(world)? else { return Ok(upper.min(0)) };
        let (child, gain) = r.p.play(&r.f, c);
        Ok(self.payment_below(&r.f, &child, r.taken + gain, me, upper))
    }

    /// Bounds `(lo, hi)` on [`Self::value`] from one null-window search: whether the player team
    /// wins. Exact for a finished game and the play-out after all passed.
    pub fn value_bounds(&mut self, world: &Game, seat: u8) -> Result<(i64, i64)> {
        let me = seat as usize & 3;
        let Some(r) = self.root(world)? else {
            let v = world.returns()[me] as i64;
            return Ok((v, v));
        };
        let (lo, hi) = self.test(&r.f, &r.p, r.taken, WIN_LEVEL, (0, LEVELS - 1));
        let (a, b) = (r.f.pay[lo][me], r.f.pay[hi][me]);
        Ok((a.min(b), a.max(b)))
    }

    /// [`Self::value`] if it is below `upper`, else `upper` (with `upper` an upper bound on it,
    /// as [`Self::value_bounds`] gives, that is the value): the tightening
    /// [`crate::search::Pimc::choose_by_bounds`] asks for.
    pub fn value_below(&mut self, world: &Game, seat: u8, upper: i64) -> Result<i64> {
        let me = seat as usize & 3;
        let Some(r) = self.root(world)? else { return Ok((world.returns()[me] as i64).min(upper)) };
        Ok(self.payment_below(&r.f, &r.p, r.taken, me, upper))
    }

    /// The payment to seat `me` of `p` (the player team having taken `taken`) if it is below
    /// `upper`, else `upper`; a search at a level `upper` needs settles the second case.
    fn payment_below(&mut self, f: &Facts, p: &Pos, taken: i32, me: usize, upper: i64) -> i64 {
        let pay = |l: usize| f.pay[l][me];
        // The levels whose payment reaches `upper`: the top ones for the player team, the
        // bottom ones for the others.
        let team = f.in_team(me as u8);
        let reach = (0..LEVELS).filter(|&l| pay(l) >= upper);
        let level = if team {
            let Some(lu) = reach.min() else { return pay(self.level(f, p, taken, 0, LEVELS - 1)) };
            let (lo, hi) = self.test(f, p, taken, lu, (0, LEVELS - 1));
            if lo >= lu {
                return upper;
            }
            self.level(f, p, taken, lo, hi)
        } else {
            let Some(lu) = reach.max() else { return pay(self.level(f, p, taken, 0, LEVELS - 1)) };
            if lu == LEVELS - 1 {
                return upper;
            }
            let (lo, hi) = self.test(f, p, taken, lu + 1, (0, LEVELS - 1));
            if hi <= lu {
                return upper;
            }
            self.level(f, p, taken, lo, hi)
        };
        pay(level).min(upper)
    }

    /// Per legal card of the seat to act, in ascending card order, bounds on its payment to
    /// that seat: all exact with `exact`, else as [`Self::card_bounds`] says.
    fn card_levels(&mut self, world: &Game, exact: bool) -> Result<Vec<(Card, i64, i64)>> {
        let legal = world.legal_cards();
        let Some(r) = self.root(world)? else {
            return Ok(iter(legal).map(|c| (c, 0, 0)).collect());
        };
        let (f, p) = (&r.f, &r.p);
        let me = p.actor();
        let team = f.in_team(me);
        let mut list = [0; MAX_MOVES];
        let n = ordered(f, p, NONE, &mut list);
        // Level bounds per card; the best level for the seat to act so far.
        let mut levels = [(0usize, LEVELS - 1); 32];
        let mut best: Option<usize> = None;
        for &c in &list[..n] {
            let (child, gain) = p.play(f, c);
            let taken = r.taken + gain;
            let (mut lo, mut hi) = (0, LEVELS - 1);
            match best {
                Some(b) if !exact => {
                    // Only whether the card beats the best so far, and if so its level.
                    if team {
                        if b < LEVELS - 1 {
                            (lo, hi) = self.test(f, &child, taken, b + 1, (lo, hi));
                        }
                        if b == LEVELS - 1 || hi <= b {
                            levels[c as usize] = (lo, hi.min(b));
                            continue;
                        }
                    } else {
                        if b > 0 {
                            (lo, hi) = self.test(f, &child, taken, b, (lo, hi));
                        }
                        if b == 0 || lo >= b {
                            levels[c as usize] = (lo.max(b), hi);
                            continue;
                        }
                    }
                }
                _ => {}
            }
            let l = self.level(f, &child, taken, lo, hi);
            levels[c as usize] = (l, l);
            best = Some(match best {
                Some(b) if team => b.max(l),
                Some(b) => b.min(l),
                None => l,
            });
        }
        // A merged card is equivalent to the next lower distinct card of its suit in its hand.
        let distinct = list[..n].iter().fold(0, |m, &c| m | bit(c));
        let pay = |l: usize| f.pay[l][me as usize];
        Ok(iter(legal)
            .map(|c| {
                let mut d = c;
                while distinct & bit(d) == 0 {
                    d = f.order.strongest(legal & f.weaker[d as usize & 31], f.order.suit(d)).expect("merged");
                }
                let (lo, hi) = levels[d as usize];
                if team {
                    (c, pay(lo), pay(hi))
                } else {
                    (c, pay(hi), pay(lo))
                }
            })
            .collect())
    }

    /// Whether the level of `p` (the player team having taken `taken`) is at least `m`, known
    /// to lie in `bounds`: the bounds narrowed by one null-window search.
    fn test(&mut self, f: &Facts, p: &Pos, taken: i32, m: usize, bounds: (usize, usize)) -> (usize, usize) {
        let (lo, hi) = bounds;
        if m <= lo {
            return bounds;
        }
        if m > hi {
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

    /// The level of `p` (the player team having taken `taken`), known to lie in `lo..=hi`.
    fn level(&mut self, f: &Facts, p: &Pos, taken: i32, mut lo: usize, mut hi: usize) -> usize {
        while lo < hi {
            // Win or lose first, then the middle of what is left.
            let m = if lo < WIN_LEVEL && WIN_LEVEL <= hi { WIN_LEVEL } else { (lo + hi).div_ceil(2) };
            (lo, hi) = self.test(f, p, taken, m, (lo, hi));
        }
        lo
    }

    /// The tally the player team takes from `p` on under perfect play (the player team
    /// maximizing), fail-soft within (alpha, beta).
    fn search(&mut self, f: &Facts, p: &Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let boundary = p.len == 0;
        let (mut key, mut slot, mut first) = ([0u64; 2], usize::MAX, NONE);
        let (mut lo, mut hi) = (-INF, INF);
        if boundary {
            match p.done {
                8 => return 0,
                7 => return p.last_trick(f),
                _ => {}
            }
            (lo, hi) = f.bounds(p);
            if let Some(v) = cutoff(lo, hi, alpha, beta) {
                return v;
            }
            (key, slot) = self.key(f, p);
            let hit = (slot..slot + 2).find(|&i| self.tt[i].gen == self.gen && self.tt[i].key == key);
            if let Some(i) = hit {
                let e = self.tt[i];
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
        let maximize = f.in_team(p.actor());
        let mut list = [0; MAX_MOVES];
        let n = ordered(f, p, first, &mut list);
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
            // The first entry of the bucket keeps the larger search (the earlier trick), the
            // second takes the rest.
            let e0 = self.tt[slot];
            let i = if e0.gen != self.gen || e0.key == key || p.done <= e0.done { slot } else { slot + 1 };
            self.tt[i] = Entry {
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

    /// The key and slot of a trick-boundary position: its canonical form (see [`Group`]), the
    /// leader and whether the called Ace's holder ran away.
    #[inline]
    fn key(&self, f: &Facts, p: &Pos) -> (Key, usize) {
        let h = canonical(f, p.hands);
        let held = h[0] | h[1] | h[2] | h[3];
        let a = held | (h[1] | h[3]) << 32;
        let b = h[2] | h[3] | (p.leader as u64) << 32 | ((p.runner != NONE) as u64) << 34;
        let x = (a ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 31) ^ b).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ([a, b], (x >> (64 - TT_BITS)) as usize & !1)
    }
}

/// A trick-boundary position's key.
type Key = [u64; 2];

/// `hands` with the cards left of each run moved to the run's top (see [`Group`]).
#[inline]
fn canonical(f: &Facts, hands: [CardSet; 4]) -> [CardSet; 4] {
    let held = hands[0] | hands[1] | hands[2] | hands[3];
    let mut h = hands;
    for g in &f.groups[..f.n_groups] {
        let live = held & g.mask;
        let k = live.count_ones() as usize;
        if live == g.top[k] {
            continue;
        }
        for x in h.iter_mut() {
            *x &= !g.mask;
        }
        let mut j = 0;
        for &c in &g.cards[..g.len] {
            if live & bit(c) != 0 {
                let owner = (0..4).find(|&s| hands[s] & bit(c) != 0).unwrap_or(0);
                h[owner] |= bit(g.cards[j]);
                j += 1;
            }
        }
    }
    h
}

/// The canonical form of card `c` among the cards `held` (see [`Group`]).
#[inline]
fn canonical_card(f: &Facts, held: CardSet, c: Card) -> Card {
    let i = f.group_of[c as usize & 31];
    if i == NONE {
        return c;
    }
    let g = &f.groups[i as usize];
    g.cards[(held & g.mask & f.order.suits().stronger(c)).count_ones() as usize & 3]
}

/// The card among `held` whose canonical form is `c` (NONE for none).
#[inline]
fn actual_card(f: &Facts, held: CardSet, c: Card) -> Card {
    let i = f.group_of[c as usize & 31];
    if c == NONE || i == NONE {
        return c;
    }
    let g = &f.groups[i as usize];
    // The j-th strongest card of the run left.
    let j = (g.mask & f.order.suits().stronger(c)).count_ones() as usize;
    g.cards[..g.len].iter().copied().filter(|&d| held & bit(d) != 0).nth(j).unwrap_or(NONE)
}

#[cfg(test)]
mod tests {
    use super::super::super::actions::Action;
    use super::super::super::cards::{ace, rank_cards};
    use super::super::super::contract::Declaration;
    use super::super::super::deal::Deal;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The declarations a game is played under (every one but pass).
    const GAMES: &[Declaration] = Declaration::ALL.split_at(1).1;

    /// A random deal declared `decl` by the first seat that may (the others passing), doubled
    /// at random, in the tricks (None if no seat may declare it or all passed under the
    /// standard rules).
    /// In a Sauspiel, half the deals give one seat the called Ace and three other plain cards of
    /// its suit, so that it may run away.
    pub(crate) fn random_game(rng: &mut Pcg64, decl: Declaration, rules: Rules) -> Option<Game> {
        let mut deal = Deal::random(rng);
        if let (Declaration::Sauspiel(x), true) = (decl, rng.gen_bool(0.5)) {
            let holder = rng.gen_range(0..4);
            let plain = super::super::super::cards::suit_cards(x) & !rank_cards(OBER) & !rank_cards(UNTER);
            let others: Vec<Card> = iter(plain & !bit(ace(x))).collect();
            let mut take = bit(ace(x));
            while take.count_ones() < 4 {
                take |= bit(others[rng.gen_range(0..others.len())]);
            }
            let mut give = deal.hands[holder] & !plain;
            for c in iter(take & !deal.hands[holder]) {
                let from = (0..4).find(|&p| deal.hands[p] & bit(c) != 0).unwrap();
                let g = crate::cards::lowest(give);
                give &= !bit(g);
                deal.hands[from] = deal.hands[from] & !bit(c) | bit(g);
                deal.hands[holder] = deal.hands[holder] & !bit(g) | bit(c);
            }
        }
        let mut g = Game::new(&Deal::new(deal.hands, deal.dealer).unwrap(), rules);
        let mut declared = decl == Declaration::Pass;
        while g.phase() == Phase::Bidding {
            let a = Action::Declare(decl);
            if !declared && g.is_legal(a) {
                declared = true;
                g.apply(a).unwrap();
            } else {
                g.apply(Action::Declare(Declaration::Pass)).unwrap();
            }
        }
        if !declared {
            return None;
        }
        while matches!(g.phase(), Phase::Contra | Phase::Retour) {
            let yes = g.may_double() && rng.gen_bool(0.3);
            g.apply(Action::Double(yes)).unwrap();
        }
        (g.phase() == Phase::Tricks).then_some(g)
    }

    /// A random legal card of the seat to act; a card of the called suit half the time when it
    /// may play one (so that the called Ace's rules come up often).
    fn random_card(rng: &mut Pcg64, g: &Game) -> Card {
        let legal = g.legal_cards();
        let called = g.contract().and_then(Contract::called_suit).map_or(0, |x| g.order().unwrap().suit_cards(x));
        let pick = if legal & called != 0 && rng.gen_bool(0.5) { legal & called } else { legal };
        let cards: Vec<Card> = iter(pick).collect();
        cards[rng.gen_range(0..cards.len())]
    }

    /// `random_game` played at random until `left` tricks remain plus `extra` cards of the next.
    fn random_position(rng: &mut Pcg64, decl: Declaration, rules: Rules, left: u8, extra: u8) -> Option<Game> {
        let mut g = random_game(rng, decl, rules)?;
        while g.tricks_done() < 8 - left || g.current_trick().len() < extra as usize {
            let c = random_card(rng, &g);
            g.apply(Action::Card(c)).unwrap();
        }
        Some(g)
    }

    /// Plain minimax over every legal card on the game itself: the payment to `seat`, each seat
    /// playing for its party (the player team or the others).
    fn exhaustive(g: &Game, seat: u8) -> i64 {
        if g.finished() {
            return g.returns()[seat as usize] as i64;
        }
        let team = player_team(g.contract().unwrap(), g.declarer().unwrap(), &g.deal().hands);
        let p = g.player().unwrap();
        let ally = (team >> p & 1) == (team >> seat & 1);
        let values = iter(g.legal_cards()).map(|c| {
            let mut child = *g;
            child.apply_legal(Action::Card(c));
            exhaustive(&child, seat)
        });
        if ally {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// The solver's position value (for every seat), card values and card bounds equal plain
    /// minimax on random endgames of the last three and four tricks, every contract, both rule
    /// sets, with and without doubling, at every position within a trick; and tightening the
    /// bounds with `card_below` gives the values.
    #[test]
    fn solver_equals_exhaustive_minimax_on_endgames() {
        let mut rng = Pcg64::seed_from_u64(21);
        let mut solver = Solver::new();
        let (mut checked, mut doubled, mut ace_in_hand, mut ran_away, mut open) = (0, 0, 0, 0, 0);
        for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
            for decl in Declaration::ALL {
                if decl == Declaration::Pass && !rules.playout_on_pass {
                    // All passed: the deal ends at once (checked in the last test).
                    continue;
                }
                let mut n = 0;
                while n < 40 {
                    let (left, extra) = (rng.gen_range(3..=4), rng.gen_range(0..4));
                    let Some(g) = random_position(&mut rng, decl, rules, left, extra) else { continue };
                    n += 1;
                    let me = g.player().unwrap();
                    let values = solver.card_values(&g).unwrap();
                    assert_eq!(
                        values.iter().map(|v| v.0).collect::<Vec<_>>(),
                        iter(g.legal_cards()).collect::<Vec<_>>()
                    );
                    for &(c, v) in &values {
                        let mut child = g;
                        child.apply_legal(Action::Card(c));
                        assert_eq!(v, exhaustive(&child, me), "card {c} in {g:?}");
                    }
                    let best = values.iter().map(|v| v.1).max().unwrap();
                    for seat in 0..4 {
                        let v = exhaustive(&g, seat);
                        assert_eq!(solver.value(&g, seat).unwrap(), v, "seat {seat} in {g:?}");
                        let (lo, hi) = solver.value_bounds(&g, seat).unwrap();
                        assert!(lo <= v && v <= hi, "seat {seat}: {v} in {lo}..={hi}");
                        assert_eq!(solver.value_below(&g, seat, hi).unwrap(), v);
                        assert_eq!(solver.value_below(&g, seat, v).unwrap(), v);
                        if lo < v {
                            assert_eq!(solver.value_below(&g, seat, v - 1).unwrap(), v - 1);
                        }
                    }
                    assert_eq!(solver.value(&g, me).unwrap(), best);
                    let bounds = solver.card_bounds(&g).unwrap();
                    assert!(bounds.iter().zip(&values).any(|(b, v)| v.1 == best && (b.1, b.2) == (best, best)));
                    for (&(c, v), &(b, lo, hi)) in values.iter().zip(&bounds) {
                        assert_eq!(c, b);
                        assert!(lo <= v && v <= hi && hi <= best, "card {c}: {v} in {lo}..={hi}, best {best}");
                        if lo < hi {
                            open += 1;
                            assert_eq!(solver.card_below(&g, c, hi).unwrap(), v.min(hi));
                            assert_eq!(solver.card_below(&g, c, v).unwrap(), v);
                        }
                    }
                    checked += 1;
                    doubled += g.contra_given() as u32;
                    if let Some(a) = g.contract().unwrap().called_ace() {
                        ace_in_hand += (0..4).any(|p| g.hand(p) & bit(a) != 0) as u32;
                        ran_away += g.davongelaufen().is_some() as u32;
                    }
                }
            }
        }
        assert_eq!(checked, 17 * 40);
        assert!(
            doubled > 100 && ace_in_hand > 20 && ran_away > 20 && open > 50,
            "{doubled} {ace_in_hand} {ran_away} {open}"
        );
    }

    /// Plain minimax over the solver's positions: the tally the player team takes from `p` on.
    fn minimax_tally(f: &Facts, p: &Pos) -> i32 {
        if p.done == 8 {
            return 0;
        }
        let values = iter(p.legal(f)).map(|c| {
            let (child, gain) = p.play(f, c);
            gain + minimax_tally(f, &child)
        });
        if f.in_team(p.actor()) {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// The static bounds at trick boundaries hold the minimax tally on random endgames of the
    /// last three and four tricks (every contract, both tally rules), and often beat the sure
    /// trumps' own points and the whole remaining tally; the leader often has cards to cash.
    #[test]
    fn static_bounds_hold_the_minimax_tally() {
        let mut rng = Pcg64::seed_from_u64(34);
        let (mut checked, mut beyond_trumps, mut capped, mut exact, mut cashed) = (0, 0, 0, 0, 0);
        for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
            for (k, &decl) in GAMES.iter().enumerate().cycle().take(8 * 150) {
                let left = 3 + (k % 2) as u8;
                let Some(g) = random_position(&mut rng, decl, rules, left, 0) else { continue };
                let f = Facts::of(&g, g.contract().unwrap(), g.declarer().unwrap());
                let p = Pos::of(&g, &f);
                let (lo, hi) = f.bounds(&p);
                let v = minimax_tally(&f, &p);
                assert!(lo <= v && v <= hi, "{lo} <= {v} <= {hi} in {g:?}");
                let live = p.live();
                let total = f.k * set_points(live) as i32 + f.t * left as i32;
                let mine = live & f.trumps & p.team_cards(f.team);
                let theirs = live & f.trumps & !mine;
                let trump = f.order.trump_suit();
                let above = |a: CardSet, b: CardSet| {
                    f.order.strongest(b, trump).map_or(a, |t| a & f.beaten_by[t as usize & 31])
                };
                let sure = |x: CardSet| f.k * set_points(x) as i32 + f.t * (x != 0) as i32;
                beyond_trumps += (lo > sure(above(mine, theirs))) as u32;
                capped += (hi < total - sure(above(theirs, mine))) as u32;
                exact += (lo == v || hi == v) as u32;
                cashed += (f.cash(&p) != 0) as u32;
                checked += 1;
            }
        }
        assert!(
            checked > 2000 && beyond_trumps > 100 && capped > 100 && exact > 100 && cashed > 300,
            "{checked} {beyond_trumps} {capped} {exact} {cashed}"
        );
    }

    /// Along random games the solver's position follows the game: the same legal cards (the
    /// called Ace's rules included), the same runner, the tally of each trick.
    #[test]
    fn positions_follow_the_game() {
        let mut rng = Pcg64::seed_from_u64(5);
        let mut ran_away = 0;
        for k in 0..600 {
            let rules = if k % 2 == 0 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
            let Some(mut g) = random_game(&mut rng, GAMES[k % 8], rules) else { continue };
            let f = Facts::of(&g, g.contract().unwrap(), g.declarer().unwrap());
            let mut p = Pos::of(&g, &f);
            let mut tally = 0;
            while !g.finished() {
                assert_eq!(p.legal(&f), g.legal_cards(), "{g:?}");
                assert_eq!(distinct(&f, &p) & !g.legal_cards(), 0);
                let c = random_card(&mut rng, &g);
                g.apply(Action::Card(c)).unwrap();
                let gain;
                (p, gain) = p.play(&f, c);
                tally += gain;
                if !g.finished() {
                    let q = Pos::of(&g, &f);
                    assert_eq!(
                        (p.hands, p.trick, p.leader, p.len, p.done),
                        (q.hands, q.trick, q.leader, q.len, q.done)
                    );
                    assert_eq!(p.runner, q.runner);
                    if p.len > 0 {
                        assert_eq!((p.led, p.winning, p.win), (q.led, q.winning, q.win));
                    }
                }
            }
            ran_away += g.davongelaufen().is_some() as u32;
            let s = g.settlement().unwrap();
            let tricks: u32 = (0..4).filter(|&s| f.in_team(s)).map(|s| g.tricks_won()[s as usize]).sum();
            assert_eq!(tally, f.k * s.team_points as i32 + f.t * tricks as i32);
            assert_eq!(f.pay[f.level(tally)].map(|x| x as i32), s.payments);
        }
        assert!(ran_away > 5, "{ran_away}");
    }

    /// Canonical forms keep each seat's card count, the order of every run's cards left and who
    /// holds them, and map the table's best card back to a card held; some positions change.
    #[test]
    fn canonical_forms_keep_the_structure() {
        let mut rng = Pcg64::seed_from_u64(13);
        let mut changed = 0;
        for k in 0..400 {
            let Some(g) = random_position(&mut rng, GAMES[k % 8], Rules::SCHAFKOPFRL, 1 + (k % 6) as u8, 0) else {
                continue;
            };
            let f = Facts::of(&g, g.contract().unwrap(), g.declarer().unwrap());
            let p = Pos::of(&g, &f);
            let h = canonical(&f, p.hands);
            let held = p.live();
            let runs = f.groups[..f.n_groups].iter().fold(0, |m, g| m | g.mask);
            for (x, y) in h.iter().zip(&p.hands) {
                assert_eq!(x.count_ones(), y.count_ones());
                assert_eq!(x & !runs, y & !runs);
            }
            for g in &f.groups[..f.n_groups] {
                let owners = |hands: &[CardSet; 4]| -> Vec<usize> {
                    g.cards[..g.len].iter().filter_map(|&c| (0..4).find(|&s| hands[s] & bit(c) != 0)).collect()
                };
                assert_eq!(owners(&h), owners(&p.hands));
                assert_eq!((h[0] | h[1] | h[2] | h[3]) & g.mask, g.top[(held & g.mask).count_ones() as usize]);
                assert_eq!(g.len, g.mask.count_ones() as usize);
                assert!(g.cards[..g.len].iter().all(|&c| points(c) == points(g.cards[0])));
                assert_eq!(g.mask & f.no_merge, 0);
            }
            for c in iter(held) {
                assert_eq!(actual_card(&f, held, canonical_card(&f, held, c)), c);
            }
            changed += (h != p.hands) as u32;
        }
        assert!(changed > 100, "{changed}");
    }

    /// Merged cards: every legal card is represented, some positions merge, and the called Ace
    /// never merges.
    #[test]
    fn equivalent_cards_are_merged() {
        let mut rng = Pcg64::seed_from_u64(8);
        let mut merged = 0;
        for k in 0..400 {
            let Some(g) = random_position(&mut rng, GAMES[k % 8], Rules::SCHAFKOPFRL, 6, (k % 4) as u8) else {
                continue;
            };
            let f = Facts::of(&g, g.contract().unwrap(), g.declarer().unwrap());
            let p = Pos::of(&g, &f);
            let d = distinct(&f, &p);
            assert_eq!(d & !g.legal_cards(), 0);
            assert_ne!(d, 0);
            if let Some(x) = f.called {
                assert_eq!(d & bit(ace(x)), g.legal_cards() & bit(ace(x)));
            }
            merged += (d != g.legal_cards()) as u32;
        }
        assert!(merged > 20, "{merged}");
    }

    #[test]
    fn positions_outside_the_tricks_are_refused_and_finished_games_pay() {
        let mut rng = Pcg64::seed_from_u64(3);
        let g = Game::new(&Deal::random(&mut rng), Rules::SCHAFKOPFRL);
        let mut s = Solver::new();
        assert!(s.value(&g, 0).unwrap_err().to_string().contains("tricks"));
        assert!(s.card_values(&g).is_err());
        let mut g = random_position(&mut rng, Declaration::Wenz, Rules::STANDARD, 1, 0).unwrap();
        while !g.finished() {
            let c = random_card(&mut rng, &g);
            g.apply(Action::Card(c)).unwrap();
        }
        assert_eq!(s.value(&g, 2).unwrap(), g.returns()[2] as i64);
        assert!(s.card_values(&g).unwrap().is_empty());
        // All passed under the standard rules: the game is over and pays nothing.
        let g = random_game(&mut rng, Declaration::Pass, Rules::STANDARD);
        assert!(g.is_none());
    }
}

//! The rules of one Setback deal (spec §1.2–§1.5) and of a game to 11 (§1.6).
//!
//! Everything is dealer-relative: player 0 is the dealer, 1 the first bidder, 2 the dealer's
//! partner, 3 the dealer's right; team `i % 2`, so team 0 is the dealer's team.
//! [`Deal`] is a small `Copy` value so that tree walks clone it per child.

use super::cards::{self, bit, game_points, lower, rank, suit, trick_order, Card, CardSet, JACK};
use crate::error::{Error, Result};
use rand::Rng;

/// Cards dealt to each player.
pub const CARDS_PER_HAND: usize = 6;
/// Bid values: Pass 0, Two 2, Three 3, Four 4.
pub const BIDS: [u8; 4] = [0, 2, 3, 4];

/// The bids allowed over a high bid of `high` (0 = none), in the order of [`BIDS`] (§1.3): Pass,
/// any higher bid, and the dealer (`dealer_turn`) may take a Four from a Four.
pub fn legal_bids(high: u8, dealer_turn: bool) -> impl Iterator<Item = u8> {
    BIDS.into_iter().filter(move |&b| b == 0 || b > high || (b == 4 && high == 4 && dealer_turn))
}

/// Score a team must reach to win a game.
pub const WIN_THRESHOLD: i32 = 11;
const NONE: u8 = u8::MAX;

/// Where a deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Players bid, dealer's left first, dealer last.
    Auction,
    /// The high bidder leads the first card, which sets trump.
    Establish,
    /// Trump is set; tricks are being played.
    Playout,
    /// Every card has been played, or nobody bid.
    Finished,
}

/// One deal: the four hands, the auction and the playout, with the bookkeeping the scoring and
/// the abstraction need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The hands as dealt, dealer-relative.
    pub(crate) dealt: [CardSet; 4],
    /// Cards still held.
    pub(crate) hands: [CardSet; 4],
    pub(crate) num_bids: u8,
    pub(crate) bids: [u8; 4],
    pub(crate) high_bid: u8,
    pub(crate) high_bidder: u8,
    pub(crate) trump: u8,
    pub(crate) leader: u8,
    pub(crate) trick: [Card; 4],
    pub(crate) trick_len: u8,
    /// Position (relative to the leader) of the card winning the current trick.
    pub(crate) trick_winner: u8,
    /// [`crate::cards::TrickOrder::power`] of that card (0 between tricks).
    pub(crate) trick_best: u8,
    pub(crate) tricks_done: u8,
    /// `H` flag of the playout key: trick 1 is complete and was opened by a rank >= Jack.
    pub(crate) high_flag: bool,
    /// Lowest trump rank dealt to each player (0 = none), fixed when trump is set.
    pub(crate) hand_low: [u8; 4],
    /// Lowest trump rank played so far, current trick included (0 = none).
    pub(crate) trick_low: u8,
    /// Lowest trump rank in completed tricks (0 = none) and the team that took it.
    pub(crate) low_taken: u8,
    pub(crate) low_taken_team: u8,
    /// Team that took the Jack of trump (NONE if not yet).
    pub(crate) jack_taken: u8,
    /// Game points captured by each team in completed tricks.
    pub(crate) game_pts: [u8; 2],
    /// Dealer-relative players who showed out of trump on a trump-led completed trick.
    pub(crate) voids: u8,
    /// Every suit each player has shown void in (bit `4 * player + suit`): a follower who plays
    /// neither the suit led nor trump has none of the suit led (trumping in reveals nothing).
    pub(crate) shown_voids: u16,
    /// Team dealt the highest trump; lowest trump rank dealt; whether the Jack of trump was dealt.
    pub(crate) high_team: u8,
    pub(crate) low_dealt: u8,
    pub(crate) jack_dealt: bool,
    /// Game points of all 24 dealt cards.
    pub(crate) game_pts_dealt: u8,
    pub(crate) exhausted: bool,
    /// Where the deal stands, kept up to date by every move: tree walks ask at every node.
    pub(crate) phase: Phase,
}

impl Deal {
    /// A deal from four 6-card hands, dealer-relative (index 0 = dealer).
    pub fn from_hands(hands: [CardSet; 4]) -> Result<Deal> {
        let mut all = 0u64;
        for (i, h) in hands.iter().enumerate() {
            if h.count_ones() as usize != CARDS_PER_HAND || h >> 52 != 0 {
                return Err(Error::invalid(
                    format!("hand {i}"),
                    cards::set_names(*h),
                    format!("exactly {CARDS_PER_HAND} cards"),
                ));
            }
            if all & h != 0 {
                return Err(Error::invalid(
                    "hands",
                    cards::set_names(all & h),
                    "four disjoint hands (these cards are dealt twice)",
                ));
            }
            all |= h;
        }
        let game_pts_dealt = cards::iter(all).map(|c| game_points(rank(c))).sum();
        Ok(Deal {
            dealt: hands,
            hands,
            num_bids: 0,
            bids: [NONE; 4],
            high_bid: 0,
            high_bidder: NONE,
            trump: NONE,
            leader: NONE,
            trick: [NONE; 4],
            trick_len: 0,
            trick_winner: 0,
            trick_best: 0,
            tricks_done: 0,
            high_flag: false,
            hand_low: [0; 4],
            trick_low: 0,
            low_taken: 0,
            low_taken_team: NONE,
            jack_taken: NONE,
            game_pts: [0; 2],
            voids: 0,
            shown_voids: 0,
            high_team: NONE,
            low_dealt: 0,
            jack_dealt: false,
            game_pts_dealt,
            exhausted: false,
            phase: Phase::Auction,
        })
    }

    /// Deals a shuffled deck the original's way: packets of 3 starting at the dealer's left
    /// (cards 0–2 to player 1, 3–5 to player 2, 6–8 to player 3, 9–11 to the dealer, …).
    pub fn from_deck(deck: &[Card; 52]) -> Deal {
        let mut hands = [0u64; 4];
        for (i, &c) in deck.iter().take(4 * CARDS_PER_HAND).enumerate() {
            hands[(i / 3 + 1) % 4] |= bit(c);
        }
        Deal::from_hands(hands).expect("a permutation of the deck deals four disjoint hands")
    }

    /// A uniformly random deal (Fisher–Yates shuffle, then [`Deal::from_deck`]).
    pub fn random<R: Rng>(rng: &mut R) -> Deal {
        let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
        crate::cards::shuffle(&mut deck, rng);
        Deal::from_deck(&deck)
    }

    /// A random deal drawn from a PCG-64 generator seeded with `seed`.
    pub fn seeded(seed: u64) -> Deal {
        Deal::random(&mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed))
    }

    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Dealer-relative index of the player to act, or `None` when the deal is finished.
    pub fn to_act(&self) -> Option<u8> {
        match self.phase() {
            Phase::Auction => Some((self.num_bids + 1) % 4),
            Phase::Finished => None,
            _ => Some((self.leader + self.trick_len) % 4),
        }
    }

    /// Dealer-relative index of the player to act at a decision point (the deal must not be
    /// finished); cheaper than [`Deal::to_act`] for tree walks.
    #[inline]
    pub fn actor(&self) -> u8 {
        if self.num_bids < 4 {
            (self.num_bids + 1) % 4
        } else {
            (self.leader + self.trick_len) % 4
        }
    }

    /// The hands as dealt.
    pub fn dealt(&self) -> [CardSet; 4] {
        self.dealt
    }
    /// The cards each player still holds.
    pub fn hands(&self) -> [CardSet; 4] {
        self.hands
    }
    /// Trump suit, once set.
    pub fn trump(&self) -> Option<u8> {
        (self.trump != NONE).then_some(self.trump)
    }
    /// The high bid (0 = none yet) and its bidder.
    pub fn high_bid(&self) -> (u8, Option<u8>) {
        (self.high_bid, (self.high_bidder != NONE).then_some(self.high_bidder))
    }
    /// Bids made so far, in bidding order (player 1 first).
    pub fn bids(&self) -> Vec<u8> {
        (0..self.num_bids as usize).map(|k| self.bids[(k + 1) % 4]).collect()
    }
    /// Cards of the current trick in play order.
    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }
    /// Number of completed tricks.
    pub fn tricks_done(&self) -> u8 {
        self.tricks_done
    }
    /// The suits each player has shown void in, as a bit set of suits per dealer-relative player.
    pub fn shown_voids(&self) -> [u8; 4] {
        std::array::from_fn(|p| ((self.shown_voids >> (4 * p)) & 15) as u8)
    }
    /// Whether the deal's score can no longer change (spec §2.8); training stops here.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted
    }
    /// Whether every card has been played or nobody bid.
    pub fn is_finished(&self) -> bool {
        self.phase() == Phase::Finished
    }

    /// Legal bids of the player to act (§1.3), in the order Pass, Two, Three, Four.
    pub fn legal_bids(&self) -> Vec<u8> {
        if self.phase() != Phase::Auction {
            return Vec::new();
        }
        legal_bids(self.high_bid, self.num_bids == 3).collect()
    }

    /// Makes a bid; an illegal bid is refused and leaves the deal unchanged.
    pub fn bid(&mut self, b: u8) -> Result<()> {
        let legal = self.legal_bids();
        if !legal.contains(&b) {
            let allowed = if legal.is_empty() {
                "no bid: the auction is over".to_string()
            } else {
                format!("one of {:?}", legal)
            };
            return Err(Error::invalid("bid", b, allowed));
        }
        self.apply_bid(b);
        Ok(())
    }

    /// Applies a bid known to be legal.
    pub(crate) fn apply_bid(&mut self, b: u8) {
        let p = (self.num_bids + 1) % 4;
        self.bids[p as usize] = b;
        if b != 0 {
            self.high_bid = b;
            self.high_bidder = p;
        }
        self.num_bids += 1;
        if self.num_bids == 4 {
            if self.high_bid == 0 {
                self.exhausted = true;
                self.phase = Phase::Finished;
            } else {
                self.leader = self.high_bidder;
                self.phase = Phase::Establish;
            }
        }
    }

    /// Legal cards of the player to act (§1.4): any card to lead; otherwise the suit led or
    /// any trump when holding the suit led, anything when void in it.
    pub fn legal_cards(&self) -> CardSet {
        match self.phase() {
            Phase::Establish | Phase::Playout => self.playable(),
            Phase::Auction | Phase::Finished => 0,
        }
    }

    /// Legal cards of the player to act, once the auction is over and the deal is not finished.
    #[inline]
    pub(crate) fn playable(&self) -> CardSet {
        let hand = self.hands[self.actor() as usize];
        if self.trick_len == 0 {
            return hand;
        }
        trick_order(self.trump).legal_after(hand, self.trick[0])
    }

    /// Plays a card; an illegal card is refused and leaves the deal unchanged.
    pub fn play_card(&mut self, c: Card) -> Result<()> {
        let legal = self.legal_cards();
        if c >= 52 || legal & bit(c) == 0 {
            let name = if c < 52 { cards::card_name(c) } else { c.to_string() };
            let allowed = if legal == 0 {
                match self.phase() {
                    Phase::Auction => "no card: the auction is not over".to_string(),
                    _ => "no card: the deal is finished".to_string(),
                }
            } else {
                format!("one of {}", cards::set_names(legal))
            };
            return Err(Error::invalid("card", name, allowed));
        }
        self.apply_card(c);
        Ok(())
    }

    /// Plays the first card of the playout, which sets trump. Out of line: once per deal path;
    /// with it in line, every card play would save and restore registers.
    #[cold]
    #[inline(never)]
    fn establish_and_play(&mut self, c: Card) {
        self.establish(suit(c));
        self.play(c);
    }

    /// Sets trump to `s` and records the facts fixed at that moment.
    fn establish(&mut self, s: u8) {
        self.trump = s;
        self.phase = Phase::Playout;
        let tm = cards::SUIT_MASK[s as usize];
        let mut high = 0u8;
        let mut low = 0u8;
        for p in 0..4 {
            let t = self.dealt[p] & tm;
            if t != 0 {
                let lo = rank(cards::lowest(t));
                let hi = rank(cards::highest(t));
                self.hand_low[p] = lo;
                if hi > high {
                    high = hi;
                    self.high_team = (p % 2) as u8;
                }
                if low == 0 || lo < low {
                    low = lo;
                }
            }
        }
        self.low_dealt = low;
        let all: CardSet = self.dealt.iter().fold(0, |a, h| a | h);
        self.jack_dealt = all & bit(cards::card(JACK, s)) != 0;
    }

    /// Plays a card known to be legal. Tree walks play most of their moves here, so it is
    /// written with few branches; kept out of line (in line, the walk's code grew and ran
    /// slower, measured side by side).
    #[inline(never)]
    pub(crate) fn apply_card(&mut self, c: Card) {
        if self.trump == NONE {
            return self.establish_and_play(c);
        }
        self.play(c)
    }

    /// Plays a legal card once trump is set.
    #[inline(always)]
    fn play(&mut self, c: Card) {
        let order = trick_order(self.trump);
        let p = (self.leader + self.trick_len) % 4;
        self.hands[p as usize] &= !bit(c);
        let (r, s) = (rank(c), suit(c));
        let is_trump = s == self.trump;
        self.trick_low = lower(self.trick_low, if is_trump { r } else { 0 });
        // Both suits (`trick[0]` is NONE before the lead), then a select: which way a branch
        // would go is unpredictable.
        let (own, first) = (order.suit(c), order.suit(self.trick[0]));
        let led = if self.trick_len == 0 { own } else { first };
        // A follower who plays neither the suit led nor trump has none of the suit led.
        self.shown_voids |= (order.shows_void(c, led) as u16) << (4 * p + led);
        let strength = order.power(c, led);
        self.trick_winner = if strength > self.trick_best { self.trick_len } else { self.trick_winner };
        self.trick_best = self.trick_best.max(strength);
        // `& 3` proves the index in range (fewer than 4 cards before this one).
        self.trick[(self.trick_len & 3) as usize] = c;
        self.trick_len += 1;
        if self.trick_len == 4 {
            self.complete_trick();
        }
    }

    // Kept out of line: one card in four completes a trick, and the common path stays small.
    #[inline(never)]
    fn complete_trick(&mut self) {
        let winner = (self.leader + self.trick_winner) % 4;
        let team = winner % 2;
        let played = self.trick.iter().fold(0, |set, &c| set | bit(c));
        let order = trick_order(self.trump);
        let trumps = played & order.trumps();
        // Selects rather than branches below: which way they go is unpredictable.
        // The trick's lowest trump (if any) is the only Low candidate it holds.
        let lowest_trump = if trumps != 0 { rank(cards::lowest(trumps)) } else { 0 };
        let low = lower(self.low_taken, lowest_trump);
        self.low_taken_team = if low != self.low_taken { team } else { self.low_taken_team };
        self.low_taken = low;
        let jack = trumps & bit(cards::card(JACK, self.trump)) != 0;
        self.jack_taken = if jack { team } else { self.jack_taken };
        // On a trump lead, a player who did not follow with trump has none: the voids the trick
        // showed, turned from leader-relative to dealer-relative.
        if trumps & bit(self.trick[0]) != 0 {
            let off_trump = order.voids_shown(&self.trick);
            self.voids |= ((off_trump << self.leader) | (off_trump >> (4 - self.leader))) & 15;
        }
        let gp: u8 = self.trick.iter().map(|&c| game_points(rank(c))).sum();
        self.game_pts[team as usize] += gp;
        if self.tricks_done == 0 {
            self.high_flag = rank(self.trick[0]) >= JACK;
        }
        self.tricks_done += 1;
        if self.tricks_done == 6 {
            self.phase = Phase::Finished;
        }
        self.leader = winner;
        self.trick_len = 0;
        self.trick_best = 0;
        self.trick = [NONE; 4];
        self.exhausted = self.score_decided();
    }

    /// §2.8: trump set, Low, Jack and Game all decided.
    fn score_decided(&self) -> bool {
        if self.trump == NONE {
            return false;
        }
        let low = self.low_taken == self.low_dealt;
        let jack = !self.jack_dealt || self.jack_taken != NONE;
        let taken = self.game_pts[0] + self.game_pts[1];
        let left = self.game_pts_dealt - taken;
        let diff = (self.game_pts[0] as i32 - self.game_pts[1] as i32).abs();
        let game = left == 0 || (left as i32) < diff;
        low && jack && game
    }

    /// Points each team earned before the setback rule (None until the score is decided).
    pub fn raw_points(&self) -> Option<[i32; 2]> {
        if !self.exhausted {
            return None;
        }
        Some(if self.high_bid == 0 { [0, 0] } else { self.bid_points() })
    }

    /// High, Low, Jack and Game points of a decided deal that had a bid, counted with selects
    /// rather than branches: tree walks score every leaf, and which way each point went is
    /// unpredictable. Once decided, High and Low are taken, and the Jack if it was dealt.
    #[inline]
    fn bid_points(&self) -> [i32; 2] {
        let jack = self.jack_dealt as i32;
        let game = (self.game_pts[0] != self.game_pts[1]) as i32;
        let team1 = self.high_team as i32
            + self.low_taken_team as i32
            + (jack & (self.jack_taken == 1) as i32)
            + (self.game_pts[1] > self.game_pts[0]) as i32;
        [2 + jack + game - team1, team1]
    }

    /// The score of a decided deal after the setback rule: a bidding team short of its bid
    /// scores minus the bid; the other team keeps what it took.
    #[inline]
    fn decided_score(&self) -> [i32; 2] {
        if self.high_bid == 0 {
            return [0, 0];
        }
        let [p0, p1] = self.bid_points();
        let (bid, bidders) = (self.high_bid as i32, self.high_bidder % 2);
        [if bidders == 0 && p0 < bid { -bid } else { p0 }, if bidders == 1 && p1 < bid { -bid } else { p1 }]
    }

    /// The deal's score per team after the setback rule (None until the score is decided).
    pub fn score(&self) -> Option<[i32; 2]> {
        self.exhausted.then(|| self.decided_score())
    }

    /// Team 0's score minus team 1's (the training payoff), once decided (0 before).
    #[inline]
    pub fn payoff(&self) -> f64 {
        if !self.exhausted {
            return 0.0;
        }
        let [s0, s1] = self.decided_score();
        (s0 - s1) as f64
    }
}

/// The running score of a game to 11 between the two fixed partnerships (absolute teams:
/// team 0 = seats West+East, team 1 = North+South; seats West 0, North 1, East 2, South 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameScore {
    /// Score of each absolute team.
    pub scores: [i32; 2],
}

impl GameScore {
    /// Adds a deal's dealer-relative score, the dealer sitting at `dealer_seat` (0..4).
    pub fn add_deal(&mut self, dealer_seat: u8, deal_score: [i32; 2]) -> Result<()> {
        if dealer_seat > 3 {
            return Err(Error::invalid("dealer seat", dealer_seat, "0 (West), 1 (North), 2 (East) or 3 (South)"));
        }
        // The dealer's team is the absolute team of the dealer's seat.
        let dealer_team = (dealer_seat % 2) as usize;
        self.scores[dealer_team] += deal_score[0];
        self.scores[1 - dealer_team] += deal_score[1];
        Ok(())
    }

    /// The winning team: the unique maximum once it is at least 11; None while tied at >= 11 or
    /// below 11.
    pub fn winner(&self) -> Option<usize> {
        let [a, b] = self.scores;
        let max = a.max(b);
        if max >= WIN_THRESHOLD && a != b {
            Some(if a > b { 0 } else { 1 })
        } else {
            None
        }
    }
}

//! The record of a deal's tricks as they are played: each trick's cards in play order, its
//! leader and winner, and the card points and tricks each seat has taken — kept the same way by
//! every game with a fixed number of seats and tricks (Schafkopf 4 × 8, Skat 3 × 10).

use super::set::Card;
use super::trick::{Suits, TrickOrder};

/// The tricks of one deal at a table of `SEATS` seats, `TRICKS` tricks in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tricks<const SEATS: usize, const TRICKS: usize> {
    /// The cards of each trick in play order (the current one holds `in_trick` cards).
    cards: [[Card; SEATS]; TRICKS],
    /// The leader of each trick, the current one's and those before it.
    leaders: [u8; TRICKS],
    /// The winner of each completed trick.
    winners: [u8; TRICKS],
    done: u8,
    in_trick: u8,
    points: [u8; SEATS],
    won: [u8; SEATS],
}

impl<const SEATS: usize, const TRICKS: usize> Tricks<SEATS, TRICKS> {
    /// No card played yet; seat `leader` leads the first trick.
    pub fn new(leader: u8) -> Self {
        Tricks {
            cards: [[0; SEATS]; TRICKS],
            leaders: [leader; TRICKS],
            winners: [0; TRICKS],
            done: 0,
            in_trick: 0,
            points: [0; SEATS],
            won: [0; SEATS],
        }
    }

    /// Completed tricks.
    #[inline]
    pub fn done(&self) -> u8 {
        self.done
    }

    /// Whether the current trick is the last of the deal.
    #[inline]
    pub fn last(&self) -> bool {
        self.done as usize + 1 == TRICKS
    }

    /// The cards of trick `t` in play order: all of a completed trick, those played so far of
    /// the current one, none of a later one.
    pub fn trick(&self, t: usize) -> &[Card] {
        let n = match t.cmp(&(self.done as usize)) {
            std::cmp::Ordering::Less => SEATS,
            std::cmp::Ordering::Equal if t < TRICKS => self.in_trick as usize,
            _ => 0,
        };
        &self.cards[t.min(TRICKS - 1)][..n]
    }

    /// The cards of the current trick in play order (none once every trick is played).
    #[inline]
    pub fn current(&self) -> &[Card] {
        self.trick(self.done as usize)
    }

    /// The card led to the current trick, if one was.
    #[inline]
    pub fn led(&self) -> Option<Card> {
        self.current().first().copied()
    }

    /// The leader of trick `t` (of the last one for later `t`).
    #[inline]
    pub fn leader(&self, t: usize) -> u8 {
        self.leaders[t.min(TRICKS - 1)]
    }

    /// The winner of completed trick `t`.
    #[inline]
    pub fn winner(&self, t: usize) -> Option<u8> {
        (t < self.done as usize).then(|| self.winners[t])
    }

    /// The seat that played card position `i` (0 = the lead) of trick `t`.
    #[inline]
    pub fn seat_of(&self, t: usize, i: usize) -> u8 {
        ((self.leader(t) as usize + i) % SEATS) as u8
    }

    /// Card points each seat has taken in tricks.
    pub fn points(&self) -> [u32; SEATS] {
        self.points.map(u32::from)
    }

    /// Tricks each seat has taken.
    pub fn won(&self) -> [u32; SEATS] {
        self.won.map(u32::from)
    }

    /// Sets the leader of the first trick before any card is played (positions set up by hand
    /// in tests).
    pub fn set_first_leader(&mut self, leader: u8) {
        debug_assert!(self.done == 0 && self.in_trick == 0, "the first trick has begun");
        self.leaders = [leader; TRICKS];
    }

    /// Adds card `c` of the seat whose turn it is to the current trick. When that completes
    /// the trick, the trick goes to its winner under `order`, who takes the cards' points (as
    /// `points` counts them) and leads the next trick; the winner is returned.
    pub fn play<S: Suits>(&mut self, c: Card, order: &TrickOrder<S>, points: impl Fn(Card) -> u8) -> Option<u8> {
        let t = self.done as usize;
        debug_assert!(t < TRICKS, "every trick is played");
        self.cards[t][self.in_trick as usize] = c;
        self.in_trick += 1;
        if (self.in_trick as usize) < SEATS {
            return None;
        }
        let trick = &self.cards[t];
        let winner = self.seat_of(t, order.winner(trick).unwrap_or(0));
        self.winners[t] = winner;
        self.points[winner as usize] += trick.iter().map(|&c| points(c)).sum::<u8>();
        self.won[winner as usize] += 1;
        self.done += 1;
        self.in_trick = 0;
        if t + 1 < TRICKS {
            self.leaders[t + 1] = winner;
        }
        Some(winner)
    }
}

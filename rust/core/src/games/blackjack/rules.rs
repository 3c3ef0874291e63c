//! The rules of Blackjack++ on a compact public state: the cards, hand values, the Stand and
//! Hit transitions and the payoffs. Both the generic [`Game`](crate::game::Game) implementation
//! and the direct tree builder use these functions, so they cannot disagree.

/// Action id of Stand at a decision.
pub const STAND: u32 = 0;
/// Action id of Hit at a decision (followed by a chance draw whose action id is the card).
pub const HIT: u32 = 1;
/// Card values, 1 (ace) to 10 (ten or face card).
pub const CARDS: std::ops::RangeInclusive<u8> = 1..=10;
/// Number of card values (and of down cards a player may hold).
pub const NUM_CARDS: usize = 10;

/// Probability of drawing card `c` from the infinite deck: 1/13 for 1..9, 4/13 for 10.
#[inline]
pub fn card_prob(c: u8) -> f64 {
    if c == 10 {
        4.0 / 13.0
    } else {
        1.0 / 13.0
    }
}

/// What the table shows of one player's hand: its up cards and whether it is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand {
    /// Sum of the up cards, aces counted as 1.
    pub up_sum: u8,
    /// Whether an up card is an ace.
    pub ace: bool,
    /// Number of hits made.
    pub hits: u8,
    /// Whether the player has finished (stood, reached 20 in up cards, or used its hits).
    pub done: bool,
}

impl Hand {
    /// A hand with one up card.
    pub fn new(up: u8) -> Hand {
        Hand { up_sum: up, ace: up == 1, hits: 0, done: false }
    }

    /// Value of the hand with down card `down`: down + up cards, one ace counted as 11 where
    /// that does not exceed 21; 0 when bust (over 21).
    #[inline]
    pub fn value(&self, down: u8) -> u8 {
        let mut s = down + self.up_sum;
        if (self.ace || down == 1) && s <= 11 {
            s += 10;
        }
        if s > 21 {
            0
        } else {
            s
        }
    }
}

/// The public state between decisions: both hands and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Table {
    /// The hands of P0 and P1.
    pub hands: [Hand; 2],
    /// The player to act (meaningless once both are done).
    pub to_act: u8,
}

impl Table {
    /// The start of a game: P0 and P1 hold their up cards and P0 acts.
    pub fn new(up0: u8, up1: u8) -> Table {
        Table { hands: [Hand::new(up0), Hand::new(up1)], to_act: 0 }
    }

    /// Whether the game is over (both players done).
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.hands[0].done && self.hands[1].done
    }

    /// The acting player stands.
    pub fn stand(mut self) -> Table {
        let p = self.to_act as usize;
        self.hands[p].done = true;
        self.to_act = 1 - self.to_act;
        self
    }

    /// The acting player hits and draws `card`; `max_hits` 0 means no limit.
    pub fn hit(mut self, card: u8, max_hits: u32) -> Table {
        let p = self.to_act as usize;
        let h = &mut self.hands[p];
        h.up_sum += card;
        h.ace |= card == 1;
        h.hits += 1;
        h.done = h.up_sum >= 20 || (max_hits > 0 && u32::from(h.hits) >= max_hits);
        if !self.hands[1 - p].done {
            self.to_act = 1 - self.to_act;
        }
        self
    }

    /// Payoffs of P0 and P1 when P0 holds down card `d0` and P1 `d1` (the dealer gets
    /// `3 - P0 - P1`): the higher hand takes the pot `3 + hits`, a tie splits it, the dealer
    /// takes it when both bust; each player pays its own hits.
    #[inline]
    pub fn payoffs(&self, d0: u8, d1: u8) -> [f64; 2] {
        let [a, b] = self.hands;
        let (h0, h1) = (f64::from(a.hits), f64::from(b.hits));
        let pot = 3.0 + h0 + h1;
        let (s0, s1) = (a.value(d0), b.value(d1));
        if s0 > s1 {
            [pot - h0, -h1]
        } else if s1 > s0 {
            [-h0, pot - h1]
        } else if s0 == 0 {
            [-h0, -h1]
        } else {
            [pot / 2.0 - h0, pot / 2.0 - h1]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_values_follow_the_rules() {
        assert_eq!(Hand::new(1).value(10), 21); // ace up, ten down
        assert_eq!(Hand::new(10).value(1), 21); // ace down
        assert_eq!(Hand::new(6).value(6), 12);
        let h = Table::new(9, 2).hit(9, 0).hit(5, 0);
        assert_eq!(h.hands[0].up_sum, 18);
        assert_eq!(h.hands[0].value(4), 0); // 22: bust
        assert_eq!(h.hands[0].value(3), 21);
        let aces = Table::new(1, 2).hit(1, 0).hands[0]; // two aces up: only one counts 11
        assert_eq!(aces.value(9), 21);
        assert_eq!(aces.value(10), 12);
    }

    #[test]
    fn turns_alternate_and_stop_at_twenty_or_max_hits() {
        let t = Table::new(6, 6).hit(4, 2);
        assert_eq!((t.to_act, t.hands[0].done, t.hands[0].hits), (1, false, 1));
        let t = t.stand();
        assert_eq!((t.to_act, t.hands[1].done), (0, true));
        let t = t.hit(10, 2); // P0: 6+4+10 = 20 in up cards: done
        assert!(t.is_terminal());
        let t = Table::new(6, 6).stand().hit(3, 1); // P1 uses its one hit
        assert!(t.is_terminal());
        let t = Table::new(2, 2).stand().hit(3, 0); // P0 done: P1 keeps acting
        assert_eq!((t.to_act, t.hands[1].done), (1, false));
    }

    #[test]
    fn payoffs_sum_to_three_with_the_dealer() {
        let t = Table::new(6, 6).hit(10, 1).hit(10, 1); // both bust with any down card > 5
        assert_eq!(t.payoffs(8, 8), [-1.0, -1.0]); // dealer takes the pot of 5
        assert_eq!(t.payoffs(1, 8), [4.0, -1.0]); // 17 beats bust
        assert_eq!(t.payoffs(2, 2), [1.5, 1.5]); // 18 = 18: split 5
        let s = Table::new(6, 6).stand().stand();
        assert_eq!(s.payoffs(5, 4), [3.0, 0.0]);
    }
}

//! The auction (spec §3, ISkO 3.3): the 63 legal bid values and who bids to whom.
//!
//! Seats are 0 Vorhand (V), 1 Mittelhand (M), 2 Hinterhand (H). Mittelhand bids to Vorhand: the
//! bidder passes or names any legal value above the current one (jumps allowed), the hearer holds
//! (accepts that value) or passes; this repeats until one of them passes. Then Hinterhand bids to
//! the survivor the same way. If neither Mittelhand nor Hinterhand named a value, Vorhand alone
//! may bid 18 (and declares at 18) or pass; if all three pass without a bid the deal is thrown
//! in. Otherwise the last survivor declares at the highest value named.

use crate::error::{Error, Result};

/// The 63 legal bid values: every value a game can have (spec §3), ascending.
pub const BID_VALUES: [u16; 63] = [
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66, 70, 72, 77, 80, 81, 84, 88,
    90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165,
    168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264,
];

/// Whether `v` is a legal bid value.
pub fn is_bid_value(v: u16) -> bool {
    BID_VALUES.binary_search(&v).is_ok()
}

/// One step of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// Name a value (the bidder; Vorhand alone only 18).
    Bid(u16),
    /// Accept the value named (the hearer).
    Hold,
    /// Drop out.
    Pass,
}

/// How the auction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `declarer` plays at `bid`.
    Declarer {
        /// The seat.
        declarer: u8,
        /// The highest value named (or held).
        bid: u16,
    },
    /// Everyone passed without a bid.
    ThrownIn,
}

/// The state of an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Auction {
    /// The highest value named so far (0: none).
    current: u16,
    /// The seat that bids now (Mittelhand, then Hinterhand, then Vorhand alone).
    bidder: u8,
    /// The seat that answers (Vorhand, then the survivor); the bidder itself when Vorhand is alone.
    hearer: u8,
    /// Whether the hearer is to answer the value just named.
    answering: bool,
    /// The result, once over.
    outcome: Option<Outcome>,
}

impl Default for Auction {
    fn default() -> Self {
        Auction::new()
    }
}

impl Auction {
    /// A new auction: Mittelhand bids to Vorhand.
    pub const fn new() -> Auction {
        Auction { current: 0, bidder: 1, hearer: 0, answering: false, outcome: None }
    }

    /// The seat to act; None once over.
    pub fn to_act(&self) -> Option<u8> {
        match self.outcome {
            Some(_) => None,
            None if self.answering => Some(self.hearer),
            None => Some(self.bidder),
        }
    }

    /// The highest value named so far (0: none).
    pub fn current(&self) -> u16 {
        self.current
    }

    /// How the auction ended; None while it runs.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether Vorhand is bidding alone (Mittelhand and Hinterhand passed without a bid).
    fn vorhand_alone(&self) -> bool {
        self.bidder == 0
    }

    /// The legal calls of the seat to act, in order: `Pass`, then `Hold` (the hearer) or the
    /// values above the current one (the bidder; Vorhand alone only 18).
    pub fn legal(&self) -> Vec<Call> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut v = vec![Call::Pass];
        if self.answering {
            v.push(Call::Hold);
        } else if self.vorhand_alone() {
            v.push(Call::Bid(BID_VALUES[0]));
        } else {
            v.extend(BID_VALUES.iter().filter(|&&x| x > self.current).map(|&x| Call::Bid(x)));
        }
        v
    }

    /// Whether `call` is legal for the seat to act.
    pub fn is_legal(&self, call: Call) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        match call {
            Call::Pass => true,
            Call::Hold => self.answering,
            Call::Bid(x) if self.vorhand_alone() => !self.answering && x == BID_VALUES[0],
            Call::Bid(x) => !self.answering && x > self.current && is_bid_value(x),
        }
    }

    /// Why `call` is not legal, in words; None if it is.
    pub fn why_illegal(&self, call: Call) -> Option<&'static str> {
        if self.is_legal(call) {
            return None;
        }
        Some(match call {
            _ if self.outcome.is_some() => "the auction is over",
            Call::Hold => "only the hearer holds; the bidder names a value or passes",
            Call::Bid(_) if self.answering => "the hearer holds or passes",
            Call::Bid(_) if self.vorhand_alone() => "Vorhand alone may only bid 18 or pass",
            Call::Bid(x) if !is_bid_value(x) => "not a game value",
            _ => "a bid must be above the current value",
        })
    }

    /// Plays `call` (refused, the auction unchanged, when illegal).
    pub fn apply(&mut self, call: Call) -> Result<()> {
        if let Some(why) = self.why_illegal(call) {
            return Err(Error::invalid("call", format!("{call:?}"), why));
        }
        self.apply_legal(call);
        Ok(())
    }

    /// Plays a legal `call`.
    pub fn apply_legal(&mut self, call: Call) {
        match (call, self.answering) {
            (Call::Bid(x), _) => {
                self.current = x;
                if self.vorhand_alone() {
                    self.outcome = Some(Outcome::Declarer { declarer: 0, bid: x });
                } else {
                    self.answering = true;
                }
            }
            (Call::Hold, _) => self.answering = false,
            // The bidder drops out: Hinterhand bids to the survivor next, or the auction ends.
            (Call::Pass, false) => self.next_bidder(self.hearer),
            // The hearer drops out: the bidder survives.
            (Call::Pass, true) => {
                self.answering = false;
                self.next_bidder(self.bidder)
            }
        }
    }

    /// The round of the current bidder is over with `survivor` left.
    fn next_bidder(&mut self, survivor: u8) {
        match self.bidder {
            1 => {
                self.bidder = 2;
                self.hearer = survivor;
            }
            2 if self.current == 0 => {
                // Nobody named a value: Vorhand may still play.
                self.bidder = 0;
                self.hearer = 0;
            }
            2 => self.outcome = Some(Outcome::Declarer { declarer: survivor, bid: self.current }),
            _ => self.outcome = Some(Outcome::ThrownIn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value a suit, grand or null game can have (spec §7): suit 9..12 × 2..18,
    /// grand 24 × 2..11, null 23, 35, 46, 59.
    #[test]
    fn the_63_values_are_the_attainable_game_values() {
        let mut all: Vec<u16> = (9..=12).flat_map(|b| (2..=18).map(move |m| b * m)).collect();
        all.extend((2..=11).map(|m| 24 * m));
        all.extend([23, 35, 46, 59]);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all, BID_VALUES);
        assert_eq!((BID_VALUES.len(), BID_VALUES[0], BID_VALUES[62]), (63, 18, 264));
        assert!(is_bid_value(59) && !is_bid_value(19) && !is_bid_value(0));
    }

    fn run(calls: &[Call]) -> Auction {
        let mut a = Auction::new();
        for &c in calls {
            a.apply(c).unwrap();
        }
        a
    }

    #[test]
    fn who_acts_and_what_is_legal() {
        let mut a = Auction::new();
        assert_eq!(a.to_act(), Some(1));
        assert_eq!(a.legal().len(), 64);
        assert!(a.apply(Call::Hold).is_err());
        a.apply(Call::Bid(30)).unwrap();
        assert_eq!((a.to_act(), a.legal()), (Some(0), vec![Call::Pass, Call::Hold]));
        assert!(a.apply(Call::Bid(33)).is_err());
        a.apply(Call::Hold).unwrap();
        assert_eq!(a.to_act(), Some(1));
        assert_eq!(a.legal()[1], Call::Bid(33));
        assert!(a.apply(Call::Bid(30)).is_err() && a.apply(Call::Bid(31)).is_err());
        let before = a;
        assert!(a.apply(Call::Bid(19)).is_err());
        assert_eq!(a, before);
    }

    /// Spec §12, bidding sequences (a)–(d).
    #[test]
    fn reference_sequences() {
        use Call::*;
        // (a) M 18, V hold, M 20, V pass; H pass → M declares at 20.
        let a = run(&[Bid(18), Hold, Bid(20), Pass, Pass]);
        assert_eq!(a.outcome(), Some(Outcome::Declarer { declarer: 1, bid: 20 }));
        // (b) M pass; H 18, V hold, H 20, V hold, H 22, V pass → H at 22.
        let b = run(&[Pass, Bid(18), Hold, Bid(20), Hold, Bid(22), Pass]);
        assert_eq!(b.outcome(), Some(Outcome::Declarer { declarer: 2, bid: 22 }));
        // (c) M pass, H pass, V plays → V at 18.
        let mut c = run(&[Pass, Pass]);
        assert_eq!((c.to_act(), c.legal()), (Some(0), vec![Pass, Bid(18)]));
        assert!(c.apply(Bid(20)).is_err());
        c.apply(Bid(18)).unwrap();
        assert_eq!(c.outcome(), Some(Outcome::Declarer { declarer: 0, bid: 18 }));
        // (d) all pass → thrown in.
        let d = run(&[Pass, Pass, Pass]);
        assert_eq!((d.outcome(), d.to_act()), (Some(Outcome::ThrownIn), None));
        assert!(d.legal().is_empty());
        // V holds everything M bids, M passes, H then bids to V; V survives when H passes.
        let e = run(&[Bid(18), Hold, Pass, Bid(20), Hold, Pass]);
        assert_eq!(e.outcome(), Some(Outcome::Declarer { declarer: 0, bid: 20 }));
        // M wins against V, then H outbids M.
        let f = run(&[Bid(18), Pass, Bid(27), Hold, Bid(48), Pass]);
        assert_eq!(f.outcome(), Some(Outcome::Declarer { declarer: 2, bid: 48 }));
    }
}

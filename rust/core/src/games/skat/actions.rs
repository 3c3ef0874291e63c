//! Actions, their names, and the phases of a game.
//!
//! | phase | actions | names |
//! |---|---|---|
//! | `bidding` | pass, hold, a bid value | `pass`, `hold`, `18`, `20`, … `264` |
//! | `skat` | play Hand or take up the skat | `hand`, `pickup` |
//! | `discard` | put two of the twelve cards away | the two cards, higher card id first: `SA ST` |
//! | `declare` | announce a contract | `clubs`, `grand hand schneider`, `null ouvert hand`, … |
//! | `tricks` | play a card | `CJ`, `HT` (suit C S H D, rank 7 8 9 T J Q K A) |
//!
//! Names are parsed case-insensitively; a discard's two cards in either order.

use super::bidding::Call;
use super::cards::{name as card_name, parse_card, NOTATION};
use super::contract::{Contract, CONTRACT_GRAMMAR};
use crate::cards::{highest, lowest, Card, CardSet};
use crate::error::{Error, Result};

/// The phases of a game, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The auction.
    Bidding,
    /// The declarer chooses Hand or pickup.
    Skat,
    /// The declarer (after a pickup) puts two cards away.
    Discard,
    /// The declarer announces the contract.
    Declare,
    /// Ten tricks.
    Tricks,
    /// The game is over (played out or thrown in).
    Finished,
}

impl Phase {
    /// The name: `bidding`, `skat`, `discard`, `declare`, `tricks`, `finished`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::Skat => "skat",
            Phase::Discard => "discard",
            Phase::Declare => "declare",
            Phase::Tricks => "tricks",
            Phase::Finished => "finished",
        }
    }
}

/// One decision of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A call in the auction.
    Call(Call),
    /// Hand (true: the skat stays down) or pickup (false).
    Hand(bool),
    /// The two cards put away after a pickup.
    Discard(CardSet),
    /// The contract announced.
    Declare(Contract),
    /// A card played to a trick.
    Card(Card),
}

impl Action {
    /// The name (see the module documentation).
    pub fn name(self) -> String {
        match self {
            Action::Call(Call::Pass) => "pass".into(),
            Action::Call(Call::Hold) => "hold".into(),
            Action::Call(Call::Bid(v)) => v.to_string(),
            Action::Hand(true) => "hand".into(),
            Action::Hand(false) => "pickup".into(),
            Action::Discard(set) if set.count_ones() == 2 && set >> 32 == 0 => {
                format!("{} {}", card_name(highest(set)), card_name(lowest(set)))
            }
            Action::Discard(set) => format!("discard {set:#x}"),
            Action::Declare(c) => c.name(),
            Action::Card(c) if c < 32 => card_name(c),
            Action::Card(c) => format!("card {c}"),
        }
    }

    /// Parses the name of an action of `phase`.
    pub fn parse(text: &str, phase: Phase) -> Result<Action> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |allowed: &str| Error::invalid("action", text, allowed);
        match phase {
            Phase::Bidding => match t.as_str() {
                "pass" => Ok(Action::Call(Call::Pass)),
                "hold" => Ok(Action::Call(Call::Hold)),
                _ => t
                    .parse::<u16>()
                    .map(|v| Action::Call(Call::Bid(v)))
                    .map_err(|_| bad("the bidding takes pass, hold or a bid value such as 18")),
            },
            Phase::Skat => match t.as_str() {
                "hand" => Ok(Action::Hand(true)),
                "pickup" => Ok(Action::Hand(false)),
                _ => Err(bad("the skat phase takes hand or pickup")),
            },
            Phase::Discard => match NOTATION.parse_set(&t) {
                Ok(set) if set.count_ones() == 2 => Ok(Action::Discard(set)),
                _ => Err(bad("a discard names two distinct cards, e.g. SA ST")),
            },
            Phase::Declare => Contract::parse(&t).map(Action::Declare).map_err(|_| bad(CONTRACT_GRAMMAR)),
            Phase::Tricks => parse_card(&t).map(Action::Card).map_err(|_| {
                bad("the tricks take a card: suit C, S, H or D and rank 7, 8, 9, T, J, Q, K or A, e.g. CJ")
            }),
            Phase::Finished => Err(bad("none: the game is finished")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::contract::GameType;
    use super::*;

    #[test]
    fn names_round_trip() {
        let sa_st = NOTATION.parse_set("SA ST").unwrap();
        for (a, phase, name) in [
            (Action::Call(Call::Pass), Phase::Bidding, "pass"),
            (Action::Call(Call::Hold), Phase::Bidding, "hold"),
            (Action::Call(Call::Bid(18)), Phase::Bidding, "18"),
            (Action::Hand(true), Phase::Skat, "hand"),
            (Action::Hand(false), Phase::Skat, "pickup"),
            (Action::Discard(sa_st), Phase::Discard, "SA ST"),
            (Action::Declare(Contract::plain(GameType::Grand)), Phase::Declare, "grand"),
            (Action::Card(parse_card("CJ").unwrap()), Phase::Tricks, "CJ"),
        ] {
            assert_eq!(a.name(), name);
            assert_eq!(Action::parse(name, phase).unwrap(), a);
        }
        assert_eq!(Action::parse("st sa", Phase::Discard).unwrap(), Action::Discard(sa_st));
        assert!(Action::parse("SA SA", Phase::Discard).is_err());
        assert!(Action::parse("SA", Phase::Discard).is_err());
        assert!(Action::parse("hold", Phase::Skat).unwrap_err().to_string().contains("hand or pickup"));
        assert!(Action::parse("x", Phase::Bidding).unwrap_err().to_string().contains("bid value"));
        assert!(Action::parse("CJ", Phase::Finished).is_err());
        assert!(Action::parse("clubs hand", Phase::Declare).is_ok());
        assert_eq!(Action::Card(40).name(), "card 40");
    }
}

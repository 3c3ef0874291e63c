//! Actions, their names and the seed's 43 action ids (spec §1), and the phases of a game.
//!
//! | id | action | name |
//! |---|---|---|
//! | 0 | pass | `pass` |
//! | 1, 2, 3 | Sauspiel calling the Schellen, Gras, Eichel Ace | `sauspiel:S`, `sauspiel:G`, `sauspiel:E` |
//! | 4 | Wenz | `wenz` |
//! | 5–8 | Solo Schellen, Herz, Gras, Eichel | `solo:S` … `solo:E` |
//! | 9 | double (contra in the contra round, retour in the retour round) | `contra`, `retour` |
//! | 10 | do not double | `no` |
//! | 11 + card | play the card (`4 * rank + suit`, S7 = 0 … EA = 31) | `EO`, `H10`, … |

use super::cards::{name as card_name, parse_card};
use super::contract::{Declaration, DECLARATION_NAMES};
use crate::cards::Card;
use crate::error::{Error, Result};

/// Number of action ids.
pub const NUM_ACTIONS: usize = 43;
/// Id of doubling (contra or retour).
pub const DOUBLE: u8 = 9;
/// Id of not doubling.
pub const NO_DOUBLE: u8 = 10;
/// Id of the card 0; card `c` has id `CARD_BASE + c`.
pub const CARD_BASE: u8 = 11;

/// The names of the action ids, by id: doubling is `double` (`contra` or `retour` by round).
pub fn action_names() -> Vec<String> {
    (0..NUM_ACTIONS as u8)
        .filter_map(Action::from_id)
        .map(|a| match a {
            Action::Double(true) => "double".to_string(),
            a => a.name_in(Phase::Tricks),
        })
        .collect()
}

/// The phases of a game, in order; the retour round only follows a contra.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Each seat declares once, from the seat after the dealer.
    Bidding,
    /// Each seat may give contra once, in the same order.
    Contra,
    /// After a contra, each seat may give retour once.
    Retour,
    /// Eight tricks.
    Tricks,
    /// The game is over.
    Finished,
}

impl Phase {
    /// The name: `bidding`, `contra`, `retour`, `tricks`, `finished`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::Contra => "contra",
            Phase::Retour => "retour",
            Phase::Tricks => "tricks",
            Phase::Finished => "finished",
        }
    }
}

/// One decision of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A declaration in the auction.
    Declare(Declaration),
    /// Double (true: contra or retour) or not, in the contra and retour rounds.
    Double(bool),
    /// A card played to a trick.
    Card(Card),
}

impl Action {
    /// The action id (see the module documentation).
    pub const fn id(self) -> u8 {
        match self {
            Action::Declare(d) => d.id(),
            Action::Double(true) => DOUBLE,
            Action::Double(false) => NO_DOUBLE,
            Action::Card(c) => CARD_BASE.saturating_add(c),
        }
    }

    /// Whether the action is one of the 43 (not, say, a card id beyond the deck or a Sauspiel
    /// calling Herz).
    pub fn is_valid(self) -> bool {
        Action::from_id(self.id()) == Some(self)
    }

    /// The bit of the action in a mask over action ids (0 for an invalid action).
    #[inline]
    pub fn bit(self) -> u64 {
        if self.is_valid() {
            1u64 << self.id()
        } else {
            0
        }
    }

    /// The action of an id, if it is one.
    pub fn from_id(id: u8) -> Option<Action> {
        match id {
            0..=8 => Declaration::from_id(id).map(Action::Declare),
            DOUBLE => Some(Action::Double(true)),
            NO_DOUBLE => Some(Action::Double(false)),
            _ if (id as usize) < NUM_ACTIONS => Some(Action::Card(id - CARD_BASE)),
            _ => None,
        }
    }

    /// The action's name; doubling is `contra` in the contra round and `retour` otherwise.
    pub fn name_in(self, phase: Phase) -> String {
        match self {
            Action::Declare(d) => d.name(),
            Action::Double(true) => if phase == Phase::Contra { "contra" } else { "retour" }.into(),
            Action::Double(false) => "no".into(),
            Action::Card(c) if c < 32 => card_name(c),
            Action::Card(c) => format!("card {c}"),
        }
    }

    /// Parses the name of an action of `phase` (case-insensitive): a declaration in the bidding,
    /// `no` or `contra` in the contra round, `no` or `retour` in the retour round, a card name
    /// (`EO`, `H10`) in the tricks.
    pub fn parse(text: &str, phase: Phase) -> Result<Action> {
        let t = text.trim().to_ascii_lowercase();
        match phase {
            Phase::Bidding => Declaration::parse(&t).map(Action::Declare).map_err(|_| {
                Error::invalid("action", text, format!("the bidding takes a declaration: {DECLARATION_NAMES}"))
            }),
            Phase::Contra | Phase::Retour => {
                let double = phase.name();
                match t.as_str() {
                    "no" => Ok(Action::Double(false)),
                    _ if t == double => Ok(Action::Double(true)),
                    _ => Err(Error::invalid("action", text, format!("the {double} round takes no or {double}"))),
                }
            }
            Phase::Tricks => parse_card(&t).map(Action::Card).map_err(|_| {
                Error::invalid(
                    "action",
                    text,
                    "the tricks take a card: suit E, G, H or S and rank 7, 8, 9, U, O, K, 10 or A, e.g. EO or H10",
                )
            }),
            Phase::Finished => Err(Error::invalid("action", text, "none: the game is finished")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_names_parse() {
        for id in 0..NUM_ACTIONS as u8 {
            let a = Action::from_id(id).unwrap();
            assert_eq!(a.id(), id);
            let phase = match a {
                Action::Declare(_) => Phase::Bidding,
                Action::Double(_) => Phase::Contra,
                Action::Card(_) => Phase::Tricks,
            };
            assert_eq!(Action::parse(&a.name_in(phase), phase).unwrap(), a);
        }
        assert_eq!(Action::from_id(43), None);
        for bad in [
            Action::Card(32),
            Action::Card(255),
            Action::Declare(Declaration::Sauspiel(1)),
            Action::Declare(Declaration::Solo(9)),
        ] {
            assert!(!bad.is_valid() && bad.bit() == 0, "{bad:?}");
            assert!(!bad.name_in(Phase::Tricks).is_empty());
        }
        assert_eq!(Action::from_id(11), Some(Action::Card(0)));
        assert_eq!(Action::parse("retour", Phase::Retour).unwrap(), Action::Double(true));
        assert!(Action::parse("contra", Phase::Retour).unwrap_err().to_string().contains("no or retour"));
        assert!(Action::parse("EO", Phase::Bidding).unwrap_err().to_string().contains("declaration"));
        assert!(Action::parse("pass", Phase::Tricks).unwrap_err().to_string().contains("card"));
        assert!(Action::parse("pass", Phase::Finished).is_err());
        assert_eq!(Action::Card(31).name_in(Phase::Tricks), "EA");
    }
}

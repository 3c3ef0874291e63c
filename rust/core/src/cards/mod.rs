//! Cards and tricks, shared by every trick-taking game and its solvers.
//!
//! * [`set`]: a card is a small integer (`rank * 4 + suit`), a set of cards a 64-bit mask;
//! * [`Deck`]: the 52-card and the 32-card deck, and shuffling;
//! * [`Notation`]: how each game writes its cards (`TD`, `EO`, `H10`, `CJ`, …);
//! * [`TrickOrder`]: one contract's trick rules over its [`Suits`] (every card's effective suit
//!   and rank: [`NaturalSuits`] computed, a [`SuitTable`] tabulated): follow suit, the winner of a
//!   trick, the voids a card shows;
//! * [`Tricks`]: the record of a deal's tricks as they are played (cards, leaders, winners, the
//!   points and tricks each seat took).
//!
//! Nothing here knows a game: a game picks a deck and a notation and builds its contracts' suit
//! tables (as constants: [`SuitTable::new`] is a `const fn`).

mod deck;
mod notation;
pub mod set;
mod trick;
mod tricks;

pub use deck::{shuffle, Deck};
pub use notation::Notation;
pub use set::{bit, highest, iter, lowest, random_member, Card, CardSet};
pub use trick::{Follow, NaturalSuits, SuitTable, Suits, TrickOrder, NO_SUIT, TRUMP_SUIT};
pub use tricks::Tricks;

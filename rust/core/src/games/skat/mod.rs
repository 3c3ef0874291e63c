//! Skat under the International Skat Order (spec `skat.md`), on the shared card engine.
//!
//! * [`cards`] — the 32-card deck as Skat writes it (`CJ`, `ST`), card points, hands;
//! * [`contract`] — suit, grand and null contracts with their announcements, names, trick
//!   orders and values;
//! * [`bidding`] — the 63 bid values and the auction (Mittelhand to Vorhand, Hinterhand to the
//!   survivor, Vorhand alone);
//! * [`actions`] — actions, their names, the phases;
//! * [`deal`] — deals (three hands and the skat), given or drawn from per-index random streams;
//! * [`game`] — the game from the deal to the result: auction, Hand or pickup, discard,
//!   declaration, tricks; illegal actions refused with the reason;
//! * [`scoring`] — matadors, game value, overbid, list score and Seeger-Fabian points;
//! * [`view`] — what one seat sees;
//! * [`agents`] — the agent trait, `random` and `rules`;
//! * [`features`] — a fixed-length numeric encoding of a view and the action ids;
//! * [`pimc`] — Perfect Information Monte Carlo card play: exact worlds, a perfect-information
//!   solver, the `pimc` agent;
//! * [`iss`] — game records of the International Skat Server: read, replayed under its rules,
//!   checked against their results, written;
//! * [`hybrid`] — the hybrid agent: a learned policy ([`learned`]) early, PIMC late;
//! * [`matches`] — games between agents, matches and tournaments on [`crate::arena`];
//! * [`registry`] — agent spec strings, parsed in one place.

pub mod actions;
pub mod agents;
pub mod bidding;
pub mod cards;
pub mod contract;
pub mod deal;
pub mod features;
pub mod game;
pub mod hybrid;
pub mod iss;
pub mod learned;
pub mod matches;
pub mod pimc;
pub mod registry;
pub mod scoring;
pub mod view;

pub use actions::{Action, Phase};
pub use bidding::{Auction, Call, Outcome, BID_VALUES};
pub use contract::{Contract, GameType};
pub use deal::Deal;
pub use game::{Game, Rules};
pub use scoring::{GameResult, Score};
pub use view::{OwnedView, View};

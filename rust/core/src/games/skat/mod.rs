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
//! * [`agents`] — the agent trait and the agents that need no search;
//! * [`pimc`] — Perfect Information Monte Carlo card play: exact worlds, a perfect-information
//!   solver, the `pimc` agent.

pub mod actions;
pub mod agents;
pub mod bidding;
pub mod cards;
pub mod contract;
pub mod deal;
pub mod game;
pub mod pimc;
pub mod scoring;
pub mod view;

pub use actions::{Action, Phase};
pub use bidding::{Auction, Call, Outcome, BID_VALUES};
pub use contract::{Contract, GameType};
pub use deal::Deal;
pub use game::Game;
pub use scoring::{GameResult, Score};
pub use view::{OwnedView, View};

//! Setback (Auction Pitch): rules, abstraction and training. See specs/setback.md.
//!
//! * [`cards`] — cards and card sets;
//! * [`rules`] — one deal (auction, playout, scoring) and the game to 11;
//! * [`abstraction`] — the baseline abstraction's actions and their card mappings;
//! * [`keys`] — compact baseline keys, printable as the original's strings;
//! * [`table`] — the concurrent infoset table;
//! * [`train`] — chance-sampled CFR and external-sampling MCCFR over deals, in parallel;
//! * [`bootstrap`] — the score-aware auction game of the bootstrap stage;
//! * [`store`] — checkpoint and strategy files;
//! * [`play`] — agents, duplicate matches and the strategy database;
//! * [`pimc`] — Perfect Information Monte Carlo: sampled worlds, a perfect-information solver, the agent;
//! * [`registry`] — names and spec strings in one place: agents, algorithms, stages, training
//!   files, training requests.

pub mod abstraction;
pub mod bootstrap;
pub mod cards;
mod index;
pub mod keys;
pub mod pimc;
pub mod play;
pub mod registry;
pub mod rules;
pub mod store;
pub mod table;
pub mod train;

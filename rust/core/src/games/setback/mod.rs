//! Setback (Auction Pitch): rules, abstraction and training. See specs/setback.md.
//!
//! * [`cards`] — cards and card sets;
//! * [`rules`] — one deal (auction, playout, scoring) and the game to 11;
//! * [`abstraction`] — the baseline abstraction's actions and their card mappings;
//! * [`keys`] — compact baseline keys, printable as the original's strings;
//! * [`store`] — what a training run records: stage, algorithm, average strategy, and its
//!   checkpoint and strategy files;
//! * [`bootstrap`] — the score-aware auction game of the bootstrap stage;
//! * [`train`] — chance-sampled CFR and external-sampling MCCFR over deals, in parallel, on the
//!   infoset table of [`crate::sampled`];
//! * [`play`] — agents, duplicate matches and the strategy database;
//! * [`pimc`] — Perfect Information Monte Carlo: sampled worlds, a perfect-information solver, the agent;
//! * [`features`], [`learned`] — a view as numbers, and policies learned from game logs;
//! * [`registry`] — names and spec strings in one place: agents, algorithms, stages, training
//!   files, training requests.

pub mod abstraction;
pub mod bootstrap;
pub mod cards;
pub mod features;
pub mod keys;
pub mod learned;
pub mod pimc;
pub mod play;
pub mod registry;
pub mod rules;
pub mod store;
pub mod train;

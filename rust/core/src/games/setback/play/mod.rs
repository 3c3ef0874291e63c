//! Playing whole Setback games: agents, duplicate matches, the strategy database. See specs/setback.md §4–§5.
//!
//! * [`view`] — what one player may see of a deal and of the game score;
//! * [`agent`] — the [`agent::Agent`] trait and an agent's checked move (agents are built from
//!   spec strings by [`super::registry`]);
//! * [`random`], [`rules_agent`], [`strategy_agent`] (trained tables or the database) — the agents;
//! * [`database`] — the SQLite strategy database: export and lookups (§4.1);
//! * [`hybrid`] — one agent's bids with another's card play (the database's bids, PIMC's play);
//! * [`game`] — a game to 11 with the dealer rotating and a reproducible stream of decks;
//! * [`matches`] — duplicate game pairs in parallel, win rate with a 95% confidence interval;
//! * [`actions`], [`log`] — moves as action ids and games as lines of a game log.

pub mod actions;
pub mod agent;
pub mod database;
pub mod game;
pub mod hybrid;
pub mod log;
pub mod matches;
pub mod random;
pub mod rules_agent;
pub mod strategy_agent;
pub mod view;

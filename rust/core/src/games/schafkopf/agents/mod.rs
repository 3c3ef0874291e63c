//! Schafkopf agents: the [`Agent`] trait and SchafkopfRL's `random`, `random-coward` and `rules`
//! players (the PIMC agents live in [`super::pimc`]; [`super::registry`] parses specs).

pub mod agent;
pub mod random;
pub mod rules_agent;

pub use crate::trick::RandomAgent;
pub use agent::{random_action, Agent, Schafkopf};

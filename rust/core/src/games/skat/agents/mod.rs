//! Skat agents: the [`Agent`] trait and the agents that need no search: `random` and `rules`
//! ([`super::registry`] parses agent specs).

pub mod agent;
pub mod rules_agent;

pub use crate::trick::RandomAgent;
pub use agent::{random_action, Agent, Skat};

//! Skat agents: the [`Agent`] trait and the agents that need no search: `random` and `rules`
//! ([`super::registry`] parses agent specs).

pub mod agent;
pub mod random;
pub mod rules_agent;

pub use agent::{check_action, random_action, Agent};

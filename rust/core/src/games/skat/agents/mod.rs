//! Skat agents: the [`Agent`] trait and the agents that need no search.

pub mod agent;

pub use agent::{check_action, random_action, Agent};

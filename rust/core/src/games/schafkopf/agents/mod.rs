//! Schafkopf agents: the [`Agent`] trait, SchafkopfRL's `random`, `random-coward` and `rules`
//! players, and the registry that parses agent spec strings.

pub mod agent;
pub mod random;
pub mod registry;
pub mod rules_agent;
pub mod uct;

pub use agent::{check_action, random_action, Agent};
pub use registry::{parse, SPECS};

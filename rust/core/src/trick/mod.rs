//! The layer every trick-taking game shares. A game names its view and its actions and says
//! what is legal ([`TrickGame`]); agents, random play, the check of an agent's action and the
//! hybrid of a learned policy and PIMC are written once, here and in [`crate::learn`], for
//! every game.

pub mod agent;
pub mod game;

pub use agent::{act_checked, act_valued_checked, Agent, RandomAgent};
pub use game::TrickGame;

//! The layer every trick-taking game shares. A game names its view and its actions and says
//! what is legal ([`TrickGame`]); agents, random play, the check of an agent's action and the
//! hybrid of a learned policy and PIMC are written once, here and in [`crate::learn`], for
//! every game; so are matches, tournaments, self-play and game logs ([`matches`]) on a game
//! that can be dealt and played to the end ([`MatchGame`]).

pub mod agent;
pub mod game;
pub mod matches;

pub use agent::{act_checked, act_valued_checked, Agent, RandomAgent};
pub use game::{MatchGame, TrickGame};
pub use matches::MatchSettings;

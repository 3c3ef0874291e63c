//! The arena: matches and tournaments between agents of any game, reproducibly and in parallel.
//!
//! * [`seating`] — seat protocols: which agent sits where in each game on one deal (the seed's
//!   halves `[a, a, b, b]` then `[b, b, a, a]`, or every balanced seating);
//! * [`stats`] — means with 95% confidence intervals;
//! * [`matches`] — the parallel match loop over deal indices: deals are played on a rayon pool
//!   and collected in index order, so results do not depend on the number of threads;
//! * [`shared`] — decisions shared between the seatings of a deal, each keyed by the history;
//! * [`table`] — tournaments over pairs of agents and their cross table;
//! * [`log`] — game logs: every game of a match as one JSON line, written in order, read back
//!   checked.
//!
//! Nothing here knows a game: a game hands in a function that plays deal `i` with a seating (or
//! in all its seatings).

pub mod log;
pub mod matches;
pub mod seating;
pub mod shared;
pub mod stats;
pub mod table;

pub use log::{Decision, GameLog, GameRecord, Header, LogPlace, LogWriter};
pub use matches::{play_indexed, play_pair, play_pair_tallied, quiet, MatchResult, PairResult, Progress};
pub use seating::Protocol;
pub use shared::DealChoices;
pub use stats::Estimate;
pub use table::{check_pair, tournament, CrossTable};

//! Sampled CFR, for any game.
//!
//! * [`table`] — a concurrent infoset table over compact integer keys (f32 accumulators in a
//!   shared arena, a sharded index, a per-thread slot cache), for games too big to compile:
//!   Setback's trainer keeps its own tuned walk over it;
//! * [`policy`] — average strategies over integer keys, the average rule and the argmax;
//! * [`files`] — checkpoint and strategy files over integer keys;
//! * [`seeds`] — key hashing and seeded random streams.
//!
//! Regret matching is [`crate::cfr::regret_matching`], shared with the full-width solvers.

pub mod files;
mod index;
pub mod policy;
pub mod seeds;
pub mod table;

pub use policy::{argmax, average_strategy, KeyedPolicy};
pub use table::{Record, SlotCache, Table};

/// A compact infoset key: any integer but `u64::MAX` (which marks an empty index bucket). A game
/// packs what its infoset keys hold into one; the number of actions must follow from the key.
pub type Key = u64;

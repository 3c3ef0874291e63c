//! Setback (Auction Pitch): rules, abstraction and training. See specs/setback.md.
//!
//! * [`cards`] — cards and card sets;
//! * [`rules`] — one deal (auction, playout, scoring) and the game to 11;
//! * [`abstraction`] — the baseline abstraction's actions and their card mappings;
//! * [`keys`] — compact baseline keys, printable as the original's strings.

pub mod abstraction;
pub mod cards;
pub mod keys;
pub mod rules;

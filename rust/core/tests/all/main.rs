//! The core's integration tests, one module per subject, in one test binary: with the release
//! profile's fat LTO every test binary is a whole-program build (2–3 minutes on two cores), so
//! one binary instead of 21 (docs/performance.md, "The test build").

mod blackjack_solve;
mod blackjack_tree;
mod common;
mod mccfr;
mod pimc_policy;
mod poker;
mod schafkopf_learned;
mod schafkopf_matches;
mod schafkopf_rules;
mod schafkopf_worlds;
mod setback_database;
mod setback_keys;
mod setback_learned;
mod setback_play;
mod setback_rules;
mod setback_train;
mod skat_learned;
mod skat_matches;
mod skat_precardplay;
mod skat_rules;
mod skat_search;

//! The core's integration tests, one module per subject, in one test binary: linked once
//! (with the release profile's fat LTO, each binary of its own took about 45 s to link).

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

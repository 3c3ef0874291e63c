//! Helpers shared by the integration tests.

use cfrkit_core::games::setback::keys;
use cfrkit_core::games::setback::train::Trainer;

/// Every infoset of a Setback trainer's table: its key and the bits of its regrets and strategy
/// weights, sorted by key (for bit-for-bit comparisons of runs).
pub fn table_of(t: &Trainer) -> Vec<(u64, Vec<u32>)> {
    t.table()
        .entries()
        .into_iter()
        .map(|(k, s)| (k, (0..2 * keys::key_num_actions(k) as u32).map(|i| t.table().load(s + i).to_bits()).collect()))
        .collect()
}

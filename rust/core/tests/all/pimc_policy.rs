//! The PIMC policy of compiled built-in games: its known exploitability on Kuhn and Leduc, and
//! the shape of the policy it gives.

use cfrkit_core::eval::best_response::exploitability;
use cfrkit_core::eval::pimc::{pimc_policy, pimc_probs, PimcChance, PimcTies};
use cfrkit_core::games::load_game;
use cfrkit_core::tree::PublicTree;

const MODES: [(PimcChance, PimcTies); 4] = [
    (PimcChance::Expectation, PimcTies::Lowest),
    (PimcChance::Expectation, PimcTies::Uniform),
    (PimcChance::Fixed, PimcTies::Lowest),
    (PimcChance::Fixed, PimcTies::Uniform),
];

fn pimc_exploitability(tree: &PublicTree, chance: PimcChance, ties: PimcTies) -> f64 {
    exploitability(tree, &pimc_probs(tree, None, chance, ties).unwrap()).unwrap()
}

#[test]
fn kuhn_pimc_is_exploitable_by_one_sixth() {
    let tree = load_game("kuhn").unwrap();
    for (chance, ties) in MODES {
        let x = pimc_exploitability(&tree, chance, ties);
        println!("kuhn PIMC ({}, ties {}): exploitability {x:.15}", chance.name(), ties.name());
        assert!((x - 1.0 / 6.0).abs() < 1e-9, "{x}");
    }
}

/// The reference says "about 0.5" (later chance averaged) and "about 0.6" (later chance
/// fixed): uniform ties give exactly that; the pure lowest-index policy is 13/30 when
/// averaged.
#[test]
fn leduc_pimc_exploitability() {
    let tree = load_game("leduc").unwrap();
    let expected = [13.0 / 30.0, 0.5, 0.6, 0.6];
    for ((chance, ties), want) in MODES.into_iter().zip(expected) {
        let x = pimc_exploitability(&tree, chance, ties);
        println!("leduc PIMC ({}, ties {}): exploitability {x:.15}", chance.name(), ties.name());
        assert!((x - want).abs() < 1e-6, "{x} != {want}");
    }
}

#[test]
fn policy_covers_every_key_and_is_pure() {
    let tree = load_game("leduc").unwrap();
    let p = pimc_policy(&tree, PimcChance::Expectation, PimcTies::Lowest).unwrap();
    assert_eq!(p.keys, tree.infosets.keys);
    for i in 0..p.len() {
        let r = &p.probs[p.range(i)];
        assert_eq!((r.iter().filter(|&&x| x == 1.0).count(), r.iter().sum::<f64>()), (1, 1.0));
    }
}

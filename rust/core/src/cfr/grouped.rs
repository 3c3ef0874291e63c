//! Solving under a coarser keying: information sets that share a key share one regret and
//! policy entry. The walk adds each information set's instantaneous regrets and average-policy
//! contributions as usual; the update sums a group's members (in id order), applies the rule to
//! the group, and hands the group's policy back to every member.

use super::{Algorithm, Step};
use crate::keying::Keying;
use crate::tree::PublicTree;
use std::sync::Arc;

/// Group-level state of a solver under a keying.
pub struct Grouped {
    keying: Arc<Keying>,
    pub(super) regrets: Vec<f64>,
    instant: Vec<f64>,
    pub(super) policy: Vec<f64>,
}

impl Grouped {
    /// Group state with uniform policies.
    pub fn new(keying: Arc<Keying>) -> Grouped {
        let n = keying.total_actions;
        let mut policy = vec![0.0; n];
        for g in 0..keying.len() {
            let (o, na) = (keying.offset[g] as usize, keying.num_actions(g));
            policy[o..o + na].fill(1.0 / na as f64);
        }
        Grouped { keying, regrets: vec![0.0; n], instant: vec![0.0; n], policy }
    }

    /// Ends the iteration (`step`) for `player`'s groups: consumes the members' instantaneous regrets
    /// (zeroing them) and writes the groups' next policies into the members' policy entries.
    pub fn update(
        &mut self,
        tree: &PublicTree,
        algorithm: Algorithm,
        step: Step,
        player: usize,
        fine_instant: &mut [f64],
        fine_policy: &mut [f64],
    ) {
        let k = &*self.keying;
        for g in 0..k.len() {
            let members = k.members_of(g);
            if tree.infosets.player[members[0] as usize] as usize != player {
                continue;
            }
            let (o, na) = (k.offset[g] as usize, k.num_actions(g));
            let inst = &mut self.instant[o..o + na];
            inst.fill(0.0);
            for &i in members {
                let src = tree.infosets.offset[i as usize] as usize;
                for (x, y) in inst.iter_mut().zip(&mut fine_instant[src..src + na]) {
                    *x += *y;
                    *y = 0.0;
                }
            }
            let regrets = &mut self.regrets[o..o + na];
            if !algorithm.uses_instant_regrets() {
                for (r, x) in regrets.iter_mut().zip(inst.iter()) {
                    *r += x;
                }
            }
            step.update(regrets, inst, &mut self.policy[o..o + na]);
            for &i in members {
                let dst = tree.infosets.offset[i as usize] as usize;
                fine_policy[dst..dst + na].copy_from_slice(&self.policy[o..o + na]);
            }
        }
    }

    /// The average policy on the tree's information sets: each member gets its group's
    /// normalised summed weights.
    pub fn average(&self, tree: &PublicTree, cumulative: &[f64]) -> Vec<f64> {
        let k = &*self.keying;
        let mut sums = k.gather(tree, cumulative);
        for g in 0..k.len() {
            let (o, na) = (k.offset[g] as usize, k.num_actions(g));
            let w = &mut sums[o..o + na];
            let total: f64 = w.iter().sum();
            for x in w.iter_mut() {
                *x = if total == 0.0 { 1.0 / na as f64 } else { *x / total };
            }
        }
        k.spread(tree, &sums)
    }
}

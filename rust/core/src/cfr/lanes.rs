//! The lane engine: the traversal every compiled game has (see [`walk`](super::walk)).

use super::engine::{Engine, Traversal};
use super::walk::{Disjoint, Plan, Walk};
use crate::error::Result;
use crate::tree::PublicTree;

/// Subtrees at least this many public nodes large are split across threads...
const SPLIT_SIZE: u32 = 2048;
/// ...and at least this fraction of the tree per thread, so that tasks stay few and coarse
/// (each task allocates its own scratch space).
const TASKS_PER_THREAD: usize = 16;

/// The lane walk's precomputed per-tree data and buffers.
pub struct LaneEngine {
    plan: Plan,
    /// The current policy lane-major per decision node (see [`Plan::write_lane_policy`]).
    lane_policy: Vec<f64>,
    /// The serial walk's scratch space and root values.
    scratch: Vec<f64>,
    values: Vec<f64>,
    split_size: u32,
}

impl LaneEngine {
    /// Prepares the walk of `tree` with current policy `policy`, to run on `threads` threads.
    pub fn new(tree: &PublicTree, policy: &[f64], threads: usize) -> Result<LaneEngine> {
        let plan = Plan::new(tree)?;
        let mut lane_policy = vec![0.0; plan.lane_policy_len()];
        for p in 0..tree.num_players {
            plan.write_lane_policy(policy, p, &mut lane_policy);
        }
        let split_size =
            SPLIT_SIZE.max((tree.num_nodes() / (threads.max(1) * TASKS_PER_THREAD)).min(u32::MAX as usize) as u32);
        Ok(LaneEngine {
            scratch: vec![0.0; plan.scratch_len(tree, plan.height())],
            values: vec![0.0; plan.root_lanes],
            lane_policy,
            plan,
            split_size,
        })
    }

    /// One player's traversal, specialised for `P` players.
    fn traverse_with<const P: usize>(&mut self, t: Traversal<'_>) {
        let a = t.arrays;
        let regrets = if t.to_instant { a.instant } else { a.regrets };
        let walk: Walk<P> = Walk {
            tree: t.tree,
            plan: &self.plan,
            policy: a.policy,
            lane_policy: &self.lane_policy,
            player: t.player,
            regrets: Disjoint::new(regrets),
            average: Disjoint::new(a.average),
            weight: t.weight,
            split_size: if t.parallel { self.split_size } else { u32::MAX },
        };
        walk.walk(self.plan.root, &walk.root_reach(), &mut self.values, &mut self.scratch);
    }
}

impl Engine for LaneEngine {
    fn name(&self) -> &'static str {
        "lanes"
    }

    fn sets_of(&self, player: usize) -> &[(u32, u32)] {
        &self.plan.sets_of[player]
    }

    fn policy_changed(&mut self, policy: &[f64], player: usize) {
        self.plan.write_lane_policy(policy, player, &mut self.lane_policy);
    }

    fn set_split_size(&mut self, nodes: u32) {
        self.split_size = nodes.max(1);
    }

    fn traverse(&mut self, t: Traversal<'_>) {
        match t.tree.num_players {
            1 => self.traverse_with::<1>(t),
            2 => self.traverse_with::<2>(t),
            3 => self.traverse_with::<3>(t),
            4 => self.traverse_with::<4>(t),
            n => unreachable!("Plan::new rejects {n} players"),
        }
    }
}

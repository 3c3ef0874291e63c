//! Full-width CFR-family solvers over compiled public trees.
//!
//! `cfr` and `cfr+` are exactly OpenSpiel's `CFRSolver` and `CFRPlusSolver` (alternating updates,
//! the same floating-point operations in the same order), so their exploitability trajectories
//! agree with OpenSpiel's digit for digit. `lcfr`, `dcfr` and `pcfr+` share the traversal.
//!
//! A traversal runs on one of two engines: lane vectors over the compiled tree (any game; the
//! one that matches OpenSpiel's arithmetic), or, for Blackjack++ trees, per-player ranges
//! ([`RangeWalk`]), which compute the same sums in another order at a fraction of the cost.

mod algorithm;
mod checkpoint;
mod grouped;
pub(crate) mod walk;

pub use algorithm::{regret_matching, Algorithm, Step, ALGORITHM_NAMES, DCFR_DEFAULTS};

use crate::error::Result;
use crate::games::blackjack::ranges::{Arrays, RangeWalk};
use crate::keying::Keying;
use crate::threads;
use crate::tree::PublicTree;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use walk::{Disjoint, Plan, Walk};

/// Subtrees at least this many public nodes large are split across threads...
const SPLIT_SIZE: u32 = 2048;
/// ...and at least this fraction of the tree per thread, so that tasks stay few and coarse
/// (each task allocates its own scratch space).
const TASKS_PER_THREAD: usize = 16;

/// A full-width CFR-family solver for one compiled game.
pub struct Solver {
    tree: Arc<PublicTree>,
    algorithm: Algorithm,
    alternating: bool,
    regrets: Vec<f64>,
    instant: Vec<f64>,
    cumulative_policy: Vec<f64>,
    policy: Vec<f64>,
    iteration: u64,
    pool: Arc<rayon::ThreadPool>,
    threads: usize,
    engine: Engine,
    /// Group-level state when solving under a coarser keying.
    grouped: Option<grouped::Grouped>,
}

/// How traversals are computed.
enum Engine {
    Lanes(Box<Lanes>),
    Ranges(Box<RangeWalk>),
}

/// The lane walk's precomputed per-tree data and buffers.
struct Lanes {
    plan: Plan,
    /// The current policy lane-major per decision node (see [`Plan::write_lane_policy`]).
    lane_policy: Vec<f64>,
    /// The serial walk's scratch space and root values.
    scratch: Vec<f64>,
    values: Vec<f64>,
    split_size: u32,
}

impl Lanes {
    fn new(tree: &PublicTree, policy: &[f64], threads: usize) -> Result<Lanes> {
        let plan = Plan::new(tree)?;
        let mut lane_policy = vec![0.0; plan.lane_policy_len()];
        for p in 0..tree.num_players {
            plan.write_lane_policy(policy, p, &mut lane_policy);
        }
        let split_size =
            SPLIT_SIZE.max((tree.num_nodes() / (threads * TASKS_PER_THREAD)).min(u32::MAX as usize) as u32);
        Ok(Lanes {
            scratch: vec![0.0; plan.scratch_len(tree, plan.height())],
            values: vec![0.0; plan.root_lanes],
            lane_policy,
            plan,
            split_size,
        })
    }
}

impl Solver {
    /// A solver with uniform initial policy. `threads` = 0 means the default thread count.
    /// `alternating` = false updates all players simultaneously from the same policy.
    pub fn new(tree: Arc<PublicTree>, algorithm: Algorithm, alternating: bool, threads: usize) -> Result<Solver> {
        Solver::with_keying(tree, None, algorithm, alternating, threads)
    }

    /// A solver that gives information sets sharing a key of `keying` one strategy.
    pub fn with_keying(
        tree: Arc<PublicTree>,
        keying: Option<Arc<Keying>>,
        algorithm: Algorithm,
        alternating: bool,
        threads: usize,
    ) -> Result<Solver> {
        // A tree whose keys recur across public nodes is solved grouped by its own keys.
        let keying = match keying {
            None if tree.shared_keys => Some(Arc::new(Keying::of_tree(&tree)?)),
            k => k,
        };
        let grouped = keying.filter(|k| !k.is_identity()).map(grouped::Grouped::new);
        let pool = threads::pool(threads)?;
        let threads = pool.current_num_threads();
        let n = tree.infosets.total_actions;
        let mut policy = vec![0.0; n];
        for i in 0..tree.infosets.len() {
            let off = tree.infosets.offset[i] as usize;
            let na = tree.infosets.num_actions(i);
            policy[off..off + na].fill(1.0 / na as f64);
        }
        let instant = if algorithm.uses_instant_regrets() || grouped.is_some() { vec![0.0; n] } else { vec![] };
        let ranges = if grouped.is_none() { RangeWalk::for_tree(&tree) } else { None };
        let engine = match ranges {
            Some(walk) => Engine::Ranges(Box::new(walk)),
            None => Engine::Lanes(Box::new(Lanes::new(&tree, &policy, threads)?)),
        };
        Ok(Solver {
            tree,
            algorithm,
            alternating,
            regrets: vec![0.0; n],
            instant,
            cumulative_policy: vec![0.0; n],
            policy,
            iteration: 0,
            pool: Arc::new(pool),
            threads,
            engine,
            grouped,
        })
    }

    /// The traversal engine: `"ranges"` for Blackjack++ trees, else `"lanes"`.
    pub fn engine(&self) -> &'static str {
        match self.engine {
            Engine::Lanes(_) => "lanes",
            Engine::Ranges(_) => "ranges",
        }
    }

    /// Switches to the lane engine (the one every game has), e.g. to compare engines.
    pub fn use_lanes(&mut self) -> Result<()> {
        if let Engine::Ranges(_) = self.engine {
            self.engine = Engine::Lanes(Box::new(Lanes::new(&self.tree, &self.policy, self.threads)?));
        }
        Ok(())
    }

    /// The compiled game.
    pub fn tree(&self) -> &Arc<PublicTree> {
        &self.tree
    }
    /// The update rule.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// Iterations done.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }
    /// Threads in use.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Sets the subtree size (in public nodes) from which the lane walk traverses children in
    /// parallel. Results do not depend on it; it only tunes speed.
    pub fn set_split_size(&mut self, nodes: u32) {
        if let Engine::Lanes(l) = &mut self.engine {
            l.split_size = nodes.max(1);
        }
    }
    /// Current (last-iterate) policy, indexed like the information sets' actions.
    pub fn current_policy(&self) -> &[f64] {
        &self.policy
    }
    /// Cumulative regrets.
    pub fn regrets(&self) -> &[f64] {
        &self.regrets
    }

    /// Runs `iterations` iterations; stops early (after a whole iteration) when `stop` becomes
    /// true. Returns the number of iterations done.
    pub fn run(&mut self, iterations: u64, stop: Option<&AtomicBool>) -> u64 {
        // With one thread everything runs on the calling thread: handing work to a pool costs
        // more than a whole Leduc iteration.
        if self.threads > 1 {
            let pool = self.pool.clone();
            pool.install(|| self.run_here(iterations, stop))
        } else {
            self.run_here(iterations, stop)
        }
    }

    fn run_here(&mut self, iterations: u64, stop: Option<&AtomicBool>) -> u64 {
        let mut done = 0;
        while done < iterations {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                break;
            }
            self.iterate();
            done += 1;
        }
        done
    }

    /// One iteration: each player's traversals, then its update (alternating), or all
    /// traversals first, then all updates (simultaneous).
    /// Refreshes what is derived from the current policy (after it was replaced wholesale).
    fn policy_changed(&mut self) {
        for p in 0..self.tree.num_players {
            self.lane_policy_changed(p);
        }
    }

    /// Refreshes the lane engine's copy of `player`'s current policy.
    fn lane_policy_changed(&mut self, player: usize) {
        if let Engine::Lanes(l) = &mut self.engine {
            l.plan.write_lane_policy(&self.policy, player, &mut l.lane_policy);
        }
    }

    fn iterate(&mut self) {
        self.iteration += 1;
        let np = self.tree.num_players;
        if self.alternating {
            for p in 0..np {
                if let Engine::Ranges(_) = self.engine {
                    // The range walk updates each information set as soon as its regrets
                    // are final.
                    self.traverse_ranges(p, true);
                    continue;
                }
                self.traverse(p);
                self.update(p);
            }
        } else {
            for p in 0..np {
                self.traverse(p);
            }
            for p in 0..np {
                self.update(p);
            }
        }
    }

    /// One player's traversal on the range engine, with its update when `update`.
    fn traverse_ranges(&mut self, player: usize, update: bool) {
        let Engine::Ranges(walk) = &self.engine else { unreachable!("called for the range engine") };
        let arrays = Arrays {
            policy: &mut self.policy,
            regrets: &mut self.regrets,
            instant: &mut self.instant,
            average: &mut self.cumulative_policy,
        };
        let a = self.algorithm;
        let step = update.then(|| a.step(self.iteration));
        walk.traverse(player, a, a.average_weight(self.iteration), step, arrays, self.threads > 1);
    }

    fn traverse(&mut self, player: usize) {
        if let Engine::Ranges(_) = self.engine {
            self.traverse_ranges(player, false);
            return;
        }
        match self.tree.num_players {
            1 => self.traverse_with::<1>(player),
            2 => self.traverse_with::<2>(player),
            3 => self.traverse_with::<3>(player),
            4 => self.traverse_with::<4>(player),
            n => unreachable!("Plan::new rejects {n} players"),
        }
    }

    /// One player's traversal, specialised for `P` players.
    fn traverse_with<const P: usize>(&mut self, player: usize) {
        let tree = &*self.tree;
        let Engine::Lanes(lanes) = &mut self.engine else { unreachable!("ranges traverse above") };
        let plan = &lanes.plan;
        let to_instant = self.algorithm.uses_instant_regrets() || self.grouped.is_some();
        let regrets = if to_instant { &mut self.instant } else { &mut self.regrets };
        let walk: Walk<P> = Walk {
            tree,
            plan,
            policy: &self.policy,
            lane_policy: &lanes.lane_policy,
            player,
            regrets: Disjoint::new(regrets),
            average: Disjoint::new(&mut self.cumulative_policy),
            weight: self.algorithm.average_weight(self.iteration),
            split_size: if self.threads > 1 { lanes.split_size } else { u32::MAX },
        };
        walk.walk(plan.root, &walk.root_reach(), &mut lanes.values, &mut lanes.scratch);
    }

    fn update(&mut self, player: usize) {
        let tree = &*self.tree;
        let algorithm = self.algorithm;
        let step = algorithm.step(self.iteration);
        if let Some(g) = &mut self.grouped {
            g.update(tree, algorithm, step, player, &mut self.instant, &mut self.policy);
            self.lane_policy_changed(player);
            return;
        }
        let mine = match &self.engine {
            Engine::Lanes(l) => &l.plan.sets_of[player],
            Engine::Ranges(w) => &w.sets_of[player],
        };
        if self.threads == 1 {
            for &(off, na) in mine {
                step.update_at(off as usize, na as usize, &mut self.regrets, &mut self.instant, &mut self.policy);
            }
        } else {
            let has_instant = algorithm.uses_instant_regrets();
            let instant = Disjoint::new(&mut self.instant);
            let regrets = Disjoint::new(&mut self.regrets);
            let policy = Disjoint::new(&mut self.policy);
            mine.par_iter().with_min_len(4096).for_each(|&(off, na)| {
                let (off, na) = (off as usize, na as usize);
                // SAFETY: each information set's action range is disjoint from every other's.
                let (r, p) = unsafe { (regrets.slice(off, na), policy.slice(off, na)) };
                let m = if has_instant { unsafe { instant.slice(off, na) } } else { &mut [][..] };
                step.update(r, m, p);
            });
        }
        self.lane_policy_changed(player);
    }

    /// The average policy: cumulative policy normalised per information set (uniform where it
    /// is all zero), exactly as OpenSpiel normalises it.
    pub fn average_policy(&self) -> Vec<f64> {
        if let Some(g) = &self.grouped {
            return g.average(&self.tree, &self.cumulative_policy);
        }
        normalise(&self.tree, &self.cumulative_policy)
    }
}

/// Normalises per-information-set weights into probabilities (uniform where they sum to 0).
pub fn normalise(tree: &PublicTree, weights: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; weights.len()];
    for i in 0..tree.infosets.len() {
        let off = tree.infosets.offset[i] as usize;
        let na = tree.infosets.num_actions(i);
        let w = &weights[off..off + na];
        let sum: f64 = w.iter().sum();
        for a in 0..na {
            out[off + a] = if sum == 0.0 { 1.0 / na as f64 } else { w[a] / sum };
        }
    }
    out
}

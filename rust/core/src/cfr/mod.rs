//! Full-width CFR-family solvers over compiled public trees.
//!
//! `cfr` and `cfr+` are exactly OpenSpiel's `CFRSolver` and `CFRPlusSolver` (alternating updates,
//! the same floating-point operations in the same order), so their exploitability trajectories
//! agree with OpenSpiel's digit for digit. `lcfr`, `dcfr` and `pcfr+` share the traversal.
//!
//! A traversal runs on an [`Engine`]: the lane walk ([`LaneEngine`]) works on every compiled
//! tree; a game may bring a faster engine of its own (the games registry hands it to
//! [`Solver::with_engine`]).

mod algorithm;
mod checkpoint;
mod engine;
mod grouped;
mod lanes;
pub(crate) mod walk;

pub use algorithm::{regret_matching, Algorithm, Step, ALGORITHM_NAMES, DCFR_DEFAULTS};
pub use engine::{Arrays, Engine, Traversal};
pub use lanes::LaneEngine;
pub use walk::Disjoint;

use crate::error::Result;
use crate::keying::Keying;
use crate::threads;
use crate::tree::PublicTree;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
    engine: Box<dyn Engine>,
    /// Group-level state when solving under a coarser keying.
    grouped: Option<grouped::Grouped>,
}

impl Solver {
    /// A solver with uniform initial policy on the lane engine. `threads` = 0 means the default
    /// thread count. `alternating` = false updates all players simultaneously from the same
    /// policy.
    pub fn new(tree: Arc<PublicTree>, algorithm: Algorithm, alternating: bool, threads: usize) -> Result<Solver> {
        Solver::with_engine(tree, None, None, algorithm, alternating, threads)
    }

    /// A solver that gives information sets sharing a key of `keying` one strategy, and
    /// traverses with `engine` (a game's own engine for this tree, made for a uniform initial
    /// policy), or the lane engine when `None` or when solving grouped by keys (which only the
    /// lane engine supports). The games registry picks the engine of a loaded game.
    pub fn with_engine(
        tree: Arc<PublicTree>,
        keying: Option<Arc<Keying>>,
        engine: Option<Box<dyn Engine>>,
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
        let engine = match engine.filter(|_| grouped.is_none()) {
            Some(e) => e,
            None => Box::new(LaneEngine::new(&tree, &policy, threads)?),
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

    /// The traversal engine's name, e.g. `"lanes"`.
    pub fn engine(&self) -> &'static str {
        self.engine.name()
    }

    /// Switches to the lane engine (the one every game has), e.g. to compare engines.
    pub fn use_lanes(&mut self) -> Result<()> {
        if self.engine.name() != "lanes" {
            self.engine = Box::new(LaneEngine::new(&self.tree, &self.policy, self.threads)?);
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
    /// Sets the subtree size (in public nodes) from which the engine traverses children in
    /// parallel. Results do not depend on it; it only tunes speed.
    pub fn set_split_size(&mut self, nodes: u32) {
        self.engine.set_split_size(nodes);
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

    /// Refreshes what is derived from the current policy (after it was replaced wholesale).
    fn policy_changed(&mut self) {
        for p in 0..self.tree.num_players {
            self.engine.policy_changed(&self.policy, p);
        }
    }

    /// One iteration: each player's traversal, then its update (alternating; engines that can
    /// apply the update inside the traversal do), or all traversals first, then all updates
    /// (simultaneous).
    fn iterate(&mut self) {
        self.iteration += 1;
        let np = self.tree.num_players;
        if self.alternating {
            let in_traversal = self.engine.updates_during_traversal() && self.grouped.is_none();
            for p in 0..np {
                self.traverse(p, in_traversal);
                if !in_traversal {
                    self.update(p);
                }
            }
        } else {
            for p in 0..np {
                self.traverse(p, false);
            }
            for p in 0..np {
                self.update(p);
            }
        }
    }

    /// One player's traversal, with the player's update inside it when `with_update`.
    fn traverse(&mut self, player: usize, with_update: bool) {
        let a = self.algorithm;
        let t = Traversal {
            tree: &self.tree,
            player,
            algorithm: a,
            weight: a.average_weight(self.iteration),
            update: with_update.then(|| a.step(self.iteration)),
            to_instant: a.uses_instant_regrets() || self.grouped.is_some(),
            parallel: self.threads > 1,
            arrays: Arrays {
                policy: &mut self.policy,
                regrets: &mut self.regrets,
                instant: &mut self.instant,
                average: &mut self.cumulative_policy,
            },
        };
        self.engine.traverse(t);
    }

    fn update(&mut self, player: usize) {
        let tree = &*self.tree;
        let algorithm = self.algorithm;
        let step = algorithm.step(self.iteration);
        if let Some(g) = &mut self.grouped {
            g.update(tree, algorithm, step, player, &mut self.instant, &mut self.policy);
            self.engine.policy_changed(&self.policy, player);
            return;
        }
        let mine = self.engine.sets_of(player);
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
        self.engine.policy_changed(&self.policy, player);
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

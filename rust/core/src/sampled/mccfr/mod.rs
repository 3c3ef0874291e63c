//! Monte-Carlo CFR over any compiled game: external sampling (`es-mccfr`) and outcome
//! sampling (`os-mccfr`), with the semantics of OpenSpiel's `ExternalSamplingMCCFRSolver`
//! (its default "simple" averaging) and `OutcomeSamplingMCCFRSolver`:
//!
//! * an iteration runs one traversal per player, player 0 first, each from a fresh sample;
//! * regrets and cumulative policies start at 1e-6 ([`INITIAL_VALUE`], OpenSpiel's
//!   `kInitialTableValues`), so an information set never visited averages to uniform;
//! * `es-mccfr` explores every action of the traversing player, samples one action of every
//!   other player (from the current strategy) and one chance outcome, adds `v(a) - v` to the
//!   traverser's regrets, and adds the current strategy to the average of the player after the
//!   traverser (who acts at the sampled nodes);
//! * `os-mccfr` samples one terminal history per traversal, the traverser's actions from the
//!   ε-exploring strategy (ε = [`DEFAULT_EPSILON`] unless given), and updates the traverser's
//!   regrets and average with importance weights (the tail's values come back already divided
//!   by their sample probability; no baseline);
//! * the average policy normalises the cumulative policy (uniform where it sums to 0).
//!
//! Tables are dense arrays, one row per information set of the compiled tree (or per key where
//! the game's keys group them, [`Keying`]): no hashing and no allocation in a traversal.
//!
//! **Randomness.** Iteration `t` draws all its numbers from [`stream`]`(seed, MCCFR, t, 0)`, so
//! a run is reproducible from its seed and resumes exactly from a checkpoint.
//!
//! **Threads.** With one thread the algorithm is the plain sequential one. With `T > 1`,
//! iterations run in rounds of [`ROUND_PER_THREAD`]` × T` (rounds begin at multiples of that
//! size, counted from iteration 0): each of the `T` workers runs a contiguous block of the
//! round's iterations against the tables as they were when the round began, keeping its updates
//! apart; after the round the workers' updates are added in worker order. The same seed and
//! thread count give identical results; a run split into calls that end on round boundaries
//! (a multiple of the round size, see [`Mccfr::round_size`]) equals the unsplit run.

mod checkpoint;
mod walk;

use crate::cfr::regret_matching;
use crate::error::{Error, Result};
use crate::keying::Keying;
use crate::streams::stream;
use crate::threads;
use crate::tree::PublicTree;
use rand::Rng;
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use walk::{Deferred, Delta, Live, Walk};

/// The algorithms' names, as [`Method::parse`] accepts them.
pub const NAMES: &[&str] = &["es-mccfr", "os-mccfr"];

/// Outcome sampling's exploration ε when none is given (OpenSpiel's default).
pub const DEFAULT_EPSILON: f64 = 0.6;

/// Initial value of every regret and cumulative-policy entry (OpenSpiel's).
pub const INITIAL_VALUE: f64 = 1e-6;

/// Iterations each worker runs per round when several threads run.
pub const ROUND_PER_THREAD: u64 = 64;

/// The stream tag of MCCFR iterations ("mccfr").
const MCCFR: u64 = 0x006d_6363_6672;

/// A sampling scheme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// External sampling.
    External,
    /// Outcome sampling with exploration `epsilon` in (0, 1].
    Outcome {
        /// Weight of the uniform policy in the traverser's sampling policy.
        epsilon: f64,
    },
}

impl Method {
    /// Whether `name` names an MCCFR algorithm.
    pub fn is_name(name: &str) -> bool {
        NAMES.contains(&name.trim().to_ascii_lowercase().as_str())
    }

    /// Parses `es-mccfr` or `os-mccfr`; `epsilon` is outcome sampling's exploration (default
    /// [`DEFAULT_EPSILON`]) and must be absent for external sampling.
    pub fn parse(name: &str, epsilon: Option<f64>) -> Result<Method> {
        match name.trim().to_ascii_lowercase().as_str() {
            "es-mccfr" => match epsilon {
                None => Ok(Method::External),
                Some(e) => Err(Error::invalid("epsilon", e, "none for es-mccfr (epsilon is os-mccfr's exploration)")),
            },
            "os-mccfr" => Ok(Method::Outcome { epsilon: check_epsilon(epsilon.unwrap_or(DEFAULT_EPSILON))? }),
            other => Err(Error::UnknownAlgorithm { name: other.to_string(), known: NAMES.join(", ") }),
        }
    }

    /// The algorithm's name.
    pub fn name(&self) -> &'static str {
        match self {
            Method::External => "es-mccfr",
            Method::Outcome { .. } => "os-mccfr",
        }
    }

    /// Outcome sampling's exploration (None for external sampling).
    pub fn epsilon(&self) -> Option<f64> {
        match *self {
            Method::External => None,
            Method::Outcome { epsilon } => Some(epsilon),
        }
    }
}

/// `epsilon` if it is a valid exploration for outcome sampling.
fn check_epsilon(epsilon: f64) -> Result<f64> {
    if epsilon > 0.0 && epsilon <= 1.0 {
        Ok(epsilon)
    } else {
        Err(Error::invalid("epsilon", epsilon, "a number in (0, 1]: os-mccfr's exploration"))
    }
}

/// An MCCFR solver for one compiled game.
pub struct Mccfr {
    tree: Arc<PublicTree>,
    keying: Option<Arc<Keying>>,
    method: Method,
    seed: u64,
    /// Start of each of the tree's information sets' rows in the tables.
    row: Vec<u32>,
    regrets: Vec<f64>,
    average: Vec<f64>,
    /// Cumulative probabilities of the lanes, to draw a private deal.
    lane_cdf: Vec<f64>,
    iteration: u64,
    threads: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
    /// One worker's updates and scratch space per thread (one for the sequential run).
    workers: Vec<Delta>,
}

impl Mccfr {
    /// A solver for `tree` whose information sets sharing a key of `keying` (default: the
    /// tree's own keys where they recur across public nodes) share one row. `threads` = 0
    /// means the default thread count.
    pub fn new(
        tree: Arc<PublicTree>,
        keying: Option<Arc<Keying>>,
        method: Method,
        seed: u64,
        threads: usize,
    ) -> Result<Mccfr> {
        if let Method::Outcome { epsilon } = method {
            check_epsilon(epsilon)?;
        }
        let keying = match keying {
            None if tree.shared_keys => Some(Arc::new(Keying::of_tree(&tree)?)),
            k => k,
        };
        let keying = keying.filter(|k| !k.is_identity());
        let (row, len) = match &keying {
            Some(k) => (k.group.iter().map(|&g| k.offset[g as usize]).collect(), k.total_actions),
            None => (tree.infosets.offset.clone(), tree.infosets.total_actions),
        };
        let mut lane_cdf = Vec::with_capacity(tree.num_lanes);
        let mut acc = 0.0;
        for &p in &tree.lane_prob {
            acc += p;
            lane_cdf.push(acc);
        }
        let threads = threads::resolve(threads)?;
        let pool = if threads > 1 { Some(Arc::new(threads::pool(threads)?)) } else { None };
        let scratch = walk::scratch_len(&tree);
        // The sequential run updates the tables in place: its worker needs scratch space only.
        let workers = if threads > 1 {
            (0..threads).map(|_| Delta::new(len, scratch)).collect()
        } else {
            vec![Delta::new(0, scratch)]
        };
        Ok(Mccfr {
            tree,
            keying,
            method,
            seed,
            row,
            regrets: vec![INITIAL_VALUE; len],
            average: vec![INITIAL_VALUE; len],
            lane_cdf,
            iteration: 0,
            threads,
            pool,
            workers,
        })
    }

    /// The compiled game.
    pub fn tree(&self) -> &Arc<PublicTree> {
        &self.tree
    }
    /// The sampling scheme.
    pub fn method(&self) -> Method {
        self.method
    }
    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Iterations done.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }
    /// Threads in use.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Iterations per round: 1 with one thread (every iteration sees the one before), else
    /// [`ROUND_PER_THREAD`] × threads. Runs split at multiples of it give the unsplit results.
    pub fn round_size(&self) -> u64 {
        if self.threads > 1 {
            ROUND_PER_THREAD * self.threads as u64
        } else {
            1
        }
    }
    /// Cumulative regrets, one row per information set (or key group).
    pub fn regrets(&self) -> &[f64] {
        &self.regrets
    }
    /// Cumulative policy weights, laid out like [`Mccfr::regrets`].
    pub fn cumulative_policy(&self) -> &[f64] {
        &self.average
    }

    /// Runs `iterations` iterations; stops early (between iterations, between rounds with
    /// several threads) when `stop` becomes true. Returns the number of iterations done.
    pub fn run(&mut self, iterations: u64, stop: Option<&AtomicBool>) -> u64 {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let end = self.iteration.saturating_add(iterations);
        let start = self.iteration;
        if self.threads == 1 {
            while self.iteration < end && !stopped() {
                self.run_sequential(self.iteration);
                self.iteration += 1;
            }
        } else {
            let round = self.round_size();
            while self.iteration < end && !stopped() {
                let round_end = (self.iteration / round + 1).saturating_mul(round).min(end);
                self.run_round(self.iteration, round_end);
                self.iteration = round_end;
            }
        }
        self.iteration - start
    }

    /// The walk over this solver's tree with `tables`.
    fn walk<'a, T: walk::Tables>(
        tree: &'a PublicTree,
        row: &'a [u32],
        method: Method,
        revisit: bool,
        tables: T,
    ) -> Walk<'a, T> {
        Walk { tree, row, tables, epsilon: method.epsilon().unwrap_or(0.0), may_revisit: revisit }
    }

    /// Iteration `t` with the tables updated in place.
    fn run_sequential(&mut self, t: u64) {
        let tables = Live { regrets: &mut self.regrets, average: &mut self.average };
        let revisit = self.keying.is_some();
        let mut w = Self::walk(&self.tree, &self.row, self.method, revisit, tables);
        iterate(&mut w, &self.lane_cdf, self.method, self.seed, t, &mut self.workers[0].scratch);
    }

    /// Iterations `from..to` (one round) on the workers, then their updates merged.
    fn run_round(&mut self, from: u64, to: u64) {
        let pool = self.pool.clone().expect("a pool for several threads");
        let n = self.workers.len() as u64;
        let count = to - from;
        let (tree, row, method, seed) = (&*self.tree, &self.row[..], self.method, self.seed);
        let (regrets, cdf) = (&self.regrets[..], &self.lane_cdf[..]);
        let revisit = self.keying.is_some();
        pool.install(|| {
            self.workers.par_iter_mut().enumerate().for_each(|(j, worker)| {
                let j = j as u64;
                let (a, b) = (from + count * j / n, from + count * (j + 1) / n);
                let mut scratch = std::mem::take(&mut worker.scratch);
                let tables = Deferred { regrets, delta: worker };
                let mut w = Self::walk(tree, row, method, revisit, tables);
                for t in a..b {
                    iterate(&mut w, cdf, method, seed, t, &mut scratch);
                }
                worker.scratch = scratch;
            })
        });
        for worker in &mut self.workers {
            worker.merge_into(&mut self.regrets, &mut self.average);
        }
    }

    /// Runs iterations `from..to` as one worker of a round that starts from the regrets as
    /// they are, and returns its updates to the regrets and to the cumulative policy, dense,
    /// without applying them: a piece of a round run on another machine
    /// ([`Mccfr::merge_pieces`] adds the pieces of a round in order). With `own_updates` the
    /// worker plays against the round's regrets plus its own updates so far (it runs the
    /// sequential algorithm from the round's start); without, against the round's regrets
    /// alone, as the solver's own threads do (see the module documentation).
    pub fn round_piece(&self, from: u64, to: u64, own_updates: bool) -> Result<(Vec<f64>, Vec<f64>)> {
        if from > to {
            return Err(Error::invalid("iterations", format!("{from}..{to}"), "a range from..to with from <= to"));
        }
        let len = self.regrets.len();
        let mut scratch = vec![0.0; walk::scratch_len(&self.tree)];
        let revisit = self.keying.is_some();
        let (cdf, method, seed) = (&self.lane_cdf[..], self.method, self.seed);
        if own_updates {
            let (mut regrets, mut average) = (self.regrets.clone(), vec![0.0; len]);
            let tables = Live { regrets: &mut regrets, average: &mut average };
            let mut w = Self::walk(&self.tree, &self.row, method, revisit, tables);
            for t in from..to {
                iterate(&mut w, cdf, method, seed, t, &mut scratch);
            }
            for (r, start) in regrets.iter_mut().zip(&self.regrets) {
                *r -= start;
            }
            return Ok((regrets, average));
        }
        let mut delta = Delta::new(len, 0);
        let tables = Deferred { regrets: &self.regrets, delta: &mut delta };
        let mut w = Self::walk(&self.tree, &self.row, method, revisit, tables);
        for t in from..to {
            iterate(&mut w, cdf, method, seed, t, &mut scratch);
        }
        let (mut regrets, mut average) = (vec![0.0; len], vec![0.0; len]);
        delta.merge_into(&mut regrets, &mut average);
        Ok((regrets, average))
    }

    /// Adds the updates of a round's pieces ([`Mccfr::round_piece`]), in piece order, and
    /// counts the round's iterations: the solver then stands at iteration `to`.
    pub fn merge_pieces(&mut self, pieces: &[(Vec<f64>, Vec<f64>)], to: u64) -> Result<()> {
        let len = self.regrets.len();
        if let Some((r, a)) = pieces.iter().find(|(r, a)| r.len() != len || a.len() != len) {
            return Err(Error::invalid("piece", format!("{} and {} entries", r.len(), a.len()), format!("{len} each")));
        }
        if to < self.iteration {
            return Err(Error::invalid("to", to, format!("an iteration at or after {}", self.iteration)));
        }
        for (r, a) in pieces {
            for (x, d) in self.regrets.iter_mut().zip(r) {
                *x += d;
            }
            for (x, d) in self.average.iter_mut().zip(a) {
                *x += d;
            }
        }
        self.iteration = to;
        Ok(())
    }

    /// Replaces the regrets with `regrets` (a worker taking the snapshot a round starts from).
    pub fn set_regrets(&mut self, regrets: &[f64]) -> Result<()> {
        if regrets.len() != self.regrets.len() {
            return Err(Error::invalid("regrets", regrets.len(), format!("{} entries", self.regrets.len())));
        }
        self.regrets.copy_from_slice(regrets);
        Ok(())
    }

    /// Normalises rows of `weights` onto the tree's information sets (one policy entry per
    /// information set and action; information sets of one key group share their row's).
    fn per_infoset(&self, weights: &[f64]) -> Vec<f64> {
        let t = &*self.tree;
        let mut out = vec![0.0; t.infosets.total_actions];
        for i in 0..t.infosets.len() {
            let (off, na, row) = (t.infosets.offset[i] as usize, t.infosets.num_actions(i), self.row[i] as usize);
            let w = &weights[row..row + na];
            regret_matching(&mut out[off..off + na], |a| w[a]);
        }
        out
    }

    /// The average policy, indexed like the tree's information sets' actions: the cumulative
    /// policy normalised (weights are never negative, so this is plain normalisation, uniform
    /// where they sum to 0, as [`crate::cfr::normalise`] and OpenSpiel's average policy do).
    pub fn average_policy(&self) -> Vec<f64> {
        self.per_infoset(&self.average)
    }

    /// The current policy (regret matching of the cumulative regrets), indexed like
    /// [`Mccfr::average_policy`].
    pub fn current_policy(&self) -> Vec<f64> {
        self.per_infoset(&self.regrets)
    }
}

/// Runs iteration `t`: one traversal per player, all numbers from the iteration's stream.
fn iterate<T: walk::Tables>(
    w: &mut Walk<'_, T>,
    lane_cdf: &[f64],
    method: Method,
    seed: u64,
    t: u64,
    scratch: &mut [f64],
) {
    let mut rng: Pcg64 = stream(seed, MCCFR, t, 0);
    let tree = w.tree;
    let root = tree.root as usize;
    for player in 0..tree.num_players {
        let u: f64 = rng.gen();
        // The first lane whose cumulative probability exceeds u (the last present one when
        // rounding leaves u beyond the total).
        let mut lane = lane_cdf.partition_point(|&c| c <= u).min(lane_cdf.len() - 1);
        while tree.lane_prob[lane] == 0.0 && lane > 0 {
            lane -= 1;
        }
        match method {
            Method::External => {
                w.external(root, lane, player, &mut rng, scratch);
            }
            Method::Outcome { .. } => {
                let p = tree.lane_prob[lane];
                w.outcome(root, lane, player, &mut rng, [1.0, p, p], scratch);
            }
        }
    }
}

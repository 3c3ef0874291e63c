//! `Solver`: a full-width CFR-family solver or an MCCFR solver over a compiled game. Iterations
//! run with the GIL released; the Python wrapper runs them in chunks and checks for Ctrl-C
//! between chunks.

use crate::errors::{to_py, IntoPy};
use crate::game::Game;
use crate::policy::Policy;
use cfrkit_core::cfr::Solver as FullWidth;
use cfrkit_core::eval::best_response;
use cfrkit_core::sampled::mccfr::{self, Mccfr};
use cfrkit_core::sampled::{algorithm_names, SolverAlgorithm};
use cfrkit_core::tree::PublicTree;
use cfrkit_core::Error;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The solver of either family.
enum Inner {
    FullWidth(FullWidth),
    Sampled(Mccfr),
}

/// A solver over a compiled game: full-width (`cfr`, `cfr+`, `lcfr`, `dcfr`, `pcfr+`) or
/// Monte-Carlo (`es-mccfr`, `os-mccfr`).
#[pyclass(module = "cfrkit._cfrkit")]
pub struct Solver {
    inner: Inner,
    /// The game with its keys, for exporting policies under them.
    game: Py<Game>,
    seed: u64,
}

impl Solver {
    /// The MCCFR solver, or an error naming `what` for a full-width one.
    fn sampled(&self, what: &str) -> PyResult<&Mccfr> {
        match &self.inner {
            Inner::Sampled(s) => Ok(s),
            Inner::FullWidth(_) => Err(to_py(Error::invalid(what, "a full-width solver", "es-mccfr or os-mccfr"))),
        }
    }
    fn sampled_mut(&mut self, what: &str) -> PyResult<&mut Mccfr> {
        match &mut self.inner {
            Inner::Sampled(s) => Ok(s),
            Inner::FullWidth(_) => Err(to_py(Error::invalid(what, "a full-width solver", "es-mccfr or os-mccfr"))),
        }
    }
    fn tree(&self) -> &PublicTree {
        match &self.inner {
            Inner::FullWidth(s) => s.tree(),
            Inner::Sampled(s) => s.tree(),
        }
    }

    fn average(&self) -> Vec<f64> {
        match &self.inner {
            Inner::FullWidth(s) => s.average_policy(),
            Inner::Sampled(s) => s.average_policy(),
        }
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[allow(clippy::too_many_arguments)] // the Python signature's keyword arguments
    #[pyo3(signature = (game, algorithm = "cfr+", threads = 0, alternating = true, alpha = 1.5, beta = 0.0, gamma = 2.0, seed = None, epsilon = None))]
    fn new(
        py: Python<'_>,
        game: &Game,
        algorithm: &str,
        threads: usize,
        alternating: bool,
        alpha: f64,
        beta: f64,
        gamma: f64,
        seed: Option<&Bound<'_, PyAny>>,
        epsilon: Option<f64>,
    ) -> PyResult<Solver> {
        let seed = match seed {
            None => 0,
            Some(s) => s.extract::<u64>().map_err(|_| {
                let shown = s.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
                to_py(Error::invalid("seed", shown, "an integer from 0 to 2**64 - 1"))
            })?,
        };
        let (tree, keying) = (game.tree.clone(), game.keying.clone());
        let inner = match SolverAlgorithm::parse(algorithm, (alpha, beta, gamma), epsilon).py()? {
            SolverAlgorithm::FullWidth(a) => {
                Inner::FullWidth(cfrkit_core::games::solver(tree, keying, a, alternating, threads).py()?)
            }
            SolverAlgorithm::Sampled(m) => {
                if !alternating {
                    return Err(to_py(Error::invalid(
                        "alternating",
                        false,
                        "true for es-mccfr and os-mccfr (each traversal updates one player)",
                    )));
                }
                Inner::Sampled(Mccfr::new(tree, keying, m, seed, threads).py()?)
            }
        };
        Ok(Solver { inner, game: Py::new(py, Game { tree: game.tree.clone(), keying: game.keying.clone() })?, seed })
    }
    /// Runs `iterations` iterations with the GIL released; returns how many ran.
    fn run(&mut self, py: Python<'_>, iterations: u64) -> u64 {
        match &mut self.inner {
            Inner::FullWidth(s) => py.allow_threads(|| s.run(iterations, None)),
            Inner::Sampled(s) => py.allow_threads(|| s.run(iterations, None)),
        }
    }
    /// Writes the solver's complete state to `path` (atomically, checksummed).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        match &self.inner {
            Inner::FullWidth(s) => py.allow_threads(|| s.save_checkpoint(&path)).py(),
            Inner::Sampled(s) => py.allow_threads(|| s.save_checkpoint(&path)).py(),
        }
    }
    /// Restores a state written by `save` by a solver of the same game, keys and algorithm
    /// (and, for MCCFR, seed).
    fn load(&mut self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        match &mut self.inner {
            Inner::FullWidth(s) => py.allow_threads(|| s.load_checkpoint(&path)).py(),
            Inner::Sampled(s) => py.allow_threads(|| s.load_checkpoint(&path)).py(),
        }
    }
    /// Iterations done so far.
    #[getter]
    fn iteration(&self) -> u64 {
        match &self.inner {
            Inner::FullWidth(s) => s.iteration(),
            Inner::Sampled(s) => s.iteration(),
        }
    }
    /// Threads in use.
    #[getter]
    fn threads(&self) -> usize {
        match &self.inner {
            Inner::FullWidth(s) => s.threads(),
            Inner::Sampled(s) => s.threads(),
        }
    }
    /// The seed (MCCFR draws every sample from it; full-width solvers only record it).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// Canonical algorithm name.
    #[getter]
    fn algorithm(&self) -> String {
        match &self.inner {
            Inner::FullWidth(s) => s.algorithm().name(),
            Inner::Sampled(s) => s.method().name().to_string(),
        }
    }
    /// Outcome sampling's exploration (None for other algorithms).
    #[getter]
    fn epsilon(&self) -> Option<f64> {
        match &self.inner {
            Inner::FullWidth(_) => None,
            Inner::Sampled(s) => s.method().epsilon(),
        }
    }
    /// Iterations that run as one unit: runs split at multiples of it give the unsplit
    /// results (1 except for MCCFR on several threads).
    #[getter]
    fn round_size(&self) -> u64 {
        match &self.inner {
            Inner::FullWidth(_) => 1,
            Inner::Sampled(s) => s.round_size(),
        }
    }
    /// The traversal engine: `"ranges"` for Blackjack++ trees, `"lanes"` for other full-width
    /// solves, `"sampled"` for MCCFR.
    #[getter]
    fn engine(&self) -> &'static str {
        match &self.inner {
            Inner::FullWidth(s) => s.engine(),
            Inner::Sampled(_) => "sampled",
        }
    }
    /// Switches a full-width solver to the lane engine (the one every game has).
    fn use_lanes(&mut self, py: Python<'_>) -> PyResult<()> {
        match &mut self.inner {
            Inner::FullWidth(s) => py.allow_threads(|| s.use_lanes()).py(),
            Inner::Sampled(s) => Err(to_py(Error::invalid(
                "engine",
                "lanes",
                format!("auto for {} (sampled solvers have one engine)", s.method().name()),
            ))),
        }
    }
    /// The average policy (the one that converges to equilibrium).
    fn average_policy(&self, py: Python<'_>) -> Policy {
        self.game.borrow(py).policy_from_tree(&self.average())
    }
    /// The current (last-iterate) policy.
    fn current_policy(&self, py: Python<'_>) -> Policy {
        let game = self.game.borrow(py);
        match &self.inner {
            Inner::FullWidth(s) => game.policy_from_tree(s.current_policy()),
            Inner::Sampled(s) => game.policy_from_tree(&s.current_policy()),
        }
    }
    /// NashConv of the average policy.
    fn nash_conv(&self, py: Python<'_>) -> PyResult<f64> {
        let p = self.average();
        let t = self.tree();
        py.allow_threads(|| best_response::nash_conv(t, &p)).py()
    }
    /// Exploitability (NashConv / players) of the average policy; constant-sum games only.
    fn exploitability(&self, py: Python<'_>) -> PyResult<f64> {
        let p = self.average();
        let t = self.tree();
        py.allow_threads(|| best_response::exploitability(t, &p)).py()
    }
    /// The cumulative regrets of an MCCFR solver (a round's snapshot for workers elsewhere).
    #[getter]
    fn regrets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(PyArray1::from_slice(py, self.sampled("regrets")?.regrets()))
    }
    /// Replaces an MCCFR solver's regrets (a worker taking a round's snapshot).
    fn set_regrets(&mut self, regrets: PyReadonlyArray1<'_, f64>) -> PyResult<()> {
        self.sampled_mut("set_regrets")?.set_regrets(regrets.as_slice()?).py()
    }
    /// Runs MCCFR iterations `start..end` as one worker of a round from the current regrets
    /// (with `own_updates`, seeing its own updates as it goes); returns the updates (regrets,
    /// cumulative policy) without applying them.
    #[pyo3(signature = (start, end, own_updates = true))]
    #[allow(clippy::type_complexity)]
    fn round_piece<'py>(
        &self,
        py: Python<'py>,
        start: u64,
        end: u64,
        own_updates: bool,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>)> {
        let s = self.sampled("round_piece")?;
        let (r, a) = py.allow_threads(|| s.round_piece(start, end, own_updates)).py()?;
        Ok((PyArray1::from_vec(py, r), PyArray1::from_vec(py, a)))
    }
    /// Adds the updates of a round's pieces in order; the solver then stands at iteration `end`.
    fn merge_pieces(
        &mut self,
        pieces: Vec<(PyReadonlyArray1<'_, f64>, PyReadonlyArray1<'_, f64>)>,
        end: u64,
    ) -> PyResult<()> {
        let pieces = pieces
            .iter()
            .map(|(r, a)| Ok((r.as_slice()?.to_vec(), a.as_slice()?.to_vec())))
            .collect::<PyResult<Vec<_>>>()?;
        self.sampled_mut("merge_pieces")?.merge_pieces(&pieces, end).py()
    }
    /// Expected value of each player under the average policy.
    fn expected_values(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let p = self.average();
        let t = self.tree();
        py.allow_threads(|| best_response::expected_values(t, &p)).py()
    }
}

/// Registers the classes of this module, `ALGORITHMS` (every algorithm name `Solver` takes) and
/// `SAMPLED_ALGORITHMS` (those of them that sample: MCCFR).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solver>()?;
    m.add("ALGORITHMS", pyo3::types::PyTuple::new(m.py(), algorithm_names())?)?;
    m.add("SAMPLED_ALGORITHMS", pyo3::types::PyTuple::new(m.py(), mccfr::NAMES)?)?;
    Ok(())
}

//! `Solver`: a full-width CFR-family solver over a compiled game. Iterations run with the GIL
//! released; the Python wrapper runs them in chunks and checks for Ctrl-C between chunks.

use crate::errors::IntoPy;
use crate::game::Game;
use crate::policy::Policy;
use cfrkit_core::cfr::{Algorithm, Solver as CoreSolver};
use cfrkit_core::eval::best_response;
use pyo3::prelude::*;

/// A full-width CFR-family solver (`cfr`, `cfr+`, `lcfr`, `dcfr`, `pcfr+`).
#[pyclass(module = "cfrkit._cfrkit")]
pub struct Solver {
    inner: CoreSolver,
    /// The game with its keys, for exporting policies under them.
    game: Py<Game>,
}

#[pymethods]
impl Solver {
    #[new]
    #[allow(clippy::too_many_arguments)] // the Python signature's keyword arguments
    #[pyo3(signature = (game, algorithm = "cfr+", threads = 0, alternating = true, alpha = 1.5, beta = 0.0, gamma = 2.0))]
    fn new(
        py: Python<'_>,
        game: &Game,
        algorithm: &str,
        threads: usize,
        alternating: bool,
        alpha: f64,
        beta: f64,
        gamma: f64,
    ) -> PyResult<Solver> {
        let algo = Algorithm::parse(algorithm, (alpha, beta, gamma)).py()?;
        Ok(Solver {
            inner: cfrkit_core::games::solver(game.tree.clone(), game.keying.clone(), algo, alternating, threads)
                .py()?,
            game: Py::new(py, Game { tree: game.tree.clone(), keying: game.keying.clone() })?,
        })
    }
    /// Runs `iterations` iterations with the GIL released; returns how many ran.
    fn run(&mut self, py: Python<'_>, iterations: u64) -> u64 {
        let inner = &mut self.inner;
        py.allow_threads(|| inner.run(iterations, None))
    }
    /// Writes the solver's complete state to `path` (atomically, checksummed).
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let inner = &self.inner;
        py.allow_threads(|| inner.save_checkpoint(&path)).py()
    }
    /// Restores a state written by `save` by a solver of the same game, keys and algorithm.
    fn load(&mut self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let inner = &mut self.inner;
        py.allow_threads(|| inner.load_checkpoint(&path)).py()
    }
    /// Iterations done so far.
    #[getter]
    fn iteration(&self) -> u64 {
        self.inner.iteration()
    }
    /// Threads in use.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }
    /// Canonical algorithm name.
    #[getter]
    fn algorithm(&self) -> String {
        self.inner.algorithm().name()
    }
    /// The traversal engine: `"ranges"` for Blackjack++ trees, else `"lanes"`.
    #[getter]
    fn engine(&self) -> &'static str {
        self.inner.engine()
    }
    /// Switches to the lane engine (the one every game has), e.g. to compare engines.
    fn use_lanes(&mut self, py: Python<'_>) -> PyResult<()> {
        let inner = &mut self.inner;
        py.allow_threads(|| inner.use_lanes()).py()
    }
    /// The average policy (the one that converges to equilibrium).
    fn average_policy(&self, py: Python<'_>) -> Policy {
        self.game.borrow(py).policy_from_tree(&self.inner.average_policy())
    }
    /// The current (last-iterate) policy.
    fn current_policy(&self, py: Python<'_>) -> Policy {
        self.game.borrow(py).policy_from_tree(self.inner.current_policy())
    }
    /// NashConv of the average policy.
    fn nash_conv(&self, py: Python<'_>) -> PyResult<f64> {
        let p = self.inner.average_policy();
        let t = self.inner.tree();
        py.allow_threads(|| best_response::nash_conv(t, &p)).py()
    }
    /// Exploitability (NashConv / players) of the average policy; constant-sum games only.
    fn exploitability(&self, py: Python<'_>) -> PyResult<f64> {
        let p = self.inner.average_policy();
        let t = self.inner.tree();
        py.allow_threads(|| best_response::exploitability(t, &p)).py()
    }
    /// Expected value of each player under the average policy.
    fn expected_values(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let p = self.inner.average_policy();
        let t = self.inner.tree();
        py.allow_threads(|| best_response::expected_values(t, &p)).py()
    }
}

/// Registers the classes of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solver>()?;
    Ok(())
}

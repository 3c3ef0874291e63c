//! `Game`: a compiled game, and the evaluation functions over it.

use crate::errors::IntoPy;
use crate::policy::Policy;
use cfrkit_core::best_response as eval;
use cfrkit_core::policy::TabularPolicy;
use cfrkit_core::tree::PublicTree;
use pyo3::prelude::*;
use std::sync::Arc;

/// A game compiled into a public tree, ready for every solver and evaluator.
#[pyclass(frozen, module = "cfrkit._cfrkit")]
pub struct Game {
    pub tree: Arc<PublicTree>,
}

#[pymethods]
impl Game {
    /// The game's spec string.
    #[getter]
    fn spec(&self) -> String {
        self.tree.spec.clone()
    }
    /// Number of players.
    #[getter]
    fn num_players(&self) -> usize {
        self.tree.num_players
    }
    /// Whether every terminal's returns sum to one constant (zero-sum or constant-sum).
    #[getter]
    fn constant_sum(&self) -> bool {
        self.tree.constant_sum
    }
    /// Number of information sets.
    #[getter]
    fn num_infosets(&self) -> usize {
        self.tree.infosets.len()
    }
    /// Number of public-tree nodes.
    #[getter]
    fn num_public_nodes(&self) -> usize {
        self.tree.num_nodes()
    }
    /// Number of private deals (lanes) each public node carries.
    #[getter]
    fn num_deals(&self) -> usize {
        self.tree.num_lanes
    }
    /// Number of histories as a per-history game tree counts them.
    #[getter]
    fn num_histories(&self) -> usize {
        self.tree.num_histories()
    }
    /// Approximate memory held by the compiled tree, in bytes.
    #[getter]
    fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
    }
    /// Information-state keys in information-set order.
    fn infoset_keys(&self) -> Vec<String> {
        self.tree.infosets.keys.clone()
    }
    /// The uniform random policy of this game.
    fn uniform_policy(&self) -> Policy {
        let t = &self.tree;
        let mut probs = vec![0.0; t.infosets.total_actions];
        for i in 0..t.infosets.len() {
            let o = t.infosets.offset[i] as usize;
            let n = t.infosets.num_actions(i);
            probs[o..o + n].fill(1.0 / n as f64);
        }
        Policy::new(TabularPolicy::from_tree(t, &probs))
    }
    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, players={}, infosets={}, public_nodes={})",
            self.tree.spec,
            self.tree.num_players,
            self.tree.infosets.len(),
            self.tree.num_nodes()
        )
    }
}

/// Compiles the game named by `spec` (e.g. "kuhn", "leduc", "blackjack(up=6-6-2,max_hits=1)").
#[pyfunction]
pub fn load_game(py: Python<'_>, spec: &str) -> PyResult<Game> {
    let tree = py.allow_threads(|| cfrkit_core::games::load_game(spec)).py()?;
    Ok(Game { tree: Arc::new(tree) })
}

fn probs_on(game: &Game, policy: &Policy, uniform_fallback: bool) -> PyResult<Vec<f64>> {
    policy.inner.to_tree(&game.tree, uniform_fallback).py()
}

/// NashConv of `policy` in `game`: the sum over players of their best-response gain.
#[pyfunction]
#[pyo3(signature = (game, policy, *, missing_uniform = false))]
pub fn nash_conv(py: Python<'_>, game: &Game, policy: &Policy, missing_uniform: bool) -> PyResult<f64> {
    let probs = probs_on(game, policy, missing_uniform)?;
    py.allow_threads(|| eval::nash_conv(&game.tree, &probs)).py()
}

/// Exploitability of `policy` (NashConv / number of players; constant-sum games only).
#[pyfunction]
#[pyo3(signature = (game, policy, *, missing_uniform = false))]
pub fn exploitability(py: Python<'_>, game: &Game, policy: &Policy, missing_uniform: bool) -> PyResult<f64> {
    let probs = probs_on(game, policy, missing_uniform)?;
    py.allow_threads(|| eval::exploitability(&game.tree, &probs)).py()
}

/// Expected value of every player when all follow `policy`.
#[pyfunction]
#[pyo3(signature = (game, policy, *, missing_uniform = false))]
pub fn expected_values(py: Python<'_>, game: &Game, policy: &Policy, missing_uniform: bool) -> PyResult<Vec<f64>> {
    let probs = probs_on(game, policy, missing_uniform)?;
    py.allow_threads(|| eval::expected_values(&game.tree, &probs)).py()
}

/// A best response of `player` to `policy`: (its value, a pure policy for that player's
/// information sets).
#[pyfunction]
#[pyo3(signature = (game, policy, player, *, missing_uniform = false))]
pub fn best_response(py: Python<'_>, game: &Game, policy: &Policy, player: usize, missing_uniform: bool) -> PyResult<(f64, Policy)> {
    let probs = probs_on(game, policy, missing_uniform)?;
    let br = py.allow_threads(|| eval::best_response(&game.tree, &probs, player)).py()?;
    let t = &game.tree;
    let mut pure = vec![0.0; t.infosets.total_actions];
    let mut keep = Vec::new();
    for (i, &c) in br.choice.iter().enumerate() {
        if c != u32::MAX {
            pure[t.infosets.offset[i] as usize + c as usize] = 1.0;
            keep.push(i);
        }
    }
    let full = TabularPolicy::from_tree(t, &pure);
    Ok((br.value, Policy::new(full.subset(&keep))))
}

/// Registers the classes and functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(nash_conv, m)?)?;
    m.add_function(wrap_pyfunction!(exploitability, m)?)?;
    m.add_function(wrap_pyfunction!(expected_values, m)?)?;
    m.add_function(wrap_pyfunction!(best_response, m)?)?;
    Ok(())
}

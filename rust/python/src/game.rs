//! `Game`: a compiled game, and the evaluation functions over it.

use crate::errors::IntoPy;
use crate::policy::Policy;
use cfrkit_core::eval::best_response as eval;
use cfrkit_core::games::recorded::{RecordedGame, RecordedKind};
use cfrkit_core::keying::Keying;
use cfrkit_core::policy::TabularPolicy;
use cfrkit_core::tree::PublicTree;
use pyo3::prelude::*;
use std::sync::Arc;

/// A game compiled into a public tree, ready for every solver and evaluator; optionally under
/// coarser keys (an abstraction) than its own information sets.
#[pyclass(frozen, module = "cfrkit._cfrkit")]
pub struct Game {
    pub tree: Arc<PublicTree>,
    pub keying: Option<Arc<Keying>>,
}

impl Game {
    /// A game under its own keys (grouped by key where they recur across public nodes).
    pub fn from_tree(tree: PublicTree) -> PyResult<Game> {
        let keying = if tree.shared_keys { Some(Arc::new(Keying::of_tree(&tree).py()?)) } else { None };
        Ok(Game { tree: Arc::new(tree), keying })
    }

    /// The key under which information set `i` is looked up in policies.
    pub fn key_of(&self, i: usize) -> &str {
        match &self.keying {
            Some(k) => &k.keys[k.group[i] as usize],
            None => &self.tree.infosets.keys[i],
        }
    }

    /// A policy under this game's keys from probabilities on the tree's information sets.
    pub fn policy_from_tree(&self, probs: &[f64]) -> Policy {
        match &self.keying {
            None => Policy::new(TabularPolicy::from_tree(&self.tree, probs)),
            Some(k) => {
                // Members of a group share their probabilities; take the first member's.
                let mut per_group = vec![0.0; k.total_actions];
                for g in 0..k.len() {
                    let i = k.members_of(g)[0] as usize;
                    let (src, dst, na) =
                        (self.tree.infosets.offset[i] as usize, k.offset[g] as usize, k.num_actions(g));
                    per_group[dst..dst + na].copy_from_slice(&probs[src..src + na]);
                }
                Policy::new(TabularPolicy::from_keying(&self.tree, k, &per_group))
            }
        }
    }
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
    /// The game's own information-state keys, in information-set order.
    fn infoset_keys(&self) -> Vec<&str> {
        self.tree.infosets.keys.iter().collect()
    }
    /// The acting player of each information set.
    fn infoset_players(&self) -> Vec<u8> {
        self.tree.infosets.player.clone()
    }
    /// Number of distinct keys policies use: the information sets, or the coarser keys' groups.
    #[getter]
    fn num_keys(&self) -> usize {
        self.keying.as_ref().map_or(self.tree.infosets.len(), |k| k.len())
    }
    /// Whether the game is under coarser keys than its own information sets.
    #[getter]
    fn is_rekeyed(&self) -> bool {
        self.keying.is_some()
    }
    /// The same game under other keys, one per information set (see `infoset_keys`);
    /// information sets with equal keys share one strategy.
    fn with_keys(&self, keys: Vec<String>) -> PyResult<Game> {
        let keying = Keying::new(&self.tree, &keys.into_iter().collect()).py()?;
        Ok(Game { tree: self.tree.clone(), keying: Some(Arc::new(keying)) })
    }
    /// A policy under the game's own keys from one under this game's (possibly coarser) keys.
    fn expand_policy(&self, policy: &Policy) -> PyResult<Policy> {
        let probs = policy.inner.to_tree_keyed(&self.tree, |i| self.key_of(i), false).py()?;
        Ok(Policy::new(TabularPolicy::from_tree(&self.tree, &probs)))
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
        self.policy_from_tree(&probs)
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
    Game::from_tree(tree)
}

/// Compiles a recorded history tree (see `cfrkit.define`): node kinds (-1 chance, -4 terminal,
/// else the player), children in CSR form, edge actions and probabilities, returns per node,
/// and the acting player's key per node.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn compile_recorded(
    py: Python<'_>,
    spec: String,
    num_players: usize,
    kind: Vec<i64>,
    first: Vec<u32>,
    count: Vec<u32>,
    children: Vec<u32>,
    actions: Vec<u32>,
    probs: Vec<f64>,
    returns: Vec<f64>,
    keys: Vec<String>,
) -> PyResult<Game> {
    let kind = kind
        .into_iter()
        .map(|k| match k {
            -1 => Ok(RecordedKind::Chance),
            -4 => Ok(RecordedKind::Terminal),
            p if p >= 0 => Ok(RecordedKind::Player(p as usize)),
            other => {
                Err(cfrkit_core::Error::invalid("node kind", other, "-1 (chance), -4 (terminal) or a player >= 0"))
            }
        })
        .collect::<Result<Vec<_>, _>>()
        .py()?;
    let game = RecordedGame { spec, num_players, kind, first, count, children, actions, probs, returns, keys };
    let tree = py
        .allow_threads(|| {
            game.validate()?;
            cfrkit_core::tree::compile(&game)
        })
        .py()?;
    Game::from_tree(tree)
}

fn probs_on(game: &Game, policy: &Policy, uniform_fallback: bool) -> PyResult<Vec<f64>> {
    policy.inner.to_tree_keyed(&game.tree, |i| game.key_of(i), uniform_fallback).py()
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
pub fn best_response(
    py: Python<'_>,
    game: &Game,
    policy: &Policy,
    player: usize,
    missing_uniform: bool,
) -> PyResult<(f64, Policy)> {
    let probs = probs_on(game, policy, missing_uniform)?;
    let br = py.allow_threads(|| eval::best_response(&game.tree, &probs, player)).py()?;
    let t = &game.tree;
    let mut pure = vec![0.0; t.infosets.total_actions];
    let mut keep = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, &c) in br.choice.iter().enumerate() {
        if c != u32::MAX {
            pure[t.infosets.offset[i] as usize + c as usize] = 1.0;
            if seen.insert(&t.infosets.keys[i]) {
                keep.push(i);
            }
        }
    }
    let full = TabularPolicy::from_tree(t, &pure);
    // A best response is computed in the game's own information sets and keyed by them.
    Ok((br.value, Policy::new(full.subset(&keep))))
}

/// Registers the classes and functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(compile_recorded, m)?)?;
    m.add_function(wrap_pyfunction!(nash_conv, m)?)?;
    m.add_function(wrap_pyfunction!(exploitability, m)?)?;
    m.add_function(wrap_pyfunction!(expected_values, m)?)?;
    m.add_function(wrap_pyfunction!(best_response, m)?)?;
    Ok(())
}

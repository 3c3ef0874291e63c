//! Blackjack++ bindings beyond the generic solver: building from up cards, and per-node
//! strategy tables in the original's dump naming.

use crate::errors::IntoPy;
use crate::game::Game;
use crate::policy::Policy;
use cfrkit_core::games::blackjack::{dump_nodes, Blackjack};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

/// Builds Blackjack++ with up cards `up` (P0, P1, dealer; each 1..=10) and at most `max_hits`
/// hits per player (0 = no limit), checking the size against the available memory first.
#[pyfunction]
pub fn blackjack_game(py: Python<'_>, up: Vec<i64>, max_hits: i64) -> PyResult<Game> {
    let game = Blackjack::new(&up, max_hits).py()?;
    let tree = py.allow_threads(|| game.build()).py()?;
    Game::from_tree(tree)
}

/// Strategy tables of `policy` on a Blackjack++ `game`, one per decision node in the tree's
/// decision order: (dump paths such as `""`, `"s"`, `"h3/s"`; acting players; probabilities of
/// shape decision nodes × 10 down cards × 2 actions (Stand, Hit)).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn blackjack_strategy<'py>(
    py: Python<'py>,
    game: &Game,
    policy: &Policy,
) -> PyResult<(Vec<String>, Bound<'py, PyArray1<u8>>, Bound<'py, PyArray3<f64>>)> {
    let tree = &game.tree;
    let (nodes, probs) = py
        .allow_threads(|| -> cfrkit_core::Result<_> {
            let nodes = dump_nodes(tree)?;
            let probs = policy.inner.to_tree(tree, false)?;
            Ok((nodes, probs))
        })
        .py()?;
    let mut table = vec![0.0; nodes.len() * 20];
    for (d, info) in tree.decisions.iter().enumerate() {
        for slot in 0..info.slots as usize {
            let off = tree.infosets.offset[info.base as usize + slot] as usize;
            table[d * 20 + slot * 2] = probs[off];
            table[d * 20 + slot * 2 + 1] = probs[off + 1];
        }
    }
    let players: Vec<u8> = nodes.iter().map(|n| n.player).collect();
    let paths: Vec<String> = nodes.into_iter().map(|n| n.path).collect();
    let d = paths.len();
    Ok((paths, PyArray1::from_vec(py, players), PyArray1::from_vec(py, table).reshape([d, 10, 2])?))
}

/// Registers this module's classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(blackjack_game, m)?)?;
    m.add_function(wrap_pyfunction!(blackjack_strategy, m)?)?;
    Ok(())
}

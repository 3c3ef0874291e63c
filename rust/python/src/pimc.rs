//! `pimc_policy`: the PIMC (Perfect Information Monte Carlo) policy of a compiled game.

use crate::errors::IntoPy;
use crate::game::Game;
use crate::policy::Policy;
use cfrkit_core::eval::pimc::{pimc_probs, PimcChance, PimcTies};
use pyo3::prelude::*;

/// The PIMC policy of `game` under its keys: in each information set, the action with the best
/// chance-weighted average perfect-information value over the set's histories. `chance` is
/// "expectation" (later chance averaged) or "fixed" (fixed per world, known in advance); `ties`
/// is "lowest" (lowest action index) or "uniform" (tied actions mixed equally).
#[pyfunction]
#[pyo3(signature = (game, chance = "expectation", ties = "lowest"))]
pub fn pimc_policy(py: Python<'_>, game: &Game, chance: &str, ties: &str) -> PyResult<Policy> {
    let chance = PimcChance::parse(chance).py()?;
    let ties = PimcTies::parse(ties).py()?;
    let probs = py.allow_threads(|| pimc_probs(&game.tree, game.keying.as_deref(), chance, ties)).py()?;
    Ok(game.policy_from_tree(&probs))
}

/// Registers the functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pimc_policy, m)?)?;
    Ok(())
}

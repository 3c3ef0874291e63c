//! Names of the full-width solver family, from the core: `ALGORITHMS`, and the canonical name
//! of an algorithm with its parameters (which checks them).

use crate::errors::IntoPy;
use cfrkit_core::cfr::{Algorithm, ALGORITHM_NAMES, DCFR_DEFAULTS};
use pyo3::prelude::*;

/// The canonical name of `algorithm` with DCFR parameters `alpha`, `beta`, `gamma` (defaults
/// where None), e.g. `"cfr+"` or `"dcfr(1.5,0,2)"`; raises for unknown names and bad parameters.
#[pyfunction]
#[pyo3(signature = (algorithm, alpha = None, beta = None, gamma = None))]
fn algorithm_name(algorithm: &str, alpha: Option<f64>, beta: Option<f64>, gamma: Option<f64>) -> PyResult<String> {
    let (a, b, g) = DCFR_DEFAULTS;
    let algo = Algorithm::parse(algorithm, (alpha.unwrap_or(a), beta.unwrap_or(b), gamma.unwrap_or(g))).py()?;
    Ok(algo.name())
}

/// Registers this module's names and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ALGORITHMS", ALGORITHM_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(algorithm_name, m)?)?;
    Ok(())
}

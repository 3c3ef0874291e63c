//! The canonical name of a solver algorithm with its parameters (which checks them), for every
//! algorithm `Solver` takes; the names themselves are registered with `Solver`.

use crate::errors::IntoPy;
use cfrkit_core::cfr::DCFR_DEFAULTS;
use cfrkit_core::sampled::SolverAlgorithm;
use pyo3::prelude::*;

/// The canonical name of `algorithm` with DCFR parameters `alpha`, `beta`, `gamma` (defaults
/// where None), e.g. `"cfr+"`, `"dcfr(1.5,0,2)"` or `"es-mccfr"`; raises for unknown names and
/// bad parameters.
#[pyfunction]
#[pyo3(signature = (algorithm, alpha = None, beta = None, gamma = None))]
fn algorithm_name(algorithm: &str, alpha: Option<f64>, beta: Option<f64>, gamma: Option<f64>) -> PyResult<String> {
    let (a, b, g) = DCFR_DEFAULTS;
    let dcfr = (alpha.unwrap_or(a), beta.unwrap_or(b), gamma.unwrap_or(g));
    Ok(match SolverAlgorithm::parse(algorithm, dcfr, None).py()? {
        SolverAlgorithm::FullWidth(a) => a.name(),
        SolverAlgorithm::Sampled(m) => m.name().to_string(),
    })
}

/// Registers this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(algorithm_name, m)?)?;
    Ok(())
}

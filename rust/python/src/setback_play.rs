//! Bindings of Setback play: agents, matches, the strategy database.

use pyo3::prelude::*;

/// Registers this module's classes and functions.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}

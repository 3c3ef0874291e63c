//! Bindings of this game's extra API (beyond the generic solver).

use pyo3::prelude::*;

/// Registers this module's classes and functions.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}

//! Conversion of integer arguments with the core's errors: a negative, huge, boolean or
//! non-integer value raises `InvalidArgumentError` naming the argument and the value (instead of
//! pyo3's bare `OverflowError`). Thread counts are checked by the core's `threads` module.

use crate::errors::{invalid_type, IntoPy};
use cfrkit_core::{threads, Error};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// The value as the user wrote it, for messages.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into())
}

/// An integer from 0 to `max`.
fn bounded(obj: &Bound<'_, PyAny>, max: u64) -> Option<u64> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    obj.extract::<u64>().ok().filter(|&v| v <= max)
}

/// `obj` as a `T` (a list of card names, a text), or an `InvalidTypeError` naming `what` and
/// saying what is `allowed`.
pub fn typed_arg<'py, T: FromPyObject<'py>>(obj: &Bound<'py, PyAny>, what: &str, allowed: &str) -> PyResult<T> {
    obj.extract::<T>().map_err(|_| invalid_type(what, &shown(obj), allowed))
}

/// `obj` as an unsigned 64-bit integer, or an error naming `what`.
pub fn u64_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    bounded(obj, u64::MAX)
        .ok_or_else(|| Error::invalid(what, shown(obj), format!("an integer from 0 to {}", u64::MAX)))
        .py()
}

/// `obj` as an unsigned 64-bit integer (`default` when not given), or an error naming `what`.
pub fn opt_u64_arg(obj: Option<&Bound<'_, PyAny>>, what: &str, default: u64) -> PyResult<u64> {
    obj.map_or(Ok(default), |o| u64_arg(o, what))
}

/// `obj` as a requested thread count (0 = `CFRKIT_NUM_THREADS` or all cores).
pub fn threads_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    match bounded(obj, u64::MAX) {
        Some(n) => threads::check(n).py(),
        None => Err(threads::invalid(shown(obj))).py(),
    }
}

/// Checks a requested thread count (0 = `CFRKIT_NUM_THREADS` or all cores, at most
/// `MAX_THREADS`) and returns it.
#[pyfunction]
fn check_threads(threads: &Bound<'_, PyAny>) -> PyResult<usize> {
    threads_arg(threads)
}

/// Registers this module's constants and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", threads::MAX_THREADS)?;
    m.add_function(wrap_pyfunction!(check_threads, m)?)?;
    Ok(())
}

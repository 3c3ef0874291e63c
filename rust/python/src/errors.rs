//! Maps core errors to the one exception hierarchy, which is defined in Python
//! (`cfrkit/errors.py`) so that classes can also derive from `ValueError` or `OSError`.

use cfrkit_core::Error;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

fn raise(class: &str, msg: String) -> PyErr {
    Python::with_gil(|py| {
        let made = py.import("cfrkit.errors").and_then(|m| m.getattr(class)).and_then(|c| c.call1((msg.clone(),)));
        match made {
            Ok(exc) => PyErr::from_value(exc),
            Err(_) => PyRuntimeError::new_err(msg),
        }
    })
}

/// The error of an argument `what` of the wrong Python type (`InvalidTypeError`, also a
/// `TypeError`): its value as written and what is allowed.
pub fn invalid_type(what: &str, value: &str, allowed: &str) -> PyErr {
    raise("InvalidTypeError", format!("invalid value for {what}: {value} ({allowed})"))
}

/// Converts a core error into the matching Python exception.
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::UnknownGame { .. } => raise("UnknownGameError", msg),
        Error::UnknownAlgorithm { .. } => raise("UnknownAlgorithmError", msg),
        Error::InvalidValue { .. } => raise("InvalidArgumentError", msg),
        Error::Compile(_) => raise("CompileError", msg),
        Error::TooLarge(_) => raise("TooLargeError", msg),
        Error::BadFile { .. } => raise("FileFormatError", msg),
        Error::Io { .. } => raise("CfrkitIOError", msg),
        Error::Interrupted => PyKeyboardInterrupt::new_err(msg),
    }
}

/// Extension trait: `.py()` turns a core `Result` into a `PyResult`.
pub trait IntoPy<T> {
    /// Maps the error with [`to_py`].
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for cfrkit_core::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

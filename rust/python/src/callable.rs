//! A Python callable standing in for an agent of any game: checked and named once, called with
//! the GIL, its first exception kept to be re-raised once the native code returns.

use cfrkit_core::Error;
use pyo3::prelude::*;
use std::sync::Mutex;

/// A callable agent's function, label and first exception.
pub struct PyCallable {
    func: Py<PyAny>,
    label: String,
    error: Mutex<Option<PyErr>>,
}

impl PyCallable {
    /// `func` as an agent labelled `name` (default: its `__name__`, else `python`); anything not
    /// callable is refused, naming `specs` (the agent specs the game accepts instead).
    pub fn new(py: Python<'_>, func: Py<PyAny>, name: Option<String>, specs: &str) -> PyResult<PyCallable> {
        let f = func.bind(py);
        if !f.is_callable() {
            let shown = f.repr()?.to_string();
            return Err(crate::errors::to_py(Error::invalid("agent", shown, format!("one of {specs}, or a callable"))));
        }
        let label = match name {
            Some(n) => n,
            None => f.getattr("__name__").and_then(|n| n.extract::<String>()).unwrap_or_else(|_| "python".into()),
        };
        Ok(PyCallable { func, label, error: Mutex::new(None) })
    }

    /// The label reports show.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// `call(py, func)` with the GIL held; a Python exception is kept (the first one) and
    /// becomes a core error naming the `what` of the agent and the `expected` result.
    pub fn call<T>(
        &self,
        what: &str,
        expected: &str,
        call: impl FnOnce(Python<'_>, &Py<PyAny>) -> PyResult<T>,
    ) -> cfrkit_core::Result<T> {
        Python::with_gil(|py| {
            call(py, &self.func).map_err(|e| {
                let msg = e.to_string();
                let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
                if slot.is_none() {
                    *slot = Some(e);
                }
                Error::invalid(format!("{what} of agent {}", self.label), msg, expected)
            })
        })
    }

    /// The first exception the callable raised, taken (so it is re-raised once).
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

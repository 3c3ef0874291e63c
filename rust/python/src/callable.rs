//! A Python callable standing in for an agent of any game: checked and named once, called with
//! the GIL, its first exception kept to be re-raised once the native code returns.

use crate::matches::PyGame;
use cfrkit_core::trick::Agent;
use cfrkit_core::Error;
use pyo3::prelude::*;
use rand_pcg::Pcg64;
use std::marker::PhantomData;
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

/// A Python callable as an agent of any game: called with the game's view object of the seat
/// to act, it returns an action as the game reads one ([`PyGame::parse_action`]); its first
/// exception is kept and re-raised once the native code returns.
pub struct CallableAgent<G> {
    callable: PyCallable,
    game: PhantomData<fn() -> G>,
}

impl<G: PyGame> CallableAgent<G> {
    /// `func` as an agent of `G` labelled `name`; anything not callable is refused, naming the
    /// game's agent specs.
    pub fn new(py: Python<'_>, func: Py<PyAny>, name: Option<String>, specs: &str) -> PyResult<Self> {
        Ok(CallableAgent { callable: PyCallable::new(py, func, name, specs)?, game: PhantomData })
    }

    /// The first exception the callable raised, taken.
    pub fn take_error(&self) -> Option<PyErr> {
        self.callable.take_error()
    }
}

impl<G: PyGame> Agent<G> for CallableAgent<G> {
    fn name(&self) -> String {
        self.callable.label().to_string()
    }
    /// The callable's answer read as an action; an answer that is no action of the view's seat
    /// is an error naming the agent (its exceptions are kept and re-raised as they were).
    fn act(&self, view: &G::View<'_>, _rng: &mut Pcg64) -> cfrkit_core::Result<G::Action> {
        let answer =
            self.callable.call("action", G::ACTIONS, |py, func| func.call1(py, (G::view_object(py, view)?,)))?;
        Python::with_gil(|py| {
            let answer = answer.bind(py);
            G::parse_action(view, answer).map_err(|e| {
                let shown = answer.repr().map_or_else(|_| "?".into(), |r| r.to_string());
                Error::invalid(format!("action of agent {}", self.callable.label()), shown, e.value(py).to_string())
            })
        })
    }
}

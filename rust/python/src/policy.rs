//! `Policy`: a tabular policy (information-state key -> action probabilities) and policy files.

use crate::errors::IntoPy;
use cfrkit_core::policy::TabularPolicy;
use cfrkit_core::KeyList;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A tabular policy: for each information-state key, its legal action ids and probabilities.
#[pyclass(frozen, module = "cfrkit._cfrkit")]
pub struct Policy {
    pub inner: TabularPolicy,
    /// Entry indices sorted (stably) by key, built at the first lookup by key.
    by_key: OnceLock<Vec<u32>>,
}

impl Policy {
    pub fn new(inner: TabularPolicy) -> Policy {
        Policy { inner, by_key: OnceLock::new() }
    }

    /// The entry of `key` (the last one if several have it).
    fn find(&self, key: &str) -> Option<usize> {
        let keys = &self.inner.keys;
        let by_key = self.by_key.get_or_init(|| {
            let mut order: Vec<u32> = (0..keys.len() as u32).collect();
            order.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
            order
        });
        let end = by_key.partition_point(|&i| &keys[i as usize] <= key);
        let i = *by_key[..end].last()? as usize;
        (&keys[i] == key).then_some(i)
    }

    fn entry<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for k in self.inner.range(i) {
            d.set_item(self.inner.actions[k], self.inner.probs[k])?;
        }
        Ok(d)
    }
}

#[pymethods]
impl Policy {
    /// A policy from `{key: {action_id: probability}}`, optionally tagged with a game spec.
    #[new]
    #[pyo3(signature = (table, game = String::new()))]
    fn py_new(table: BTreeMap<String, BTreeMap<u32, f64>>, game: String) -> PyResult<Policy> {
        let mut p = TabularPolicy { game, keys: KeyList::new(), offset: vec![], actions: vec![], probs: vec![] };
        for (key, probs) in table {
            for (&a, &x) in &probs {
                if !(x >= 0.0 && x.is_finite()) {
                    return Err(cfrkit_core::Error::invalid(
                        format!("probability of action {a} at {key:?}"),
                        x,
                        "a finite number >= 0",
                    ))
                    .py();
                }
            }
            p.keys.push(&key);
            p.offset.push(p.actions.len() as u32);
            for (a, x) in probs {
                p.actions.push(a);
                p.probs.push(x);
            }
        }
        Ok(Policy::new(p))
    }
    /// Spec of the game the policy was made for ("" if unknown).
    #[getter]
    fn game(&self) -> String {
        self.inner.game.clone()
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    fn __contains__(&self, key: &str) -> bool {
        self.find(key).is_some()
    }
    /// `{action_id: probability}` at information state `key`.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyDict>> {
        match self.find(key) {
            Some(i) => self.entry(py, i),
            None => Err(PyKeyError::new_err(format!("no information state {key:?} in this policy"))),
        }
    }
    /// Like `policy[key]`, or `default` when the key is absent.
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(&self, py: Python<'py>, key: &str, default: Option<PyObject>) -> PyResult<PyObject> {
        match self.find(key) {
            Some(i) => Ok(self.entry(py, i)?.into_any().unbind()),
            None => Ok(default.unwrap_or_else(|| py.None())),
        }
    }
    /// Information-state keys, in order.
    fn keys(&self) -> Vec<&str> {
        self.inner.keys.iter().collect()
    }
    /// `{key: {action_id: probability}}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (i, k) in self.inner.keys.iter().enumerate() {
            d.set_item(k, self.entry(py, i)?)?;
        }
        Ok(d)
    }
    /// Probabilities as a 2-D array (information states × most actions), zero-padded; row `i`
    /// belongs to `keys()[i]` and its columns to `action_ids()[i]`.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let (n, w) = (self.inner.len(), self.width());
        let mut flat = vec![0.0; n * w];
        for i in 0..n {
            for (j, k) in self.inner.range(i).enumerate() {
                flat[i * w + j] = self.inner.probs[k];
            }
        }
        PyArray1::from_vec(py, flat).reshape([n, w])
    }
    /// Action ids matching `to_numpy()`'s columns, padded with -1.
    fn action_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let (n, w) = (self.inner.len(), self.width());
        let mut flat = vec![-1i64; n * w];
        for i in 0..n {
            for (j, k) in self.inner.range(i).enumerate() {
                flat[i * w + j] = self.inner.actions[k] as i64;
            }
        }
        PyArray1::from_vec(py, flat).reshape([n, w])
    }
    /// Writes the policy to a versioned, checksummed file (atomically).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.allow_threads(|| self.inner.save(&path)).py()
    }
    /// An OpenSpiel `TabularPolicy` holding this policy (see `cfrkit.to_openspiel`).
    #[pyo3(signature = (pyspiel_game, game = None))]
    fn to_openspiel(slf: &Bound<'_, Self>, pyspiel_game: PyObject, game: Option<PyObject>) -> PyResult<PyObject> {
        let py = slf.py();
        let f = py.import("cfrkit.define")?.getattr("to_openspiel")?;
        Ok(f.call1((slf, pyspiel_game, game))?.unbind())
    }
    fn __repr__(&self) -> String {
        format!("Policy(game={:?}, infosets={})", self.inner.game, self.inner.len())
    }
}

impl Policy {
    fn width(&self) -> usize {
        (0..self.inner.len()).map(|i| self.inner.range(i).len()).max().unwrap_or(0)
    }
}

/// Reads a policy file written by `Policy.save`, verifying its header and checksum.
#[pyfunction]
pub fn load_policy(py: Python<'_>, path: PathBuf) -> PyResult<Policy> {
    let p = py.allow_threads(|| TabularPolicy::load(&path)).py()?;
    Ok(Policy::new(p))
}

/// Registers the classes and functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Policy>()?;
    m.add_function(wrap_pyfunction!(load_policy, m)?)?;
    Ok(())
}

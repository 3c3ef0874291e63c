//! Bindings of the core's file store beyond strategy files: the lock of a run directory and the
//! removal of temporary files left by killed writes.

use crate::errors::IntoPy;
use cfrkit_core::store;
use pyo3::prelude::*;
use std::path::PathBuf;

/// An exclusive hold on a run directory (an OS lock on `DIR/.lock`), created if needed: a second
/// run given the same directory is refused while the first lives; a killed run leaves nothing
/// stuck. Use as a context manager, or call `release()`.
#[pyclass(module = "cfrkit._cfrkit", name = "RunLock")]
pub struct RunLock {
    inner: store::RunLock,
}

#[pymethods]
impl RunLock {
    #[new]
    fn new(py: Python<'_>, directory: PathBuf) -> PyResult<Self> {
        Ok(RunLock { inner: py.allow_threads(|| store::RunLock::acquire(&directory)).py()? })
    }
    /// The lock file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }
    /// Whether the lock is still held.
    #[getter]
    fn held(&self) -> bool {
        self.inner.held()
    }
    /// Releases the lock (releasing twice does nothing).
    fn release(&mut self) {
        self.inner.release();
    }
    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }
    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.inner.release();
        false
    }
    fn __repr__(&self) -> String {
        format!("RunLock({:?}, held={})", self.inner.path(), self.inner.held())
    }
}

/// Removes the temporary files of atomic writes in `directory` whose writing process has ended
/// (or that are more than a day old); returns the files removed.
#[pyfunction]
fn remove_stale_temps(py: Python<'_>, directory: PathBuf) -> PyResult<Vec<PathBuf>> {
    py.allow_threads(|| store::remove_stale_temps(&directory)).py()
}

/// Registers this module's classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RunLock>()?;
    m.add_function(wrap_pyfunction!(remove_stale_temps, m)?)?;
    Ok(())
}

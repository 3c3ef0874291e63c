//! Bindings of game logs: a writer that native matches write their games to (the core's
//! `arena::log`), opened by each game's binding with its header.

use crate::errors::IntoPy;
use cfrkit_core::arena::log::{Header, LogWriter};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A game log being written: games go to it in their numbers' order (see `docs/logs.md`).
#[pyclass(module = "cfrkit._cfrkit", frozen)]
pub struct GameLogWriter {
    pub inner: Arc<LogWriter>,
}

impl GameLogWriter {
    /// A writer of a new log at `path` (`keep = 0`, not `resume`), or one going on after the
    /// first `keep` games of the log there (a checkpointed run resumed: also with `keep = 0`,
    /// when it stopped before its first part was saved).
    pub fn open(path: PathBuf, header: &Header, keep: u64, resume: bool) -> PyResult<GameLogWriter> {
        let w = if keep == 0 && !resume {
            LogWriter::create(&path, header)
        } else {
            LogWriter::resume(&path, header, keep)
        };
        Ok(GameLogWriter { inner: Arc::new(w.py()?) })
    }

    /// A writer of a piece of a log at `path`: the header, then the games from `first_game` on
    /// (a part of a match played on a cluster's worker).
    pub fn piece(path: PathBuf, header: &Header, first_game: u64) -> PyResult<GameLogWriter> {
        Ok(GameLogWriter { inner: Arc::new(LogWriter::create_from(&path, header, first_game).py()?) })
    }
}

#[pymethods]
impl GameLogWriter {
    /// The games written so far.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.next_game()
    }
    /// The path written.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }
    /// Writes what is buffered and syncs the file; returns the games in the log.
    fn finish(&self) -> PyResult<u64> {
        self.inner.finish().py()
    }
    fn __repr__(&self) -> String {
        format!("GameLogWriter({:?}, games={})", self.inner.path(), self.inner.next_game())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GameLogWriter>()
}

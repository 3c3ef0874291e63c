//! Bindings of ISS game records (the core's `games::skat::iss`): a reader that replays a file's
//! records on a background thread and hands them to Python in line order, conversions to and
//! from cfrkit game logs, and a file's statistics. The GIL is released while the core works;
//! Ctrl-C stops a conversion between batches.

use crate::errors::IntoPy;
use crate::skat::SkatGame;
use cfrkit_core::games::skat::iss::{self, record, Counts, Filter, LineResult, Stats};
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;

/// Lines rejected: line, id, reason.
type RejectedLines = Vec<(u64, String, String)>;

/// Items handed from the reading thread: a batch of line outcomes, or the error that ended the
/// read.
type Batch = Result<Vec<LineResult>, Error>;

/// A record file being read (see `cfrkit.skat.read_iss`).
#[pyclass(module = "cfrkit._cfrkit")]
pub struct IssReader {
    batches: Mutex<Receiver<Batch>>,
    pending: std::collections::VecDeque<LineResult>,
    filter: Filter,
    done: bool,
}

fn counts_dict<'py>(py: Python<'py>, c: Counts) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("lines", c.lines)?;
    d.set_item("games", c.games)?;
    d.set_item("rejected", c.rejected)?;
    Ok(d)
}

fn game_dict<'py>(py: Python<'py>, r: &iss::Replayed) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let rec = &r.record;
    d.set_item("line", r.record_line)?;
    d.set_item("place", &rec.place)?;
    d.set_item("series", &rec.series)?;
    d.set_item("id", &rec.id)?;
    d.set_item("date", &rec.date)?;
    d.set_item("players", rec.players.to_vec())?;
    d.set_item("ratings", rec.ratings.to_vec())?;
    d.set_item("moves", rec.moves.iter().map(record::move_text).collect::<Vec<_>>())?;
    d.set_item("result", record::result_text(&r.result))?;
    d.set_item("end", r.end.name())?;
    d.set_item("contract", r.contract.map(|c| c.name()))?;
    d.set_item("returns", iss::seeger_fabian(&r.result).to_vec())?;
    d.set_item("notes", r.notes.clone())?;
    d.set_item("game", SkatGame::from_game(r.game).into_pyobject(py)?)?;
    Ok(d)
}

fn filter_of(spec: Option<&str>) -> PyResult<Filter> {
    Filter::parse(spec.unwrap_or("")).py()
}

#[pymethods]
impl IssReader {
    /// Opens `path` (plain or bzip2) and starts reading it on `threads` threads (0 = default);
    /// `filter` keeps the records a [`Filter`] spec names.
    #[new]
    #[pyo3(signature = (path, threads = 0, filter = None))]
    fn new(path: PathBuf, threads: usize, filter: Option<&str>) -> PyResult<Self> {
        let filter = filter_of(filter)?;
        cfrkit_core::threads::check(threads as u64).py()?;
        // Open here, so that a missing file or a directory is an error of this call.
        drop(iss::files::open(&path).py()?.0);
        let (send, receive) = sync_channel::<Batch>(2);
        std::thread::spawn(move || {
            let out = iss::read_file(&path, threads, &mut |batch| send.send(Ok(batch)).map_err(|_| Error::Interrupted));
            if let Err(e) = out {
                if !matches!(e, Error::Interrupted) {
                    let _ = send.send(Err(e));
                }
            }
        });
        Ok(IssReader { batches: Mutex::new(receive), pending: Default::default(), filter, done: false })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next record: `("game", dict)` or `("rejected", (line, id, reason))`; None at the end.
    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<(String, PyObject)>> {
        loop {
            if let Some(r) = self.pending.pop_front() {
                return match r {
                    Ok(g) if self.filter.keeps(&g) => Ok(Some(("game".into(), game_dict(py, &g)?.into_any().unbind()))),
                    Ok(_) => continue,
                    Err(e) => {
                        Ok(Some(("rejected".into(), (e.line, e.id, e.reason).into_pyobject(py)?.into_any().unbind())))
                    }
                };
            }
            if self.done {
                return Ok(None);
            }
            let next = {
                let receiver = &self.batches;
                py.allow_threads(|| receiver.lock().ok().and_then(|r| r.recv().ok()))
            };
            match next {
                Some(Ok(batch)) => self.pending.extend(batch),
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e).py();
                }
                None => self.done = true,
            }
        }
    }
}

/// Converts the records of `path` into a cfrkit game log at `out`; `on_batch(rejected, counts)`
/// hears of each batch (`rejected` a list of `(line, id, reason)`), Ctrl-C stops the run and
/// leaves no file. Returns the counts of the file and `written`.
#[pyfunction]
#[pyo3(signature = (path, out, threads = 0, filter = None, on_batch = None))]
fn iss_to_log<'py>(
    py: Python<'py>,
    path: PathBuf,
    out: PathBuf,
    threads: usize,
    filter: Option<&str>,
    on_batch: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let filter = filter_of(filter)?;
    cfrkit_core::threads::check(threads as u64).py()?;
    let mut stopped: Option<PyErr> = None;
    let result = py.allow_threads(|| {
        iss::convert_to_log(&path, &out, threads, &filter, &mut |rejected, counts| {
            Python::with_gil(|py| {
                let report = || -> PyResult<()> {
                    py.check_signals()?;
                    if let Some(f) = &on_batch {
                        let list: RejectedLines =
                            rejected.iter().map(|e| (e.line, e.id.clone(), e.reason.clone())).collect();
                        f.call1(py, (list, counts_dict(py, counts)?))?;
                    }
                    Ok(())
                };
                report().map_err(|e| {
                    stopped = Some(e);
                    Error::Interrupted
                })
            })
        })
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    let c = result.py()?;
    let d = counts_dict(py, c.read)?;
    d.set_item("written", c.written)?;
    Ok(d)
}

/// Writes the games of the cfrkit Skat log at `log` as ISS records to `out`; returns their
/// number.
#[pyfunction]
#[pyo3(signature = (log, out, place = "cfrkit"))]
fn log_to_iss(py: Python<'_>, log: PathBuf, out: PathBuf, place: &str) -> PyResult<u64> {
    py.allow_threads(|| iss::records_of_log(&log, &out, place)).py()
}

/// The statistics of the records of `path` that replay and that `filter` keeps, as JSON text,
/// and the file's counts.
#[pyfunction]
#[pyo3(signature = (path, threads = 0, filter = None))]
fn iss_stats<'py>(
    py: Python<'py>,
    path: PathBuf,
    threads: usize,
    filter: Option<&str>,
) -> PyResult<(String, Bound<'py, PyDict>, RejectedLines)> {
    let filter = filter_of(filter)?;
    cfrkit_core::threads::check(threads as u64).py()?;
    let mut stats = Stats::default();
    let mut rejected = Vec::new();
    let mut stopped = None;
    let counts = py.allow_threads(|| {
        iss::read_file(&path, threads, &mut |batch| {
            for r in batch {
                match r {
                    Ok(g) if filter.keeps(&g) => stats.add(&g),
                    Ok(_) => {}
                    Err(e) => rejected.push((e.line, e.id, e.reason)),
                }
            }
            Python::with_gil(|py| py.check_signals()).map_err(|e| {
                stopped = Some(e);
                Error::Interrupted
            })
        })
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    let counts = counts.py()?;
    Ok((stats.to_json().to_string(), counts_dict(py, counts)?, rejected))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<IssReader>()?;
    m.add_function(wrap_pyfunction!(iss_to_log, m)?)?;
    m.add_function(wrap_pyfunction!(log_to_iss, m)?)?;
    m.add_function(wrap_pyfunction!(iss_stats, m)?)
}

//! Helpers the games' match bindings share: what a match does between its chunks of games
//! (Ctrl-C, a callable agent's exception, progress), a match's per-deal means to and from Python
//! (so that matches played in pieces, e.g. on a cluster, merge into the figures of one run) and a
//! tournament's cross table as a dict.

use crate::errors::IntoPy;
use cfrkit_core::arena::{check_pair, CrossTable, PairResult};
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// What a native match loop does between its chunks of games (every tenth of a second, with the
/// GIL): stop on Ctrl-C or on the first exception `failed()` returns (a callable agent's), the
/// exception kept in `stopped`, and call `progress(done, total)` when the games done changed.
pub fn between_chunks<'a>(
    failed: impl Fn() -> Option<PyErr> + 'a,
    progress: Option<&'a Py<PyAny>>,
    stopped: &'a mut Option<PyErr>,
) -> impl FnMut(u64, u64) -> cfrkit_core::Result<()> + 'a {
    let mut told = None;
    move |done, total| {
        Python::with_gil(|py| {
            let mut result = failed().map_or_else(|| py.check_signals(), Err);
            if let (Ok(()), Some(f)) = (&result, progress) {
                if told != Some(done) {
                    told = Some(done);
                    result = f.call1(py, (done, total)).map(drop);
                }
            }
            result.map_err(|e| {
                *stopped = Some(e);
                Error::Interrupted
            })
        })
    }
}

/// A tournament's pair as Python sends it: `(i, j, per-deal means, games)`.
pub type PairDeals = (usize, usize, Vec<(f64, f64)>, u64);

/// A match's per-deal means `(A, B)`, in deal order.
pub fn per_deal_list(r: &PairResult) -> Vec<(f64, f64)> {
    r.per_deal.iter().map(|x| (x[0], x[1])).collect()
}

/// The match of `games` games whose deals' means are `per_deal` (in deal order).
pub fn pair_of_deals(per_deal: Vec<(f64, f64)>, games: u64) -> PairResult {
    PairResult::of_deals(per_deal.into_iter().map(|(a, b)| [a, b]).collect(), games)
}

/// The cross table of agents `names` from each pair's `(i, j, per_deal, games)`.
pub fn cross_table_of(names: Vec<String>, pairs: Vec<PairDeals>) -> PyResult<CrossTable> {
    let pairs = pairs
        .into_iter()
        .map(|(i, j, per_deal, games)| {
            check_pair(names.len(), i, j).py()?;
            Ok((i, j, pair_of_deals(per_deal, games)))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(CrossTable { names, pairs })
}

/// A tournament's figures: `pairs` (each made by `pair(i, j, result)`), `names`, `cells` (row
/// agent's mean and interval against each column agent), `row_means` and the `table` as text
/// in `unit`.
pub fn cross_table_dict<'py>(
    py: Python<'py>,
    t: &CrossTable,
    unit: &str,
    pair: impl Fn(usize, usize, &PairResult) -> PyResult<Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let pairs = t.pairs.iter().map(|(i, j, r)| pair(*i, *j, r)).collect::<PyResult<Vec<_>>>()?;
    d.set_item("pairs", pairs)?;
    d.set_item("names", t.names.clone())?;
    let n = t.names.len();
    let cells: Vec<Vec<Option<(f64, f64)>>> = (0..n).map(|i| (0..n).map(|j| t.cell(i, j)).collect()).collect();
    d.set_item("cells", cells)?;
    d.set_item("row_means", t.row_means())?;
    d.set_item("table", t.render(unit))?;
    Ok(d)
}

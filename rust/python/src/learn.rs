//! Bindings of learned policies: imitation training on game logs, with the GIL released
//! between epochs (Ctrl-C stops training). The networks and their agents live in the core.

use crate::errors::IntoPy;
use cfrkit_core::games::schafkopf::learned::SchafkopfPolicies;
use cfrkit_core::games::setback::learned::SetbackPolicies;
use cfrkit_core::games::skat::learned::SkatPolicies;
use cfrkit_core::learn::{self, TrainSettings};
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Trains a policy of `game` (`skat`, `schafkopf`, `setback`) on the game logs `logs` into the directory
/// `out` (see `cfrkit.learn.imitate`); returns per decision kind its training figures.
#[pyfunction]
#[pyo3(signature = (game, logs, out, hidden, epochs, batch, learning_rate, holdout, patience, seed, kinds = Vec::new(), resume = false, progress = None, augment = Vec::new(), soft = 0.0, temperature = 1.0))]
#[allow(clippy::too_many_arguments)]
fn imitate_policy<'py>(
    py: Python<'py>,
    game: &str,
    logs: Vec<std::path::PathBuf>,
    out: std::path::PathBuf,
    hidden: Vec<usize>,
    epochs: usize,
    batch: usize,
    learning_rate: f64,
    holdout: f64,
    patience: usize,
    seed: u64,
    kinds: Vec<String>,
    resume: bool,
    progress: Option<Py<PyAny>>,
    augment: Vec<String>,
    soft: f64,
    temperature: f64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let settings = TrainSettings {
        hidden,
        epochs,
        batch,
        learning_rate,
        holdout,
        patience,
        seed,
        kinds,
        augment,
        soft,
        temperature,
    };
    let mut stopped = None;
    let res = py.allow_threads(|| {
        let mut between = |kind: &str, epoch: usize, r: &learn::TrainReport| {
            Python::with_gil(|py| {
                let result = py.check_signals().and_then(|()| match &progress {
                    Some(f) => f.call1(py, (kind, epoch, r.heldout_accuracy, r.heldout_loss)).map(drop),
                    None => Ok(()),
                });
                result.map_err(|e| {
                    stopped = Some(e);
                    Error::Interrupted
                })
            })
        };
        match game {
            "skat" => learn::imitate::<SkatPolicies>(&logs, &out, &settings, resume, &mut between),
            "schafkopf" => learn::imitate::<SchafkopfPolicies>(&logs, &out, &settings, resume, &mut between),
            "setback" => learn::imitate::<SetbackPolicies>(&logs, &out, &settings, resume, &mut between),
            other => Err(Error::invalid("game", other, "skat, schafkopf or setback")),
        }
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    res.py()?
        .into_iter()
        .map(|(kind, r)| {
            let d = PyDict::new(py);
            d.set_item("kind", kind)?;
            d.set_item("train_samples", r.train_samples)?;
            d.set_item("heldout_samples", r.heldout_samples)?;
            d.set_item("heldout_accuracy", r.heldout_accuracy)?;
            d.set_item("baseline_accuracy", r.baseline_accuracy)?;
            d.set_item("heldout_best_accuracy", r.heldout_best_accuracy)?;
            d.set_item("heldout_loss", r.heldout_loss)?;
            d.set_item("train_loss", r.train_loss)?;
            d.set_item("epochs", r.epochs)?;
            d.set_item("best_epoch", r.best_epoch)?;
            d.set_item("samples_per_second", r.samples_per_second)?;
            d.set_item("heldout_accuracy_by_stage", r.heldout_accuracy_by_stage)?;
            Ok(d)
        })
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(imitate_policy, m)?)?;
    m.add("LEARN_NET_OPTIONS", learn::NET_OPTIONS)?;
    Ok(())
}

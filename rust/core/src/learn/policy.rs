//! A learned policy on disk: a directory with one network per decision kind and `model.json`,
//! the versioned description that says what each network is.
//!
//! `model.json`: `format` (`"cfrkit-policy-net"`), `version` (1), `game`, `features` (inputs of
//! every network), `seed`, `logs` (the files trained on), and `nets`, one entry per decision
//! kind: `kind`, `file` (safetensors, see [`super::mlp`]), `action_offset` and `actions` (the
//! network's outputs are the game's action ids `action_offset .. action_offset + actions`),
//! `sizes` (layer sizes, inputs first), and the training figures (`train_samples`,
//! `heldout_samples`, `heldout_accuracy`, `baseline_accuracy`, `heldout_best_accuracy` where
//! the logs gave values, `heldout_loss`, `train_loss`, `epochs`, `best_epoch`); and `settings`, the training settings (what `--resume` checks).
//! Descriptions written before the losses and settings were recorded load with losses 0 and no
//! settings.

use super::imitate::TrainSettings;
use super::mlp::DenseMlp;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The format tag of `model.json`.
pub const FORMAT: &str = "cfrkit-policy-net";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// The description's file name in a policy directory.
pub const DESCRIPTION: &str = "model.json";

/// One network of a policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetEntry {
    pub kind: String,
    pub file: String,
    pub action_offset: usize,
    pub actions: usize,
    pub sizes: Vec<usize>,
    pub train_samples: usize,
    pub heldout_samples: usize,
    pub heldout_accuracy: f64,
    pub baseline_accuracy: f64,
    /// See [`super::imitate::TrainReport::heldout_best_accuracy`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heldout_best_accuracy: Option<f64>,
    #[serde(default)]
    pub heldout_loss: f64,
    #[serde(default)]
    pub train_loss: f64,
    pub epochs: usize,
    pub best_epoch: usize,
    /// A value network (its outputs are the actions' predicted outcomes, not logits).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub value: bool,
    /// See [`super::imitate::TrainReport::heldout_accuracy_by_stage`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heldout_accuracy_by_stage: Vec<(u8, usize, f64)>,
}

#[cfg(test)]
impl NetEntry {
    /// An entry of tests: a network of `kind` with one layer from `inputs` to `actions` outputs
    /// (action ids from `action_offset`), no training figures.
    pub(crate) fn toy(kind: &str, action_offset: usize, inputs: usize, actions: usize, value: bool) -> NetEntry {
        NetEntry {
            kind: kind.into(),
            file: format!("{kind}.safetensors"),
            action_offset,
            actions,
            sizes: vec![inputs, actions],
            train_samples: 0,
            heldout_samples: 0,
            heldout_accuracy: 0.9,
            baseline_accuracy: 0.5,
            heldout_best_accuracy: None,
            heldout_loss: 0.0,
            train_loss: 0.0,
            epochs: 0,
            best_epoch: 0,
            value,
            heldout_accuracy_by_stage: Vec::new(),
        }
    }
}

/// `model.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    pub format: String,
    pub version: u32,
    pub game: String,
    pub features: usize,
    pub seed: u64,
    pub logs: Vec<String>,
    pub nets: Vec<NetEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<TrainSettings>,
}

impl Description {
    /// An empty description of a policy for `game` with `features` inputs.
    pub fn new(game: &str, features: usize, seed: u64, logs: Vec<String>) -> Description {
        Description {
            format: FORMAT.into(),
            version: VERSION,
            game: game.into(),
            features,
            seed,
            logs,
            nets: Vec::new(),
            settings: None,
        }
    }

    /// Writes the description into `dir` (atomically).
    pub fn save(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(|e| Error::invalid("policy description", e, "JSON"))?;
        crate::store::write_atomic(&dir.join(DESCRIPTION), text.as_bytes())
    }
}

/// A loaded policy: its description and its networks by decision kind.
#[derive(Clone, Debug)]
pub struct Policy {
    pub dir: PathBuf,
    pub description: Description,
    pub nets: BTreeMap<String, (NetEntry, DenseMlp)>,
}

impl Policy {
    /// Loads the policy in `dir`, which must be one of `game` with `features` inputs: a missing
    /// directory, a foreign or corrupt description, or a network file that does not match it is
    /// refused.
    pub fn load(dir: &Path, game: &str, features: usize) -> Result<Policy> {
        let path = dir.join(DESCRIPTION);
        let bad = |why: String| Error::BadFile { path: path.display().to_string(), reason: why };
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON ({e})")))?;
        if value.get("format").and_then(|v| v.as_str()) != Some(FORMAT) {
            return Err(bad(format!("no {FORMAT:?} tag: not a cfrkit policy")));
        }
        let description: Description = serde_json::from_value(value).map_err(|e| bad(format!("malformed ({e})")))?;
        if description.version != VERSION {
            return Err(bad(format!("version {}; this cfrkit reads version {VERSION}", description.version)));
        }
        if description.game != game {
            return Err(bad(format!("a policy of {}, not of {game}", description.game)));
        }
        if description.features != features {
            return Err(bad(format!(
                "a policy of {game} with {} features, not {features}: trained on another version of \
                 the game's features, train it again",
                description.features
            )));
        }
        let mut nets = BTreeMap::new();
        for e in &description.nets {
            if e.sizes.first() != Some(&features) || e.sizes.last() != Some(&e.actions) || e.file.contains(['/', '\\'])
            {
                return Err(bad(format!("net {:?} does not fit its inputs, outputs or directory", e.kind)));
            }
            nets.insert(e.kind.clone(), (e.clone(), DenseMlp::load(&dir.join(&e.file), &e.sizes)?));
        }
        Ok(Policy { dir: dir.to_path_buf(), description, nets })
    }
}

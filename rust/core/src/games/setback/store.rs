//! Setback training files, in the versioned, checksummed, atomically written container of
//! [`crate::store`]:
//!
//! * checkpoint (kind `SBCKPT`): abstraction id (the stage), algorithm, seed, iterations done,
//!   for the bootstrap stage the fingerprint of the baseline strategy it plays out with, the sum
//!   of root values, then every infoset sorted by key: `u64 key`, `n` regrets and `n` strategy
//!   weights as f32 bits (`n` follows from the key). Resuming from it continues exactly.
//! * strategy (kind `SBSTRAT`): abstraction id, algorithm, seed, iterations, average root value,
//!   then every infoset sorted by key: `u64 key` and its `n` average-strategy probabilities (f32,
//!   0.001 threshold applied).
//!
//! The abstraction id names the stage: baseline files hold baseline keys only, bootstrap files
//! bootstrap keys only.

use super::keys::{self, Key};
use super::table::Table;
use super::train::{average_strategy, Algo, Trainer};
use crate::error::{Error, Result};
use crate::store::{read_container, write_container, Reader, Writer};
use std::path::Path;
use std::sync::Arc;

/// A training stage (spec §2.1, §2.9), each with its own keys and file abstraction id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The baseline deal game (auction with the Jack filter, establish, playout).
    Baseline,
    /// The score-aware auction game played out by a baseline strategy.
    Bootstrap,
}

impl Stage {
    /// The abstraction id written in files of this stage.
    pub fn abstraction(&self) -> &'static str {
        match self {
            Stage::Baseline => "setback-baseline-v1",
            Stage::Bootstrap => "setback-bootstrap-v1",
        }
    }
    /// `baseline` or `bootstrap`.
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Baseline => "baseline",
            Stage::Bootstrap => "bootstrap",
        }
    }
    fn of_abstraction(id: &str) -> Option<Stage> {
        [Stage::Baseline, Stage::Bootstrap].into_iter().find(|s| s.abstraction() == id)
    }
    /// Whether a key belongs to this stage.
    pub fn owns(&self, k: Key) -> bool {
        keys::is_bootstrap(k) == (*self == Stage::Bootstrap)
    }
}

/// Index of the largest probability, the first on ties (the original's `StrategyProfile.Best`).
pub fn argmax(probs: &[f32]) -> usize {
    let mut best = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > probs[best] {
            best = i;
        }
    }
    best
}
const CHECKPOINT: &[u8; 8] = b"SBCKPT\0\0";
const STRATEGY: &[u8; 8] = b"SBSTRAT\0";

fn bad(path: &Path, reason: impl Into<String>) -> Error {
    Error::BadFile { path: path.display().to_string(), reason: reason.into() }
}

fn with_path(path: &Path, e: Error) -> Error {
    match e {
        Error::BadFile { reason, .. } => bad(path, reason),
        other => other,
    }
}

fn check_key(path: &Path, stage: Stage, k: Key) -> Result<usize> {
    let n = keys::key_num_actions(k);
    if !keys::is_valid(k) || !(2..=6).contains(&n) || !stage.owns(k) {
        return Err(bad(path, format!("invalid Setback {} key {k:#x}", stage.name())));
    }
    Ok(n)
}

fn read_header(r: &mut Reader, path: &Path) -> Result<(Stage, Algo, u64, u64)> {
    let abs = r.str()?;
    let stage = Stage::of_abstraction(&abs).ok_or_else(|| {
        bad(
            path,
            format!(
                "abstraction {abs:?}; this cfrkit reads {:?} and {:?}",
                Stage::Baseline.abstraction(),
                Stage::Bootstrap.abstraction()
            ),
        )
    })?;
    let algo = Algo::parse(&r.str()?).map_err(|e| bad(path, e.to_string()))?;
    Ok((stage, algo, r.u64()?, r.u64()?))
}

/// Writes a checkpoint of `t` to `path` atomically.
pub fn save_checkpoint(t: &Trainer, path: &Path) -> Result<()> {
    let entries = t.table.entries();
    let mut w = Writer::default();
    w.str(t.stage().abstraction());
    w.str(t.algo.name());
    w.u64(t.seed);
    w.u64(t.iterations);
    if let Some(b) = &t.baseline {
        w.u64(b.fingerprint());
    }
    w.f64(t.value_sum);
    w.u64(entries.len() as u64);
    w.buf.reserve(entries.len() * 32);
    for (k, slot) in entries {
        w.u64(k);
        let n = keys::key_num_actions(k);
        for i in 0..2 * n {
            w.u32(t.table.load(slot + i as u32).to_bits());
        }
    }
    write_container(path, CHECKPOINT, &w.buf)
}

/// Loads a checkpoint into a trainer with `threads` threads. A bootstrap checkpoint needs the
/// baseline strategy it was trained with (checked by fingerprint); a baseline one takes none.
pub fn load_checkpoint(path: &Path, threads: usize, baseline: Option<Arc<Strategy>>) -> Result<Trainer> {
    let payload = read_container(path, CHECKPOINT)?;
    let mut r = Reader::new(&payload);
    let body = (|| -> Result<Trainer> {
        let (stage, algo, seed, iterations) = read_header(&mut r, path)?;
        match (stage, &baseline) {
            (Stage::Baseline, Some(_)) => {
                return Err(Error::invalid("baseline", "a baseline strategy", "none: this is a baseline checkpoint"))
            }
            (Stage::Bootstrap, None) => {
                return Err(Error::invalid(
                    "baseline",
                    "none",
                    "the baseline strategy this bootstrap checkpoint was trained with",
                ))
            }
            (Stage::Bootstrap, Some(b)) => {
                let want = r.u64()?;
                if b.fingerprint() != want {
                    return Err(Error::invalid(
                        "baseline",
                        format!("a strategy with fingerprint {:#018x}", b.fingerprint()),
                        format!("the baseline this checkpoint was trained with (fingerprint {want:#018x})"),
                    ));
                }
            }
            (Stage::Baseline, None) => {}
        }
        let value_sum = r.f64()?;
        let count = r.u64()?;
        let table = Table::new();
        for _ in 0..count {
            let k = r.u64()?;
            let n = check_key(path, stage, k)?;
            let slot = table.slot(k, n);
            for i in 0..2 * n {
                table.store(slot + i as u32, f32::from_bits(r.u32()?));
            }
        }
        if !r.done() || table.len() as u64 != count {
            return Err(bad(path, "infoset records do not match the count"));
        }
        Trainer::with_state(algo, seed, baseline.clone(), table, iterations, value_sum, threads)
    })();
    body.map_err(|e| with_path(path, e))
}

/// A trained average strategy: sorted keys with their action probabilities.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The stage it belongs to (which keys it holds).
    pub stage: Stage,
    /// Algorithm that produced it.
    pub algo: Algo,
    /// Seed of the run.
    pub seed: u64,
    /// Iterations of the run.
    pub iterations: u64,
    /// Average root value of the non-dealer team.
    pub root_value: f64,
    /// Keys, ascending.
    pub keys: Vec<Key>,
    /// Start of each key's probabilities in `probs`; `offsets[keys.len()]` = `probs.len()`.
    pub offsets: Vec<u64>,
    /// Probabilities, key after key, in each key's canonical action order.
    pub probs: Vec<f32>,
}

impl Strategy {
    /// The average strategy of a trainer's table.
    pub fn from_trainer(t: &Trainer) -> Strategy {
        let entries = t.table.entries();
        let mut s = Strategy {
            stage: t.stage(),
            algo: t.algo,
            seed: t.seed,
            iterations: t.iterations,
            root_value: t.stats().root_value,
            keys: Vec::with_capacity(entries.len()),
            offsets: Vec::with_capacity(entries.len() + 1),
            probs: Vec::with_capacity(entries.len() * 3),
        };
        for (k, slot) in entries {
            let n = keys::key_num_actions(k);
            let sums: Vec<f32> = (0..n).map(|i| t.table.load(slot + (n + i) as u32)).collect();
            s.keys.push(k);
            s.offsets.push(s.probs.len() as u64);
            s.probs.extend(average_strategy(&sums));
        }
        s.offsets.push(s.probs.len() as u64);
        s
    }

    /// Probabilities of `key`, if trained.
    pub fn get(&self, key: Key) -> Option<&[f32]> {
        let i = self.keys.binary_search(&key).ok()?;
        Some(&self.probs[self.offsets[i] as usize..self.offsets[i + 1] as usize])
    }

    /// Index of the most probable action of `key` (the first on ties), if trained.
    pub fn best(&self, key: Key) -> Option<usize> {
        self.get(key).map(argmax)
    }

    /// A checksum of the keys and probabilities, identifying the strategy.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crc32fast::Hasher::new();
        for k in &self.keys {
            h.update(&k.to_le_bytes());
        }
        for p in &self.probs {
            h.update(&p.to_bits().to_le_bytes());
        }
        ((self.keys.len() as u64) << 32) | h.finalize() as u64
    }

    /// Writes the strategy to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut w = Writer::default();
        w.str(self.stage.abstraction());
        w.str(self.algo.name());
        w.u64(self.seed);
        w.u64(self.iterations);
        w.f64(self.root_value);
        w.u64(self.keys.len() as u64);
        w.buf.reserve(self.keys.len() * 8 + self.probs.len() * 4);
        for (i, &k) in self.keys.iter().enumerate() {
            w.u64(k);
            for &p in &self.probs[self.offsets[i] as usize..self.offsets[i + 1] as usize] {
                w.u32(p.to_bits());
            }
        }
        write_container(path, STRATEGY, &w.buf)
    }

    /// Reads a strategy file.
    pub fn load(path: &Path) -> Result<Strategy> {
        let payload = read_container(path, STRATEGY)?;
        let mut r = Reader::new(&payload);
        let body = (|| -> Result<Strategy> {
            let (stage, algo, seed, iterations) = read_header(&mut r, path)?;
            let root_value = r.f64()?;
            let count = r.u64()? as usize;
            let mut s = Strategy {
                stage,
                algo,
                seed,
                iterations,
                root_value,
                keys: Vec::with_capacity(count.min(payload.len() / 8)),
                offsets: Vec::with_capacity(count.min(payload.len() / 8) + 1),
                probs: Vec::new(),
            };
            for _ in 0..count {
                let k = r.u64()?;
                let n = check_key(path, stage, k)?;
                if s.keys.last().is_some_and(|&last| last >= k) {
                    return Err(bad(path, "keys are not in ascending order"));
                }
                s.keys.push(k);
                s.offsets.push(s.probs.len() as u64);
                for _ in 0..n {
                    s.probs.push(f32::from_bits(r.u32()?));
                }
            }
            s.offsets.push(s.probs.len() as u64);
            if !r.done() {
                return Err(bad(path, "bytes left after the last infoset"));
            }
            Ok(s)
        })();
        body.map_err(|e| with_path(path, e))
    }
}

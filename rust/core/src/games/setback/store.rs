//! Setback training files: the integer-key checkpoint and strategy files of
//! [`crate::sampled::files`] (in the versioned, checksummed, atomically written container of
//! [`crate::store`]) with Setback's headers, and what they record of a run: its stage,
//! algorithm and average strategy.
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
use crate::error::{Error, Result};
use crate::sampled::files;
use crate::sampled::{average_strategy as average_of_weights, KeyedPolicy, Table};
use crate::store::{Reader, Writer};
use std::ops::Deref;
use std::path::Path;

/// Threshold below which average-strategy probabilities are zeroed (then renormalised), as the
/// original program does.
pub const AVERAGE_THRESHOLD: f64 = 0.001;

/// The average strategy of accumulated strategy weights, with [`AVERAGE_THRESHOLD`] applied.
pub fn average_strategy(sums: &[f32]) -> Vec<f32> {
    average_of_weights(sums, AVERAGE_THRESHOLD)
}

/// The training algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Chance-sampled CFR (the original's algorithm), every update accumulated (Cfrm 3.0).
    CsCfr,
    /// Chance-sampled CFR with Cfrm 2.x's write-back: an infoset is read before its subtree is
    /// walked and written back after, so updates to the same key made inside its own subtree
    /// are lost. The original's published baseline numbers were trained this way.
    CsCfr2x,
    /// Chance-sampled CFR walking each post-auction state once with summed reach (faster;
    /// different dynamics, see [`super::train`]).
    CsCfrMerged,
    /// External-sampling Monte-Carlo CFR.
    EsMccfr,
}

impl Algo {
    /// Names accepted by [`Algo::parse`].
    pub const NAMES: &'static str = "cs-cfr, cs-cfr-2x, cs-cfr-merged, es-mccfr";

    /// Parses `cs-cfr` or `es-mccfr`.
    pub fn parse(s: &str) -> Result<Algo> {
        match s {
            "cs-cfr" => Ok(Algo::CsCfr),
            "cs-cfr-2x" => Ok(Algo::CsCfr2x),
            "cs-cfr-merged" => Ok(Algo::CsCfrMerged),
            "es-mccfr" => Ok(Algo::EsMccfr),
            _ => Err(Error::UnknownAlgorithm { name: s.to_string(), known: Algo::NAMES.to_string() }),
        }
    }

    /// The algorithm's name.
    pub fn name(&self) -> &'static str {
        match self {
            Algo::CsCfr => "cs-cfr",
            Algo::CsCfr2x => "cs-cfr-2x",
            Algo::CsCfrMerged => "cs-cfr-merged",
            Algo::EsMccfr => "es-mccfr",
        }
    }
}

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

const CHECKPOINT: &[u8; 8] = b"SBCKPT\0\0";
const STRATEGY: &[u8; 8] = b"SBSTRAT\0";

/// The actions of key `k` in a file of `stage`, or the error refusing it.
fn check_key(stage: Stage, k: Key) -> Result<usize> {
    let n = keys::key_num_actions(k);
    if !keys::is_valid(k) || !(2..=6).contains(&n) || !stage.owns(k) {
        return Err(Error::BadFile {
            path: String::new(),
            reason: format!("invalid Setback {} key {k:#x}", stage.name()),
        });
    }
    Ok(n)
}

/// What every Setback file starts with: what was trained, how, and how far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The stage trained (which keys the file holds).
    pub stage: Stage,
    /// The algorithm.
    pub algo: Algo,
    /// The seed.
    pub seed: u64,
    /// Iterations (deals) done.
    pub iterations: u64,
}

impl Run {
    fn write(&self, w: &mut Writer) {
        w.str(self.stage.abstraction());
        w.str(self.algo.name());
        w.u64(self.seed);
        w.u64(self.iterations);
    }

    fn read(r: &mut Reader) -> Result<Run> {
        let bad = |reason: String| Error::BadFile { path: String::new(), reason };
        let abs = r.str()?;
        let stage = Stage::of_abstraction(&abs).ok_or_else(|| {
            bad(format!(
                "abstraction {abs:?}; this cfrkit reads {:?} and {:?}",
                Stage::Baseline.abstraction(),
                Stage::Bootstrap.abstraction()
            ))
        })?;
        let algo = Algo::parse(&r.str()?).map_err(|e| bad(e.to_string()))?;
        Ok(Run { stage, algo, seed: r.u64()?, iterations: r.u64()? })
    }
}

/// The state of a training run as a checkpoint holds it.
pub struct Checkpoint {
    /// The run.
    pub run: Run,
    /// Fingerprint of the baseline strategy a bootstrap run plays out with (None for baseline).
    pub baseline: Option<u64>,
    /// Sum of the non-dealer team's root values over all iterations.
    pub value_sum: f64,
    /// The infoset table.
    pub table: Table,
}

/// Writes a checkpoint of a run (its table and figures) to `path` atomically.
pub fn save_checkpoint_file(path: &Path, run: Run, baseline: Option<u64>, value_sum: f64, table: &Table) -> Result<()> {
    let header = |w: &mut Writer| {
        run.write(w);
        if let Some(f) = baseline {
            w.u64(f);
        }
        w.f64(value_sum);
    };
    files::save_checkpoint(path, CHECKPOINT, header, table, keys::key_num_actions)
}

/// Reads a checkpoint. A bootstrap checkpoint needs the fingerprint of the baseline strategy it
/// was trained with (checked); a baseline one takes none.
pub fn load_checkpoint_file(path: &Path, baseline: Option<u64>) -> Result<Checkpoint> {
    let header = |r: &mut Reader| -> Result<(Run, f64)> {
        let run = Run::read(r)?;
        match (run.stage, baseline) {
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
            (Stage::Bootstrap, Some(have)) => {
                let want = r.u64()?;
                if have != want {
                    return Err(Error::invalid(
                        "baseline",
                        format!("a strategy with fingerprint {have:#018x}"),
                        format!("the baseline this checkpoint was trained with (fingerprint {want:#018x})"),
                    ));
                }
            }
            (Stage::Baseline, None) => {}
        }
        Ok((run, r.f64()?))
    };
    let ((run, value_sum), table) =
        files::load_checkpoint(path, CHECKPOINT, header, |(run, _): &(Run, f64), k| check_key(run.stage, k))?;
    Ok(Checkpoint { run, baseline, value_sum, table })
}

/// A trained average strategy: the run it comes from, its average root value, and its
/// probabilities over Setback keys. It dereferences to its [`KeyedPolicy`] (keys, `get`, `best`,
/// `fingerprint`).
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
    /// Probabilities of every key, in each key's canonical action order.
    pub policy: KeyedPolicy,
}

impl Deref for Strategy {
    type Target = KeyedPolicy;
    fn deref(&self) -> &KeyedPolicy {
        &self.policy
    }
}

impl Strategy {
    /// The average strategy (with [`AVERAGE_THRESHOLD`]) of a run's `table`.
    pub fn of_table(run: Run, root_value: f64, table: &Table) -> Strategy {
        let policy = KeyedPolicy::average_of(table, keys::key_num_actions, AVERAGE_THRESHOLD);
        let Run { stage, algo, seed, iterations } = run;
        Strategy { stage, algo, seed, iterations, root_value, policy }
    }

    /// The run it comes from.
    pub fn run(&self) -> Run {
        Run { stage: self.stage, algo: self.algo, seed: self.seed, iterations: self.iterations }
    }

    /// Writes the strategy to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let header = |w: &mut Writer| {
            self.run().write(w);
            w.f64(self.root_value);
        };
        files::save_strategy(path, STRATEGY, header, &self.policy)
    }

    /// Reads a strategy file.
    pub fn load(path: &Path) -> Result<Strategy> {
        let header = |r: &mut Reader| -> Result<(Run, f64)> { Ok((Run::read(r)?, r.f64()?)) };
        let ((run, root_value), policy) =
            files::load_strategy(path, STRATEGY, header, |(run, _): &(Run, f64), k| check_key(run.stage, k))?;
        let Run { stage, algo, seed, iterations } = run;
        Ok(Strategy { stage, algo, seed, iterations, root_value, policy })
    }
}

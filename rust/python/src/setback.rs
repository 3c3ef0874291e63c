//! Bindings of Setback: a deal driven from Python, the trainer and the trained strategy.
//! Conversions and GIL handling only; the game lives in `cfrkit_core::games::setback`.

use crate::args::{threads_arg, typed_arg, u64_arg};
use crate::errors::IntoPy;
use cfrkit_core::games::setback::abstraction::{actions, Action};
use cfrkit_core::games::setback::cards::{self, card_name, parse_card, parse_cards};
use cfrkit_core::games::setback::keys::{self, key_string, parse_key};
use cfrkit_core::games::setback::play::database;
use cfrkit_core::games::setback::registry::{self, TrainSpec};
use cfrkit_core::games::setback::rules::{Deal, GameScore, Phase};
use cfrkit_core::games::setback::store::{Stage, Strategy};
use cfrkit_core::games::setback::train::{self, TableDelta, Trainer};
use cfrkit_core::Error;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Card names of a card set, in ascending card order.
pub(crate) fn cards_list(set: cards::CardSet) -> Vec<String> {
    cards::iter(set).map(card_name).collect()
}

/// The name of a deal's phase.
pub(crate) fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Auction => "auction",
        Phase::Establish => "establish",
        Phase::Playout => "playout",
        Phase::Finished => "finished",
    }
}

/// The `#[pymethods]` of a class whose `inner` is a Setback deal or a player's view of one: the
/// getters both have (phase, trump, auction, current trick, legal moves), then the class's own
/// methods `$own`. Bids go out as lists of ints (a `Vec<u8>` would become `bytes`).
macro_rules! deal_state_pymethods {
    ($class:ident { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            /// `"auction"`, `"establish"`, `"playout"` or `"finished"`.
            #[getter]
            fn phase(&self) -> &'static str {
                $crate::setback::phase_name(self.inner.phase())
            }
            /// Trump suit letter (`C`, `D`, `H`, `S`) once set.
            #[getter]
            fn trump(&self) -> Option<String> {
                self.inner.trump().map(|s| cfrkit_core::games::setback::cards::suit_char(s).to_string())
            }
            /// The high bid so far (0 = none).
            #[getter]
            fn high_bid(&self) -> u8 {
                self.inner.high_bid().0
            }
            /// Dealer-relative index of the high bidder, if any.
            #[getter]
            fn high_bidder(&self) -> Option<u8> {
                self.inner.high_bid().1
            }
            /// Bids made so far, first bidder (player 1) first.
            #[getter]
            fn bids(&self) -> Vec<u32> {
                self.inner.bids().into_iter().map(u32::from).collect()
            }
            /// Cards of the current trick in play order.
            #[getter]
            fn trick(&self) -> Vec<String> {
                self.inner.trick().iter().map(|&c| cfrkit_core::games::setback::cards::card_name(c)).collect()
            }
            /// Completed tricks.
            #[getter]
            fn tricks_done(&self) -> u8 {
                self.inner.tricks_done()
            }
            /// Legal bids of the player to act (0 = Pass, 2, 3, 4) under the full rules (no Jack
            /// filter); for a view, empty unless its player is to act in the auction.
            fn legal_bids(&self) -> Vec<u32> {
                self.inner.legal_bids().into_iter().map(u32::from).collect()
            }
            /// Legal cards of the player to act; for a view, empty unless its player is to act
            /// after the auction.
            fn legal_cards(&self) -> Vec<String> {
                $crate::setback::cards_list(self.inner.legal_cards())
            }
            $($own)*
        }
    };
}
pub(crate) use deal_state_pymethods;

/// One Setback deal, dealer-relative (player 0 = dealer, 1 = first bidder; team 0 = dealer's team).
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackDeal")]
#[derive(Clone)]
pub struct SetbackDeal {
    inner: Deal,
}

deal_state_pymethods!(SetbackDeal {
    /// A deal from four hands of six space-separated cards each, e.g. `"AS JS 4S KH 7H 9D"`.
    #[new]
    fn new(hands: &Bound<'_, PyAny>) -> PyResult<Self> {
        let hands: Vec<String> = typed_arg(hands, "hands", "a list of four hands of six card names, dealer first")?;
        if hands.len() != 4 {
            return Err(Error::invalid("hands", format!("{} hands", hands.len()), "exactly 4 hands, dealer first"))
                .py();
        }
        let mut sets = [0u64; 4];
        for (i, h) in hands.iter().enumerate() {
            sets[i] = parse_cards(h).py()?;
        }
        Ok(SetbackDeal { inner: Deal::from_hands(sets).py()? })
    }

    /// A random deal from a seed (the training deals' generator and dealing order).
    #[staticmethod]
    #[pyo3(signature = (seed = None))]
    fn random(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        Ok(SetbackDeal { inner: Deal::seeded(seed) })
    }

    /// Dealer-relative index of the player to act, or None when the deal is finished.
    #[getter]
    fn player(&self) -> Option<u8> {
        self.inner.to_act()
    }
    /// Whether the score can no longer change (training stops here).
    #[getter]
    fn exhausted(&self) -> bool {
        self.inner.is_exhausted()
    }
    /// Whether every card has been played or nobody bid.
    #[getter]
    fn finished(&self) -> bool {
        self.inner.is_finished()
    }
    /// Cards each player still holds.
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        self.inner.hands().iter().map(|&h| cards_list(h)).collect()
    }
    /// The hands as dealt.
    #[getter]
    fn dealt(&self) -> Vec<Vec<String>> {
        self.inner.dealt().iter().map(|&h| cards_list(h)).collect()
    }

    /// Abstract actions of the player to act, in canonical order: bid codes `"0"`, `"2"`, `"3"`,
    /// `"4"` (Four only with a candidate Jack), `"E0"`/`"E1"`, or play codes such as `"TJ"`, `"S."`.
    fn abstract_actions(&self) -> Vec<String> {
        actions(&self.inner).as_slice().iter().map(|a| a.code()).collect()
    }
    /// The original's key string of the player to act, or None with fewer than two abstract actions.
    fn key(&self) -> Option<String> {
        let a = actions(&self.inner);
        keys::key(&self.inner, &a).map(key_string)
    }
    /// Takes an abstract action by its code; returns the concrete card played (None for bids).
    fn play(&mut self, code: &str) -> PyResult<Option<String>> {
        let a = actions(&self.inner);
        let Some(i) = a.as_slice().iter().position(|x| x.code() == code) else {
            let allowed: Vec<String> = a.as_slice().iter().map(|x| x.code()).collect();
            let allowed =
                if allowed.is_empty() { "none: the deal is over".to_string() } else { format!("one of {allowed:?}") };
            return Err(Error::invalid("abstract action", code, allowed)).py();
        };
        match a.acts[i] {
            Action::Bid(b) => {
                self.inner.bid(b).py()?;
                Ok(None)
            }
            _ => {
                self.inner.play_card(a.cards[i]).py()?;
                Ok(Some(card_name(a.cards[i])))
            }
        }
    }
    /// Makes a bid (0 = Pass, 2, 3 or 4) under the full rules.
    fn bid(&mut self, bid: u8) -> PyResult<()> {
        self.inner.bid(bid).py()
    }
    /// Plays a concrete card, e.g. `"TD"`.
    fn play_card(&mut self, card: &str) -> PyResult<()> {
        let c = parse_card(card).py()?;
        self.inner.play_card(c).py()
    }
    /// The deal's score `(team 0, team 1)` after the setback rule, or None until it is decided.
    fn score(&self) -> Option<(i32, i32)> {
        self.inner.score().map(|s| (s[0], s[1]))
    }
    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }
    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn __repr__(&self) -> String {
        let hands: Vec<String> = self.inner.hands().iter().map(|&h| cards::set_names(h)).collect();
        format!("Deal(phase={:?}, player={:?}, hands={:?})", self.phase(), self.player(), hands)
    }
});

/// The running score of a game to 11 between the fixed partnerships (team 0 = West+East).
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackGameScore")]
#[derive(Clone, Default)]
pub struct SetbackGameScore {
    inner: GameScore,
}

#[pymethods]
impl SetbackGameScore {
    #[new]
    #[pyo3(signature = (scores = (0, 0)))]
    fn new(scores: (i32, i32)) -> Self {
        SetbackGameScore { inner: GameScore { scores: [scores.0, scores.1] } }
    }
    /// Adds a deal's dealer-relative score; the dealer sits at `dealer_seat` (0 West … 3 South).
    fn add_deal(&mut self, dealer_seat: u8, deal_score: (i32, i32)) -> PyResult<()> {
        self.inner.add_deal(dealer_seat, [deal_score.0, deal_score.1]).py()
    }
    /// Scores of the two teams.
    #[getter]
    fn scores(&self) -> (i32, i32) {
        (self.inner.scores[0], self.inner.scores[1])
    }
    /// The winning team, or None (below 11, or tied at 11 or more).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner()
    }
}

/// Loads the baseline strategy file of a bootstrap checkpoint.
fn load_baseline(path: Option<&Path>) -> cfrkit_core::Result<Option<Arc<Strategy>>> {
    path.map(|p| registry::load_strategy(p, Stage::Baseline)).transpose()
}

/// A checked training request (stage, algorithm, baseline, seed, threads, target deals); every
/// argument of a training run is validated here, once, before anything is written.
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackTrainSpec", frozen)]
pub struct SetbackTrainSpec {
    inner: TrainSpec,
}

#[pymethods]
impl SetbackTrainSpec {
    #[new]
    #[pyo3(signature = (iterations, *, stage = "baseline", algo = "cs-cfr", baseline = None, seed = None, threads = None))]
    fn new(
        iterations: &Bound<'_, PyAny>,
        stage: &str,
        algo: &str,
        baseline: Option<PathBuf>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let iterations = u64_arg(iterations, "iterations")?;
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let threads = threads.map(threads_arg).transpose()?.unwrap_or(0);
        let inner = TrainSpec::new(stage, algo, baseline.as_deref(), seed, threads as u64, iterations).py()?;
        Ok(SetbackTrainSpec { inner })
    }
    /// `"baseline"` or `"bootstrap"`.
    #[getter]
    fn stage(&self) -> &'static str {
        self.inner.stage.name()
    }
    /// The algorithm's name.
    #[getter]
    fn algo(&self) -> &'static str {
        self.inner.algo.name()
    }
    /// The baseline strategy file of a bootstrap run.
    #[getter]
    fn baseline(&self) -> Option<PathBuf> {
        self.inner.baseline.clone()
    }
    /// Seed of the deal stream.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    /// Requested threads (0 = all cores).
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads
    }
    /// Total deals to reach.
    #[getter]
    fn iterations(&self) -> u64 {
        self.inner.iterations
    }
    /// Sets the run up in the training directory `out` (created if needed): removes temporary
    /// files of killed writes, then continues its checkpoint (`resume=True`, which needs one) or
    /// starts afresh (which needs none). Returns `(trainer, checkpoint resumed or None, removed
    /// temporary files)`.
    fn start(
        &self,
        py: Python<'_>,
        out: PathBuf,
        resume: bool,
    ) -> PyResult<(SetbackTrainer, Option<PathBuf>, Vec<PathBuf>)> {
        let spec = &self.inner;
        let s = py.allow_threads(|| spec.start(&out, resume)).py()?;
        Ok((SetbackTrainer { inner: s.trainer }, s.resumed_from, s.removed))
    }
}

/// A training run of the baseline deal game, or of the bootstrap auction game.
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackTrainer")]
pub struct SetbackTrainer {
    inner: Trainer,
}

#[pymethods]
impl SetbackTrainer {
    /// A fresh run: `algo` is one of the training algorithms; `threads=0` uses all cores. With
    /// `baseline` (a baseline strategy file or training directory) the run trains the bootstrap
    /// stage (cs-cfr only).
    #[new]
    #[pyo3(signature = (algo = "cs-cfr", seed = None, threads = None, baseline = None))]
    fn new(
        py: Python<'_>,
        algo: &str,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        baseline: Option<PathBuf>,
    ) -> PyResult<Self> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let threads = threads.map(threads_arg).transpose()?.unwrap_or(0) as u64;
        let stage = if baseline.is_some() { Stage::Bootstrap } else { Stage::Baseline };
        let spec = TrainSpec::new(stage.name(), algo, baseline.as_deref(), seed, threads, 0).py()?;
        Ok(SetbackTrainer { inner: py.allow_threads(|| spec.fresh()).py()? })
    }
    /// Resumes from a checkpoint file; a bootstrap checkpoint needs its baseline strategy file.
    #[staticmethod]
    #[pyo3(signature = (path, threads = None, baseline = None))]
    fn load(
        py: Python<'_>,
        path: PathBuf,
        threads: Option<&Bound<'_, PyAny>>,
        baseline: Option<PathBuf>,
    ) -> PyResult<Self> {
        let threads = threads.map(threads_arg).transpose()?.unwrap_or(0);
        let inner =
            py.allow_threads(|| train::load_checkpoint(&path, threads, load_baseline(baseline.as_deref())?)).py()?;
        Ok(SetbackTrainer { inner })
    }
    /// `"baseline"` or `"bootstrap"`.
    #[getter]
    fn stage(&self) -> &'static str {
        self.inner.stage().name()
    }
    /// Runs until `target` iterations are done in total or `seconds` have passed, with the GIL
    /// released; returns how many iterations ran.
    #[pyo3(signature = (target, seconds = 0.5))]
    fn run(&mut self, py: Python<'_>, target: u64, seconds: f64) -> PyResult<u64> {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(Error::invalid("seconds", seconds, "a positive number of seconds")).py();
        }
        let inner = &mut self.inner;
        let stop = AtomicBool::new(false);
        Ok(py.allow_threads(|| inner.run(target, Duration::from_secs_f64(seconds), &stop)))
    }
    /// Trains deals `start..end` on this trainer's table (a worker's copy of a round's snapshot)
    /// and returns what they changed: the keys touched (increasing), their `2n` accumulator
    /// changes each, and the deals' summed root values.
    #[allow(clippy::type_complexity)]
    fn train_piece<'py>(
        &mut self,
        py: Python<'py>,
        start: u64,
        end: u64,
    ) -> PyResult<(Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<f32>>, f64)> {
        let inner = &mut self.inner;
        let stop = AtomicBool::new(false);
        let d = py.allow_threads(|| inner.train_piece(start, end, &stop)).py()?;
        Ok((PyArray1::from_vec(py, d.keys), PyArray1::from_vec(py, d.values), d.value_sum))
    }
    /// Adds a round's pieces (`train_piece`'s results) in order; the trainer then stands at
    /// `end` deals.
    fn merge_pieces(
        &mut self,
        py: Python<'_>,
        pieces: Vec<(PyReadonlyArray1<'_, u64>, PyReadonlyArray1<'_, f32>, f64)>,
        end: u64,
    ) -> PyResult<()> {
        let pieces = pieces
            .iter()
            .map(|(k, v, sum)| {
                Ok(TableDelta { keys: k.as_slice()?.to_vec(), values: v.as_slice()?.to_vec(), value_sum: *sum })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let inner = &mut self.inner;
        py.allow_threads(|| inner.merge_pieces(&pieces, end)).py()
    }
    /// Writes a checkpoint (atomic, checksummed).
    fn save_checkpoint(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let inner = &self.inner;
        py.allow_threads(|| train::save_checkpoint(inner, &path)).py()
    }
    /// Writes the average strategy (atomic, checksummed).
    fn save_strategy(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let inner = &self.inner;
        py.allow_threads(|| inner.strategy().save(&path)).py()
    }
    /// The current average strategy of a key string (None if the key was never visited).
    fn average(&self, key: &str) -> PyResult<Option<Vec<f32>>> {
        Ok(self.inner.average(parse_key(key).py()?))
    }
    /// Iterations (deals) done.
    #[getter]
    fn iterations(&self) -> u64 {
        self.inner.stats().iterations
    }
    /// Infosets in the table.
    #[getter]
    fn infosets(&self) -> usize {
        self.inner.table().len()
    }
    /// Bytes held by the table.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.inner.table().bytes()
    }
    /// Average root value of the non-dealer team over all iterations.
    #[getter]
    fn root_value(&self) -> f64 {
        self.inner.stats().root_value
    }
    /// The algorithm's name.
    #[getter]
    fn algo(&self) -> &'static str {
        self.inner.algo().name()
    }
    /// The run's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// Worker threads.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }
}

/// A trained average strategy loaded from a strategy file.
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackStrategy")]
pub struct SetbackStrategy {
    inner: Strategy,
}

#[pymethods]
impl SetbackStrategy {
    /// Loads a strategy file written by training.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let inner = py.allow_threads(|| Strategy::load(&path)).py()?;
        Ok(SetbackStrategy { inner })
    }
    /// The average strategy of a key string as `{action code: probability}` in canonical order,
    /// or None if the key was never trained.
    fn get(&self, key: &str) -> PyResult<Option<Vec<(String, f32)>>> {
        let k = parse_key(key).py()?;
        Ok(self.inner.get(k).map(|p| keys::key_actions(k).iter().zip(p).map(|(a, &x)| (a.code(), x)).collect()))
    }
    fn __len__(&self) -> usize {
        self.inner.keys.len()
    }
    fn __contains__(&self, key: &str) -> PyResult<bool> {
        Ok(self.inner.get(parse_key(key).py()?).is_some())
    }
    /// Algorithm of the run.
    #[getter]
    fn algo(&self) -> &'static str {
        self.inner.algo.name()
    }
    /// `"baseline"` or `"bootstrap"`.
    #[getter]
    fn stage(&self) -> &'static str {
        self.inner.stage.name()
    }
    /// Seed of the run.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    /// Iterations of the run.
    #[getter]
    fn iterations(&self) -> u64 {
        self.inner.iterations
    }
    /// Average root value of the non-dealer team.
    #[getter]
    fn root_value(&self) -> f64 {
        self.inner.root_value
    }
    /// `(keys, offsets, probs)`: compact keys (uint64, ascending), offsets into `probs` (uint64,
    /// one more than keys) and probabilities (float32) in each key's canonical action order.
    #[allow(clippy::type_complexity)]
    fn to_numpy<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<f32>>) {
        (
            PyArray1::from_slice(py, &self.inner.keys),
            PyArray1::from_slice(py, &self.inner.offsets),
            PyArray1::from_slice(py, &self.inner.probs),
        )
    }
}

/// The original's string of a compact key.
#[pyfunction]
fn setback_key_string(key: u64) -> PyResult<String> {
    if !keys::is_valid(key) {
        return Err(Error::invalid("Setback key", key, "a compact key produced by training or parse_key")).py();
    }
    Ok(key_string(key))
}

/// The compact key of an original key string.
#[pyfunction]
fn setback_parse_key(key: &str) -> PyResult<u64> {
    parse_key(key).py()
}

/// The 12-character hand sketch of a 6-card hand (spec §2.2b).
#[pyfunction]
fn setback_hand_sketch(hand: &str) -> PyResult<String> {
    let h = parse_cards(hand).py()?;
    if h.count_ones() != 6 {
        return Err(Error::invalid("hand", hand, "exactly 6 cards")).py();
    }
    Ok(keys::sketch_string(h))
}

/// Writes the strategy database of a baseline and a bootstrap run (training directories or
/// strategy files) to `out` (SQLite, atomically); returns the rows written from each.
#[pyfunction]
fn setback_export_db(py: Python<'_>, baseline: PathBuf, bootstrap: PathBuf, out: PathBuf) -> PyResult<(u64, u64)> {
    let stats = py
        .allow_threads(|| -> cfrkit_core::Result<_> {
            let base = Strategy::load(&registry::strategy_file(&baseline)?)?;
            let boot = Strategy::load(&registry::strategy_file(&bootstrap)?)?;
            database::export(&base, &boot, &out)
        })
        .py()?;
    Ok((stats.baseline_rows, stats.bootstrap_rows))
}

/// The strategy file of a training directory (`DIR/strategy.cfrkit`), or `path` itself when it
/// is a file.
#[pyfunction]
fn setback_strategy_path(path: PathBuf) -> PyResult<PathBuf> {
    registry::strategy_file(&path).py()
}

/// Registers this module's classes, functions and names.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SETBACK_ALGORITHMS", registry::ALGORITHMS.map(|a| a.name()))?;
    m.add("SETBACK_STAGES", registry::STAGES.map(|s| s.name()))?;
    m.add("SETBACK_AGENT_SPECS", registry::AGENT_SPECS)?;
    m.add("SETBACK_STRATEGY_FILE", registry::STRATEGY_FILE)?;
    m.add("SETBACK_CHECKPOINT_FILE", registry::CHECKPOINT_FILE)?;
    m.add_class::<SetbackTrainSpec>()?;
    m.add_function(wrap_pyfunction!(setback_strategy_path, m)?)?;
    m.add_class::<SetbackDeal>()?;
    m.add_class::<SetbackGameScore>()?;
    m.add_class::<SetbackTrainer>()?;
    m.add_class::<SetbackStrategy>()?;
    m.add_function(wrap_pyfunction!(setback_key_string, m)?)?;
    m.add_function(wrap_pyfunction!(setback_parse_key, m)?)?;
    m.add_function(wrap_pyfunction!(setback_hand_sketch, m)?)?;
    m.add_function(wrap_pyfunction!(setback_export_db, m)?)?;
    Ok(())
}

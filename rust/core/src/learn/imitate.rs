//! Imitation training: a network learns to pick the action an agent took, among the legal ones.
//!
//! **Samples** are decisions: the features of the deciding seat's view, its legal actions (as
//! indices into the network's outputs) and the one it took, and the game the decision comes
//! from. **The split** holds out whole deals (a fixed share, chosen by a seeded hash of the
//! deal's id), so that held-out decisions never share cards dealt with training ones: a match
//! plays each deal in several seatings, and those games must fall on one side together. **Training** is
//! minibatch AdamW on the cross-entropy of the softmax over the legal actions only (illegal
//! logits masked out), in epochs over a seeded shuffle; after each epoch the held-out loss and
//! top-1 accuracy (argmax over the legal actions) are measured, the best weights so far are kept
//! (and handed to `on_best`, which saves them), and training stops once `patience` epochs bring
//! no better held-out loss. The same samples, settings and seed give the same network.
//! Samples made with symmetries ([`Samples::with_symmetries`]) are shown in training under a
//! random symmetry of their decision's group each time (drawn from a stream of their own); the
//! held-out ones as they are.
//!
//! **Value networks** learn instead what an action was worth: samples that carry the
//! *outcome* that followed the action taken (e.g. the declarer's points) train the output of
//! that action by mean squared error; their accuracy is the share of held-out decisions whose
//! predicted value has the outcome's sign (a game won or lost), their baseline the share of the
//! sign most common in training.

use super::mlp::{candle_error, dense_of, DenseMlp, Mlp};
use super::symmetry::Symmetry;
use crate::error::{Error, Result};
use crate::streams::stream;
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarMap};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_pcg::Pcg64;
use std::time::Instant;

/// Domain tag of the training streams ("imitate").
const IMITATE: u64 = 0x0069_6d69_7461_7465;

/// The decisions of one kind, for one network. Features are kept sparse (a view sets a few
/// dozen of its hundreds of entries) and the legal actions in one flat list, so a data set of
/// millions of decisions fits in memory: about 6 bytes per set feature instead of 4 per
/// feature.
#[derive(Clone, Debug)]
pub struct Samples {
    /// Features per decision.
    pub dim: usize,
    /// The network's outputs: the actions of this kind.
    pub actions: usize,
    /// The non-zero features of every decision, decision after decision: index and value.
    set_index: Vec<u16>,
    set_value: Vec<f32>,
    /// Where each decision's non-zero features start in `set_index`, and where the last ends.
    set_starts: Vec<usize>,
    /// The legal actions (indices into the outputs) of every decision, one after the other.
    legal_ids: Vec<u16>,
    /// Where each decision's legal actions start in `legal_ids`, and where the last ends.
    legal_starts: Vec<usize>,
    /// Per decision, the action taken (an index into the outputs, one of the legal ones).
    pub target: Vec<u16>,
    /// Per decision, the id of its game's deal (what the held-out split goes by).
    pub deal: Vec<u64>,
    /// For a value network, per decision, the outcome that followed (empty for a policy).
    pub outcome: Vec<f32>,
    /// The teacher's values of every decision's legal actions, in `legal_ids`' order (NaN
    /// where the teacher gave none; see [`TrainSettings::soft`]).
    teacher: Vec<f32>,
    /// Per decision, its group of `symmetries` ([`NO_GROUP`]: none).
    group: Vec<u8>,
    /// Per decision, its stage for the held-out accuracy by stage (e.g. Skat's trick 1–10;
    /// 0: no stage).
    stage: Vec<u8>,
    /// The groups of symmetries the decisions may be relabelled by in training, each holding
    /// the identity (see [`super::symmetry`]).
    symmetries: Vec<Vec<Symmetry>>,
}

/// A decision no symmetry relabels.
const NO_GROUP: u8 = u8::MAX;

impl Samples {
    /// No samples yet, of `dim` features (at most 65,536) and `actions` outputs.
    pub fn new(dim: usize, actions: usize) -> Samples {
        Samples {
            dim,
            actions,
            set_index: Vec::new(),
            set_value: Vec::new(),
            set_starts: vec![0],
            legal_ids: Vec::new(),
            legal_starts: vec![0],
            target: Vec::new(),
            deal: Vec::new(),
            outcome: Vec::new(),
            teacher: Vec::new(),
            group: Vec::new(),
            stage: Vec::new(),
            symmetries: Vec::new(),
        }
    }

    /// The same, with the groups of symmetries decisions may name when pushed (fewer than 255
    /// groups, each of symmetries on `dim` features and `actions` actions).
    pub fn with_symmetries(mut self, groups: Vec<Vec<Symmetry>>) -> Samples {
        assert!(groups.len() < NO_GROUP as usize && groups.iter().all(|g| !g.is_empty()));
        self.symmetries = groups;
        self
    }

    /// Adds a decision, with the outcome that followed for a value network, the teacher's
    /// values of the legal actions (in `legal`'s order) where it gave them, and the group of
    /// symmetries that may relabel it; refuses features of the wrong length, a target that is
    /// not legal, a decision with an outcome among ones without (or the other way round), an
    /// outcome that is not finite, teacher values that are not one finite number per legal
    /// action, and a group the samples do not have.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        features: &[f32],
        legal: Vec<u16>,
        target: u16,
        deal: u64,
        outcome: Option<f32>,
        teacher: Option<&[f64]>,
        group: Option<usize>,
    ) -> Result<()> {
        if group.is_some_and(|g| g >= self.symmetries.len()) {
            return Err(Error::invalid("sample group", format!("{group:?}"), "a group of the samples' symmetries"));
        }
        if let Some(v) = teacher.filter(|v| v.len() != legal.len() || v.iter().any(|x| !x.is_finite())) {
            return Err(Error::invalid(
                "teacher values",
                format!("{v:?}"),
                format!("one finite number for each of the {} legal actions", legal.len()),
            ));
        }
        let fits = features.len() == self.dim && self.dim <= 1 << 16;
        if !fits || !legal.contains(&target) || legal.iter().any(|&a| a as usize >= self.actions) {
            return Err(Error::invalid(
                "sample",
                format!("target {target}"),
                "features of the network's size and a legal target",
            ));
        }
        let valued = self.is_value() || self.is_empty();
        match outcome {
            Some(x) if valued && x.is_finite() => self.outcome.push(x),
            None if !self.is_value() => {}
            _ => {
                return Err(Error::invalid(
                    "sample outcome",
                    format!("{outcome:?}"),
                    "a finite outcome for every decision of a value network, none for a policy's",
                ))
            }
        }
        for (i, &x) in features.iter().enumerate().filter(|(_, &x)| x != 0.0) {
            self.set_index.push(i as u16);
            self.set_value.push(x);
        }
        self.set_starts.push(self.set_index.len());
        match teacher {
            Some(v) => self.teacher.extend(v.iter().map(|&x| x as f32)),
            None => self.teacher.extend(std::iter::repeat_n(f32::NAN, legal.len())),
        }
        self.legal_ids.extend_from_slice(&legal);
        self.legal_starts.push(self.legal_ids.len());
        self.target.push(target);
        self.deal.push(deal);
        self.group.push(group.map_or(NO_GROUP, |g| g as u8));
        self.stage.push(0);
        Ok(())
    }

    /// Sets the stage of the last decision pushed (see [`TrainReport::heldout_accuracy_by_stage`]).
    pub fn set_last_stage(&mut self, stage: u8) {
        if let Some(s) = self.stage.last_mut() {
            *s = stage;
        }
    }

    /// Decisions held.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The legal actions of decision `r`.
    pub fn legal(&self, r: usize) -> &[u16] {
        &self.legal_ids[self.legal_starts[r]..self.legal_starts[r + 1]]
    }

    /// Whether some decision has the teacher's values.
    pub fn has_teacher_values(&self) -> bool {
        self.teacher.iter().any(|v| v.is_finite())
    }

    /// The teacher's values of decision `r`'s legal actions and the highest of them, if it
    /// gave values.
    fn teacher_values(&self, r: usize) -> Option<(&[f32], f32)> {
        let values = &self.teacher[self.legal_starts[r]..self.legal_starts[r + 1]];
        let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        values.iter().all(|v| v.is_finite()).then_some((values, top))
    }

    /// Writes the features of decision `r` into `out` (`dim` entries, zeroed first).
    pub fn write_features(&self, r: usize, out: &mut [f32]) {
        self.write_image(r, None, out);
    }

    /// Writes the features of decision `r`, relabelled by `symmetry` if given, into `out`.
    fn write_image(&self, r: usize, symmetry: Option<&Symmetry>, out: &mut [f32]) {
        out.fill(0.0);
        for j in self.set_starts[r]..self.set_starts[r + 1] {
            let i = self.set_index[j] as usize;
            out[symmetry.map_or(i, |s| s.feature(i))] = self.set_value[j];
        }
    }

    /// Whether the samples carry symmetries (training relabels them).
    pub fn has_symmetries(&self) -> bool {
        !self.symmetries.is_empty()
    }

    /// A symmetry of decision `r`'s group drawn from `rng` (None if it has no group).
    fn random_symmetry(&self, r: usize, rng: &mut Pcg64) -> Option<&Symmetry> {
        let group = self.symmetries.get(self.group[r] as usize)?;
        Some(&group[rng.gen_range(0..group.len())])
    }

    /// Whether these are a value network's samples (they carry outcomes).
    pub fn is_value(&self) -> bool {
        !self.outcome.is_empty()
    }
}

/// How a network is trained.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSettings {
    /// Hidden layer sizes (the paper's networks have five ReLU layers).
    pub hidden: Vec<usize>,
    /// Most epochs.
    pub epochs: usize,
    /// Decisions per minibatch.
    pub batch: usize,
    /// AdamW's learning rate.
    pub learning_rate: f64,
    /// Share of the deals held out (each with all its games), in (0, 1).
    pub holdout: f64,
    /// Epochs without a better held-out loss before training stops.
    pub patience: usize,
    /// Seed of the weights, the split and the shuffles.
    pub seed: u64,
    /// The decision kinds [`super::imitate`] trains networks for; empty for every kind in the
    /// logs (a policy of some kinds only: e.g. the bidding, as a model for PIMC's inference).
    #[serde(default)]
    pub kinds: Vec<String>,
    /// The decision kinds whose training decisions [`super::imitate`] shows, each epoch, under
    /// a random symmetry of their group (suits that play alike relabelled; see
    /// [`super::symmetry`]); held-out decisions are shown as they were.
    #[serde(default)]
    pub augment: Vec<String>,
    /// The share of the training loss that learns the teacher's values rather than its action
    /// (0 to 1; 0: the action alone): the cross-entropy against the softmax of the logged
    /// values over the legal actions, at `temperature`, where a decision has them (PIMC's
    /// means), the action taken where it has none. The held-out loss (and early stopping) is
    /// the same mix; the accuracy stays the share of actions taken.
    #[serde(default)]
    pub soft: f64,
    /// The temperature of the teacher's values, in the game's payoff units (cents, tournament
    /// points).
    #[serde(default = "default_temperature")]
    pub temperature: f64,
}

fn default_temperature() -> f64 {
    1.0
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            hidden: vec![256, 256, 256],
            epochs: 30,
            batch: 256,
            learning_rate: 1e-3,
            holdout: 0.1,
            patience: 3,
            seed: 0,
            kinds: Vec::new(),
            augment: Vec::new(),
            soft: 0.0,
            temperature: default_temperature(),
        }
    }
}

impl TrainSettings {
    /// Checks the settings; names the first bad one.
    pub fn check(&self) -> Result<()> {
        if self.hidden.iter().any(|&h| h == 0 || h > 1 << 16) {
            return Err(Error::invalid("hidden", format!("{:?}", self.hidden), "layer sizes from 1 to 65536"));
        }
        if self.epochs == 0 || self.epochs > 1_000_000 {
            return Err(Error::invalid("epochs", self.epochs, "from 1 to 1000000"));
        }
        if self.batch == 0 || self.batch > 1 << 20 {
            return Err(Error::invalid("batch", self.batch, "from 1 to 1048576"));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(Error::invalid("learning_rate", self.learning_rate, "a number in (0, 1]"));
        }
        if !(self.holdout > 0.0 && self.holdout < 1.0) {
            return Err(Error::invalid("holdout", self.holdout, "a share of the deals in (0, 1)"));
        }
        if !(0.0..=1.0).contains(&self.soft) {
            return Err(Error::invalid("soft", self.soft, "a share of the loss from 0 to 1"));
        }
        if !(self.temperature > 0.0 && self.temperature <= 1e6) {
            return Err(Error::invalid("temperature", self.temperature, "a number in (0, 1000000]"));
        }
        Ok(())
    }
}

/// What training did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Decisions trained on and held out.
    pub train_samples: usize,
    pub heldout_samples: usize,
    /// Epochs run, and the epoch (1-based) whose weights were kept.
    pub epochs: usize,
    pub best_epoch: usize,
    /// Held-out loss and top-1 accuracy of the kept weights.
    pub heldout_loss: f64,
    pub heldout_accuracy: f64,
    /// Training loss of the kept epoch.
    pub train_loss: f64,
    /// Top-1 accuracy of always taking the legal action the training decisions took most (a
    /// floor the network should beat).
    pub baseline_accuracy: f64,
    /// Of the held-out decisions whose teacher gave values, the share whose top-1 the teacher
    /// valued highest (where the teacher's values tie at the top it took the lowest action
    /// id, which top-1 accuracy asks for and this does not); None without such decisions.
    pub heldout_best_accuracy: Option<f64>,
    /// Decisions trained on per second.
    pub samples_per_second: f64,
    /// The held-out top-1 accuracy of the kept weights by the decisions' stage (Skat's card
    /// play: the trick, 1–10, as the Skat paper reports it): stage, held-out decisions,
    /// accuracy; empty where the decisions have no stages.
    pub heldout_accuracy_by_stage: Vec<(u8, usize, f64)>,
}

/// Whether the deal `deal` (an id) is held out.
fn held_out(deal: u64, settings: &TrainSettings) -> bool {
    let mut h = deal ^ settings.seed.rotate_left(17) ^ IMITATE;
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((h ^ (h >> 31)) as f64 / u64::MAX as f64) < settings.holdout
}

/// A minibatch: inputs, additive masks (0 legal, −1e9 illegal), the actions taken and, when
/// training learns the teacher's values, the target distributions.
struct Batch {
    x: Tensor,
    mask: Tensor,
    y: Tensor,
    soft: Option<Tensor>,
}

/// The batch of decisions `rows`, each under a random symmetry of its group drawn from
/// `augment` if given; with `soft` = (weight, temperature), target distributions that mix the
/// softmax of the teacher's values (where a decision has them, else the action taken) with
/// the action taken.
fn batch(s: &Samples, rows: &[usize], mut augment: Option<&mut Pcg64>, soft: Option<(f64, f64)>) -> Result<Batch> {
    let mut x = vec![0.0; rows.len() * s.dim];
    let mut mask = vec![-1e9f32; rows.len() * s.actions];
    let mut y = Vec::with_capacity(rows.len());
    let mut q = vec![0.0f32; if soft.is_some() { rows.len() * s.actions } else { 0 }];
    for (k, &r) in rows.iter().enumerate() {
        let symmetry = augment.as_deref_mut().and_then(|rng| s.random_symmetry(r, rng));
        let action = |a: u16| symmetry.map_or(a, |sym| sym.action(a)) as usize;
        s.write_image(r, symmetry, &mut x[k * s.dim..(k + 1) * s.dim]);
        for &a in s.legal(r) {
            mask[k * s.actions + action(a)] = 0.0;
        }
        let target = match symmetry {
            Some(_) => tie_broken_target(s, r, action),
            None => action(s.target[r]),
        };
        y.push(target as u32);
        if let Some((weight, temperature)) = soft {
            let row = &mut q[k * s.actions..(k + 1) * s.actions];
            if let Some((values, top)) = s.teacher_values(r) {
                let total: f64 = values.iter().map(|&v| ((v - top) as f64 / temperature).exp()).sum();
                for (&a, &v) in s.legal(r).iter().zip(values) {
                    row[action(a)] = (weight * ((v - top) as f64 / temperature).exp() / total) as f32;
                }
                row[target] += (1.0 - weight) as f32;
            } else {
                row[target] = 1.0;
            }
        }
    }
    let n = rows.len();
    let dev = &Device::Cpu;
    let soft =
        if soft.is_some() { Some(Tensor::from_vec(q, (n, s.actions), dev).map_err(candle_error)?) } else { None };
    Ok(Batch {
        x: Tensor::from_vec(x, (n, s.dim), dev).map_err(candle_error)?,
        mask: Tensor::from_vec(mask, (n, s.actions), dev).map_err(candle_error)?,
        y: Tensor::from_vec(y, n, dev).map_err(candle_error)?,
        soft,
    })
}

/// The target of decision `r` with its actions relabelled by `action`. Where the teacher's
/// values tie at the top and it took the lowest action id among the best (cfrkit's PIMC agents
/// break ties so), in the relabelled decision it would take the lowest relabelled id among
/// the best, not necessarily the image of the action taken.
fn tie_broken_target(s: &Samples, r: usize, action: impl Fn(u16) -> usize) -> usize {
    let taken = action(s.target[r]);
    let Some((values, top)) = s.teacher_values(r) else { return taken };
    let best = || s.legal(r).iter().zip(values).filter(|&(_, &v)| v == top).map(|(&a, _)| a);
    if best().min() != Some(s.target[r]) {
        return taken;
    }
    best().map(&action).min().unwrap_or(taken)
}

/// The mean loss of `net` on decisions `rows`, whose batch is `b`: the cross-entropy over the
/// legal actions (against the batch's target distributions where it has them, else the
/// actions taken), or for a value network the squared error of the taken action's output
/// against its outcome. Also the outputs the accuracy is read from: the masked logits, or the
/// predicted values.
fn loss_of(net: &Mlp, s: &Samples, rows: &[usize], b: Batch) -> Result<(Tensor, Tensor)> {
    let out = net.forward(&b.x).map_err(candle_error)?;
    if !s.is_value() {
        let logits = (out + b.mask).map_err(candle_error)?;
        let loss = match b.soft {
            None => candle_nn::loss::cross_entropy(&logits, &b.y),
            Some(q) => candle_nn::ops::log_softmax(&logits, D::Minus1)
                .and_then(|logp| logp * q)
                .and_then(|t| t.sum_all())
                .and_then(|t| t.affine(-1.0 / rows.len() as f64, 0.0)),
        }
        .map_err(candle_error)?;
        return Ok((loss, logits));
    }
    let predicted =
        out.gather(&b.y.unsqueeze(1).map_err(candle_error)?, 1).and_then(|p| p.squeeze(1)).map_err(candle_error)?;
    let outcome: Vec<f32> = rows.iter().map(|&r| s.outcome[r]).collect();
    let outcome = Tensor::from_vec(outcome, rows.len(), &Device::Cpu).map_err(candle_error)?;
    let loss = candle_nn::loss::mse(&predicted, &outcome).map_err(candle_error)?;
    Ok((loss, predicted))
}

/// What [`evaluate`] counts.
struct Evaluation {
    /// Summed loss.
    loss: f64,
    /// Correct choices: top-1 choices of a policy, predicted signs of a value network.
    correct: usize,
    /// Decisions with teacher values, and those whose top-1 the teacher valued highest.
    valued: usize,
    valued_best: usize,
    /// Per stage (other than 0), decisions and correct choices.
    by_stage: std::collections::BTreeMap<u8, (usize, usize)>,
}

/// The loss and correct choices of `net` over decisions `rows`.
fn evaluate(net: &Mlp, s: &Samples, rows: &[usize], size: usize, soft: Option<(f64, f64)>) -> Result<Evaluation> {
    let (mut loss, mut correct, mut valued, mut valued_best) = (0.0, 0, 0, 0);
    let mut by_stage = std::collections::BTreeMap::new();
    for chunk in rows.chunks(size.max(1)) {
        let (l, out) = loss_of(net, s, chunk, batch(s, chunk, None, soft)?)?;
        loss += l.to_scalar::<f32>().map_err(candle_error)? as f64 * chunk.len() as f64;
        if s.is_value() {
            let predicted = out.to_vec1::<f32>().map_err(candle_error)?;
            correct += predicted.iter().zip(chunk).filter(|(&p, &r)| (p > 0.0) == (s.outcome[r] > 0.0)).count();
        } else {
            let picked = out.argmax(D::Minus1).and_then(|a| a.to_vec1::<u32>()).map_err(candle_error)?;
            correct += picked.iter().zip(chunk).filter(|(&p, &r)| p == s.target[r] as u32).count();
            for (&p, &r) in picked.iter().zip(chunk).filter(|(_, &r)| s.stage[r] != 0) {
                let e: &mut (usize, usize) = by_stage.entry(s.stage[r]).or_default();
                e.0 += 1;
                e.1 += (p == s.target[r] as u32) as usize;
            }
            for (&p, &r) in picked.iter().zip(chunk) {
                if let Some((values, top)) = s.teacher_values(r) {
                    valued += 1;
                    valued_best += s.legal(r).iter().zip(values).any(|(&a, &v)| a as u32 == p && v == top) as usize;
                }
            }
        }
    }
    Ok(Evaluation { loss, correct, valued, valued_best, by_stage })
}

/// The held-out accuracy of a rule that ignores the features: always the legal action most
/// taken in training (a policy), or always the outcome sign most common in training (a value
/// network).
fn baseline_accuracy(samples: &Samples, train_rows: &[usize], test_rows: &[usize]) -> f64 {
    let hits = if samples.is_value() {
        let won = train_rows.iter().filter(|&&r| samples.outcome[r] > 0.0).count();
        let guess = 2 * won > train_rows.len();
        test_rows.iter().filter(|&&r| (samples.outcome[r] > 0.0) == guess).count()
    } else {
        let mut counts = vec![0usize; samples.actions];
        for &r in train_rows {
            counts[samples.target[r] as usize] += 1;
        }
        test_rows
            .iter()
            .filter(|&&r| {
                let best =
                    samples.legal(r).iter().max_by_key(|&&a| (counts[a as usize], std::cmp::Reverse(a))).copied();
                best == Some(samples.target[r])
            })
            .count()
    };
    hits as f64 / test_rows.len() as f64
}

/// Trains a network on `samples` (see the module documentation). `on_best(net, report)` gets
/// every better network as training goes (to save it); `progress(epoch, report)` is called after
/// each epoch and may stop training with an error (Ctrl-C). Returns the best network and its
/// report.
pub fn train(
    samples: &Samples,
    settings: &TrainSettings,
    on_best: &mut dyn FnMut(&DenseMlp, &TrainReport) -> Result<()>,
    progress: &mut dyn FnMut(usize, &TrainReport) -> Result<()>,
) -> Result<(DenseMlp, TrainReport)> {
    settings.check()?;
    let (mut train_rows, mut test_rows) = (Vec::new(), Vec::new());
    for r in 0..samples.len() {
        if held_out(samples.deal[r], settings) {
            test_rows.push(r);
        } else {
            train_rows.push(r);
        }
    }
    if train_rows.is_empty() || test_rows.is_empty() {
        return Err(Error::invalid(
            "samples",
            samples.len(),
            "decisions from enough games for both a training and a held-out part",
        ));
    }
    let baseline = baseline_accuracy(samples, &train_rows, &test_rows);
    let mut sizes = vec![samples.dim];
    sizes.extend(&settings.hidden);
    sizes.push(samples.actions);
    let mut rng = stream(settings.seed, IMITATE, 0, 0);
    // Decisions with symmetries are shown under random ones, drawn from a stream of their own
    // (so that training without shuffles as before).
    let mut augment = (!samples.symmetries.is_empty()).then(|| stream(settings.seed, IMITATE, 1, 0));
    let soft = (settings.soft > 0.0 && !samples.is_value()).then_some((settings.soft, settings.temperature));
    let varmap = VarMap::new();
    let net = Mlp::init(&varmap, &sizes, &mut rng)?;
    let params = ParamsAdamW { lr: settings.learning_rate, ..ParamsAdamW::default() };
    let mut opt = AdamW::new(varmap.all_vars(), params).map_err(candle_error)?;
    let mut best: Option<(DenseMlp, TrainReport)> = None;
    let mut report = TrainReport {
        train_samples: train_rows.len(),
        heldout_samples: test_rows.len(),
        epochs: 0,
        best_epoch: 0,
        heldout_loss: f64::INFINITY,
        heldout_accuracy: 0.0,
        train_loss: f64::INFINITY,
        baseline_accuracy: baseline,
        heldout_best_accuracy: None,
        samples_per_second: 0.0,
        heldout_accuracy_by_stage: Vec::new(),
    };
    let started = Instant::now();
    for epoch in 1..=settings.epochs {
        train_rows.shuffle(&mut rng);
        let mut summed = 0.0;
        for chunk in train_rows.chunks(settings.batch) {
            let (loss, _) = loss_of(&net, samples, chunk, batch(samples, chunk, augment.as_mut(), soft)?)?;
            opt.backward_step(&loss).map_err(candle_error)?;
            summed += loss.to_dtype(DType::F64).and_then(|l| l.to_scalar::<f64>()).map_err(candle_error)?
                * chunk.len() as f64;
        }
        let e = evaluate(&net, samples, &test_rows, 4096, soft)?;
        report.epochs = epoch;
        report.samples_per_second = (epoch * train_rows.len()) as f64 / started.elapsed().as_secs_f64().max(1e-9);
        let heldout_loss = e.loss / test_rows.len() as f64;
        if heldout_loss < report.heldout_loss {
            report.best_epoch = epoch;
            report.heldout_loss = heldout_loss;
            report.heldout_accuracy = e.correct as f64 / test_rows.len() as f64;
            report.heldout_best_accuracy = (e.valued > 0).then(|| e.valued_best as f64 / e.valued as f64);
            report.heldout_accuracy_by_stage =
                e.by_stage.iter().map(|(&k, &(n, c))| (k, n, c as f64 / n.max(1) as f64)).collect();
            report.train_loss = summed / train_rows.len() as f64;
            let dense = dense_of(&varmap, &sizes)?;
            on_best(&dense, &report)?;
            best = Some((dense, report.clone()));
        }
        progress(epoch, &report)?;
        if epoch - report.best_epoch >= settings.patience.max(1) {
            break;
        }
    }
    let (dense, mut kept) = best.ok_or_else(|| Error::invalid("training", "no epoch", "at least one epoch"))?;
    kept.epochs = report.epochs;
    kept.samples_per_second = report.samples_per_second;
    Ok((dense, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy task: 4 features, 5 actions of which 3 are legal; the action taken is the legal
    /// one nearest to a linear score of the features. Training beats the frequency baseline by
    /// far, and is reproducible for a seed.
    fn toy(n: usize) -> Samples {
        let mut s = Samples::new(4, 5);
        let mut rng = stream(7, 1, 2, 3);
        use rand::Rng;
        for i in 0..n {
            let f: Vec<f32> = (0..4).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let score = ((f[0] - f[1] + 0.5 * f[2]) * 2.0 + 2.0).clamp(0.0, 4.0);
            let mut legal: Vec<u16> = (0..5).collect();
            legal.remove(rng.gen_range(0..5));
            legal.remove(rng.gen_range(0..4));
            let target =
                *legal.iter().min_by(|&&a, &&b| (a as f32 - score).abs().total_cmp(&(b as f32 - score).abs())).unwrap();
            s.push(&f, legal, target, i as u64 / 4, None, None, None).unwrap();
        }
        s
    }

    /// Relabelled training: every decision takes action 0, the one whose feature is larger, and
    /// feature 0 is always the larger. Shown under the symmetry that swaps features 0 and 1 and
    /// actions 0 and 1, the network learns to take the action of the larger feature; shown as
    /// they are, it learns to take action 0; and where the teacher valued both alike (its tie
    /// going to the lower id), action 0 however they are shown.
    #[test]
    fn symmetries_teach_what_the_labels_alone_do_not() {
        let mut swap = [0u8; 32];
        for (c, x) in swap.iter_mut().enumerate() {
            *x = [1, 0].get(c).copied().unwrap_or(c as u8);
        }
        let swapped = Symmetry::relabel_cards(35, 32, &swap, &[3], &[(0, 1), (1, 0)], true);
        let groups = vec![vec![Symmetry::identity(35, 32), swapped.clone()]];
        let mut rng = stream(1, 2, 3, 4);
        let (mut plain, mut relabelled) = (Samples::new(35, 32), Samples::new(35, 32).with_symmetries(groups));
        assert!(plain.push(&[0.0; 35], vec![0, 1], 0, 0, None, None, Some(0)).is_err());
        for i in 0..3000 {
            let mut f = [0.0f32; 35];
            f[1] = rng.gen_range(0.0..0.5);
            f[0] = f[1] + rng.gen_range(0.1..0.5);
            plain.push(&f, vec![0, 1], 0, i / 2, None, None, None).unwrap();
            relabelled.push(&f, vec![0, 1], 0, i / 2, None, None, Some(0)).unwrap();
        }
        let settings = TrainSettings { hidden: vec![16], epochs: 10, batch: 64, ..TrainSettings::default() };
        let mirrored = {
            let mut f = [0.0f32; 35];
            (f[0], f[1]) = (0.1, 0.6);
            f
        };
        let choice = |s: &Samples| {
            let (net, r) = train(s, &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).unwrap();
            let out = net.forward(&mirrored);
            (out[1] > out[0], r.heldout_accuracy)
        };
        assert_eq!(choice(&plain), (false, 1.0));
        assert_eq!(choice(&relabelled), (true, 1.0));
        // The same decisions with the teacher's values tied: it took action 0 as the lower id
        // of two equal ones, and relabelled it takes the lower id still.
        let tied = {
            let groups = vec![vec![Symmetry::identity(35, 32), swapped.clone()]];
            let mut t = Samples::new(35, 32).with_symmetries(groups);
            let mut rng = stream(1, 2, 3, 4);
            for i in 0..3000 {
                let mut f = [0.0f32; 35];
                f[1] = rng.gen_range(0.0..0.5);
                f[0] = f[1] + rng.gen_range(0.1..0.5);
                t.push(&f, vec![0, 1], 0, i / 2, None, Some(&[3.0, 3.0]), Some(0)).unwrap();
            }
            t
        };
        assert_eq!(choice(&tied), (false, 1.0));
    }

    /// Soft targets: every decision takes action 0 of three legal ones, and the teacher values
    /// them 0, ln 2 and ln 4 (at temperature 1: probabilities 1/7, 2/7, 4/7). Trained on the
    /// action alone the network puts nearly all on action 0; on the values alone it learns
    /// their softmax; half and half, the mixture — and a decision without values teaches its
    /// action. The share of held-out choices the teacher valued highest follows the network
    /// (none without values). Teacher values of the wrong length or not finite are refused.
    #[test]
    fn soft_targets_teach_the_teachers_values() {
        let (two, four) = (2f64.ln(), 4f64.ln());
        let mut s = Samples::new(2, 4);
        let mut unvalued = Samples::new(2, 4);
        for i in 0..2000 {
            s.push(&[1.0, 0.0], vec![0, 1, 3], 0, i, None, Some(&[0.0, two, four]), None).unwrap();
            unvalued.push(&[1.0, 0.0], vec![0, 1, 3], 0, i, None, None, None).unwrap();
        }
        let probabilities = |s: &Samples, soft: f64, accuracy: f64, best: Option<f64>| {
            let settings = TrainSettings { hidden: vec![8], epochs: 20, batch: 50, soft, ..TrainSettings::default() };
            let (net, r) = train(s, &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).unwrap();
            assert_eq!((r.heldout_accuracy, r.heldout_best_accuracy), (accuracy, best), "soft {soft}: {r:?}");
            let out = net.forward(&[1.0, 0.0]);
            let e: Vec<f64> = [0, 1, 3].iter().map(|&a| (out[a] as f64).exp()).collect();
            let total: f64 = e.iter().sum();
            e.iter().map(|x| x / total).collect::<Vec<f64>>()
        };
        let close = |p: Vec<f64>, q: [f64; 3]| p.iter().zip(q).all(|(a, b)| (a - b).abs() < 0.02);
        assert!(probabilities(&s, 0.0, 1.0, Some(0.0))[0] > 0.97);
        assert!(close(probabilities(&s, 1.0, 0.0, Some(1.0)), [1.0 / 7.0, 2.0 / 7.0, 4.0 / 7.0]));
        assert!(close(probabilities(&s, 0.5, 1.0, Some(0.0)), [0.5 + 0.5 / 7.0, 1.0 / 7.0, 2.0 / 7.0]));
        assert!(probabilities(&unvalued, 1.0, 1.0, None)[0] > 0.97);
        assert!(s.push(&[1.0, 0.0], vec![0, 1], 0, 0, None, Some(&[0.0]), None).is_err());
        assert!(s.push(&[1.0, 0.0], vec![0, 1], 0, 0, None, Some(&[0.0, f64::NAN]), None).is_err());
        assert!(TrainSettings { soft: 1.5, ..TrainSettings::default() }.check().is_err());
        assert!(TrainSettings { temperature: 0.0, ..TrainSettings::default() }.check().is_err());
    }

    #[test]
    fn learns_a_toy_policy_reproducibly() {
        let s = toy(4000);
        let settings =
            TrainSettings { hidden: vec![32, 32], epochs: 40, batch: 64, patience: 5, ..TrainSettings::default() };
        let mut saved = 0;
        let (net, r) = train(
            &s,
            &settings,
            &mut |_, _| {
                saved += 1;
                Ok(())
            },
            &mut |_, _| Ok(()),
        )
        .unwrap();
        assert!(r.heldout_accuracy > 0.85 && r.heldout_accuracy > r.baseline_accuracy + 0.3, "{r:?}");
        assert!(saved >= 1 && r.heldout_samples > 200 && r.train_samples > 3000, "{r:?}");
        let (again, r2) = train(&s, &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).unwrap();
        assert_eq!((net, r.heldout_loss), (again, r2.heldout_loss));
        // Bad settings and samples are refused; progress can stop training.
        assert!(train(&s, &TrainSettings { holdout: 1.5, ..settings.clone() }, &mut |_, _| Ok(()), &mut |_, _| Ok(()))
            .is_err());
        assert!(train(&toy(2), &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).is_err());
        let stopped = train(&s, &settings, &mut |_, _| Ok(()), &mut |_, _| Err(Error::Interrupted));
        assert!(matches!(stopped, Err(Error::Interrupted)));
        assert!(Samples::new(4, 5).push(&[0.0; 3], vec![1], 1, 0, None, None, None).is_err());
        assert!(Samples::new(4, 5).push(&[0.0; 4], vec![1], 2, 0, None, None, None).is_err());
    }

    /// Sparse storage gives back every decision's features and legal actions as pushed.
    #[test]
    fn samples_keep_features_and_legal_actions() {
        let mut s = Samples::new(5, 6);
        let rows: [(&[f32], &[u16]); 3] =
            [(&[0.0, 1.0, 0.0, -2.5, 0.0], &[0, 3]), (&[0.0; 5], &[5]), (&[3.0, 0.0, 0.0, 0.0, 0.25], &[1, 2, 4])];
        for (i, (f, legal)) in rows.iter().enumerate() {
            s.push(f, legal.to_vec(), legal[0], i as u64, None, None, None).unwrap();
        }
        let mut out = [9.0; 5];
        for (i, (f, legal)) in rows.iter().enumerate() {
            s.write_features(i, &mut out);
            assert_eq!((&out[..], s.legal(i)), (*f, *legal));
        }
        assert!(Samples::new(70_000, 2).push(&vec![0.0; 70_000], vec![0], 0, 0, None, None, None).is_err());
    }

    /// A value network learns an action's outcome: here 2·f0 − f1 for action 1 and −1 for the
    /// others, with a little noise. Its held-out error is far below the outcomes' variance and
    /// its signs beat the majority sign; outcomes must be all there or all absent.
    #[test]
    fn learns_a_toy_value() {
        use rand::Rng;
        let mut s = Samples::new(3, 4);
        let mut rng = stream(9, 1, 2, 3);
        for i in 0..3000 {
            let f: Vec<f32> = (0..3).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let action = rng.gen_range(0..4u16);
            let value = if action == 1 { 2.0 * f[0] - f[1] } else { -1.0 } + rng.gen_range(-0.05..0.05);
            s.push(&f, vec![0, 1, 2, 3], action, i / 3, Some(value), None, None).unwrap();
        }
        let mean = s.outcome.iter().sum::<f32>() / s.len() as f32;
        let variance = s.outcome.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / s.len() as f32;
        let settings =
            TrainSettings { hidden: vec![32, 32], epochs: 60, batch: 64, patience: 5, ..TrainSettings::default() };
        let (net, r) = train(&s, &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).unwrap();
        assert!(r.heldout_loss < 0.05 * variance as f64, "{r:?} against variance {variance}");
        assert!(r.heldout_accuracy > r.baseline_accuracy + 0.1, "{r:?}");
        let out = net.forward(&[0.5, -0.5, 0.0]);
        assert!((out[1] - 1.5).abs() < 0.2 && (out[0] + 1.0).abs() < 0.2, "{out:?}");
        assert!(s.push(&[0.0; 3], vec![0], 0, 0, None, None, None).is_err());
        assert!(Samples::new(3, 4).push(&[0.0; 3], vec![0], 0, 0, Some(f32::NAN), None, None).is_err());
        let mut policy = Samples::new(3, 4);
        policy.push(&[0.0; 3], vec![0], 0, 0, None, None, None).unwrap();
        assert!(policy.push(&[0.0; 3], vec![0], 0, 0, Some(1.0), None, None).is_err());
    }
}

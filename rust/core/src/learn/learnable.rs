//! What a game provides for learned policies, and what every game's policies do with it: turn
//! logs into samples per decision kind, train one network per kind into a policy directory, and
//! choose actions with a loaded policy.

use super::imitate::{train, Samples, TrainReport, TrainSettings};
use super::policy::{Description, NetEntry, Policy};
use super::symmetry::Symmetry;
use crate::arena::log::{Decision, GameRecord, Reader};
use crate::error::{Error, Result};
use crate::spec::AgentOptions;
use rand::Rng;
use rand_pcg::Pcg64;
use std::path::{Path, PathBuf};

/// Told of each decision of a replayed game: its kind, the view's features, the legal action
/// ids, the action id taken, for a value network's kind the outcome that followed, and the
/// agent's logged values of the legal actions (in their order) where it gave them.
pub type OnDecision<'a> = dyn FnMut(usize, &[f32], &[usize], usize, Option<f32>, Option<&[f64]>) -> Result<()> + 'a;

/// A game with learned policies.
pub trait Learnable {
    /// The game's name in logs and policy descriptions (`skat`, `schafkopf`).
    const GAME: &'static str;
    /// Inputs of every network: the features of the deciding seat's view.
    const FEATURES: usize;
    /// The decision kinds: name, first action id and number of action ids of each.
    const KINDS: &'static [(&'static str, usize, usize)];

    /// Replays the logged game `record` (of a log with `settings`), checking each decision
    /// against the rules, and calls `decision(kind, features, legal action ids, action id,
    /// outcome, values)` for each (the outcome for a value network's kind, None for a policy's;
    /// the logged values where the legal actions are the logged ones); the error of a
    /// decision the rules refuse says why.
    fn replay(settings: &str, record: &GameRecord, decision: &mut OnDecision) -> std::result::Result<(), String>;

    /// The action id of passing (bidding or declaring nothing) where the game has one: the
    /// likely-value choice always weighs it, so a policy never bids or declares what its value
    /// network rates below passing.
    const PASS: Option<usize> = None;

    /// The decision kinds (indices into `KINDS`) whose decisions may be relabelled in training
    /// by [`Learnable::symmetries`] (see [`super::symmetry`]; none by default).
    const SYMMETRIC_KINDS: &'static [usize] = &[];

    /// The stage of a decision of kind `kind` with `features`, by which the held-out accuracy
    /// is also reported (Skat's card play: the trick, 1–10); 0 (the default): none.
    fn stage(_kind: usize, _features: &[f32]) -> u8 {
        0
    }

    /// The groups of symmetries of the `SYMMETRIC_KINDS`.
    fn symmetries() -> Vec<Vec<Symmetry>> {
        Vec::new()
    }

    /// The group of [`Learnable::symmetries`] that relabels a decision of a symmetric kind with
    /// `features` (None: none does).
    fn symmetry_group(_features: &[f32]) -> Option<usize> {
        None
    }
}

/// The values a logged decision gives its legal actions, if it gives any and its legal actions
/// are the replay's `legal` (action ids of the same game, in the same order).
pub fn logged_values<'a>(d: &'a Decision, legal: &[usize]) -> Option<&'a [f64]> {
    let same = d.legal.len() == legal.len() && d.legal.iter().zip(legal).all(|(&a, &b)| a as usize == b);
    d.values.as_deref().filter(|_| same)
}

/// The samples of every decision kind of `G` in the logs at `paths`; those of the kinds named
/// in `relabelled` carry the game's symmetries (training shows them under random ones).
pub fn samples_from_logs<G: Learnable>(paths: &[PathBuf], relabelled: &[String]) -> Result<Vec<Samples>> {
    let mut out: Vec<Samples> = (G::KINDS.iter().enumerate())
        .map(|(k, &(name, _, n))| {
            let symmetric = G::SYMMETRIC_KINDS.contains(&k) && relabelled.iter().any(|r| r == name);
            let groups = if symmetric { G::symmetries() } else { Vec::new() };
            Samples::new(G::FEATURES, n).with_symmetries(groups)
        })
        .collect();
    for path in paths {
        let mut reader = Reader::open(path)?;
        let game = reader.header().game.clone();
        if game != G::GAME {
            return Err(Error::invalid("log", path.display(), format!("a {} log, not one of {game}", G::GAME)));
        }
        let (settings, seed) = (reader.header().settings.clone(), reader.header().seed);
        for record in reader.by_ref() {
            let r = record?;
            let id = deal_id(seed, r.deal);
            let mut push = |k: usize,
                            features: &[f32],
                            legal: &[usize],
                            action: usize,
                            outcome: Option<f32>,
                            values: Option<&[f64]>| {
                let offset = G::KINDS[k].1;
                let legal = legal.iter().map(|&x| (x - offset) as u16).collect();
                let group = out[k].has_symmetries().then(|| G::symmetry_group(features)).flatten();
                out[k].push(features, legal, (action - offset) as u16, id, outcome, values, group)?;
                out[k].set_last_stage(G::stage(k, features));
                Ok(())
            };
            G::replay(&settings, &r, &mut push).map_err(|why| Error::BadFile {
                path: path.display().to_string(),
                reason: format!("game {}: {why}", r.game),
            })?;
        }
    }
    Ok(out)
}

/// The id of the deal `deal` of logs whose deals come from `seed`: the games of one deal — its
/// seatings, and the pairs of a tournament, which all play the same deals — share it, in one
/// log or several, so the held-out split keeps them together.
fn deal_id(seed: u64, deal: u64) -> u64 {
    let mut h = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (h ^ (h >> 31)) ^ deal
}

/// What [`imitate`] trained: per decision kind with a network, its report.
pub type ImitationReport = Vec<(String, TrainReport)>;

/// Trains a policy of `G` on the logs at `paths` into the directory `out` (made if missing):
/// one network per decision kind with samples in both parts of the split, each saved as it
/// improves, and `model.json` (rewritten as each kind is done). `progress(kind, epoch, report)`
/// hears of every epoch and may stop training (Ctrl-C); the networks finished by then stay in
/// `out`.
///
/// With `resume`, the kinds `out/model.json` lists as done are kept (their figures reported,
/// with 0 samples per second) and the others trained: the policy that results is the one an
/// uninterrupted run writes, byte for byte, since every kind is trained from the seed alone. A
/// description of other logs or settings is refused, and so is a directory without one. Logs
/// too small to train any kind are refused (no empty policy is written).
pub fn imitate<G: Learnable>(
    paths: &[PathBuf],
    out: &Path,
    settings: &TrainSettings,
    resume: bool,
    progress: &mut dyn FnMut(&str, usize, &TrainReport) -> Result<()>,
) -> Result<ImitationReport> {
    settings.check()?;
    if paths.is_empty() {
        return Err(Error::invalid("logs", "none", format!("one or more {} game logs", G::GAME)));
    }
    let names: Vec<&str> = G::KINDS.iter().map(|k| k.0).collect();
    if let Some(bad) = settings.kinds.iter().find(|k| !names.contains(&k.as_str())) {
        return Err(Error::invalid("kind", bad, format!("decision kinds of {}: {}", G::GAME, names.join(", "))));
    }
    let symmetric: Vec<&str> = G::SYMMETRIC_KINDS.iter().map(|&k| G::KINDS[k].0).collect();
    if let Some(bad) = settings.augment.iter().find(|k| !symmetric.contains(&k.as_str())) {
        let allowed = if symmetric.is_empty() { "none".to_string() } else { symmetric.join(", ") };
        return Err(Error::invalid(
            "augment",
            bad,
            format!("decision kinds of {} with symmetries: {allowed}", G::GAME),
        ));
    }
    let logs: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let done = if resume { finished_kinds::<G>(out, &logs, settings)? } else { Vec::new() };
    let samples = samples_from_logs::<G>(paths, &settings.augment)?;
    if settings.soft > 0.0 && !samples.iter().any(|s| s.has_teacher_values()) {
        return Err(Error::invalid(
            "soft",
            settings.soft,
            "0 for logs without the agents' values (PIMC logs them unless its spec says values=none)",
        ));
    }
    let created = !out.exists();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let mut description = Description::new(G::GAME, G::FEATURES, settings.seed, logs);
    description.settings = Some(settings.clone());
    let mut report = Vec::new();
    for (s, &(kind, offset, actions)) in samples.iter().zip(G::KINDS) {
        if s.is_empty() || !(settings.kinds.is_empty() || settings.kinds.iter().any(|k| k == kind)) {
            continue;
        }
        if let Some(entry) = done.iter().find(|e| e.kind == kind) {
            report.push((kind.to_string(), report_of(entry)));
            description.nets.push(entry.clone());
            continue;
        }
        let file = format!("{kind}.safetensors");
        let path = out.join(&file);
        let trained = train(s, settings, &mut |net, _| net.save(&path), &mut |epoch, r| progress(kind, epoch, r));
        let (net, r) = match trained {
            Ok(x) => x,
            // Too few games of this kind for a held-out part: no network.
            Err(Error::InvalidValue { what, .. }) if what == "samples" => continue,
            Err(e) => return Err(e),
        };
        description.nets.push(NetEntry {
            kind: kind.into(),
            file,
            action_offset: offset,
            actions,
            sizes: net.sizes().to_vec(),
            train_samples: r.train_samples,
            heldout_samples: r.heldout_samples,
            heldout_accuracy: r.heldout_accuracy,
            baseline_accuracy: r.baseline_accuracy,
            heldout_best_accuracy: r.heldout_best_accuracy,
            heldout_loss: r.heldout_loss,
            train_loss: r.train_loss,
            epochs: r.epochs,
            best_epoch: r.best_epoch,
            value: s.is_value(),
            heldout_accuracy_by_stage: r.heldout_accuracy_by_stage.clone(),
        });
        description.save(out)?;
        report.push((kind.to_string(), r));
    }
    if report.is_empty() {
        if created {
            let _ = std::fs::remove_dir(out); // made by this run, and still empty
        }
        return Err(Error::invalid(
            "logs",
            description.logs.join(", "),
            "logs with enough games to train a decision kind: each needs games in both the training and the \
             held-out part (play more deals)",
        ));
    }
    description.save(out)?;
    Ok(report)
}

/// The kinds the policy in `out` has finished, if it was trained on `logs` with `settings`; an
/// error where `out` holds no description (nothing to resume), for a description of other
/// logs or settings, or one that does not load.
fn finished_kinds<G: Learnable>(out: &Path, logs: &[String], settings: &TrainSettings) -> Result<Vec<NetEntry>> {
    if !out.join(super::policy::DESCRIPTION).exists() {
        return Err(Error::invalid(
            "resume",
            out.display(),
            "a policy directory with finished decision kinds to keep (train without resume: there is nothing to keep)",
        ));
    }
    let policy = Policy::load(out, G::GAME, G::FEATURES)?;
    let d = policy.description;
    if d.logs != logs || d.settings.as_ref() != Some(settings) {
        return Err(Error::invalid(
            "resume",
            out.display(),
            "a policy directory trained on the same logs with the same settings (train afresh without resume)",
        ));
    }
    Ok(d.nets)
}

/// The report of a kind kept from an earlier run.
fn report_of(e: &NetEntry) -> TrainReport {
    TrainReport {
        train_samples: e.train_samples,
        heldout_samples: e.heldout_samples,
        epochs: e.epochs,
        best_epoch: e.best_epoch,
        heldout_loss: e.heldout_loss,
        heldout_accuracy: e.heldout_accuracy,
        train_loss: e.train_loss,
        baseline_accuracy: e.baseline_accuracy,
        heldout_best_accuracy: e.heldout_best_accuracy,
        samples_per_second: 0.0,
        heldout_accuracy_by_stage: e.heldout_accuracy_by_stage.clone(),
    }
}

/// The options accepted after `net:`.
pub const NET_OPTIONS: &str = "a policy directory made by `cfrkit learn imitate`, then optionally ,sample=1 (draw \
                               from the softmax over the legal actions instead of taking the best), ,percentile=A \
                               (0 < A < 1; policies with a max-bid network, Skat: bid up to the A-percentile of the \
                               predicted maximum bid; default 0.5) or ,bidding=argmax (the bid network's top call \
                               instead), and ,likely_value=0|1 (policies with value networks: among the actions of \
                               policy probability at least 0.1, the one of the highest predicted value; default 1 \
                               where the policy has them), e.g. net:policies/skat or \
                               net:policies/skat,percentile=0.85";

/// The policy probability below which `likely_value=1` ignores an action (the Skat paper's).
pub const LIKELY: f64 = 0.1;

/// The decision kind of the maximum-bid network that `percentile=A` bids by.
pub const MAX_BID: &str = "max-bid";

/// The A of the A-percentile bidding of a policy with a [`MAX_BID`] network when its spec
/// names none: the most cautious of the measured A (docs/learn.md), which beats `random` by
/// what its teacher does where the plain bidder loses to it.
pub const DEFAULT_PERCENTILE: f64 = 0.5;

/// The options after `net:` as written: the policy directory, whether to sample, and the
/// bidding and declaring options where the spec names them (None: the policy's default).
#[derive(Clone, Debug, PartialEq)]
pub struct NetOptions {
    pub dir: PathBuf,
    pub sample: bool,
    pub percentile: Option<f64>,
    /// `bidding=argmax`: the bid network's own choice, no percentile.
    pub argmax_bidding: bool,
    pub likely_value: Option<bool>,
}

impl NetOptions {
    /// Whether the spec names nothing but the policy directory.
    pub fn only_dir(&self) -> bool {
        !self.sample && self.percentile.is_none() && !self.argmax_bidding && self.likely_value.is_none()
    }
}

/// The options after `net:` ([`NET_OPTIONS`]).
pub fn net_options(args: &str) -> Result<NetOptions> {
    let (dir, rest) = args.split_once(',').unwrap_or((args, ""));
    if dir.trim().is_empty() {
        return Err(Error::invalid("net", args, NET_OPTIONS));
    }
    let o = AgentOptions::parse("net", rest, &["sample", "percentile", "bidding", "likely_value"], NET_OPTIONS)?;
    let percentile = match o.text("percentile") {
        None => None,
        Some(text) => Some(
            text.parse::<f64>()
                .ok()
                .filter(|a| *a > 0.0 && *a < 1.0)
                .ok_or_else(|| Error::invalid("net percentile", text, "a number above 0 and below 1, e.g. 0.5"))?,
        ),
    };
    let argmax_bidding = match o.text("bidding").map(str::to_ascii_lowercase).as_deref() {
        None | Some("percentile") => false,
        Some("argmax") if percentile.is_none() => true,
        Some("argmax") => {
            return Err(Error::invalid("net bidding", "argmax", "percentile=A or bidding=argmax, not both"));
        }
        Some(other) => {
            return Err(Error::invalid("net bidding", other, "argmax (the bid network's top call) or percentile"))
        }
    };
    Ok(NetOptions {
        dir: PathBuf::from(dir.trim()),
        sample: o.uint("sample", 0, 0, 1)? == 1,
        percentile,
        argmax_bidding,
        likely_value: o.text("likely_value").map(|_| o.uint("likely_value", 0, 0, 1)).transpose()?.map(|v| v == 1),
    })
}

/// What every game's `net:DIR` agent holds: a loaded policy, the options as written (`sample=1` among them), the
/// percentile it bids by (a game whose policies have a [`MAX_BID`] network: the spec's, else
/// [`DEFAULT_PERCENTILE`]; none with `bidding=argmax`), and whether it chooses by value
/// networks among the likely actions (the spec's, else wherever the policy has them).
#[derive(Clone, Debug)]
pub struct NetPolicy {
    pub policy: Policy,
    pub options: NetOptions,
    pub percentile: Option<f64>,
    pub likely_value: bool,
    /// The game's [`Learnable::PASS`].
    pub pass: Option<usize>,
}

impl NetPolicy {
    /// The policy of `G` named by the options after `net:` ([`NET_OPTIONS`]); a percentile
    /// needs a policy with a [`MAX_BID`] network, `likely_value=1` one with value networks.
    pub fn from_options<G: Learnable>(args: &str) -> Result<NetPolicy> {
        let o = net_options(args)?;
        let policy = Policy::load(&o.dir, G::GAME, G::FEATURES)?;
        let has_max_bid = policy.nets.contains_key(MAX_BID);
        if (o.percentile.is_some() || o.argmax_bidding) && !has_max_bid {
            let what = if o.argmax_bidding { "net bidding" } else { "net percentile" };
            return Err(Error::invalid(
                what,
                o.dir.display(),
                format!("a policy with a {MAX_BID} network (Skat policies trained on logs with bidding)"),
            ));
        }
        let has_values = policy.description.nets.iter().any(|n| n.value);
        if o.likely_value == Some(true) && !has_values {
            return Err(Error::invalid(
                "net likely_value",
                o.dir.display(),
                "a policy with value networks (trained on logs with declarations or bids)",
            ));
        }
        let percentile =
            if o.argmax_bidding || !has_max_bid { None } else { o.percentile.or(Some(DEFAULT_PERCENTILE)) };
        let likely_value = o.likely_value.unwrap_or(has_values);
        Ok(NetPolicy { policy, percentile, likely_value, options: o, pass: G::PASS })
    }

    /// The agent's spec name: `net:DIR` and the options its spec named.
    pub fn name(&self) -> String {
        let o = &self.options;
        let sample = if o.sample { ",sample=1" } else { "" };
        let percentile = o.percentile.map(|a| format!(",percentile={a}")).unwrap_or_default();
        let argmax = if o.argmax_bidding { ",bidding=argmax" } else { "" };
        let likely = o.likely_value.map(|v| format!(",likely_value={}", u8::from(v))).unwrap_or_default();
        format!("net:{}{sample}{percentile}{argmax}{likely}", self.policy.dir.display())
    }

    /// [`Policy::choose`], drawing from `rng` when the agent samples; with `likely_value` and a
    /// value network `{kind}-value`, [`Policy::likely_value`] instead.
    pub fn choose(&self, kind: &str, features: &[f32], legal: &[usize], rng: &mut Pcg64) -> Option<usize> {
        if self.likely_value {
            if let Some(id) = self.policy.likely_value(kind, features, legal, self.pass) {
                return Some(id);
            }
        }
        self.policy.choose(kind, features, legal, self.options.sample.then_some(rng))
    }

    /// With a percentile A, the id among `levels` (action ids of the [`MAX_BID`] network in
    /// ascending order of their bids) where the cumulative softmax over them first reaches A:
    /// the highest bid the agent goes to. None without a percentile.
    pub fn max_bid(&self, features: &[f32], levels: &[usize]) -> Option<usize> {
        let a = self.percentile?;
        let probabilities = self.policy.softmax(MAX_BID, features, levels)?;
        let mut cumulative = 0.0;
        for (&id, p) in levels.iter().zip(&probabilities) {
            cumulative += p;
            if cumulative >= a {
                return Some(id);
            }
        }
        levels.last().copied()
    }
}

impl Policy {
    /// The "maximum likely value" choice of the Skat paper: among the `legal` ids whose
    /// probability under the policy network of `kind` is at least [`LIKELY`] (the most likely
    /// one always counts, and so does `pass` where legal), the one the value network
    /// `{kind}-value` values highest (ties to the likelier). None without both networks.
    pub fn likely_value(&self, kind: &str, features: &[f32], legal: &[usize], pass: Option<usize>) -> Option<usize> {
        let (value_entry, value_net) = self.nets.get(&format!("{kind}-value"))?;
        let probabilities = self.softmax(kind, features, legal)?;
        let likeliest = probabilities.iter().copied().fold(0.0, f64::max);
        let values = value_net.forward(features);
        let value = |id: usize| {
            values.get(id.wrapping_sub(value_entry.action_offset)).copied().map_or(f64::NEG_INFINITY, f64::from)
        };
        legal
            .iter()
            .copied()
            .zip(probabilities)
            .filter(|&(id, p)| p >= LIKELY || p >= likeliest || Some(id) == pass)
            .max_by(|a, b| value(a.0).total_cmp(&value(b.0)).then(a.1.total_cmp(&b.1)))
            .map(|(id, _)| id)
    }

    /// The softmax, under the network of decision kind `kind` given the view's `features`, over
    /// the action `ids` (in their order); None when the policy has no network of that kind.
    pub fn softmax(&self, kind: &str, features: &[f32], ids: &[usize]) -> Option<Vec<f64>> {
        let (entry, net) = self.nets.get(kind)?;
        let out = net.forward(features);
        let logits: Vec<f64> = ids
            .iter()
            .map(|&id| out.get(id.wrapping_sub(entry.action_offset)).map_or(f64::NEG_INFINITY, |&x| f64::from(x)))
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        Some(weights.into_iter().map(|w| w / total).collect())
    }

    /// The action id the policy's network of decision kind `kind` takes among the `legal` ids
    /// given the view's `features`: the highest logit, or with `sample` one drawn from the
    /// softmax over the legal actions; None when the policy has no network of that kind.
    pub fn choose(&self, kind: &str, features: &[f32], legal: &[usize], sample: Option<&mut Pcg64>) -> Option<usize> {
        let (entry, net) = self.nets.get(kind)?;
        let out = net.forward(features);
        let logit = |id: usize| out.get(id.wrapping_sub(entry.action_offset)).copied().unwrap_or(f32::NEG_INFINITY);
        let best = legal.iter().copied().fold(None, |b: Option<usize>, id| match b {
            Some(x) if logit(x) >= logit(id) => Some(x),
            _ => Some(id),
        })?;
        let Some(rng) = sample else { return Some(best) };
        let top = logit(best);
        let weights: Vec<f64> = legal.iter().map(|&id| ((logit(id) - top) as f64).exp()).collect();
        let mut u = rng.gen::<f64>() * weights.iter().sum::<f64>();
        Some(
            legal
                .iter()
                .zip(&weights)
                .find(|(_, &w)| {
                    u -= w;
                    u < 0.0
                })
                .map_or(best, |(&id, _)| id),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::DenseMlp;
    use std::collections::BTreeMap;

    #[test]
    fn logged_values_need_the_same_legal_actions() {
        let d = Decision { seat: 0, legal: vec![3, 5], action: 5, values: Some(vec![1.0, -2.0]) };
        assert_eq!(logged_values(&d, &[3, 5]), Some(&[1.0, -2.0][..]));
        assert_eq!(logged_values(&d, &[3, 6]), None);
        assert_eq!(logged_values(&d, &[3]), None);
        assert_eq!(logged_values(&Decision { values: None, ..d.clone() }, &[3, 5]), None);
    }

    /// A network of kind `kind` over 2 inputs whose 4 outputs (action ids 10–13) are `out`.
    fn net(kind: &str, out: [f32; 4], value: bool) -> (String, (NetEntry, DenseMlp)) {
        let entry = NetEntry::toy(kind, 10, 2, 4, value);
        (kind.into(), (entry, DenseMlp::new(vec![2, 4], vec![(vec![0.0; 8], out.to_vec())]).unwrap()))
    }

    fn policy(nets: Vec<(String, (NetEntry, DenseMlp))>) -> Policy {
        Policy { dir: "p".into(), description: Description::new("toy", 2, 0, vec![]), nets: BTreeMap::from_iter(nets) }
    }

    /// Maximum likely value: the best-valued action among those of probability >= 0.1; an
    /// unlikely action is ignored however high its value; the likeliest always counts.
    #[test]
    fn likely_value_takes_the_best_value_among_likely_actions() {
        // Probabilities of ids 10..13 ≈ 0.66, 0.24, 0.09, 0.01 (logits 2, 1, 0, −2).
        let p = policy(vec![net("k", [2.0, 1.0, 0.0, -2.0], false), net("k-value", [0.5, 0.9, 5.0, 9.0], true)]);
        assert_eq!(p.likely_value("k", &[0.0, 0.0], &[10, 11, 12, 13], None), Some(11));
        // Among legal ids only: with 10 illegal, 12 has probability 0.24 and the best value.
        assert_eq!(p.likely_value("k", &[0.0, 0.0], &[11, 12, 13], None), Some(12));
        // Passing (here id 13, probability 0.01) always counts: its value 9 wins.
        assert_eq!(p.likely_value("k", &[0.0, 0.0], &[10, 11, 12, 13], Some(13)), Some(13));
        // No value network, or no policy network: no answer.
        assert_eq!(p.likely_value("other", &[0.0, 0.0], &[10, 11], None), None);
        let no_value = policy(vec![net("k", [2.0, 1.0, 0.0, -2.0], false)]);
        assert_eq!(no_value.likely_value("k", &[0.0, 0.0], &[10, 11], None), None);
        // Flat logits: every action is likely, and the best value wins.
        let flat = policy(vec![net("k", [0.0; 4], false), net("k-value", [1.0, 3.0, 2.0, 0.0], true)]);
        assert_eq!(flat.likely_value("k", &[0.0, 0.0], &[10, 11, 12, 13], None), Some(11));
    }

    #[test]
    fn net_options_are_checked() {
        let o = net_options("pol,percentile=0.89,likely_value=1").unwrap();
        assert_eq!(
            (o.dir.to_str(), o.sample, o.percentile, o.likely_value),
            (Some("pol"), false, Some(0.89), Some(true))
        );
        let plain = net_options("pol").unwrap();
        assert!(plain.only_dir() && plain.likely_value.is_none() && !plain.argmax_bidding);
        let argmax = net_options("pol,bidding=ArgMax,likely_value=0").unwrap();
        assert!(argmax.argmax_bidding && argmax.likely_value == Some(false) && !argmax.only_dir());
        for bad in [
            "",
            ",sample=1",
            "pol,sample=2",
            "pol,percentile=0",
            "pol,percentile=nan",
            "pol,depth=3",
            "pol,bidding=rules",
            "pol,bidding=argmax,percentile=0.5",
            "pol,likely_value=2",
        ] {
            assert!(net_options(bad).is_err(), "{bad}");
        }
    }
}

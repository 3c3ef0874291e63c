//! Learned Skat policies: networks trained on game logs to imitate the agents that played them,
//! one network per decision kind as in the Skat paper, and the `net:DIR` agent that plays them.
//!
//! **Decision kinds** ([`kind_of`]) and the action ids each network chooses among
//! ([`super::features`]): `bid` (ids 0–64: pass, hold, the bids), `skat` (65–66: Hand or pickup),
//! `discard` (67–562), `declare` (563–591), and card play per game type and role,
//! `cards-grand-declarer`, `cards-grand-defender`, `cards-suit-declarer`, `cards-suit-defender`,
//! `cards-null-declarer`, `cards-null-defender` (592–623). **Features**: the view's 322 features
//! ([`super::features::features`]).
//!
//! [`samples_from_logs`] replays every logged game and turns each decision into a sample of its
//! kind; [`imitate`] trains the networks ([`crate::learn::imitate`]) and writes the policy
//! directory ([`crate::learn::policy`]). [`NetAgent`] takes each decision with its kind's
//! network: the legal action of the highest logit (`net:DIR`) or one drawn from the softmax over
//! the legal actions (`net:DIR,sample=1`); a kind without a network (none was in the logs) is
//! decided by the `rules` agent.

use super::actions::{Action, Phase};
use super::agents::rules_agent::RulesAgent;
use super::agents::Agent;
use super::contract::GameType;
use super::deal::Deal;
use super::features::{action_of, features, legal_ids, FEATURES};
use super::game::Game;
use super::view::View;
use crate::arena::log::Reader;
use crate::error::{Error, Result};
use crate::learn::imitate::{train, Samples, TrainReport, TrainSettings};
use crate::learn::policy::{Description, NetEntry, Policy};
use rand::Rng;
use rand_pcg::Pcg64;
use std::path::{Path, PathBuf};

/// The decision kinds, in order, with the first action id and the number of ids of each.
pub const KINDS: [(&str, usize, usize); 10] = [
    ("bid", 0, 65),
    ("skat", 65, 2),
    ("discard", 67, 496),
    ("declare", 563, 29),
    ("cards-grand-declarer", 592, 32),
    ("cards-grand-defender", 592, 32),
    ("cards-suit-declarer", 592, 32),
    ("cards-suit-defender", 592, 32),
    ("cards-null-declarer", 592, 32),
    ("cards-null-defender", 592, 32),
];

/// The index in [`KINDS`] of the decision the viewing seat (to act) takes.
pub fn kind_of(view: &View) -> usize {
    match view.phase() {
        Phase::Bidding => 0,
        Phase::Skat => 1,
        Phase::Discard => 2,
        Phase::Declare => 3,
        _ => {
            let game = match view.contract().map(|c| c.game) {
                Some(GameType::Grand) => 0,
                Some(GameType::Suit(_)) => 1,
                _ => 2,
            };
            4 + 2 * game + usize::from(view.declarer() != Some(view.seat()))
        }
    }
}

/// The samples of every decision kind in the Skat logs at `paths` (each game replayed from its
/// cards; its decisions checked against the rules as they are replayed).
pub fn samples_from_logs(paths: &[PathBuf]) -> Result<Vec<Samples>> {
    let mut out: Vec<Samples> = KINDS.iter().map(|&(_, _, n)| Samples::new(FEATURES, n)).collect();
    for (file, path) in paths.iter().enumerate() {
        let mut reader = Reader::open(path)?;
        if reader.header().game != "skat" {
            return Err(Error::invalid(
                "log",
                path.display(),
                format!("a Skat log, not one of {}", reader.header().game),
            ));
        }
        for record in reader.by_ref() {
            let r = record?;
            let bad = |why: String| Error::BadFile {
                path: path.display().to_string(),
                reason: format!("game {}: {why}", r.game),
            };
            let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
            let hands: Option<Vec<String>> = r.cards["hands"].as_array().and_then(|h| h.iter().map(text).collect());
            let (Some(hands), Some(skat)) = (hands, text(&r.cards["skat"])) else {
                return Err(bad("no hands and skat in its cards".into()));
            };
            let mut game = Game::new(&Deal::parse(&hands, &skat).map_err(|e| bad(e.to_string()))?);
            // Games from different files never share a number.
            let id = (file as u64) << 40 | r.game;
            for d in &r.decisions {
                let view = View::new(&game, d.seat);
                let action = action_of(d.action as usize).filter(|&a| view.to_act() && game.is_legal(a));
                let Some(action) = action else { return Err(bad(format!("action {} is not legal there", d.action))) };
                let k = kind_of(&view);
                let offset = KINDS[k].1;
                let legal: Vec<u16> = legal_ids(&view).into_iter().map(|x| (x - offset) as u16).collect();
                out[k].push(&features(&view), legal, (d.action as usize - offset) as u16, id)?;
                game.apply_legal(action);
            }
        }
    }
    Ok(out)
}

/// What [`imitate`] trained: per decision kind with samples, its report.
pub type ImitationReport = Vec<(String, TrainReport)>;

/// Trains a Skat policy on the logs at `paths` and writes it to the directory `out` (made if
/// missing): one network per decision kind that has samples in both parts of the split, saved
/// as it improves, and `model.json`. `progress(kind, epoch, report)` hears of every epoch and may
/// stop training (Ctrl-C); the networks finished by then stay in `out`.
pub fn imitate(
    paths: &[PathBuf],
    out: &Path,
    settings: &TrainSettings,
    progress: &mut dyn FnMut(&str, usize, &TrainReport) -> Result<()>,
) -> Result<ImitationReport> {
    settings.check()?;
    if paths.is_empty() {
        return Err(Error::invalid("logs", "none", "one or more Skat game logs"));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let samples = samples_from_logs(paths)?;
    let logs = paths.iter().map(|p| p.display().to_string()).collect();
    let mut description = Description::new("skat", FEATURES, settings.seed, logs);
    let mut report = Vec::new();
    for (k, s) in samples.iter().enumerate() {
        let (kind, offset, actions) = KINDS[k];
        if s.is_empty() {
            continue;
        }
        let file = format!("{kind}.safetensors");
        let path = out.join(&file);
        let trained = train(s, settings, &mut |net, _| net.save(&path), &mut |epoch, r| progress(kind, epoch, r));
        let (net, r) = match trained {
            Ok(x) => x,
            // Too few games of this kind for a held-out part: no network, `rules` decides.
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
            epochs: r.epochs,
            best_epoch: r.best_epoch,
        });
        description.save(out)?;
        report.push((kind.to_string(), r));
    }
    description.save(out)?;
    Ok(report)
}

/// The agent of a learned policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct NetAgent {
    policy: Policy,
    sample: bool,
    fallback: RulesAgent,
}

/// The options accepted after `net:`.
pub const NET_OPTIONS: &str = "a policy directory made by `cfrkit learn imitate`, then optionally ,sample=1 (draw \
                               from the softmax over the legal actions instead of taking the best), e.g. \
                               net:policies/skat or net:policies/skat,sample=1";

impl NetAgent {
    /// The agent of the policy in `dir`; with `sample`, actions are drawn from the network's
    /// softmax over the legal actions.
    pub fn load(dir: &Path, sample: bool) -> Result<NetAgent> {
        Ok(NetAgent { policy: Policy::load(dir, "skat", FEATURES)?, sample, fallback: RulesAgent::default() })
    }

    /// The agent from the options after `net:` (see [`NET_OPTIONS`]).
    pub fn from_options(args: &str) -> Result<NetAgent> {
        let (dir, rest) = args.split_once(',').unwrap_or((args, ""));
        let sample = match rest.trim().to_ascii_lowercase().as_str() {
            "" | "sample=0" => false,
            "sample=1" => true,
            other => return Err(Error::invalid("net option", other, NET_OPTIONS)),
        };
        if dir.trim().is_empty() {
            return Err(Error::invalid("net", args, NET_OPTIONS));
        }
        NetAgent::load(Path::new(dir.trim()), sample)
    }

    /// The logits of the legal actions of the viewing seat (to act) by its kind's network, as
    /// `(action id, logit)`; None when the policy has no network of that kind.
    pub fn logits(&self, view: &View) -> Option<Vec<(usize, f32)>> {
        let (entry, net) = self.policy.nets.get(KINDS[kind_of(view)].0)?;
        let out = net.forward(&features(view));
        Some(legal_ids(view).into_iter().map(|id| (id, out[id - entry.action_offset])).collect())
    }
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        let dir = self.policy.dir.display();
        if self.sample {
            format!("net:{dir},sample=1")
        } else {
            format!("net:{dir}")
        }
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let Some(logits) = self.logits(view) else { return self.fallback.act(view, rng) };
        let best = logits.iter().enumerate().fold(0, |b, (i, x)| if x.1 > logits[b].1 { i } else { b });
        let pick = if self.sample {
            let top = logits[best].1;
            let weights: Vec<f64> = logits.iter().map(|x| ((x.1 - top) as f64).exp()).collect();
            let mut u = rng.gen::<f64>() * weights.iter().sum::<f64>();
            weights
                .iter()
                .position(|&w| {
                    u -= w;
                    u < 0.0
                })
                .unwrap_or(best)
        } else {
            best
        };
        let id = logits
            .get(pick)
            .map(|x| x.0)
            .ok_or_else(|| Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"))?;
        action_of(id).ok_or_else(|| Error::invalid("action id", id, "an action id of Skat"))
    }
}

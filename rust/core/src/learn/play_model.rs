//! A learned policy as a model of how the other seats play: the probability it gives each of
//! their moves, which PIMC with inference turns into weights on its worlds
//! ([`crate::search::WeightedWorlds`]).
//!
//! A move's probability is the policy's softmax over the legal actions, mixed with the uniform
//! choice: `(1 − floor) · softmax + floor / legal`. The floor keeps a world alive when a seat
//! plays a move the network finds unlikely (a network imitates one agent; the table holds
//! others), so one surprising move lowers a world's weight instead of ruling it out. A forced
//! move (one legal action), a decision kind the policy has no network for, and a kind whose
//! network did not beat its most-taken-action baseline on the held-out games (too few samples
//! to learn from: its probabilities would be noise) say nothing (probability 1).
//!
//! A world's weight is the product of those probabilities raised to the power `temper`
//! (default 1, the plain likelihood). Over a whole game the product is sharp: a pool of 160
//! Skat candidates weighs like six or seven equal worlds for a defender in the middle tricks,
//! and the worlds drawn from it repeat those few. A temper below 1 flattens the weights
//! (ranks unchanged) so that the worlds stay diverse: 0.5 gives such a pool the weight of
//! 20–30 worlds (docs/learn.md).

use super::learnable::{net_options, Learnable};
use super::policy::Policy;
use crate::error::{Error, Result};
use crate::search::{Determinization, Pimc, Sampling, MAX_POOL};
use crate::spec::AgentOptions;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// The default floor: a tenth of each move's probability is spread uniformly.
pub const DEFAULT_FLOOR: f64 = 0.1;

/// The default temper: the plain likelihood.
pub const DEFAULT_TEMPER: f64 = 1.0;

/// The options of PIMC with inference, as a PIMC agent's spec lists them.
pub const INFERENCE_OPTIONS: &str = "inference=net:DIR (weigh each world by a learned policy's probability of the \
                                     other seats' moves in it), pool=N (candidate worlds the worlds are drawn from \
                                     by those weights; default 4 × worlds) and floor=X (the share of each move's \
                                     probability spread uniformly over the legal moves, above 0 and at most 1; \
                                     default 0.1) and temper=X (the power the likelihood is raised to, above 0 and \
                                     at most 1; default 1)";

/// Default candidate worlds per world of a decision.
pub const DEFAULT_POOL_FACTOR: usize = 4;

/// PIMC with inference: the model of the other seats and the size of the pool of candidate
/// worlds that a decision's worlds are drawn from.
#[derive(Clone, Debug)]
pub struct Inference {
    pub model: PlayModel,
    pub pool: usize,
    /// The power each world's likelihood is raised to (see the module documentation).
    pub temper: f64,
}

impl Inference {
    /// The inference a PIMC agent of `G` with `worlds` worlds asks for in its options
    /// (`inference`, `pool`, `floor`, `temper`; see [`INFERENCE_OPTIONS`]); None without
    /// `inference`, when `pool`, `floor` and `temper` are refused.
    pub fn from_options<G: Learnable>(o: &AgentOptions, worlds: usize) -> Result<Option<Inference>> {
        let Some(spec) = o.text("inference") else {
            if let Some(key) = ["pool", "floor", "temper"].into_iter().find(|k| o.text(k).is_some()) {
                return Err(Error::invalid(
                    format!("pimc {key}"),
                    o.text(key).unwrap_or(""),
                    "only with inference=net:DIR",
                ));
            }
            return Ok(None);
        };
        let default_pool = (DEFAULT_POOL_FACTOR * worlds).min(MAX_POOL) as u64;
        let pool = o.uint("pool", default_pool, 1, MAX_POOL as u64)? as usize;
        // A share or a power: a number above 0 and at most 1.
        let fraction = |key: &str, default: f64| match o.text(key) {
            None => Ok(default),
            Some(text) => text
                .parse::<f64>()
                .ok()
                .filter(|f| *f > 0.0 && *f <= 1.0)
                .ok_or_else(|| Error::invalid(format!("pimc {key}"), text, "a number above 0 and at most 1")),
        };
        let (floor, temper) = (fraction("floor", DEFAULT_FLOOR)?, fraction("temper", DEFAULT_TEMPER)?);
        Ok(Some(Inference { model: PlayModel::from_spec::<G>(spec, floor)?, pool, temper }))
    }

    /// The worlds of a PIMC decision drawn by `pimc` from `worlds`: as they are without
    /// `inference`, else from a pool weighted by `log_likelihood(model, world)` raised to the
    /// temper (which takes one more draw from `rng`).
    pub fn sampling<D: Determinization>(
        inference: Option<&Inference>,
        pimc: &Pimc,
        worlds: D,
        rng: &mut Pcg64,
        log_likelihood: impl Fn(&PlayModel, &D::World) -> Result<f64> + Sync + Send,
    ) -> Result<Sampling<D>> {
        let Some(i) = inference else { return Ok(Sampling::Plain(worlds)) };
        Ok(Sampling::Weighted(
            pimc.weighted_pool(&worlds, i.pool, rng, |w| Ok(i.temper * log_likelihood(&i.model, w)?))?,
        ))
    }

    /// What the agent's name says of the inference: `,inference=net:DIR`, with `,pool=N`,
    /// `,floor=X` and `,temper=X` where they are not the defaults for `worlds` worlds.
    pub fn name_suffix(&self, worlds: usize) -> String {
        let mut s = format!(",inference={}", self.model.name());
        if self.pool != (DEFAULT_POOL_FACTOR * worlds).min(MAX_POOL) {
            s.push_str(&format!(",pool={}", self.pool));
        }
        if self.model.floor() != DEFAULT_FLOOR {
            s.push_str(&format!(",floor={}", self.model.floor()));
        }
        if self.temper != DEFAULT_TEMPER {
            s.push_str(&format!(",temper={}", self.temper));
        }
        s
    }
}

/// A learned policy used as a model of the other seats' play (see the module documentation).
#[derive(Clone, Debug)]
pub struct PlayModel {
    policy: Arc<Policy>,
    floor: f64,
}

impl PlayModel {
    /// The model of the policy named by `spec` (`net:DIR`), a policy of `G`, with `floor` in
    /// `(0, 1]`.
    pub fn from_spec<G: Learnable>(spec: &str, floor: f64) -> Result<PlayModel> {
        let help = "net:DIR, a policy directory made by `cfrkit learn imitate`";
        let Some(dir) = spec.trim().strip_prefix("net:") else {
            return Err(Error::invalid("inference", spec, help));
        };
        let o = net_options(dir)?;
        if o.sample || o.percentile.is_some() {
            return Err(Error::invalid("inference", spec, help));
        }
        let dir = o.dir;
        if !(floor > 0.0 && floor <= 1.0) {
            return Err(Error::invalid("inference floor", floor, "a number above 0 and at most 1"));
        }
        Ok(PlayModel { policy: Arc::new(Policy::load(&dir, G::GAME, G::FEATURES)?), floor })
    }

    /// The spec of the model (`net:DIR`).
    pub fn name(&self) -> String {
        format!("net:{}", self.policy.dir.display())
    }

    /// The floor mixed into every probability.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// Whether the model speaks of decisions of kind `kind`: the policy has a network for it
    /// that beat its baseline on the held-out games.
    pub fn covers(&self, kind: &str) -> bool {
        self.policy.nets.get(kind).is_some_and(|(e, _)| e.heldout_accuracy > e.baseline_accuracy)
    }

    /// [`Self::log_prob`] with the features computed only when the decision counts (not forced,
    /// of a kind the model covers): the evidence of one decision of a replayed game.
    pub fn log_prob_of(&self, kind: &str, legal: &[usize], action: usize, features: impl FnOnce() -> Vec<f32>) -> f64 {
        if legal.len() > 1 && self.covers(kind) {
            self.log_prob(kind, &features(), legal, action)
        } else {
            0.0
        }
    }

    /// The natural logarithm of the probability that a seat deciding a `kind` decision with
    /// `features` among the `legal` action ids takes `action` (0 for a forced move or a kind
    /// the model does not cover).
    pub fn log_prob(&self, kind: &str, features: &[f32], legal: &[usize], action: usize) -> f64 {
        if legal.len() < 2 || !self.covers(kind) {
            return 0.0;
        }
        let Some(probabilities) = self.policy.softmax(kind, features, legal) else { return 0.0 };
        let p = legal.iter().position(|&id| id == action).map_or(0.0, |k| probabilities[k]);
        ((1.0 - self.floor) * p + self.floor / legal.len() as f64).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::super::mlp::DenseMlp;
    use super::super::policy::{Description, NetEntry};
    use super::*;
    use std::collections::BTreeMap;

    /// A policy of one kind whose network ignores its 2 inputs and gives logits `logits`.
    fn model(logits: [f32; 3], floor: f64) -> PlayModel {
        let net = DenseMlp::new(vec![2, 3], vec![(vec![0.0; 6], logits.to_vec())]).unwrap();
        let entry = NetEntry::toy("k", 10, 2, 3, false);
        let description = Description::new("toy", 2, 0, vec![]);
        let policy = Policy { dir: "p".into(), description, nets: BTreeMap::from([("k".into(), (entry, net))]) };
        PlayModel { policy: Arc::new(policy), floor }
    }

    #[test]
    fn probabilities_are_the_legal_softmax_mixed_with_the_floor() {
        let m = model([0.0, 2f32.ln(), 5.0], 0.1);
        // Legal 10 and 11: softmax 1/3, 2/3; mixed 0.9 p + 0.05.
        let p = |a| m.log_prob("k", &[0.0, 0.0], &[10, 11], a).exp();
        assert!((p(10) - (0.9 / 3.0 + 0.05)).abs() < 1e-6, "{}", p(10));
        assert!((p(11) - (0.9 * 2.0 / 3.0 + 0.05)).abs() < 1e-6);
        assert!((p(10) + p(11) - 1.0).abs() < 1e-6);
        // An action the network was not asked about gets the floor only.
        assert!((p(12) - 0.05).abs() < 1e-9);
        // Forced moves and unknown kinds say nothing.
        assert_eq!(m.log_prob("k", &[0.0, 0.0], &[12], 12), 0.0);
        assert_eq!(m.log_prob("other", &[0.0, 0.0], &[10, 11], 10), 0.0);
        assert!(m.covers("k") && !m.covers("other"));
        // A network no better than its baseline says nothing either.
        let mut weak = m.clone();
        let mut policy = (*weak.policy).clone();
        policy.nets.get_mut("k").unwrap().0.heldout_accuracy = 0.5;
        weak.policy = Arc::new(policy);
        assert!(!weak.covers("k") && weak.log_prob("k", &[0.0, 0.0], &[10, 11], 10) == 0.0);
    }

    #[test]
    fn a_floor_of_one_is_uniform_and_bad_specs_are_refused() {
        let m = model([0.0, 9.0, 5.0], 1.0);
        assert!((m.log_prob("k", &[1.0, 1.0], &[10, 11, 12], 10) - (1f64 / 3.0).ln()).abs() < 1e-12);
        struct Toy;
        impl Learnable for Toy {
            const GAME: &'static str = "toy";
            const FEATURES: usize = 2;
            const KINDS: &'static [(&'static str, usize, usize)] = &[];
            fn replay(
                _: &str,
                _: &crate::arena::log::GameRecord,
                _: &mut super::super::learnable::OnDecision,
            ) -> std::result::Result<(), String> {
                Ok(())
            }
        }
        for (spec, floor) in [("rules", 0.1), ("net:", 0.1), ("net:/x,sample=1", 0.1), ("net:/nowhere", 0.0)] {
            assert!(PlayModel::from_spec::<Toy>(spec, floor).is_err(), "{spec}");
        }
        let e = PlayModel::from_spec::<Toy>("net:/nowhere", 0.1).unwrap_err().to_string();
        assert!(e.contains("nowhere"), "{e}");
    }
}

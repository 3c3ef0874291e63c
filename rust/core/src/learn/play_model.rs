//! A learned policy as a model of how the other seats play: the probability its softmax gives
//! each of their moves, the `net:DIR` model of PIMC with inference ([`crate::search::inference`],
//! where the probabilities are mixed with a floor and turned into weights on the worlds).
//!
//! A decision kind the policy has no network for, and a kind whose network did not beat its
//! most-taken-action baseline on the held-out games (too few samples to learn from: its
//! probabilities would be noise), say nothing. Each game makes it a
//! [`crate::search::MoveModel`] of its views and moves (`games::*::learned`).

use super::learnable::{net_options, Learnable};
use super::policy::Policy;
use crate::error::{Error, Result};
use std::sync::Arc;

/// A learned policy used as a model of the other seats' play (see the module documentation).
#[derive(Clone, Debug)]
pub struct PlayModel {
    policy: Arc<Policy>,
}

impl PlayModel {
    /// The model of the policy named by `spec` (`net:DIR`), a policy of `G`.
    pub fn from_spec<G: Learnable>(spec: &str) -> Result<PlayModel> {
        let help = "net:DIR, a policy directory made by `cfrkit learn imitate`";
        let Some(dir) = spec.trim().strip_prefix("net:") else {
            return Err(Error::invalid("inference", spec, help));
        };
        let o = net_options(dir)?;
        if !o.only_dir() {
            return Err(Error::invalid("inference", spec, help));
        }
        Ok(PlayModel { policy: Arc::new(Policy::load(&o.dir, G::GAME, G::FEATURES)?) })
    }

    /// Whether the model speaks of decisions of kind `kind`: the policy has a network for it
    /// that beat its baseline on the held-out games.
    pub fn covers(&self, kind: &str) -> bool {
        self.policy.nets.get(kind).is_some_and(|(e, _)| e.heldout_accuracy > e.baseline_accuracy)
    }

    /// The probability that a seat deciding a `kind` decision among the `legal` action ids
    /// takes `action`: the softmax of the kind's network over the legal actions, the features
    /// computed by `features` only for a kind the model covers (None otherwise).
    pub fn probability_of(
        &self,
        kind: &str,
        legal: &[usize],
        action: usize,
        features: impl FnOnce() -> Vec<f32>,
    ) -> Option<f64> {
        if !self.covers(kind) {
            return None;
        }
        let probabilities = self.policy.softmax(kind, &features(), legal)?;
        Some(legal.iter().position(|&id| id == action).map_or(0.0, |k| probabilities[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::mlp::DenseMlp;
    use super::super::policy::{Description, NetEntry};
    use super::*;
    use std::collections::BTreeMap;

    /// A policy of one kind whose network ignores its 2 inputs and gives logits `logits`.
    fn model(logits: [f32; 3]) -> PlayModel {
        let net = DenseMlp::new(vec![2, 3], vec![(vec![0.0; 6], logits.to_vec())]).unwrap();
        let entry = NetEntry::toy("k", 10, 2, 3, false);
        let description = Description::new("toy", 2, 0, vec![]);
        let policy = Policy { dir: "p".into(), description, nets: BTreeMap::from([("k".into(), (entry, net))]) };
        PlayModel { policy: Arc::new(policy) }
    }

    #[test]
    fn probabilities_are_the_legal_softmax() {
        let m = model([0.0, 2f32.ln(), 5.0]);
        // Legal 10 and 11: softmax 1/3, 2/3.
        let p = |a| m.probability_of("k", &[10, 11], a, || vec![0.0, 0.0]).unwrap();
        assert!((p(10) - 1.0 / 3.0).abs() < 1e-6, "{}", p(10));
        assert!((p(11) - 2.0 / 3.0).abs() < 1e-6);
        // An action the network was not asked about gets nothing.
        assert_eq!(p(12), 0.0);
        // Unknown kinds say nothing, and their features are not computed.
        assert_eq!(m.probability_of("other", &[10, 11], 10, || unreachable!("features of an unknown kind")), None);
        assert!(m.covers("k") && !m.covers("other"));
        // A network no better than its baseline says nothing either.
        let mut weak = m.clone();
        let mut policy = (*weak.policy).clone();
        policy.nets.get_mut("k").unwrap().0.heldout_accuracy = 0.5;
        weak.policy = Arc::new(policy);
        assert!(!weak.covers("k") && weak.probability_of("k", &[10, 11], 10, || vec![0.0, 0.0]).is_none());
    }

    #[test]
    fn bad_specs_are_refused() {
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
        for spec in ["rules", "net:", "net:/x,sample=1", "net:/nowhere"] {
            assert!(PlayModel::from_spec::<Toy>(spec).is_err(), "{spec}");
        }
        let e = PlayModel::from_spec::<Toy>("net:/nowhere").unwrap_err().to_string();
        assert!(e.contains("nowhere"), "{e}");
    }
}

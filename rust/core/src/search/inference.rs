//! PIMC with inference: weighting a decision's worlds by how likely the other seats' moves are
//! in each, under a model of how they play.
//!
//! A [`MoveModel`] gives the probability of a seat's move from its view: a learned policy's
//! softmax (`net:DIR`), or any agent that knows the probabilities of its own moves (a trained
//! CFR strategy, a deterministic rule player's one move, the uniform random player). Each game
//! lists the models it accepts and replays a world's moves through one
//! (`games::*::learned::log_likelihood`).
//!
//! [`Evidence`] is a model with its floor: a move's probability is mixed with the uniform
//! choice, `(1 − floor) · p + floor / legal`. The floor keeps a world alive when a seat plays a
//! move the model finds unlikely (or, for a deterministic model, a move it would not have
//! made), so one surprising move lowers a world's weight instead of ruling it out. A forced
//! move (one legal action) and a decision the model says nothing of (a kind a policy has no
//! trained network for) count 1.
//!
//! [`Inference`] draws a decision's worlds from a pool of candidates
//! ([`super::Pimc::weighted_pool`], [`super::WeightedWorlds`]), each weighted by its evidence
//! raised to the power `temper` (default 1, the plain likelihood). Over a whole game the
//! product is sharp: a pool of 160 Skat candidates weighs like six or seven equal worlds for a
//! defender in the middle tricks, and the worlds drawn from it repeat those few. A temper below
//! 1 flattens the weights (ranks unchanged) so that the worlds stay diverse: 0.5 gives such a
//! pool the weight of 20–30 worlds (docs/learn.md).

use super::{Determinization, Pimc, Sampling, MAX_POOL};
use crate::error::{Error, Result};
use crate::spec::AgentOptions;
use rand_pcg::Pcg64;
use std::fmt;
use std::sync::Arc;

/// The default floor: a tenth of each move's probability is spread uniformly.
pub const DEFAULT_FLOOR: f64 = 0.1;

/// The default temper: the plain likelihood.
pub const DEFAULT_TEMPER: f64 = 1.0;

/// Default candidate worlds per world of a decision.
pub const DEFAULT_POOL_FACTOR: usize = 4;

/// The options of PIMC with inference, as a PIMC agent's spec lists them.
pub const INFERENCE_OPTIONS: &str = "inference=MODEL (weigh each world by the probability MODEL gives the other \
                                     seats' moves in it: net:DIR, a learned policy, or another agent that gives \
                                     probabilities), pool=N (candidate worlds the worlds are drawn from by those \
                                     weights; default 4 × worlds) and floor=X (the share of each move's probability \
                                     spread uniformly over the legal moves, above 0 and at most 1; default 0.1) and \
                                     temper=X (the power the likelihood is raised to, above 0 and at most 1; default \
                                     1)";

/// A model of how a seat plays: the probability of its move from its view. `V` is the game's
/// view of the seat to act, `M` its move.
pub trait MoveModel<V, M>: Send + Sync {
    /// The probability that the seat to act in `view` makes the legal move `m`, or None when
    /// the model says nothing of this decision. Asked only of decisions with two or more
    /// legal moves.
    fn probability(&self, view: &V, m: &M) -> Result<Option<f64>>;
}

/// A move model with its name (its spec) and floor: what one move of another seat says of a
/// world (see the module documentation).
pub struct Evidence<Model: ?Sized> {
    model: Arc<Model>,
    name: String,
    floor: f64,
}

impl<Model: ?Sized> Clone for Evidence<Model> {
    fn clone(&self) -> Self {
        Evidence { model: Arc::clone(&self.model), name: self.name.clone(), floor: self.floor }
    }
}

impl<Model: ?Sized> fmt::Debug for Evidence<Model> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evidence({}, floor {})", self.name, self.floor)
    }
}

impl<Model: ?Sized> Evidence<Model> {
    /// The evidence of `model`, named `name` (its spec), with `floor` in `(0, 1]`.
    pub fn new(model: Arc<Model>, name: impl Into<String>, floor: f64) -> Result<Evidence<Model>> {
        if !(floor > 0.0 && floor <= 1.0) {
            return Err(Error::invalid("inference floor", floor, "a number above 0 and at most 1"));
        }
        Ok(Evidence { model, name: name.into(), floor })
    }

    /// The model's spec, e.g. `net:pol`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The floor mixed into every probability.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// The natural logarithm of the floor-mixed probability of one move among `legal` legal
    /// moves, the model's probability given by `probability(model)`, asked only when the move
    /// is not forced: 0 for a forced move and for a decision the model says nothing of.
    pub fn log_prob(&self, legal: usize, probability: impl FnOnce(&Model) -> Result<Option<f64>>) -> Result<f64> {
        if legal < 2 {
            return Ok(0.0);
        }
        Ok(match probability(&self.model)? {
            None => 0.0,
            Some(p) => ((1.0 - self.floor) * p.clamp(0.0, 1.0) + self.floor / legal as f64).ln(),
        })
    }
}

/// PIMC with inference: the evidence of the other seats' moves and how a decision's worlds are
/// drawn by it (see the module documentation).
pub struct Inference<Model: ?Sized> {
    pub evidence: Evidence<Model>,
    /// Candidate worlds the worlds of a decision are drawn from.
    pub pool: usize,
    /// The power each world's likelihood is raised to.
    pub temper: f64,
}

impl<Model: ?Sized> Clone for Inference<Model> {
    fn clone(&self) -> Self {
        Inference { evidence: self.evidence.clone(), pool: self.pool, temper: self.temper }
    }
}

impl<Model: ?Sized> fmt::Debug for Inference<Model> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Inference({:?}, pool {}, temper {})", self.evidence, self.pool, self.temper)
    }
}

impl<Model: ?Sized> Inference<Model> {
    /// The inference a PIMC agent with `worlds` worlds asks for in its options (`inference`,
    /// `pool`, `floor`, `temper`; see [`INFERENCE_OPTIONS`]), its model built from the spec
    /// after `inference=` by the game's `model`; None without `inference`, when `pool`, `floor`
    /// and `temper` are refused.
    pub fn from_options(
        o: &AgentOptions,
        worlds: usize,
        model: impl FnOnce(&str) -> Result<Arc<Model>>,
    ) -> Result<Option<Inference<Model>>> {
        let Some(spec) = o.text("inference") else {
            if let Some(key) = ["pool", "floor", "temper"].into_iter().find(|k| o.text(k).is_some()) {
                return Err(Error::invalid(
                    format!("pimc {key}"),
                    o.text(key).unwrap_or(""),
                    "only with inference=MODEL",
                ));
            }
            return Ok(None);
        };
        let pool = o.uint("pool", default_pool(worlds) as u64, 1, MAX_POOL as u64)? as usize;
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
        let spec = spec.trim();
        let evidence = Evidence::new(model(spec)?, spec, floor)?;
        Ok(Some(Inference { evidence, pool, temper }))
    }

    /// The worlds of a PIMC decision drawn by `pimc` from `worlds`: as they are without
    /// `inference`, else from a pool weighted by `log_likelihood(evidence, world)` raised to
    /// the temper (which takes one more draw from `rng`).
    pub fn sampling<D: Determinization>(
        inference: Option<&Inference<Model>>,
        pimc: &Pimc,
        worlds: D,
        rng: &mut Pcg64,
        log_likelihood: impl Fn(&Evidence<Model>, &D::World) -> Result<f64> + Sync + Send,
    ) -> Result<Sampling<D>>
    where
        Model: Send + Sync,
    {
        let Some(i) = inference else { return Ok(Sampling::Plain(worlds)) };
        Ok(Sampling::Weighted(
            pimc.weighted_pool(&worlds, i.pool, rng, |w| Ok(i.temper * log_likelihood(&i.evidence, w)?))?,
        ))
    }

    /// What the agent's name says of the inference: `,inference=MODEL`, with `,pool=N`,
    /// `,floor=X` and `,temper=X` where they are not the defaults for `worlds` worlds.
    pub fn name_suffix(&self, worlds: usize) -> String {
        let mut s = format!(",inference={}", self.evidence.name());
        if self.pool != default_pool(worlds) {
            s.push_str(&format!(",pool={}", self.pool));
        }
        if self.evidence.floor() != DEFAULT_FLOOR {
            s.push_str(&format!(",floor={}", self.evidence.floor()));
        }
        if self.temper != DEFAULT_TEMPER {
            s.push_str(&format!(",temper={}", self.temper));
        }
        s
    }
}

/// The default pool of a decision with `worlds` worlds.
fn default_pool(worlds: usize) -> usize {
    (DEFAULT_POOL_FACTOR * worlds).min(MAX_POOL)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of a two-move decision that gives its view's number to move 0 and the rest to
    /// move 1, and nothing for a view of 0.
    struct Halves;
    impl MoveModel<f64, usize> for Halves {
        fn probability(&self, view: &f64, m: &usize) -> Result<Option<f64>> {
            Ok((*view > 0.0).then_some(if *m == 0 { *view } else { 1.0 - *view }))
        }
    }

    fn evidence(floor: f64) -> Evidence<dyn MoveModel<f64, usize>> {
        let model: Arc<dyn MoveModel<f64, usize>> = Arc::new(Halves);
        Evidence::new(model, "halves", floor).unwrap()
    }

    #[test]
    fn probabilities_are_mixed_with_the_floor() {
        let e = evidence(0.1);
        let p = |view: f64, m: usize, legal: usize| e.log_prob(legal, |model| model.probability(&view, &m)).unwrap();
        // 0.9 p + 0.1 / legal.
        assert!((p(0.25, 0, 2).exp() - (0.9 * 0.25 + 0.05)).abs() < 1e-12);
        assert!((p(0.25, 1, 2).exp() - (0.9 * 0.75 + 0.05)).abs() < 1e-12);
        assert!((p(0.25, 0, 2).exp() + p(0.25, 1, 2).exp() - 1.0).abs() < 1e-12);
        // A move the model rules out keeps the floor.
        assert!((p(1.0, 1, 4).exp() - 0.025).abs() < 1e-12);
        // Forced moves and decisions the model says nothing of count 1.
        assert_eq!(p(0.25, 0, 1), 0.0);
        assert_eq!(p(0.0, 0, 2), 0.0);
        // A floor of one is uniform.
        let uniform = evidence(1.0);
        assert!((uniform.log_prob(3, |m| m.probability(&0.9, &0)).unwrap() - (1f64 / 3.0).ln()).abs() < 1e-12);
    }

    #[test]
    fn a_forced_move_does_not_ask_the_model_and_bad_floors_are_refused() {
        let e = evidence(0.1);
        assert_eq!(e.log_prob(1, |_| Err(Error::invalid("model", "asked", "not asked"))).unwrap(), 0.0);
        assert!(e.log_prob(2, |_| Err(Error::invalid("model", "asked", "not asked"))).is_err());
        for floor in [0.0, -0.5, 1.5, f64::NAN] {
            let e = Evidence::new(Arc::new(Halves), "halves", floor).unwrap_err();
            assert!(e.to_string().contains("floor"), "{e}");
        }
    }

    #[test]
    fn options_build_the_model_and_name_only_what_differs_from_the_defaults() {
        let parse =
            |args: &str| AgentOptions::parse("pimc", args, &["worlds", "inference", "pool", "floor", "temper"], "");
        let build = |spec: &str| -> Result<Arc<dyn MoveModel<f64, usize>>> {
            if spec == "halves" {
                Ok(Arc::new(Halves))
            } else {
                Err(Error::invalid("inference", spec, "halves"))
            }
        };
        assert!(Inference::from_options(&parse("worlds=8").unwrap(), 8, build).unwrap().is_none());
        let i = Inference::from_options(&parse("inference=halves").unwrap(), 8, build).unwrap().unwrap();
        assert_eq!((i.pool, i.temper, i.evidence.floor()), (32, 1.0, DEFAULT_FLOOR));
        assert_eq!(i.name_suffix(8), ",inference=halves");
        let i = Inference::from_options(&parse("inference=halves,pool=9,floor=0.5,temper=0.25").unwrap(), 8, build)
            .unwrap()
            .unwrap();
        assert_eq!(i.name_suffix(8), ",inference=halves,pool=9,floor=0.5,temper=0.25");
        for bad in ["pool=9", "inference=other", "inference=halves,temper=0", "inference=halves,floor=2"] {
            let o = parse(bad).unwrap();
            assert!(Inference::from_options(&o, 8, build).is_err(), "{bad}");
        }
        let e = Inference::from_options(&parse("temper=0.5").unwrap(), 8, build).unwrap_err().to_string();
        assert!(e.contains("temper") && e.contains("inference=MODEL"), "{e}");
    }
}

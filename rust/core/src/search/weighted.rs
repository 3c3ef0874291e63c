//! Worlds weighted by evidence: PIMC with inference.
//!
//! A plain determinization draws worlds uniformly among those consistent with the hard facts
//! (voids, cards seen). The play says more: in a world where a seat holds a strong hand, its
//! bid was likely; where it holds the Ace, its discard of the Ten was not. [`WeightedWorlds`]
//! is a determinization over a *pool* of candidate worlds drawn from a base determinization,
//! each carrying a weight (the likelihood of the other seats' moves in that world under a model
//! of their play); its worlds are drawn from the pool in proportion to the weights, with
//! replacement. This is importance resampling: as the pool grows, the worlds follow the
//! posterior `uniform × likelihood`.
//!
//! Weights are given as natural logarithms and normalised by their maximum, so products of
//! many small probabilities neither underflow nor vanish.

use super::determinization::Determinization;
use crate::error::{Error, Result};
use rand::Rng;
use rand_pcg::Pcg64;

/// Worlds drawn in proportion to their weights from a pool of candidates (see the module
/// documentation).
#[derive(Clone, Debug)]
pub struct WeightedWorlds<W> {
    pool: Vec<W>,
    /// Running sums of the normalised weights (the last is the total).
    cumulative: Vec<f64>,
}

impl<W> WeightedWorlds<W> {
    /// The pool `candidates` with `log_weights` (natural logarithms; `-inf` for a world the
    /// evidence rules out). An error for an empty pool, lengths that differ, a NaN or `+inf`
    /// weight, or a pool whose every weight is `-inf`.
    pub fn new(candidates: Vec<W>, log_weights: &[f64]) -> Result<WeightedWorlds<W>> {
        if candidates.is_empty() || candidates.len() != log_weights.len() {
            return Err(Error::invalid(
                "world pool",
                format!("{} worlds, {} weights", candidates.len(), log_weights.len()),
                "one weight per world, at least one world",
            ));
        }
        if let Some(bad) = log_weights.iter().find(|w| w.is_nan() || **w == f64::INFINITY) {
            return Err(Error::invalid("world log-weight", bad, "a number or -inf"));
        }
        let top = log_weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if top == f64::NEG_INFINITY {
            return Err(Error::invalid("world pool", "every weight 0", "at least one world the evidence allows"));
        }
        let mut sum = 0.0;
        let cumulative = log_weights
            .iter()
            .map(|w| {
                sum += (w - top).exp();
                sum
            })
            .collect();
        Ok(WeightedWorlds { pool: candidates, cumulative })
    }

    /// Each candidate's share of the total weight.
    pub fn probabilities(&self) -> Vec<f64> {
        let total = self.total();
        let mut before = 0.0;
        self.cumulative
            .iter()
            .map(|&c| {
                let p = (c - before) / total;
                before = c;
                p
            })
            .collect()
    }

    /// Kish's effective sample size of the weights: the pool's size when they are equal, 1 when
    /// one world carries them all.
    pub fn effective_size(&self) -> f64 {
        let p = self.probabilities();
        1.0 / p.iter().map(|x| x * x).sum::<f64>()
    }

    fn total(&self) -> f64 {
        *self.cumulative.last().expect("a pool is never empty")
    }

    /// The index of one candidate drawn in proportion to the weights.
    pub fn draw_index<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let u = rng.gen::<f64>() * self.total();
        self.cumulative.partition_point(|&c| c <= u).min(self.pool.len() - 1)
    }
}

/// The worlds of one decision: drawn straight from a determinization, or from a weighted pool of
/// its worlds (PIMC with inference).
pub enum Sampling<D: Determinization> {
    Plain(D),
    Weighted(WeightedWorlds<D::World>),
}

impl<D: Determinization> Determinization for Sampling<D>
where
    D::World: Clone,
{
    type World = D::World;

    fn sample(&self, rng: &mut Pcg64) -> Result<D::World> {
        match self {
            Sampling::Plain(d) => d.sample(rng),
            Sampling::Weighted(w) => w.sample(rng),
        }
    }
}

impl<W: Clone + Send + Sync> Determinization for WeightedWorlds<W> {
    type World = W;

    fn sample(&self, rng: &mut Pcg64) -> Result<W> {
        Ok(self.pool[self.draw_index(rng)].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn draws_follow_the_weights() {
        let w = WeightedWorlds::new(vec!['a', 'b', 'c', 'd'], &[0.0, 2f64.ln(), f64::NEG_INFINITY, -700.0]).unwrap();
        let p = w.probabilities();
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-12 && (p[1] - 2.0 / 3.0).abs() < 1e-12 && p[2] == 0.0, "{p:?}");
        let mut rng = Pcg64::seed_from_u64(1);
        let n = 30_000;
        let mut counts = [0usize; 4];
        for _ in 0..n {
            counts[w.draw_index(&mut rng)] += 1;
        }
        assert_eq!((counts[2], counts[3]), (0, 0), "{counts:?}");
        // Binomial with p = 1/3: sd = sqrt(n p (1 - p)) ≈ 82; allow 5 sd.
        assert!((counts[0] as f64 - n as f64 / 3.0).abs() < 410.0, "{counts:?}");
        assert!((w.effective_size() - 1.8).abs() < 1e-9);
    }

    #[test]
    fn equal_weights_are_uniform_and_log_weights_far_below_zero_do_not_underflow() {
        let w = WeightedWorlds::new(vec![1, 2, 3], &[-5000.0, -5000.0, -5000.0]).unwrap();
        assert!((w.effective_size() - 3.0).abs() < 1e-9);
        assert!(w.probabilities().iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-12));
    }

    #[test]
    fn bad_pools_are_refused() {
        assert!(WeightedWorlds::<u8>::new(vec![], &[]).is_err());
        assert!(WeightedWorlds::new(vec![1], &[0.0, 1.0]).is_err());
        assert!(WeightedWorlds::new(vec![1, 2], &[f64::NAN, 0.0]).is_err());
        assert!(WeightedWorlds::new(vec![1, 2], &[f64::INFINITY, 0.0]).is_err());
        let e = WeightedWorlds::new(vec![1, 2], &[f64::NEG_INFINITY; 2]).unwrap_err().to_string();
        assert!(e.contains("every weight 0"), "{e}");
    }
}

//! The update rules of the CFR family: how regrets are kept, turned into the next policy, and
//! how iterations are weighted in the average policy.

use crate::error::{Error, Result};

/// A CFR-family update rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// Vanilla CFR, exactly OpenSpiel's `CFRSolver` (regret matching, uniform averaging).
    Cfr,
    /// CFR+, exactly OpenSpiel's `CFRPlusSolver` (regret matching+, linear averaging).
    CfrPlus,
    /// Discounted CFR with parameters (α, β, γ); linear CFR is DCFR(1, 1, 1).
    Discounted { alpha: f64, beta: f64, gamma: f64 },
    /// Predictive CFR+ (the last instantaneous regret predicts the next), quadratic averaging.
    PredictivePlus,
}

/// Names accepted by [`Algorithm::parse`].
pub const ALGORITHM_NAMES: &[&str] = &["cfr", "cfr+", "lcfr", "dcfr", "pcfr+"];

/// DCFR's default parameters (Brown & Sandholm's recommended 1.5, 0, 2).
pub const DCFR_DEFAULTS: (f64, f64, f64) = (1.5, 0.0, 2.0);

impl Algorithm {
    /// Parses an algorithm name; `dcfr` takes `(alpha, beta, gamma)`: finite, with `alpha` and
    /// `gamma` at least 0 (the weights of positive regrets and of iterations in the average must
    /// not fall as iterations go on).
    pub fn parse(name: &str, dcfr: (f64, f64, f64)) -> Result<Algorithm> {
        let (alpha, beta, gamma) = dcfr;
        for (what, v, min) in [("alpha", alpha, 0.0), ("beta", beta, f64::NEG_INFINITY), ("gamma", gamma, 0.0)] {
            if !v.is_finite() {
                return Err(Error::invalid(format!("dcfr {what}"), v, "a finite number"));
            }
            if v < min {
                return Err(Error::invalid(format!("dcfr {what}"), v, format!("a finite number >= {min}")));
            }
        }
        match name.trim().to_ascii_lowercase().as_str() {
            "cfr" => Ok(Algorithm::Cfr),
            "cfr+" | "cfrplus" | "cfr_plus" => Ok(Algorithm::CfrPlus),
            "lcfr" | "linear" => Ok(Algorithm::Discounted { alpha: 1.0, beta: 1.0, gamma: 1.0 }),
            "dcfr" => Ok(Algorithm::Discounted { alpha, beta, gamma }),
            "pcfr+" | "pcfrplus" | "pcfr_plus" => Ok(Algorithm::PredictivePlus),
            other => Err(Error::UnknownAlgorithm { name: other.to_string(), known: ALGORITHM_NAMES.join(", ") }),
        }
    }

    /// The canonical name.
    pub fn name(&self) -> String {
        match *self {
            Algorithm::Cfr => "cfr".into(),
            Algorithm::CfrPlus => "cfr+".into(),
            Algorithm::Discounted { alpha, beta, gamma } if (alpha, beta, gamma) == (1.0, 1.0, 1.0) => "lcfr".into(),
            Algorithm::Discounted { alpha, beta, gamma } => format!("dcfr({alpha},{beta},{gamma})"),
            Algorithm::PredictivePlus => "pcfr+".into(),
        }
    }

    /// Whether regret contributions of a traversal go to a separate instantaneous-regret buffer
    /// (needed by predictive rules) rather than straight into the cumulative regrets.
    pub fn uses_instant_regrets(&self) -> bool {
        matches!(self, Algorithm::PredictivePlus)
    }

    /// Weight of iteration `t` (1-based) in the average policy. Contributions are added as
    /// `(weight * reach) * policy`, which for CFR and CFR+ is OpenSpiel's exact expression.
    pub fn average_weight(&self, t: u64) -> f64 {
        match *self {
            Algorithm::Cfr => 1.0,
            Algorithm::CfrPlus => t as f64,
            Algorithm::Discounted { gamma, .. } => (t as f64).powf(gamma),
            Algorithm::PredictivePlus => (t as f64) * (t as f64),
        }
    }

    /// Ends iteration `t` for one information set (see [`Step::update`]); when updating many,
    /// compute [`Algorithm::step`] once instead.
    pub fn update(&self, t: u64, regrets: &mut [f64], instant: &mut [f64], policy: &mut [f64]) {
        self.step(t).update(regrets, instant, policy)
    }

    /// The update of iteration `t` (1-based), with its per-iteration constants computed once.
    pub fn step(&self, t: u64) -> Step {
        let (pos, neg) = match *self {
            Algorithm::Discounted { alpha, beta, .. } => {
                let tf = t as f64;
                (tf.powf(alpha) / (tf.powf(alpha) + 1.0), tf.powf(beta) / (tf.powf(beta) + 1.0))
            }
            _ => (1.0, 1.0),
        };
        Step { algorithm: *self, pos, neg }
    }
}

/// One iteration's update rule, ready to apply to information sets.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    algorithm: Algorithm,
    /// Discount of positive cumulative regrets (DCFR).
    pos: f64,
    /// Discount of negative cumulative regrets (DCFR).
    neg: f64,
}

impl Step {
    /// Ends the iteration for one information set: updates its cumulative `regrets` (given the
    /// traversal's `instant` regrets where [`Algorithm::uses_instant_regrets`]) and writes the
    /// next `policy`.
    #[inline(always)]
    pub fn update(&self, regrets: &mut [f64], instant: &mut [f64], policy: &mut [f64]) {
        match self.algorithm {
            Algorithm::Cfr => regret_matching_of(regrets, policy),
            Algorithm::CfrPlus => {
                // Selects rather than branches: regrets' signs are unpredictable.
                for r in regrets.iter_mut() {
                    *r = if *r < 0.0 { 0.0 } else { *r };
                }
                regret_matching_of(regrets, policy);
            }
            Algorithm::Discounted { .. } => {
                for r in regrets.iter_mut() {
                    *r *= if *r > 0.0 { self.pos } else { self.neg };
                }
                regret_matching_of(regrets, policy);
            }
            Algorithm::PredictivePlus => {
                for (r, m) in regrets.iter_mut().zip(instant.iter()) {
                    *r = (*r + m).max(0.0);
                }
                // Next policy: regret matching on the predicted regrets (cumulative plus the
                // last instantaneous regret).
                let mut sum = 0.0;
                for (r, m) in regrets.iter().zip(instant.iter()) {
                    sum += (r + m).max(0.0);
                }
                let u = 1.0 / policy.len() as f64;
                for ((p, r), m) in policy.iter_mut().zip(regrets.iter()).zip(instant.iter()) {
                    *p = if sum > 0.0 { (r + m).max(0.0) / sum } else { u };
                }
                instant.fill(0.0);
            }
        }
    }
}

impl Step {
    /// [`Step::update`] on the `na` actions from `off` of whole arrays (`instant` empty where
    /// the rule keeps none). Sets of 2 and 3 actions (all of Kuhn's and Leduc's) get copies of
    /// the update for that constant length, which the compiler unrolls: with loops over a few
    /// actions the update cost as much as a third of a Leduc iteration.
    #[inline(always)]
    pub fn update_at(&self, off: usize, na: usize, regrets: &mut [f64], instant: &mut [f64], policy: &mut [f64]) {
        match na {
            2 => self.update_fixed::<2>(off, regrets, instant, policy),
            3 => self.update_fixed::<3>(off, regrets, instant, policy),
            n => {
                let m = if instant.is_empty() { &mut [][..] } else { &mut instant[off..off + n] };
                self.update(&mut regrets[off..off + n], m, &mut policy[off..off + n]);
            }
        }
    }

    /// [`Step::update_at`] for `N` actions.
    #[inline(always)]
    fn update_fixed<const N: usize>(&self, off: usize, regrets: &mut [f64], instant: &mut [f64], policy: &mut [f64]) {
        let m = if instant.is_empty() { &mut [][..] } else { &mut instant[off..off + N] };
        self.update(&mut regrets[off..off + N], m, &mut policy[off..off + N]);
    }
}

/// Regret matching exactly as OpenSpiel computes it: `policy[i]` becomes the positive part of
/// `regret(i)` over the sum of the positive parts (summed in action order), or uniform when no
/// regret is positive. Returns that sum (0: the policy is uniform).
///
/// The one regret-matching rule of cfrkit: the full-width update rules, the sampled solvers
/// (regrets read from wherever they are kept, e.g. a table's f32 records) and, since for
/// weights that are never negative it is plain normalisation (uniform when all are 0), the
/// averages of sampled strategies use it.
#[inline(always)]
pub fn regret_matching(policy: &mut [f64], regret: impl Fn(usize) -> f64) -> f64 {
    // Adding 0.0 for a non-positive regret leaves the sum as it is (it starts at +0.0 and
    // never becomes -0.0), and selecting it is cheaper than branching on the sign.
    let mut sum = 0.0;
    for (i, p) in policy.iter_mut().enumerate() {
        let r = regret(i);
        *p = if r > 0.0 { r } else { 0.0 };
        sum += *p;
    }
    if sum > 0.0 {
        for p in policy.iter_mut() {
            *p /= sum;
        }
    } else {
        let u = 1.0 / policy.len() as f64;
        policy.fill(u);
    }
    sum
}

/// [`regret_matching`] of the regrets in a slice as long as `policy`.
#[inline(always)]
fn regret_matching_of(regrets: &[f64], policy: &mut [f64]) {
    let regrets = &regrets[..policy.len()];
    regret_matching(policy, |i| regrets[i]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names() {
        assert_eq!(Algorithm::parse("CFR+", DCFR_DEFAULTS).unwrap(), Algorithm::CfrPlus);
        assert_eq!(Algorithm::parse("lcfr", DCFR_DEFAULTS).unwrap().name(), "lcfr");
        let e = Algorithm::parse("cfr++", DCFR_DEFAULTS).unwrap_err().to_string();
        assert!(e.contains("cfr++") && e.contains("pcfr+"), "{e}");
        assert!(Algorithm::parse("dcfr", (f64::NAN, 0.0, 2.0)).is_err());
        let e = Algorithm::parse("dcfr", (-1.0, 0.0, 2.0)).unwrap_err().to_string();
        assert!(e.contains("dcfr alpha: \"-1\" (a finite number >= 0)"), "{e}");
        assert!(Algorithm::parse("dcfr", (1.5, 0.0, -0.5)).is_err());
        assert!(Algorithm::parse("dcfr", (0.0, -3.0, 0.0)).is_ok(), "a negative beta discounts negative regrets");
    }

    #[test]
    fn regret_matching_normalises_positive_part() {
        let mut p = [0.0; 3];
        let (r, none) = ([3.0, -1.0, 1.0], [-3.0, 0.0, -1.0]);
        assert_eq!(regret_matching(&mut p, |i| r[i]), 4.0);
        assert_eq!(p, [0.75, 0.0, 0.25]);
        assert_eq!(regret_matching(&mut p, |i| none[i]), 0.0);
        assert_eq!(p, [1.0 / 3.0; 3]);
        // f32 regrets read in place (as sampled solvers keep them) match the same rule.
        let r32 = [2.5f32, -1.0, 0.5];
        regret_matching(&mut p, |i| r32[i] as f64);
        assert_eq!(p, [2.5 / 3.0, 0.0, 0.5 / 3.0]);
    }

    /// Bits of the values.
    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn regret_matching_equals_the_forms_it_replaced() {
        // The full-width update's form (sum of positive parts, then r / sum for positive
        // regrets, 0 for the others) and the Setback walk's (positive parts, then divided by
        // their sum): identical bits.
        let mut x: u64 = 1;
        for n in 1..=7 {
            for _ in 0..5000 {
                let r: Vec<f64> = (0..n)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if x >> 62 == 0 {
                            0.0
                        } else {
                            ((x >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e3
                        }
                    })
                    .collect();
                let mut sum = 0.0;
                for &v in &r {
                    sum += if v > 0.0 { v } else { 0.0 };
                }
                let full_width: Vec<f64> = if sum > 0.0 {
                    r.iter().map(|&v| if v > 0.0 { v / sum } else { 0.0 }).collect()
                } else {
                    vec![1.0 / n as f64; n]
                };
                let mut walk: Vec<f64> = r.iter().map(|&v| if v > 0.0 { v } else { 0.0 }).collect();
                let total: f64 = walk.iter().sum();
                for w in walk.iter_mut() {
                    *w = if total > 0.0 { *w / total } else { 1.0 / n as f64 };
                }
                let mut got = vec![0.0; n];
                regret_matching_of(&r, &mut got);
                assert_eq!(bits(&got), bits(&full_width), "{r:?}");
                assert_eq!(bits(&got), bits(&walk), "{r:?}");
            }
        }
    }

    #[test]
    fn cfr_plus_clamps_and_discounting_shrinks() {
        let (mut r, mut i, mut p) = ([2.0, -4.0], [0.0, 0.0], [0.0, 0.0]);
        Algorithm::CfrPlus.step(1).update(&mut r, &mut i, &mut p);
        assert_eq!((r, p), ([2.0, 0.0], [1.0, 0.0]));
        let mut r = [2.0, -4.0];
        Algorithm::Discounted { alpha: 1.0, beta: 1.0, gamma: 1.0 }.step(1).update(&mut r, &mut i, &mut p);
        assert_eq!(r, [1.0, -2.0]);
    }
}

//! Means with 95% confidence intervals (normal approximation).

/// The mean of some observations with the half-width of its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Number of observations.
    pub n: u64,
    /// Their mean (0 for none).
    pub mean: f64,
    /// Sample standard deviation (0 for fewer than two).
    pub sd: f64,
    /// Half-width of the 95% confidence interval of the mean: 1.96 sd / sqrt(n) (infinite for
    /// fewer than two observations).
    pub ci95: f64,
}

impl Estimate {
    /// The estimate of the mean of `xs` (summed in order, so equal inputs give equal bits).
    pub fn of(xs: &[f64]) -> Estimate {
        let n = xs.len() as u64;
        if n == 0 {
            return Estimate { n, mean: 0.0, sd: 0.0, ci95: f64::INFINITY };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n < 2 {
            return Estimate { n, mean, sd: 0.0, ci95: f64::INFINITY };
        }
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        Estimate { n, mean, sd, ci95: 1.96 * sd / (n as f64).sqrt() }
    }

    /// The interval `(mean - ci95, mean + ci95)`.
    pub fn interval(&self) -> (f64, f64) {
        (self.mean - self.ci95, self.mean + self.ci95)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_interval() {
        let e = Estimate::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!((e.n, e.mean), (4, 2.5));
        assert!((e.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!((e.ci95 - 1.96 * e.sd / 2.0).abs() < 1e-12);
        let (lo, hi) = e.interval();
        assert!(lo < 2.5 && hi > 2.5);
        assert!(Estimate::of(&[3.0]).ci95.is_infinite());
        assert_eq!(Estimate::of(&[]).mean, 0.0);
    }
}

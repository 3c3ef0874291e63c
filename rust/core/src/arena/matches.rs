//! The parallel match loop over deal indices, and a match between two agents under a
//! [`Protocol`].

use super::seating::Protocol;
use super::stats::Estimate;
use crate::error::Result;
use crate::threads;
use rayon::prelude::*;
use std::ops::Range;

/// `f(i)` for every index of `indices`, on `threads` threads (0 = `CFRKIT_NUM_THREADS` or all
/// cores), in index order: the results do not depend on the number of threads as long as `f`
/// depends only on `i`. The first error (by index) is returned.
pub fn play_indexed<T: Send>(
    indices: Range<u64>,
    threads: usize,
    f: impl Fn(u64) -> Result<T> + Sync + Send,
) -> Result<Vec<T>> {
    if threads::resolve(threads)? == 1 {
        return indices.map(f).collect();
    }
    threads::pool(threads)?.install(|| indices.into_par_iter().map(f).collect())
}

/// The outcome of a match between agents A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    /// Deals played (each once in every seating of the protocol).
    pub deals: u64,
    /// Games played: deals times seatings.
    pub games: u64,
    /// A's result per seat and game: A's total payoff over its seats and games divided by the
    /// number of (game, A-seat) pairs, with its 95% interval over deals (each deal's mean over
    /// its seatings is one observation, which keeps the variance reduction of playing every
    /// deal in every seating).
    pub a: Estimate,
    /// B's result per seat and game, likewise.
    pub b: Estimate,
}

/// Plays `deals` (a range of deal indices) of A against B under `protocol` at a table of `seats`
/// seats on `threads` threads. `play(deal, seating)` plays one game of deal `deal` with agent
/// `seating[s]` (0 = A, 1 = B) in seat `s` and returns every seat's payoff.
pub fn play_pair(
    protocol: Protocol,
    seats: usize,
    deals: Range<u64>,
    threads: usize,
    play: impl Fn(u64, &[u8]) -> Result<Vec<i64>> + Sync + Send,
) -> Result<PairResult> {
    let seatings = protocol.seatings(seats)?;
    let per_deal = play_indexed(deals.clone(), threads, |d| {
        let (mut sum, mut count) = ([0i64; 2], [0u32; 2]);
        for seating in &seatings {
            let payoffs = play(d, seating)?;
            for (s, &agent) in seating.iter().enumerate() {
                sum[agent as usize] += payoffs.get(s).copied().unwrap_or(0);
                count[agent as usize] += 1;
            }
        }
        Ok([0, 1].map(|k| sum[k] as f64 / count[k].max(1) as f64))
    })?;
    let side = |k: usize| Estimate::of(&per_deal.iter().map(|x| x[k]).collect::<Vec<f64>>());
    let n = deals.end.saturating_sub(deals.start);
    Ok(PairResult { deals: n, games: n * seatings.len() as u64, a: side(0), b: side(1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: seat `s` of deal `d` scores `(d + s) % 3 - 1`, plus 1 in agent A's seats.
    fn toy(d: u64, seating: &[u8]) -> Result<Vec<i64>> {
        Ok(seating.iter().enumerate().map(|(s, &a)| ((d + s as u64) % 3) as i64 - 1 + (a == 0) as i64).collect())
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let one = play_pair(Protocol::Rotation, 4, 0..200, 1, toy).unwrap();
        for t in [2, 3] {
            assert_eq!(play_pair(Protocol::Rotation, 4, 0..200, t, toy).unwrap(), one);
        }
        assert_eq!((one.deals, one.games), (200, 1200));
        // A gets +1 per seat over B on average; seats are balanced.
        assert!((one.a.mean - one.b.mean - 1.0).abs() < 1e-12, "{one:?}");
        let halves = play_pair(Protocol::Halves, 4, 5..15, 2, toy).unwrap();
        assert_eq!((halves.deals, halves.games), (10, 20));
        let squares = play_indexed(0..50, 3, |i| Ok(i * i)).unwrap();
        assert_eq!(squares, (0..50).map(|i| i * i).collect::<Vec<_>>());
        let err = play_indexed(0..50, 2, |i| if i == 7 { Err(crate::Error::Interrupted) } else { Ok(i) });
        assert!(err.is_err());
    }
}

//! The parallel match loop over deal indices, and a match between two agents under a
//! [`Protocol`].

use super::seating::Protocol;
use super::stats::Estimate;
use crate::error::{Error, Result};
use crate::stop::{self, StopFlag};
use crate::threads;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Told how far long work has come, between chunks: `(done, total)` in the work's units (games
/// played). An error stops the work and is returned: a caller checks for Ctrl-C there, or shows
/// progress. `done` never decreases but may repeat: a loop that can be stopped also calls it
/// when nothing was done, so that a stop is heard while long games are under way.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64) -> Result<()>;

/// A [`Progress`] that shows nothing and never stops the work.
pub fn quiet(_done: u64, _total: u64) -> Result<()> {
    Ok(())
}

/// How often the calling thread looks at the work's progress.
const POLL: Duration = Duration::from_millis(100);

/// `f(i)` for every index of `indices`, on `threads` threads (0 = `CFRKIT_NUM_THREADS` or all
/// cores), in index order: the results do not depend on the number of threads as long as `f`
/// depends only on `i`. The threads take indices as they free up (no pause between batches, so
/// slow indices of uneven length keep every core busy), while the calling thread calls
/// `progress(indices done · per_index, all · per_index)` once with 0 done before any work, then
/// every tenth of a second, and once at the end. An error from `progress` stops the work (no new
/// index starts, and those under way end at their searches' next check of the work's
/// [`stop`] flag, their results thrown away) and is returned; so is an error of `f`.
pub fn play_indexed<T: Send>(
    indices: Range<u64>,
    threads: usize,
    per_index: u64,
    progress: Progress,
    f: impl Fn(u64) -> Result<T> + Sync + Send,
) -> Result<Vec<T>> {
    let n = threads::resolve(threads)?;
    let pool = if n > 1 { Some(threads::pool(n)?) } else { None };
    let total = indices.end.saturating_sub(indices.start);
    // The first report is always 0 done, before any work starts (callers count on it).
    progress(0, total * per_index)?;
    // The stop flag is also the flag of each index's work, so that searches deep inside a game
    // (PIMC's worlds) end at once when the work is stopped.
    let (done, stop) = (AtomicU64::new(0), StopFlag::default());
    let work = || -> Result<Vec<T>> {
        let one = |i: u64| {
            if stop.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            let r = match &pool {
                Some(_) => stop::within(&stop, || threads::parallel_unit(|| f(i))),
                None => stop::within(&stop, || f(i)),
            };
            done.fetch_add(1, Ordering::Relaxed);
            r
        };
        match &pool {
            Some(pool) => pool.install(|| indices.clone().into_par_iter().map(one).collect()),
            None => indices.clone().map(one).collect(),
        }
    };
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        let mut stopped = Ok(());
        loop {
            let finished = worker.is_finished();
            let d = done.load(Ordering::Relaxed);
            if let Err(e) = progress(d * per_index, total * per_index) {
                stop.store(true, Ordering::Relaxed);
                stopped = Err(e);
                break;
            }
            if finished {
                break;
            }
            std::thread::sleep(POLL);
        }
        let out = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        stopped?;
        out
    })
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
    /// A's result minus B's, with its 95% interval over deals (each deal's difference of the
    /// two means over its seatings is one observation).
    pub diff: Estimate,
    /// Per deal in order, A's and B's mean payoff over their seats in its seatings: the
    /// observations of the estimates, so that matches played in pieces (on several machines)
    /// merge into exactly the figures of one run ([`PairResult::of_deals`]).
    pub per_deal: Vec<[f64; 2]>,
}

impl PairResult {
    /// The figures of a match from its deals' means (`per_deal`, in deal order) and its number
    /// of games: bit for bit those of the match played in one run.
    pub fn of_deals(per_deal: Vec<[f64; 2]>, games: u64) -> PairResult {
        let side = |k: usize| Estimate::of(&per_deal.iter().map(|x| x[k]).collect::<Vec<f64>>());
        let diff = Estimate::of(&per_deal.iter().map(|x| x[0] - x[1]).collect::<Vec<f64>>());
        PairResult { deals: per_deal.len() as u64, games, a: side(0), b: side(1), diff, per_deal }
    }
}

/// The outcome of a match whose games also sort each seat into one of a few categories (the
/// kind of game it played…): the figures ([`PairResult`]) and, per agent, how many of its
/// seat-games fell in each category.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// The match's figures: A's and B's results, A − B, deals, games and per-deal means.
    pub pair: PairResult,
    /// `tallies[k][c]`: the seat-games of agent `k` (0 = A, 1 = B) in category `c`.
    pub tallies: [Vec<u64>; 2],
}

impl MatchResult {
    /// Agent `k`'s (0 = A, 1 = B) tally in per cent of its seat-games.
    pub fn breakdown(&self, k: usize) -> Vec<f64> {
        let t = &self.tallies[k & 1];
        let n = t.iter().sum::<u64>().max(1) as f64;
        t.iter().map(|&x| 100.0 * x as f64 / n).collect()
    }
}

/// Plays `deals` (a range of deal indices) of A against B under `protocol` at a table of `seats`
/// seats on `threads` threads. `play(deal, seating)` plays one game of deal `deal` with agent
/// `seating[s]` (0 = A, 1 = B) in seat `s` and returns every seat's payoff. `progress` hears of
/// the games played (see [`play_indexed`]).
pub fn play_pair(
    protocol: Protocol,
    seats: usize,
    deals: Range<u64>,
    threads: usize,
    progress: Progress,
    play: impl Fn(u64, &[u8]) -> Result<Vec<i64>> + Sync + Send,
) -> Result<PairResult> {
    let tallied = play_pair_tallied(protocol, seats, deals, threads, 0, false, progress, |d, seatings| {
        seatings.iter().map(|s| Ok(play(d, s)?.into_iter().map(|x| (x, 0)).collect())).collect()
    })?;
    Ok(tallied.pair)
}

/// [`play_pair`] for games that sort each seat into one of `categories` categories and may play
/// a deal's seatings together (to share their decisions, [`super::shared`]): `play(deal,
/// seatings)` plays deal `deal` in every seating of `seatings` and returns, per seating, every
/// seat's payoff and category (categories at or above `categories` are not counted). With
/// `together`, `seatings` holds all the deal's seatings and the deal is the unit of work;
/// otherwise one, and the game is (so a few slow deals still spread over every thread, and a
/// stop waits for one game).
#[allow(clippy::too_many_arguments)]
pub fn play_pair_tallied(
    protocol: Protocol,
    seats: usize,
    deals: Range<u64>,
    threads: usize,
    categories: usize,
    together: bool,
    progress: Progress,
    play: impl Fn(u64, &[Vec<u8>]) -> Result<Vec<Vec<(i64, usize)>>> + Sync + Send,
) -> Result<MatchResult> {
    let seatings = protocol.seatings(seats)?;
    let per = seatings.len() as u64;
    let n = deals.end.saturating_sub(deals.start);
    let games = n.checked_mul(per).ok_or_else(|| {
        Error::invalid("deals", n, format!("at most {} deals with {per} seatings each", u64::MAX / per))
    })?;
    // A unit of work: deal `d`'s games in `seatings`, each seat's agent and outcome.
    let unit = |d: u64, seatings: &[Vec<u8>]| {
        let outcomes = play(d, seatings)?;
        if outcomes.len() != seatings.len() {
            let want = format!("one per seating, {}", seatings.len());
            return Err(Error::invalid("outcomes of a deal", outcomes.len(), want));
        }
        Ok(seatings
            .iter()
            .zip(outcomes)
            .flat_map(|(seating, o)| {
                seating.iter().enumerate().map(move |(s, &agent)| (agent, o.get(s).copied())).collect::<Vec<_>>()
            })
            .collect::<Vec<_>>())
    };
    let outcomes: Vec<Vec<_>> = if together {
        play_indexed(deals.clone(), threads, per, progress, |d| unit(d, &seatings))?
    } else {
        let games = play_indexed(0..games, threads, 1, progress, |g| {
            let k = (g % per) as usize;
            unit(deals.start + g / per, &seatings[k..k + 1])
        })?;
        games.chunks(per as usize).map(|deal| deal.concat()).collect()
    };
    let per_deal: Vec<([f64; 2], [Vec<u64>; 2])> = outcomes
        .iter()
        .map(|deal| {
            let (mut sum, mut count) = ([0i64; 2], [0u32; 2]);
            let mut tally = [vec![0u64; categories], vec![0u64; categories]];
            for &(agent, outcome) in deal {
                let (payoff, category) = outcome.unwrap_or((0, usize::MAX));
                sum[agent as usize] += payoff;
                count[agent as usize] += 1;
                if let Some(t) = tally[agent as usize].get_mut(category) {
                    *t += 1;
                }
            }
            ([0, 1].map(|k| sum[k] as f64 / count[k].max(1) as f64), tally)
        })
        .collect();
    let mut tallies = [vec![0u64; categories], vec![0u64; categories]];
    for (_, t) in &per_deal {
        for k in 0..2 {
            for (total, x) in tallies[k].iter_mut().zip(&t[k]) {
                *total += x;
            }
        }
    }
    let result = PairResult::of_deals(per_deal.into_iter().map(|x| x.0).collect(), games);
    Ok(MatchResult { pair: result, tallies })
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
        let one = play_pair(Protocol::Rotation, 4, 0..200, 1, &mut quiet, toy).unwrap();
        for t in [2, 3] {
            assert_eq!(play_pair(Protocol::Rotation, 4, 0..200, t, &mut quiet, toy).unwrap(), one);
        }
        assert_eq!((one.deals, one.games), (200, 1200));
        // A gets +1 per seat over B on average; seats are balanced.
        assert!((one.a.mean - one.b.mean - 1.0).abs() < 1e-12, "{one:?}");
        assert!((one.diff.mean - 1.0).abs() < 1e-12 && one.diff.n == 200, "{one:?}");
        // Categories: each seat's index; A sits in seats 0, 1, 2, 3 three times each.
        // Deals played whole (their seatings together) or game by game: the same figures.
        for together in [true, false] {
            let tallied = play_pair_tallied(Protocol::Rotation, 4, 0..10, 2, 3, together, &mut quiet, |d, seatings| {
                assert_eq!(seatings.len(), if together { 6 } else { 1 });
                seatings.iter().map(|s| Ok(toy(d, s)?.into_iter().enumerate().map(|(i, x)| (x, i)).collect())).collect()
            })
            .unwrap();
            assert_eq!(tallied.pair, play_pair(Protocol::Rotation, 4, 0..10, 1, &mut quiet, toy).unwrap());
            assert_eq!(tallied.tallies, [vec![30, 30, 30], vec![30, 30, 30]]);
        }
        // A deal must give one outcome per seating.
        let short =
            play_pair_tallied(Protocol::Rotation, 4, 0..10, 2, 3, true, &mut quiet, |_, _| Ok(vec![vec![(0, 0)]]));
        assert!(short.unwrap_err().to_string().contains("one per seating"));
        let halves = play_pair(Protocol::Halves, 4, 5..15, 2, &mut quiet, toy).unwrap();
        assert_eq!((halves.deals, halves.games), (10, 20));
        let squares = play_indexed(0..50, 3, 1, &mut quiet, |i| Ok(i * i)).unwrap();
        assert_eq!(squares, (0..50).map(|i| i * i).collect::<Vec<_>>());
        let err =
            play_indexed(0..50, 2, 1, &mut quiet, |i| if i == 7 { Err(crate::Error::Interrupted) } else { Ok(i) });
        assert!(err.is_err());
    }

    /// A match played in pieces: its pieces' per-deal means joined give the figures of one
    /// run, bit for bit.
    #[test]
    fn pieces_joined_give_the_figures_of_one_run() {
        let whole = play_pair(Protocol::Rotation, 4, 0..200, 2, &mut quiet, toy).unwrap();
        let pieces: Vec<PairResult> = [0..70, 70..71, 71..200]
            .into_iter()
            .map(|r| play_pair(Protocol::Rotation, 4, r, 1, &mut quiet, toy).unwrap())
            .collect();
        let per_deal: Vec<[f64; 2]> = pieces.iter().flat_map(|p| p.per_deal.clone()).collect();
        let games = pieces.iter().map(|p| p.games).sum();
        assert_eq!(PairResult::of_deals(per_deal, games), whole);
        assert_eq!(whole.per_deal.len(), 200);
    }

    /// Progress hears of every chunk, ends at the total, and stops the work when it fails.
    #[test]
    fn progress_is_reported_and_can_stop_the_work() {
        let mut seen = Vec::new();
        let r = play_pair(
            Protocol::Halves,
            4,
            0..100,
            2,
            &mut |done, total| {
                seen.push((done, total));
                Ok(())
            },
            toy,
        )
        .unwrap();
        assert_eq!(r, play_pair(Protocol::Halves, 4, 0..100, 1, &mut quiet, toy).unwrap());
        assert_eq!(seen.last(), Some(&(200, 200)));
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
        let mut calls = 0;
        let stopped = play_indexed(
            0..1000,
            1,
            1,
            &mut |_, _| {
                calls += 1;
                Err(crate::Error::Interrupted)
            },
            Ok,
        );
        assert!(matches!(stopped, Err(crate::Error::Interrupted)) && calls == 1);
    }
}

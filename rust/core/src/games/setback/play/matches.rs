//! Duplicate matches (spec §5.1): agent A plays West+East (team 0) and agent B North+South in
//! pairs of games on the same decks. In the first game of pair `i` the first dealer is
//! `(3 + 2i) mod 4` (South for pair 0); in the second the dealer of every deal sits one seat
//! further, so each hand goes to the other team. Pairs run in parallel; every game's decks and
//! random choices depend only on the seed and the pair, so results do not depend on threads.

use super::agent::{Agent, Setback};
use super::game::Game;
use super::log::{log_record, LogSlot};
use crate::arena::LogWriter;
use crate::arena::{play_indexed, quiet, Progress};
use crate::error::{Error, Result};
use crate::streams::stream;

const CHOICES: u64 = 0x0061_6765_6e74; // "agent"

/// The two games of a pair, from agent A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairOutcome {
    /// Games of the pair won by A (0, 1 or 2).
    pub a_wins: u32,
    /// Deals played in both games.
    pub deals: u32,
    /// Sum of A's and of B's deal scores over those deals.
    pub points: [i64; 2],
}

/// The first dealer of the first game of pair `pair` (South for pair 0, then North, …).
fn first_dealer(pair: u64) -> u8 {
    (3 + 2 * (pair % 2)) as u8 % 4
}

/// Plays the two games of pair `pair`; returns them (first, second) after they end.
pub fn play_pair_games(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    seed: u64,
    pair: u64,
    play_out: bool,
) -> Result<[Game; 2]> {
    play_pair_logged(a, b, seed, pair, play_out, None)
}

/// [`play_pair_games`], writing both games to `log` when given ([`super::log`]).
fn play_pair_logged(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    seed: u64,
    pair: u64,
    play_out: bool,
    log: Option<LogSlot>,
) -> Result<[Game; 2]> {
    let first = first_dealer(pair);
    let mut out = Vec::with_capacity(2);
    for g in 0..2u8 {
        let mut game = Game::new(seed, pair, (first + g) % 4, play_out)?;
        let mut rng = stream(seed, CHOICES, pair, g as u64);
        let mut decisions = Vec::new();
        game.play_recorded([a, b], &mut rng, log.is_some().then_some(&mut decisions))?;
        if let Some(log) = log {
            log.add(&game, pair, g as u64, decisions)?;
        }
        out.push(game);
    }
    let second = out.pop().expect("two games");
    let first = out.pop().expect("two games");
    Ok([first, second])
}

/// The outcome of pair `pair`.
pub fn play_pair(a: &dyn Agent<Setback>, b: &dyn Agent<Setback>, seed: u64, pair: u64) -> Result<PairOutcome> {
    Ok(outcome(&play_pair_games(a, b, seed, pair, false)?))
}

/// A pair's outcome from its two finished games.
fn outcome(games: &[Game; 2]) -> PairOutcome {
    let mut o = PairOutcome::default();
    for g in games {
        o.a_wins += (g.winner() == Some(0)) as u32;
        for r in g.records() {
            o.deals += 1;
            o.points[0] += r.score[0] as i64;
            o.points[1] += r.score[1] as i64;
        }
    }
    o
}

/// A match summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Duplicate pairs played.
    pub pairs: u64,
    /// Games played (2 per pair).
    pub games: u64,
    /// Games won by A.
    pub a_wins: u64,
    /// A's win rate.
    pub win_rate: f64,
    /// 95% confidence interval of A's win rate: normal approximation over pairs (each pair's
    /// share of games won is one observation, which keeps the variance reduction of duplicate
    /// play); `[0, 1]` with fewer than two pairs.
    pub ci: [f64; 2],
    /// Deals played.
    pub deals: u64,
    /// Mean deal score per deal of A's team and of B's team (after the setback rule).
    pub mean_points: [f64; 2],
    /// A's mean deal-point margin per deal (`mean_points[0] - mean_points[1]`).
    pub margin: f64,
    /// 95% confidence interval of the margin: the ratio estimator over pairs (each pair's point
    /// difference and deal count one observation) with its delta-method variance.
    pub margin_ci: [f64; 2],
}

/// Summarises pair outcomes.
pub fn summarize(outcomes: &[PairOutcome]) -> Summary {
    let n = outcomes.len() as u64;
    let a_wins: u64 = outcomes.iter().map(|o| o.a_wins as u64).sum();
    let deals: u64 = outcomes.iter().map(|o| o.deals as u64).sum();
    let pts = [0, 1].map(|t| outcomes.iter().map(|o| o.points[t]).sum::<i64>());
    let win_rate = if n == 0 { 0.0 } else { a_wins as f64 / (2 * n) as f64 };
    let ci = if n < 2 {
        [0.0, 1.0]
    } else {
        let var = outcomes.iter().map(|o| (o.a_wins as f64 / 2.0 - win_rate).powi(2)).sum::<f64>() / (n - 1) as f64;
        let half = 1.96 * (var / n as f64).sqrt();
        [(win_rate - half).max(0.0), (win_rate + half).min(1.0)]
    };
    let mean = |x: i64| {
        if deals == 0 {
            0.0
        } else {
            x as f64 / deals as f64
        }
    };
    let margin = mean(pts[0] - pts[1]);
    let margin_ci = if n < 2 || deals == 0 {
        [f64::NEG_INFINITY, f64::INFINITY]
    } else {
        let mean_deals = deals as f64 / n as f64;
        let resid = outcomes
            .iter()
            .map(|o| ((o.points[0] - o.points[1]) as f64 - margin * o.deals as f64).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        let half = 1.96 * (resid / n as f64).sqrt() / mean_deals;
        [margin - half, margin + half]
    };
    Summary {
        pairs: n,
        games: 2 * n,
        a_wins,
        win_rate,
        ci,
        deals,
        mean_points: [mean(pts[0]), mean(pts[1])],
        margin,
        margin_ci,
    }
}

/// Plays `pairs` duplicate pairs of A against B and summarises them.
pub fn run_match(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    pairs: u64,
    seed: u64,
    threads: usize,
) -> Result<Summary> {
    run_match_with_progress(a, b, pairs, seed, threads, &mut quiet)
}

/// Plays `pairs` (at least one) duplicate pairs of A against B on `threads` threads, in the
/// chunks of [`play_indexed`]: `progress(games done, games)` is called after each (two games
/// per pair) — where a caller checks for Ctrl-C or reports progress; an error from it stops
/// the match and is returned. The summary is the same for any thread count.
pub fn run_match_with_progress(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    pairs: u64,
    seed: u64,
    threads: usize,
    progress: Progress,
) -> Result<Summary> {
    if pairs == 0 {
        return Err(Error::invalid("pairs", pairs, "a positive number of duplicate pairs"));
    }
    Ok(summarize(&play_pairs(a, b, 0..pairs, seed, threads, progress)?))
}

/// The outcomes of the duplicate pairs `pairs` (indices; a piece of a match played elsewhere,
/// e.g. on a cluster's worker: [`summarize`] of the pieces' outcomes joined in order is the
/// match's summary), played as in [`run_match_with_progress`].
pub fn play_pairs(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    pairs: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    progress: Progress,
) -> Result<Vec<PairOutcome>> {
    play_pairs_logged(a, b, pairs, seed, threads, None, progress)
}

/// [`play_pairs`], writing every game to `log` when given (a log made with
/// [`super::log::log_header`] and `seed`, waiting for the first game of `pairs`): the games go
/// in their numbers' order whatever the threads, and logging changes no move.
pub fn play_pairs_logged(
    a: &dyn Agent<Setback>,
    b: &dyn Agent<Setback>,
    pairs: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    log: Option<LogSlot>,
    progress: Progress,
) -> Result<Vec<PairOutcome>> {
    play_indexed(pairs, threads, 2, progress, |i| Ok(outcome(&play_pair_logged(a, b, seed, i, false, log)?)))
}

/// Self-play, to make data sets: games `games` (indices), each one game with `agent` in every
/// seat, game `i` being the first game of duplicate pair `i` of a match (its decks, first dealer
/// and choice stream), on `threads` threads; with `log` (made with
/// [`super::log::selfplay_log_header`], waiting for game `games.start`) game `i` is game `i` of
/// the log. Returns each game's number of deals.
pub fn play_selfplay(
    agent: &dyn Agent<Setback>,
    games: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<Vec<u32>> {
    play_indexed(games, threads, 1, progress, |i| {
        let mut game = Game::new(seed, i, first_dealer(i), false)?;
        let mut decisions = Vec::new();
        game.play_recorded([agent, agent], &mut stream(seed, CHOICES, i, 0), log.is_some().then_some(&mut decisions))?;
        if let Some(log) = log {
            log.add(&log_record(&game, i, i, [0, 0], decisions))?;
        }
        Ok(game.records().len() as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::setback::play::random::RandomAgent;
    use crate::games::setback::play::rules_agent::RulesAgent;

    #[test]
    fn progress_and_threads_do_not_change_the_summary() {
        let whole = run_match(&RulesAgent, &RandomAgent, 40, 2, 2).unwrap();
        let mut seen = Vec::new();
        let reported = run_match_with_progress(&RulesAgent, &RandomAgent, 40, 2, 1, &mut |done, total| {
            seen.push((done, total));
            Ok(())
        })
        .unwrap();
        assert_eq!(whole, reported);
        assert_eq!(seen.last(), Some(&(80, 80)));
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
    }

    #[test]
    fn pairs_played_in_pieces_summarise_to_the_whole_match() {
        let whole = run_match(&RulesAgent, &RandomAgent, 30, 4, 2).unwrap();
        let mut outcomes = play_pairs(&RulesAgent, &RandomAgent, 0..11, 4, 1, &mut quiet).unwrap();
        outcomes.extend(play_pairs(&RulesAgent, &RandomAgent, 11..30, 4, 2, &mut quiet).unwrap());
        assert_eq!(summarize(&outcomes), whole);
    }

    #[test]
    fn the_caller_can_stop_a_match_between_chunks() {
        let mut calls = 0;
        let r = run_match_with_progress(&RulesAgent, &RandomAgent, 100, 0, 1, &mut |_, _| {
            calls += 1;
            Err(Error::Interrupted)
        });
        assert!(matches!(r, Err(Error::Interrupted)) && calls == 1);
        let e = run_match(&RulesAgent, &RandomAgent, 0, 0, 1).unwrap_err().to_string();
        assert!(e.contains("pairs: \"0\""), "{e}");
    }

    /// Self-play game `i` is the first game of pair `i` of the agent against itself, logged
    /// as game `i` whatever the threads.
    #[test]
    fn selfplay_plays_the_first_game_of_each_pair() {
        use crate::arena::log::read;
        use crate::games::setback::play::log::selfplay_log_header;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("self.jsonl");
        let log = LogWriter::create(&path, &selfplay_log_header("rules".into(), 3)).unwrap();
        let deals = play_selfplay(&RulesAgent, 0..12, 3, 2, Some(&log), &mut quiet).unwrap();
        assert_eq!(log.finish().unwrap(), 12);
        assert_eq!(deals, play_selfplay(&RulesAgent, 0..12, 3, 1, None, &mut quiet).unwrap());
        let read = read(&path).unwrap();
        for (i, r) in read.games.iter().enumerate() {
            let [first, _] = play_pair_games(&RulesAgent, &RulesAgent, 3, i as u64, false).unwrap();
            assert_eq!((r.game, r.deal, r.seating.clone()), (i as u64, i as u64, vec![0; 4]));
            assert_eq!(deals[i] as usize, first.records().len());
            assert_eq!(r.result["scores"], serde_json::json!(first.scores()));
        }
    }

    #[test]
    fn far_pair_indexes_are_played() {
        // The pairs of a long match: the first dealer alternates South, North by pair parity.
        let [g, _] = play_pair_games(&RulesAgent, &RulesAgent, 1, u64::MAX, false).unwrap();
        assert_eq!(g.records()[0].dealer, 1);
        let [g, _] = play_pair_games(&RulesAgent, &RulesAgent, 1, u64::MAX - 1, false).unwrap();
        assert_eq!(g.records()[0].dealer, 3);
    }
}

//! The bootstrap stage (spec §2.9): a game of the auction alone, played at a random game score.
//! Each team's score is drawn uniformly from −3…10; once the auction ends, the baseline
//! strategy's argmax plays every card (a fixed policy, not part of the tree); a deal after which
//! a team has won the game is worth ±5.5 to the dealer's team, any other deal its deal-point
//! difference, an all-pass deal 0. Its infosets are the bootstrap keys of [`super::keys`].

use super::abstraction::{actions, Action};
use super::rules::{Deal, GameScore};
use super::store::Strategy;
use rand::Rng;

/// Value of winning the game with this deal ("determined empirically" by the original's author).
pub const WIN_BONUS: f64 = 5.5;
/// Lowest and highest score a team is given at the start of a bootstrap iteration.
pub const SCORE_RANGE: (i32, i32) = (-3, 10);

/// A random game score: (the dealer's team, the other team), each uniform in [`SCORE_RANGE`].
pub fn random_score<R: Rng>(rng: &mut R) -> [i32; 2] {
    let (lo, hi) = SCORE_RANGE;
    [rng.gen_range(lo..=hi), rng.gen_range(lo..=hi)]
}

/// Plays `d` (after the auction) until its score is decided, every decision taken by the
/// baseline's argmax; a missing key plays the first abstract action (as the original does).
pub fn baseline_playout(baseline: &Strategy, d: &Deal) -> Deal {
    let mut d = *d;
    while !d.exhausted {
        let a = actions(&d);
        let i = if a.n < 2 { 0 } else { super::keys::key(&d, &a).and_then(|k| baseline.best(k)).unwrap_or(0) };
        match a.acts[i] {
            Action::Bid(b) => d.apply_bid(b),
            _ => d.apply_card(a.cards[i]),
        }
    }
    d
}

/// The dealer's team's payoff of a deal whose auction is over, the game score before the deal
/// being `score` (dealer's team first).
pub fn payoff(baseline: &Strategy, d: &Deal, score: [i32; 2]) -> f64 {
    if d.high_bid == 0 {
        return 0.0;
    }
    let s = baseline_playout(baseline, d).score().expect("a played-out deal has a score");
    match (GameScore { scores: [score[0] + s[0], score[1] + s[1]] }).winner() {
        Some(0) => WIN_BONUS,
        Some(_) => -WIN_BONUS,
        None => (s[0] - s[1]) as f64,
    }
}

//! Agents that play a trained strategy through the abstraction (spec §4.2), looking their keys
//! up in the trained tables (argmax or sampled) or in the strategy database.
//!
//! At each decision: a single legal move is played without a lookup. Bids: with a score-aware
//! source (a bootstrap table, or the database) the bootstrap key over all legal bids is looked
//! up; otherwise the baseline auction key over the Jack-filtered bids. Card play: the abstract
//! actions are computed (establish-trump choices, lead/follow codes); a single one is played;
//! otherwise the baseline key is looked up. A missing key falls back as the original does: bid
//! Three if legal, else Pass; play the first abstract action in canonical order.
//!
//! The agent is also a model of its own play for PIMC with inference
//! ([`crate::search::MoveModel`]): the probability of a move is that of the abstract actions
//! that play it (one-hot for an argmax table and the database, which keeps each key's most
//! probable action; 1 for a forced or fallback move).

use super::super::cards::{self, Card};
use super::super::keys::{self, Key};
use super::super::rules::Phase;
use super::super::store::Strategy;
use super::agent::{by_phase, Agent, Move, Setback};
use super::view::View;
use crate::error::{Error, Result};
use crate::policy::argmax;
use crate::search::MoveModel;
use rand::Rng;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Where a strategy agent finds the action of a key.
pub trait Lookup: Send + Sync {
    /// The index of the action chosen among the `n` actions of `key`, or None when the key is
    /// missing.
    fn choose(&self, key: Key, n: usize, rng: &mut Pcg64) -> Result<Option<usize>>;
    /// The probability of each of the `n` actions of `key` being chosen, or None when the key
    /// is missing.
    fn probabilities(&self, key: Key, n: usize) -> Result<Option<Vec<f64>>>;
    /// Whether bids are looked up with bootstrap (score-aware) keys.
    fn score_aware(&self) -> bool;
}

/// How a table lookup picks among a key's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMode {
    /// The most probable action, the first on ties (the original's player).
    Argmax,
    /// An action drawn from the average strategy.
    Sampled,
}

/// Trained strategy files: a baseline strategy, and optionally a bootstrap strategy for bids
/// (loaded from training directories by [`super::super::registry::tables`]).
#[derive(Clone, Debug)]
pub struct Tables {
    /// The baseline strategy (establish-trump and playout keys; auction keys without bootstrap).
    pub baseline: Arc<Strategy>,
    /// The bootstrap strategy (score-aware auction keys), if any.
    pub bootstrap: Option<Arc<Strategy>>,
    /// Argmax or sampled.
    pub mode: TableMode,
}

/// The distribution of `n` actions that always picks action `i`.
pub fn one_hot(n: usize, i: usize) -> Vec<f64> {
    (0..n).map(|k| if k == i { 1.0 } else { 0.0 }).collect()
}

fn sample(probs: &[f32], rng: &mut Pcg64) -> usize {
    let total: f32 = probs.iter().sum();
    let mut x = rng.gen::<f32>() * total;
    for (i, &p) in probs.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

impl Tables {
    /// The strategy's probabilities of the `n` actions of `key`: from the bootstrap table for a
    /// bootstrap key, else the baseline; None when the key is missing (or has other actions).
    fn row(&self, key: Key, n: usize) -> Option<&[f32]> {
        let table = if keys::is_bootstrap(key) { self.bootstrap.as_ref() } else { Some(&self.baseline) };
        table.and_then(|t| t.get(key)).filter(|p| p.len() == n)
    }
}

impl Lookup for Tables {
    fn choose(&self, key: Key, n: usize, rng: &mut Pcg64) -> Result<Option<usize>> {
        Ok(self.row(key, n).map(|p| match self.mode {
            TableMode::Argmax => argmax(p),
            TableMode::Sampled => sample(p, rng),
        }))
    }
    fn probabilities(&self, key: Key, n: usize) -> Result<Option<Vec<f64>>> {
        Ok(self.row(key, n).map(|p| {
            let total: f64 = p.iter().map(|&x| f64::from(x)).sum();
            match self.mode {
                TableMode::Argmax => one_hot(n, argmax(p)),
                // `sample` draws the first action from a row of zeros.
                TableMode::Sampled if total <= 0.0 => one_hot(n, 0),
                TableMode::Sampled => p.iter().map(|&x| f64::from(x) / total).collect(),
            }
        }))
    }
    fn score_aware(&self) -> bool {
        self.bootstrap.is_some()
    }
}

/// Plays a trained strategy found through a [`Lookup`].
#[derive(Clone)]
pub struct StrategyAgent {
    lookup: Arc<dyn Lookup>,
    label: String,
}

/// Which rule chose a move (for tests and inspection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Only one legal move, or only one abstract action.
    Forced,
    /// The key was found.
    Table,
    /// The key was missing: the fallback rule chose.
    Fallback,
}

/// How the agent takes a decision: a forced move, or a key looked up among the moves its
/// abstract actions play (the same move may stand for several), with the move played when the
/// key is missing.
enum Decision {
    Forced(Move),
    Keyed { key: Key, moves: Vec<Move>, fallback: Move },
}

impl StrategyAgent {
    /// An agent looking its keys up in `lookup`; `label` names it in reports.
    pub fn new(lookup: Arc<dyn Lookup>, label: impl Into<String>) -> StrategyAgent {
        StrategyAgent { lookup, label: label.into() }
    }

    /// The decision of the viewer, who is to act (see the module documentation).
    fn decision(&self, view: &View) -> Result<Decision> {
        if view.phase() == Phase::Auction {
            let legal = view.legal_bids();
            if legal.is_empty() {
                return Err(Error::invalid("bid request", "no legal bid", "a view of a player to act in the auction"));
            }
            if legal.len() == 1 {
                return Ok(Decision::Forced(Move::Bid(legal[0])));
            }
            let fallback = Move::Bid(if legal.contains(&3) { 3 } else { 0 });
            if self.lookup.score_aware() {
                let key = view.bootstrap_key().expect("the viewer is to act in the auction");
                return Ok(Decision::Keyed { key, moves: legal.into_iter().map(Move::Bid).collect(), fallback });
            }
            let acts = view.abstract_actions().expect("the viewer is to act");
            let moves: Vec<Move> =
                acts.acts[..acts.n].iter().map(|a| Move::Bid(a.bid().expect("auction actions are bids"))).collect();
            if acts.n == 1 {
                return Ok(Decision::Forced(moves[0]));
            }
            let key = view.key(&acts).expect("two or more actions have a key");
            return Ok(Decision::Keyed { key, moves, fallback });
        }
        let legal = view.legal_cards();
        if legal == 0 {
            return Err(Error::invalid("card request", "no legal card", "a view of a player to act in the playout"));
        }
        if legal.count_ones() == 1 {
            return Ok(Decision::Forced(Move::Card(cards::lowest(legal))));
        }
        let acts = view.abstract_actions().expect("the viewer is to act");
        let moves: Vec<Move> = acts.cards[..acts.n].iter().map(|&c| Move::Card(c)).collect();
        if acts.n == 1 {
            return Ok(Decision::Forced(moves[0]));
        }
        let key = view.key(&acts).expect("two or more actions have a key");
        Ok(Decision::Keyed { key, fallback: moves[0], moves })
    }

    /// The move of the viewer (to act) and the rule that chose it.
    pub fn move_with_source(&self, view: &View, rng: &mut Pcg64) -> Result<(Move, Source)> {
        Ok(match self.decision(view)? {
            Decision::Forced(m) => (m, Source::Forced),
            Decision::Keyed { key, moves, fallback } => match self.lookup.choose(key, moves.len(), rng)? {
                Some(i) => (moves[i], Source::Table),
                None => (fallback, Source::Fallback),
            },
        })
    }

    /// The bid and the rule that chose it.
    pub fn bid_with_source(&self, view: &View, rng: &mut Pcg64) -> Result<(u8, Source)> {
        match self.move_with_source(view, rng)? {
            (Move::Bid(b), source) => Ok((b, source)),
            _ => Err(Error::invalid(
                "bid request",
                "a view after the auction",
                "a view of a player to act in the auction",
            )),
        }
    }

    /// The card and the rule that chose it.
    pub fn play_with_source(&self, view: &View, rng: &mut Pcg64) -> Result<(Card, Source)> {
        match self.move_with_source(view, rng)? {
            (Move::Card(c), source) => Ok((c, source)),
            _ => {
                Err(Error::invalid("card request", "a view in the auction", "a view of a player to act in the playout"))
            }
        }
    }
}

impl MoveModel<View, Move> for StrategyAgent {
    fn probability(&self, view: &View, m: &Move) -> Result<Option<f64>> {
        Ok(Some(match self.decision(view)? {
            Decision::Forced(forced) => f64::from(u8::from(forced == *m)),
            Decision::Keyed { key, moves, fallback } => match self.lookup.probabilities(key, moves.len())? {
                Some(p) => moves.iter().zip(p).filter(|(x, _)| *x == m).map(|(_, p)| p).sum(),
                None => f64::from(u8::from(fallback == *m)),
            },
        }))
    }
}

impl Agent<Setback> for StrategyAgent {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(view, rng, |r| Ok(self.bid_with_source(view, r)?.0), |r| Ok(self.play_with_source(view, r)?.0))
    }
}

//! Agents that play a trained strategy through the abstraction (spec §4.2), looking their keys
//! up in the trained tables (argmax or sampled) or in the strategy database.
//!
//! At each decision: a single legal move is played without a lookup. Bids: with a score-aware
//! source (a bootstrap table, or the database) the bootstrap key over all legal bids is looked
//! up; otherwise the baseline auction key over the Jack-filtered bids. Card play: the abstract
//! actions are computed (establish-trump choices, lead/follow codes); a single one is played;
//! otherwise the baseline key is looked up. A missing key falls back as the original does: bid
//! Three if legal, else Pass; play the first abstract action in canonical order.

use super::super::cards::{self, Card};
use super::super::keys::{self, Key};
use super::super::store::Strategy;
use super::agent::Agent;
use super::view::View;
use crate::error::{Error, Result};
use crate::policy::argmax;
use rand::Rng;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Where a strategy agent finds the action of a key.
pub trait Lookup: Send + Sync {
    /// The index of the action chosen among the `n` actions of `key`, or None when the key is
    /// missing.
    fn choose(&self, key: Key, n: usize, rng: &mut Pcg64) -> Result<Option<usize>>;
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

impl Lookup for Tables {
    fn choose(&self, key: Key, n: usize, rng: &mut Pcg64) -> Result<Option<usize>> {
        let table = if keys::is_bootstrap(key) { self.bootstrap.as_ref() } else { Some(&self.baseline) };
        Ok(table.and_then(|t| t.get(key)).filter(|p| p.len() == n).map(|p| match self.mode {
            TableMode::Argmax => argmax(p),
            TableMode::Sampled => sample(p, rng),
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

impl StrategyAgent {
    /// An agent looking its keys up in `lookup`; `label` names it in reports.
    pub fn new(lookup: Arc<dyn Lookup>, label: impl Into<String>) -> StrategyAgent {
        StrategyAgent { lookup, label: label.into() }
    }

    /// The bid and the rule that chose it.
    pub fn bid_with_source(&self, view: &View, rng: &mut Pcg64) -> Result<(u8, Source)> {
        let legal = view.legal_bids();
        if legal.is_empty() {
            return Err(Error::invalid("bid request", "no legal bid", "a view of a player to act in the auction"));
        }
        if legal.len() == 1 {
            return Ok((legal[0], Source::Forced));
        }
        let fallback = (if legal.contains(&3) { 3 } else { 0 }, Source::Fallback);
        if self.lookup.score_aware() {
            let key = view.bootstrap_key().expect("the viewer is to act in the auction");
            return Ok(match self.lookup.choose(key, legal.len(), rng)? {
                Some(i) => (legal[i], Source::Table),
                None => fallback,
            });
        }
        let acts = view.abstract_actions().expect("the viewer is to act");
        if acts.n == 1 {
            return Ok((acts.acts[0].bid().expect("auction actions are bids"), Source::Forced));
        }
        let key = view.key(&acts).expect("two or more actions have a key");
        Ok(match self.lookup.choose(key, acts.n, rng)? {
            Some(i) => (acts.acts[i].bid().expect("auction actions are bids"), Source::Table),
            None => fallback,
        })
    }

    /// The card and the rule that chose it.
    pub fn play_with_source(&self, view: &View, rng: &mut Pcg64) -> Result<(Card, Source)> {
        let legal = view.legal_cards();
        if legal == 0 {
            return Err(Error::invalid("card request", "no legal card", "a view of a player to act in the playout"));
        }
        if legal.count_ones() == 1 {
            return Ok((cards::lowest(legal), Source::Forced));
        }
        let acts = view.abstract_actions().expect("the viewer is to act");
        if acts.n == 1 {
            return Ok((acts.cards[0], Source::Forced));
        }
        let key = view.key(&acts).expect("two or more actions have a key");
        Ok(match self.lookup.choose(key, acts.n, rng)? {
            Some(i) => (acts.cards[i], Source::Table),
            None => (acts.cards[0], Source::Fallback),
        })
    }
}

impl Agent for StrategyAgent {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8> {
        self.bid_with_source(view, rng).map(|r| r.0)
    }
    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        self.play_with_source(view, rng).map(|r| r.0)
    }
}

//! The table agent: plays a trained baseline strategy through the abstraction (spec §4.2).
//!
//! At each decision: a single legal move is played without a lookup; otherwise the abstract
//! actions are computed (Jack-filtered bids, establish-trump choices, lead/follow codes); a single
//! abstract action is played; otherwise the baseline key is looked up. Found: the argmax action
//! (first on ties), or an action drawn from the average strategy in sampled mode. Missing key:
//! bid Three if legal, else Pass; play the first abstract action in canonical order.

use super::super::abstraction::{Action, Actions};
use super::super::cards::{self, Card};
use super::super::store::Strategy;
use super::agent::Agent;
use super::view::View;
use crate::error::{Error, Result};
use rand::Rng;
use rand_pcg::Pcg64;
use std::path::Path;
use std::sync::Arc;

/// File name of the strategy inside a training directory.
pub const STRATEGY_FILE: &str = "strategy.cfrkit";

/// How the table agent picks among a key's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMode {
    /// The most probable action, the first on ties (the original's player).
    Argmax,
    /// An action drawn from the average strategy.
    Sampled,
}

/// Plays a trained baseline strategy.
#[derive(Clone, Debug)]
pub struct TableAgent {
    strategy: Arc<Strategy>,
    mode: TableMode,
    label: String,
}

/// Which rule chose a move (for tests and inspection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Only one legal move, or only one abstract action.
    Forced,
    /// The key was found in the strategy.
    Table,
    /// The key was missing: the fallback rule chose.
    Fallback,
}

impl TableAgent {
    /// An agent playing `strategy` in `mode`; `label` names it in reports.
    pub fn new(strategy: Arc<Strategy>, mode: TableMode, label: impl Into<String>) -> TableAgent {
        TableAgent { strategy, mode, label: label.into() }
    }

    /// Loads `path`: a training directory holding `strategy.cfrkit`, or a strategy file.
    pub fn load(path: &Path, mode: TableMode) -> Result<TableAgent> {
        let file = if path.is_dir() { path.join(STRATEGY_FILE) } else { path.to_path_buf() };
        if !file.exists() {
            return Err(Error::invalid(
                "table agent path",
                path.display(),
                format!(
                    "a training directory holding {STRATEGY_FILE}, or a strategy file (not found: {})",
                    file.display()
                ),
            ));
        }
        let strategy = Strategy::load(&file)?;
        let prefix = if mode == TableMode::Argmax { "table" } else { "table-sampled" };
        Ok(TableAgent::new(Arc::new(strategy), mode, format!("{prefix}:{}", path.display())))
    }

    /// The strategy played.
    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    fn pick(&self, probs: &[f32], rng: &mut Pcg64) -> usize {
        match self.mode {
            TableMode::Argmax => {
                let mut best = 0;
                for (i, &p) in probs.iter().enumerate() {
                    if p > probs[best] {
                        best = i;
                    }
                }
                best
            }
            TableMode::Sampled => {
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
        }
    }

    /// Index of the chosen abstract action and how it was chosen, or None when the view's
    /// player is not to act.
    fn choose(&self, view: &View, rng: &mut Pcg64) -> Option<(Actions, Option<usize>, Source)> {
        let acts = view.abstract_actions()?;
        if acts.n <= 1 {
            return Some((acts, (acts.n == 1).then_some(0), Source::Forced));
        }
        match view.key(&acts).and_then(|k| self.strategy.get(k)) {
            Some(probs) if probs.len() == acts.n => {
                let i = self.pick(probs, rng);
                Some((acts, Some(i), Source::Table))
            }
            _ => Some((acts, None, Source::Fallback)),
        }
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
        let (acts, i, src) = self.choose(view, rng).expect("the viewer is to act");
        Ok(match i {
            Some(i) => match acts.acts[i] {
                Action::Bid(b) => (b, src),
                other => unreachable!("auction actions are bids, got {other:?}"),
            },
            None => (if legal.contains(&3) { 3 } else { 0 }, Source::Fallback),
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
        let (acts, i, src) = self.choose(view, rng).expect("the viewer is to act");
        Ok((acts.cards[i.unwrap_or(0)], src))
    }
}

impl Agent for TableAgent {
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

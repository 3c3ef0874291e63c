//! The hybrid agent: one agent's bids, another's card play — by default the CFR database's bids
//! (score-aware, trained on the whole auction) with PIMC's card play (which searches the actual
//! cards instead of the abstraction's coarse play codes).

use super::super::cards::Card;
use super::super::rules::Phase;
use super::agent::{Agent, Move};
use super::view::View;
use crate::arena::log::Valued;
use crate::error::Result;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Bids with `bidder`, plays cards (the trump-setting lead included) with `player`.
#[derive(Clone)]
pub struct HybridAgent {
    bidder: Arc<dyn Agent>,
    player: Arc<dyn Agent>,
    label: String,
}

impl HybridAgent {
    /// A hybrid of two agents; `label` names it in reports.
    pub fn new(bidder: Arc<dyn Agent>, player: Arc<dyn Agent>, label: impl Into<String>) -> HybridAgent {
        HybridAgent { bidder, player, label: label.into() }
    }
}

impl Agent for HybridAgent {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8> {
        self.bidder.bid(view, rng)
    }
    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        self.player.play(view, rng)
    }
    fn move_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
        let agent = if view.phase() == Phase::Auction { &self.bidder } else { &self.player };
        agent.move_valued(view, rng)
    }
}

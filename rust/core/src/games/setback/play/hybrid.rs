//! The hybrid agents. [`HybridAgent`]: one agent's bids, another's card play — by default the CFR
//! database's bids (score-aware, trained on the whole auction) with PIMC's card play (which
//! searches the actual cards instead of the abstraction's coarse play codes). [`LearnedHybrid`]:
//! every game's learned hybrid ([`crate::learn::hybrid`]), a policy's bids and early tricks with
//! PIMC's late ones.

use super::super::rules::Phase;
use super::agent::{Agent, Move, Setback};
use super::view::View;
use crate::arena::log::Valued;
use crate::error::Result;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Bids with `bidder`, plays cards (the trump-setting lead included) with `player`.
#[derive(Clone)]
pub struct HybridAgent {
    bidder: Arc<dyn Agent<Setback>>,
    player: Arc<dyn Agent<Setback>>,
    label: String,
}

impl HybridAgent {
    /// A hybrid of two agents; `label` names it in reports.
    pub fn new(
        bidder: Arc<dyn Agent<Setback>>,
        player: Arc<dyn Agent<Setback>>,
        label: impl Into<String>,
    ) -> HybridAgent {
        HybridAgent { bidder, player, label: label.into() }
    }
}

impl HybridAgent {
    fn agent_for(&self, view: &View) -> &dyn Agent<Setback> {
        if view.phase() == Phase::Auction {
            self.bidder.as_ref()
        } else {
            self.player.as_ref()
        }
    }
}

impl Agent<Setback> for HybridAgent {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        self.agent_for(view).act(view, rng)
    }
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
        self.agent_for(view).act_valued(view, rng)
    }
}

/// `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`: the policy bids (unless
/// `precardplay=pimc`) and plays the tricks before `K`, PIMC plays from trick `K` on (the
/// trump-setting lead is the first trick's).
pub type LearnedHybrid = crate::learn::Hybrid<dyn Agent<Setback>>;

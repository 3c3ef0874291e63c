//! The hybrid agents. [`HybridAgent`]: one agent's bids, another's card play — by default the CFR
//! database's bids (score-aware, trained on the whole auction) with PIMC's card play (which
//! searches the actual cards instead of the abstraction's coarse play codes). [`LearnedHybrid`]:
//! every game's learned hybrid ([`crate::learn::hybrid`]), a policy's bids and early tricks with
//! PIMC's late ones.

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

/// `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`: the policy bids (unless
/// `precardplay=pimc`) and plays the tricks before `K`, PIMC plays from trick `K` on (the
/// trump-setting lead is the first trick's).
pub type LearnedHybrid = crate::learn::Hybrid<dyn Agent>;

/// The stage of a decision for [`crate::learn::Hybrid::agent_for`]: None in the auction, else
/// the tricks completed.
fn stage(view: &View) -> Option<u8> {
    (view.phase() != Phase::Auction).then(|| view.tricks_done())
}

impl Agent for LearnedHybrid {
    fn name(&self) -> String {
        let (spec, net, pimc) = self.parts();
        spec.name(&net.name(), &pimc.name())
    }
    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8> {
        self.agent_for(stage(view)).bid(view, rng)
    }
    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        self.agent_for(stage(view)).play(view, rng)
    }
    fn move_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
        self.agent_for(stage(view)).move_valued(view, rng)
    }
}

//! The Schafkopf hybrid agent ([`crate::learn::hybrid`]),
//! `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`:
//! the `net:DIR` policy takes the tricks before `K` (default 3) and, unless `precardplay=pimc`
//! hands them to PIMC's search, the declarations, contra and retour; `pimc:[PIMC options]`
//! plays from trick `K` on.

use super::actions::{Action, Phase};
use super::agents::Agent;
use super::learned::NetAgent;
use super::pimc::agent as pimc;
use super::view::View;
use crate::arena::log::Valued;
use crate::error::Result;
use crate::learn::{Hybrid, HybridSpec};
use rand_pcg::Pcg64;
use std::sync::Arc;

/// The default first trick PIMC plays: from the third of eight tricks on, a 40-world decision takes
/// milliseconds.
pub const DEFAULT_FROM: u64 = 3;

/// A learned policy before trick `from`, PIMC from it on (see the module documentation).
pub type HybridAgent = Hybrid<dyn Agent>;

/// The agent from the options after `hybrid:` (see [`crate::learn::hybrid::help`]).
pub fn from_options(args: &str) -> Result<HybridAgent> {
    let spec = HybridSpec::parse(args, 8, DEFAULT_FROM)?;
    let net = Arc::new(NetAgent::from_options(&spec.net)?);
    let pimc = Arc::new(pimc::from_options(&spec.pimc)?);
    Ok(Hybrid::new(spec, net, pimc))
}

/// The completed tricks of a decision in the tricks; None before the cards.
fn stage(view: &View) -> Option<u8> {
    (view.phase() == Phase::Tricks).then(|| view.tricks_done())
}

impl Agent for HybridAgent {
    fn name(&self) -> String {
        let (spec, net, pimc) = self.parts();
        spec.name(&net.name(), &pimc.name())
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        self.agent_for(stage(view)).act(view, rng)
    }

    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Action>> {
        self.agent_for(stage(view)).act_valued(view, rng)
    }
}

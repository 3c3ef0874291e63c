//! The Skat hybrid agent ([`crate::learn::hybrid`]),
//! `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`:
//! the `net:DIR` policy takes the tricks before `K` (default 4) and, unless `precardplay=pimc`
//! hands them to the PIMC agent (its `bidding=rules|search`), the bidding, Hand or pickup,
//! discard and declaration; `pimc:[PIMC options]` plays from trick `K` on.

use super::actions::{Action, Phase};
use super::agents::Agent;
use super::learned::NetAgent;
use super::pimc::agent::{self as pimc, PimcAgent};
use super::view::View;
use crate::arena::log::Valued;
use crate::error::Result;
use crate::learn::HybridSpec;
use rand_pcg::Pcg64;

/// The default first trick PIMC plays: from the fourth trick on, a 160-world decision takes
/// milliseconds.
pub const DEFAULT_FROM: u64 = 4;

/// A learned policy before trick `from`, PIMC from it on (see the module documentation).
#[derive(Clone, Debug)]
pub struct HybridAgent {
    spec: HybridSpec,
    net: NetAgent,
    pimc: PimcAgent,
}

impl HybridAgent {
    /// The agent from the options after `hybrid:` (see [`crate::learn::hybrid::help`]).
    pub fn from_options(args: &str) -> Result<HybridAgent> {
        let spec = HybridSpec::parse(args, 10, DEFAULT_FROM)?;
        Ok(HybridAgent { net: NetAgent::from_options(&spec.net)?, pimc: pimc::from_options(&spec.pimc)?, spec })
    }

    /// The agent that takes the decision of `view`.
    fn agent_for(&self, view: &View) -> &dyn Agent {
        let late = match view.phase() {
            Phase::Tricks => view.tricks_done() + 1 >= self.spec.from,
            _ => self.spec.precardplay_by_pimc,
        };
        if late {
            &self.pimc
        } else {
            &self.net
        }
    }
}

impl Agent for HybridAgent {
    fn name(&self) -> String {
        self.spec.name(&self.net.name(), &self.pimc.name())
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        self.agent_for(view).act(view, rng)
    }

    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Action>> {
        self.agent_for(view).act_valued(view, rng)
    }
}

//! The Skat hybrid agent ([`crate::learn::hybrid`]),
//! `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`:
//! the `net:DIR` policy takes the tricks before `K` (default 4) and, unless `precardplay=pimc`
//! hands them to the PIMC agent (its `bidding=rules|search`), the bidding, Hand or pickup,
//! discard and declaration; `pimc:[PIMC options]` plays from trick `K` on.

use super::agents::{Agent, Skat};
use super::learned::NetAgent;
use super::pimc::agent as pimc;
use crate::error::Result;
use crate::learn::Hybrid;
use std::sync::Arc;

/// The first trick PIMC plays unless told otherwise.
pub const DEFAULT_FROM: u64 = 4;

/// A learned policy before trick `from`, PIMC from it on (see the module documentation).
pub type HybridAgent = Hybrid<dyn Agent<Skat>>;

/// The agent from the options after `hybrid:` (see [`crate::learn::hybrid::help`]).
pub fn from_options(args: &str) -> Result<HybridAgent> {
    let net = |o: &str| Ok(Arc::new(NetAgent::from_options(o)?) as Arc<dyn Agent<Skat>>);
    let pimc = |o: &str| Ok(Arc::new(pimc::from_options(o)?) as Arc<dyn Agent<Skat>>);
    Hybrid::from_options(args, 10, DEFAULT_FROM, net, pimc)
}

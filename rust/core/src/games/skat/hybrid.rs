//! The Skat hybrid agent ([`crate::learn::hybrid`]),
//! `hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`:
//! the `net:DIR` policy takes the tricks before `K` (default 4) and, unless `precardplay=pimc`
//! hands them to the PIMC agent (its `bidding=rules|search`), the bidding, Hand or pickup,
//! discard and declaration; `pimc:[PIMC options]` plays from trick `K` on.

use super::actions::{Action, Phase};
use super::agents::Agent;
use super::learned::NetAgent;
use super::pimc::agent as pimc;
use super::view::View;
use crate::arena::log::Valued;
use rand_pcg::Pcg64;

/// The default first trick PIMC plays: from the fourth trick on, a 160-world decision takes
/// milliseconds.
pub const DEFAULT_FROM: u64 = 4;

crate::hybrid_agent!(10);

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
use rand_pcg::Pcg64;

/// The default first trick PIMC plays: from the third of eight tricks on, a 40-world decision takes
/// milliseconds.
pub const DEFAULT_FROM: u64 = 3;

crate::hybrid_agent!(8);

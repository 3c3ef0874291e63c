//! The determinization trait: how a game samples worlds for PIMC.

use crate::error::Result;
use rand_pcg::Pcg64;

/// A game's determinization for one player's view: draws complete worlds (every hidden card
/// placed) consistent with everything the player has seen.
pub trait Determinization: Sync {
    /// A complete world a [`PerfectInfoSolver`](super::PerfectInfoSolver) can search.
    type World: Send + Sync;

    /// Draws one world from `rng` (uniformly among the consistent worlds, unless the game
    /// documents otherwise).
    fn sample(&self, rng: &mut Pcg64) -> Result<Self::World>;
}

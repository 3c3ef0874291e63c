//! The traversal engine of a full-width solver: how one player's CFR traversal is computed.
//!
//! [`Solver`](super::Solver) owns the regret, policy and average arrays and the update rule; an
//! engine computes a traversal over them. Every game has the lane walk ([`LaneEngine`](super::LaneEngine)),
//! which works on any compiled tree; a game may bring a faster engine of its own (Blackjack++'s
//! range walk) through the games registry. Engines must compute the same sums, so iterates
//! agree up to rounding.

use super::{Algorithm, Step};
use crate::tree::PublicTree;

/// The arrays a traversal uses, indexed like the tree's information sets' actions.
pub struct Arrays<'a> {
    /// The current policy (read, and rewritten by updates applied during the traversal).
    pub policy: &'a mut [f64],
    /// Cumulative regrets.
    pub regrets: &'a mut [f64],
    /// Instantaneous regrets (empty for rules that keep none and solvers that are not grouped).
    pub instant: &'a mut [f64],
    /// Cumulative (weighted, reach-weighted) policy: the average policy's numerators.
    pub average: &'a mut [f64],
}

/// One player's traversal: what it reads and writes, and how.
pub struct Traversal<'a> {
    /// The compiled game.
    pub tree: &'a PublicTree,
    /// The player whose regrets and average policy are updated.
    pub player: usize,
    /// The update rule.
    pub algorithm: Algorithm,
    /// Weight of this iteration's average-policy contributions.
    pub weight: f64,
    /// The update that ends the iteration for the player's information sets, for engines that
    /// apply it during the traversal ([`Engine::updates_during_traversal`]); else `None`.
    pub update: Option<Step>,
    /// Whether regret contributions go to `arrays.instant` instead of `arrays.regrets`.
    pub to_instant: bool,
    /// Whether the traversal may run on several threads of the current rayon pool.
    pub parallel: bool,
    /// The solver's arrays.
    pub arrays: Arrays<'a>,
}

/// How a full-width solver computes traversals (see the module documentation).
pub trait Engine: Send + Sync {
    /// The engine's name, e.g. `"lanes"`.
    fn name(&self) -> &'static str;

    /// `player`'s information sets as (offset of the first action, number of actions), in the
    /// order updates visit them.
    fn sets_of(&self, player: usize) -> &[(u32, u32)];

    /// Whether [`Engine::traverse`] applies the end-of-iteration update itself (each
    /// information set as soon as its regrets are final) when given one.
    fn updates_during_traversal(&self) -> bool {
        false
    }

    /// Called after `player`'s entries of `policy` changed outside a traversal (an update, a
    /// checkpoint restored), for engines that keep a copy of it.
    fn policy_changed(&mut self, _policy: &[f64], _player: usize) {}

    /// Sets the subtree size (in public nodes) from which the engine splits work across threads,
    /// where it has such a knob. Results never depend on it.
    fn set_split_size(&mut self, _nodes: u32) {}

    /// Runs one traversal.
    fn traverse(&mut self, t: Traversal<'_>);
}

//! The [`Agent`] trait: anything that picks a seat's action from its [`View`].

use super::super::actions::Action;
use super::super::view::View;
use crate::arena::log::Valued;
use crate::cards::random_member;
use crate::error::{Error, Result};
use rand::Rng;
use rand_pcg::Pcg64;

/// A Skat player. Agents are shared by the games of a match running on many threads, so they
/// keep no per-game state: every decision is a function of the view and the random stream (each
/// seat of each game has its own stream, or each decision has its own when a match shares a
/// deal's decisions between its games, [`crate::arena::shared`]).
pub trait Agent: Send + Sync {
    /// A short name for reports, e.g. `rules`.
    fn name(&self) -> String;
    /// The action of the viewing seat, which is to act.
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action>;
    /// [`Self::act`] and, where the agent has them, its values of the legal actions (e.g.
    /// PIMC's mean payoffs), for game logs. The same action as `act` for the same view and
    /// stream.
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Action>> {
        Ok((self.act(view, rng)?, None))
    }
}

/// A uniformly random legal action of the view's seat.
pub fn random_action(view: &View, rng: &mut Pcg64) -> Result<Action> {
    if view.phase() == super::super::actions::Phase::Tricks && view.to_act() {
        return Ok(Action::Card(random_member(view.legal_cards(), rng)));
    }
    let legal = view.legal_actions();
    if legal.is_empty() {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
    }
    Ok(legal[rng.gen_range(0..legal.len())])
}

/// Checks an agent's action against the legal ones.
pub fn check_action(agent: &dyn Agent, view: &View, action: Action) -> Result<Action> {
    match view.why_illegal(action) {
        None => Ok(action),
        Some(why) => Err(Error::invalid(format!("action of agent {}", agent.name()), action.name(), why)),
    }
}

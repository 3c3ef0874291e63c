//! The [`Agent`] trait: anything that picks a seat's action from its [`View`].

use super::super::actions::Action;
use super::super::view::View;
use crate::arena::log::Valued;
pub use crate::cards::random_member;
use crate::error::{Error, Result};
use rand_pcg::Pcg64;

/// A Schafkopf player. Agents are shared by the games of a match running on many threads, so
/// they keep no per-game state: every decision is a function of the view and the random stream
/// (each seat of each game has its own stream).
pub trait Agent: Send + Sync {
    /// A short name for reports, e.g. `rules`.
    fn name(&self) -> String;
    /// The action of the viewing seat, which is to act.
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action>;
    /// [`Self::act`] and, where the agent has them, its values of the legal actions (e.g.
    /// PIMC's mean payments), for game logs. The same action as `act` for the same view and
    /// stream.
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Action>> {
        Ok((self.act(view, rng)?, None))
    }
}

/// A uniformly random legal action of the view's seat.
pub fn random_action(view: &View, rng: &mut Pcg64) -> Result<Action> {
    let mask = view.legal_mask();
    if mask == 0 {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
    }
    Ok(Action::from_id(random_member(mask, rng)).expect("legal masks hold action ids"))
}

/// Checks an agent's action against the legal ones.
pub fn check_action(agent: &dyn Agent, view: &View, action: Action) -> Result<Action> {
    if view.legal_mask() & action.bit() != 0 {
        return Ok(action);
    }
    let legal: Vec<String> = view.legal_actions().iter().map(|a| a.name_in(view.phase())).collect();
    Err(Error::invalid(
        format!("action of agent {}", agent.name()),
        action.name_in(view.phase()),
        format!("one of {}", legal.join(", ")),
    ))
}

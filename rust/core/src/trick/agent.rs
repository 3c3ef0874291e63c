//! The [`Agent`] trait of every trick-taking game, the random agent, and the checked move of an
//! agent.

use super::game::TrickGame;
use crate::arena::log::Valued;
use crate::error::{Error, Result};
use rand_pcg::Pcg64;

/// A player of game `G`. Agents are shared by the games of a match running on many threads, so
/// they keep no per-game state: every decision is a function of the view and the random stream
/// (each seat of each game has its own stream, or each decision its own when a match shares a
/// deal's decisions between its games, [`crate::arena::shared`]).
pub trait Agent<G: TrickGame>: Send + Sync {
    /// A short name for reports, e.g. `rules`.
    fn name(&self) -> String;
    /// The action of the viewing seat, which is to act.
    fn act(&self, view: &G::View<'_>, rng: &mut Pcg64) -> Result<G::Action>;
    /// [`Self::act`] and, where the agent has them, its values of the legal actions (e.g.
    /// PIMC's mean payoffs), for game logs. The same action as `act` for the same view and
    /// stream.
    fn act_valued(&self, view: &G::View<'_>, rng: &mut Pcg64) -> Result<Valued<G::Action>> {
        Ok((self.act(view, rng)?, None))
    }
}

/// Uniformly random legal actions, in every game (each game's own draw,
/// [`TrickGame::random_action`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: TrickGame> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }
    fn act(&self, view: &G::View<'_>, rng: &mut Pcg64) -> Result<G::Action> {
        G::random_action(view, rng)
    }
}

/// `agent`'s action for the viewing seat, which must be to act, checked against the legal ones.
pub fn act_checked<G: TrickGame>(
    agent: &(impl Agent<G> + ?Sized),
    view: &G::View<'_>,
    rng: &mut Pcg64,
) -> Result<G::Action> {
    Ok(act_valued_checked(agent, view, rng, false)?.0)
}

/// [`act_checked`], with the agent's values of the legal actions when `valued` and it gives them.
pub fn act_valued_checked<G: TrickGame>(
    agent: &(impl Agent<G> + ?Sized),
    view: &G::View<'_>,
    rng: &mut Pcg64,
    valued: bool,
) -> Result<Valued<G::Action>> {
    if !G::to_act(view) {
        return Err(Error::invalid("view", agent.name(), "a view of the seat to act"));
    }
    let (action, values) = if valued { agent.act_valued(view, rng)? } else { (agent.act(view, rng)?, None) };
    match G::why_illegal(view, action) {
        None => Ok((action, values)),
        Some(why) => {
            Err(Error::invalid(format!("action of agent {}", agent.name()), G::action_name(view, action), why))
        }
    }
}

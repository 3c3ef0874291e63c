//! Skat as its agents see it ([`TrickGame`]): the view of a seat, the actions, Skat's random
//! draw. The agent trait is every game's ([`crate::trick::Agent`]).

use super::super::actions::{Action, Phase};
use super::super::view::View;
use crate::cards::random_member;
use crate::error::{Error, Result};
use crate::trick::TrickGame;
use rand::Rng;
use rand_pcg::Pcg64;

pub use crate::trick::Agent;

/// Skat, the game its agents play ([`crate::trick::Agent<Skat>`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Skat;

impl TrickGame for Skat {
    const NAME: &'static str = "skat";
    type View<'a> = View<'a>;
    type Action = Action;

    fn to_act(view: &View<'_>) -> bool {
        view.to_act()
    }
    fn random_action(view: &View<'_>, rng: &mut Pcg64) -> Result<Action> {
        random_action(view, rng)
    }
    fn why_illegal(view: &View<'_>, action: Action) -> Option<String> {
        view.why_illegal(action)
    }
    fn action_name(_: &View<'_>, action: Action) -> String {
        action.name()
    }
    fn tricks_done(view: &View<'_>) -> Option<u8> {
        (view.phase() == Phase::Tricks).then(|| view.tricks_done())
    }
}

/// A uniformly random legal action of the view's seat.
pub fn random_action(view: &View<'_>, rng: &mut Pcg64) -> Result<Action> {
    if view.phase() == Phase::Tricks && view.to_act() {
        return Ok(Action::Card(random_member(view.legal_cards(), rng)));
    }
    let legal = view.legal_actions();
    if legal.is_empty() {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
    }
    Ok(legal[rng.gen_range(0..legal.len())])
}

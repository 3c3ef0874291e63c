//! Schafkopf as its agents see it ([`TrickGame`]): the view of a seat, the actions, Schafkopf's
//! random draw. The agent trait is every game's ([`crate::trick::Agent`]).

use super::super::actions::{Action, Phase};
use super::super::view::View;
pub use crate::cards::random_member;
use crate::error::{Error, Result};
use crate::trick::TrickGame;
use rand_pcg::Pcg64;

pub use crate::trick::Agent;

/// Schafkopf, the game its agents play ([`crate::trick::Agent<Schafkopf>`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Schafkopf;

impl TrickGame for Schafkopf {
    const NAME: &'static str = "schafkopf";
    type View<'a> = View<'a>;
    type Action = Action;

    fn to_act(view: &View<'_>) -> bool {
        view.to_act()
    }
    fn random_action(view: &View<'_>, rng: &mut Pcg64) -> Result<Action> {
        random_action(view, rng)
    }
    fn why_illegal(view: &View<'_>, action: Action) -> Option<String> {
        if view.legal_mask() & action.bit() != 0 {
            return None;
        }
        let legal: Vec<String> = view.legal_actions().iter().map(|a| a.name_in(view.phase())).collect();
        Some(format!("one of {}", legal.join(", ")))
    }
    fn action_name(view: &View<'_>, action: Action) -> String {
        action.name_in(view.phase())
    }
    fn tricks_done(view: &View<'_>) -> Option<u8> {
        (view.phase() == Phase::Tricks).then(|| view.tricks_done())
    }
}

/// A uniformly random legal action of the view's seat.
pub fn random_action(view: &View<'_>, rng: &mut Pcg64) -> Result<Action> {
    let mask = view.legal_mask();
    if mask == 0 {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
    }
    Ok(Action::from_id(random_member(mask, rng)).expect("legal masks hold action ids"))
}

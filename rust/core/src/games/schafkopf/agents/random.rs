//! The random agents of SchafkopfRL (spec §9): `random` picks uniformly among the legal actions
//! in every phase; `random-coward` declares uniformly among pass and the allowed Sauspiele,
//! never doubles, and plays random cards.

use super::super::actions::{Action, Phase};
use super::super::view::View;
use super::agent::{random_action, random_member, Agent, Schafkopf};
use crate::error::Result;
use rand_pcg::Pcg64;

/// Random, but never a Wenz or Solo and never a double.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomCowardAgent;

/// Declaration ids of pass and the three Sauspiele.
const PASS_OR_SAUSPIEL: u64 = 0b1111;

impl Agent<Schafkopf> for RandomCowardAgent {
    fn name(&self) -> String {
        "random-coward".into()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        match view.phase() {
            Phase::Bidding if view.to_act() => {
                let id = random_member(view.legal_mask() & PASS_OR_SAUSPIEL, rng);
                Ok(Action::from_id(id).expect("a declaration id"))
            }
            Phase::Contra | Phase::Retour if view.to_act() => Ok(Action::Double(false)),
            _ => random_action(view, rng),
        }
    }
}

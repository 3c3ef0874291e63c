//! The `random` agent: a uniformly random legal action in every phase (bids, Hand or pickup,
//! the discard, the contract, the cards).

use super::super::actions::Action;
use super::super::view::View;
use super::agent::{random_action, Agent};
use crate::error::Result;
use rand_pcg::Pcg64;

/// Uniformly random legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        random_action(view, rng)
    }
}

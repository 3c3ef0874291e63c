//! Learned Skat policies: networks trained on game logs to imitate the agents that played them,
//! one network per decision kind as in the Skat paper ([`crate::learn`]), and the `net:DIR`
//! agent that plays them.
//!
//! **Decision kinds** ([`KINDS`], [`kind_of`]) and the action ids each network chooses among
//! ([`super::features`]): `bid` (ids 0–64: pass, hold, the bids), `skat` (65–66: Hand or
//! pickup), `discard` (67–562), `declare` (563–591), and card play per game type and role,
//! `cards-grand-declarer`, `cards-grand-defender`, `cards-suit-declarer`, `cards-suit-defender`,
//! `cards-null-declarer`, `cards-null-defender` (592–623). **Features**: the view's 322 features
//! ([`super::features::features`]).
//!
//! [`NetAgent`] takes each decision with its kind's network: the legal action of the highest
//! logit (`net:DIR`) or one drawn from the softmax over the legal actions (`net:DIR,sample=1`); a
//! kind without a network (none was in the logs) is decided by the `rules` agent.
//! [`log_likelihood`] scores a world by a policy's probabilities of the moves the other seats
//! made in it: the evidence of PIMC with inference (`pimc:inference=net:DIR`).

use super::actions::{Action, Phase};
use super::agents::rules_agent::RulesAgent;
use super::agents::Agent;
use super::contract::GameType;
use super::deal::Deal;
use super::features::{action_id, action_of, features, legal_ids, FEATURES};
use super::game::Game;
use super::view::View;
use crate::arena::log::GameRecord;
use crate::error::{Error, Result};
use crate::learn::learnable::{Learnable, NetPolicy, OnDecision};
use crate::learn::PlayModel;
use rand_pcg::Pcg64;

/// The decision kinds, in order, with the first action id and the number of ids of each.
pub const KINDS: [(&str, usize, usize); 10] = [
    ("bid", 0, 65),
    ("skat", 65, 2),
    ("discard", 67, 496),
    ("declare", 563, 29),
    ("cards-grand-declarer", 592, 32),
    ("cards-grand-defender", 592, 32),
    ("cards-suit-declarer", 592, 32),
    ("cards-suit-defender", 592, 32),
    ("cards-null-declarer", 592, 32),
    ("cards-null-defender", 592, 32),
];

/// The index in [`KINDS`] of the decision the viewing seat (to act) takes.
pub fn kind_of(view: &View) -> usize {
    match view.phase() {
        Phase::Bidding => 0,
        Phase::Skat => 1,
        Phase::Discard => 2,
        Phase::Declare => 3,
        _ => {
            let game = match view.contract().map(|c| c.game) {
                Some(GameType::Grand) => 0,
                Some(GameType::Suit(_)) => 1,
                _ => 2,
            };
            4 + 2 * game + usize::from(view.declarer() != Some(view.seat()))
        }
    }
}

/// Skat for [`crate::learn`].
pub struct SkatPolicies;

impl Learnable for SkatPolicies {
    const GAME: &'static str = "skat";
    const FEATURES: usize = FEATURES;
    const KINDS: &'static [(&'static str, usize, usize)] = &KINDS;

    fn replay(_settings: &str, r: &GameRecord, decision: &mut OnDecision) -> std::result::Result<(), String> {
        let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
        let hands: Option<Vec<String>> = r.cards["hands"].as_array().and_then(|h| h.iter().map(text).collect());
        let (Some(hands), Some(skat)) = (hands, text(&r.cards["skat"])) else {
            return Err("no hands and skat in its cards".into());
        };
        let mut game = Game::new(&Deal::parse(&hands, &skat).map_err(|e| e.to_string())?);
        for d in &r.decisions {
            let view = View::new(&game, d.seat);
            let action = action_of(d.action as usize).filter(|&a| view.to_act() && game.is_legal(a));
            let Some(action) = action else { return Err(format!("action {} is not legal there", d.action)) };
            decision(kind_of(&view), &features(&view), &legal_ids(&view), d.action as usize)
                .map_err(|e| e.to_string())?;
            game.apply_legal(action);
        }
        Ok(())
    }
}

/// The agent of a learned Skat policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct NetAgent {
    net: NetPolicy,
}

impl NetAgent {
    /// The agent from the options after `net:` ([`crate::learn::NET_OPTIONS`]).
    pub fn from_options(args: &str) -> Result<NetAgent> {
        Ok(NetAgent { net: NetPolicy::from_options::<SkatPolicies>(args)? })
    }
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        self.net.name()
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let legal = legal_ids(view);
        match self.net.choose(KINDS[kind_of(view)].0, &features(view), &legal, rng) {
            Some(id) => action_of(id).ok_or_else(|| Error::invalid("action id", id, "an action id of Skat")),
            None if legal.is_empty() => {
                Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"))
            }
            None => RulesAgent::default().act(view, rng),
        }
    }
}

/// The natural logarithm of the probability, under `model`, of every decision the seats other
/// than `viewer` took in `world`, replayed from its deal (forced moves and kinds without a
/// network count 1). In a defender's world after a pickup the deal's skat is the declarer's
/// discard (see [`super::pimc::worlds`]): his bids are then scored on the ten cards he kept,
/// since the ten he was dealt are unknown.
pub fn log_likelihood(model: &PlayModel, world: &Game, viewer: u8) -> Result<f64> {
    let mut game = Game::new(&world.deal());
    let mut sum = 0.0;
    for (seat, action) in world.history() {
        if seat != viewer {
            let view = View::new(&game, seat);
            let id =
                action_id(action).ok_or_else(|| Error::invalid("action", format!("{action:?}"), "a Skat action"))?;
            sum += model.log_prob_of(KINDS[kind_of(&view)].0, &legal_ids(&view), id, || features(&view));
        }
        game.apply_legal(action);
    }
    Ok(sum)
}

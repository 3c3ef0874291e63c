//! Learned Schafkopf policies: networks trained on game logs to imitate the agents that played
//! them, one network per decision kind ([`crate::learn`]), and the `net:DIR` agent.
//!
//! **Decision kinds** ([`KINDS`], [`kind_of`]) and the action ids each network chooses among
//! ([`super::actions`]): `declare` (ids 0–8: pass, the Sauspiele, Wenz, the Solos), `double`
//! (9–10: contra or retour, or not), and card play (11–42) per game type and role:
//! `cards-sauspiel-declarer`, `cards-sauspiel-defender`, `cards-wenz-declarer`,
//! `cards-wenz-defender`, `cards-solo-declarer`, `cards-solo-defender` (a defender is any seat
//! but the declarer, the called Ace's holder included), and `cards-passed` (the play-out after
//! everyone passed), and `declare-value` (0–8: a value network, the seat's cents / 100 after
//! each declaration it made, passing included). **Features**: the view's 674 features
//! ([`super::features::features`]).
//!
//! [`NetAgent`] takes each decision with its kind's network (highest logit, or drawn from the
//! softmax with `sample=1`); a kind without a network is decided by the `rules` agent. Where
//! the policy has the `declare-value` network it declares, by default, the maximum likely
//! value: among passing and the declarations the `declare` network gives a probability of at
//! least 0.1, the one `declare-value` values highest — never a game its value network rates
//! below passing (`likely_value=0`: the `declare` network's top choice).
//! [`log_likelihood`] scores a world by a model's probabilities of the moves the other seats
//! made in it: the evidence of PIMC with inference (`pimc:inference=MODEL`, [`move_model`]: a
//! policy's softmax, [`PlayModel`], or the `random` agent's uniform choice).

use super::actions::{Action, Phase};
use super::agents::rules_agent::RulesAgent;
use super::agents::RandomAgent;
use super::agents::{Agent, Schafkopf};
use super::contract::Kind;
use super::deal::Deal;
use super::features::{card_play_group, card_play_symmetries, features, FEATURES};
use super::game::Game;
use super::rules::Rules;
use super::view::View;
use crate::arena::log::GameRecord;
use crate::cards::iter;
use crate::error::{Error, Result};
use crate::learn::learnable::{logged_values, Learnable, NetPolicy, OnDecision};
use crate::learn::symmetry::Symmetry;
use crate::learn::PlayModel;
use crate::search::{Evidence, MoveModel};
use rand_pcg::Pcg64;
use std::sync::Arc;

/// The decision kinds, in order, with the first action id and the number of ids of each.
pub const KINDS: [(&str, usize, usize); 10] = [
    ("declare", 0, 9),
    ("double", 9, 2),
    ("cards-sauspiel-declarer", 11, 32),
    ("cards-sauspiel-defender", 11, 32),
    ("cards-wenz-declarer", 11, 32),
    ("cards-wenz-defender", 11, 32),
    ("cards-solo-declarer", 11, 32),
    ("cards-solo-defender", 11, 32),
    ("cards-passed", 11, 32),
    ("declare-value", 0, 9),
];

/// The index of the `declare-value` kind in [`KINDS`], and the scale of its outcomes (the
/// seat's cents are divided by it).
const DECLARE_VALUE_KIND: usize = 9;
const VALUE_SCALE: f32 = 100.0;

/// The card-play kinds of a declared game in [`KINDS`] (the play-out after four passes has no
/// suit to relabel by).
const CARD_KINDS: [usize; 6] = [2, 3, 4, 5, 6, 7];

/// The index in [`KINDS`] of the decision the viewing seat (to act) takes.
pub fn kind_of(view: &View) -> usize {
    match view.phase() {
        Phase::Bidding => 0,
        Phase::Contra | Phase::Retour => 1,
        _ => {
            let defender = usize::from(view.declarer() != Some(view.seat()));
            match view.contract().and_then(|c| c.kind()) {
                Some(Kind::Sauspiel) => 2 + defender,
                Some(Kind::Wenz) => 4 + defender,
                Some(Kind::Solo) => 6 + defender,
                None => 8,
            }
        }
    }
}

/// The legal action ids of the viewing seat, ascending.
fn legal_ids(view: &View) -> Vec<usize> {
    iter(view.legal_mask()).map(usize::from).collect()
}

/// The rule set named in a log's settings (`rules=…`; SchafkopfRL's when none is named).
fn rules_of(settings: &str) -> std::result::Result<Rules, String> {
    let named = settings.split(',').find_map(|kv| kv.trim().strip_prefix("rules="));
    named.map_or(Ok(Rules::SCHAFKOPFRL), |name| Rules::parse(name).map_err(|e| e.to_string()))
}

/// Schafkopf for [`crate::learn`].
pub struct SchafkopfPolicies;

impl Learnable for SchafkopfPolicies {
    const GAME: &'static str = "schafkopf";
    const FEATURES: usize = FEATURES;
    const KINDS: &'static [(&'static str, usize, usize)] = &KINDS;

    const SYMMETRIC_KINDS: &'static [usize] = &CARD_KINDS;

    /// Declaring nothing (action id 0).
    const PASS: Option<usize> = Some(0);

    fn symmetries() -> Vec<Vec<Symmetry>> {
        card_play_symmetries()
    }

    fn symmetry_group(features: &[f32]) -> Option<usize> {
        card_play_group(features)
    }

    fn replay(settings: &str, r: &GameRecord, decision: &mut OnDecision) -> std::result::Result<(), String> {
        let hands: Option<Vec<String>> =
            r.cards["hands"].as_array().and_then(|h| h.iter().map(|x| x.as_str().map(str::to_owned)).collect());
        let (Some(hands), Some(dealer)) = (hands, r.cards["dealer"].as_u64().filter(|&d| d < 4)) else {
            return Err("no hands and dealer in its cards".into());
        };
        let deal = Deal::parse(&hands, dealer as u8).map_err(|e| e.to_string())?;
        let mut game = Game::new(&deal, rules_of(settings)?);
        for d in &r.decisions {
            let view = View::new(&game, d.seat);
            let action = u8::try_from(d.action).ok().and_then(Action::from_id);
            let Some(action) = action.filter(|&a| view.to_act() && game.is_legal(a)) else {
                return Err(format!("action {} is not legal there", d.action));
            };
            let legal = legal_ids(&view);
            let f = features(&view);
            if view.phase() == Phase::Bidding {
                let cents = r.returns.get(d.seat as usize).ok_or("no return for the seat")?;
                let outcome = Some(*cents as f32 / VALUE_SCALE);
                decision(DECLARE_VALUE_KIND, &f, &legal, d.action as usize, outcome, None)
                    .map_err(|e| e.to_string())?;
            }
            let values = logged_values(d, &legal);
            decision(kind_of(&view), &f, &legal, d.action as usize, None, values).map_err(|e| e.to_string())?;
            game.apply_legal(action);
        }
        Ok(())
    }
}

/// The agent of a learned Schafkopf policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct NetAgent {
    net: NetPolicy,
}

impl NetAgent {
    /// The agent from the options after `net:` ([`crate::learn::NET_OPTIONS`]).
    pub fn from_options(args: &str) -> Result<NetAgent> {
        Ok(NetAgent { net: NetPolicy::from_options::<SchafkopfPolicies>(args)? })
    }
}

impl Agent<Schafkopf> for NetAgent {
    fn name(&self) -> String {
        self.net.name()
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let legal = legal_ids(view);
        match self.net.choose(KINDS[kind_of(view)].0, &features(view), &legal, rng) {
            Some(id) => {
                Action::from_id(id as u8).ok_or_else(|| Error::invalid("action id", id, "an action id of Schafkopf"))
            }
            None if legal.is_empty() => {
                Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"))
            }
            None => RulesAgent.act(view, rng),
        }
    }
}

/// A model of how a Schafkopf seat plays, for PIMC with inference.
pub type Model = dyn for<'a> MoveModel<View<'a>, Action>;

impl MoveModel<View<'_>, Action> for PlayModel {
    fn probability(&self, view: &View, a: &Action) -> Result<Option<f64>> {
        let id = a.id() as usize;
        Ok(self.probability_of(KINDS[kind_of(view)].0, &legal_ids(view), id, || features(view)))
    }
}

/// The random agent as a model of its own play: every legal action equally likely.
impl MoveModel<View<'_>, Action> for RandomAgent {
    fn probability(&self, view: &View, _: &Action) -> Result<Option<f64>> {
        Ok(Some(1.0 / (view.legal_mask().count_ones() as usize).max(1) as f64))
    }
}

/// The models PIMC's inference accepts (`pimc:inference=MODEL`, see [`move_model`]).
pub const MODEL_SPECS: &str = "MODEL one of net:DIR (a learned policy's probabilities) or random (every legal action \
                               equally likely)";

/// The model of the other seats' play named by `spec` for PIMC with inference: a learned
/// policy's softmax (`net:DIR`) or the `random` agent. The `rules` agent draws some of its
/// cards at random without giving their probabilities, so it is not a model.
pub fn move_model(spec: &str) -> Result<Arc<Model>> {
    match spec.split_once(':') {
        Some(("net", dir)) if !dir.is_empty() => Ok(Arc::new(PlayModel::from_spec::<SchafkopfPolicies>(spec)?)),
        None if spec == "random" => Ok(Arc::new(RandomAgent)),
        _ => Err(Error::invalid("inference", spec, MODEL_SPECS)),
    }
}

/// The natural logarithm of the probability, under `evidence`, of every decision the seats other
/// than `viewer` took in `world`, replayed from its deal (forced moves and decisions the
/// model says nothing of count 1).
pub fn log_likelihood(evidence: &Evidence<Model>, world: &Game, viewer: u8) -> Result<f64> {
    let dealt = std::array::from_fn(|p| world.dealt(p as u8));
    let mut game = Game::new(&Deal::new(dealt, world.dealer())?, world.rules());
    let mut sum = 0.0;
    for (seat, action) in world.history() {
        if seat != viewer {
            let view = View::new(&game, seat);
            let legal = view.legal_mask().count_ones() as usize;
            sum += evidence.log_prob(legal, |model| model.probability(&view, &action))?;
        }
        game.apply_legal(action);
    }
    Ok(sum)
}

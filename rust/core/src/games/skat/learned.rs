//! Learned Skat policies: networks trained on game logs to imitate the agents that played them,
//! one network per decision kind as in the Skat paper ([`crate::learn`]), and the `net:DIR`
//! agent that plays them.
//!
//! **Decision kinds** ([`KINDS`], [`kind_of`]) and the action ids each network chooses among
//! ([`super::features`]): `bid` (ids 0–64: pass, hold, the bids), `skat` (65–66: Hand or
//! pickup), `discard` (67–562), `declare` (563–591), and card play per game type and role,
//! `cards-grand-declarer`, `cards-grand-defender`, `cards-suit-declarer`, `cards-suit-defender`,
//! `cards-null-declarer`, `cards-null-defender` (592–623), and `max-bid` (ids 0 and 2–64: no
//! bid, or the highest value the seat bid or held in the game, learned from each of its bidding
//! decisions; the paper's maximum-bid network), and `declare-value` (563–591: a value network,
//! the declarer's Seeger-Fabian points / 100 after the contract declared). **Features**: the
//! view's 561 features ([`super::features::features`]).
//!
//! [`NetAgent`] takes each decision with its kind's network: the legal action of the highest
//! logit (`net:DIR`) or one drawn from the softmax over the legal actions (`net:DIR,sample=1`); a
//! kind without a network (none was in the logs) is decided by the `rules` agent. It bids by
//! the paper's A-percentile bidding where the policy has the `max-bid` network: up to the value
//! at which that network's cumulative probability, from no bid up, first reaches A (the spec's
//! `percentile=A`, by default [`crate::learn::DEFAULT_PERCENTILE`]), bidding or holding while the
//! value asked is at most that and passing above it; `bidding=argmax` bids by the `bid`
//! network's top call instead. Either way it never bids or holds above the highest value its
//! ten cards could declare ([`declarable_limit`]). It declares by the paper's
//! maximum-likely-value choice where the policy has the `declare-value` network (unless
//! `likely_value=0`): among the contracts the `declare` network gives a probability of at least
//! 0.1, the one `declare-value` values highest; and never a contract lost as overbid where one
//! can reach the bid.
//! [`log_likelihood`] scores a world by a model's probabilities of the moves the other seats
//! made in it: the evidence of PIMC with inference (`pimc:inference=MODEL`, [`move_model`]: a
//! policy's softmax, [`PlayModel`], the `rules` agent's one action or the `random` agent's
//! uniform choice).

use super::actions::{Action, Phase};
use super::agents::rules_agent::RulesAgent;
use super::agents::RandomAgent;
use super::agents::{Agent, Skat};
use super::bidding::{Call, BID_VALUES};
use super::contract::{Contract, GameType};
use super::features::{action_id, action_of, card_play_group, card_play_symmetries, features, legal_ids, FEATURES};
use super::game::Game;
use super::scoring::matadors;
use super::view::View;
use crate::arena::log::GameRecord;
use crate::cards::CardSet;
use crate::error::{Error, Result};
use crate::learn::learnable::{logged_values, Learnable, NetPolicy, OnDecision, MAX_BID};
use crate::learn::symmetry::Symmetry;
use crate::learn::PlayModel;
use crate::search::{Evidence, MoveModel};
use rand_pcg::Pcg64;
use std::sync::Arc;

/// The decision kinds, in order, with the first action id and the number of ids of each.
pub const KINDS: [(&str, usize, usize); 12] = [
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
    (MAX_BID, 0, 65),
    ("declare-value", 563, 29),
];

/// The card-play kinds' indices in [`KINDS`].
const CARD_KINDS: [usize; 6] = [4, 5, 6, 7, 8, 9];

/// The index of the `declare-value` kind in [`KINDS`], and the scale of its outcomes (the
/// declarer's Seeger-Fabian points are divided by it).
const DECLARE_VALUE_KIND: usize = 11;
const VALUE_SCALE: f32 = 100.0;

/// The index of the `max-bid` kind in [`KINDS`].
const MAX_BID_KIND: usize = 10;

/// The ids the `max-bid` network chooses among, ascending by bid: no bid (0), then the bids
/// 18 … 264 (2–64).
fn bid_levels() -> Vec<usize> {
    std::iter::once(0).chain(2..2 + BID_VALUES.len()).collect()
}

/// The bid value of a `max-bid` id (0 for no bid).
fn level_value(id: usize) -> u16 {
    id.checked_sub(2).map_or(0, |k| BID_VALUES[k])
}

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

    const SYMMETRIC_KINDS: &'static [usize] = &CARD_KINDS;

    fn symmetries() -> Vec<Vec<Symmetry>> {
        card_play_symmetries()
    }

    fn symmetry_group(features: &[f32]) -> Option<usize> {
        card_play_group(features)
    }

    /// Card play by trick (1–10), as the Skat paper reports its accuracy.
    fn stage(kind: usize, features: &[f32]) -> u8 {
        if CARD_KINDS.contains(&kind) {
            1 + (features[super::features::TRICKS_DONE] * 10.0).round() as u8
        } else {
            0
        }
    }

    fn replay(settings: &str, r: &GameRecord, decision: &mut OnDecision) -> std::result::Result<(), String> {
        let rules = super::iss::rules_of_settings(settings).map_err(|e| e.to_string())?;
        let mut game = Game::with_rules(&super::matches::deal_of_record(r)?, rules);
        // Each seat's bidding views, and the highest value it bid or held.
        let mut bidding: Vec<(u8, Vec<f32>)> = Vec::new();
        let mut max_bid = [0u16; 3];
        for d in &r.decisions {
            let view = View::new(&game, d.seat);
            let action = action_of(d.action as usize).filter(|&a| view.to_act() && game.is_legal(a));
            let Some(action) = action else { return Err(format!("action {} is not legal there", d.action)) };
            let f = features(&view);
            match action {
                Action::Call(Call::Bid(v)) => max_bid[d.seat as usize] = v,
                Action::Call(Call::Hold) => max_bid[d.seat as usize] = view.bid(),
                _ => {}
            }
            if view.phase() == Phase::Bidding {
                bidding.push((d.seat, f.clone()));
            }
            let legal = legal_ids(&view);
            if view.phase() == Phase::Declare {
                let points = r.returns.get(d.seat as usize).ok_or("no return for the declarer")?;
                let outcome = Some(*points as f32 / VALUE_SCALE);
                decision(DECLARE_VALUE_KIND, &f, &legal, d.action as usize, outcome, None)
                    .map_err(|e| e.to_string())?;
            }
            let values = logged_values(d, &legal);
            decision(kind_of(&view), &f, &legal, d.action as usize, None, values).map_err(|e| e.to_string())?;
            game.apply_legal(action);
        }
        let levels = bid_levels();
        for (seat, f) in bidding {
            let top = max_bid[seat as usize];
            let id = levels.iter().copied().find(|&id| level_value(id) == top).ok_or("a bid value off the list")?;
            decision(MAX_BID_KIND, &f, &levels, id, None, None).map_err(|e| e.to_string())?;
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

impl Agent<Skat> for NetAgent {
    fn name(&self) -> String {
        self.net.name()
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let mut legal = legal_ids(view);
        match view.phase() {
            Phase::Bidding if view.to_act() => {
                let ceiling = declarable_limit(view.hand());
                if let Some(id) = self.net.max_bid(&features(view), &bid_levels()) {
                    return Ok(call_up_to(view, level_value(id).min(ceiling)));
                }
                // The bid network's call (bidding=argmax), never past the ceiling.
                return Ok(match self.choose(view, &legal, rng)? {
                    Action::Call(Call::Bid(v)) if v > ceiling => call_up_to(view, ceiling),
                    Action::Call(Call::Hold) if view.bid() > ceiling => Action::Call(Call::Pass),
                    call => call,
                });
            }
            Phase::Declare => {
                // Never a contract lost as overbid where one can reach the bid (ISS rules let
                // the declarer announce any; ISkO's already refuse it).
                let reaching = |id: &usize| matches!(action_of(*id), Some(Action::Declare(c)) if view.reaches_bid(c));
                if legal.iter().any(reaching) {
                    legal.retain(reaching);
                }
            }
            _ => {}
        }
        self.choose(view, &legal, rng)
    }
}

impl NetAgent {
    /// The policy's action among the `legal` ids; the rules agent's where it has no network
    /// of the decision's kind.
    fn choose(&self, view: &View, legal: &[usize], rng: &mut Pcg64) -> Result<Action> {
        match self.net.choose(KINDS[kind_of(view)].0, &features(view), legal, rng) {
            Some(id) => action_of(id).ok_or_else(|| Error::invalid("action id", id, "an action id of Skat")),
            None if legal.is_empty() => {
                Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"))
            }
            None => RulesAgent::default().act(view, rng),
        }
    }
}

/// The highest value the ten cards `hand` could declare: a suit or grand Hand game with the
/// matadors the ten cards hold, Schneider and Schwarz reached (announcements and ouvert left
/// out), or null Hand (35). A learned agent never bids or holds above it.
pub fn declarable_limit(hand: CardSet) -> u16 {
    // Null's value is fixed: its matadors (none) do not count.
    let value = |game: GameType| {
        Contract { hand: true, ..Contract::plain(game) }.max_value(matadors(game, hand).map_or(0, |m| m.0))
    };
    GameType::ALL.into_iter().map(value).max().unwrap_or(0) as u16
}

/// The call of a seat that goes up to `limit` (0: no bid): hold or bid the lowest value asked
/// while it is at most `limit`, pass above.
fn call_up_to(view: &View, limit: u16) -> Action {
    let legal = view.legal_actions();
    let hold = legal.contains(&Action::Call(Call::Hold)) && view.bid() <= limit;
    let lowest_bid = legal
        .iter()
        .filter_map(|a| match a {
            Action::Call(Call::Bid(v)) => Some(*v),
            _ => None,
        })
        .min();
    match (hold, lowest_bid) {
        (true, _) => Action::Call(Call::Hold),
        (false, Some(v)) if v <= limit => Action::Call(Call::Bid(v)),
        _ => Action::Call(Call::Pass),
    }
}

/// A model of how a Skat seat plays, for PIMC with inference.
pub type Model = dyn for<'a> MoveModel<View<'a>, Action>;

impl MoveModel<View<'_>, Action> for PlayModel {
    fn probability(&self, view: &View, a: &Action) -> Result<Option<f64>> {
        let id = action_id(*a).ok_or_else(|| Error::invalid("action", format!("{a:?}"), "a Skat action"))?;
        Ok(self.probability_of(KINDS[kind_of(view)].0, &legal_ids(view), id, || features(view)))
    }
}

/// The random agent as a model of its own play: every legal action equally likely.
impl MoveModel<View<'_>, Action> for RandomAgent {
    fn probability(&self, view: &View, _: &Action) -> Result<Option<f64>> {
        Ok(Some(1.0 / (view.legal_actions().len()).max(1) as f64))
    }
}

/// The rules agent as a model of its own play: it decides without chance, so its action has
/// probability 1 and every other 0.
impl MoveModel<View<'_>, Action> for RulesAgent {
    fn probability(&self, view: &View, a: &Action) -> Result<Option<f64>> {
        let own = self.act(view, &mut Pcg64::new(0, 0))?;
        Ok(Some(f64::from(u8::from(own == *a))))
    }
}

/// The models PIMC's inference accepts (`pimc:inference=MODEL`, see [`move_model`]).
pub const MODEL_SPECS: &str = "MODEL one of net:DIR (a learned policy's probabilities), rules (its one action) or \
                               random (every legal action equally likely)";

/// The model of the other seats' play named by `spec` for PIMC with inference: a learned
/// policy's softmax (`net:DIR`), the `rules` agent (deterministic) or the `random` agent.
pub fn move_model(spec: &str) -> Result<Arc<Model>> {
    match spec.split_once(':') {
        Some(("net", dir)) if !dir.is_empty() => Ok(Arc::new(PlayModel::from_spec::<SkatPolicies>(spec)?)),
        None if spec == "rules" => Ok(Arc::new(RulesAgent::default())),
        None if spec == "random" => Ok(Arc::new(RandomAgent)),
        _ => Err(Error::invalid("inference", spec, MODEL_SPECS)),
    }
}

/// The natural logarithm of the probability, under `evidence`, of every decision the seats other
/// than `viewer` took in `world`, replayed from its deal (forced moves and decisions the
/// model says nothing of count 1). In a defender's world after a pickup the deal's skat is the declarer's
/// discard (see [`super::pimc::worlds`]): his bids are then scored on the ten cards he kept,
/// since the ten he was dealt are unknown.
pub fn log_likelihood(evidence: &Evidence<Model>, world: &Game, viewer: u8) -> Result<f64> {
    let mut game = Game::new(&world.deal());
    let mut sum = 0.0;
    for (seat, action) in world.history() {
        if seat != viewer {
            let view = View::new(&game, seat);
            sum += evidence.log_prob(view.legal_actions().len(), |model| model.probability(&view, &action))?;
        }
        game.apply_legal(action);
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::super::cards::NOTATION;
    use super::*;

    /// The ceiling is the best Hand game reaching Schwarz with the ten cards' matadors: a
    /// grand "with 1" (24 × 5), "without 4" (24 × 8), "with 4" (24 × 8); never below null Hand.
    #[test]
    fn declarable_limits() {
        let limit = |text: &str| declarable_limit(NOTATION.parse_set(text).unwrap());
        assert_eq!(limit("CJ DQ D9 HK H8 SQ S9 CK C8 DT"), 120);
        assert_eq!(limit("DQ D9 HK H8 SQ S9 CK C8 DT HT"), 192);
        assert_eq!(limit("CJ SJ HJ DJ CA CT CK C9 SA HA"), 192);
        // "With 2" in clubs and grand: grand 24 × 6 is the best.
        assert_eq!(limit("CJ SJ DQ D9 HK H8 SQ S9 CK C8"), 144);
    }
}

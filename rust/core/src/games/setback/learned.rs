//! Learned Setback policies: networks trained on game logs to imitate the agents that played
//! them, one network per decision kind ([`crate::learn`]), and the `net:DIR` agent that plays
//! them.
//!
//! **Decision kinds** ([`KINDS`], [`kind_of`]): `bid` (network outputs 0–3: Pass, Two, Three,
//! Four), `pitch` (the high bidder's trump-setting lead, outputs 4–55: the cards in their own
//! suits), and card play by role once trump is set, `cards-bidder`, `cards-partner` (the
//! bidder's partner), `cards-defender` (outputs 4–55: the cards in trump-relative suit order,
//! as the features name them, [`super::features`]), and `bid-value` (0–3: a value network, the
//! deal's points of the bidder's team less the other team's, / 4, after each bid or pass).
//! **Features**: the view's 532 features ([`super::features::features`]).
//!
//! [`NetAgent`] takes each decision with its kind's network: the legal move of the highest
//! logit (`net:DIR`) or one drawn from the softmax over the legal moves (`net:DIR,sample=1`); a
//! kind without a network (none was in the logs) is decided by the `rules` agent. Where the
//! policy has the `bid-value` network it bids, by default, the maximum likely value: among
//! passing and the bids the `bid` network gives a probability of at least 0.1, the one
//! `bid-value` values highest — never a bid its value network rates below passing
//! (`likely_value=0`: the `bid` network's top choice).
//!
//! [`log_likelihood`] scores a world by a model's probabilities of the moves the other players
//! made in it: the evidence of PIMC with inference (`pimc:inference=MODEL`, the models listed
//! by [`super::registry::MODEL_SPECS`]); a policy is such a model through its softmax
//! ([`PlayModel`]).

use super::cards::{self, CardSet};
use super::features::{decoded_card, encoded_card, features, FEATURES};
use super::play::actions::{action_id, move_of, FIRST_CARD};
use super::play::agent::{Agent, Move, Setback};
use super::play::game::Game;
use super::play::log::{SELFPLAY_SETTINGS, SETTINGS};
use super::play::rules_agent::RulesAgent;
use super::play::view::View;
use super::rules::{Deal, Phase};
use crate::arena::log::GameRecord;
use crate::error::{Error, Result};
use crate::learn::learnable::{Learnable, NetPolicy, OnDecision};
use crate::learn::PlayModel;
use crate::search::{Evidence, MoveModel};
use rand_pcg::Pcg64;

/// The decision kinds, in order, with the first network output's action id and the number of
/// outputs of each.
pub const KINDS: [(&str, usize, usize); 6] = [
    ("bid", 0, 4),
    ("pitch", FIRST_CARD, 52),
    ("cards-bidder", FIRST_CARD, 52),
    ("cards-partner", FIRST_CARD, 52),
    ("cards-defender", FIRST_CARD, 52),
    ("bid-value", 0, 4),
];

/// The index of the `bid-value` kind in [`KINDS`], and the scale of its outcomes (the deal's
/// points of the bidding seat's team less the other team's are divided by it).
const BID_VALUE_KIND: usize = 5;
const VALUE_SCALE: f32 = 4.0;

/// The index in [`KINDS`] of the decision the viewing player (to act) takes.
pub fn kind_of(view: &View) -> usize {
    match view.phase() {
        Phase::Auction => 0,
        Phase::Establish => 1,
        _ => match view.high_bid().1 {
            Some(b) if b == view.player() => 2,
            Some(b) if b % 2 == view.player() % 2 => 3,
            _ => 4,
        },
    }
}

/// The network's id of a move of the viewer: the log's action id, a card in the features'
/// suit order ([`encoded_card`]).
pub fn net_id(view: &View, m: Move) -> usize {
    match m {
        Move::Card(c) => action_id(Move::Card(encoded_card(view, c))) as usize,
        bid => action_id(bid) as usize,
    }
}

/// The move of a network's id for the viewer (the inverse of [`net_id`]).
fn move_of_net_id(view: &View, id: usize) -> Option<Move> {
    match move_of(id)? {
        Move::Card(c) => Some(Move::Card(decoded_card(view, c))),
        bid => Some(bid),
    }
}

/// The network ids of the viewer's legal moves.
pub fn legal_net_ids(view: &View) -> Vec<usize> {
    if view.phase() == Phase::Auction {
        view.legal_bids().into_iter().map(|b| net_id(view, Move::Bid(b))).collect()
    } else {
        cards::iter(view.legal_cards()).map(|c| net_id(view, Move::Card(c))).collect()
    }
}

/// A model of how a Setback player bids and plays, for PIMC with inference.
pub type Model = dyn MoveModel<View, Move>;

impl MoveModel<View, Move> for PlayModel {
    fn probability(&self, view: &View, m: &Move) -> Result<Option<f64>> {
        Ok(self.probability_of(KINDS[kind_of(view)].0, &legal_net_ids(view), net_id(view, *m), || features(view)))
    }
}

/// The natural logarithm of the probability, under `evidence`, of every move the players
/// other than the viewer of `view` made in its deal had the cards been dealt as in `world` (a
/// world of the view, e.g. drawn by PIMC): the deal is replayed from `world`'s dealt hands, its
/// bids and its cards in play order, and each of their views is shown to the model. Refused
/// for a view without the card order ([`View::card_order`]: views of a game carry it) or a
/// world its moves do not fit.
pub fn log_likelihood(evidence: &Evidence<Model>, world: &Deal, view: &View) -> Result<f64> {
    let order = view.card_order().ok_or_else(|| {
        Error::invalid("view", "a view without the order of the cards played", "a view of a game, which carries it")
    })?;
    let mut deal = Deal::from_hands(world.dealt())?;
    let moves = view.bids().into_iter().map(Move::Bid).chain(order.iter().map(|&c| Move::Card(c)));
    let mut sum = 0.0;
    for m in moves {
        let actor =
            deal.to_act().ok_or_else(|| Error::invalid("world", "a deal over before its moves", "the view's deal"))?;
        if actor != view.player() {
            let v = View::new(&deal, actor, view.score());
            sum += evidence.log_prob(v.legal_count(), |model| model.probability(&v, &m))?;
        }
        match m {
            Move::Bid(b) => deal.bid(b)?,
            Move::Card(c) => deal.play_card(c)?,
        }
    }
    Ok(sum)
}

/// Setback for [`crate::learn`].
pub struct SetbackPolicies;

impl Learnable for SetbackPolicies {
    const GAME: &'static str = "setback";
    const FEATURES: usize = FEATURES;
    const KINDS: &'static [(&'static str, usize, usize)] = &KINDS;

    /// Passing in the auction (action id 0).
    const PASS: Option<usize> = Some(0);

    /// Replays a game to 11 on its logged deals ([`Game::from_deals`]), each deal until its
    /// score is decided (the log's `play_out=0`); the dealers must rotate as in a game.
    fn replay(settings: &str, r: &GameRecord, decision: &mut OnDecision) -> std::result::Result<(), String> {
        if settings != SETTINGS && settings != SELFPLAY_SETTINGS {
            return Err(format!("settings {settings:?}; Setback logs have {SETTINGS:?} or {SELFPLAY_SETTINGS:?}"));
        }
        let deals = r.cards["deals"].as_array().ok_or("no deals in its cards")?;
        let mut hands = Vec::with_capacity(deals.len());
        let mut first_dealer = 0;
        for (k, d) in deals.iter().enumerate() {
            let (dealer, h) = dealt(d).map_err(|why| format!("deal {k}: {why}"))?;
            let expected = (first_dealer as usize + k) % 4;
            if k == 0 {
                first_dealer = dealer;
            } else if dealer as usize != expected {
                return Err(format!("deal {k}: dealer {dealer}, where the deal passes to seat {expected}"));
            }
            hands.push(h);
        }
        let mut game = Game::from_deals(first_dealer, &hands).map_err(|e| e.to_string())?;
        // Each bid's deal, seat, features, legal ids and id, for the bid-value network once
        // the deal's score is known.
        let mut bids = Vec::new();
        for x in &r.decisions {
            while game.winner().is_none() && game.deal_over() {
                game.next_deal().map_err(|e| e.to_string())?;
            }
            let Some(seat) = game.to_act() else { return Err("decisions after the last deal".into()) };
            if x.seat != seat {
                return Err(format!("a decision of seat {} where seat {seat} is to act", x.seat));
            }
            let view = game.view(seat);
            let m = move_of(x.action as usize).ok_or_else(|| format!("action {} is not a move", x.action))?;
            // The network's outputs are not the logged action ids: the logged values are not used.
            let (f, legal, id) = (features(&view), legal_net_ids(&view), net_id(&view, m));
            decision(kind_of(&view), &f, &legal, id, None, None).map_err(|e| e.to_string())?;
            if view.phase() == Phase::Auction {
                bids.push((game.records().len(), seat, f, legal, id));
            }
            game.play_move(m).map_err(|e| format!("action {} is not legal there ({e})", x.action))?;
        }
        // The decisions end the game on its last logged deal.
        while game.winner().is_none() {
            if !game.deal_over() {
                return Err(format!("deal {} ends before its score is decided", game.records().len()));
            }
            game.next_deal().map_err(|e| e.to_string())?;
        }
        if game.records().len() != hands.len() {
            return Err(format!("{} deals logged; the game was won after {}", hands.len(), game.records().len()));
        }
        for (k, seat, f, legal, id) in bids {
            let score = game.records()[k].score;
            let team = usize::from(seat % 2);
            let outcome = (score[team] - score[1 - team]) as f32 / VALUE_SCALE;
            decision(BID_VALUE_KIND, &f, &legal, id, Some(outcome), None).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// The dealer's seat and the hand of each seat of a logged deal.
fn dealt(d: &serde_json::Value) -> std::result::Result<(u8, [CardSet; 4]), String> {
    let dealer = d["dealer"].as_u64().filter(|&x| x < 4).ok_or("no dealer seat 0 to 3")? as u8;
    let hands = d["hands"].as_array().filter(|h| h.len() == 4).ok_or("no four hands")?;
    let mut out = [0; 4];
    for (slot, h) in out.iter_mut().zip(hands) {
        *slot = cards::parse_cards(h.as_str().ok_or("a hand that is not text")?).map_err(|e| e.to_string())?;
    }
    Ok((dealer, out))
}

/// The agent of a learned Setback policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct NetAgent {
    net: NetPolicy,
}

impl NetAgent {
    /// The agent from the options after `net:` ([`crate::learn::NET_OPTIONS`]).
    pub fn from_options(args: &str) -> Result<NetAgent> {
        Ok(NetAgent { net: NetPolicy::from_options::<SetbackPolicies>(args)? })
    }

    /// The policy's move for the viewer, who is to act; the rules agent's where the policy has
    /// no network of the decision's kind.
    fn choose(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        let legal = legal_net_ids(view);
        match self.net.choose(KINDS[kind_of(view)].0, &features(view), &legal, rng) {
            Some(id) => move_of_net_id(view, id).ok_or_else(|| Error::invalid("action id", id, "a Setback action id")),
            None if legal.is_empty() => Err(Error::invalid("view", self.name(), "a view of the player to act")),
            None if view.phase() == Phase::Auction => Ok(Move::Bid(RulesAgent.bid(view, rng)?)),
            None => Ok(Move::Card(RulesAgent.play(view, rng)?)),
        }
    }
}

impl Agent<Setback> for NetAgent {
    fn name(&self) -> String {
        self.net.name()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        self.choose(view, rng)
    }
}

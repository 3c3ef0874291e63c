//! Setback as its agents see it ([`TrickGame`]): a player's [`View`], its moves (a bid or a
//! card), Setback's random draw (an agent's checked move is every game's,
//! [`crate::trick::act_checked`]). The agent trait is
//! every game's ([`crate::trick::Agent`]); agents are built from spec strings by
//! [`super::super::registry::agent`].

use super::super::cards::{self, Card};
use super::super::rules::Phase;
use super::view::View;
use crate::error::{Error, Result};
use crate::trick::TrickGame;
use rand::Rng;
use rand_pcg::Pcg64;

pub use crate::trick::Agent;

/// Setback, the game its agents play ([`crate::trick::Agent<Setback>`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Setback;

/// A move: a bid or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A bid (0 = Pass).
    Bid(u8),
    /// A card.
    Card(Card),
}

impl Move {
    /// The move as a user writes it: a bid `0` (pass) to `4`, a card `AS`.
    pub fn name(self) -> String {
        match self {
            Move::Bid(b) => b.to_string(),
            Move::Card(c) if (c as usize) < cards::DECK_SIZE => cards::card_name(c),
            Move::Card(c) => c.to_string(),
        }
    }
}

impl TrickGame for Setback {
    const NAME: &'static str = "setback";
    type View<'a> = View;
    type Action = Move;

    fn to_act(view: &View) -> bool {
        view.to_act()
    }
    fn random_action(view: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(
            view,
            rng,
            |rng| {
                let legal = view.legal_bids();
                if legal.is_empty() {
                    return Err(Error::invalid(
                        "bid request",
                        "no legal bid",
                        "a view of a player to act in the auction",
                    ));
                }
                Ok(legal[rng.gen_range(0..legal.len())])
            },
            |rng| {
                let legal = view.legal_cards();
                if legal == 0 {
                    return Err(Error::invalid(
                        "card request",
                        "no legal card",
                        "a view of a player to act in the playout",
                    ));
                }
                let k = rng.gen_range(0..legal.count_ones() as usize);
                Ok(cards::iter(legal).nth(k).expect("k < number of legal cards"))
            },
        )
    }
    fn why_illegal(view: &View, m: Move) -> Option<String> {
        match (view.phase() == Phase::Auction, m) {
            (true, Move::Bid(b)) if view.legal_bids().contains(&b) => None,
            (true, Move::Bid(_)) => Some(format!("one of {:?}", view.legal_bids())),
            (false, Move::Card(c)) if (c as usize) < cards::DECK_SIZE && view.legal_cards() & cards::bit(c) != 0 => {
                None
            }
            (false, Move::Card(_)) => Some(format!("one of {}", cards::set_names(view.legal_cards()))),
            (true, Move::Card(_)) => Some("a bid in the auction".into()),
            (false, Move::Bid(_)) => Some("a card after the auction".into()),
        }
    }
    fn action_name(_: &View, m: Move) -> String {
        m.name()
    }
    fn tricks_done(view: &View) -> Option<u8> {
        (view.phase() != Phase::Auction).then(|| view.tricks_done())
    }
}

/// The move for the view's phase: `bid()` in the auction, `play()` (a card, the trump-setting
/// lead included) after it.
pub fn by_phase(
    view: &View,
    rng: &mut Pcg64,
    bid: impl FnOnce(&mut Pcg64) -> Result<u8>,
    play: impl FnOnce(&mut Pcg64) -> Result<Card>,
) -> Result<Move> {
    Ok(if view.phase() == Phase::Auction { Move::Bid(bid(rng)?) } else { Move::Card(play(rng)?) })
}

//! The [`Agent`] trait — anything that bids and plays from a player's [`View`] — and the
//! checked move of an agent ([`act`]). Agents are built from spec strings by
//! [`super::super::registry::agent`].

use super::super::cards::{self, Card};
use super::super::rules::Phase;
use super::view::View;
use crate::arena::log::Valued;
use crate::error::{Error, Result};
use rand_pcg::Pcg64;

/// A Setback player. Agents are shared by the games of a match running on many threads, so they
/// hold no per-game state: every decision is a function of the view and the random stream.
pub trait Agent: Send + Sync {
    /// A short name for reports, e.g. `rules` or `table:runs/base`.
    fn name(&self) -> String;
    /// The bid (0 = Pass, 2, 3 or 4) of the viewing player, who is to act in the auction.
    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8>;
    /// The card the viewing player, who is to act after the auction, plays.
    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card>;
    /// The move of the viewing player (to act) and, where the agent has them, its values of
    /// the legal moves (for a game log; PIMC gives its means over the worlds). The move is the
    /// one [`Agent::bid`] or [`Agent::play`] makes; by default without values.
    fn move_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
        Ok((unchecked_move(self, view, rng)?, None))
    }
}

/// The agent's bid in the auction, its card afterwards, unchecked.
fn unchecked_move<A: Agent + ?Sized>(agent: &A, view: &View, rng: &mut Pcg64) -> Result<Move> {
    Ok(if view.phase() == Phase::Auction {
        Move::Bid(agent.bid(view, rng)?)
    } else {
        Move::Card(agent.play(view, rng)?)
    })
}

/// A move: a bid or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A bid (0 = Pass).
    Bid(u8),
    /// A card.
    Card(Card),
}

/// The move of `agent` for the viewing player, who must be to act: its bid in the auction, its
/// card afterwards (the trump-setting lead included), checked against the legal moves.
pub fn act(agent: &dyn Agent, view: &View, rng: &mut Pcg64) -> Result<Move> {
    check_to_act(agent, view)?;
    check_move(agent, view, unchecked_move(agent, view, rng)?)
}

/// [`act`] with the agent's values of the legal moves where it gives them
/// ([`Agent::move_valued`]).
pub fn act_valued(agent: &dyn Agent, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
    check_to_act(agent, view)?;
    let (m, values) = agent.move_valued(view, rng)?;
    Ok((check_move(agent, view, m)?, values))
}

fn check_to_act(agent: &dyn Agent, view: &View) -> Result<()> {
    if view.to_act() {
        Ok(())
    } else {
        Err(Error::invalid("view", agent.name(), "a view of the player to act"))
    }
}

/// Checks a move against the legal moves of the phase.
fn check_move(agent: &dyn Agent, view: &View, m: Move) -> Result<Move> {
    match (view.phase() == Phase::Auction, m) {
        (true, Move::Bid(b)) => Ok(Move::Bid(check_bid(agent, view, b)?)),
        (false, Move::Card(c)) => Ok(Move::Card(check_card(agent, view, c)?)),
        (true, _) => {
            Err(Error::invalid(format!("move of agent {}", agent.name()), format!("{m:?}"), "a bid in the auction"))
        }
        (false, _) => {
            Err(Error::invalid(format!("move of agent {}", agent.name()), format!("{m:?}"), "a card after the auction"))
        }
    }
}

/// Checks an agent's bid against the legal bids.
pub fn check_bid(agent: &dyn Agent, view: &View, b: u8) -> Result<u8> {
    let legal = view.legal_bids();
    if legal.contains(&b) {
        Ok(b)
    } else {
        Err(Error::invalid(format!("bid of agent {}", agent.name()), b, format!("one of {legal:?}")))
    }
}

/// Checks an agent's card against the legal cards.
pub fn check_card(agent: &dyn Agent, view: &View, c: Card) -> Result<Card> {
    let legal = view.legal_cards();
    if c < 52 && legal & cards::bit(c) != 0 {
        Ok(c)
    } else {
        let name = if c < 52 { cards::card_name(c) } else { c.to_string() };
        Err(Error::invalid(
            format!("card of agent {}", agent.name()),
            name,
            format!("one of {}", cards::set_names(legal)),
        ))
    }
}

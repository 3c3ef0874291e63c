//! The random agent: a uniformly random legal bid or card.

use super::super::cards::{self, Card};
use super::agent::{Agent, Move};
use super::view::View;
use crate::error::{Error, Result};
use crate::search::MoveModel;
use rand::Rng;
use rand_pcg::Pcg64;

/// Bids and plays uniformly at random among the legal moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8> {
        let legal = view.legal_bids();
        if legal.is_empty() {
            return Err(Error::invalid("bid request", "no legal bid", "a view of a player to act in the auction"));
        }
        Ok(legal[rng.gen_range(0..legal.len())])
    }

    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        let legal = view.legal_cards();
        if legal == 0 {
            return Err(Error::invalid("card request", "no legal card", "a view of a player to act in the playout"));
        }
        let k = rng.gen_range(0..legal.count_ones() as usize);
        Ok(cards::iter(legal).nth(k).expect("k < number of legal cards"))
    }
}

/// The random agent as a model of its own play, for PIMC with inference: every legal move
/// equally likely.
impl MoveModel<View, Move> for RandomAgent {
    fn probability(&self, view: &View, _: &Move) -> Result<Option<f64>> {
        Ok(Some(1.0 / view.legal_count().max(1) as f64))
    }
}

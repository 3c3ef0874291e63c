//! The random agent ([`crate::trick::RandomAgent`], a uniformly random legal bid or card) as a
//! model of its own play.

use super::agent::Move;
use super::view::View;
use crate::error::Result;
use crate::search::MoveModel;
pub use crate::trick::RandomAgent;

/// The random agent as a model of its own play, for PIMC with inference: every legal move
/// equally likely.
impl MoveModel<View, Move> for RandomAgent {
    fn probability(&self, view: &View, _: &Move) -> Result<Option<f64>> {
        Ok(Some(1.0 / view.legal_count().max(1) as f64))
    }
}

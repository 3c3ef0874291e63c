//! Built-in games and the registry that turns a spec string into a compiled tree, and a
//! compiled tree into the traversal engine its game brings.

pub mod blackjack;
pub mod kuhn;
pub mod leduc;
pub mod recorded;
pub mod schafkopf;
pub mod setback;
pub mod skat;

use crate::cfr::{Algorithm, Engine, Solver};
use crate::error::{Error, Result};
use crate::keying::Keying;
use crate::spec::Spec;
use crate::tree::{compile, PublicTree};
use std::sync::Arc;

/// Names of the games `load_game` knows.
pub const GAME_NAMES: &[&str] = &["kuhn", "leduc", "blackjack"];

/// Parses `spec` and compiles the game it names.
pub fn load_game(spec: &str) -> Result<PublicTree> {
    let s = Spec::parse(spec)?;
    match s.name.as_str() {
        "kuhn" | "kuhn_poker" => {
            s.only(&["players"])?;
            let players = s.int("players", 2, 2, kuhn::MAX_PLAYERS as i64)?;
            compile(&kuhn::Kuhn::new(players as usize)?)
        }
        "leduc" | "leduc_poker" => {
            s.only(&[])?;
            compile(&leduc::Leduc)
        }
        "blackjack" => blackjack::load(&s),
        other => Err(Error::UnknownGame { name: other.to_string(), known: GAME_NAMES.join(", ") }),
    }
}

/// The traversal engine the game of `tree` brings for full-width solvers, if it has one that
/// fits this tree (Blackjack++'s range walk); `None` means the lane engine every tree has.
pub fn engine_for(tree: &PublicTree) -> Option<Box<dyn Engine>> {
    let name = Spec::parse(&tree.spec).ok()?.name;
    match name.as_str() {
        "blackjack" => blackjack::ranges::RangeWalk::for_tree(tree).map(|w| Box::new(w) as Box<dyn Engine>),
        _ => None,
    }
}

/// A full-width solver for `tree` on the best engine its game has (see [`Solver::with_engine`]).
pub fn solver(
    tree: Arc<PublicTree>,
    keying: Option<Arc<Keying>>,
    algorithm: Algorithm,
    alternating: bool,
    threads: usize,
) -> Result<Solver> {
    let engine = engine_for(&tree);
    Solver::with_engine(tree, keying, engine, algorithm, alternating, threads)
}

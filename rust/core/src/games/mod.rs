//! Built-in games and the registry that turns a spec string into a compiled tree.

pub mod blackjack;
pub mod kuhn;
pub mod leduc;
pub mod recorded;
pub mod setback;

use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tree::{compile, PublicTree};

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

//! What a Schafkopf match needs of the game ([`MatchGame`]; spec §10); the matches themselves
//! are every game's ([`crate::trick::matches`]).
//!
//! Deal `i` of a match is [`Deal::for_game`]`(seed, i)`: the same deals and dealers in every
//! seating, whatever the agents do. Protocols: `schafkopfrl` (seats `[a, a, b, b]` then
//! `[b, b, a, a]` on each deal) and `rotation` (each deal in the six seatings that give each
//! agent two seats). A seat's result is its payment in cents; each seat-game falls in one
//! category: the declarer of a Sauspiel, a Wenz or a Solo, the declarer's partner, a defender,
//! or all passed.

use super::actions::{action_names, Action};
use super::agents::Schafkopf;
use super::cards::names;
use super::contract::{Contract, Kind};
use super::deal::Deal;
use super::game::Game;
use super::rules::Rules;
use super::view::View;
use crate::arena::Protocol;
use crate::cards::iter;
use crate::error::Result;
use crate::trick::MatchGame;
use serde_json::json;

/// The categories of a Schafkopf match's tally, in order.
pub const CATEGORIES: [&str; 6] = ["sauspiel", "wenz", "solo", "partner", "defender", "pass"];

impl MatchGame for Schafkopf {
    const SEATS: usize = 4;
    const CHOICES: u64 = 0x63_686f_6963_6573; // "choices"
    const CATEGORIES: &'static [&'static str] = &CATEGORIES;
    const UNIT: &'static str = "cents per game";
    const PROTOCOLS: &'static [(&'static str, Protocol)] =
        &[("schafkopfrl", Protocol::Halves), ("rotation", Protocol::Rotation)];
    type State = Game;
    type Rules = Rules;

    fn parse_rules(name: &str) -> Result<Rules> {
        Rules::parse(name)
    }
    fn rules_name(rules: Rules) -> &'static str {
        rules.name()
    }
    fn deal(rules: Rules, seed: u64, index: u64) -> Game {
        Game::new(&Deal::for_game(seed, index), rules)
    }
    fn player(game: &Game) -> Option<u8> {
        game.player()
    }
    fn view(game: &Game, seat: u8) -> View<'_> {
        View::new(game, seat)
    }
    fn apply(game: &mut Game, action: Action) {
        game.apply_legal(action)
    }
    fn action_id(action: Action) -> u32 {
        action.id() as u32
    }
    fn legal_ids(view: &View<'_>) -> Vec<u32> {
        iter(view.legal_mask()).map(u32::from).collect()
    }
    fn action_names() -> Vec<String> {
        action_names()
    }
    fn returns(game: &Game) -> Vec<i64> {
        game.returns().iter().map(|&x| x as i64).collect()
    }
    fn category(game: &Game, seat: u8) -> usize {
        let (Some(s), Some(d)) = (game.settlement(), game.declarer()) else { return 5 };
        match s.contract.and_then(Contract::kind) {
            None => 5,
            Some(kind) if d == seat => match kind {
                Kind::Sauspiel => 0,
                Kind::Wenz => 1,
                Kind::Solo => 2,
            },
            Some(_) if s.team >> seat & 1 == 1 => 3,
            Some(_) => 4,
        }
    }
    fn log_settings(rules: Rules, protocol: &str) -> String {
        format!("rules={},protocol={protocol}", rules.name())
    }
    /// The dealt hands and the dealer.
    fn log_cards(game: &Game) -> serde_json::Value {
        json!({
            "hands": (0..4u8).map(|p| names(game.dealt(p)).join(" ")).collect::<Vec<_>>(),
            "dealer": game.dealer(),
        })
    }
    /// The contract, declarer, contra and retour, and each seat's card points.
    fn log_result(game: &Game) -> serde_json::Value {
        json!({
            "contract": game.contract().map(|c| c.name()),
            "declarer": game.declarer(),
            "contra": game.contra().contains(&Some(true)),
            "retour": game.retour().contains(&Some(true)),
            "scores": game.scores(),
        })
    }
}

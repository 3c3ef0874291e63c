//! What a Skat match needs of the game ([`MatchGame`]); the matches themselves are every game's
//! ([`crate::trick::matches`]).
//!
//! A match between programs A and B plays every deal in the six seatings of three seats that
//! the arena's [`Protocol::Rotation`] gives — AAB ABA ABB BAA BAB BBA — so each program sits in
//! every seat, alone and in pairs, equally often. Deal `i` of a match is
//! [`Deal::for_game`]`(seed, i)`, from a stream the agents never draw from.
//!
//! A program's result is its **TP/G**: its Seeger-Fabian points summed over the seats it
//! occupied, divided by the number of those seat-games; its interval and that of the difference
//! A − B are taken over deals (each deal's means over its six games are one observation). Each
//! seat-game also falls in one category of the game-type breakdown ([`CATEGORIES`]): the
//! program declared a grand, a suit game, a null or a null ouvert; it defended; or the deal was
//! thrown in.

use super::agents::Skat;
use super::cards::names_joined;
use super::contract::{Contract, GameType};
use super::deal::Deal;
use super::features::{action_id, action_of, legal_ids, NUM_ACTIONS};
use super::game::{Game, Rules};
use super::view::View;
use crate::arena::log::GameRecord;
use crate::arena::Protocol;
use crate::error::Result;
use crate::trick::MatchGame;
use serde_json::json;

/// The seats at a Skat table.
pub const SEATS: usize = 3;

/// The categories of the game-type breakdown, in order: declarer of a grand, of a suit game, of
/// a null, of a null ouvert; defender; thrown in.
pub const CATEGORIES: [&str; 6] = ["grand", "suit", "null", "null_ouvert", "defender", "pass"];

impl MatchGame for Skat {
    const SEATS: usize = SEATS;
    const CHOICES: u64 = 0x736b_6174_6368_6f69; // "skatchoi"
    const CATEGORIES: &'static [&'static str] = &CATEGORIES;
    const UNIT: &'static str = "TP per game";
    const PROTOCOLS: &'static [(&'static str, Protocol)] = &[("rotation", Protocol::Rotation)];
    type State = Game;
    type Rules = Rules;

    fn parse_rules(name: &str) -> Result<Rules> {
        Rules::parse(name)
    }
    fn rules_name(rules: Rules) -> &'static str {
        rules.name()
    }
    fn deal(rules: Rules, seed: u64, index: u64) -> Game {
        Game::with_rules(&Deal::for_game(seed, index), rules)
    }
    fn player(game: &Game) -> Option<u8> {
        game.player()
    }
    fn view(game: &Game, seat: u8) -> View<'_> {
        View::new(game, seat)
    }
    fn apply(game: &mut Game, action: super::actions::Action) {
        game.apply_legal(action)
    }
    fn action_id(action: super::actions::Action) -> u32 {
        action_id(action).unwrap_or(NUM_ACTIONS) as u32
    }
    fn legal_ids(view: &View<'_>) -> Vec<u32> {
        legal_ids(view).into_iter().map(|x| x as u32).collect()
    }
    fn action_names() -> Vec<String> {
        (0..NUM_ACTIONS).map(|id| action_of(id).map_or_else(String::new, |a| a.name())).collect()
    }
    fn returns(game: &Game) -> Vec<i64> {
        game.returns().iter().map(|&x| x as i64).collect()
    }
    fn category(game: &Game, seat: u8) -> usize {
        match (game.declarer(), game.contract()) {
            (Some(d), Some(c)) if d == seat => match c.game {
                GameType::Grand => 0,
                GameType::Suit(_) => 1,
                GameType::Null if c.ouvert => 3,
                GameType::Null => 2,
            },
            (Some(_), Some(_)) => 4,
            _ => 5,
        }
    }
    /// `protocol=P`, and the rules where they are not the default (logs of ISkO matches read
    /// as they always did).
    fn log_settings(rules: Rules, protocol: &str) -> String {
        match rules {
            Rules::Isko => format!("protocol={protocol}"),
            _ => format!("protocol={protocol},rules={}", rules.name()),
        }
    }
    /// The dealt `hands` (Vorhand first) and the `skat`.
    fn log_cards(game: &Game) -> serde_json::Value {
        json!({
            "hands": (0..SEATS as u8).map(|p| names_joined(game.dealt(p))).collect::<Vec<_>>(),
            "skat": names_joined(game.skat()),
        })
    }
    /// The result as `skat.Game.result()` gives it.
    fn log_result(game: &Game) -> serde_json::Value {
        match game.result() {
            Some(r) => json!({
                "declarer": r.declarer,
                "contract": r.contract.map(Contract::name),
                "bid": r.bid,
                "declarer_points": r.declarer_points,
                "declarer_tricks": r.declarer_tricks,
                "won": r.won(),
                "value": r.value(),
                "list_score": r.list_score(),
            }),
            None => json!(null),
        }
    }
}

/// The deal of a Skat log record (its `cards`: `hands` and `skat`), read back.
pub fn deal_of_record(r: &GameRecord) -> std::result::Result<Deal, String> {
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    let hands: Option<Vec<String>> = r.cards["hands"].as_array().and_then(|h| h.iter().map(text).collect());
    let (Some(hands), Some(skat)) = (hands, text(&r.cards["skat"])) else {
        return Err("no hands and skat in its cards".into());
    };
    Deal::parse(&hands, &skat).map_err(|e| e.to_string())
}

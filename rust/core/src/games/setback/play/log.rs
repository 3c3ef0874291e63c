//! Setback games in game logs ([`crate::arena::log`], `docs/logs.md`): one line per game to 11.
//!
//! A match's duplicate pair `pair` plays games `2 × pair` and `2 × pair + 1` of its log (after
//! the games of the matches before it in a tournament's log, [`LogSlot`]); agent A sits West and
//! East, B North and South, so a match's every seating is `[a, b, a, b]` (`[0, 1, 0, 1]` in a
//! match's own log). A game's `cards` lists its
//! deals in order, each with its dealer's seat and the hand dealt to each seat; its decisions
//! run through the deals in order; a deal ends as soon as its score can no longer change (the
//! matches' rule, spec §2.8), so its last cards are not played. The result holds the winning
//! team, the final scores and every deal's score by team; `returns` is +1 for the winners'
//! seats and −1 for the others'.

use super::super::cards;
use super::actions::action_names;
use super::game::Game;
use crate::arena::log::{Decision, GameRecord, Header, LogWriter};
use crate::error::{Error, Result};
use serde_json::json;

/// The settings of every Setback match's log: how games are paired, and that deals stop once
/// decided.
pub const SETTINGS: &str = "protocol=duplicate,play_out=0";

/// The settings of a self-play log: one game per index with the agent in every seat.
pub const SELFPLAY_SETTINGS: &str = "protocol=alone,play_out=0";

/// The header of a log of Setback games between `agents` (spec names) with `seed`.
pub fn log_header(agents: Vec<String>, seed: u64) -> Header {
    Header::new("setback", agents, seed, SETTINGS.into(), action_names())
}

/// The header of a log of `agent`'s self-play with `seed`.
pub fn selfplay_log_header(agent: String, seed: u64) -> Header {
    Header::new("setback", vec![agent], seed, SELFPLAY_SETTINGS.into(), action_names())
}

/// Where a match's games go: a log, the number of the match's first game in it, and the log's
/// indices of agents A and B.
#[derive(Clone, Copy)]
pub struct LogSlot<'a> {
    pub log: &'a LogWriter,
    pub first_game: u64,
    pub agents: [u8; 2],
}

impl<'a> LogSlot<'a> {
    /// A match alone in `log` (A and B the header's agents 0 and 1).
    pub fn of_match(log: &'a LogWriter) -> LogSlot<'a> {
        LogSlot { log, first_game: 0, agents: [0, 1] }
    }

    /// Match `index` of a tournament's log, its agents `i` and `j` of the header, every match
    /// playing `pairs` pairs; None where the game numbers would pass 2^64.
    pub fn of_tournament(log: &'a LogWriter, index: u64, pairs: u64, i: u8, j: u8) -> Option<LogSlot<'a>> {
        let first_game = index.checked_mul(pairs)?.checked_mul(2)?;
        first_game.checked_add(pairs.checked_mul(2)?)?;
        Some(LogSlot { log, first_game, agents: [i, j] })
    }

    /// Writes game `g` (0 or 1) of the match's duplicate pair `pair`, finished, with its
    /// `decisions`.
    pub fn add(&self, game: &Game, pair: u64, g: u64, decisions: Vec<Decision>) -> Result<()> {
        let number = pair
            .checked_mul(2)
            .and_then(|n| n.checked_add(g)?.checked_add(self.first_game))
            .ok_or_else(|| Error::invalid("pair", pair, "a pair whose games' numbers stay under 2^64"))?;
        self.log.add(&log_record(game, number, pair, self.agents, decisions))
    }
}

/// The log record of the finished `game`, number `number` in its log, of duplicate pair
/// `pair`, with agents `agents` (indices into the log's) and its `decisions`.
pub fn log_record(game: &Game, number: u64, pair: u64, agents: [u8; 2], decisions: Vec<Decision>) -> GameRecord {
    let winner = game.winner().expect("a finished game has a winner");
    let deals: Vec<_> = game
        .records()
        .iter()
        .map(|r| json!({"dealer": r.dealer, "hands": r.hands.iter().map(|&h| cards::set_names(h)).collect::<Vec<_>>()}))
        .collect();
    let deal_scores: Vec<[i32; 2]> = game.records().iter().map(|r| r.score).collect();
    GameRecord {
        game: number,
        deal: pair,
        seating: vec![agents[0], agents[1], agents[0], agents[1]],
        cards: json!({ "deals": deals }),
        decisions,
        result: json!({"winner": winner, "scores": game.scores(), "deal_scores": deal_scores}),
        returns: (0..4).map(|seat| if seat % 2 == winner { 1 } else { -1 }).collect(),
    }
}

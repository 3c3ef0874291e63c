//! Whole games between agents, matches and tournaments (spec §10), on the generic arena.
//!
//! Deal `i` of a match is [`Deal::for_game`]`(seed, i)`: the same deals and dealers in every
//! seating, whatever the agents do. The agents' random choices in a game come from their own
//! stream, keyed by the seed, the deal and the seating. Protocols: `schafkopfrl` (seats
//! `[a, a, b, b]` then `[b, b, a, a]` on each deal) and `rotation` (each deal in the six
//! seatings that give each agent two seats).

use super::actions::action_names;
use super::agents::{Agent, Schafkopf};
use super::cards::names;
use super::deal::Deal;
use super::game::Game;
use super::rules::Rules;
use super::view::View;
use crate::arena::log::{Decision, GameRecord, Header, LogPlace, LogWriter};
use crate::arena::{self, CrossTable, PairResult, Progress, Protocol};
use crate::cards::iter;
use crate::error::{Error, Result};
use crate::streams::stream;
use crate::trick::act_valued_checked;
use rand_pcg::Pcg64;
use serde_json::json;
use std::sync::Arc;

/// Domain tag of the agents' choice streams ("choices").
const CHOICES: u64 = 0x63_686f_6963_6573;

/// The protocol names [`parse_protocol`] accepts.
pub const PROTOCOLS: &str = "schafkopfrl or rotation";

/// The protocol named `name`: `schafkopfrl` (the seed's halves) or `rotation`.
pub fn parse_protocol(name: &str) -> Result<Protocol> {
    match name.trim().to_ascii_lowercase().as_str() {
        "schafkopfrl" => Ok(Protocol::Halves),
        "rotation" => Ok(Protocol::Rotation),
        _ => Err(Error::invalid("protocol", name, PROTOCOLS)),
    }
}

/// Plays `game` to the end with `agents[s]` in seat `s`, their choices drawn from `rng`.
pub fn play_out(game: &mut Game, agents: [&dyn Agent<Schafkopf>; 4], rng: &mut Pcg64) -> Result<()> {
    play_recorded(game, agents, rng, None)
}

/// [`play_out`], adding every decision to `decisions` when given (for a game log): the seat,
/// its legal action ids, the action's id and the agent's values where it gives them.
pub fn play_recorded(
    game: &mut Game,
    agents: [&dyn Agent<Schafkopf>; 4],
    rng: &mut Pcg64,
    mut decisions: Option<&mut Vec<Decision>>,
) -> Result<()> {
    while let Some(p) = game.player() {
        let view = View::new(game, p);
        let agent = agents[p as usize];
        let (action, values) = act_valued_checked(agent, &view, rng, decisions.is_some())?;
        if let Some(out) = decisions.as_deref_mut() {
            let values = values.map(|v| v.into_iter().map(|(a, x)| (a.id() as u32, x)).collect());
            out.push(Decision::new(p, iter(view.legal_mask()).map(u32::from), action.id() as u32, values));
        }
        game.apply_legal(action);
    }
    Ok(())
}

/// The header of a log of Schafkopf games between `agents` (spec names) with these settings.
pub fn log_header(agents: Vec<String>, settings: &MatchSettings) -> Header {
    let protocol = match settings.protocol {
        Protocol::Halves => "schafkopfrl",
        Protocol::Rotation => "rotation",
        Protocol::Alone => "alone",
    };
    let text = format!("rules={},protocol={protocol}", settings.rules.name());
    Header::new("schafkopf", agents, settings.seed, text, action_names())
}

/// The log record of the finished `game` of deal `deal`, number `number` in its log, with the
/// agents `seating` (indices into the log's agents) and its `decisions`: the dealt hands and
/// the dealer; the contract, declarer, contra and retour, and each seat's card points.
pub fn log_record(game: &Game, number: u64, deal: u64, seating: Vec<u8>, decisions: Vec<Decision>) -> GameRecord {
    GameRecord {
        game: number,
        deal,
        seating,
        cards: json!({
            "hands": (0..4u8).map(|p| names(game.dealt(p)).join(" ")).collect::<Vec<_>>(),
            "dealer": game.dealer(),
        }),
        decisions,
        result: json!({
            "contract": game.contract().map(|c| c.name()),
            "declarer": game.declarer(),
            "contra": game.contra().contains(&Some(true)),
            "retour": game.retour().contains(&Some(true)),
            "scores": game.scores(),
        }),
        returns: game.returns().iter().map(|&x| x as i64).collect(),
    }
}

/// The random stream of the agents' choices in the game of deal `deal` with seating `seating`.
pub fn choice_stream(seed: u64, deal: u64, seating: u64) -> Pcg64 {
    stream(seed, CHOICES, deal, seating)
}

/// Plays deal `index` of `seed` under `rules` with `agents[s]` in seat `s`; `seating` keys the
/// agents' choice stream (any number that differs between the games of one deal).
pub fn play_deal(
    seed: u64,
    index: u64,
    seating: u64,
    rules: Rules,
    agents: [&dyn Agent<Schafkopf>; 4],
) -> Result<Game> {
    let mut game = Game::new(&Deal::for_game(seed, index), rules);
    play_out(&mut game, agents, &mut choice_stream(seed, index, seating))?;
    Ok(game)
}

/// How matches are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSettings {
    /// The rule set.
    pub rules: Rules,
    /// The seat protocol.
    pub protocol: Protocol,
    /// Seed of the deals and of the agents' choices.
    pub seed: u64,
    /// Threads (0 = `CFRKIT_NUM_THREADS` or all cores); results do not depend on it.
    pub threads: usize,
    /// Index of the first deal: a match of `n` deals plays deals `first_deal..first_deal + n`
    /// (so a long match can be played, and resumed, in parts).
    pub first_deal: u64,
}

impl Default for MatchSettings {
    fn default() -> Self {
        MatchSettings { rules: Rules::SCHAFKOPFRL, protocol: Protocol::Halves, seed: 0, threads: 0, first_deal: 0 }
    }
}

/// The game of deal `d` with agent `a` where `seating` holds 0 and `b` where it holds 1: every
/// seat's payment; the game goes to the log when given.
fn play_seating(
    a: &dyn Agent<Schafkopf>,
    b: &dyn Agent<Schafkopf>,
    d: u64,
    seating: &[u8],
    s: &MatchSettings,
    log: Option<LogPlace>,
) -> Result<Vec<i64>> {
    let agents: [&dyn Agent<Schafkopf>; 4] = std::array::from_fn(|p| if seating[p] == 0 { a } else { b });
    let key = seating.iter().enumerate().fold(0u64, |m, (p, &x)| m | (x as u64) << p);
    let mut game = Game::new(&Deal::for_game(s.seed, d), s.rules);
    let mut decisions = Vec::new();
    play_recorded(&mut game, agents, &mut choice_stream(s.seed, d, key), log.is_some().then_some(&mut decisions))?;
    if let Some(place) = log {
        place.add(d, seating, |number, seats| log_record(&game, number, d, seats, decisions))?;
    }
    Ok(game.returns().iter().map(|&x| x as i64).collect())
}

/// Plays `deals` deals (indices from [`MatchSettings::first_deal`] on) of `a` against `b`; each deal is played in every
/// seating of the protocol. A's and B's results are cents per seat and game. With `log` (made
/// with [`log_header`] of `[a, b]`) every game goes to it, game `seatings × deal + seating`.
/// `progress` hears of the games played and may stop the match ([`arena::Progress`];
/// [`arena::quiet`] for none).
pub fn run_match(
    a: &dyn Agent<Schafkopf>,
    b: &dyn Agent<Schafkopf>,
    deals: u64,
    settings: &MatchSettings,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<PairResult> {
    let place = log.map(|log| LogPlace::of_match(log, settings.protocol, 4));
    run_placed(a, b, deals, settings, place, progress)
}

/// [`run_match`] writing its games at `place` in a log: a match alone in its log, or (a piece
/// of a tournament played elsewhere) one pair of a tournament's log ([`tournament_place`]).
pub fn run_placed(
    a: &dyn Agent<Schafkopf>,
    b: &dyn Agent<Schafkopf>,
    deals: u64,
    settings: &MatchSettings,
    place: Option<LogPlace>,
    progress: Progress,
) -> Result<PairResult> {
    arena::play_pair(settings.protocol, 4, deal_range(deals, settings)?, settings.threads, progress, |d, seating| {
        play_seating(a, b, d, seating, settings, place)
    })
}

/// Every pair of `agents` plays [`run_match`] on the same deals (from [`MatchSettings::first_deal`] on).
/// With `log` (made with [`log_header`] of `agents`) the pairs' games go to it pair after pair.
pub fn run_tournament(
    agents: &[Arc<dyn Agent<Schafkopf>>],
    deals: u64,
    settings: &MatchSettings,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<CrossTable> {
    let range = deal_range(deals, settings)?;
    if agents.len() < 2 {
        return Err(Error::invalid("agents", agents.len(), "two or more agents"));
    }
    let names = agents.iter().map(|a| a.name()).collect();
    arena::tournament(names, settings.protocol, 4, range, settings.threads, false, progress, |i, j, d, seatings| {
        let place = log.map(|log| tournament_place(log, settings, agents.len(), i, j, deals)).transpose()?;
        seatings.iter().map(|s| play_seating(agents[i].as_ref(), agents[j].as_ref(), d, s, settings, place)).collect()
    })
}

/// Where the games of agents `i < j` go in the log of a tournament of `agents` agents playing
/// `deals` deals per pair under `settings`.
pub fn tournament_place<'a>(
    log: &'a LogWriter,
    settings: &MatchSettings,
    agents: usize,
    i: usize,
    j: usize,
    deals: u64,
) -> Result<LogPlace<'a>> {
    arena::check_pair(agents, i, j)?;
    Ok(LogPlace::of_pair(log, settings.protocol, 4, agents, i, j, deals))
}

/// Largest number of deals of a match.
pub const MAX_DEALS: u64 = 1 << 40;

/// The deal indices of a match of `deals` deals.
fn deal_range(deals: u64, settings: &MatchSettings) -> Result<std::ops::Range<u64>> {
    if deals == 0 || deals > MAX_DEALS {
        return Err(Error::invalid("games", deals, format!("a number of deals from 1 to {MAX_DEALS}")));
    }
    if settings.first_deal > MAX_DEALS {
        return Err(Error::invalid("first_deal", settings.first_deal, format!("a deal index from 0 to {MAX_DEALS}")));
    }
    Ok(settings.first_deal..settings.first_deal + deals)
}

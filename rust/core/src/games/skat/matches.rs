//! Whole games between agents, matches and tournaments, on the generic arena ([`crate::arena`]).
//!
//! A match between programs A and B plays every deal in the six seatings of three seats that
//! the arena's [`Protocol::Rotation`] gives — AAB ABA ABB BAA BAB BBA — so each program sits in
//! every seat, alone and in pairs, equally often. Deal `i` of a match is
//! [`Deal::for_game`]`(seed, i)`, from a stream the agents never draw from: the deals are the same
//! whatever the agents do. The agents' random choices in a game come from their own stream, keyed
//! by the seed, the deal and the seating; or, with [`MatchSettings::share_decisions`], each
//! decision's from a stream keyed by the seed, the deal and the game's history so far, the six
//! games of a deal sharing their decisions ([`DealChoices`]): a program that meets the same
//! history in two seatings decides once, which saves about half of a match between two similar
//! search programs. Results do not depend on the number of threads.
//!
//! A program's result is its **TP/G**: its Seeger-Fabian points summed over the seats it
//! occupied, divided by the number of those seat-games; its interval and that of the difference
//! A − B are taken over deals (each deal's means over its six games are one observation). Each
//! seat-game also falls in one category of the game-type breakdown ([`CATEGORIES`]): the
//! program declared a grand, a suit game, a null or a null ouvert; it defended; or the deal was
//! thrown in.

use super::actions::Action;
use super::agents::{Agent, Skat};
use super::cards::names_joined;
use super::contract::{Contract, GameType};
use super::deal::Deal;
use super::features::{action_id, action_of, legal_ids, NUM_ACTIONS};
use super::game::Game;
use super::view::View;
use crate::arena::log::{Decision, GameRecord, Header, LogPlace, LogWriter, Valued};
use crate::arena::shared::Streams;
use crate::arena::{self, CrossTable, DealChoices, PairResult, Progress, Protocol};
use crate::error::{Error, Result};
use crate::streams::stream;
use crate::trick::act_valued_checked;
use rand_pcg::Pcg64;
use serde_json::json;
use std::sync::Arc;

/// Domain tag of the agents' choice streams ("skatchoi").
const CHOICES: u64 = 0x736b_6174_6368_6f69;

/// The seats at a Skat table.
pub const SEATS: usize = 3;

/// The categories of the game-type breakdown, in order: declarer of a grand, of a suit game, of
/// a null, of a null ouvert; defender; thrown in.
pub const CATEGORIES: [&str; 6] = ["grand", "suit", "null", "null_ouvert", "defender", "pass"];

/// Largest number of deals of a match.
pub const MAX_DEALS: u64 = 1 << 40;

/// The decisions of the games of one deal, each keyed by its history ([`DealChoices`]).
pub type Choices = DealChoices<Valued<Action>>;

/// No decisions yet in deal `deal` of a match seeded `seed`.
pub fn deal_choices(seed: u64, deal: u64) -> Choices {
    DealChoices::new(seed, CHOICES, deal)
}

/// Plays `game` to the end with `agents[s]` in seat `s`, their choices drawn from `rng`.
pub fn play_out(game: &mut Game, agents: [&dyn Agent<Skat>; SEATS], rng: &mut Pcg64) -> Result<()> {
    play_recorded(game, agents, &mut Streams::Game(rng), None)
}

/// Plays the freshly dealt `game` to the end with `agents[s]` in seat `s`, their decisions
/// taking their random streams from `streams`; adds every decision to `decisions` when given
/// (for a game log): the seat, its legal action ids, the action's id and the agent's values of
/// the legal actions where it gives them.
pub fn play_recorded(
    game: &mut Game,
    agents: [&dyn Agent<Skat>; SEATS],
    streams: &mut Streams<Valued<Action>>,
    mut decisions: Option<&mut Vec<Decision>>,
) -> Result<()> {
    let mut history = Vec::new();
    while let Some(p) = game.player() {
        let view = View::new(game, p);
        let agent = agents[p as usize];
        let valued = decisions.is_some();
        let (action, values) =
            streams.decide(p as usize, &history, |rng| act_valued_checked(agent, &view, rng, valued))?;
        let id = |a: Action| action_id(a).unwrap_or(NUM_ACTIONS) as u32;
        if let Some(out) = decisions.as_deref_mut() {
            let values = values.map(|v| v.into_iter().map(|(a, x)| (id(a), x)).collect());
            out.push(Decision::new(p, legal_ids(&view).into_iter().map(|x| x as u32), id(action), values));
        }
        history.push(id(action));
        game.apply_legal(action);
    }
    Ok(())
}

/// The header of a log of Skat games between `agents` (spec names) with `seed`.
pub fn log_header(agents: Vec<String>, seed: u64) -> Header {
    header(agents, seed, "rotation")
}

/// The header of a log of `agent`'s self-play ([`run_selfplay`]) with this seed.
pub fn selfplay_log_header(agent: String, seed: u64) -> Header {
    header(vec![agent], seed, "alone")
}

fn header(agents: Vec<String>, seed: u64, protocol: &str) -> Header {
    let actions = (0..NUM_ACTIONS).map(|id| action_of(id).map_or_else(String::new, |a| a.name())).collect();
    Header::new("skat", agents, seed, format!("protocol={protocol}"), actions)
}

/// The log record of the finished `game` of deal `deal`, number `number` in its log, with the
/// agents `seating` (indices into the log's agents) and its `decisions`: the dealt hands and
/// the skat, and the result as `skat.Game.result()` gives it.
pub fn log_record(game: &Game, number: u64, deal: u64, seating: Vec<u8>, decisions: Vec<Decision>) -> GameRecord {
    let r = game.result();
    let result = match &r {
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
    };
    GameRecord {
        game: number,
        deal,
        seating,
        cards: log_cards(game),
        decisions,
        result,
        returns: game.returns().iter().map(|&x| x as i64).collect(),
    }
}

/// The `cards` of a Skat log record: the dealt `hands` (Vorhand first) and the `skat`.
pub fn log_cards(game: &Game) -> serde_json::Value {
    json!({
        "hands": (0..SEATS as u8).map(|p| names_joined(game.dealt(p))).collect::<Vec<_>>(),
        "skat": names_joined(game.skat()),
    })
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

/// The random stream of the agents' choices in the game of deal `deal` with seating `seating`.
pub fn choice_stream(seed: u64, deal: u64, seating: u64) -> Pcg64 {
    stream(seed, CHOICES, deal, seating)
}

/// Plays deal `index` of `seed` with `agents[s]` in seat `s`; `seating` keys the agents' choice
/// stream (any number that differs between the games of one deal).
pub fn play_deal(seed: u64, index: u64, seating: u64, agents: [&dyn Agent<Skat>; SEATS]) -> Result<Game> {
    let mut game = Game::new(&Deal::for_game(seed, index));
    play_out(&mut game, agents, &mut choice_stream(seed, index, seating))?;
    Ok(game)
}

/// The breakdown category ([`CATEGORIES`]) of `seat` in the finished `game`.
pub fn category(game: &Game, seat: u8) -> usize {
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

/// How matches are played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchSettings {
    /// Seed of the deals and of the agents' choices.
    pub seed: u64,
    /// Threads (0 = `CFRKIT_NUM_THREADS` or all cores); results do not depend on it.
    pub threads: usize,
    /// Index of the first deal: a match of `n` deals plays deals `first_deal..first_deal + n`
    /// (so a long match can be played, and resumed, in parts).
    pub first_deal: u64,
    /// Whether a deal's games share their decisions ([`crate::arena::shared`]): each decision's
    /// stream keyed by the game's history, and a program's decision in a history taken once per
    /// deal. About twice as fast between two similar search programs, the games of a deal tied
    /// together; off, each game has a stream of its own.
    pub share_decisions: bool,
}

/// The outcome of a match: TP/G of both programs and their game-type breakdowns.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// TP/G of A (`pair.a`) and B (`pair.b`), A − B (`pair.diff`), deals and games.
    pub pair: PairResult,
    /// Per program (0 = A, 1 = B), its seat-games in each category of [`CATEGORIES`].
    pub tallies: [Vec<u64>; 2],
}

impl MatchResult {
    /// Program `k`'s (0 = A, 1 = B) breakdown in per cent of its seat-games, by [`CATEGORIES`].
    pub fn breakdown(&self, k: usize) -> Vec<f64> {
        let t = &self.tallies[k & 1];
        let n = t.iter().sum::<u64>().max(1) as f64;
        t.iter().map(|&x| 100.0 * x as f64 / n).collect()
    }
}

/// The games of deal `d` in `seatings`, agent `a` where a seating holds 0 and `b` where it
/// holds 1 (sharing their decisions if `settings` say so): per seating, every seat's
/// Seeger-Fabian points and breakdown category; the games go to the log when given.
fn play_seatings(
    a: &dyn Agent<Skat>,
    b: &dyn Agent<Skat>,
    d: u64,
    seatings: &[Vec<u8>],
    settings: &MatchSettings,
    log: Option<LogPlace>,
) -> Result<Vec<Vec<(i64, usize)>>> {
    let seed = settings.seed;
    let mut choices = deal_choices(seed, d);
    let mut out = Vec::with_capacity(seatings.len());
    for seating in seatings {
        let agents: [&dyn Agent<Skat>; SEATS] = std::array::from_fn(|p| if seating[p] == 0 { a } else { b });
        let mut game = Game::new(&Deal::for_game(seed, d));
        let mut decisions = Vec::new();
        let mut rng;
        let mut streams = if settings.share_decisions {
            Streams::Shared { choices: &mut choices, programs: seating }
        } else {
            let key = seating.iter().enumerate().fold(0u64, |m, (p, &x)| m | (x as u64) << p);
            rng = choice_stream(seed, d, key);
            Streams::Game(&mut rng)
        };
        play_recorded(&mut game, agents, &mut streams, log.is_some().then_some(&mut decisions))?;
        if let Some(place) = log {
            place.add(d, seating, |number, seats| log_record(&game, number, d, seats, decisions))?;
        }
        out.push((0..SEATS as u8).map(|s| (game.returns()[s as usize] as i64, category(&game, s))).collect());
    }
    Ok(out)
}

/// Plays `deals` deals (indices from [`MatchSettings::first_deal`] on) of `a` against `b`, each
/// in the six seatings; with `log` (made with [`log_header`] of `[a, b]`), every game goes to it
/// as game `6 × deal + seating` (a checkpointed match resumes its log after the games of the
/// deals before the first). `progress` hears of the games played and may stop the match
/// ([`arena::Progress`]; [`arena::quiet`] for none).
pub fn run_match(
    a: &dyn Agent<Skat>,
    b: &dyn Agent<Skat>,
    deals: u64,
    settings: &MatchSettings,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<MatchResult> {
    let place = log.map(|log| LogPlace::of_match(log, Protocol::Rotation, SEATS));
    run_placed(a, b, deals, settings, place, progress)
}

/// [`run_match`] writing its games at `place` in a log: a match alone in its log, or (a piece
/// of a tournament played elsewhere) one pair of a tournament's log ([`tournament_place`]).
pub fn run_placed(
    a: &dyn Agent<Skat>,
    b: &dyn Agent<Skat>,
    deals: u64,
    settings: &MatchSettings,
    place: Option<LogPlace>,
    progress: Progress,
) -> Result<MatchResult> {
    play_under(Protocol::Rotation, a, b, deals, settings, place, progress)
}

/// Self-play, to make data sets: `deals` deals (indices from [`MatchSettings::first_deal`] on),
/// each played once with `agent` in all three seats — a match's six seatings would repeat a
/// deal's cards six times. With `log` (made with [`selfplay_log_header`]) deal `i` is game
/// `i` of the log. The result's A is the agent (TP/G over its seat-games, the breakdown); its B
/// played no game.
pub fn run_selfplay(
    agent: &dyn Agent<Skat>,
    deals: u64,
    settings: &MatchSettings,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<MatchResult> {
    let place = log.map(|log| LogPlace::of_match(log, Protocol::Alone, SEATS));
    play_under(Protocol::Alone, agent, agent, deals, settings, place, progress)
}

/// The deals of a match of `a` against `b` under `protocol`, the games going to `place`.
fn play_under(
    protocol: Protocol,
    a: &dyn Agent<Skat>,
    b: &dyn Agent<Skat>,
    deals: u64,
    settings: &MatchSettings,
    place: Option<LogPlace>,
    progress: Progress,
) -> Result<MatchResult> {
    let range = deal_range(deals, settings)?;
    let n = CATEGORIES.len();
    let together = settings.share_decisions;
    let t =
        arena::play_pair_tallied(protocol, SEATS, range, settings.threads, n, together, progress, |d, seatings| {
            play_seatings(a, b, d, seatings, settings, place)
        })?;
    Ok(MatchResult { pair: t.result, tallies: t.tallies })
}

/// Every pair of `agents` plays [`run_match`] on the same deals; the cross table of TP/G. With
/// `log` (made with [`log_header`] of `agents`), the pairs' games go to it pair after pair.
pub fn run_tournament(
    agents: &[Arc<dyn Agent<Skat>>],
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
    let together = settings.share_decisions;
    arena::tournament(
        names,
        Protocol::Rotation,
        SEATS,
        range,
        settings.threads,
        together,
        progress,
        |i, j, d, seatings| {
            let place = log.map(|log| tournament_place(log, agents.len(), i, j, deals)).transpose()?;
            let games = play_seatings(agents[i].as_ref(), agents[j].as_ref(), d, seatings, settings, place)?;
            Ok(games.into_iter().map(|g| g.into_iter().map(|o| o.0).collect()).collect())
        },
    )
}

/// Where the games of agents `i < j` go in the log of a tournament of `agents` agents playing
/// `deals` deals per pair.
pub fn tournament_place(log: &LogWriter, agents: usize, i: usize, j: usize, deals: u64) -> Result<LogPlace<'_>> {
    arena::check_pair(agents, i, j)?;
    Ok(LogPlace::of_pair(log, Protocol::Rotation, SEATS, agents, i, j, deals))
}

/// The deal indices of a match of `deals` deals.
fn deal_range(deals: u64, settings: &MatchSettings) -> Result<std::ops::Range<u64>> {
    if deals == 0 || deals > MAX_DEALS {
        return Err(Error::invalid("deals", deals, format!("a number of deals from 1 to {MAX_DEALS}")));
    }
    if settings.first_deal > MAX_DEALS {
        return Err(Error::invalid("first_deal", settings.first_deal, format!("a deal index from 0 to {MAX_DEALS}")));
    }
    Ok(settings.first_deal..settings.first_deal + deals)
}

//! Whole games between agents, matches and tournaments, on the generic arena ([`crate::arena`]).
//!
//! A match between programs A and B plays every deal in the six seatings of three seats that
//! the arena's [`Protocol::Rotation`] gives — AAB ABA ABB BAA BAB BBA — so each program sits in
//! every seat, alone and in pairs, equally often. Deal `i` of a match is
//! [`Deal::for_game`]`(seed, i)`, from a stream the agents never draw from: the deals are the same
//! whatever the agents do. The agents' random choices in a game come from their own stream, keyed
//! by the seed, the deal and the seating. Results do not depend on the number of threads.
//!
//! A program's result is its **TP/G**: its Seeger-Fabian points summed over the seats it
//! occupied, divided by the number of those seat-games; its interval and that of the difference
//! A − B are taken over deals (each deal's means over its six games are one observation). Each
//! seat-game also falls in one category of the game-type breakdown ([`CATEGORIES`]): the
//! program declared a grand, a suit game, a null or a null ouvert; it defended; or the deal was
//! thrown in.

use super::agents::{check_action, Agent};
use super::contract::GameType;
use super::deal::Deal;
use super::game::Game;
use super::view::View;
use crate::arena::{self, CrossTable, PairResult, Progress, Protocol};
use crate::error::{Error, Result};
use crate::streams::stream;
use rand_pcg::Pcg64;
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

/// Plays `game` to the end with `agents[s]` in seat `s`, their choices drawn from `rng`.
pub fn play_out(game: &mut Game, agents: [&dyn Agent; SEATS], rng: &mut Pcg64) -> Result<()> {
    while let Some(p) = game.player() {
        let view = View::new(game, p);
        let agent = agents[p as usize];
        let action = agent.act(&view, rng)?;
        let action = check_action(agent, &view, action)?;
        game.apply_legal(action);
    }
    Ok(())
}

/// The random stream of the agents' choices in the game of deal `deal` with seating `seating`.
pub fn choice_stream(seed: u64, deal: u64, seating: u64) -> Pcg64 {
    stream(seed, CHOICES, deal, seating)
}

/// Plays deal `index` of `seed` with `agents[s]` in seat `s`; `seating` keys the agents' choice
/// stream (any number that differs between the games of one deal).
pub fn play_deal(seed: u64, index: u64, seating: u64, agents: [&dyn Agent; SEATS]) -> Result<Game> {
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

/// The game of deal `d` with agent `a` where `seating` holds 0 and `b` where it holds 1: every
/// seat's Seeger-Fabian points and breakdown category.
fn play_seating(a: &dyn Agent, b: &dyn Agent, d: u64, seating: &[u8], seed: u64) -> Result<Vec<(i64, usize)>> {
    let agents: [&dyn Agent; SEATS] = std::array::from_fn(|p| if seating[p] == 0 { a } else { b });
    let key = seating.iter().enumerate().fold(0u64, |m, (p, &x)| m | (x as u64) << p);
    let game = play_deal(seed, d, key, agents)?;
    Ok((0..SEATS as u8).map(|s| (game.returns()[s as usize] as i64, category(&game, s))).collect())
}

/// Plays `deals` deals (indices from [`MatchSettings::first_deal`] on) of `a` against `b`, each
/// in the six seatings. `progress` hears of the games played and may stop the match
/// ([`arena::Progress`]; [`arena::quiet`] for none).
pub fn run_match(
    a: &dyn Agent,
    b: &dyn Agent,
    deals: u64,
    settings: &MatchSettings,
    progress: Progress,
) -> Result<MatchResult> {
    let range = deal_range(deals, settings)?;
    let n = CATEGORIES.len();
    let t = arena::play_pair_tallied(Protocol::Rotation, SEATS, range, settings.threads, n, progress, |d, s| {
        play_seating(a, b, d, s, settings.seed)
    })?;
    Ok(MatchResult { pair: t.result, tallies: t.tallies })
}

/// Every pair of `agents` plays [`run_match`] on the same deals; the cross table of TP/G.
pub fn run_tournament(
    agents: &[Arc<dyn Agent>],
    deals: u64,
    settings: &MatchSettings,
    progress: Progress,
) -> Result<CrossTable> {
    let range = deal_range(deals, settings)?;
    if agents.len() < 2 {
        return Err(Error::invalid("agents", agents.len(), "two or more agents"));
    }
    let names = agents.iter().map(|a| a.name()).collect();
    arena::tournament(names, Protocol::Rotation, SEATS, range, settings.threads, progress, |i, j, d, seating| {
        let outcomes = play_seating(agents[i].as_ref(), agents[j].as_ref(), d, seating, settings.seed)?;
        Ok(outcomes.into_iter().map(|o| o.0).collect())
    })
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

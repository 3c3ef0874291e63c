//! Whole games between agents, matches, tournaments, self-play and game logs, written once for
//! every [`MatchGame`] on the generic arena ([`crate::arena`]).
//!
//! Deal `i` of a match is the game's [`MatchGame::deal`]`(rules, seed, i)`: the same cards in
//! every seating, whatever the agents do. The agents' random choices in a game come from their
//! own stream, keyed by the seed, the deal and the seating; or, with
//! [`MatchSettings::share_decisions`], each decision's from a stream keyed by the seed, the deal
//! and the game's history so far, the games of a deal sharing their decisions
//! ([`DealChoices`]). Each deal is played in every seating of the match's protocol; a seat's
//! result is the game's [`MatchGame::returns`] and falls in one of its
//! [`MatchGame::CATEGORIES`]. Results do not depend on the number of threads.

use super::agent::{act_valued_checked, Agent};
use super::game::MatchGame;
use crate::arena::log::{Decision, GameRecord, Header, LogPlace, LogWriter, Valued};
use crate::arena::shared::Streams;
use crate::arena::{self, CrossTable, DealChoices, MatchResult, Progress, Protocol};
use crate::error::{Error, Result};
use crate::streams::stream;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Largest number of deals of a match.
pub const MAX_DEALS: u64 = 1 << 40;

/// How the matches of game `G` are played.
#[derive(Debug)]
pub struct MatchSettings<G: MatchGame> {
    /// The rule set.
    pub rules: G::Rules,
    /// The seat protocol (one of the game's [`MatchGame::PROTOCOLS`]).
    pub protocol: Protocol,
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

impl<G: MatchGame> Clone for MatchSettings<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: MatchGame> Copy for MatchSettings<G> {}
impl<G: MatchGame> PartialEq for MatchSettings<G> {
    fn eq(&self, o: &Self) -> bool {
        (self.rules, self.protocol, self.seed, self.threads, self.first_deal, self.share_decisions)
            == (o.rules, o.protocol, o.seed, o.threads, o.first_deal, o.share_decisions)
    }
}

impl<G: MatchGame> Default for MatchSettings<G> {
    fn default() -> Self {
        MatchSettings {
            rules: G::Rules::default(),
            protocol: G::PROTOCOLS[0].1,
            seed: 0,
            threads: 0,
            first_deal: 0,
            share_decisions: false,
        }
    }
}

/// The protocol of `G` named `name` (case-insensitive).
pub fn parse_protocol<G: MatchGame>(name: &str) -> Result<Protocol> {
    let wanted = name.trim().to_ascii_lowercase();
    G::PROTOCOLS.iter().find(|(n, _)| *n == wanted).map(|&(_, p)| p).ok_or_else(|| {
        Error::invalid("protocol", name, G::PROTOCOLS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" or "))
    })
}

/// The name of `protocol` in `G`'s logs and commands (`alone` for self-play).
pub fn protocol_name<G: MatchGame>(protocol: Protocol) -> &'static str {
    G::PROTOCOLS.iter().find(|(_, p)| *p == protocol).map_or("alone", |(n, _)| n)
}

/// The random stream of the agents' choices in the game of deal `deal` with seating `seating`.
pub fn choice_stream<G: MatchGame>(seed: u64, deal: u64, seating: u64) -> Pcg64 {
    stream(seed, G::CHOICES, deal, seating)
}

/// The decisions of the games of one deal, each keyed by its history ([`DealChoices`]).
pub type Choices<G> = DealChoices<Valued<<G as super::TrickGame>::Action>>;

/// No decisions yet in deal `deal` of a match seeded `seed`.
pub fn deal_choices<G: MatchGame>(seed: u64, deal: u64) -> Choices<G> {
    DealChoices::new(seed, G::CHOICES, deal)
}

fn check_seats<G: MatchGame>(agents: &[&dyn Agent<G>]) -> Result<()> {
    if agents.len() != G::SEATS {
        return Err(Error::invalid("agents", agents.len(), format!("{} agents, seat 0 first", G::SEATS)));
    }
    Ok(())
}

/// Plays `state` to the end with `agents[s]` in seat `s`, their choices drawn from `rng`.
pub fn play_out<G: MatchGame>(state: &mut G::State, agents: &[&dyn Agent<G>], rng: &mut Pcg64) -> Result<()> {
    play_recorded(state, agents, &mut Streams::Game(rng), None)
}

/// Plays the freshly dealt `state` to the end with `agents[s]` in seat `s`, their decisions
/// taking their random streams from `streams`; adds every decision to `decisions` when given
/// (for a game log): the seat, its legal action ids, the action's id and the agent's values of
/// the legal actions where it gives them.
pub fn play_recorded<G: MatchGame>(
    state: &mut G::State,
    agents: &[&dyn Agent<G>],
    streams: &mut Streams<Valued<G::Action>>,
    mut decisions: Option<&mut Vec<Decision>>,
) -> Result<()> {
    check_seats(agents)?;
    let mut history = Vec::new();
    while let Some(p) = G::player(state) {
        // The view borrows the state: it ends before the action is applied.
        let action = {
            let view = G::view(state, p);
            let agent = agents[p as usize];
            let valued = decisions.is_some();
            let (action, values) =
                streams.decide(p as usize, &history, |rng| act_valued_checked(agent, &view, rng, valued))?;
            if let Some(out) = decisions.as_deref_mut() {
                let values = values.map(|v| v.into_iter().map(|(a, x)| (G::action_id(a), x)).collect());
                out.push(Decision::new(p, G::legal_ids(&view), G::action_id(action), values));
            }
            action
        };
        history.push(G::action_id(action));
        G::apply(state, action);
    }
    Ok(())
}

/// Plays deal `index` of `seed` under `rules` with `agents[s]` in seat `s`; `seating` keys the
/// agents' choice stream (any number that differs between the games of one deal).
pub fn play_deal<G: MatchGame>(
    rules: G::Rules,
    seed: u64,
    index: u64,
    seating: u64,
    agents: &[&dyn Agent<G>],
) -> Result<G::State> {
    let mut state = G::deal(rules, seed, index);
    play_out(&mut state, agents, &mut choice_stream::<G>(seed, index, seating))?;
    Ok(state)
}

/// The header of a log of `G`'s games between `agents` (spec names) with these settings (one
/// agent and [`Protocol::Alone`] for self-play).
pub fn log_header<G: MatchGame>(agents: Vec<String>, settings: &MatchSettings<G>) -> Header {
    let text = G::log_settings(settings.rules, protocol_name::<G>(settings.protocol));
    Header::new(G::NAME, agents, settings.seed, text, G::action_names())
}

/// The log record of the finished `state` of deal `deal`, number `number` in its log, with the
/// agents `seating` (indices into the log's agents) and its `decisions`.
pub fn log_record<G: MatchGame>(
    state: &G::State,
    number: u64,
    deal: u64,
    seating: Vec<u8>,
    decisions: Vec<Decision>,
) -> GameRecord {
    GameRecord {
        game: number,
        deal,
        seating,
        cards: G::log_cards(state),
        decisions,
        result: G::log_result(state),
        returns: G::returns(state),
    }
}

/// The games of deal `d` in `seatings`, agent `a` where a seating holds 0 and `b` where it
/// holds 1 (sharing their decisions if `settings` say so): per seating, every seat's result
/// and category; the games go to the log when given.
fn play_seatings<G: MatchGame>(
    a: &dyn Agent<G>,
    b: &dyn Agent<G>,
    d: u64,
    seatings: &[Vec<u8>],
    settings: &MatchSettings<G>,
    log: Option<LogPlace>,
) -> Result<Vec<Vec<(i64, usize)>>> {
    let seed = settings.seed;
    let mut choices = deal_choices::<G>(seed, d);
    let mut out = Vec::with_capacity(seatings.len());
    for seating in seatings {
        let agents: Vec<&dyn Agent<G>> = seating.iter().map(|&x| if x == 0 { a } else { b }).collect();
        let mut state = G::deal(settings.rules, seed, d);
        let mut decisions = Vec::new();
        let mut rng;
        let mut streams = if settings.share_decisions {
            Streams::Shared { choices: &mut choices, programs: seating }
        } else {
            let key = seating.iter().enumerate().fold(0u64, |m, (p, &x)| m | (x as u64) << p);
            rng = choice_stream::<G>(seed, d, key);
            Streams::Game(&mut rng)
        };
        play_recorded(&mut state, &agents, &mut streams, log.is_some().then_some(&mut decisions))?;
        if let Some(place) = log {
            place.add(d, seating, |number, seats| log_record::<G>(&state, number, d, seats, decisions))?;
        }
        let returns = G::returns(&state);
        out.push((0..G::SEATS as u8).map(|s| (returns[s as usize], G::category(&state, s))).collect());
    }
    Ok(out)
}

/// Plays `deals` deals (indices from [`MatchSettings::first_deal`] on) of `a` against `b`, each
/// in every seating of the settings' protocol. With `log` (made with [`log_header`] of `[a, b]`)
/// every game goes to it, game `seatings × deal + seating` (a checkpointed match resumes its log
/// after the games of the deals before the first). `progress` hears of the games played and may
/// stop the match ([`arena::Progress`]; [`arena::quiet`] for none).
pub fn run_match<G: MatchGame>(
    a: &dyn Agent<G>,
    b: &dyn Agent<G>,
    deals: u64,
    settings: &MatchSettings<G>,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<MatchResult> {
    let place = log.map(|log| LogPlace::of_match(log, settings.protocol, G::SEATS));
    run_placed(a, b, deals, settings, place, progress)
}

/// [`run_match`] writing its games at `place` in a log: a match alone in its log, or (a piece
/// of a tournament played elsewhere) one pair of a tournament's log ([`tournament_place`]).
pub fn run_placed<G: MatchGame>(
    a: &dyn Agent<G>,
    b: &dyn Agent<G>,
    deals: u64,
    settings: &MatchSettings<G>,
    place: Option<LogPlace>,
    progress: Progress,
) -> Result<MatchResult> {
    let range = deal_range(deals, settings.first_deal)?;
    let (protocol, n, together) = (settings.protocol, G::CATEGORIES.len(), settings.share_decisions);
    arena::play_pair_tallied(protocol, G::SEATS, range, settings.threads, n, together, progress, |d, seatings| {
        play_seatings(a, b, d, seatings, settings, place)
    })
}

/// Self-play, to make data sets: `deals` deals (indices from [`MatchSettings::first_deal`] on),
/// each played once with `agent` in every seat — a match's seatings would repeat a deal's cards.
/// With `log` (made with [`log_header`] of the agent under [`Protocol::Alone`]) deal `i` is
/// game `i` of the log. The result's A is the agent; its B played no game.
pub fn run_selfplay<G: MatchGame>(
    agent: &dyn Agent<G>,
    deals: u64,
    settings: &MatchSettings<G>,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<MatchResult> {
    let alone = MatchSettings { protocol: Protocol::Alone, share_decisions: false, ..*settings };
    run_match(agent, agent, deals, &alone, log, progress)
}

/// Every pair of `agents` plays [`run_match`] on the same deals (from
/// [`MatchSettings::first_deal`] on); the cross table. With `log` (made with [`log_header`] of
/// `agents`) the pairs' games go to it pair after pair.
pub fn run_tournament<G: MatchGame>(
    agents: &[Arc<dyn Agent<G>>],
    deals: u64,
    settings: &MatchSettings<G>,
    log: Option<&LogWriter>,
    progress: Progress,
) -> Result<CrossTable> {
    let range = deal_range(deals, settings.first_deal)?;
    if agents.len() < 2 {
        return Err(Error::invalid("agents", agents.len(), "two or more agents"));
    }
    let names = agents.iter().map(|a| a.name()).collect();
    let (protocol, together) = (settings.protocol, settings.share_decisions);
    arena::tournament(names, protocol, G::SEATS, range, settings.threads, together, progress, |i, j, d, seatings| {
        let place = log.map(|log| tournament_place(log, settings, agents.len(), i, j, deals)).transpose()?;
        let games = play_seatings(agents[i].as_ref(), agents[j].as_ref(), d, seatings, settings, place)?;
        Ok(games.into_iter().map(|g| g.into_iter().map(|o| o.0).collect()).collect())
    })
}

/// Where the games of agents `i < j` go in the log of a tournament of `agents` agents playing
/// `deals` deals per pair under `settings`.
pub fn tournament_place<'a, G: MatchGame>(
    log: &'a LogWriter,
    settings: &MatchSettings<G>,
    agents: usize,
    i: usize,
    j: usize,
    deals: u64,
) -> Result<LogPlace<'a>> {
    arena::check_pair(agents, i, j)?;
    Ok(LogPlace::of_pair(log, settings.protocol, G::SEATS, agents, i, j, deals))
}

/// The deal indices of a match of `deals` deals from `first_deal` on.
pub fn deal_range(deals: u64, first_deal: u64) -> Result<std::ops::Range<u64>> {
    if deals == 0 || deals > MAX_DEALS {
        return Err(Error::invalid("deals", deals, format!("a number of deals from 1 to {MAX_DEALS}")));
    }
    if first_deal > MAX_DEALS {
        return Err(Error::invalid("first_deal", first_deal, format!("a deal index from 0 to {MAX_DEALS}")));
    }
    Ok(first_deal..first_deal + deals)
}

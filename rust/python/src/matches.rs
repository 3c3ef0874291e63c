//! Bindings of the trick-game layer's matches (the core's `trick::matches`), once for every game:
//! matches, self-play, tournaments, their figures from pieces, game logs and single deals, each
//! a function that takes the game by name. A match's figures cross as one dict whose keys are
//! the same in every game (see `cfrkit._matches.MatchResult`).

use crate::arena::{between_chunks, cross_table_dict, cross_table_of, pair_of_deals, per_deal_list, PairDeals};
use crate::args::opt_u64_arg;
use crate::errors::IntoPy;
use crate::log::GameLogWriter;
use cfrkit_core::arena::log::first_game_of;
use cfrkit_core::arena::{CrossTable, MatchResult, PairResult, Protocol};
use cfrkit_core::games::schafkopf::agents::Schafkopf;
use cfrkit_core::games::skat::agents::Skat;
use cfrkit_core::trick::matches::{self, parse_protocol, MatchSettings};
use cfrkit_core::trick::{Agent, MatchGame, TrickGame};
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// The names of the games these functions take.
const GAMES: &str = "skat or schafkopf";

/// `$body` with the type `$g` standing for the game named `$game`.
macro_rules! by_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game.trim().to_ascii_lowercase().as_str() {
            "skat" => {
                type $g = Skat;
                $body
            }
            "schafkopf" => {
                type $g = Schafkopf;
                $body
            }
            _ => Err(Error::invalid("game", $game, GAMES)).py(),
        }
    };
}

/// Takes a callable agent's first exception (re-raised once the native code returns).
pub type ErrorSlot = Arc<dyn Fn() -> Option<PyErr> + Send + Sync>;

/// A game's agent as Python holds it: the native agent, and where a callable keeps its exception.
pub struct PyAgent<G: MatchGame> {
    pub inner: Arc<dyn Agent<G>>,
    pub error: Option<ErrorSlot>,
}

/// What the bindings of a game give the generic functions: its agents, its game object, the view
/// a callable agent is shown and how its answer is read.
pub trait PyGame: MatchGame + Sized {
    /// What a callable agent of the game returns, for error messages.
    const ACTIONS: &'static str;
    /// The view object a callable agent is called with.
    fn view_object(py: Python<'_>, view: &Self::View<'_>) -> PyResult<Py<PyAny>>;
    /// A callable agent's answer as an action of the view's seat (its legality is checked later).
    fn parse_action(view: &Self::View<'_>, answer: &Bound<'_, PyAny>) -> PyResult<Self::Action>;
    /// The agent `obj` (the game's agent class) stands for.
    fn agent(obj: &Bound<'_, PyAny>) -> PyResult<PyAgent<Self>>;
    /// The agent of a spec string.
    fn parse_spec(spec: &str) -> cfrkit_core::Result<Arc<dyn Agent<Self>>>;
    /// The game object of a finished deal.
    fn game_object(py: Python<'_>, state: Self::State) -> PyResult<Py<PyAny>>;
}

/// Where the callable agent `callable` (if any) keeps its first exception.
pub fn error_slot<G: PyGame>(callable: &Option<Arc<crate::callable::CallableAgent<G>>>) -> Option<ErrorSlot> {
    let c = callable.clone()?;
    Some(Arc::new(move || c.take_error()))
}

/// The agent class of `G` that `obj` is, or an error naming what it is.
pub fn agent_of<G: PyGame, A: pyo3::PyClass + Clone>(obj: &Bound<'_, PyAny>) -> PyResult<A> {
    obj.extract::<PyRef<'_, A>>().map(|a| a.clone()).map_err(|_| {
        let shown = obj.repr().map_or_else(|_| "?".into(), |r| r.to_string());
        crate::errors::invalid_type("agent", &shown, &format!("a {} agent", G::NAME))
    })
}

/// The agents `objs`: the game's agent objects or spec strings.
fn agents_of<G: PyGame>(objs: &[Bound<'_, PyAny>]) -> PyResult<Vec<PyAgent<G>>> {
    let one = |obj: &Bound<'_, PyAny>| match obj.extract::<String>() {
        Ok(spec) => Ok(PyAgent { inner: G::parse_spec(&spec).py()?, error: None }),
        Err(_) => G::agent(obj),
    };
    objs.iter().map(one).collect()
}

fn first_error<G: MatchGame>(agents: &[PyAgent<G>]) -> Option<PyErr> {
    agents.iter().filter_map(|a| a.error.as_ref()).find_map(|take| take())
}

fn settings<G: MatchGame>(
    protocol: Option<&str>,
    rules: Option<&str>,
    seed: u64,
    threads: usize,
    first_deal: u64,
    share_decisions: bool,
) -> PyResult<MatchSettings<G>> {
    Ok(MatchSettings {
        rules: rules.map_or(Ok(Default::default()), G::parse_rules).py()?,
        protocol: protocol.map_or(Ok(G::PROTOCOLS[0].1), parse_protocol::<G>).py()?,
        seed,
        threads: cfrkit_core::threads::resolve(threads).py()?,
        first_deal,
        share_decisions,
    })
}

/// A match's figures under the keys every game uses.
fn pair_dict<'py, G: MatchGame>(py: Python<'py>, a: &str, b: &str, r: &PairResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("game", G::NAME)?;
    d.set_item("unit", G::UNIT)?;
    d.set_item("a", a)?;
    d.set_item("b", b)?;
    d.set_item("deals", r.deals)?;
    d.set_item("games", r.games)?;
    for (side, e) in [("a", &r.a), ("b", &r.b), ("diff", &r.diff)] {
        d.set_item(if side == "diff" { "diff".to_string() } else { format!("mean_{side}") }, e.mean)?;
        d.set_item(format!("ci95_{side}"), e.ci95)?;
        d.set_item(format!("sd_{side}"), e.sd)?;
    }
    Ok(d)
}

fn match_dict<'py, G: MatchGame>(py: Python<'py>, a: &str, b: &str, r: &MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = pair_dict::<G>(py, a, b, &r.pair)?;
    d.set_item("categories", G::CATEGORIES.to_vec())?;
    d.set_item("tallies_a", r.tallies[0].clone())?;
    d.set_item("tallies_b", r.tallies[1].clone())?;
    Ok(d)
}

fn tournament_dict<'py, G: MatchGame>(py: Python<'py>, t: &CrossTable, threads: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = cross_table_dict(py, t, G::UNIT, |i, j, r| pair_dict::<G>(py, &t.names[i], &t.names[j], r))?;
    d.set_item("threads", threads)?;
    Ok(d)
}

/// Plays `deals` deals of `a` against `b` of `game`, each in every seating of `protocol` (the
/// game's first when None), deals `first_deal..first_deal + deals` of `seed` under `rules`
/// (the game's default when None); returns the match's figures. `log_pair = (agents, i, j,
/// deals per pair)` writes the games as those of pair `(i, j)` of a tournament's log;
/// `per_deal` adds each deal's means (`per_deal`), from which `trick_match_summary` makes the
/// figures of matches played in pieces; `share_decisions` lets a deal's games share their
/// decisions.
#[pyfunction]
#[pyo3(signature = (game, a, b, deals, protocol = None, rules = None, seed = 0, threads = 0, progress = None, first_deal = 0, log = None, log_pair = None, per_deal = false, share_decisions = false))]
#[allow(clippy::too_many_arguments)]
fn trick_match<'py>(
    py: Python<'py>,
    game: &str,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    deals: u64,
    protocol: Option<&str>,
    rules: Option<&str>,
    seed: u64,
    threads: usize,
    progress: Option<Py<PyAny>>,
    first_deal: u64,
    log: Option<&GameLogWriter>,
    log_pair: Option<(usize, usize, usize, u64)>,
    per_deal: bool,
    share_decisions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => {
        let s = settings::<G>(protocol, rules, seed, threads, first_deal, share_decisions)?;
        let agents = agents_of::<G>(&[a, b])?;
        let log = log.map(|l| l.inner.clone());
        let mut stopped = None;
        let res = py.allow_threads(|| {
            let mut between = between_chunks(|| first_error(&agents), progress.as_ref(), &mut stopped);
            let (a, b) = (agents[0].inner.as_ref(), agents[1].inner.as_ref());
            match (&log, log_pair) {
                (Some(log), Some((n, i, j, per_pair))) => {
                    let place = matches::tournament_place(log, &s, n, i, j, per_pair)?;
                    matches::run_placed(a, b, deals, &s, Some(place), &mut between)
                }
                _ => matches::run_match(a, b, deals, &s, log.as_deref(), &mut between),
            }
        });
        if let Some(e) = stopped.or_else(|| first_error(&agents)) {
            return Err(e);
        }
        let r = res.py()?;
        let d = match_dict::<G>(py, &agents[0].inner.name(), &agents[1].inner.name(), &r)?;
        d.set_item("threads", s.threads)?;
        if per_deal {
            d.set_item("per_deal", per_deal_list(&r.pair))?;
        }
        Ok(d)
    })
}

/// Self-play of `agent` on `deals` deals of `game` from `first_deal` on, each played once with
/// the agent in every seat (`log`: a writer from `trick_log_writer(..., selfplay=True)`); the
/// figures of `trick_match` with the agent as A (B played no game).
#[pyfunction]
#[pyo3(signature = (game, agent, deals, rules = None, seed = 0, threads = 0, progress = None, first_deal = 0, log = None))]
#[allow(clippy::too_many_arguments)]
fn trick_selfplay<'py>(
    py: Python<'py>,
    game: &str,
    agent: Bound<'py, PyAny>,
    deals: u64,
    rules: Option<&str>,
    seed: u64,
    threads: usize,
    progress: Option<Py<PyAny>>,
    first_deal: u64,
    log: Option<&GameLogWriter>,
) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => {
        let s = settings::<G>(None, rules, seed, threads, first_deal, false)?;
        let agents = agents_of::<G>(&[agent])?;
        let log = log.map(|l| l.inner.clone());
        let mut stopped = None;
        let res = py.allow_threads(|| {
            let mut between = between_chunks(|| first_error(&agents), progress.as_ref(), &mut stopped);
            matches::run_selfplay(agents[0].inner.as_ref(), deals, &s, log.as_deref(), &mut between)
        });
        if let Some(e) = stopped.or_else(|| first_error(&agents)) {
            return Err(e);
        }
        let name = agents[0].inner.name();
        let d = match_dict::<G>(py, &name, &name, &res.py()?)?;
        d.set_item("threads", s.threads)?;
        Ok(d)
    })
}

/// Every pair of `agents` plays `deals` deals of `game`; returns the pairs' figures and the
/// cross table.
#[pyfunction]
#[pyo3(signature = (game, agents, deals, protocol = None, rules = None, seed = 0, threads = 0, progress = None, log = None, share_decisions = false))]
#[allow(clippy::too_many_arguments)]
fn trick_tournament<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<Bound<'py, PyAny>>,
    deals: u64,
    protocol: Option<&str>,
    rules: Option<&str>,
    seed: u64,
    threads: usize,
    progress: Option<Py<PyAny>>,
    log: Option<&GameLogWriter>,
    share_decisions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => {
        let s = settings::<G>(protocol, rules, seed, threads, 0, share_decisions)?;
        let agents = agents_of::<G>(&agents)?;
        let inner: Vec<Arc<dyn Agent<G>>> = agents.iter().map(|a| a.inner.clone()).collect();
        let log = log.map(|l| l.inner.clone());
        let mut stopped = None;
        let res: cfrkit_core::Result<CrossTable> = py.allow_threads(|| {
            let mut between = between_chunks(|| first_error(&agents), progress.as_ref(), &mut stopped);
            matches::run_tournament(&inner, deals, &s, log.as_deref(), &mut between)
        });
        if let Some(e) = stopped.or_else(|| first_error(&agents)) {
            return Err(e);
        }
        tournament_dict::<G>(py, &res.py()?, s.threads)
    })
}

/// The figures of a match of `game` between `a` and `b` played in pieces: its deals' means in
/// deal order (the pieces' `per_deal` joined), its games and its summed tallies; equal to those
/// of the match played in one run.
#[pyfunction]
fn trick_match_summary<'py>(
    py: Python<'py>,
    game: &str,
    a: &str,
    b: &str,
    per_deal: Vec<(f64, f64)>,
    games: u64,
    tallies: (Vec<u64>, Vec<u64>),
) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => {
        let r = MatchResult { pair: pair_of_deals(per_deal, games), tallies: [tallies.0, tallies.1] };
        match_dict::<G>(py, a, b, &r)
    })
}

/// The figures of a tournament of `game` played in pieces: `pairs` holds each pair `(i, j,
/// per_deal, games)` of the agents `names`, its deals' means joined in deal order.
#[pyfunction]
fn trick_tournament_summary<'py>(
    py: Python<'py>,
    game: &str,
    names: Vec<String>,
    pairs: Vec<PairDeals>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => tournament_dict::<G>(py, &cross_table_of(names, pairs)?, threads))
}

/// A writer of a log of `game`'s games between `agents` under `protocol`, `rules` and `seed`
/// at `path`: a new log, or (with `deals_done` > 0, a checkpointed match going on) the log
/// there after the games of its first `deals_done` deals, or (with `piece = (pair, deals per
/// pair, first deal)`) a piece of a log played on a cluster's worker: its games from that deal
/// of that pair on. With `selfplay` the log of one agent's self-play (one game per deal; the
/// protocol is then ignored). `resume`: a checkpointed run goes on (the log there is kept, cut
/// after its first `deals_done` deals, also none).
#[pyfunction]
#[pyo3(signature = (game, path, agents, protocol = None, rules = None, seed = 0, deals_done = 0, piece = None, selfplay = false, resume = false))]
#[allow(clippy::too_many_arguments)]
fn trick_log_writer(
    game: &str,
    path: std::path::PathBuf,
    agents: Vec<String>,
    protocol: Option<&str>,
    rules: Option<&str>,
    seed: u64,
    deals_done: u64,
    piece: Option<(u64, u64, u64)>,
    selfplay: bool,
    resume: bool,
) -> PyResult<GameLogWriter> {
    by_game!(game, G => {
        let mut s = settings::<G>(protocol, rules, seed, 1, 0, false)?;
        if selfplay {
            if agents.len() != 1 {
                return Err(Error::invalid("agents", agents.len(), "one agent for a self-play log")).py();
            }
            s.protocol = Protocol::Alone;
        }
        let header = matches::log_header(agents, &s);
        if let Some((pair, deals, first_deal)) = piece {
            let first = first_game_of(s.protocol, G::SEATS, pair, deals, first_deal).py()?;
            return GameLogWriter::piece(path, &header, first);
        }
        let per = s.protocol.seatings(G::SEATS).py()?.len() as u64;
        let keep =
            deals_done.checked_mul(per).ok_or_else(|| Error::invalid("deals_done", deals_done, "fewer deals")).py()?;
        GameLogWriter::open(path, &header, keep, resume)
    })
}

/// Plays deal `index` of `seed` of `game` under `rules` with `agents[s]` in seat `s`; returns
/// the finished game.
#[pyfunction]
#[pyo3(signature = (game, agents, seed = None, index = None, rules = None))]
fn trick_play_deal<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    index: Option<&Bound<'py, PyAny>>,
    rules: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let (seed, index) = (opt_u64_arg(seed, "seed", 0)?, opt_u64_arg(index, "index", 0)?);
    by_game!(game, G => {
        let s = settings::<G>(None, rules, seed, 1, 0, false)?;
        if agents.len() != G::SEATS {
            return Err(Error::invalid("agents", agents.len(), format!("{} agents, seat 0 first", G::SEATS))).py();
        }
        let agents = agents_of::<G>(&agents)?;
        let res = py.allow_threads(|| {
            let seats: Vec<&dyn Agent<G>> = agents.iter().map(|a| a.inner.as_ref()).collect();
            matches::play_deal(s.rules, seed, index, 0, &seats)
        });
        if let Some(e) = first_error(&agents) {
            return Err(e);
        }
        G::game_object(py, res.py()?)
    })
}

/// What a match of `game` is made of: its `seats`, `categories`, `unit`, `protocols` (the
/// first the default) with their `seatings` (games per deal) and default `rules`.
#[pyfunction]
fn trick_match_game<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyDict>> {
    by_game!(game, G => {
        let d = PyDict::new(py);
        d.set_item("game", G::NAME)?;
        d.set_item("seats", G::SEATS)?;
        d.set_item("categories", G::CATEGORIES.to_vec())?;
        d.set_item("unit", G::UNIT)?;
        d.set_item("protocols", G::PROTOCOLS.iter().map(|(n, _)| *n).collect::<Vec<_>>())?;
        let seatings = G::PROTOCOLS.iter().map(|&(n, p)| Ok((n, p.seatings(G::SEATS).py()?.len())));
        d.set_item("seatings", seatings.collect::<PyResult<Vec<_>>>()?)?;
        d.set_item("rules", G::rules_name(Default::default()))?;
        Ok(d)
    })
}

/// Registers the match functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trick_match, m)?)?;
    m.add_function(wrap_pyfunction!(trick_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(trick_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(trick_match_summary, m)?)?;
    m.add_function(wrap_pyfunction!(trick_tournament_summary, m)?)?;
    m.add_function(wrap_pyfunction!(trick_log_writer, m)?)?;
    m.add_function(wrap_pyfunction!(trick_play_deal, m)?)?;
    m.add_function(wrap_pyfunction!(trick_match_game, m)?)?;
    Ok(())
}

//! Bindings of Setback play: player views, agents (spec strings or Python callables), games to
//! 11 a person can drive, and duplicate matches with the GIL released.

use crate::arena::between_chunks;
use crate::args::{threads_arg, u64_arg};
use crate::callable::PyCallable;
use crate::env::{observation, Observation};
use crate::errors::IntoPy;
use crate::log::GameLogWriter;
use crate::setback::{cards_list, deal_state_pymethods, phase_name};
use cfrkit_core::games::setback::cards::{self, card_name, parse_card};
use cfrkit_core::games::setback::features;
use cfrkit_core::games::setback::keys::key_string;
use cfrkit_core::games::setback::play::actions;
use cfrkit_core::games::setback::play::agent::{self, Agent, Move, Setback};
use cfrkit_core::games::setback::play::game::Game;
use cfrkit_core::games::setback::play::log::{log_header, selfplay_log_header, LogSlot};
use cfrkit_core::games::setback::play::matches::{play_pairs_logged, play_selfplay, summarize, PairOutcome, Summary};
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::registry;
use cfrkit_core::streams::stream;
use cfrkit_core::trick::act_checked;
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// What one player may see (dealer-relative: player 0 = dealer, team 0 = the dealer's team).
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackView", frozen)]
#[derive(Clone)]
pub struct SetbackView {
    inner: View,
}

deal_state_pymethods!(SetbackView {
    /// Dealer-relative index of the viewing player.
    #[getter]
    fn player(&self) -> u8 {
        self.inner.player()
    }
    /// Team of the viewing player (0 = the dealer's team).
    #[getter]
    fn team(&self) -> usize {
        self.inner.team()
    }
    /// Whether the viewing player is to act.
    #[getter]
    fn to_act(&self) -> bool {
        self.inner.to_act()
    }
    /// Cards the player still holds.
    #[getter]
    fn hand(&self) -> Vec<String> {
        cards_list(self.inner.hand())
    }
    /// Cards the player was dealt.
    #[getter]
    fn dealt_hand(&self) -> Vec<String> {
        cards_list(self.inner.dealt_hand())
    }
    /// Dealer-relative index of the current trick's leader.
    #[getter]
    fn leader(&self) -> Option<u8> {
        self.inner.leader()
    }
    /// Position in the trick (0 = leader) of the card winning it.
    #[getter]
    fn trick_winner(&self) -> Option<usize> {
        self.inner.trick_winner()
    }
    /// Every card played so far.
    #[getter]
    fn played(&self) -> Vec<String> {
        cards_list(self.inner.played())
    }
    /// Cards played so far by dealer-relative player `p`.
    fn played_by(&self, p: u8) -> Vec<String> {
        cards_list(self.inner.played_by(p))
    }
    /// Suits each player has shown void in (dealer-relative), e.g. `[[], ["H"], [], ["C", "S"]]`.
    #[getter]
    fn shown_voids(&self) -> Vec<Vec<String>> {
        self.inner
            .shown_voids()
            .iter()
            .map(|&v| (0..4u8).filter(|s| v & (1 << s) != 0).map(|s| cards::suit_char(s).to_string()).collect())
            .collect()
    }
    /// Game score `(dealer's team, other team)` before this deal.
    #[getter]
    fn score(&self) -> (i32, i32) {
        let s = self.inner.score();
        (s[0], s[1])
    }
    /// Baseline abstract action codes of the player to act (empty when not to act).
    fn abstract_actions(&self) -> Vec<String> {
        self.inner.abstract_actions().map(|a| a.as_slice().iter().map(|x| x.code()).collect()).unwrap_or_default()
    }
    /// The baseline key string of the player to act, or None.
    fn key(&self) -> Option<String> {
        let a = self.inner.abstract_actions()?;
        self.inner.key(&a).map(key_string)
    }
    /// The bootstrap (score-aware) auction key of the player (spec §2.9), e.g. `3!/0/-1/0/AJ4.........`
    /// (None unless the player is to act in the auction).
    fn bootstrap_key(&self) -> Option<String> {
        self.inner.bootstrap_key().map(key_string)
    }
    fn __repr__(&self) -> String {
        format!(
            "SetbackView(player={}, phase={:?}, hand={:?}, trick={:?})",
            self.player(),
            self.phase(),
            self.hand(),
            self.trick()
        )
    }
});

/// A Python callable as an agent: called with a `SetbackView`, it returns a bid (int) in the
/// auction and a card name (str) afterwards. Its first exception is kept and re-raised.
struct CallableAgent(PyCallable);

impl CallableAgent {
    fn call<T>(&self, view: &View, convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> cfrkit_core::Result<T> {
        self.0.call("move", "a bid (int) or a card name (str)", |py, func| {
            convert(func.call1(py, (SetbackView { inner: *view },))?.bind(py))
        })
    }
}

impl Agent<Setback> for CallableAgent {
    fn name(&self) -> String {
        self.0.label().to_string()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> cfrkit_core::Result<Move> {
        let bid = |_: &mut Pcg64| self.call(view, |r| r.extract::<u8>());
        let play = |_: &mut Pcg64| parse_card(&self.call(view, |r| r.extract::<String>())?);
        agent::by_phase(view, rng, bid, play)
    }
}

/// The Python value of a move: a bid (int) or a card name (str).
fn move_object(py: Python<'_>, m: Move) -> PyResult<PyObject> {
    Ok(match m {
        Move::Bid(b) => b.into_pyobject(py)?.into_any().unbind(),
        Move::Card(c) => card_name(c).into_pyobject(py)?.into_any().unbind(),
    })
}

/// A Setback agent: from a spec string (see `registry::AGENT_SPECS`) or a Python callable.
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackAgent", frozen)]
#[derive(Clone)]
pub struct SetbackAgent {
    inner: Arc<dyn Agent<Setback>>,
    callable: Option<Arc<CallableAgent>>,
}

impl SetbackAgent {
    /// Re-raises the first exception of a callable agent, if any.
    fn take_error(&self) -> Option<PyErr> {
        self.callable.as_ref().and_then(|c| c.0.take_error())
    }
}

#[pymethods]
impl SetbackAgent {
    /// An agent from a spec string.
    #[staticmethod]
    fn from_spec(py: Python<'_>, spec: &str) -> PyResult<Self> {
        let inner = py.allow_threads(|| registry::agent(spec)).py()?;
        Ok(SetbackAgent { inner, callable: None })
    }
    /// An agent calling `func(view)`; `name` labels it in reports.
    #[staticmethod]
    #[pyo3(signature = (func, name = None))]
    fn from_callable(py: Python<'_>, func: Py<PyAny>, name: Option<String>) -> PyResult<Self> {
        let c = Arc::new(CallableAgent(PyCallable::new(py, func, name, registry::AGENT_SPECS)?));
        Ok(SetbackAgent { inner: c.clone(), callable: Some(c) })
    }
    /// The agent's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
    /// The agent's move for `view` (whose player is to act): a bid (int) in the auction, a card
    /// name afterwards. `seed` seeds the agent's random choices.
    #[pyo3(signature = (view, seed = None))]
    fn act(&self, py: Python<'_>, view: &SetbackView, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyObject> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let (agent, v) = (self.inner.clone(), view.inner);
        let mut rng = stream(seed, 0, 0, 0);
        let res = py.allow_threads(|| act_checked(agent.as_ref(), &v, &mut rng));
        if let Some(e) = self.take_error() {
            return Err(e);
        }
        move_object(py, res.py()?)
    }
    fn __repr__(&self) -> String {
        format!("SetbackAgent({:?})", self.inner.name())
    }
}

/// A game to 11 with the dealer rotating; seats West 0, North 1, East 2, South 3; team 0 =
/// West+East. Moves come from a person (`bid`, `play_card`) or an agent (`agent_move`).
#[pyclass(module = "cfrkit._cfrkit", name = "SetbackGame")]
pub struct SetbackGame {
    inner: Game,
    rng: Pcg64,
}

fn record_dict<'py>(
    py: Python<'py>,
    r: &cfrkit_core::games::setback::play::game::DealRecord,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("dealer", r.dealer)?;
    d.set_item("hands", r.hands.iter().map(|&h| cards_list(h)).collect::<Vec<_>>())?;
    d.set_item("bids", r.bids.iter().map(|&b| u32::from(b)).collect::<Vec<_>>())?;
    d.set_item("score", (r.score[0], r.score[1]))?;
    Ok(d)
}

impl SetbackGame {
    fn step_move(&mut self, m: Move) -> PyResult<(Option<u8>, bool, [i32; 4])> {
        let over = self.inner.step(m).py()?; // an illegal move is refused before it changes anything
        Ok((self.inner.to_act(), over, self.inner.returns()))
    }
}

#[pymethods]
impl SetbackGame {
    /// A new game: decks from `seed`, first dealer at `first_dealer` (default South), every card
    /// played out unless `play_out=False`.
    #[new]
    #[pyo3(signature = (seed = None, first_dealer = 3, play_out = true))]
    fn new(seed: Option<&Bound<'_, PyAny>>, first_dealer: u8, play_out: bool) -> PyResult<Self> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let inner = Game::new(seed, 0, first_dealer, play_out).py()?;
        Ok(SetbackGame { inner, rng: stream(seed, 0x706c_6179, 0, 0) })
    }
    /// Scores of team 0 (West+East) and team 1 (North+South).
    #[getter]
    fn scores(&self) -> (i32, i32) {
        let s = self.inner.scores();
        (s[0], s[1])
    }
    /// The winning team once the game is over.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.inner.winner()
    }
    /// Seat of the dealer.
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer()
    }
    /// Seat of the player to act (None when the deal or the game is over).
    #[getter]
    fn to_act(&self) -> Option<u8> {
        self.inner.to_act()
    }
    /// Whether the current deal is over (call `next_deal`).
    #[getter]
    fn deal_over(&self) -> bool {
        self.inner.deal_over()
    }
    /// Phase of the current deal.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.inner.deal().phase())
    }
    /// Seat of the high bidder of the current deal, if any.
    #[getter]
    fn high_bidder(&self) -> Option<u8> {
        self.inner.deal().high_bid().1.map(|p| self.inner.seat_of(p))
    }
    /// Points each team took in the current deal before the setback rule (None until decided).
    fn deal_points(&self) -> Option<(i32, i32)> {
        self.inner.deal_points().map(|s| (s[0], s[1]))
    }
    /// The view of the player at `seat`.
    fn view(&self, seat: u8) -> PyResult<SetbackView> {
        if seat > 3 {
            return Err(Error::invalid("seat", seat, "0 (West), 1 (North), 2 (East) or 3 (South)")).py();
        }
        Ok(SetbackView { inner: self.inner.view(seat) })
    }
    /// Bids for the player to act (0 = Pass, 2, 3, 4).
    fn bid(&mut self, bid: u8) -> PyResult<()> {
        self.inner.bid(bid).py()
    }
    /// Plays a card for the player to act, e.g. `"TD"`.
    fn play_card(&mut self, card: &str) -> PyResult<()> {
        let c = parse_card(card).py()?;
        self.inner.play_card(c).py()
    }
    /// Lets `agent` move for the player to act; returns `(seat, "bid", bid)` or
    /// `(seat, "card", name)`.
    fn agent_move(&mut self, py: Python<'_>, agent: &SetbackAgent) -> PyResult<(u8, &'static str, PyObject)> {
        let res = self.inner.agent_move(agent.inner.as_ref(), &mut self.rng);
        if let Some(e) = agent.take_error() {
            return Err(e);
        }
        let (seat, m) = res.py()?;
        let kind = if let Move::Bid(_) = m { "bid" } else { "card" };
        Ok((seat, kind, move_object(py, m)?))
    }
    /// For environments: game `index` of `seed` (decks from the stream `(seed, index)`, South
    /// dealing first, every card played out).
    #[staticmethod]
    #[pyo3(signature = (seed = None, index = None))]
    fn random(seed: Option<&Bound<'_, PyAny>>, index: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
        let index = index.map(|s| u64_arg(s, "index")).transpose()?.unwrap_or(0);
        let inner = Game::new(seed, index, 3, true).py()?;
        Ok(SetbackGame { inner, rng: stream(seed, 0x706c_6179, index, 0) })
    }
    /// Seat of the player to act (None when the game is over), as every game's `player`.
    #[getter]
    fn player(&self) -> Option<u8> {
        self.inner.to_act()
    }
    /// Whether the game is over: a team reached 11, or no team had after 1,000 deals (a draw).
    #[getter]
    fn finished(&self) -> bool {
        self.inner.over()
    }
    /// Each seat's result: 1 for the winning team's seats, -1 for the others; zeros before.
    fn returns(&self) -> [i32; 4] {
        self.inner.returns()
    }
    /// The legal action ids (0 pass, 1–3 the bids 2–4, then 4 + card) of the player to act.
    fn legal_action_ids(&self) -> Vec<u32> {
        self.inner.to_act().map(|s| actions::legal_ids(&self.inner.view(s))).unwrap_or_default()
    }
    /// For environments: the features (float32, `SETBACK_FEATURES` long) of `seat`'s view and
    /// its legal-action mask over the `SETBACK_NUM_ACTIONS` ids (all false unless it is to act).
    fn observe<'py>(&self, py: Python<'py>, seat: u8) -> PyResult<Observation<'py>> {
        let v = self.view(seat)?.inner;
        Ok(observation(py, features::features(&v), actions::legal_mask(&v)))
    }
    /// For environments: plays the legal action of id `id` (scoring a finished deal and dealing
    /// the next) and returns `(player, finished, returns)`. An illegal id raises
    /// `InvalidArgumentError` and changes nothing.
    fn step_id(&mut self, id: i64) -> PyResult<(Option<u8>, bool, [i32; 4])> {
        let m = usize::try_from(id)
            .ok()
            .and_then(actions::move_of)
            .ok_or_else(|| Error::invalid("action", id, format!("an action id 0..{}", actions::NUM_ACTIONS - 1)))
            .py()?;
        self.step_move(m)
    }
    /// Plays the move named `name` (`pass`, `2`, `3`, `4` or a card such as `TD`) like
    /// `step_id`.
    fn play(&mut self, name: &str) -> PyResult<(Option<u8>, bool, [i32; 4])> {
        let m = actions::move_named(name)
            .ok_or_else(|| Error::invalid("action", name, "pass, 2, 3, 4 or a card such as TD"))
            .py()?;
        self.step_move(m)
    }
    /// Scores the finished deal and deals the next one; returns the deal's record (dealer
    /// seat, hands by seat, bids, score by team).
    fn next_deal<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.inner.next_deal().py()?;
        record_dict(py, &r)
    }
}

/// Plays `pairs` duplicate pairs of `a` (West+East) against `b` with the GIL released, checking
/// for Ctrl-C (and a callable agent's exception) between chunks of pairs; returns the summary.
/// The pairs are `first_pair..first_pair + pairs`; `outcomes` adds each pair's outcome
/// (`outcomes`: A's wins, deals, A's and B's points), from which `setback_match_summary` makes
/// the summary of a match played in pieces; `progress(games done, games in all)` is called
/// between chunks.
#[pyfunction]
#[pyo3(signature = (a, b, pairs, seed = None, threads = None, first_pair = 0, outcomes = false, log = None, log_match = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn setback_match<'py>(
    py: Python<'py>,
    a: &SetbackAgent,
    b: &SetbackAgent,
    pairs: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    first_pair: u64,
    outcomes: bool,
    log: Option<&GameLogWriter>,
    log_match: Option<(u64, u64, u8, u8)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let pairs = u64_arg(pairs, "pairs")?;
    let seed = seed.map(|s| u64_arg(s, "seed")).transpose()?.unwrap_or(0);
    let threads = threads.map(threads_arg).transpose()?.unwrap_or(0);
    if pairs == 0 {
        return Err(Error::invalid("pairs", pairs, "a positive number of duplicate pairs")).py();
    }
    let end = first_pair
        .checked_add(pairs)
        .ok_or_else(|| Error::invalid("first_pair", first_pair, "pair indices under 2**64"))
        .py()?;
    let (ai, bi) = (a.inner.clone(), b.inner.clone());
    let log = log.map(|l| l.inner.clone());
    // The match's place in the log: alone, or (index, pairs per match, i, j) of a tournament.
    let slot = match (&log, log_match) {
        (None, _) => None,
        (Some(log), None) => Some(LogSlot::of_match(log)),
        (Some(log), Some((index, per, i, j))) => Some(
            LogSlot::of_tournament(log, index, per, i, j)
                .ok_or_else(|| Error::invalid("pairs", per, "fewer pairs per match"))
                .py()?,
        ),
    };
    // What stopped the match between chunks: Ctrl-C, or a callable agent's exception.
    let mut stopped: Option<PyErr> = None;
    let res = py.allow_threads(|| {
        let failed = || a.take_error().or_else(|| b.take_error());
        let mut between = between_chunks(failed, progress.as_ref(), &mut stopped);
        play_pairs_logged(ai.as_ref(), bi.as_ref(), first_pair..end, seed, threads, slot, &mut between)
    });
    if let Some(e) = stopped.or_else(|| a.take_error()).or_else(|| b.take_error()) {
        return Err(e);
    }
    let played = res.py()?;
    let d = summary_dict(py, &summarize(&played))?;
    d.set_item("threads", cfrkit_core::threads::resolve(threads).py()?)?;
    if outcomes {
        let rows: Vec<(u32, u32, i64, i64)> =
            played.iter().map(|o| (o.a_wins, o.deals, o.points[0], o.points[1])).collect();
        d.set_item("outcomes", rows)?;
    }
    Ok(d)
}

/// Self-play of `agent` on games `first_deal..first_deal + deals` of `seed`, each one game
/// with the agent in every seat (the first game of that duplicate pair of a match); `log`: a
/// writer from `setback_log_writer(..., selfplay=True)`. The figures as a self-play run merges
/// them: the games and their deals, and each seat's mean return (0: a game's returns sum to 0;
/// B played none).
#[pyfunction]
#[pyo3(signature = (agent, deals, seed = 0, threads = 0, progress = None, first_deal = 0, log = None))]
#[allow(clippy::too_many_arguments)]
fn setback_selfplay<'py>(
    py: Python<'py>,
    agent: &SetbackAgent,
    deals: u64,
    seed: u64,
    threads: usize,
    progress: Option<Py<PyAny>>,
    first_deal: u64,
    log: Option<&GameLogWriter>,
) -> PyResult<Bound<'py, PyDict>> {
    let games = cfrkit_core::trick::matches::deal_range(deals, first_deal).py()?;
    let threads = cfrkit_core::threads::resolve(threads).py()?;
    let inner = agent.inner.clone();
    let log = log.map(|l| l.inner.clone());
    let mut stopped: Option<PyErr> = None;
    let res = py.allow_threads(|| {
        let mut between = between_chunks(|| agent.take_error(), progress.as_ref(), &mut stopped);
        play_selfplay(inner.as_ref(), games, seed, threads, log.as_deref(), &mut between)
    });
    if let Some(e) = stopped.or_else(|| agent.take_error()) {
        return Err(e);
    }
    let played = res.py()?;
    let d = PyDict::new(py);
    d.set_item("deals", deals)?;
    d.set_item("games", deals)?;
    d.set_item("hands", played.iter().map(|&x| x as u64).sum::<u64>())?;
    // The figures of a match with the agent as A and no B (as every game's self-play gives).
    for key in ["mean_a", "sd_a", "mean_b", "sd_b"] {
        d.set_item(key, 0.0)?;
    }
    d.set_item("threads", threads)?;
    Ok(d)
}

/// A writer of a log of Setback games between `agents` with `seed` at `path`: a new log (a
/// file already there is refused), or (with `pairs_done` > 0, a checkpointed match going on)
/// the log there after the games of its first `pairs_done` pairs, or (with `piece`) a piece of
/// a log played on a cluster's worker, waiting for game `first_game`, in its scratch file. With
/// `selfplay` the log of one agent's self-play, one game per index (`pairs_done` counts games).
/// `resume`: a checkpointed run goes on (the log there is kept, cut after `pairs_done`, also 0).
#[pyfunction]
#[pyo3(signature = (path, agents, seed = 0, first_game = 0, pairs_done = 0, piece = false, selfplay = false, resume = false))]
#[allow(clippy::too_many_arguments)]
fn setback_log_writer(
    path: std::path::PathBuf,
    agents: Vec<String>,
    seed: u64,
    first_game: u64,
    pairs_done: u64,
    piece: bool,
    selfplay: bool,
    resume: bool,
) -> PyResult<GameLogWriter> {
    if selfplay {
        let [agent] = <[String; 1]>::try_from(agents)
            .map_err(|a| Error::invalid("agents", a.len(), "one agent for a self-play log"))
            .py()?;
        return GameLogWriter::open(path, &selfplay_log_header(agent, seed), pairs_done, resume);
    }
    let header = log_header(agents, seed);
    if piece {
        return GameLogWriter::piece(path, &header, first_game);
    }
    let keep = pairs_done.checked_mul(2).ok_or_else(|| Error::invalid("pairs_done", pairs_done, "fewer pairs")).py()?;
    GameLogWriter::open(path, &header, keep, resume)
}

/// The summary of a match played in pieces from its pairs' outcomes in pair order (the
/// pieces' `outcomes` joined): equal to that of the match played in one run.
#[pyfunction]
fn setback_match_summary<'py>(py: Python<'py>, outcomes: Vec<(u32, u32, i64, i64)>) -> PyResult<Bound<'py, PyDict>> {
    let outcomes: Vec<PairOutcome> =
        outcomes.into_iter().map(|(a_wins, deals, a, b)| PairOutcome { a_wins, deals, points: [a, b] }).collect();
    summary_dict(py, &summarize(&outcomes))
}

fn summary_dict<'py>(py: Python<'py>, s: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("pairs", s.pairs)?;
    d.set_item("games", s.games)?;
    d.set_item("a_wins", s.a_wins)?;
    d.set_item("win_rate", s.win_rate)?;
    d.set_item("ci", (s.ci[0], s.ci[1]))?;
    d.set_item("deals", s.deals)?;
    d.set_item("mean_points", (s.mean_points[0], s.mean_points[1]))?;
    d.set_item("margin", s.margin)?;
    d.set_item("margin_ci", (s.margin_ci[0], s.margin_ci[1]))?;
    Ok(d)
}

/// Registers this module's classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SetbackView>()?;
    m.add_class::<SetbackAgent>()?;
    m.add_class::<SetbackGame>()?;
    m.add("SETBACK_FEATURES", features::FEATURES)?;
    m.add("SETBACK_FEATURE_LAYOUT", features::LAYOUT.to_vec())?;
    m.add("SETBACK_NUM_ACTIONS", actions::NUM_ACTIONS)?;
    m.add("SETBACK_ACTION_NAMES", actions::action_names())?;
    m.add_function(wrap_pyfunction!(setback_match, m)?)?;
    m.add_function(wrap_pyfunction!(setback_match_summary, m)?)?;
    m.add_function(wrap_pyfunction!(setback_log_writer, m)?)?;
    m.add_function(wrap_pyfunction!(setback_selfplay, m)?)?;
    Ok(())
}

//! Bindings of Skat: a game a person or a program drives action by action, with its result in
//! list score and Seeger-Fabian points; the feature encoding and action ids for environments;
//! agents from spec strings; matches and tournaments with the GIL released. Names and checks
//! live in the core.

use crate::args::{opt_u64_arg, typed_arg};
use crate::callable::CallableAgent;
use crate::env::{observation, Observation};
use crate::errors::IntoPy;
use crate::matches::{agent_of, error_slot, PyAgent, PyGame};
use cfrkit_core::cards::CardSet;
use cfrkit_core::games::skat::agents::{Agent, Skat};
use cfrkit_core::games::skat::bidding::BID_VALUES;
use cfrkit_core::games::skat::cards::{name as card_name, names};
use cfrkit_core::games::skat::features::{self, FEATURES, LAYOUT, NUM_ACTIONS};
use cfrkit_core::games::skat::matches::CATEGORIES;
use cfrkit_core::games::skat::{registry, Action, Contract, Deal, Game, OwnedView, View};
use cfrkit_core::streams::stream;
use cfrkit_core::trick::act_checked;
use cfrkit_core::Error;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand_pcg::Pcg64;
use std::sync::Arc;

/// Domain tag of the streams of single agent moves ("skatmove").
const MOVES: u64 = 0x736b_6174_6d6f_7665;

/// A seat number 0, 1 or 2.
fn check_seat(seat: i64) -> PyResult<u8> {
    if (0..3).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(Error::invalid("seat", seat, "a seat 0, 1 or 2")).py()
    }
}

/// A game of Skat driven action by action (see `cfrkit.skat.Game`).
#[pyclass(module = "cfrkit._cfrkit", name = "SkatGame")]
#[derive(Clone)]
pub struct SkatGame {
    inner: Game,
}

fn card_list(set: CardSet) -> Vec<String> {
    names(set)
}

/// An action given as a name, or a bid value as an int; anything else is refused.
fn action_text(action: &Bound<'_, PyAny>) -> PyResult<String> {
    if action.is_instance_of::<pyo3::types::PyBool>() {
        return Err(Error::invalid("action", action, "an action name (str) or a bid value (int)")).py();
    }
    if let Ok(v) = action.extract::<i64>() {
        return Ok(v.to_string());
    }
    action.extract::<String>().or_else(|_| {
        let shown = action.repr().map(|r| r.to_string()).unwrap_or_default();
        Err(Error::invalid("action", shown, "an action name (str) or a bid value (int)")).py()
    })
}

impl SkatGame {
    /// The Python object of a game (e.g. one replayed from a record).
    pub fn from_game(inner: Game) -> SkatGame {
        SkatGame { inner }
    }
}

#[pymethods]
impl SkatGame {
    /// A game of the hands `hands` (three strings of ten card names: 0 Vorhand, 1 Mittelhand,
    /// 2 Hinterhand) and the skat `skat` (two card names).
    /// `rules` is `isko` (default) or `iss` (the ISS server's variant; docs/iss.md).
    #[new]
    #[pyo3(signature = (hands, skat, rules = "isko"))]
    fn new(hands: &Bound<'_, PyAny>, skat: &Bound<'_, PyAny>, rules: &str) -> PyResult<Self> {
        let hands: Vec<String> = typed_arg(hands, "hands", "a list of three hands of ten card names")?;
        let skat: String = typed_arg(skat, "skat", "the two skat cards, e.g. 'D7 D8'")?;
        let skat = skat.as_str();
        let rules = cfrkit_core::games::skat::Rules::parse(rules).py()?;
        Ok(SkatGame { inner: Game::with_rules(&Deal::parse(&hands, skat).py()?, rules) })
    }
    /// The rule set: `isko` or `iss`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.inner.rules().name()
    }
    /// Deal `index` of `seed`, from that index's own random stream.
    #[staticmethod]
    #[pyo3(signature = (seed = None, index = None))]
    fn random(seed: Option<&Bound<'_, PyAny>>, index: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (seed, index) = (opt_u64_arg(seed, "seed", 0)?, opt_u64_arg(index, "index", 0)?);
        Ok(SkatGame { inner: Game::new(&Deal::for_game(seed, index)) })
    }
    /// The seat to act (0 Vorhand, 1 Mittelhand, 2 Hinterhand), None when the game is finished.
    #[getter]
    fn player(&self) -> Option<u8> {
        self.inner.player()
    }
    /// `"bidding"`, `"skat"`, `"discard"`, `"declare"`, `"tricks"` or `"finished"`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().name()
    }
    /// Whether the game is over.
    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished()
    }
    /// The hands now, Vorhand first (the declarer holds twelve cards between pickup and discard).
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        (0..3).map(|p| card_list(self.inner.hand(p))).collect()
    }
    /// The hands as dealt, Vorhand first.
    #[getter]
    fn dealt_hands(&self) -> Vec<Vec<String>> {
        (0..3).map(|p| card_list(self.inner.dealt(p))).collect()
    }
    /// The original skat.
    #[getter]
    fn skat(&self) -> Vec<String> {
        card_list(self.inner.skat())
    }
    /// The two cards that count for the declarer once he chose: his discard after a pickup, the
    /// skat in a Hand game (empty before).
    #[getter]
    fn put_away(&self) -> Vec<String> {
        card_list(self.inner.put_away())
    }
    /// The highest value bid so far; once the auction is over the bid the declarer plays at
    /// (0 before any bid and when thrown in).
    #[getter]
    fn bid(&self) -> u16 {
        self.inner.bid()
    }
    /// The declarer once the auction is over (None before and when thrown in).
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.inner.declarer()
    }
    /// Whether everyone passed (the deal is thrown in).
    #[getter]
    fn thrown_in(&self) -> bool {
        self.inner.thrown_in()
    }
    /// True for a Hand game, False after a pickup, None before the declarer chose.
    #[getter]
    fn hand_game(&self) -> Option<bool> {
        self.inner.hand_game()
    }
    /// The contract once announced (`"clubs"`, `"grand hand schneider"`, `"null ouvert"`, …).
    #[getter]
    fn contract(&self) -> Option<String> {
        self.inner.contract().map(Contract::name)
    }
    /// The declarer's cards still in hand in an ouvert contract (public to everyone from the
    /// declaration on); None otherwise.
    #[getter]
    fn open_hand(&self) -> Option<Vec<String>> {
        self.inner.open_hand().map(card_list)
    }
    /// The tricks in play order, the current one as far as played.
    #[getter]
    fn tricks(&self) -> Vec<Vec<String>> {
        let n = self.inner.tricks_done() as usize + !self.inner.current_trick().is_empty() as usize;
        (0..n).map(|t| self.inner.trick(t).iter().map(|&c| card_name(c)).collect()).collect()
    }
    /// The leader of each trick so far.
    #[getter]
    fn trick_leaders(&self) -> Vec<u32> {
        let n = self.tricks().len();
        (0..n).map(|t| self.inner.trick_leader(t) as u32).collect()
    }
    /// The winner of each completed trick.
    #[getter]
    fn trick_winners(&self) -> Vec<u32> {
        (0..self.inner.tricks_done() as usize).filter_map(|t| self.inner.trick_winner(t)).map(u32::from).collect()
    }
    /// Completed tricks.
    #[getter]
    fn tricks_done(&self) -> u8 {
        self.inner.tricks_done()
    }
    /// The cards of the current trick in play order.
    #[getter]
    fn current_trick(&self) -> Vec<String> {
        self.inner.current_trick().iter().map(|&c| card_name(c)).collect()
    }
    /// Card points each seat took in tricks (the skat not included).
    #[getter]
    fn trick_points(&self) -> Vec<u32> {
        self.inner.trick_points().to_vec()
    }
    /// Tricks each seat took.
    #[getter]
    fn tricks_won(&self) -> Vec<u32> {
        self.inner.tricks_won().to_vec()
    }
    /// The actions so far as `(seat, name)`, in order.
    #[getter]
    fn history(&self) -> Vec<(u8, String)> {
        self.inner.history().iter().map(|&(p, a)| (p, a.name())).collect()
    }
    /// The legal actions of the seat to act, by name: `"pass"`, `"hold"`, bid values (`"18"`);
    /// `"hand"`, `"pickup"`; discards (`"SA ST"`); contracts; cards. Empty when finished.
    fn legal_actions(&self) -> Vec<String> {
        self.inner.legal_actions().iter().map(|a| a.name()).collect()
    }
    /// Plays `action` (a name, or a bid value as an int) for the seat to act. An illegal action
    /// raises `InvalidArgumentError` naming it, the reason and the legal actions; the game is
    /// unchanged.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = action_text(action)?;
        self.inner.apply_name(&text).py().map(|_| ())
    }
    /// Why `action` is illegal now, in words; None if it is legal.
    fn why_illegal(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let text = action_text(action)?;
        let mut probe = self.inner;
        Ok(probe.apply_name(&text).err().map(|e| e.to_string()))
    }
    /// The result once the game is over (None before): `declarer`, `contract`, `bid`,
    /// `declarer_points` (the skat included), `declarer_tricks`, `won`, `value`, `list_score`,
    /// `tp` (Seeger-Fabian points by seat). A thrown-in deal: `declarer` and `contract` None,
    /// the numbers 0, `won` False, `tp` [0, 0, 0].
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(r) = self.inner.result() else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("declarer", r.declarer)?;
        d.set_item("contract", r.contract.map(Contract::name))?;
        d.set_item("bid", r.bid)?;
        d.set_item("declarer_points", r.declarer_points)?;
        d.set_item("declarer_tricks", r.declarer_tricks)?;
        d.set_item("won", r.won())?;
        d.set_item("value", r.value())?;
        d.set_item("list_score", r.list_score())?;
        d.set_item("tp", r.tp.to_vec())?;
        Ok(Some(d))
    }
    /// Seeger-Fabian points per seat once the game is over (zeros before).
    fn returns(&self) -> Vec<i32> {
        self.inner.returns().to_vec()
    }
    /// The legal action ids of the seat to act, ascending (see `cfrkit.skat.ACTION_NAMES`).
    fn legal_action_ids(&self) -> Vec<usize> {
        self.inner.player().map_or(Vec::new(), |p| features::legal_ids(&View::new(&self.inner, p)))
    }
    /// The legal-action mask (bool, 624) of the seat to act (all false when finished).
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mask =
            self.inner.player().map_or(vec![false; NUM_ACTIONS], |p| features::legal_mask(&View::new(&self.inner, p)));
        PyArray1::from_vec(py, mask)
    }
    /// The feature encoding (float32, 561) of `seat`'s view (see `cfrkit.skat.FEATURE_LAYOUT`).
    fn features<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(PyArray1::from_vec(py, features::features(&View::new(&self.inner, check_seat(seat)?))))
    }
    /// For environments: the features of `seat` and its legal mask (all false unless `seat` is
    /// to act).
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        let v = View::new(&self.inner, check_seat(seat)?);
        Ok(observation(py, features::features(&v), features::legal_mask(&v)))
    }
    /// For environments: plays the legal action of id `id` (0–623) and returns `(player,
    /// finished, returns)`. An illegal id raises `InvalidArgumentError` and changes nothing.
    fn step_id(&mut self, id: i64) -> PyResult<(Option<u8>, bool, [i32; 3])> {
        let a = usize::try_from(id)
            .ok()
            .and_then(features::action_of)
            .ok_or_else(|| Error::invalid("action", id, format!("an action id 0..{}", NUM_ACTIONS - 1)))
            .py()?;
        self.inner.apply(a).py()?;
        Ok((self.inner.player(), self.inner.finished(), self.inner.returns()))
    }
    /// Lets `agent` act for the seat to act; returns `(seat, action name)`. `seed` seeds the
    /// agent's random choices (with the number of actions taken, so every decision has its own
    /// stream).
    #[pyo3(signature = (agent, seed = None))]
    fn agent_move(
        &mut self,
        py: Python<'_>,
        agent: &SkatAgent,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u8, String)> {
        let seed = opt_u64_arg(seed, "seed", 0)?;
        let Some(p) = self.inner.player() else {
            return Err(Error::invalid("agent_move", "a finished game", "a game with a seat to act")).py();
        };
        let steps = self.inner.history().len() as u64;
        let a = agent.decide(py, View::new(&self.inner, p).to_owned(), &mut stream(seed, MOVES, steps, 0))?;
        self.inner.apply(a).py()?;
        Ok((p, a.name()))
    }
    /// What seat `seat` sees (a `SkatView`, the argument of a callable agent).
    fn view(&self, seat: i64) -> PyResult<SkatView> {
        Ok(SkatView { inner: View::new(&self.inner, check_seat(seat)?).to_owned() })
    }
    /// A copy of the game.
    fn copy(&self) -> Self {
        self.clone()
    }
    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
    fn __eq__(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
    fn __repr__(&self) -> String {
        format!(
            "skat.Game(phase={:?}, player={:?}, bid={}, declarer={:?}, contract={:?})",
            self.inner.phase().name(),
            self.inner.player(),
            self.inner.bid(),
            self.inner.declarer(),
            self.inner.contract().map(Contract::name)
        )
    }
}

/// What one seat of a Skat game sees: its own cards, the bidding, the declaration, the tricks
/// played, and its legal actions when it is to act (never another seat's cards, nor the skat
/// unless this seat is the declarer who took it up or put it away).
#[pyclass(module = "cfrkit._cfrkit", name = "SkatView", frozen)]
#[derive(Clone)]
pub struct SkatView {
    inner: OwnedView,
}

#[pymethods]
impl SkatView {
    /// The viewing seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand).
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.view().seat()
    }
    /// Whether the viewing seat is to act.
    #[getter]
    fn to_act(&self) -> bool {
        self.inner.view().to_act()
    }
    /// The seat to act (None when the game is over).
    #[getter]
    fn player(&self) -> Option<u8> {
        self.inner.view().player()
    }
    /// The phase (`bidding`, `skat`, `discard`, `declare`, `tricks`, `finished`).
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.view().phase().name()
    }
    /// The cards the seat holds.
    #[getter]
    fn hand(&self) -> Vec<String> {
        card_list(self.inner.view().hand())
    }
    /// The cards the seat was dealt.
    #[getter]
    fn dealt_hand(&self) -> Vec<String> {
        card_list(self.inner.view().dealt_hand())
    }
    /// The skat, if this seat has seen it (the declarer after a pickup; everyone at the end).
    #[getter]
    fn skat(&self) -> Option<Vec<String>> {
        self.inner.view().skat().map(card_list)
    }
    /// The bid reached so far (0 before the first).
    #[getter]
    fn bid(&self) -> u16 {
        self.inner.view().bid()
    }
    /// The declarer, once the bidding is over.
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.inner.view().declarer()
    }
    /// The contract, once declared.
    #[getter]
    fn contract(&self) -> Option<String> {
        self.inner.view().contract().map(Contract::name)
    }
    /// The open hand of an ouvert declarer, once shown.
    #[getter]
    fn open_hand(&self) -> Option<Vec<String>> {
        self.inner.view().open_hand().map(card_list)
    }
    /// Tricks completed.
    #[getter]
    fn tricks_done(&self) -> u8 {
        self.inner.view().tricks_done()
    }
    /// The cards of the trick under way, in play order.
    #[getter]
    fn current_trick(&self) -> Vec<String> {
        self.inner.view().current_trick().iter().map(|&c| card_name(c)).collect()
    }
    /// The actions this seat has seen, as `(seat, name)`: all but the declarer's discard, which
    /// only the declarer sees (everyone once the game is over).
    #[getter]
    fn history(&self) -> Vec<(u8, String)> {
        self.inner.view().history().iter().map(|&(p, a)| (p, a.name())).collect()
    }
    /// The legal actions by name (empty unless the seat is to act).
    fn legal_actions(&self) -> Vec<String> {
        let v = self.inner.view();
        if !v.to_act() {
            return Vec::new();
        }
        v.legal_actions().iter().map(|a| a.name()).collect()
    }
    /// The feature encoding (float32) of the view.
    fn features<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_vec(py, features::features(&self.inner.view()))
    }
    /// Why `action` (a name, or a bid value as an int) would be illegal for this seat now, in
    /// words; None if it is legal.
    fn why_illegal(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let v = self.inner.view();
        if !v.to_act() {
            return Ok(Some(format!("seat {} is not to act", v.seat())));
        }
        // A name that is no action of this phase is illegal too (as `Game.why_illegal` says).
        match Action::parse(&action_text(action)?, v.phase()) {
            Ok(a) => Ok(v.why_illegal(a)),
            Err(e) => Ok(Some(e.to_string())),
        }
    }
    fn __repr__(&self) -> String {
        let v = self.inner.view();
        format!(
            "skat.View(seat={}, phase={:?}, hand={:?}, current_trick={:?})",
            v.seat(),
            v.phase().name(),
            card_list(v.hand()),
            v.current_trick().iter().map(|&c| card_name(c)).collect::<Vec<_>>()
        )
    }
}

/// An action of the view's seat from a name or a bid value (its legality is checked apart).
fn parse_action(view: &View<'_>, action: &Bound<'_, PyAny>) -> PyResult<Action> {
    Action::parse(&action_text(action)?, view.phase()).py()
}

/// A Skat agent: from a spec string (`random`, `rules`, `pimc`, …) or a Python callable.
#[pyclass(module = "cfrkit._cfrkit", name = "SkatAgent", frozen)]
#[derive(Clone)]
pub struct SkatAgent {
    inner: Arc<dyn Agent<Skat>>,
    callable: Option<Arc<CallableAgent<Skat>>>,
}

impl SkatAgent {
    /// Re-raises the first exception of a callable agent, if any.
    fn take_error(&self) -> Option<PyErr> {
        self.callable.as_ref().and_then(|c| c.take_error())
    }

    /// The agent's checked action for the view's seat (to act), its choices drawn from `rng`.
    fn decide(&self, py: Python<'_>, view: OwnedView, rng: &mut Pcg64) -> PyResult<Action> {
        let agent = self.inner.clone();
        let res = py.allow_threads(|| act_checked(agent.as_ref(), &view.view(), rng));
        if let Some(e) = self.take_error() {
            return Err(e);
        }
        res.py()
    }
}

#[pymethods]
impl SkatAgent {
    /// An agent from a spec string (see `cfrkit.skat.AGENT_SPECS`).
    #[staticmethod]
    fn from_spec(spec: &str) -> PyResult<Self> {
        Ok(SkatAgent { inner: registry::parse(spec).py()?, callable: None })
    }
    /// An agent calling `func(view)` (a `SkatView` of the seat to act) for an action name or a
    /// bid value; `name` labels it in reports.
    #[staticmethod]
    #[pyo3(signature = (func, name = None))]
    fn from_callable(py: Python<'_>, func: Py<PyAny>, name: Option<String>) -> PyResult<Self> {
        let c = Arc::new(CallableAgent::new(py, func, name, registry::SPECS)?);
        Ok(SkatAgent { inner: c.clone(), callable: Some(c) })
    }
    /// The agent's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
    /// The agent's action (a name) for `view`, whose seat is to act; `seed` seeds its random
    /// choices.
    #[pyo3(signature = (view, seed = None))]
    fn act(&self, py: Python<'_>, view: &SkatView, seed: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let seed = opt_u64_arg(seed, "seed", 0)?;
        let v = view.inner.view();
        if !v.to_act() {
            return Err(Error::invalid("view", format!("seat {}", v.seat()), "a view of the seat to act")).py();
        }
        let steps = v.history().len() as u64;
        Ok(self.decide(py, view.inner, &mut stream(seed, MOVES, steps, 1))?.name())
    }
    fn __repr__(&self) -> String {
        format!("skat.Agent({:?})", self.inner.name())
    }
}

impl PyGame for Skat {
    const ACTIONS: &'static str = "an action name (str) or a bid value (int)";
    fn view_object(py: Python<'_>, view: &View<'_>) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, SkatView { inner: view.to_owned() })?.into_any())
    }
    fn parse_action(view: &View<'_>, answer: &Bound<'_, PyAny>) -> PyResult<Action> {
        parse_action(view, answer)
    }
    fn agent(obj: &Bound<'_, PyAny>) -> PyResult<PyAgent<Skat>> {
        let agent = agent_of::<Skat, SkatAgent>(obj)?;
        Ok(PyAgent { error: error_slot(&agent.callable), inner: agent.inner })
    }
    fn parse_spec(spec: &str) -> cfrkit_core::Result<Arc<dyn Agent<Skat>>> {
        registry::parse(spec)
    }
    fn game_object(py: Python<'_>, state: Game) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, SkatGame { inner: state })?.into_any())
    }
}

/// Registers the Skat classes, functions and constants.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SkatGame>()?;
    m.add_class::<SkatAgent>()?;
    m.add_class::<SkatView>()?;
    m.add("SKAT_FEATURES", FEATURES)?;
    m.add("SKAT_FEATURE_LAYOUT", LAYOUT.to_vec())?;
    m.add("SKAT_NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("SKAT_AGENT_SPECS", registry::SPECS)?;
    m.add("SKAT_CATEGORIES", CATEGORIES.to_vec())?;
    let names: Vec<String> =
        (0..NUM_ACTIONS).map(|i| features::action_of(i).map_or_else(String::new, |a| a.name())).collect();
    m.add("SKAT_ACTION_NAMES", names)?;
    m.add("SKAT_BID_VALUES", BID_VALUES.to_vec())?;
    m.add("SKAT_CONTRACTS", Contract::ALL.iter().map(|c| c.name()).collect::<Vec<_>>())?;
    Ok(())
}

//! Bindings of Schafkopf: games a person or a program drives action by action, seat views,
//! the feature encoding, agents (spec strings or Python callables), and matches and
//! tournaments with the GIL released. Names and checks live in the core.

use crate::args::{opt_u64_arg, typed_arg};
use crate::callable::CallableAgent;
use crate::env::{observation, Observation};
use crate::errors::IntoPy;
use crate::matches::{agent_of, error_slot, PyAgent, PyGame};
use cfrkit_core::cards::CardSet;
use cfrkit_core::games::schafkopf::agents::{Agent, Schafkopf};
use cfrkit_core::games::schafkopf::cards::{name as card_name, names};
use cfrkit_core::games::schafkopf::features::{self, FEATURES, LAYOUT};
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::rules::Rules;
use cfrkit_core::games::schafkopf::{Action, Deal, Game, OwnedView, Phase, View, NUM_ACTIONS};
use cfrkit_core::streams::stream;
use cfrkit_core::trick::act_checked;
use cfrkit_core::Error;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand_pcg::Pcg64;
use std::sync::Arc;

fn card_list(set: CardSet) -> Vec<String> {
    names(set)
}

fn opt_name<T>(x: Option<T>, f: impl Fn(T) -> String) -> Option<String> {
    x.map(f)
}

/// The tricks of a game in play order (the current one as far as played).
fn tricks_of(g: &View) -> Vec<Vec<String>> {
    let n = (g.tricks_done() as usize + (g.phase() == Phase::Tricks) as usize).min(8);
    (0..n).map(|t| g.trick(t).iter().map(|&c| card_name(c)).collect()).collect()
}

/// The tricks of a game by seat: `[trick][seat]`, None where not (yet) played.
fn tricks_by_seat(g: &View) -> Vec<[Option<String>; 4]> {
    let n = (g.tricks_done() as usize + (g.phase() == Phase::Tricks) as usize).min(8);
    (0..n)
        .map(|t| {
            let mut row: [Option<String>; 4] = Default::default();
            for (i, &c) in g.trick(t).iter().enumerate() {
                row[g.seat_of(t, i) as usize] = Some(card_name(c));
            }
            row
        })
        .collect()
}

fn check_seat(seat: u8) -> PyResult<u8> {
    if seat > 3 {
        return Err(Error::invalid("seat", seat, "a seat 0, 1, 2 or 3")).py();
    }
    Ok(seat)
}

fn features_array<'py>(py: Python<'py>, view: &View) -> Bound<'py, PyArray1<f32>> {
    PyArray1::from_vec(py, features::features(view))
}

fn mask_of(mask: u64) -> Vec<bool> {
    (0..NUM_ACTIONS).map(|i| mask & (1 << i) != 0).collect()
}

fn mask_array<'py>(py: Python<'py>, mask: u64) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, mask_of(mask))
}

/// Getters shared by `SchafkopfGame` and `SchafkopfView` (everything public about a game).
macro_rules! public_getters {
    ($t:ty, $g:ident => $game:expr, { $($extra:tt)* }) => {
        #[pymethods]
        impl $t {
            $($extra)*

            /// The seat to act (0–3), None when the game is finished.
            #[getter]
            fn player(&self) -> Option<u8> {
                let $g = self;
                $game.player()
            }
            /// `"bidding"`, `"contra"`, `"retour"`, `"tricks"` or `"finished"`.
            #[getter]
            fn phase(&self) -> &'static str {
                let $g = self;
                $game.phase().name()
            }
            /// Whether the game is over.
            #[getter]
            fn finished(&self) -> bool {
                let $g = self;
                $game.finished()
            }
            /// The dealer's seat.
            #[getter]
            fn dealer(&self) -> u8 {
                let $g = self;
                $game.dealer()
            }
            /// The seat after the dealer: it declares first and leads the first trick.
            #[getter]
            fn first_player(&self) -> u8 {
                let $g = self;
                $game.first_player()
            }
            /// The rule set: `"schafkopfrl"` or `"standard"`.
            #[getter]
            fn rules(&self) -> &'static str {
                let $g = self;
                $game.rules().name()
            }
            /// Each seat's declaration (`"pass"`, `"sauspiel:G"`, …; None until made).
            #[getter]
            fn bids(&self) -> Vec<Option<String>> {
                let $g = self;
                $game.bids().iter().map(|d| opt_name(*d, |d| d.name())).collect()
            }
            /// The contract once the auction is over (`"sauspiel:G"`, `"wenz"`, `"solo:E"`, or
            /// `"passed"` for SchafkopfRL's play-out after four passes); None before, and after four
            /// passes under the standard rules.
            #[getter]
            fn contract(&self) -> Option<String> {
                let $g = self;
                opt_name($game.contract(), |c| c.name())
            }
            /// The declarer ("game player") once the auction is over.
            #[getter]
            fn declarer(&self) -> Option<u8> {
                let $g = self;
                $game.declarer()
            }
            /// Each seat's contra answer (None until asked).
            #[getter]
            fn contra(&self) -> Vec<Option<bool>> {
                let $g = self;
                $game.contra().to_vec()
            }
            /// Each seat's retour answer (None until asked; asked only after a contra).
            #[getter]
            fn retour(&self) -> Vec<Option<bool>> {
                let $g = self;
                $game.retour().to_vec()
            }
            /// The tricks in play order, the current one as far as played.
            #[getter]
            fn tricks(&self) -> Vec<Vec<String>> {
                let $g = self;
                tricks_of(&$game)
            }
            /// The tricks by seat: `tricks_by_seat[t][seat]`, None where not played.
            #[getter]
            fn tricks_by_seat(&self) -> Vec<[Option<String>; 4]> {
                let $g = self;
                tricks_by_seat(&$game)
            }
            /// The leader of each trick so far.
            #[getter]
            fn trick_leaders(&self) -> Vec<u32> {
                let $g = self;
                let n = tricks_of(&$game).len();
                (0..n).map(|t| $game.trick_leader(t) as u32).collect()
            }
            /// The winner of each completed trick.
            #[getter]
            fn trick_winners(&self) -> Vec<u32> {
                let $g = self;
                (0..$game.tricks_done() as usize).filter_map(|t| $game.trick_winner(t)).map(u32::from).collect()
            }
            /// Completed tricks.
            #[getter]
            fn tricks_done(&self) -> u8 {
                let $g = self;
                $game.tricks_done()
            }
            /// The cards of the current trick in play order.
            #[getter]
            fn current_trick(&self) -> Vec<String> {
                let $g = self;
                $game.current_trick().iter().map(|&c| card_name(c)).collect()
            }
            /// Card points each seat has taken.
            #[getter]
            fn scores(&self) -> Vec<u32> {
                let $g = self;
                $game.scores().to_vec()
            }
            /// Tricks each seat has taken.
            #[getter]
            fn tricks_won(&self) -> Vec<u32> {
                let $g = self;
                $game.tricks_won().to_vec()
            }
            /// The seat that ran away from the called Ace ("davongelaufen"), if any.
            #[getter]
            fn davongelaufen(&self) -> Option<u8> {
                let $g = self;
                $game.davongelaufen()
            }
            /// Cards played by `seat`.
            fn played_by(&self, seat: u8) -> PyResult<Vec<String>> {
                let $g = self;
                Ok(card_list($game.played_by(check_seat(seat)?)))
            }
            /// Every card played so far.
            #[getter]
            fn played(&self) -> Vec<String> {
                let $g = self;
                card_list($game.played())
            }
            /// Decisions taken so far, each as `(seat, action)`.
            fn history(&self) -> Vec<(u8, String)> {
                let $g = self;
                let mut out = Vec::new();
                let mut phase = Phase::Bidding;
                let g = &$game;
                let bids = g.bids().iter().filter(|b| b.is_some()).count();
                let contras = g.contra().iter().filter(|b| b.is_some()).count();
                for (i, (p, a)) in g.history().into_iter().enumerate() {
                    if i >= bids {
                        phase = if i < bids + contras { Phase::Contra } else { Phase::Retour };
                    }
                    out.push((p, a.name_in(phase)));
                }
                out
            }
            /// Payments in cents per seat once the game is over (zeros before).
            fn returns(&self) -> Vec<i32> {
                let $g = self;
                $game.returns().to_vec()
            }
            /// How the payment is made up once the game is over (None before): contract, team
            /// seats, team points, won, schneider, schwarz, laufende, doublings, value, payments.
            fn settlement<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
                let $g = self;
                let Some(s) = $game.settlement() else { return Ok(None) };
                let d = PyDict::new(py);
                d.set_item("contract", s.contract.map(|c| c.name()))?;
                d.set_item("team", (0..4u32).filter(|p| s.team & (1 << p) != 0).collect::<Vec<_>>())?;
                d.set_item("team_points", s.team_points)?;
                d.set_item("won", s.won)?;
                d.set_item("schneider", s.schneider)?;
                d.set_item("schwarz", s.schwarz)?;
                d.set_item("laufende", s.laufende)?;
                d.set_item("laufende_paid", s.laufende_paid)?;
                d.set_item("doublings", s.doublings)?;
                d.set_item("value", s.value)?;
                d.set_item("payments", s.payments.to_vec())?;
                Ok(Some(d))
            }
        }
    };
}

/// A game of Schafkopf driven action by action (see `cfrkit.schafkopf.Game`).
#[pyclass(module = "cfrkit._cfrkit", name = "SchafkopfGame")]
#[derive(Clone)]
pub struct SchafkopfGame {
    pub(crate) inner: Game,
}

/// Parses an action given as a name (of any phase, so that the game can say which phase it is)
/// or an id; a bad name or id is refused with the legal actions of `view`'s seat to act.
fn parse_action(view: &View, action: &Bound<'_, PyAny>) -> PyResult<Action> {
    let legal = || {
        let names: Vec<String> = view.legal_actions().iter().map(|a| a.name_in(view.phase())).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    if action.is_instance_of::<pyo3::types::PyBool>() {
        return Err(Error::invalid("action", action, "an action name (str) or id (int 0..42)")).py();
    }
    if let Ok(id) = action.extract::<i64>() {
        return u8::try_from(id)
            .ok()
            .and_then(Action::from_id)
            .ok_or_else(|| Error::invalid("action", id, format!("an action id 0..42; legal actions: {}", legal())))
            .py();
    }
    let Ok(text) = action.extract::<String>() else {
        let shown = action.repr().map(|r| r.to_string()).unwrap_or_default();
        return Err(Error::invalid("action", shown, "an action name (str) or id (int 0..42)")).py();
    };
    Action::parse(&text, view.phase())
        .or_else(|e| {
            [Phase::Bidding, Phase::Contra, Phase::Retour, Phase::Tricks]
                .into_iter()
                .find_map(|p| Action::parse(&text, p).ok())
                .ok_or(e)
        })
        .map_err(|e| match e {
            Error::InvalidValue { what, value, allowed } => {
                Error::InvalidValue { what, value, allowed: format!("{allowed}; legal actions: {}", legal()) }
            }
            e => e,
        })
        .py()
}

public_getters!(SchafkopfGame, g => View::new(&g.inner, 0), {
    /// A game of the hands `hands` (four strings of eight card names, seat 0 first) dealt by
    /// `dealer`, under `rules` (`"schafkopfrl"` or `"standard"`).
    #[new]
    #[pyo3(signature = (hands, dealer, rules = "schafkopfrl"))]
    fn new(hands: &Bound<'_, PyAny>, dealer: &Bound<'_, PyAny>, rules: &str) -> PyResult<Self> {
        let hands: Vec<String> = typed_arg(hands, "hands", "a list of four hands of eight card names")?;
        let dealer: u8 = typed_arg(dealer, "dealer", "a seat from 0 to 3")?;
        let rules = Rules::parse(rules).py()?;
        let deal = Deal::parse(&hands, dealer).py()?;
        Ok(SchafkopfGame { inner: Game::new(&deal, rules) })
    }
    /// Deal `index` of `seed` (the deals of matches with that seed), under `rules`.
    #[staticmethod]
    #[pyo3(signature = (seed = None, rules = "schafkopfrl", index = None))]
    fn random(seed: Option<&Bound<'_, PyAny>>, rules: &str, index: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (seed, index) = (opt_u64_arg(seed, "seed", 0)?, opt_u64_arg(index, "index", 0)?);
        let rules = Rules::parse(rules).py()?;
        Ok(SchafkopfGame { inner: Game::new(&Deal::for_game(seed, index), rules) })
    }
    /// The hands now, seat 0 first.
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        (0..4).map(|p| card_list(self.inner.hand(p))).collect()
    }
    /// The hands as dealt, seat 0 first.
    #[getter]
    fn dealt_hands(&self) -> Vec<Vec<String>> {
        (0..4).map(|p| card_list(self.inner.dealt(p))).collect()
    }
    /// The legal actions of the seat to act, by name, in SchafkopfRL's order.
    fn legal_actions(&self) -> Vec<String> {
        self.inner.legal_actions().iter().map(|a| a.name_in(self.inner.phase())).collect()
    }
    /// The legal actions of the seat to act, by id (0–42).
    fn legal_action_ids(&self) -> Vec<u32> {
        self.inner.legal_actions().iter().map(|a| a.id() as u32).collect()
    }
    /// The legal actions as a boolean mask over the 43 action ids.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, self.inner.legal_mask())
    }
    /// Plays `action` (a name such as `"sauspiel:G"`, `"no"`, `"H10"`, or an id 0–42) for the seat
    /// to act. An illegal action raises `InvalidArgumentError` naming it, the reason and the
    /// legal actions; the game is unchanged.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = parse_action(&self.public(), action)?;
        self.inner.apply(a).py()
    }
    /// Why `action` is illegal now, in words; None if it is legal.
    fn why_illegal(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let a = parse_action(&self.public(), action)?;
        Ok(self.inner.why_illegal(a))
    }
    /// The view of `seat`: its hand and the public state.
    fn view(&self, seat: u8) -> PyResult<SchafkopfView> {
        Ok(SchafkopfView { inner: View::new(&self.inner, check_seat(seat)?).to_owned() })
    }
    /// The feature encoding (float32, 674) of `seat`'s view (see `cfrkit.schafkopf.FEATURE_LAYOUT`).
    fn features<'py>(&self, py: Python<'py>, seat: u8) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(features_array(py, &View::new(&self.inner, check_seat(seat)?)))
    }
    /// For environments: plays the legal action `id` (0–42) and returns `(player, finished,
    /// returns)`.
    fn step_id(&mut self, id: u8) -> PyResult<(Option<u8>, bool, [i32; 4])> {
        let a = Action::from_id(id).ok_or_else(|| Error::invalid("action", id, "an action id 0..42")).py()?;
        self.inner.apply(a).py()?;
        Ok((self.inner.player(), self.inner.finished(), self.inner.returns()))
    }
    /// For environments: the features of `seat` and the legal mask (all false unless `seat` is
    /// to act).
    fn observe<'py>(&self, py: Python<'py>, seat: u8) -> PyResult<Observation<'py>> {
        let v = View::new(&self.inner, check_seat(seat)?);
        Ok(observation(py, features::features(&v), mask_of(v.legal_mask())))
    }
    /// Lets `agent` act for the seat to act; returns `(seat, action name)`. `seed` seeds the
    /// agent's random choices (with the number of steps taken, so every decision has its own
    /// stream).
    #[pyo3(signature = (agent, seed = None))]
    fn agent_move(
        &mut self,
        py: Python<'_>,
        agent: &SchafkopfAgent,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u8, String)> {
        let seed = opt_u64_arg(seed, "seed", 0)?;
        let Some(p) = self.inner.player() else {
            return Err(Error::invalid("agent_move", "a finished game", "a game with a seat to act")).py();
        };
        let view = View::new(&self.inner, p).to_owned();
        let a = agent.decide(py, view, &mut stream(seed, MOVES, self.inner.steps() as u64, 0))?;
        let phase = self.inner.phase();
        self.inner.apply(a).py()?;
        Ok((p, a.name_in(phase)))
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
            "schafkopf.Game(phase={:?}, player={:?}, contract={:?}, scores={:?})",
            self.inner.phase().name(),
            self.inner.player(),
            self.inner.contract().map(|c| c.name()),
            self.inner.scores()
        )
    }
});

impl SchafkopfGame {
    /// The public side of the game (seat 0's view, whose public parts every seat shares).
    fn public(&self) -> View<'_> {
        View::new(&self.inner, self.inner.player().unwrap_or(0))
    }
}

/// Domain tag of `agent_move`'s streams ("move").
const MOVES: u64 = 0x6d6f_7665;

/// What one seat sees of a game: its hand and the public state.
#[pyclass(module = "cfrkit._cfrkit", name = "SchafkopfView", frozen)]
#[derive(Clone)]
pub struct SchafkopfView {
    inner: OwnedView,
}

public_getters!(SchafkopfView, v => v.inner.view(), {
    /// The viewing seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.view().seat()
    }
    /// Whether the viewing seat is to act.
    #[getter]
    fn to_act(&self) -> bool {
        self.inner.view().to_act()
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
    /// The legal actions by name (empty unless the seat is to act).
    fn legal_actions(&self) -> Vec<String> {
        let v = self.inner.view();
        v.legal_actions().iter().map(|a| a.name_in(v.phase())).collect()
    }
    /// The legal actions by id (empty unless the seat is to act).
    fn legal_action_ids(&self) -> Vec<u32> {
        self.inner.view().legal_actions().iter().map(|a| a.id() as u32).collect()
    }
    /// The legal actions as a boolean mask over the 43 action ids.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, self.inner.view().legal_mask())
    }
    /// The feature encoding (float32, 674) of the view.
    fn features<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        features_array(py, &self.inner.view())
    }
    /// Why `action` would be illegal for this seat now, in words; None if it is legal.
    fn why_illegal(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let v = self.inner.view();
        if !v.to_act() {
            return Ok(Some(format!("seat {} is not to act", v.seat())));
        }
        let a = parse_action(&v, action)?;
        Ok(v.why_illegal(a))
    }
    /// The view as a plain dict (SchafkopfRL's observation fields under this API's names).
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let d = PyDict::new(py);
        for key in [
            "seat",
            "player",
            "phase",
            "rules",
            "dealer",
            "first_player",
            "hand",
            "dealt_hand",
            "bids",
            "contract",
            "declarer",
            "contra",
            "retour",
            "tricks",
            "tricks_by_seat",
            "trick_leaders",
            "trick_winners",
            "tricks_done",
            "current_trick",
            "scores",
            "tricks_won",
            "davongelaufen",
        ] {
            d.set_item(key, slf.getattr(key)?)?;
        }
        d.set_item("legal_actions", slf.call_method0("legal_actions")?)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let v = self.inner.view();
        format!(
            "schafkopf.View(seat={}, phase={:?}, hand={:?}, current_trick={:?})",
            v.seat(),
            v.phase().name(),
            card_list(v.hand()),
            v.current_trick().iter().map(|&c| card_name(c)).collect::<Vec<_>>()
        )
    }
});

/// A Schafkopf agent: from a spec string (`random`, `random-coward`, `rules`) or a callable.
#[pyclass(module = "cfrkit._cfrkit", name = "SchafkopfAgent", frozen)]
#[derive(Clone)]
pub struct SchafkopfAgent {
    inner: Arc<dyn Agent<Schafkopf>>,
    callable: Option<Arc<CallableAgent<Schafkopf>>>,
}

impl SchafkopfAgent {
    /// Re-raises the first exception of a callable agent, if any.
    fn take_error(&self) -> Option<PyErr> {
        self.callable.as_ref().and_then(|c| c.take_error())
    }

    /// The agent's checked action for the view's seat (to act).
    fn decide(&self, py: Python<'_>, view: OwnedView, rng: &mut Pcg64) -> PyResult<Action> {
        let agent = self.inner.clone();
        let res = py.allow_threads(|| {
            let v = view.view();
            act_checked(agent.as_ref(), &v, rng)
        });
        if let Some(e) = self.take_error() {
            return Err(e);
        }
        res.py()
    }
}

#[pymethods]
impl SchafkopfAgent {
    /// An agent from a spec string.
    #[staticmethod]
    fn from_spec(spec: &str) -> PyResult<Self> {
        Ok(SchafkopfAgent { inner: registry::parse(spec).py()?, callable: None })
    }
    /// An agent calling `func(view)`; `name` labels it in reports.
    #[staticmethod]
    #[pyo3(signature = (func, name = None))]
    fn from_callable(py: Python<'_>, func: Py<PyAny>, name: Option<String>) -> PyResult<Self> {
        let c = Arc::new(CallableAgent::new(py, func, name, registry::SPECS)?);
        Ok(SchafkopfAgent { inner: c.clone(), callable: Some(c) })
    }
    /// The agent's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
    /// The agent's action (a name) for `view`, whose seat is to act; `seed` seeds its random
    /// choices.
    #[pyo3(signature = (view, seed = None))]
    fn act(&self, py: Python<'_>, view: &SchafkopfView, seed: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let seed = opt_u64_arg(seed, "seed", 0)?;
        let v = view.inner.view();
        if !v.to_act() {
            return Err(Error::invalid("view", format!("seat {}", v.seat()), "a view of the seat to act")).py();
        }
        let a = self.decide(py, view.inner, &mut stream(seed, MOVES, v.steps() as u64, 1))?;
        Ok(a.name_in(v.phase()))
    }
    fn __repr__(&self) -> String {
        format!("schafkopf.Agent({:?})", self.inner.name())
    }
}

impl PyGame for Schafkopf {
    const ACTIONS: &'static str = "an action name (str) or id (int)";
    fn view_object(py: Python<'_>, view: &View<'_>) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, SchafkopfView { inner: view.to_owned() })?.into_any())
    }
    fn parse_action(view: &View<'_>, answer: &Bound<'_, PyAny>) -> PyResult<Action> {
        parse_action(view, answer)
    }
    fn agent(obj: &Bound<'_, PyAny>) -> PyResult<PyAgent<Schafkopf>> {
        let agent = agent_of::<Schafkopf, SchafkopfAgent>(obj)?;
        Ok(PyAgent { error: error_slot(&agent.callable), inner: agent.inner })
    }
    fn parse_spec(spec: &str) -> cfrkit_core::Result<Arc<dyn Agent<Schafkopf>>> {
        registry::parse(spec)
    }
    fn game_object(py: Python<'_>, state: Game) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, SchafkopfGame { inner: state })?.into_any())
    }
}

/// Registers this module's classes, functions and constants.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SchafkopfGame>()?;
    m.add_class::<SchafkopfView>()?;
    m.add_class::<SchafkopfAgent>()?;
    m.add("SCHAFKOPF_FEATURES", FEATURES)?;
    m.add("SCHAFKOPF_FEATURE_LAYOUT", LAYOUT.to_vec())?;
    m.add("SCHAFKOPF_NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("SCHAFKOPF_AGENT_SPECS", registry::SPECS)?;
    m.add("SCHAFKOPF_ACTION_NAMES", cfrkit_core::games::schafkopf::actions::action_names())?;
    Ok(())
}

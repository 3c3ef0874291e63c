//! Bindings of Skat: a game a person or a program drives action by action, with its result in
//! list score and Seeger-Fabian points. Names and checks live in the core.

use crate::args::opt_u64_arg;
use crate::errors::IntoPy;
use cfrkit_core::cards::CardSet;
use cfrkit_core::games::skat::bidding::BID_VALUES;
use cfrkit_core::games::skat::cards::{name as card_name, names};
use cfrkit_core::games::skat::{Contract, Deal, Game};
use cfrkit_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyDict;

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

#[pymethods]
impl SkatGame {
    /// A game of the hands `hands` (three strings of ten card names: 0 Vorhand, 1 Mittelhand,
    /// 2 Hinterhand) and the skat `skat` (two card names).
    #[new]
    fn new(hands: Vec<String>, skat: &str) -> PyResult<Self> {
        Ok(SkatGame { inner: Game::new(&Deal::parse(&hands, skat).py()?) })
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

/// Registers the Skat classes and constants.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SkatGame>()?;
    m.add("SKAT_BID_VALUES", BID_VALUES.to_vec())?;
    m.add("SKAT_CONTRACTS", Contract::ALL.iter().map(|c| c.name()).collect::<Vec<_>>())?;
    Ok(())
}

//! What one seat may see (spec §8): its own hand and the public state — the dealer, every
//! declaration, the contract and declarer, contra and retour answers, every card played and by
//! whom, trick winners, each seat's card points, and who ran away. Nothing of the other hands.

use super::actions::{Action, Phase};
use super::contract::{Contract, Declaration};
use super::game::Game;
use super::rules::Rules;
use super::scoring::Settlement;
use crate::cards::{Card, CardSet};

/// One seat's view of a game: borrowed, cheap to make.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    game: &'a Game,
    seat: u8,
}

impl<'a> View<'a> {
    /// The view of `seat` (0–3; taken modulo 4) of `game`.
    pub fn new(game: &'a Game, seat: u8) -> View<'a> {
        View { game, seat: seat & 3 }
    }

    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// An owned copy of the view (for agents that keep or hand on what they see).
    pub fn to_owned(&self) -> OwnedView {
        OwnedView { game: *self.game, seat: self.seat }
    }
    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.game.finished()
    }
    /// The seat that played card position `i` of trick `t`.
    pub fn seat_of(&self, t: usize, i: usize) -> u8 {
        self.game.seat_of(t, i)
    }
    /// The decisions taken so far (all public), each with its seat.
    pub fn history(&self) -> Vec<(u8, Action)> {
        self.game.history()
    }
    /// Decisions taken so far.
    pub fn steps(&self) -> u32 {
        self.game.steps()
    }
    /// Why `action` is illegal for the viewing seat, which is to act (None if legal).
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.to_act() {
            self.game.why_illegal(action)
        } else {
            Some(format!("seat {} is not to act", self.seat))
        }
    }
    /// The settlement once the game is over (public then).
    pub fn settlement(&self) -> Option<Settlement> {
        self.game.settlement()
    }
    /// Whether the viewing seat is to act.
    pub fn to_act(&self) -> bool {
        self.game.player() == Some(self.seat)
    }
    /// The seat to act (None when the game is over).
    pub fn player(&self) -> Option<u8> {
        self.game.player()
    }
    /// The cards the seat holds.
    pub fn hand(&self) -> CardSet {
        self.game.hand(self.seat)
    }
    /// The cards the seat was dealt.
    pub fn dealt_hand(&self) -> CardSet {
        self.game.dealt(self.seat)
    }
    /// The dealer.
    pub fn dealer(&self) -> u8 {
        self.game.dealer()
    }
    /// The seat after the dealer.
    pub fn first_player(&self) -> u8 {
        self.game.first_player()
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.game.phase()
    }
    /// Every declaration made so far.
    pub fn bids(&self) -> [Option<Declaration>; 4] {
        self.game.bids()
    }
    /// The contract, once the auction is over.
    pub fn contract(&self) -> Option<Contract> {
        self.game.contract()
    }
    /// The declarer, once the auction is over.
    pub fn declarer(&self) -> Option<u8> {
        self.game.declarer()
    }
    /// Contra answers so far.
    pub fn contra(&self) -> [Option<bool>; 4] {
        self.game.contra()
    }
    /// Retour answers so far.
    pub fn retour(&self) -> [Option<bool>; 4] {
        self.game.retour()
    }
    /// Completed tricks.
    pub fn tricks_done(&self) -> u8 {
        self.game.tricks_done()
    }
    /// Cards of trick `t` in play order.
    pub fn trick(&self, t: usize) -> &'a [Card] {
        self.game.trick(t)
    }
    /// Cards of the current trick in play order.
    pub fn current_trick(&self) -> &'a [Card] {
        self.game.current_trick()
    }
    /// The leader of trick `t`.
    pub fn trick_leader(&self, t: usize) -> u8 {
        self.game.trick_leader(t)
    }
    /// The winner of completed trick `t`.
    pub fn trick_winner(&self, t: usize) -> Option<u8> {
        self.game.trick_winner(t)
    }
    /// Card points taken by each seat.
    pub fn scores(&self) -> [u32; 4] {
        self.game.scores()
    }
    /// Tricks taken by each seat.
    pub fn tricks_won(&self) -> [u32; 4] {
        self.game.tricks_won()
    }
    /// The seat that ran away from the called Ace, if any.
    pub fn davongelaufen(&self) -> Option<u8> {
        self.game.davongelaufen()
    }
    /// Cards played by `seat`.
    pub fn played_by(&self, seat: u8) -> CardSet {
        self.game.played_by(seat)
    }
    /// Every card played.
    pub fn played(&self) -> CardSet {
        self.game.played()
    }
    /// The payments once the game is over (zeros before).
    pub fn returns(&self) -> [i32; 4] {
        self.game.returns()
    }
    /// The legal actions as a mask over action ids (0 unless the seat is to act).
    pub fn legal_mask(&self) -> u64 {
        if self.to_act() {
            self.game.legal_mask()
        } else {
            0
        }
    }
    /// The legal actions (empty unless the seat is to act).
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.to_act() {
            self.game.legal_actions()
        } else {
            Vec::new()
        }
    }
    /// The legal cards (0 unless the seat is to act in the tricks).
    pub fn legal_cards(&self) -> CardSet {
        if self.to_act() {
            self.game.legal_cards()
        } else {
            0
        }
    }
}

/// A view that owns a copy of its game; only [`OwnedView::view`] reaches the game, so it shows
/// no more than a [`View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnedView {
    game: Game,
    seat: u8,
}

impl OwnedView {
    /// The view.
    pub fn view(&self) -> View<'_> {
        View::new(&self.game, self.seat)
    }
}

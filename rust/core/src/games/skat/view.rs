//! What one seat may see (spec §9): its own cards and the public state — every call of the
//! auction, the declarer and the bid, Hand or pickup, the contract, the declarer's hand in an
//! ouvert game, every card played and by whom, trick winners and card points taken. The skat
//! and the declarer's discard are known to the declarer once he picked up, and to nobody else
//! before the game is over.

use super::actions::{Action, Phase};
use super::bidding::Auction;
use super::contract::Contract;
use super::game::Game;
use super::scoring::GameResult;
use crate::cards::{Card, CardSet};

/// One seat's view of a game: borrowed, cheap to make.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    game: &'a Game,
    seat: u8,
}

impl<'a> View<'a> {
    /// The view of `seat` (0 Vorhand, 1 Mittelhand, 2 Hinterhand; taken modulo 3) of `game`.
    pub fn new(game: &'a Game, seat: u8) -> View<'a> {
        View { game, seat: seat % 3 }
    }

    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// An owned copy of the view (for agents that keep or hand on what they see).
    pub fn to_owned(&self) -> OwnedView {
        OwnedView { game: *self.game, seat: self.seat }
    }
    /// Whether the viewing seat is the declarer.
    pub fn is_declarer(&self) -> bool {
        self.game.declarer() == Some(self.seat)
    }
    /// Whether the viewing seat is to act.
    pub fn to_act(&self) -> bool {
        self.game.player() == Some(self.seat)
    }

    // ---- Public state. ----

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.game.phase()
    }
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.game.finished()
    }
    /// The seat to act (None when the game is over).
    pub fn player(&self) -> Option<u8> {
        self.game.player()
    }
    /// The auction (every call is public).
    pub fn auction(&self) -> &'a Auction {
        self.game.auction()
    }
    /// The highest value named so far; the declarer's bid once the auction is over.
    pub fn bid(&self) -> u16 {
        self.game.bid()
    }
    /// The declarer once the auction is over.
    pub fn declarer(&self) -> Option<u8> {
        self.game.declarer()
    }
    /// Whether the deal was thrown in.
    pub fn thrown_in(&self) -> bool {
        self.game.thrown_in()
    }
    /// Hand (true) or pickup (false), once the declarer chose.
    pub fn hand_game(&self) -> Option<bool> {
        self.game.hand_game()
    }
    /// The contract once announced.
    pub fn contract(&self) -> Option<Contract> {
        self.game.contract()
    }
    /// The declarer's cards still in hand in an ouvert game.
    pub fn open_hand(&self) -> Option<CardSet> {
        self.game.open_hand()
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
    /// The seat that played card position `i` of trick `t`.
    pub fn seat_of(&self, t: usize, i: usize) -> u8 {
        self.game.seat_of(t, i)
    }
    /// Card points each seat took in tricks (the skat not included).
    pub fn trick_points(&self) -> [u32; 3] {
        self.game.trick_points()
    }
    /// Tricks each seat took.
    pub fn tricks_won(&self) -> [u32; 3] {
        self.game.tricks_won()
    }
    /// Cards `seat` played to tricks.
    pub fn played_by(&self, seat: u8) -> CardSet {
        (0..=self.tricks_done() as usize)
            .flat_map(|t| self.trick(t).iter().enumerate().map(move |(i, &c)| (t, i, c)))
            .filter(|&(t, i, _)| self.seat_of(t, i) == seat % 3)
            .fold(0, |set, (_, _, c)| set | crate::cards::bit(c))
    }
    /// Every card played to tricks.
    pub fn played(&self) -> CardSet {
        (0..3).fold(0, |set, s| set | self.played_by(s))
    }
    /// The result once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.game.result()
    }
    /// Seeger-Fabian points per seat once the game is over (zeros before).
    pub fn returns(&self) -> [i32; 3] {
        self.game.returns()
    }
    /// The decisions the viewing seat has seen, in order: everything but the declarer's discard,
    /// which only the declarer sees (everyone once the game is over).
    pub fn history(&self) -> Vec<(u8, Action)> {
        let mut h = self.game.history();
        if !self.is_declarer() && !self.finished() {
            h.retain(|(_, a)| !matches!(a, Action::Discard(_)));
        }
        h
    }

    // ---- The seat's own cards. ----

    /// The cards the seat holds (the declarer's twelve between pickup and discard).
    pub fn hand(&self) -> CardSet {
        self.game.hand(self.seat)
    }
    /// The cards the seat was dealt.
    pub fn dealt_hand(&self) -> CardSet {
        self.game.dealt(self.seat)
    }
    /// The original skat, if the seat has seen it: the declarer after a pickup; everyone once
    /// the game is over.
    pub fn skat(&self) -> Option<CardSet> {
        let picked_up = self.is_declarer() && self.hand_game() == Some(false);
        (picked_up || self.finished()).then(|| self.game.skat())
    }
    /// The two cards that count for the declarer, if the seat knows them: the declarer's own
    /// discard after a pickup; everyone's once the game is over. None before they exist.
    pub fn put_away(&self) -> Option<CardSet> {
        let known = (self.is_declarer() && self.hand_game() == Some(false)) || self.finished();
        let put = self.game.put_away();
        (known && put != 0).then_some(put)
    }

    // ---- Acting. ----

    /// For the declarer, whether contract `c` can reach the bid with the matadors he knows
    /// ([`Game::reaches_bid`]); false for any other seat, which does not know them.
    pub fn reaches_bid(&self, c: Contract) -> bool {
        self.is_declarer() && self.game.reaches_bid(c)
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
    /// The contracts the declarer may announce now (empty unless the seat is to declare).
    pub fn legal_contracts(&self) -> Vec<Contract> {
        if self.to_act() {
            self.game.legal_contracts()
        } else {
            Vec::new()
        }
    }
    /// Why `action` is illegal for the viewing seat (None if legal).
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.to_act() {
            self.game.why_illegal(action)
        } else {
            Some(format!("seat {} is not to act", self.seat))
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

#[cfg(test)]
mod tests {
    use super::super::deal::Deal;
    use super::*;

    #[test]
    fn the_skat_and_the_discard_stay_hidden_from_the_defenders() {
        let mut g = Game::new(&Deal::for_game(3, 0));
        for a in ["18", "pass", "pass", "pickup"] {
            g.apply_name(a).unwrap();
        }
        let declarer = g.declarer().unwrap();
        assert_eq!(View::new(&g, declarer).skat(), Some(g.skat()));
        let discard = g.legal_actions()[5];
        g.apply(discard).unwrap();
        g.apply_name("grand").unwrap();
        for seat in 0..3u8 {
            let v = View::new(&g, seat);
            let sees_discard = v.history().iter().any(|(_, a)| matches!(a, Action::Discard(_)));
            assert_eq!(sees_discard, seat == declarer, "seat {seat}");
            assert_eq!(v.skat().is_some(), seat == declarer, "seat {seat}");
            assert_eq!(v.put_away().is_some(), seat == declarer, "seat {seat}");
        }
        while let Some(p) = g.player() {
            let c = g.legal_actions()[0];
            assert_eq!(View::new(&g, p).legal_actions(), g.legal_actions());
            assert!(View::new(&g, (p + 1) % 3).legal_actions().is_empty());
            g.apply(c).unwrap();
            let played = View::new(&g, 0).played();
            let in_hands = (0..3).fold(0, |s, x| s | g.hand(x));
            assert_eq!(played & (in_hands | g.put_away()), 0);
            assert_eq!(played.count_ones(), 3 * g.tricks_done() as u32 + g.current_trick().len() as u32);
        }
        assert!((0..3).all(|s| View::new(&g, s).skat() == Some(g.skat())));
    }
}

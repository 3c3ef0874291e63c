//! A game of Schafkopf from the deal to the payment (spec §2–§7): the auction, contra and retour,
//! eight tricks under the contract's order with the called-Ace rules, and the settlement.
//!
//! The seat to act is asked at every step, decisions with a single legal action included (a
//! seat that may not double still answers `no`), in SchafkopfRL's order: four declarations from
//! the seat after the dealer, four contra answers, four retour answers after a contra, then
//! the tricks. Under [`Rules::SCHAFKOPFRL`] four passes are followed by doubling and a play-out
//! in Wenz order that pays nothing; under [`Rules::STANDARD`] the game ends there.
//!
//! [`Game`] is `Copy` (about 200 bytes) and never allocates; illegal actions are refused with
//! the reason ([`Game::why_illegal`]) and leave the game unchanged.

use super::actions::{Action, Phase, CARD_BASE, DOUBLE, NO_DOUBLE};
use super::cards::{ace, bit, name as card_name, points, suit, suit_cards, OBERS, UNTERS};
use super::contract::{Contract, Declaration, Kind, Order, CALLABLE};
use super::deal::Deal;
use super::rules::Rules;
use super::scoring::{settle, Settlement};
use crate::cards::{iter, Card, CardSet, Tricks};
use crate::error::{Error, Result};

/// The German name of a suit, for messages.
pub fn suit_name(s: u8) -> &'static str {
    ["Schellen", "Herz", "Gras", "Eichel"][s as usize & 3]
}

/// The cards of `hand` its holder may play to a trick under a contract of trick order `order`
/// that calls the Ace of `called` (a Sauspiel; None otherwise): `led` is the card led to the
/// trick (None to lead it), `ran_away` whether the holder already ran away from the called Ace,
/// `last_trick` whether this is the eighth trick. Follow suit (spec §6), and while the hand holds
/// the called Ace: no lead of fewer than three other cards of its suit, the Ace on a lead of its
/// suit, no discarding it (see [`Rules::strict_rufsau`] for which leads count as its suit).
/// [`Game::legal_cards`] and the perfect-information solver both ask this.
#[inline]
pub fn trick_legal(
    order: Order,
    called: Option<u8>,
    strict_rufsau: bool,
    hand: CardSet,
    led: Option<Card>,
    ran_away: bool,
    last_trick: bool,
) -> CardSet {
    let called = called.filter(|&x| hand & bit(ace(x)) != 0);
    let Some(led) = led else {
        if let Some(x) = called.filter(|_| !ran_away) {
            // The called Ace's holder may not lead fewer than three other cards of its suit;
            // with three or more he may run away.
            let others = hand & order.suit_cards(x) & !bit(ace(x));
            if others.count_ones() < 3 {
                return hand & !others;
            }
        }
        return hand;
    };
    let Some(x) = called else { return order.legal_after(hand, led) };
    let a = bit(ace(x));
    if !ran_away && order.suit(led) == x {
        return a; // the called suit is led: its Ace must be played
    }
    let mut allowed = order.legal_after(hand, led);
    let led_called = if strict_rufsau { order.suit(led) == x } else { suit(led) == x };
    if !(led_called || ran_away || last_trick) {
        allowed &= !a; // the called Ace may not be discarded
    }
    allowed
}

/// A game in progress (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    dealer: u8,
    dealt: [CardSet; 4],
    hands: [CardSet; 4],
    phase: Phase,
    to_act: u8,
    bids: [Option<Declaration>; 4],
    contract: Option<Contract>,
    declarer: Option<u8>,
    contra: [Option<bool>; 4],
    retour: [Option<bool>; 4],
    tricks: Tricks<4, 8>,
    davongelaufen: Option<u8>,
    /// Decisions taken so far.
    steps: u8,
    /// The legal actions of the seat to act as a mask over action ids, kept up to date after
    /// every step (agents, checks and views ask for it many times per step).
    legal: u64,
}

impl Game {
    /// A game of `deal` under `rules`, the seat after the dealer to declare.
    pub fn new(deal: &Deal, rules: Rules) -> Game {
        let first = (deal.dealer + 1) % 4;
        Game {
            rules,
            dealer: deal.dealer,
            dealt: deal.hands,
            hands: deal.hands,
            phase: Phase::Bidding,
            to_act: first,
            bids: [None; 4],
            contract: None,
            declarer: None,
            contra: [None; 4],
            retour: [None; 4],
            tricks: Tricks::new(first),
            davongelaufen: None,
            steps: 0,
            legal: 0,
        }
        .refreshed()
    }

    /// The game with its legal mask computed.
    #[inline]
    fn refreshed(mut self) -> Game {
        self.refresh();
        self
    }

    /// Recomputes the legal mask of the seat to act.
    #[inline]
    fn refresh(&mut self) {
        self.legal = self.compute_legal_mask();
    }

    // ---- What everyone sees. ----

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// The dealer's seat.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The seat after the dealer: it declares first and leads the first trick.
    pub fn first_player(&self) -> u8 {
        (self.dealer + 1) % 4
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.phase == Phase::Finished
    }
    /// The seat to act; None when the game is over.
    pub fn player(&self) -> Option<u8> {
        (!self.finished()).then_some(self.to_act)
    }
    /// Each seat's declaration (None until made).
    pub fn bids(&self) -> [Option<Declaration>; 4] {
        self.bids
    }
    /// The contract once the auction is over: None during the auction and when everyone passed
    /// under rules that end the deal there; [`Contract::Passed`] for SchafkopfRL's play-out.
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    /// The declarer ("game player") once the auction is over; after four passes under
    /// SchafkopfRL's rules, the dealer (its auction scan ends there).
    pub fn declarer(&self) -> Option<u8> {
        self.declarer
    }
    /// Whether everyone passed (known once the auction is over).
    pub fn all_passed(&self) -> bool {
        self.phase != Phase::Bidding && !matches!(self.contract, Some(c) if c.kind().is_some())
    }
    /// Each seat's contra answer (None until asked).
    pub fn contra(&self) -> [Option<bool>; 4] {
        self.contra
    }
    /// Each seat's retour answer (None until asked; only asked after a contra).
    pub fn retour(&self) -> [Option<bool>; 4] {
        self.retour
    }
    /// Whether a contra was given.
    pub fn contra_given(&self) -> bool {
        self.contra.contains(&Some(true))
    }
    /// Whether a retour was given.
    pub fn retour_given(&self) -> bool {
        self.retour.contains(&Some(true))
    }
    /// The trick order of the contract (None before the auction ends).
    pub fn order(&self) -> Option<Order> {
        self.contract.map(Contract::order)
    }
    /// Completed tricks.
    pub fn tricks_done(&self) -> u8 {
        self.tricks.done()
    }
    /// The cards of trick `t` in play order: all four of a completed trick, those played so far
    /// of the current one, none of a later one.
    pub fn trick(&self, t: usize) -> &[Card] {
        self.tricks.trick(t)
    }
    /// The cards of the current trick in play order (empty between tricks and outside them).
    pub fn current_trick(&self) -> &[Card] {
        self.tricks.current()
    }
    /// The leader of trick `t` (trick 0: the first player; later: the previous trick's winner).
    pub fn trick_leader(&self, t: usize) -> u8 {
        self.tricks.leader(t)
    }
    /// The winner of completed trick `t`.
    pub fn trick_winner(&self, t: usize) -> Option<u8> {
        self.tricks.winner(t)
    }
    /// The seat that played card position `i` (0 = the lead) of trick `t`.
    pub fn seat_of(&self, t: usize, i: usize) -> u8 {
        self.tricks.seat_of(t, i)
    }
    /// The card points each seat has taken.
    pub fn scores(&self) -> [u32; 4] {
        self.tricks.points()
    }
    /// The tricks each seat has taken.
    pub fn tricks_won(&self) -> [u32; 4] {
        self.tricks.won()
    }
    /// The seat that ran away from the called Ace ("davongelaufen"), once its trick is complete.
    pub fn davongelaufen(&self) -> Option<u8> {
        self.davongelaufen
    }
    /// The cards `seat` has played.
    pub fn played_by(&self, seat: u8) -> CardSet {
        self.dealt[seat as usize & 3] & !self.hands[seat as usize & 3]
    }
    /// Every card played so far.
    pub fn played(&self) -> CardSet {
        (0..4).fold(0, |m, p| m | self.played_by(p))
    }
    /// Decisions taken so far.
    pub fn steps(&self) -> u32 {
        self.steps as u32
    }

    /// The decisions taken so far, in order, each with the seat that took it.
    pub fn history(&self) -> Vec<(u8, Action)> {
        let first = self.first_player();
        let mut v = Vec::with_capacity(self.steps as usize);
        let seats = || (0..4).map(|k| (first + k) % 4);
        v.extend(seats().filter_map(|p| self.bids[p as usize].map(|d| (p, Action::Declare(d)))));
        v.extend(seats().filter_map(|p| self.contra[p as usize].map(|x| (p, Action::Double(x)))));
        v.extend(seats().filter_map(|p| self.retour[p as usize].map(|x| (p, Action::Double(x)))));
        for t in 0..8 {
            v.extend(self.trick(t).iter().enumerate().map(|(i, &c)| (self.seat_of(t, i), Action::Card(c))));
        }
        v
    }

    // ---- Hidden information. ----

    /// The cards `seat` holds now.
    pub fn hand(&self, seat: u8) -> CardSet {
        self.hands[seat as usize & 3]
    }
    /// The cards `seat` was dealt.
    pub fn dealt(&self, seat: u8) -> CardSet {
        self.dealt[seat as usize & 3]
    }
    /// The deal.
    pub fn deal(&self) -> Deal {
        Deal { hands: self.dealt, dealer: self.dealer }
    }

    // ---- Legal actions. ----

    /// The declarations a hand may make, as a mask over declaration ids: pass, Wenz and the four
    /// Solos always; the Sauspiel calling suit X if the hand holds a card of X other than Ober,
    /// Unter and Ace, and not the Ace of X (spec §3.1).
    pub fn allowed_declarations(hand: CardSet) -> u16 {
        let mut mask: u16 = 0b1_1111_0001;
        for (i, &x) in CALLABLE.iter().enumerate() {
            let plain = suit_cards(x) & !OBERS & !UNTERS & !bit(ace(x));
            if hand & plain != 0 && hand & bit(ace(x)) == 0 {
                mask |= 1 << (i + 1);
            }
        }
        mask
    }

    /// Whether the seat to act may double now (contra: no contra yet and not on the player
    /// team as the seat knows it; retour: on the player team and no retour yet).
    pub fn may_double(&self) -> bool {
        let p = self.to_act;
        let team = self.declarer == Some(p) || self.holds_called_ace(p);
        match self.phase {
            Phase::Contra => !self.contra_given() && !team,
            Phase::Retour => !self.retour_given() && team,
            _ => false,
        }
    }

    /// Whether `seat` holds the called Ace of a Sauspiel now.
    fn holds_called_ace(&self, seat: u8) -> bool {
        matches!(self.contract.and_then(Contract::called_ace), Some(a) if self.hand(seat) & bit(a) != 0)
    }

    /// The cards the seat to act may play (0 outside the tricks).
    #[inline]
    pub fn legal_cards(&self) -> CardSet {
        if self.phase == Phase::Tricks {
            self.legal >> CARD_BASE
        } else {
            0
        }
    }

    /// The legal cards of the seat to act, computed.
    fn compute_legal_cards(&self) -> CardSet {
        if self.phase != Phase::Tricks {
            return 0;
        }
        let Some(contract) = self.contract else { return 0 };
        let p = self.to_act;
        let led = self.tricks.led();
        trick_legal(
            contract.order(),
            contract.called_suit(),
            self.rules.strict_rufsau,
            self.hands[p as usize],
            led,
            self.davongelaufen == Some(p),
            self.tricks.last(),
        )
    }

    /// The legal actions of the seat to act as a mask over action ids (bit `id`); 0 when over.
    #[inline]
    pub fn legal_mask(&self) -> u64 {
        self.legal
    }

    /// The legal mask, computed.
    fn compute_legal_mask(&self) -> u64 {
        match self.phase {
            Phase::Bidding => Game::allowed_declarations(self.hands[self.to_act as usize]) as u64,
            Phase::Contra | Phase::Retour => 1 << NO_DOUBLE | (self.may_double() as u64) << DOUBLE,
            Phase::Tricks => self.compute_legal_cards() << CARD_BASE,
            Phase::Finished => 0,
        }
    }

    /// The legal actions of the seat to act, in the order SchafkopfRL lists them: declarations by
    /// id, `no` before doubling, cards by id.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Contra | Phase::Retour => {
                let mut v = vec![Action::Double(false)];
                if self.may_double() {
                    v.push(Action::Double(true));
                }
                v
            }
            _ => iter(self.legal_mask()).filter_map(Action::from_id).collect(),
        }
    }

    /// Whether `action` is legal for the seat to act.
    #[inline]
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal & action.bit() != 0
    }

    /// Why `action` is not legal for the seat to act, in words ("must follow trump", "must play
    /// the called Ace", …); None if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.is_legal(action) {
            return None;
        }
        let p = self.to_act;
        Some(match (self.phase, action) {
            (Phase::Finished, _) => "the game is finished".into(),
            _ if !action.is_valid() => "no such action".into(),
            (Phase::Bidding, Action::Declare(Declaration::Sauspiel(x))) => {
                if !CALLABLE.contains(&x) {
                    "the Herz Ace cannot be called".into()
                } else if self.hand(p) & bit(ace(x)) != 0 {
                    format!("cannot call the {} Ace: you hold it", suit_name(x))
                } else {
                    format!("cannot call the {} Ace: you hold no {} card but Ober or Unter", suit_name(x), suit_name(x))
                }
            }
            (Phase::Contra, Action::Double(true)) => {
                if self.contra_given() {
                    "a contra was already given".into()
                } else if self.declarer == Some(p) {
                    "the declarer cannot give contra".into()
                } else {
                    "you hold the called Ace: you play with the declarer".into()
                }
            }
            (Phase::Retour, Action::Double(true)) => {
                if self.retour_given() {
                    "a retour was already given".into()
                } else {
                    "only the declarer and the holder of the called Ace may give retour".into()
                }
            }
            (Phase::Tricks, Action::Card(c)) => self.why_card_illegal(c),
            (phase, _) => format!("it is the {} phase", phase.name()),
        })
    }

    /// Why card `c` (not legal) may not be played by the seat to act.
    fn why_card_illegal(&self, c: Card) -> String {
        let p = self.to_act;
        let hand = self.hand(p);
        if c >= 32 || hand & bit(c) == 0 {
            return format!("you do not hold {}", if c < 32 { card_name(c) } else { c.to_string() });
        }
        let Some(contract) = self.contract else { return "no contract".into() };
        let order = contract.order();
        let called = contract.called_suit();
        let Some(led) = self.tricks.led() else {
            let x = called.unwrap_or(0);
            return format!(
                "you hold the called {} Ace with fewer than three other {} cards: lead the Ace or another suit",
                suit_name(x),
                suit_name(x)
            );
        };
        if let Some(x) = called {
            if self.legal_cards() == bit(ace(x)) && order.suit(led) == x {
                return "must play the called Ace".into();
            }
        }
        if order.legal_after(hand, led) & bit(c) == 0 {
            let s = order.suit(led);
            return if order.trumps() & bit(led) != 0 {
                "must follow trump".into()
            } else {
                format!("must follow {}", suit_name(s))
            };
        }
        "may not discard the called Ace before its suit is led".into()
    }

    // ---- Moves. ----

    /// Plays `action` for the seat to act; an illegal action is refused with the reason and the
    /// legal actions, and the game is left unchanged.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        if let Some(why) = self.why_illegal(action) {
            let phase = if self.phase == Phase::Finished { Phase::Tricks } else { self.phase };
            let legal: Vec<String> = self.legal_actions().iter().map(|a| a.name_in(self.phase)).collect();
            let legal = if legal.is_empty() { "none".into() } else { legal.join(", ") };
            return Err(Error::invalid("action", action.name_in(phase), format!("{why}; legal actions: {legal}")));
        }
        self.apply_legal(action);
        Ok(())
    }

    /// Parses the name of an action of the current phase and plays it (see [`Game::apply`]).
    pub fn apply_name(&mut self, name: &str) -> Result<Action> {
        let action = Action::parse(name, self.phase).map_err(|e| match e {
            Error::InvalidValue { what, value, allowed } => {
                let legal: Vec<String> = self.legal_actions().iter().map(|a| a.name_in(self.phase)).collect();
                let legal = if legal.is_empty() { "none".into() } else { legal.join(", ") };
                Error::InvalidValue { what, value, allowed: format!("{allowed}; legal actions: {legal}") }
            }
            e => e,
        })?;
        self.apply(action)?;
        Ok(action)
    }

    /// Plays `action`, which must be legal ([`Game::is_legal`]); the fast path of agents that
    /// pick from the legal mask. An illegal action leaves the game in an unspecified (but safe)
    /// state.
    #[inline]
    pub fn apply_legal(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "{action:?} in {self:?}");
        let p = self.to_act as usize;
        let first = self.first_player();
        self.steps += 1;
        match action {
            Action::Declare(d) => {
                self.bids[p] = Some(d);
                self.to_act = (self.to_act + 1) % 4;
                if self.to_act == first {
                    self.end_auction();
                }
            }
            Action::Double(yes) => {
                let answers = if self.phase == Phase::Contra { &mut self.contra } else { &mut self.retour };
                answers[p] = Some(yes);
                self.to_act = (self.to_act + 1) % 4;
                if self.to_act == first {
                    self.phase =
                        if self.phase == Phase::Contra && self.contra_given() { Phase::Retour } else { Phase::Tricks };
                }
            }
            Action::Card(c) => {
                self.hands[p] &= !bit(c);
                let contract = self.contract.expect("tricks are played under a contract");
                self.to_act = (self.to_act + 1) % 4;
                if let Some(winner) = self.tricks.play(c, &contract.order(), points) {
                    self.end_trick(contract, winner);
                }
            }
        }
        self.refresh();
    }

    /// The auction's winner: the highest kind, ties to the earlier seat from the first player.
    fn end_auction(&mut self) {
        let first = self.first_player();
        let (mut best, mut seat): (Option<Declaration>, u8) = (None, first);
        for k in 0..4 {
            let p = (first + k) % 4;
            let d = self.bids[p as usize].unwrap_or(Declaration::Pass);
            let better = match best.and_then(Declaration::kind) {
                None => true,
                Some(kind) => d.kind().is_some_and(|k: Kind| k > kind),
            };
            if better {
                best = Some(d);
                seat = p;
            }
        }
        match best.and_then(Declaration::contract) {
            Some(c) => {
                self.contract = Some(c);
                self.declarer = Some(seat);
                self.phase = Phase::Contra;
            }
            None if self.rules.playout_on_pass => {
                self.contract = Some(Contract::Passed);
                self.declarer = Some(seat);
                self.phase = Phase::Contra;
            }
            None => self.phase = Phase::Finished,
        }
    }

    /// After a complete trick: running away from the called Ace is known; the winner leads next.
    fn end_trick(&mut self, contract: Contract, winner: u8) {
        let t = self.tricks.done() as usize - 1;
        if let Some(x) = contract.called_suit() {
            let (lead, leader) = (self.tricks.trick(t)[0], self.tricks.leader(t));
            let plain_called = contract.order().suit(lead) == x && lead != ace(x);
            if plain_called && self.hands[leader as usize] & bit(ace(x)) != 0 {
                self.davongelaufen = Some(leader);
            }
        }
        self.to_act = winner;
        if self.tricks.done() == 8 {
            self.phase = Phase::Finished;
        }
    }

    // ---- The result. ----

    /// The settlement of a finished game (None before the end).
    pub fn settlement(&self) -> Option<Settlement> {
        if !self.finished() {
            return None;
        }
        Some(match (self.contract, self.declarer) {
            (Some(c), Some(d)) => settle(
                &self.rules,
                c,
                d,
                &self.dealt,
                &self.scores(),
                &self.tricks_won(),
                self.contra_given() as u32 + (self.contra_given() && self.retour_given()) as u32,
            ),
            _ => Settlement::NOTHING,
        })
    }

    /// Cents won by each seat: the payment vector once the game is over, zeros before.
    pub fn returns(&self) -> [i32; 4] {
        self.settlement().map_or([0; 4], |s| s.payments)
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{names, parse_card, parse_hands, GRAS, SCHELLEN};
    use super::*;

    use super::super::deal::tests::DEAL_A;

    fn deal_a() -> Game {
        Game::new(&Deal::new(parse_hands(&DEAL_A).unwrap(), 3).unwrap(), Rules::SCHAFKOPFRL)
    }

    #[test]
    fn a_game_is_small() {
        assert!(std::mem::size_of::<Game>() <= 200, "{}", std::mem::size_of::<Game>());
    }

    #[test]
    fn allowed_declarations_of_deal_a() {
        // Spec §12: seat 0 {0,1,2,4..8}; seat 1 {0,1,4..8}; seats 2, 3 {0,2,3,4..8}.
        let hands = parse_hands(&DEAL_A).unwrap();
        let ids = |m: u16| (0..9).filter(|i| m & (1 << i) != 0).collect::<Vec<_>>();
        assert_eq!(ids(Game::allowed_declarations(hands[0])), [0, 1, 2, 4, 5, 6, 7, 8]);
        assert_eq!(ids(Game::allowed_declarations(hands[1])), [0, 1, 4, 5, 6, 7, 8]);
        assert_eq!(ids(Game::allowed_declarations(hands[2])), [0, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(ids(Game::allowed_declarations(hands[3])), [0, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn phases_and_single_action_decisions() {
        let mut g = deal_a();
        assert_eq!((g.phase(), g.player()), (Phase::Bidding, Some(0)));
        g.apply(Action::Declare(Declaration::Sauspiel(GRAS))).unwrap();
        let e = g.apply(Action::Declare(Declaration::Sauspiel(GRAS))).unwrap_err().to_string();
        assert!(e.contains("you hold it") && e.contains("legal actions: pass, sauspiel:S, wenz"), "{e}");
        for _ in 0..3 {
            g.apply(Action::Declare(Declaration::Pass)).unwrap();
        }
        assert_eq!((g.phase(), g.contract(), g.declarer()), (Phase::Contra, Some(Contract::Sauspiel(GRAS)), Some(0)));
        // The declarer and the Ace's holder may only say no.
        assert_eq!(g.legal_actions(), [Action::Double(false)]);
        let e = g.apply(Action::Double(true)).unwrap_err().to_string();
        assert!(e.contains("the declarer cannot give contra"), "{e}");
        g.apply(Action::Double(false)).unwrap();
        assert_eq!(g.legal_actions(), [Action::Double(false)]);
        g.apply(Action::Double(false)).unwrap();
        assert_eq!(g.legal_actions(), [Action::Double(false), Action::Double(true)]);
        g.apply(Action::Double(true)).unwrap();
        assert_eq!(g.legal_actions(), [Action::Double(false)], "one contra only");
        g.apply(Action::Double(false)).unwrap();
        assert_eq!((g.phase(), g.player()), (Phase::Retour, Some(0)));
        assert_eq!(g.legal_actions(), [Action::Double(false), Action::Double(true)]);
        g.apply(Action::Double(false)).unwrap();
        g.apply(Action::Double(true)).unwrap();
        g.apply(Action::Double(false)).unwrap();
        let before = g;
        assert!(g.apply(Action::Double(true)).is_err());
        assert_eq!(g, before, "an illegal action changes nothing");
        g.apply(Action::Double(false)).unwrap();
        assert_eq!((g.phase(), g.player(), g.steps()), (Phase::Tricks, Some(0), 12));
        assert!(g.contra_given() && g.retour_given());
    }

    fn card(n: &str) -> Card {
        parse_card(n).unwrap()
    }

    /// A game in the tricks of a Schellen-Sauspiel declared by seat 0, seat 1 holding the Ace;
    /// the hands are built around `hand1` (seat 1's 8 cards) and the trick starts with `led`
    /// played by seat 0 (or seat 1 leads when `led` is empty).
    fn schellen_game(hand1: &str, rules: Rules) -> Game {
        let h1 = set_of(hand1);
        // Give the rest to the others, seat 0 getting a Schellen card if one is left.
        let mut rest: Vec<Card> = iter(super::super::cards::DECK & !h1).collect();
        let s = rest.iter().position(|&c| suit(c) == SCHELLEN && c != ace(SCHELLEN) && !is_ou(c)).unwrap();
        let s_card = rest.remove(s);
        let mut hands = [0; 4];
        hands[1] = h1;
        hands[0] = bit(s_card) | rest[..7].iter().fold(0, |m, &c| m | bit(c));
        hands[2] = rest[7..15].iter().fold(0, |m, &c| m | bit(c));
        hands[3] = rest[15..].iter().fold(0, |m, &c| m | bit(c));
        let mut g = Game::new(&Deal::new(hands, 3).unwrap(), rules);
        g.apply(Action::Declare(Declaration::Sauspiel(SCHELLEN))).unwrap();
        for _ in 0..7 {
            let a =
                if g.phase() == Phase::Bidding { Action::Declare(Declaration::Pass) } else { Action::Double(false) };
            g.apply(a).unwrap();
        }
        assert_eq!(g.phase(), Phase::Tricks);
        g
    }

    fn set_of(h: &str) -> CardSet {
        super::super::cards::NOTATION.parse_set(h).unwrap()
    }

    fn is_ou(c: Card) -> bool {
        (OBERS | UNTERS) & bit(c) != 0
    }

    /// Seat 0 leads `lead` (taken into its hand first), then seat 1's legal cards.
    fn legal_after_lead(hand1: &str, lead: &str, rules: Rules) -> String {
        let mut g = schellen_game(hand1, rules);
        let l = card(lead);
        let holder = (0..4).find(|&p| g.hand(p) & bit(l) != 0).unwrap();
        if holder != 0 {
            // Swap the lead card into seat 0's hand for a card of the same kind of seat 0.
            let give = iter(g.hands[0]).find(|&c| suit(c) != SCHELLEN || is_ou(c)).unwrap();
            g.hands[0] = g.hands[0] & !bit(give) | bit(l);
            g.hands[holder as usize] = g.hands[holder as usize] & !bit(l) | bit(give);
            g.dealt = g.hands;
            g.refresh();
        }
        g.apply(Action::Card(l)).unwrap();
        sorted_names(g.legal_cards())
    }

    /// The names of a set in alphabetical order, space-separated.
    fn sorted_names(set: CardSet) -> String {
        let mut v = names(set);
        v.sort();
        v.join(" ")
    }

    fn sorted(s: &str) -> String {
        let mut v: Vec<&str> = s.split_whitespace().collect();
        v.sort();
        v.join(" ")
    }

    #[test]
    fn called_ace_rules() {
        let r = Rules::SCHAFKOPFRL;
        // Spec §12: Schellen-Sauspiel, seat 1 holds SA.
        // Schellen led: only the Ace.
        assert_eq!(legal_after_lead("SA S7 S8 EO GO HA E7 G7", "SK", r), sorted("SA"));
        // Gras led, void in Gras: anything but the Ace.
        assert_eq!(legal_after_lead("SA S7 S8 EO GO HA E7 EK", "G9", r), sorted("S7 E7 S8 EK HA GO EO"));
        // SO led without trumps: the Ace may be discarded (quirk) unless the Rufsau is strict;
        // EO led without trumps: it may not.
        assert_eq!(legal_after_lead("SA S7 S8 E9 E7 EK G8 G7", "SO", r), sorted("S7 G7 E7 S8 G8 E9 EK SA"));
        assert_eq!(legal_after_lead("SA S7 S8 E9 E7 EK G8 G7", "SO", Rules::STANDARD), sorted("S7 G7 E7 S8 G8 E9 EK"));
        assert_eq!(legal_after_lead("SA S7 S8 E9 E7 EK G8 G7", "EO", r), sorted("S7 G7 E7 S8 G8 E9 EK"));
        // Trump led with trumps in hand: a trump.
        assert_eq!(legal_after_lead("SA S7 S8 EO GO HA E7 EK", "H7", r), sorted("HA GO EO"));
    }

    #[test]
    fn called_ace_leads_and_running_away() {
        let r = Rules::SCHAFKOPFRL;
        // Seat 1 leads (after winning a trick): with SA S7 S8 it may not lead S7 or S8.
        let mut g = schellen_game("SA S7 S8 EO GO HA E7 G7", r);
        g.to_act = 1;
        g.tricks.set_first_leader(1);
        g.refresh();
        assert_eq!(sorted_names(g.legal_cards()), sorted("G7 E7 HA GO EO SA"));
        let e = g.apply(Action::Card(card("S7"))).unwrap_err().to_string();
        assert!(e.contains("fewer than three other Schellen"), "{e}");
        // With SA S7 S8 S9 it may lead anything, and leading S7 is running away.
        let mut g = schellen_game("SA S7 S8 S9 EO GO HA E7", r);
        g.to_act = 1;
        g.tricks.set_first_leader(1);
        g.refresh();
        assert_eq!(g.legal_cards(), g.hand(1));
        g.apply(Action::Card(card("S7"))).unwrap();
        assert_eq!(g.davongelaufen(), None, "set when the trick is complete");
        for _ in 0..3 {
            let c = crate::cards::lowest(g.legal_cards());
            g.apply(Action::Card(c)).unwrap();
        }
        assert_eq!(g.davongelaufen(), Some(1));
    }

    #[test]
    fn reasons_for_illegal_cards() {
        let r = Rules::SCHAFKOPFRL;
        let mut g = schellen_game("SA S7 S8 EO GO HA E7 G7", r);
        let led = iter(g.hand(0)).find(|&c| suit(c) == SCHELLEN && !is_ou(c)).unwrap();
        g.apply(Action::Card(led)).unwrap();
        let e = g.apply(Action::Card(card("S7"))).unwrap_err().to_string();
        assert!(e.contains("must play the called Ace") && e.contains("legal actions: SA"), "{e}");
        let e = g.apply(Action::Card(card("EA"))).unwrap_err().to_string();
        assert!(e.contains("you do not hold EA"), "{e}");
        let e = g.apply_name("pass").unwrap_err().to_string();
        assert!(e.contains("take a card") && e.contains("legal actions: SA"), "{e}");
    }
}

//! A game of Skat from the deal to the result (spec §2–§7): the auction, Hand or pickup, the
//! discard, the declaration, ten tricks, and the score.
//!
//! Seats are 0 Vorhand, 1 Mittelhand, 2 Hinterhand. The phases follow one another as
//! [`Phase`] lists them; a thrown-in deal ends after the auction. Vorhand leads the first trick
//! whoever declares; under the ISkO every trick is played out (no early end: the result is the same).
//!
//! **Declaring.** After a pickup the declarer announces one of the 7 pickup contracts, after
//! Hand one of the 22 Hand contracts ([`Contract`]), and only one whose highest possible value
//! with the matadors the declarer knows (over his 12 cards after a pickup, his 10 after Hand)
//! reaches the bid (spec §4.3); null only when its fixed value reaches the bid. Should no
//! contract of the family reach the bid (a bid above anything the cards allow), every suit and
//! grand contract of the family may be announced; it is lost as overbid (§7.4).
//!
//! **Ouvert.** In an ouvert contract the declarer's hand is public from the declaration on:
//! [`Game::open_hand`] gives his cards still in hand to everyone (views build on it).
//!
//! **Rules.** [`Rules::Isko`] (the default) is the International Skat Order as above.
//! [`Rules::Iss`] is the International Skat Server's variant, in which its game records were
//! played ([`super::iss`]): any suit or grand contract of the family may be announced whatever
//! the bid (one that cannot reach it is lost as overbid), null only when its value reaches the
//! bid; and card play stops as soon as the result is decided — a null game at the declarer's
//! first trick, a Schwarz announced (or ouvert suit or grand) game at the defenders' first trick,
//! a Schneider announced game once the defenders have more than 30 card points.
//!
//! Illegal actions are refused with the reason and the legal actions ([`Game::apply`]) and
//! leave the game unchanged. [`Game`] is `Copy` and never allocates.

use super::actions::{Action, Phase};
use super::bidding::{Auction, Call, Outcome, BID_VALUES};
use super::cards::{bit, name as card_name, points};
use super::contract::{Contract, GameType, Order};
use super::deal::Deal;
use super::scoring::{matadors, GameResult};
use crate::cards::{iter, Card, CardSet, Tricks, TRUMP_SUIT};
use crate::error::{Error, Result};

/// The names of the seats: Vorhand, Mittelhand, Hinterhand.
pub const SEAT_NAMES: [&str; 3] = ["Vorhand", "Mittelhand", "Hinterhand"];

/// The rule set a game is played under (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The International Skat Order (ISkO).
    #[default]
    Isko,
    /// The International Skat Server's variant.
    Iss,
}

impl Rules {
    /// The name: `isko` or `iss`.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Isko => "isko",
            Rules::Iss => "iss",
        }
    }

    /// Parses `isko` or `iss` (case-insensitive).
    pub fn parse(text: &str) -> Result<Rules> {
        match text.trim().to_ascii_lowercase().as_str() {
            "isko" => Ok(Rules::Isko),
            "iss" => Ok(Rules::Iss),
            _ => Err(Error::invalid("rules", text, "isko (the International Skat Order) or iss (the ISS server's)")),
        }
    }
}

/// A game in progress (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    dealt: [CardSet; 3],
    skat: CardSet,
    hands: [CardSet; 3],
    phase: Phase,
    to_act: u8,
    auction: Auction,
    declarer: Option<u8>,
    bid: u16,
    /// Hand (true) or pickup (false), once chosen.
    hand_game: Option<bool>,
    /// The two cards that count for the declarer: the discard after a pickup, the skat in Hand.
    put_away: CardSet,
    contract: Option<Contract>,
    tricks: Tricks<3, 10>,
    /// The calls of the auction in order ([`encode_call`]); the other decisions are read back
    /// from the state, so that a game is `Copy` and never allocates.
    calls: [u8; MAX_CALLS],
    n_calls: u8,
}

/// The most calls an auction can take: every one of the 63 values bid and held, and three passes.
const MAX_CALLS: usize = 2 * BID_VALUES.len() + 3;
/// Code of `hold` in the call log (bids are their index in [`BID_VALUES`]).
const HOLD_CODE: u8 = BID_VALUES.len() as u8;
/// Code of `pass` in the call log.
const PASS_CODE: u8 = HOLD_CODE + 1;

/// A legal call as one byte: a bid by its index in [`BID_VALUES`], then hold and pass.
fn encode_call(c: Call) -> u8 {
    match c {
        Call::Bid(v) => BID_VALUES.iter().position(|&x| x == v).unwrap_or(0) as u8,
        Call::Hold => HOLD_CODE,
        Call::Pass => PASS_CODE,
    }
}

/// The call of a code of the call log.
fn decode_call(code: u8) -> Call {
    match code {
        HOLD_CODE => Call::Hold,
        PASS_CODE => Call::Pass,
        i => Call::Bid(BID_VALUES[i as usize % BID_VALUES.len()]),
    }
}

impl Game {
    /// A game of `deal` under the International Skat Order: Mittelhand bids first.
    pub fn new(deal: &Deal) -> Game {
        Game::with_rules(deal, Rules::Isko)
    }

    /// A game of `deal` under `rules`.
    pub fn with_rules(deal: &Deal, rules: Rules) -> Game {
        let auction = Auction::new();
        Game {
            rules,
            dealt: deal.hands,
            skat: deal.skat,
            hands: deal.hands,
            phase: Phase::Bidding,
            to_act: auction.to_act().unwrap_or(1),
            auction,
            declarer: None,
            bid: 0,
            hand_game: None,
            put_away: 0,
            contract: None,
            tricks: Tricks::new(0),
            calls: [0; MAX_CALLS],
            n_calls: 0,
        }
    }

    // ---- What everyone sees. ----

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
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
    /// The auction.
    pub fn auction(&self) -> &Auction {
        &self.auction
    }
    /// The highest value named so far, the bid the declarer plays at once the auction is over
    /// (0 before any bid and when thrown in).
    pub fn bid(&self) -> u16 {
        if self.declarer.is_some() {
            self.bid
        } else {
            self.auction.current()
        }
    }
    /// The declarer once the auction is over (None while it runs and when thrown in).
    pub fn declarer(&self) -> Option<u8> {
        self.declarer
    }
    /// Whether the deal was thrown in (all passed).
    pub fn thrown_in(&self) -> bool {
        self.auction.outcome() == Some(Outcome::ThrownIn)
    }
    /// Hand (true) or pickup (false), once the declarer chose.
    pub fn hand_game(&self) -> Option<bool> {
        self.hand_game
    }
    /// The contract once announced.
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    /// The trick order of the contract (None before the declaration).
    pub fn order(&self) -> Option<Order> {
        self.contract.map(Contract::order)
    }
    /// The declarer's cards still in hand when the contract is ouvert (public from the
    /// declaration on); None otherwise.
    pub fn open_hand(&self) -> Option<CardSet> {
        match (self.contract, self.declarer) {
            (Some(c), Some(d)) if c.ouvert => Some(self.hands[d as usize]),
            _ => None,
        }
    }
    /// Completed tricks.
    pub fn tricks_done(&self) -> u8 {
        self.tricks.done()
    }
    /// The cards of trick `t` in play order: all three of a completed trick, those played so
    /// far of the current one, none of a later one.
    pub fn trick(&self, t: usize) -> &[Card] {
        self.tricks.trick(t)
    }
    /// The cards of the current trick in play order.
    pub fn current_trick(&self) -> &[Card] {
        self.tricks.current()
    }
    /// The leader of trick `t` (trick 0: Vorhand; later: the previous trick's winner).
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
    /// Card points each seat took in tricks (the skat not included).
    pub fn trick_points(&self) -> [u32; 3] {
        self.tricks.points()
    }
    /// Tricks each seat took.
    pub fn tricks_won(&self) -> [u32; 3] {
        self.tricks.won()
    }
    /// The decisions taken so far, in order, each with the seat that took it.
    pub fn history(&self) -> Vec<(u8, Action)> {
        let mut v = Vec::with_capacity(self.n_calls as usize + 34);
        let mut auction = Auction::new();
        for &code in &self.calls[..self.n_calls as usize] {
            let call = decode_call(code);
            v.push((auction.to_act().unwrap_or(0), Action::Call(call)));
            auction.apply_legal(call);
        }
        let Some(d) = self.declarer else { return v };
        if let Some(hand) = self.hand_game {
            v.push((d, Action::Hand(hand)));
            if !hand && self.phase != Phase::Discard {
                v.push((d, Action::Discard(self.put_away)));
            }
        }
        if let Some(c) = self.contract {
            v.push((d, Action::Declare(c)));
        }
        for t in 0..10 {
            v.extend(self.trick(t).iter().enumerate().map(|(i, &c)| (self.seat_of(t, i), Action::Card(c))));
        }
        v
    }

    // ---- Hidden information. ----

    /// The cards `seat` holds now (the declarer's twelve between pickup and discard).
    pub fn hand(&self, seat: u8) -> CardSet {
        self.hands[seat as usize % 3]
    }
    /// The cards `seat` was dealt.
    pub fn dealt(&self, seat: u8) -> CardSet {
        self.dealt[seat as usize % 3]
    }
    /// The original skat.
    pub fn skat(&self) -> CardSet {
        self.skat
    }
    /// The two cards that count for the declarer once he chose: his discard after a pickup, the
    /// skat in Hand (0 before).
    pub fn put_away(&self) -> CardSet {
        self.put_away
    }
    /// The deal.
    pub fn deal(&self) -> Deal {
        Deal { hands: self.dealt, skat: self.skat }
    }

    // ---- Legal actions. ----

    /// The matadors the declarer knows for `game`: over his 12 cards after a pickup, his 10 in
    /// Hand (0 for null).
    fn known_matadors(&self, game: GameType) -> u32 {
        let Some(d) = self.declarer else { return 0 };
        let cards =
            if self.hand_game == Some(false) { self.dealt[d as usize] | self.skat } else { self.dealt[d as usize] };
        matadors(game, cards).map_or(0, |m| m.0)
    }

    /// Whether `c` can reach the bid with the matadors the declarer knows (spec §4.3): a
    /// contract that cannot is lost as overbid whatever the cards.
    pub fn reaches_bid(&self, c: Contract) -> bool {
        c.max_value(self.known_matadors(c.game)) >= u32::from(self.bid)
    }

    /// The contracts the declarer may announce now (see the module documentation).
    pub fn legal_contracts(&self) -> Vec<Contract> {
        if self.phase != Phase::Declare {
            return Vec::new();
        }
        let family = if self.hand_game == Some(true) { Contract::hand_contracts() } else { Contract::after_pickup() };
        let bid = self.bid as u32;
        if self.rules == Rules::Iss {
            return family.iter().copied().filter(|c| c.null_value().is_none_or(|v| v >= bid)).collect();
        }
        let reach: Vec<Contract> = family.iter().copied().filter(|&c| self.reaches_bid(c)).collect();
        if !reach.is_empty() {
            return reach;
        }
        family.iter().copied().filter(|c| c.game != GameType::Null).collect()
    }

    /// The cards the seat to act may play (0 outside the tricks).
    pub fn legal_cards(&self) -> CardSet {
        match (self.phase, self.contract) {
            (Phase::Tricks, Some(c)) => c.order().legal_cards(self.hands[self.to_act as usize], self.current_trick()),
            _ => 0,
        }
    }

    /// The legal actions of the seat to act: calls as [`Auction::legal`] lists them; `hand`
    /// then `pickup`; the 66 discards; the contracts in [`Contract::ALL`] order; cards in
    /// ascending card order. Empty when the game is over.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Bidding => self.auction.legal().into_iter().map(Action::Call).collect(),
            Phase::Skat => vec![Action::Hand(true), Action::Hand(false)],
            Phase::Discard => {
                let cards: Vec<Card> = iter(self.hands[self.to_act as usize]).collect();
                let mut v = Vec::with_capacity(66);
                for (i, &a) in cards.iter().enumerate() {
                    for &b in &cards[i + 1..] {
                        v.push(Action::Discard(bit(a) | bit(b)));
                    }
                }
                v
            }
            Phase::Declare => self.legal_contracts().into_iter().map(Action::Declare).collect(),
            Phase::Tricks => iter(self.legal_cards()).map(Action::Card).collect(),
            Phase::Finished => Vec::new(),
        }
    }

    /// Whether `action` is legal for the seat to act.
    pub fn is_legal(&self, action: Action) -> bool {
        self.why_illegal(action).is_none()
    }

    /// Why `action` is not legal for the seat to act, in words; None if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        let hand = self.hands[self.to_act as usize % 3];
        match (self.phase, action) {
            (Phase::Finished, _) => Some("the game is finished".into()),
            (Phase::Bidding, Action::Call(c)) => self.auction.why_illegal(c).map(String::from),
            (Phase::Skat, Action::Hand(_)) => None,
            (Phase::Discard, Action::Discard(set)) => {
                if set.count_ones() != 2 {
                    Some("a discard is two cards".into())
                } else if set & !hand != 0 {
                    Some(format!("you do not hold {}", super::cards::names_joined(set & !hand & super::cards::DECK)))
                } else {
                    None
                }
            }
            (Phase::Declare, Action::Declare(c)) => {
                if !c.is_valid() {
                    Some("no such contract".into())
                } else if self.legal_contracts().contains(&c) {
                    None
                } else if c.hand != (self.hand_game == Some(true)) {
                    Some(
                        if c.hand { "a Hand contract after a pickup" } else { "a pickup contract in a Hand game" }
                            .into(),
                    )
                } else {
                    let m = self.known_matadors(c.game);
                    Some(format!(
                        "{} reaches at most {} and cannot reach the bid {}",
                        c.name(),
                        c.max_value(m),
                        self.bid
                    ))
                }
            }
            (Phase::Tricks, Action::Card(c)) => {
                if c >= 32 || hand & bit(c) == 0 {
                    Some(format!("you do not hold {}", if c < 32 { card_name(c) } else { c.to_string() }))
                } else if self.legal_cards() & bit(c) == 0 {
                    let order = self.order()?;
                    let led = order.suit(self.current_trick()[0]);
                    Some(if led == order.trump_suit() {
                        "must follow trump".into()
                    } else {
                        let suit = ["diamonds", "hearts", "spades", "clubs"][led as usize & 3];
                        debug_assert_ne!(led, TRUMP_SUIT);
                        format!("must follow {suit}")
                    })
                } else {
                    None
                }
            }
            (phase, _) => Some(format!("it is the {} phase", phase.name())),
        }
    }

    // ---- Moves. ----

    /// The legal actions' names, comma-separated ("none" when there are none).
    fn legal_names(&self) -> String {
        let legal: Vec<String> = self.legal_actions().iter().map(|a| a.name()).collect();
        if legal.is_empty() {
            "none".into()
        } else {
            legal.join(", ")
        }
    }

    /// Plays `action` for the seat to act; an illegal action is refused with the reason and the
    /// legal actions, and the game is left unchanged.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        if let Some(why) = self.why_illegal(action) {
            return Err(Error::invalid(
                "action",
                action.name(),
                format!("{why}; legal actions: {}", self.legal_names()),
            ));
        }
        self.apply_legal(action);
        Ok(())
    }

    /// Parses the name of an action of the current phase and plays it (see [`Game::apply`]).
    pub fn apply_name(&mut self, name: &str) -> Result<Action> {
        let action = Action::parse(name, self.phase).map_err(|e| match e {
            Error::InvalidValue { what, value, allowed } => Error::InvalidValue {
                what,
                value,
                allowed: format!("{allowed}; legal actions: {}", self.legal_names()),
            },
            e => e,
        })?;
        self.apply(action)?;
        Ok(action)
    }

    /// Plays `action`, which must be legal ([`Game::is_legal`]).
    pub fn apply_legal(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "{action:?} in {self:?}");
        let p = self.to_act as usize;
        match action {
            Action::Call(c) => {
                self.calls[self.n_calls as usize % MAX_CALLS] = encode_call(c);
                self.n_calls += 1;
                self.auction.apply_legal(c);
                match self.auction.outcome() {
                    None => self.to_act = self.auction.to_act().unwrap_or(0),
                    Some(Outcome::ThrownIn) => self.phase = Phase::Finished,
                    Some(Outcome::Declarer { declarer, bid }) => {
                        self.declarer = Some(declarer);
                        self.bid = bid;
                        self.to_act = declarer;
                        self.phase = Phase::Skat;
                    }
                }
            }
            Action::Hand(true) => {
                self.hand_game = Some(true);
                self.put_away = self.skat;
                self.phase = Phase::Declare;
            }
            Action::Hand(false) => {
                self.hand_game = Some(false);
                self.hands[p] |= self.skat;
                self.phase = Phase::Discard;
            }
            Action::Discard(set) => {
                self.hands[p] &= !set;
                self.put_away = set;
                self.phase = Phase::Declare;
            }
            Action::Declare(c) => {
                self.contract = Some(c);
                self.phase = Phase::Tricks;
                self.to_act = 0;
            }
            Action::Card(c) => {
                self.hands[p] &= !bit(c);
                let order = self.order().expect("tricks are played under a contract");
                self.to_act = (self.to_act + 1) % 3;
                if let Some(winner) = self.tricks.play(c, &order, points) {
                    // The winner leads the next trick.
                    self.to_act = winner;
                    if self.tricks.done() == 10 || self.decided_early() {
                        self.phase = Phase::Finished;
                    }
                }
            }
        }
    }

    /// Whether the ISS rules end card play now (see the module documentation): after a
    /// completed trick, a null declarer has taken a trick, or the defenders have taken one
    /// against an announced Schwarz, or more than 30 card points against an announced Schneider.
    fn decided_early(&self) -> bool {
        let (Rules::Iss, Some(d), Some(c)) = (self.rules, self.declarer, self.contract) else { return false };
        let won = self.tricks.won();
        let declarer_tricks = won[d as usize];
        let defender_tricks = won.iter().sum::<u32>() - declarer_tricks;
        let points = self.tricks.points();
        let defender_points = points.iter().sum::<u32>() - points[d as usize];
        match c.game {
            GameType::Null => declarer_tricks > 0,
            _ => (c.schwarz && defender_tricks > 0) || (c.schneider && defender_points > 30),
        }
    }

    // ---- The result. ----

    /// The result of a finished game (None before the end).
    pub fn result(&self) -> Option<GameResult> {
        if !self.finished() {
            return None;
        }
        Some(match (self.declarer, self.contract) {
            (Some(d), Some(c)) => GameResult::played(
                d,
                c,
                self.bid,
                self.dealt[d as usize] | self.skat,
                self.tricks.points()[d as usize] + super::cards::set_points(self.put_away),
                self.tricks.won()[d as usize],
            ),
            _ => GameResult::THROWN_IN,
        })
    }

    /// Seeger-Fabian points of each seat: the result's once the game is over, zeros before.
    pub fn returns(&self) -> [i32; 3] {
        self.result().map_or([0; 3], |r| r.tp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_small_and_the_call_log_round_trips() {
        assert!(std::mem::size_of::<Game>() <= 512, "{}", std::mem::size_of::<Game>());
        for c in [Call::Pass, Call::Hold].into_iter().chain(BID_VALUES.iter().map(|&v| Call::Bid(v))) {
            assert_eq!(decode_call(encode_call(c)), c);
        }
    }

    #[test]
    fn phases_of_a_game() {
        let mut g = Game::new(&Deal::for_game(3, 0));
        assert_eq!((g.phase(), g.player()), (Phase::Bidding, Some(1)));
        g.apply_name("18").unwrap();
        assert_eq!(g.player(), Some(0));
        g.apply_name("pass").unwrap();
        assert_eq!(g.player(), Some(2));
        g.apply_name("pass").unwrap();
        assert_eq!((g.phase(), g.player(), g.declarer(), g.bid()), (Phase::Skat, Some(1), Some(1), 18));
        g.apply_name("pickup").unwrap();
        assert_eq!(g.hand(1).count_ones(), 12);
        assert_eq!(g.legal_actions().len(), 66);
        let discard = g.legal_actions()[0];
        g.apply(discard).unwrap();
        assert_eq!(g.hand(1).count_ones(), 10);
        assert_eq!(g.legal_actions().len(), 7, "every pickup contract reaches 18");
        g.apply_name("grand").unwrap();
        assert_eq!((g.phase(), g.player()), (Phase::Tricks, Some(0)));
        let before = g;
        let e = g.apply_name("hand").unwrap_err().to_string();
        assert!(e.contains("legal actions"), "{e}");
        assert_eq!(g, before);
    }
}

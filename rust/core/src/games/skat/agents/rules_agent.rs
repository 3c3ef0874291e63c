//! The `rules` agent: a hand-written Skat player, deterministic (it never draws from its stream).
//!
//! **Hand strength.** A hand is scored for each game (higher is stronger):
//!
//! * *suit X*: one point per trump (Jacks and X cards), +0.5 for ♣J, +0.25 for ♠J, +0.25 for the
//!   trump Ace; per side suit +1 for the Ace, +0.75 for a Ten beside its Ace, +0.25 for a Ten
//!   guarded by another card, −0.25 for a bare Ten, +0.5 for a void (with four or more trumps);
//! * *grand*: 1.5 per Jack, +0.5 for ♣J; per suit +1 for the Ace, +0.75 for a Ten beside its Ace,
//!   +0.25 for a Ten guarded by two cards, +0.5 per card beyond three in a suit headed by its Ace,
//!   +0.25 for a void; a grand needs two Jacks;
//! * *null*: a suit is safe when its k-th lowest card (k = 0, 1, …, null order 7 8 9 T J Q K A)
//!   ranks at most 2k (a 7, then at most a 9, a Jack, a King); its *excess* is how far its cards
//!   rank above that. Score 7 − 1.5 × total excess + 0.25 per void.
//!
//! **Bidding.** Before seeing the skat a suit or grand game is worth playing from score 6.5
//! (Hand from 8.5); its value is base × (matadors of the ten cards + 1 game, + 1 Hand). A null is
//! worth 35 (Hand) when every suit is safe, 23 when the unsafe suits hold at most two cards in
//! all (the discard is to fix them). The bid limit is the highest such value; with none the agent passes.
//! The bidder names the next value while it is within the limit, the hearer holds while the
//! value named is within it; Vorhand alone bids 18 when its limit reaches 18.
//!
//! **Hand or pickup.** Hand when a suit or grand game scores 8.5 and its Hand value reaches the
//! bid, or when the only game worth playing is a safe null; pickup otherwise.
//!
//! **Discard and contract.** After a pickup every game whose highest value (with the matadors
//! of the twelve cards) reaches the bid is tried with each of the 66 discards; a discard's score
//! is the game's score of the ten cards left, +0.03 per card point put away (suit and grand:
//! bury Tens and Aces of short suits, make voids), −3 per trump put away. The game with the best
//! score above its threshold (6 for suit and grand, 7 for null; a grand gets 2 on top, as it is
//! worth twice a suit game) and its best discard are played, as the plain contract (`null
//! ouvert` only when the bid needs it). In a Hand game the contract is the legal one whose game
//! scores best above its threshold (the grand bonus included), plain (no announcement).
//!
//! In self-play (2,000 deals, seed 5) 9% of the deals are thrown in; of the games played 32%
//! are grands (87% won) and 67% suit games (70% won); nulls are rare. The thresholds are
//! [`Thresholds`]; head to head (3,000–8,000 deals) a bid threshold of 6 or 7.5 loses 2–4 TP/G
//! against the defaults, the others moved by ±0.5 change less than 2 TP/G.
//!
//! **Cards, suit and grand.** "Master" cards are those no card still out (unseen by the agent or
//! held by others) of their suit beats; voids are read from who failed to follow.
//!
//! * Declarer leading: pull trumps while the defenders may hold some (the highest trump when it
//!   is master or the agent holds more trumps than are out, else the lowest), then cash master
//!   side cards (Aces first), then lead a low card of its longest side suit.
//! * Declarer following: last to play, win as cheaply as possible (with the plain card of most
//!   points, else the lowest winning trump) when the trick is worth it; second, win with a
//!   master card, or trump a trick of 10 or more points; otherwise throw the card of fewest
//!   points.
//! * Defender leading: cash a master side card in a suit the declarer still follows, else lead
//!   low from the shortest side suit the declarer still follows (no bare Ten), else the lowest
//!   trump.
//! * Defender following: when the partner wins the trick for sure (the declarer has played, or
//!   the partner's card is master and the declarer still follows the suit) schmier the card of
//!   most points; when the declarer wins, last to play beat him (the plain card of most points,
//!   else the lowest winning trump), second beat him with a master card or when the trick holds
//!   10 or more points; otherwise play the card of fewest points.
//!
//! **Cards, null.** The declarer plays the highest card that still loses the trick, else his
//! highest card (leading: his lowest card). Defenders lead their lowest card; following, they let
//! the declarer's card win (the highest card below it), else play their lowest card once the
//! declarer must still play, else throw their highest card.

use super::super::actions::{Action, Phase};
use super::super::bidding::Call;
use super::super::cards::{bit, card, points, set_points, ACE, CLUBS, DECK, JACK, JACKS, SPADES, TEN};
use super::super::contract::{Contract, GameType, Order};
use super::super::scoring::matadors;
use super::super::view::View;
use super::agent::{random_action, Agent, Skat};
use crate::cards::set::SUIT_BITS;
use crate::cards::{iter, Card, CardSet, Suits};
use crate::error::Result;
use rand_pcg::Pcg64;

/// The rule-based player (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RulesAgent {
    /// Its thresholds.
    pub thresholds: Thresholds,
}

/// The thresholds of the rule-based player; the defaults are those the module documentation
/// gives (and the `rules` spec plays).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Score from which a suit or grand game is bid on the ten dealt cards.
    pub bid: f32,
    /// Score from which a suit or grand game is played Hand.
    pub hand: f32,
    /// Score from which a suit or grand game is played on the ten cards kept after a pickup.
    pub play: f32,
    /// What a grand's score gets on top when games are compared (its value is twice a suit's).
    pub grand_bonus: f32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { bid: 6.5, hand: 8.5, play: 6.0, grand_bonus: 2.0 }
    }
}

/// The grand score of a hand with fewer than two Jacks is at most this (a grand needs two).
const NO_GRAND: f32 = 0.0;
/// Score from which a null is played.
const NULL_THRESHOLD: f32 = 7.0;

/// The ♣ Jack.
const CJ: Card = card(JACK, CLUBS);
/// The ♠ Jack.
const SJ: Card = card(JACK, SPADES);

/// The cards of natural suit `s` (Jacks included).
fn natural(s: u8) -> CardSet {
    SUIT_BITS[s as usize & 3] & DECK
}

fn has(hand: CardSet, c: Card) -> bool {
    hand & bit(c) != 0
}

/// The side-suit part of a suit or grand score of `cards` (a natural suit's cards, Jacks out).
fn side_suit(cards: CardSet, s: u8, grand: bool, long_trumps: bool) -> f32 {
    let n = cards.count_ones();
    let (ace, ten) = (has(cards, card(ACE, s)), has(cards, card(TEN, s)));
    let mut v = 0.0;
    if n == 0 {
        return if grand {
            0.25
        } else if long_trumps {
            0.5
        } else {
            0.0
        };
    }
    if ace {
        v += 1.0;
        if ten {
            v += 0.75;
        }
        if grand && n > 3 {
            v += 0.5 * (n - 3) as f32;
        }
    } else if ten {
        v += match (n, grand) {
            (1, _) => -0.25,
            (2, false) | (3.., false) => 0.25,
            (3.., true) => 0.25,
            _ => 0.0,
        };
    }
    v
}

/// The null excess of each natural suit of `hand` (0: safe; see the module documentation).
fn null_excess(hand: CardSet) -> [u32; 4] {
    std::array::from_fn(|s| {
        iter(hand & natural(s as u8)).enumerate().map(|(k, c)| ((c / 4) as u32).saturating_sub(2 * k as u32)).sum()
    })
}

/// The score of `hand` for `game` (see the module documentation).
pub fn strength(game: GameType, hand: CardSet) -> f32 {
    match game {
        GameType::Suit(x) => {
            let trumps = hand & Contract::plain(game).trumps();
            let n = trumps.count_ones();
            let mut v = n as f32;
            v += 0.5 * has(hand, CJ) as u8 as f32 + 0.25 * has(hand, SJ) as u8 as f32;
            v += 0.25 * has(hand, card(ACE, x)) as u8 as f32;
            for s in (0..4).filter(|&s| s != x) {
                v += side_suit(hand & natural(s) & !JACKS, s, false, n >= 4);
            }
            v
        }
        GameType::Grand => {
            let jacks = (hand & JACKS).count_ones();
            let mut v = 1.5 * jacks as f32 + 0.5 * has(hand, CJ) as u8 as f32;
            for s in 0..4 {
                v += side_suit(hand & natural(s) & !JACKS, s, true, false);
            }
            if jacks < 2 {
                v = v.min(NO_GRAND);
            }
            v
        }
        GameType::Null => {
            let excess: u32 = null_excess(hand).iter().sum();
            let voids = (0..4).filter(|&s| hand & natural(s) == 0).count();
            NULL_THRESHOLD - 1.5 * excess as f32 + 0.25 * voids as f32
        }
    }
}

/// The highest value worth bidding on the ten dealt cards `hand` (0: pass).
pub fn bid_limit(hand: CardSet, th: &Thresholds) -> u32 {
    let mut limit = 0;
    for game in GameType::ALL {
        if game == GameType::Null {
            let ex = null_excess(hand);
            let unsafe_suits: Vec<usize> = (0..4).filter(|&s| ex[s] > 0).collect();
            if unsafe_suits.is_empty() {
                limit = limit.max(35);
            } else if unsafe_suits.iter().map(|&s| (hand & natural(s as u8)).count_ones()).sum::<u32>() <= 2 {
                limit = limit.max(23);
            }
            continue;
        }
        let s = strength(game, hand);
        if s >= th.bid {
            let m = matadors(game, hand).map_or(1, |m| m.0);
            let levels = 1 + m + (s >= th.hand) as u32;
            limit = limit.max(game.base() * levels);
        }
    }
    limit
}

/// The threshold of `game` on the ten cards it is played with (the grand bonus taken off).
fn play_threshold(game: GameType, th: &Thresholds) -> f32 {
    match game {
        GameType::Null => NULL_THRESHOLD,
        GameType::Grand => th.play - th.grand_bonus,
        GameType::Suit(_) => th.play,
    }
}

/// The game and discard of a declarer who picked up: `cards` are his twelve cards, `bid` the bid.
pub fn pickup_plan(cards: CardSet, bid: u32, th: &Thresholds) -> (GameType, CardSet) {
    let list: Vec<Card> = iter(cards).collect();
    let mut best: Option<(f32, GameType, CardSet)> = None;
    let reaching = |g: GameType| {
        let c = Contract::plain(g);
        let m = matadors(g, cards).map_or(0, |m| m.0);
        c.max_value(m) >= bid || (g == GameType::Null && bid <= 46)
    };
    let any_reaches = GameType::ALL.iter().any(|&g| reaching(g));
    for game in GameType::ALL {
        if any_reaches && !reaching(game) || !any_reaches && game == GameType::Null {
            continue;
        }
        let trumps = Contract::plain(game).trumps();
        for (i, &a) in list.iter().enumerate() {
            for &b in &list[i + 1..] {
                let pair = bit(a) | bit(b);
                let mut v = strength(game, cards & !pair) - play_threshold(game, th);
                if game != GameType::Null {
                    v += 0.03 * set_points(pair) as f32 - 3.0 * (pair & trumps).count_ones() as f32;
                }
                if best.is_none_or(|(s, _, _)| v > s) {
                    best = Some((v, game, pair));
                }
            }
        }
    }
    let (_, game, pair) = best.expect("twelve cards have discards");
    (game, pair)
}

/// The contract to announce among `legal` (non-empty): the first of `game` when there is one,
/// else the one whose game scores best on `hand` above its threshold.
fn choose_contract(legal: &[Contract], game: Option<GameType>, hand: CardSet, th: &Thresholds) -> Contract {
    if let Some(c) = game.and_then(|g| legal.iter().find(|c| c.game == g)) {
        return *c;
    }
    let score = |c: &Contract| strength(c.game, hand) - play_threshold(c.game, th);
    let mut best = legal[0];
    for c in legal {
        if score(c) > score(&best) {
            best = *c;
        }
    }
    best
}

/// What the agent knows about the cards during the tricks.
struct Table<'a> {
    view: &'a View<'a>,
    order: Order,
    hand: CardSet,
    /// Cards neither in the agent's hand, nor played, nor known to lie in the skat.
    out: CardSet,
    /// Effective suits each seat has shown void in (bit per suit).
    voids: [u8; 3],
}

impl<'a> Table<'a> {
    fn new(view: &'a View<'a>, contract: Contract) -> Table<'a> {
        let order = contract.order();
        let hand = view.hand();
        let known_skat = if view.is_declarer() { view.put_away().unwrap_or(0) } else { 0 };
        let out = DECK & !hand & !view.played() & !known_skat;
        let mut voids = [0u8; 3];
        for t in 0..=view.tricks_done().min(9) as usize {
            let trick = view.trick(t);
            let Some(&first) = trick.first() else { continue };
            let led = order.suit(first);
            for (i, &c) in trick.iter().enumerate() {
                if order.shows_void(c, led) {
                    voids[view.seat_of(t, i) as usize] |= 1 << led;
                }
            }
        }
        Table { view, order, hand, out, voids }
    }

    /// Whether no card still out beats `c` within its suit.
    fn master(&self, c: Card) -> bool {
        self.order.suits().stronger(c) & self.out == 0
    }

    /// Power of `c` within its own suit (for picking high and low cards).
    fn power(&self, c: Card) -> u8 {
        self.order.power(c, self.order.suit(c))
    }

    fn lowest(&self, set: CardSet) -> Card {
        iter(set).min_by_key(|&c| (points(c), self.power(c))).expect("a non-empty set")
    }

    fn highest_power(&self, set: CardSet) -> Card {
        iter(set).max_by_key(|&c| self.power(c)).expect("a non-empty set")
    }

    fn lowest_power(&self, set: CardSet) -> Card {
        iter(set).min_by_key(|&c| self.power(c)).expect("a non-empty set")
    }

    /// The card of most points, the weaker one on a tie.
    fn most_points(&self, set: CardSet) -> Card {
        iter(set).max_by_key(|&c| (points(c), u8::MAX - self.power(c))).expect("a non-empty set")
    }

    /// The cards of `set` that would win the current trick now.
    fn winners(&self, set: CardSet) -> CardSet {
        let trick = self.view.current_trick();
        let Some(w) = self.order.winner(trick) else { return set };
        iter(set).filter(|&c| self.order.beats(c, trick[w])).fold(0, |m, c| m | bit(c))
    }

    /// The seat winning the current trick so far.
    fn winning_seat(&self) -> Option<u8> {
        let t = self.view.tricks_done() as usize;
        let w = self.order.winner(self.view.current_trick())?;
        Some(self.view.seat_of(t, w))
    }

    /// A cheap win: the plain winner of most points, else the lowest winning trump.
    fn cheap_win(&self, winners: CardSet) -> Card {
        let plain = winners & !self.order.trumps();
        if plain != 0 {
            self.most_points(plain)
        } else {
            self.lowest_power(winners)
        }
    }

    fn trick_points(&self) -> u32 {
        self.view.current_trick().iter().map(|&c| points(c) as u32).sum()
    }
}

/// The declarer's card in a suit or grand game.
fn declarer_card(t: &Table, legal: CardSet) -> Card {
    let trumps = t.order.trumps();
    let trick = t.view.current_trick();
    if trick.is_empty() {
        let mine = legal & trumps;
        let theirs = t.out & trumps;
        if mine != 0 && theirs != 0 {
            let top = t.highest_power(mine);
            return if t.master(top) || mine.count_ones() > theirs.count_ones() { top } else { t.lowest_power(mine) };
        }
        let masters = iter(legal & !trumps).filter(|&c| t.master(c)).fold(0, |m, c| m | bit(c));
        if masters != 0 {
            return t.most_points(masters);
        }
        let side = legal & !trumps;
        if side != 0 {
            let longest = (0..4u8).max_by_key(|&s| (side & t.order.suit_cards(s)).count_ones()).unwrap_or(0);
            let cards = side & t.order.suit_cards(longest);
            return t.lowest(if cards != 0 { cards } else { side });
        }
        return t.lowest_power(legal);
    }
    let winners = t.winners(legal);
    let last = trick.len() == 2;
    if winners != 0 {
        if last && (t.trick_points() > 0 || winners & !trumps != 0) {
            return t.cheap_win(winners);
        }
        let masters = iter(winners).filter(|&c| t.master(c)).fold(0, |m, c| m | bit(c));
        if !last && masters != 0 {
            return t.cheap_win(masters);
        }
        if t.trick_points() >= 10 {
            return t.cheap_win(winners);
        }
    }
    t.lowest(legal)
}

/// A defender's card in a suit or grand game.
fn defender_card(t: &Table, legal: CardSet, declarer: u8) -> Card {
    let trumps = t.order.trumps();
    let trick = t.view.current_trick();
    let follows = |c: Card| t.voids[declarer as usize] & (1 << t.order.suit(c)) == 0;
    if trick.is_empty() {
        let side = legal & !trumps;
        let masters = iter(side).filter(|&c| t.master(c) && follows(c)).fold(0, |m, c| m | bit(c));
        if masters != 0 {
            return t.most_points(masters);
        }
        let followed = iter(side).filter(|&c| follows(c)).fold(0, |m, c| m | bit(c));
        if followed != 0 {
            let shortest = (0..4u8)
                .filter(|&s| followed & t.order.suit_cards(s) != 0)
                .min_by_key(|&s| (t.hand & t.order.suit_cards(s)).count_ones())
                .unwrap_or(0);
            let cards = followed & t.order.suit_cards(shortest);
            let bare_ten = cards.count_ones() == 1 && points(t.lowest(cards)) == 10;
            if !bare_ten || cards == followed {
                return t.lowest(cards);
            }
            return t.lowest(followed & !cards);
        }
        return t.lowest(legal);
    }
    let winner = t.winning_seat();
    let declarer_played = (0..trick.len()).any(|i| t.view.seat_of(t.view.tricks_done() as usize, i) == declarer);
    let last = trick.len() == 2;
    if winner != Some(declarer) {
        let w = trick[t.order.winner(trick).unwrap_or(0)];
        let w_trump = t.order.suit(w) == t.order.trump_suit();
        let safe = declarer_played || (t.master(w) && (w_trump || follows(trick[0])));
        return if safe { t.most_points(legal) } else { t.lowest(legal) };
    }
    let winners = t.winners(legal);
    if winners != 0 {
        if last {
            return t.cheap_win(winners);
        }
        let masters = iter(winners).filter(|&c| t.master(c)).fold(0, |m, c| m | bit(c));
        if masters != 0 {
            return t.cheap_win(masters);
        }
        if t.trick_points() >= 10 {
            return t.cheap_win(winners);
        }
    }
    t.lowest(legal)
}

/// A card in null.
fn null_card(t: &Table, legal: CardSet, declarer: u8) -> Card {
    let trick = t.view.current_trick();
    let me = t.view.seat();
    if trick.is_empty() {
        return t.lowest_power(legal);
    }
    let w = trick[t.order.winner(trick).unwrap_or(0)];
    let under = iter(legal).filter(|&c| !t.order.beats(c, w)).fold(0, |m, c| m | bit(c));
    if me == declarer {
        return if under != 0 { t.highest_power(under) } else { t.highest_power(legal) };
    }
    if t.winning_seat() == Some(declarer) {
        return if under != 0 { t.highest_power(under) } else { t.lowest_power(legal) };
    }
    let declarer_played = (0..trick.len()).any(|i| t.view.seat_of(t.view.tricks_done() as usize, i) == declarer);
    if declarer_played {
        t.highest_power(legal)
    } else {
        t.lowest_power(legal)
    }
}

impl RulesAgent {
    fn call(&self, view: &View) -> Action {
        let limit = bid_limit(view.dealt_hand(), &self.thresholds);
        let legal = view.legal_actions();
        if legal.contains(&Action::Call(Call::Hold)) {
            return Action::Call(if view.bid() as u32 <= limit { Call::Hold } else { Call::Pass });
        }
        let next = legal.iter().find_map(|a| match a {
            Action::Call(Call::Bid(v)) => Some(*v),
            _ => None,
        });
        match next {
            Some(v) if v as u32 <= limit => Action::Call(Call::Bid(v)),
            _ => Action::Call(Call::Pass),
        }
    }

    fn hand_or_pickup(&self, view: &View) -> Action {
        let th = &self.thresholds;
        let hand = view.hand();
        let bid = view.bid() as u32;
        let hand_game = GameType::ALL.iter().any(|&g| {
            g != GameType::Null && strength(g, hand) >= th.hand && {
                let m = matadors(g, hand).map_or(0, |m| m.0);
                g.base() * (m + 2) >= bid
            }
        });
        let suit_or_grand = GameType::ALL.iter().any(|&g| g != GameType::Null && strength(g, hand) >= th.bid);
        let safe_null = null_excess(hand).iter().all(|&e| e == 0) && bid <= 35;
        Action::Hand(hand_game || (!suit_or_grand && safe_null))
    }

    fn declare(&self, view: &View) -> Action {
        let th = &self.thresholds;
        let legal = view.legal_contracts();
        let hand = view.hand();
        let game = match view.hand_game() {
            Some(false) => Some(pickup_plan(hand | view.put_away().unwrap_or(0), view.bid() as u32, th).0),
            _ => None,
        };
        Action::Declare(choose_contract(&legal, game, hand, th))
    }

    fn card(view: &View) -> Option<Action> {
        let (contract, declarer) = (view.contract()?, view.declarer()?);
        let legal = view.legal_cards();
        if legal == 0 {
            return None;
        }
        let t = Table::new(view, contract);
        let c = match contract.game {
            GameType::Null => null_card(&t, legal, declarer),
            _ if view.is_declarer() => declarer_card(&t, legal),
            _ => defender_card(&t, legal, declarer),
        };
        Some(Action::Card(c))
    }
}

impl Agent<Skat> for RulesAgent {
    fn name(&self) -> String {
        "rules".into()
    }
    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        if !view.to_act() {
            return random_action(view, rng);
        }
        Ok(match view.phase() {
            Phase::Bidding => self.call(view),
            Phase::Skat => self.hand_or_pickup(view),
            Phase::Discard => Action::Discard(pickup_plan(view.hand(), view.bid() as u32, &self.thresholds).1),
            Phase::Declare => self.declare(view),
            Phase::Tricks => match Self::card(view) {
                Some(a) => a,
                None => return random_action(view, rng),
            },
            Phase::Finished => return random_action(view, rng),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::{HEARTS, NOTATION};
    use super::*;

    fn set(text: &str) -> CardSet {
        NOTATION.parse_set(text).unwrap()
    }

    #[test]
    fn strength_and_bid_limits() {
        // Four Jacks and long clubs: a clubs game with four, worth 12 × 5 or more.
        let strong = set("CJ SJ HJ DJ CA CT CK C9 SA HA");
        let th = Thresholds::default();
        assert!(strength(GameType::Suit(CLUBS), strong) >= th.hand);
        assert!(bid_limit(strong, &th) >= 60, "{}", bid_limit(strong, &th));
        // Nothing: no trumps to speak of, high cards everywhere.
        let weak = set("DQ D9 HK H8 SQ S9 CK C8 DT HT");
        assert_eq!(bid_limit(weak, &th), 0);
        // Low cards in every suit: a safe null.
        let null = set("D7 D8 D9 H7 H9 S7 S8 SJ C7 C9");
        assert_eq!(null_excess(null), [0; 4]);
        assert_eq!(bid_limit(null, &th), 35);
        assert!(strength(GameType::Suit(HEARTS), weak) < th.bid);
    }

    #[test]
    fn the_discard_keeps_trumps_and_buries_points() {
        // Three Jacks and long clubs: a clubs game, or a grand with the grand bonus.
        let twelve = set("CJ SJ HJ CA CT CK CQ C9 ST SA D7 HT");
        let (game, pair) = pickup_plan(twelve, 18, &Thresholds::default());
        assert!(matches!(game, GameType::Suit(CLUBS) | GameType::Grand), "{game:?}");
        // Five trumps and little else: clubs, burying the bare Ten of hearts.
        let twelve = set("CJ DJ CA CK CQ C9 C8 HT S7 S8 D9 DK");
        let (game, pair2) = pickup_plan(twelve, 18, &Thresholds::default());
        assert_eq!(game, GameType::Suit(CLUBS));
        assert!(pair2 & set("HT") != 0 && pair2 & Contract::plain(game).trumps() == 0, "{}", NOTATION.names(pair2));
        assert_eq!(pair & Contract::plain(game).trumps(), 0);
        assert!(set_points(pair) >= 10, "{}", NOTATION.names(pair));
    }
}

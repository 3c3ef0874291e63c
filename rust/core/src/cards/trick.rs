//! Tricks: who must follow what, who wins, and what not following shows.
//!
//! A contract (Setback once trump is set, a Schafkopf Sauspiel, a Skat grand, …) orders the cards
//! in two layers:
//!
//! * its [`Suits`]: every card's *effective suit* and its rank there. A plain card belongs to its
//!   natural suit; a trump to the trump suit: the natural suit it extends (Hearts in a Sauspiel,
//!   where the Obers and Unters join the hearts) or [`TRUMP_SUIT`] when the trumps are a suit of
//!   their own (Wenz's Unters, grand's Jacks). [`NaturalSuits`] computes the natural order (every
//!   card in its suit, ranked by index), which serves every contract whose trumps are one suit
//!   (Setback's); a [`SuitTable`] tabulates any other, built at compile time;
//! * a [`TrickOrder`]: the suits, which effective suit is trump, and the [`Follow`] rule.
//!
//! The rules of a trick are written once, over effective suits:
//!
//! * **follow suit** ([`TrickOrder::legal`]): a player holding a card of the suit led plays one
//!   (or, under [`Follow::SuitOrTrump`], a trump); a player holding none plays anything;
//! * **the winner** ([`TrickOrder::winner`]): the highest trump if any, else the highest card of
//!   the suit led; other suits never win;
//! * **voids shown** ([`TrickOrder::shows_void`]): a card the follow rule would not allow to a
//!   holder of the suit led shows that its player holds none of that suit.
//!
//! A game adds its own restrictions on top (Schafkopf's called Ace, say) by narrowing what
//! [`TrickOrder::legal`] allows.
//!
//! A [`TrickOrder`] is small and `Copy`, made where it is used (from a deal's trump suit, say);
//! its methods are compares, masks, selects and table loads, and with [`NaturalSuits`] they
//! compile to plain arithmetic on the card index.

use super::deck::Deck;
use super::set::{bit, highest, rank, suit, Card, CardSet, SUIT_BITS};

/// The effective suit of trumps that extend no natural suit (Wenz's Unters, grand's Jacks).
pub const TRUMP_SUIT: u8 = 4;

/// An effective suit that no card has: the trump suit of a contract without trumps (null), and
/// the suit led before any card: no card follows it, so [`TrickOrder::legal`] allows a whole hand.
pub const NO_SUIT: u8 = 7;

/// Slots of the per-suit tables: the four natural suits, [`TRUMP_SUIT`], padding to a power of 2
/// (so that `suit & 7` indexes them without a bounds check).
const SUIT_SLOTS: usize = 8;
/// Power of a trump: above every plain card.
const TRUMP_POWER: u8 = 32;
/// Power of a card of the suit led.
const LED_POWER: u8 = 16;

/// What a player holding a card of the suit led may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Follow {
    /// A card of the suit led (Schafkopf, Skat, whist).
    Suit,
    /// A card of the suit led or a trump (Setback, where trumping in is always allowed).
    SuitOrTrump,
}

/// Every card's effective suit and rank in it: what a [`TrickOrder`] is built on.
pub trait Suits: Copy {
    /// The deck.
    fn deck(self) -> Deck;
    /// The effective suit of `c` (of a card of the deck).
    fn suit(self, c: Card) -> u8;
    /// The rank of `c` in its effective suit, from 1 (the lowest) to at most 15.
    fn rank(self, c: Card) -> u8;
    /// The cards of effective suit `s` (none for a suit no card has, as [`NO_SUIT`]).
    fn suit_cards(self, s: u8) -> CardSet;
    /// The cards of `c`'s effective suit.
    fn mates(self, c: Card) -> CardSet;
    /// The cards of `c`'s effective suit that rank above it.
    fn stronger(self, c: Card) -> CardSet;
    /// Whether in every effective suit the higher card index is the higher rank.
    fn by_index(self) -> bool;
}

/// The natural order of a deck: every card in its natural suit, ranked by rank index (the
/// highest highest). Computed, not tabulated: suit and rank are bits of the card index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NaturalSuits {
    deck: Deck,
    /// The deck's suits by effective suit (none for [`TRUMP_SUIT`] and above).
    members: &'static [CardSet; SUIT_SLOTS],
}

/// The natural suits of a deck of `ranks` ranks, by effective suit.
const fn natural_members(ranks: u8) -> [CardSet; SUIT_SLOTS] {
    let cards = (1u64 << (4 * ranks)) - 1;
    [SUIT_BITS[0] & cards, SUIT_BITS[1] & cards, SUIT_BITS[2] & cards, SUIT_BITS[3] & cards, 0, 0, 0, 0]
}
const NATURAL_52: [CardSet; SUIT_SLOTS] = natural_members(Deck::STANDARD_52.ranks());
const NATURAL_32: [CardSet; SUIT_SLOTS] = natural_members(Deck::PIQUET_32.ranks());

impl NaturalSuits {
    /// The natural order of `deck`.
    pub const fn new(deck: Deck) -> NaturalSuits {
        let members = if deck.ranks() == Deck::STANDARD_52.ranks() { &NATURAL_52 } else { &NATURAL_32 };
        NaturalSuits { deck, members }
    }
}

impl Suits for NaturalSuits {
    #[inline]
    fn deck(self) -> Deck {
        self.deck
    }
    #[inline]
    fn suit(self, c: Card) -> u8 {
        suit(c)
    }
    #[inline]
    fn rank(self, c: Card) -> u8 {
        rank(c) + 1
    }
    #[inline]
    fn suit_cards(self, s: u8) -> CardSet {
        self.members[s as usize & 7]
    }
    #[inline]
    fn mates(self, c: Card) -> CardSet {
        self.members[suit(c) as usize]
    }
    #[inline]
    fn stronger(self, c: Card) -> CardSet {
        self.mates(c) & (u64::MAX << c << 1)
    }
    #[inline]
    fn by_index(self) -> bool {
        true
    }
}

/// Every card's effective suit and rank as tables, for contracts whose order is not natural
/// (see the module documentation). Built at compile time by [`SuitTable::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitTable {
    /// The effective suit of each card ([`NO_SUIT`] past the deck). 256 entries, so that a card
    /// byte indexes them with no mask and no bounds check.
    suit_of: [u8; 256],
    /// The rank of each card in its effective suit, from 1 (the lowest; 0 past the deck).
    rank: [u8; 256],
    /// The cards of each effective suit.
    members: [CardSet; SUIT_SLOTS],
    /// The cards of each card's effective suit that rank above it.
    stronger: [CardSet; 64],
    /// Whether in every effective suit the higher card index is the higher rank.
    by_index: bool,
    deck: Deck,
}

impl SuitTable {
    /// The table of a contract over `deck` whose `trumps`, listed high to low, form the effective
    /// suit `trump_suit` (the natural suit they extend, or [`TRUMP_SUIT`]); every other card is a
    /// plain card of its natural suit, its rank index listed in `plain` (high to low, the same in
    /// every suit). A contract without trumps lists none.
    ///
    /// A `const fn`, so that a game's tables are built at compile time. It panics (a compile
    /// error for a constant) on a table that is not one: a card listed twice or not in the deck, a
    /// card neither trump nor of a plain rank, a plain card of the trump suit, more than 15
    /// trumps or plain ranks.
    pub const fn new(deck: Deck, trumps: &[Card], trump_suit: u8, plain: &[u8]) -> SuitTable {
        assert!(trump_suit <= TRUMP_SUIT || trumps.is_empty(), "the trump suit is a natural suit or TRUMP_SUIT");
        assert!(trumps.len() < 16 && plain.len() < 16, "at most 15 trumps and 15 plain ranks");
        let mut t = SuitTable {
            suit_of: [NO_SUIT; 256],
            rank: [0; 256],
            members: [0; SUIT_SLOTS],
            stronger: [0; 64],
            by_index: true,
            deck,
        };
        let mut i = 0;
        while i < trumps.len() {
            let c = trumps[i] as usize;
            assert!(deck.contains(trumps[i]), "a trump is not a card of the deck");
            assert!(t.rank[c] == 0, "a trump is listed twice");
            t.suit_of[c] = trump_suit;
            t.rank[c] = (trumps.len() - i) as u8;
            i += 1;
        }
        let mut c = 0;
        while c < deck.size() {
            if t.rank[c] == 0 {
                let s = suit(c as Card);
                assert!(s != trump_suit, "every card of the trump suit is a trump");
                let mut j = 0;
                while j < plain.len() && plain[j] != rank(c as Card) {
                    j += 1;
                }
                assert!(j < plain.len(), "every card is a trump or of a plain rank");
                t.suit_of[c] = s;
                t.rank[c] = (plain.len() - j) as u8;
            }
            t.members[t.suit_of[c] as usize] |= bit(c as Card);
            c += 1;
        }
        let mut w = 0;
        while w < deck.size() {
            let mut c = 0;
            while c < deck.size() {
                if t.suit_of[c] == t.suit_of[w] && t.rank[c] > t.rank[w] {
                    t.stronger[w] |= bit(c as Card);
                    t.by_index &= c > w;
                }
                c += 1;
            }
            w += 1;
        }
        t
    }
}

impl Suits for &'static SuitTable {
    #[inline]
    fn deck(self) -> Deck {
        self.deck
    }
    #[inline]
    fn suit(self, c: Card) -> u8 {
        self.suit_of[c as usize]
    }
    #[inline]
    fn rank(self, c: Card) -> u8 {
        self.rank[c as usize]
    }
    #[inline]
    fn suit_cards(self, s: u8) -> CardSet {
        self.members[s as usize & 7]
    }
    #[inline]
    fn mates(self, c: Card) -> CardSet {
        self.suit_cards(self.suit(c))
    }
    #[inline]
    fn stronger(self, c: Card) -> CardSet {
        self.stronger[c as usize & 63]
    }
    #[inline]
    fn by_index(self) -> bool {
        self.by_index
    }
}

/// One contract's trick rules: its [`Suits`], which effective suit is trump, and what a holder of
/// the suit led may play (see the module documentation). Small and `Copy`: made where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickOrder<S: Suits> {
    suits: S,
    /// The effective suit of the trumps ([`NO_SUIT`] for none).
    trump: u8,
    /// The suit a player may play besides the suit led while holding that: the trump suit under
    /// [`Follow::SuitOrTrump`], [`NO_SUIT`] under [`Follow::Suit`].
    also_follows: u8,
}

impl<S: Suits> TrickOrder<S> {
    /// The order of `suits` with the effective suit `trump` as trumps ([`NO_SUIT`]: none),
    /// players following as `follow` says.
    #[inline]
    pub const fn new(suits: S, trump: u8, follow: Follow) -> TrickOrder<S> {
        let also_follows = match follow {
            Follow::Suit => NO_SUIT,
            Follow::SuitOrTrump => trump,
        };
        TrickOrder { suits, trump, also_follows }
    }

    /// The order's suits.
    #[inline]
    pub fn suits(&self) -> S {
        self.suits
    }

    /// The effective suit of the trumps ([`NO_SUIT`] for none).
    #[inline]
    pub fn trump_suit(&self) -> u8 {
        self.trump
    }

    /// Every trump.
    #[inline]
    pub fn trumps(&self) -> CardSet {
        self.suits.suit_cards(self.trump)
    }

    /// The effective suit of `c`.
    #[inline]
    pub fn suit(&self, c: Card) -> u8 {
        self.suits.suit(c)
    }

    /// The cards of effective suit `s`.
    #[inline]
    pub fn suit_cards(&self, s: u8) -> CardSet {
        self.suits.suit_cards(s)
    }

    /// The cards of `hand` its player may play when `on_suit` are the hand's cards of the suit
    /// led.
    #[inline]
    fn follow(&self, hand: CardSet, on_suit: CardSet) -> CardSet {
        if on_suit == 0 {
            hand
        } else {
            on_suit | (hand & self.suits.suit_cards(self.also_follows))
        }
    }

    /// The cards of `hand` its player may play to a trick led in effective suit `led`: those the
    /// follow rule allows when the hand holds a card of `led`, else all of them.
    #[inline]
    pub fn legal(&self, hand: CardSet, led: u8) -> CardSet {
        self.follow(hand, hand & self.suits.suit_cards(led))
    }

    /// The cards of `hand` its player may play to a trick opened by the card `led` (as
    /// [`TrickOrder::legal`] with `led`'s effective suit).
    #[inline]
    pub fn legal_after(&self, hand: CardSet, led: Card) -> CardSet {
        self.follow(hand, hand & self.suits.mates(led))
    }

    /// The cards of `hand` its player may play to the cards `trick` played so far (any card to
    /// lead).
    #[inline]
    pub fn legal_cards(&self, hand: CardSet, trick: &[Card]) -> CardSet {
        match trick.first() {
            Some(&led) => self.legal_after(hand, led),
            None => hand,
        }
    }

    /// How strongly `c` contends for a trick led in effective suit `led`: a trump beats the suit
    /// led, which beats the other suits (which never win, power 0); within a suit the higher rank
    /// wins. Above 0 for the card led.
    #[inline]
    pub fn power(&self, c: Card, led: u8) -> u8 {
        let (s, r) = (self.suits.suit(c), self.suits.rank(c));
        // Selects rather than branches: which way they go is unpredictable.
        let on_suit = if s == led { LED_POWER + r } else { 0 };
        if s == self.trump {
            TRUMP_POWER + r
        } else {
            on_suit
        }
    }

    /// The cards that beat `w` when it holds a trick: the higher cards of its suit, and every
    /// trump if it is not one.
    #[inline]
    pub fn beaten_by(&self, w: Card) -> CardSet {
        let plain = (self.suits.suit(w) != self.trump) as u64;
        self.suits.stronger(w) | (self.trumps() & plain.wrapping_neg())
    }

    /// [`TrickOrder::beaten_by`] of every card, for a search that asks it at every node.
    pub fn beaten_by_all(&self) -> [CardSet; 64] {
        let deck = self.suits.deck();
        std::array::from_fn(|w| if deck.contains(w as Card) { self.beaten_by(w as Card) } else { 0 })
    }

    /// Whether `c` beats `w`, the card holding a trick.
    #[inline]
    pub fn beats(&self, c: Card, w: Card) -> bool {
        self.beaten_by(w) & bit(c) != 0
    }

    /// Whether playing `c` to a trick led in effective suit `led` shows that its player holds no
    /// card of `led` (the follow rule would have forbidden it to a holder).
    #[inline]
    pub fn shows_void(&self, c: Card, led: u8) -> bool {
        let s = self.suits.suit(c);
        (s != led) & (s != self.also_follows)
    }

    /// The positions in `trick` (bit `i` for the `i`-th card played) of the players whose card
    /// showed they hold none of the suit led.
    #[inline]
    pub fn voids_shown(&self, trick: &[Card]) -> u8 {
        let Some(&led) = trick.first() else { return 0 };
        let led = self.suit(led);
        trick.iter().enumerate().fold(0, |m, (i, &c)| m | (self.shows_void(c, led) as u8) << i)
    }

    /// The position in `trick` of the card that wins it (so far), None for an empty trick.
    pub fn winner(&self, trick: &[Card]) -> Option<usize> {
        let led = self.suit(*trick.first()?);
        let mut win = 0;
        for (i, &c) in trick.iter().enumerate() {
            win = if self.power(c, led) > self.power(trick[win], led) { i } else { win };
        }
        Some(win)
    }

    /// The card that wins a trick of the cards `cards` led in effective suit `led`: the strongest
    /// trump, else the strongest card of `led`; None if `cards` holds neither.
    #[inline]
    pub fn strongest(&self, cards: CardSet, led: u8) -> Option<Card> {
        let trumps = cards & self.trumps();
        let contenders = if trumps != 0 { trumps } else { cards & self.suit_cards(led) };
        if contenders == 0 {
            return None;
        }
        if self.suits.by_index() {
            return Some(highest(contenders));
        }
        // The one no other contender beats.
        let mut left = contenders;
        while left != 0 {
            let c = highest(left);
            if self.suits.stronger(c) & contenders == 0 {
                return Some(c);
            }
            left &= !bit(c);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::notation::Notation;
    use super::*;

    /// An order over a suit table made at run time.
    type Table = TrickOrder<&'static SuitTable>;

    // ---- Schafkopf (spec schafkopf.md §5): suits S H G E = 0..4, ranks 7 8 9 U O K 10 A. ----

    const SCH: Notation = Notation::SCHAFKOPF;

    fn cards(n: &Notation, names: &str) -> Vec<Card> {
        names.split_whitespace().map(|x| n.parse(x).unwrap()).collect()
    }

    fn ranks(n: &Notation, symbols: &str) -> Vec<u8> {
        symbols.split_whitespace().map(|x| n.rank_of(x).unwrap()).collect()
    }

    /// A contract's order over `n`'s deck: `trumps` named high to low, of effective suit
    /// `trump_suit`; the plain ranks named high to low; players must follow suit.
    fn order(n: &Notation, trumps: &str, trump_suit: u8, plain: &str) -> Table {
        table_order(n.deck(), &cards(n, trumps), trump_suit, &ranks(n, plain), Follow::Suit)
    }

    fn table_order(deck: Deck, trumps: &[Card], trump_suit: u8, plain: &[u8], follow: Follow) -> Table {
        let table: &'static SuitTable = Box::leak(Box::new(SuitTable::new(deck, trumps, trump_suit, plain)));
        TrickOrder::new(table, trump_suit, follow)
    }

    /// The suit of a suit letter.
    fn suit_of(n: &Notation, letter: &str) -> u8 {
        n.suit_of(letter.chars().next().unwrap()).unwrap()
    }

    /// Sauspiel (and Herz-Solo) or the Solo of suit letter `x`: Obers, Unters, then suit `x`.
    fn schafkopf_solo(x: &str) -> Table {
        let trumps = format!("EO GO HO SO EU GU HU SU {x}A {x}10 {x}K {x}9 {x}8 {x}7");
        order(&SCH, &trumps, suit_of(&SCH, x), "A 10 K 9 8 7")
    }

    fn sauspiel() -> Table {
        schafkopf_solo("H")
    }

    fn wenz() -> Table {
        order(&SCH, "EU GU HU SU", TRUMP_SUIT, "A 10 K O 9 8 7")
    }

    // ---- Skat (spec skat.md §5): suits D H S C = 0..4, ranks 7 8 9 T J Q K A. ----

    const SKAT: Notation = Notation::SKAT;

    fn skat_suit(x: &str) -> Table {
        let trumps = format!("CJ SJ HJ DJ {x}A {x}T {x}K {x}Q {x}9 {x}8 {x}7");
        order(&SKAT, &trumps, suit_of(&SKAT, x), "A T K Q 9 8 7")
    }

    fn grand() -> Table {
        order(&SKAT, "CJ SJ HJ DJ", TRUMP_SUIT, "A T K Q 9 8 7")
    }

    fn null() -> Table {
        order(&SKAT, "", NO_SUIT, "A K Q J T 9 8 7")
    }

    /// The winner of a trick given as names, as a name.
    fn winner<S: Suits>(o: &TrickOrder<S>, n: &Notation, trick: &str) -> String {
        let t = cards(n, trick);
        n.name(t[o.winner(&t).unwrap()])
    }

    /// The legal cards of `hand` after the cards `trick`, as names.
    fn legal<S: Suits>(o: &TrickOrder<S>, n: &Notation, hand: &str, trick: &str) -> String {
        n.names(o.legal_cards(n.parse_set(hand).unwrap(), &cards(n, trick)))
    }

    /// Contracts as a game writes them: suit tables built at compile time from names.
    static SAUSPIEL: SuitTable = SuitTable::new(
        Deck::PIQUET_32,
        &SCH.cards::<14>("EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7"),
        1,
        &SCH.rank_list::<6>("A 10 K 9 8 7"),
    );
    static WENZ: SuitTable = SuitTable::new(
        Deck::PIQUET_32,
        &SCH.cards::<4>("EU GU HU SU"),
        TRUMP_SUIT,
        &SCH.rank_list::<7>("A 10 K O 9 8 7"),
    );
    static GRAND: SuitTable = SuitTable::new(
        Deck::PIQUET_32,
        &Notation::SKAT.cards::<4>("CJ SJ HJ DJ"),
        TRUMP_SUIT,
        &Notation::SKAT.rank_list::<7>("A T K Q 9 8 7"),
    );

    #[test]
    fn contract_tables_build_at_compile_time() {
        assert_eq!(&SAUSPIEL, sauspiel().suits());
        assert_eq!(&WENZ, wenz().suits());
        assert_eq!(&GRAND, grand().suits());
        let sauspiel = TrickOrder::new(&SAUSPIEL, SCH.suit_of('H').unwrap(), Follow::Suit);
        assert_eq!(winner(&sauspiel, &SCH, "GA G7 H7 G10"), "H7");
        let grand = TrickOrder::new(&GRAND, TRUMP_SUIT, Follow::Suit);
        assert_eq!(winner(&grand, &Notation::SKAT, "ST SA HJ"), "HJ");
    }

    #[test]
    fn schafkopf_trump_and_plain_suit_sizes() {
        for o in ["S", "H", "G", "E"].map(schafkopf_solo) {
            assert_eq!(o.trumps().count_ones(), 14);
            let plain: Vec<u32> =
                (0..4).filter(|&s| s != o.trump_suit()).map(|s| o.suit_cards(s).count_ones()).collect();
            assert_eq!(plain, [6, 6, 6]);
        }
        let w = wenz();
        assert_eq!((w.trumps().count_ones(), w.trump_suit()), (4, TRUMP_SUIT));
        assert!((0..4).all(|s| w.suit_cards(s).count_ones() == 7));
    }

    #[test]
    fn schafkopf_trick_winners() {
        assert_eq!(winner(&sauspiel(), &SCH, "GA G7 H7 G10"), "H7");
        assert_eq!(winner(&wenz(), &SCH, "EO EK SU EA"), "SU");
        assert_eq!(winner(&schafkopf_solo("G"), &SCH, "HA H10 G7 S7"), "G7");
        // The Obers and Unters above the suit trumps, in their order.
        assert_eq!(winner(&sauspiel(), &SCH, "HA SU GO EU"), "GO");
        assert_eq!(winner(&sauspiel(), &SCH, "EA E10 EK E9"), "EA");
        // In Wenz the Ober is a plain card between King and Nine.
        assert_eq!(winner(&wenz(), &SCH, "E9 EO EK E7"), "EK");
    }

    #[test]
    fn schafkopf_follow_suit() {
        assert_eq!(legal(&schafkopf_solo("E"), &SCH, "EO GA H7", "E7"), "EO");
        assert_eq!(legal(&wenz(), &SCH, "EU E7 GA", "EO"), "E7");
        assert_eq!(legal(&sauspiel(), &SCH, "SU GA E7", "H7"), "SU");
        // No trump to a trump lead, no Gras to a Gras lead: anything.
        assert_eq!(legal(&sauspiel(), &SCH, "GA E7", "HO"), "E7 GA");
        assert_eq!(legal(&sauspiel(), &SCH, "GO HA E7", "G9"), "E7 GO HA");
        // Leading: anything.
        assert_eq!(legal(&sauspiel(), &SCH, "GO HA E7", ""), "E7 GO HA");
    }

    /// Card points of Schafkopf (spec §1), for the full-deal tests.
    fn schafkopf_points(c: Card) -> u32 {
        [0, 0, 0, 2, 3, 4, 10, 11][rank(c) as usize]
    }

    /// Plays out a Schafkopf deal with every player playing the lowest legal card (by id), from
    /// `first`: the tricks as names, each trick's winner, and the card points each seat took.
    fn play_lowest(o: &Table, hands: [&str; 4], first: usize) -> (Vec<String>, Vec<usize>, [u32; 4]) {
        let mut hands = hands.map(|h| SCH.parse_set(h).unwrap());
        let (mut tricks, mut winners, mut points) = (Vec::new(), Vec::new(), [0; 4]);
        let mut leader = first;
        for _ in 0..8 {
            let mut trick = Vec::new();
            for k in 0..4 {
                let p = (leader + k) % 4;
                let c = super::super::set::lowest(o.legal_cards(hands[p], &trick));
                hands[p] &= !bit(c);
                trick.push(c);
            }
            leader = (leader + o.winner(&trick).unwrap()) % 4;
            tricks.push(trick.iter().map(|&c| SCH.name(c)).collect::<Vec<_>>().join(" "));
            winners.push(leader);
            points[leader] += trick.iter().map(|&c| schafkopf_points(c)).sum::<u32>();
        }
        (tricks, winners, points)
    }

    const DEAL_A: [&str; 4] = [
        "EO GO EU HA HK G7 G9 S7",
        "HO GU H9 GA EA E7 SK S8",
        "SO HU SU H10 H8 G10 GK E8",
        "H7 G8 E10 EK E9 SA S10 S9",
    ];

    /// Spec §12, Deal D: Deal A's hands played out in Wenz order (all passed), lowest cards.
    #[test]
    fn schafkopf_deal_d_in_wenz_order() {
        let (tricks, winners, points) = play_lowest(&wenz(), DEAL_A, 0);
        assert_eq!(
            tricks,
            [
                "S7 S8 SO S9",
                "H8 H7 HK H9",
                "G7 GA GK G8",
                "E7 E8 E9 EO",
                "G9 GU G10 EK",
                "HO H10 S10 HA",
                "EU SK SU E10",
                "GO EA HU SA"
            ]
        );
        assert_eq!(winners, [2, 0, 1, 0, 1, 0, 0, 2]);
        assert_eq!(points, [59, 31, 30, 0]);
    }

    /// Spec §12, Deal A: a Gras-Sauspiel (Sauspiel order), lowest cards; the called Ace's rules do
    /// not change a lowest card here.
    #[test]
    fn schafkopf_deal_a_sauspiel() {
        let (tricks, winners, points) = play_lowest(&sauspiel(), DEAL_A, 0);
        assert_eq!(
            tricks,
            [
                "S7 S8 H8 S9",
                "E8 E9 G7 E7",
                "H7 EU H9 SU",
                "G9 GA GK G8",
                "GU HU EK GO",
                "EO HO SO S10",
                "HK SK H10 E10",
                "G10 SA HA EA"
            ]
        );
        assert_eq!(winners, [2, 3, 0, 1, 0, 0, 2, 0]);
        assert_eq!(points, [77, 15, 28, 0]);
    }

    /// Spec §12, Deals B (Eichel-Solo) and C (Wenz), lowest cards.
    #[test]
    fn schafkopf_deals_b_and_c() {
        let deal_b = [
            "SO EU GU E9 H7 H8 H9 HA",
            "HU SU E8 E7 H10 HK G10 GK",
            "EO GO HO EA E10 EK GA SA",
            "G9 G8 G7 S10 SK S9 S8 S7",
        ];
        let (_, winners, points) = play_lowest(&schafkopf_solo("E"), deal_b, 2);
        assert_eq!(winners, [2, 2, 2, 0, 2, 2, 2, 2]);
        assert_eq!(points, [9, 0, 111, 0]);
        let deal_c = [
            "EU E9 E8 E7 GK G9 G8 G7",
            "GU EO GO HO SO HA H10 HK",
            "H9 H8 H7 S10 SK S9 S8 S7",
            "HU SU EA E10 EK GA G10 SA",
        ];
        let (_, _, points) = play_lowest(&wenz(), deal_c, 3);
        assert_eq!(points, [6, 0, 0, 114]);
    }

    #[test]
    fn skat_trump_and_plain_suit_sizes() {
        for o in ["D", "H", "S", "C"].map(skat_suit) {
            assert_eq!(o.trumps().count_ones(), 11);
            assert!((0..4).filter(|&s| s != o.trump_suit()).all(|s| o.suit_cards(s).count_ones() == 7));
        }
        assert_eq!(grand().trumps().count_ones(), 4);
        assert!((0..4).all(|s| grand().suit_cards(s).count_ones() == 7));
        assert_eq!(null().trumps(), 0);
        assert!((0..4).all(|s| null().suit_cards(s).count_ones() == 8));
    }

    /// Spec skat.md §12, tricks 1–6.
    #[test]
    fn skat_tricks_and_following() {
        assert_eq!(winner(&skat_suit("H"), &SKAT, "H7 DJ HA"), "DJ");
        assert_eq!(winner(&grand(), &SKAT, "ST SA HJ"), "HJ");
        assert_eq!(winner(&null(), &SKAT, "CJ CQ CT"), "CQ");
        assert_eq!(legal(&skat_suit("C"), &SKAT, "SA S7 C7", "SJ"), "C7");
        assert_eq!(legal(&skat_suit("C"), &SKAT, "SA S7 HK", "SJ"), "S7 HK SA");
        assert_eq!(legal(&skat_suit("D"), &SKAT, "SJ DA HK", "S7"), "SJ HK DA");
        assert_eq!(legal(&null(), &SKAT, "SJ HA", "S7"), "SJ");
        // The Jacks in their order, above the trump suit's Ace; the Ten between Ace and King.
        assert_eq!(winner(&skat_suit("S"), &SKAT, "SA DJ CJ HJ"), "CJ");
        assert_eq!(winner(&grand(), &SKAT, "HK HT HA"), "HA");
        assert_eq!(winner(&grand(), &SKAT, "HK HT H9"), "HT");
        assert_eq!(winner(&null(), &SKAT, "HT HJ H9"), "HJ");
    }

    // ---- Setback: the trump suit's cards are trumps, natural rank order, trumping in allowed. ----

    const STD: Notation = Notation::STANDARD;
    const NATURAL_52: NaturalSuits = NaturalSuits::new(Deck::STANDARD_52);

    #[test]
    fn setback_order() {
        let hearts = TrickOrder::new(NATURAL_52, 2, Follow::SuitOrTrump);
        assert_eq!(hearts.trumps(), STD.deck().suit(2));
        assert_eq!(winner(&hearts, &STD, "KS AS 2H QS"), "2H");
        assert_eq!(winner(&hearts, &STD, "KS AC 2D QS"), "KS");
        assert_eq!(winner(&hearts, &STD, "3H AS TH 2H"), "TH");
        // Holding the suit led: it or a trump; void: anything.
        assert_eq!(legal(&hearts, &STD, "2S 5H KD", "AS"), "2S 5H");
        assert_eq!(legal(&hearts, &STD, "2C 5D KD", "AS"), "2C 5D KD");
        assert_eq!(legal(&hearts, &STD, "2S 5H KH", "3H"), "5H KH");
        assert!(!hearts.shows_void(STD.parse("5H").unwrap(), 3), "trumping in shows nothing");
        assert!(hearts.shows_void(STD.parse("5D").unwrap(), 3));
        assert_eq!(hearts.voids_shown(&cards(&STD, "AS 5H 5D TS")), 0b0100);
        assert_eq!(hearts.voids_shown(&cards(&STD, "AH 5C 5D TH")), 0b0110);
    }

    /// Every table order of the tests: Schafkopf's and Skat's contracts, and the natural order of
    /// the 52-card deck tabulated (trumps one suit, both follow rules).
    fn every_table_order() -> Vec<Table> {
        let mut all = vec![sauspiel(), wenz(), grand(), null()];
        all.extend(["S", "G", "E"].map(schafkopf_solo));
        all.extend(["D", "H", "S", "C"].map(skat_suit));
        for follow in [Follow::Suit, Follow::SuitOrTrump] {
            all.extend((0..4).map(|t| natural_table(t, follow)));
        }
        all
    }

    /// The natural order of the 52-card deck with suit `trump` as trumps, as a table.
    fn natural_table(trump: u8, follow: Follow) -> Table {
        let deck = Deck::STANDARD_52;
        let trumps: Vec<Card> = (0..deck.ranks()).rev().map(|r| super::super::set::card(r, trump)).collect();
        let plain: Vec<u8> = (0..deck.ranks()).rev().collect();
        table_order(deck, &trumps, trump, &plain, follow)
    }

    /// The natural orders computed, as Setback uses them.
    fn natural_orders() -> Vec<TrickOrder<NaturalSuits>> {
        [Follow::Suit, Follow::SuitOrTrump]
            .into_iter()
            .flat_map(|f| (0..4).map(move |t| TrickOrder::new(NATURAL_52, t, f)))
            .collect()
    }

    /// The rules read literally agree with `o`'s answers: effective suits partition the deck; the
    /// follow rule, `power`, `beats`, `winner`, `strongest` and `shows_void`.
    fn check_rules<S: Suits>(o: &TrickOrder<S>) {
        let deck = o.suits().deck();
        let suits: Vec<CardSet> = (0..=TRUMP_SUIT).map(|s| o.suit_cards(s)).collect();
        assert_eq!(suits.iter().fold(0, |a, m| a | m), deck.cards());
        assert_eq!(suits.iter().map(|m| m.count_ones()).sum::<u32>() as usize, deck.size());
        assert_eq!(o.suit_cards(NO_SUIT), 0);
        let beaten_by = o.beaten_by_all();
        let cs = deck.ordered();
        for &w in &cs {
            let is_trump = o.trumps() & bit(w) != 0;
            assert_eq!(o.suit(w) == o.trump_suit(), is_trump);
            assert_eq!(o.suits().mates(w), o.suit_cards(o.suit(w)));
            assert_eq!(beaten_by[w as usize], o.beaten_by(w));
            let led = o.suit(w);
            for &c in &cs {
                // `c` beats `w` holding a trick: a trump over a plain card, or the same
                // effective suit and stronger.
                let c_trump = o.trumps() & bit(c) != 0;
                let same = o.suit(c) == o.suit(w) && o.power(c, led) > o.power(w, led);
                assert_eq!(o.beats(c, w), (c_trump && !is_trump) || same);
                assert!(!(o.beats(c, w) && o.beats(w, c)));
                assert_eq!(o.suits().stronger(w) & bit(c) != 0, same);
                // Playing `c` to a trick led by `w`: only a card of the suit led follows, and a
                // trump under `SuitOrTrump`.
                let may_trump_in = o.legal(o.trumps() | bit(w), led) == o.trumps() | bit(w);
                let follows = o.suit(c) == led || (c_trump && may_trump_in);
                assert_eq!(o.shows_void(c, led), !follows);
                let trick = [w, c];
                let want = if c != w && o.beats(c, w) { 1 } else { 0 };
                assert_eq!(o.winner(&trick), Some(want));
                assert_eq!(o.strongest(bit(w) | bit(c), led), Some(trick[want]));
            }
        }
        assert_eq!(o.winner(&[]), None);
    }

    #[test]
    fn tables_agree_with_the_rules() {
        for o in every_table_order() {
            check_rules(&o);
        }
        for o in natural_orders() {
            check_rules(&o);
        }
    }

    /// The computed natural order and its table give the same answers.
    #[test]
    fn natural_suits_equal_their_table() {
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(9);
        for (i, computed) in natural_orders().into_iter().enumerate() {
            let follow = if i < 4 { Follow::Suit } else { Follow::SuitOrTrump };
            let table = natural_table(computed.trump_suit(), follow);
            assert_eq!(computed.trumps(), table.trumps());
            assert!(computed.suits().by_index() && table.suits().by_index());
            for c in Deck::STANDARD_52.ordered() {
                assert_eq!(computed.suit(c), table.suit(c));
                assert_eq!(computed.beaten_by(c), table.beaten_by(c));
                for led in [0, 1, 2, 3, TRUMP_SUIT, NO_SUIT] {
                    assert_eq!(computed.power(c, led), table.power(c, led));
                    assert_eq!(computed.shows_void(c, led), table.shows_void(c, led));
                }
            }
            for _ in 0..200 {
                let hand = rand::Rng::gen::<u64>(&mut rng) & Deck::STANDARD_52.cards();
                for led in [0, 1, 2, 3, NO_SUIT] {
                    assert_eq!(computed.legal(hand, led), table.legal(hand, led));
                }
            }
        }
    }

    /// the card index in every effective suit (Setback's, Wenz, null) and by search elsewhere.
    #[test]
    fn strongest_card_of_a_trick_wins_it() {
        use rand::{seq::SliceRandom, SeedableRng};
        assert!([wenz(), null()].iter().all(|o| o.suits().by_index()));
        assert!([sauspiel(), grand(), skat_suit("C")].iter().all(|o| !o.suits().by_index()));
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        for o in every_table_order() {
            let mut deck = o.suits().deck().ordered();
            for _ in 0..2000 {
                deck.shuffle(&mut rng);
                let trick = &deck[..4];
                let set = trick.iter().fold(0, |a, &c| a | bit(c));
                let want = trick[o.winner(trick).unwrap()];
                assert_eq!(o.strongest(set, o.suit(trick[0])), Some(want));
            }
        }
    }

    #[test]
    fn legal_cards_follow_the_effective_suit() {
        for o in every_table_order() {
            let deck = o.suits().deck();
            for lead in deck.ordered() {
                let led = o.suit(lead);
                for hand in
                    [deck.cards() & !bit(lead), o.suit_cards(led) & !bit(lead), deck.cards() & !o.suit_cards(led)]
                {
                    let legal = o.legal_cards(hand, &[lead]);
                    if hand & o.suit_cards(led) == 0 {
                        assert_eq!(legal, hand);
                    } else {
                        assert_eq!(legal & o.suit_cards(led), hand & o.suit_cards(led));
                        assert_eq!(legal & !o.suit_cards(led) & !o.trumps(), 0);
                    }
                    assert_eq!(o.legal_cards(hand, &[]), hand);
                    assert_eq!(o.legal(hand, NO_SUIT), hand);
                    assert_eq!(o.legal_after(hand, lead), o.legal(hand, led));
                }
            }
        }
    }
}

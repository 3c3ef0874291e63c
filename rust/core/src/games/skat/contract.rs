//! Contracts (spec §4, §5, §7.1): the game type, its announcements, its name, its trick order and
//! its values.
//!
//! | game | trumps, high to low | plain suits, high to low | base value |
//! |---|---|---|---|
//! | suit X (`diamonds` 9, `hearts` 10, `spades` 11, `clubs` 12) | CJ SJ HJ DJ XA XT XK XQ X9 X8 X7 | A T K Q 9 8 7 | 9–12 |
//! | `grand` | CJ SJ HJ DJ | A T K Q 9 8 7 | 24 |
//! | `null` | none | A K Q J T 9 8 7 | fixed: 23, hand 35, ouvert 46, ouvert hand 59 |
//!
//! **Names.** A contract is written `<game> [ouvert] [hand] [schneider] [schwarz]`, lower case,
//! the words in this order, single spaces:
//!
//! * `<game>` is `diamonds`, `hearts`, `spades`, `clubs`, `grand` or `null`;
//! * `hand` is written for every Hand game (the skat not taken), ouvert ones included;
//! * `schneider` / `schwarz` name the announcements of a suit or grand Hand game (`schwarz` only
//!   after `schneider`); an ouvert suit or grand game implies both and does not write them.
//!
//! So after a pickup the 7 contracts are `diamonds`, `hearts`, `spades`, `clubs`, `grand`,
//! `null`, `null ouvert`; as Hand the 22 are, for each of the five suit and grand games `X`,
//! `X hand`, `X hand schneider`, `X hand schneider schwarz`, `X ouvert hand`, and `null hand`,
//! `null ouvert hand`. Parsing is case-insensitive and accepts any spacing; only these names.

use super::cards::{card, ACE, CLUBS, DIAMONDS, EIGHT, HEARTS, JACK, KING, NINE, QUEEN, SEVEN, SPADES, TEN};
use crate::cards::{bit, Card, CardSet, Deck, Follow, SuitTable, TrickOrder, NO_SUIT, TRUMP_SUIT};
use crate::error::{Error, Result};

/// The kind of game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// A suit game with this trump suit (`DIAMONDS` … `CLUBS`).
    Suit(u8),
    /// Grand: only the four Jacks are trumps.
    Grand,
    /// Null: no trumps; the declarer must take no trick.
    Null,
}

impl GameType {
    /// The five games with a multiplier, then null.
    pub const ALL: [GameType; 6] = [
        GameType::Suit(DIAMONDS),
        GameType::Suit(HEARTS),
        GameType::Suit(SPADES),
        GameType::Suit(CLUBS),
        GameType::Grand,
        GameType::Null,
    ];

    /// The name: `diamonds`, `hearts`, `spades`, `clubs`, `grand`, `null`.
    pub const fn name(self) -> &'static str {
        match self {
            GameType::Suit(s) => ["diamonds", "hearts", "spades", "clubs"][s as usize & 3],
            GameType::Grand => "grand",
            GameType::Null => "null",
        }
    }

    /// The base value of a suit or grand game (♦ 9, ♥ 10, ♠ 11, ♣ 12, grand 24); null's values
    /// are fixed ([`Contract::null_value`]), its base here is 23.
    pub const fn base(self) -> u32 {
        match self {
            GameType::Suit(s) => 9 + (s & 3) as u32,
            GameType::Grand => 24,
            GameType::Null => 23,
        }
    }
}

/// A contract: the game and how it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    /// The game.
    pub game: GameType,
    /// Hand: the declarer did not take up the skat.
    pub hand: bool,
    /// Schneider announced (suit and grand Hand games; implied by ouvert).
    pub schneider: bool,
    /// Schwarz announced (after Schneider announced; implied by ouvert).
    pub schwarz: bool,
    /// Ouvert: the declarer's hand is open from the declaration on.
    pub ouvert: bool,
}

/// The trumps of the suit game of trump suit `x`, high to low.
const fn suit_trumps(x: u8) -> [Card; 11] {
    [
        card(JACK, CLUBS),
        card(JACK, SPADES),
        card(JACK, HEARTS),
        card(JACK, DIAMONDS),
        card(ACE, x),
        card(TEN, x),
        card(KING, x),
        card(QUEEN, x),
        card(NINE, x),
        card(EIGHT, x),
        card(SEVEN, x),
    ]
}

/// The trumps of each suit game (by suit), high to low.
pub const SUIT_TRUMPS: [[Card; 11]; 4] = [suit_trumps(0), suit_trumps(1), suit_trumps(2), suit_trumps(3)];
/// The trumps of grand, high to low.
pub const GRAND_TRUMPS: [Card; 4] = [card(JACK, CLUBS), card(JACK, SPADES), card(JACK, HEARTS), card(JACK, DIAMONDS)];
/// Plain ranks, high to low, in suit and grand games.
const PLAIN: [u8; 7] = [ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN];
/// Ranks, high to low, in null.
const NULL_PLAIN: [u8; 8] = [ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN];

const fn suit_suits(x: u8) -> SuitTable {
    SuitTable::new(Deck::PIQUET_32, &SUIT_TRUMPS[x as usize], x, &PLAIN)
}

/// The suits (effective suit and rank of every card) of each suit game, by trump suit.
pub static SUIT_SUITS: [SuitTable; 4] = [suit_suits(0), suit_suits(1), suit_suits(2), suit_suits(3)];
/// The suits of grand.
pub static GRAND_SUITS: SuitTable = SuitTable::new(Deck::PIQUET_32, &GRAND_TRUMPS, TRUMP_SUIT, &PLAIN);
/// The suits of null.
pub static NULL_SUITS: SuitTable = SuitTable::new(Deck::PIQUET_32, &[], NO_SUIT, &NULL_PLAIN);

/// A contract's trick order: its suit table, its trump suit, and following suit.
pub type Order = TrickOrder<&'static SuitTable>;

impl GameType {
    /// How the game orders cards in tricks (spec §5).
    #[inline]
    pub fn order(self) -> Order {
        match self {
            GameType::Suit(x) => TrickOrder::new(&SUIT_SUITS[x as usize & 3], x & 3, Follow::Suit),
            GameType::Grand => TrickOrder::new(&GRAND_SUITS, TRUMP_SUIT, Follow::Suit),
            GameType::Null => TrickOrder::new(&NULL_SUITS, NO_SUIT, Follow::Suit),
        }
    }

    /// The trumps high to low, along which matadors are counted (none in null).
    pub fn trumps_high_to_low(self) -> &'static [Card] {
        match self {
            GameType::Suit(x) => &SUIT_TRUMPS[x as usize & 3],
            GameType::Grand => &GRAND_TRUMPS,
            GameType::Null => &[],
        }
    }
}

/// The names [`Contract::parse`] accepts, described.
pub const CONTRACT_GRAMMAR: &str = "<game> [ouvert] [hand] [schneider] [schwarz] with <game> diamonds, hearts, \
     spades, clubs, grand or null, e.g. clubs, grand hand schneider, null ouvert hand";

impl Contract {
    /// A plain contract of `game` (after a pickup, nothing announced).
    pub const fn plain(game: GameType) -> Contract {
        Contract { game, hand: false, schneider: false, schwarz: false, ouvert: false }
    }

    /// Every contract: the 7 a declarer may announce after a pickup, then the 22 Hand ones (see
    /// the module documentation).
    pub const ALL: [Contract; 29] = all_contracts();

    /// The contracts of a pickup game (7).
    pub fn after_pickup() -> &'static [Contract] {
        &Contract::ALL[..7]
    }

    /// The contracts of a Hand game (22).
    pub fn hand_contracts() -> &'static [Contract] {
        &Contract::ALL[7..]
    }

    /// The index of the contract in [`Contract::ALL`].
    pub fn id(self) -> usize {
        Contract::ALL.iter().position(|&c| c == self).unwrap_or(usize::MAX)
    }

    /// The trick order.
    #[inline]
    pub fn order(self) -> Order {
        self.game.order()
    }

    /// The fixed value of a null contract (23, hand 35, ouvert 46, ouvert hand 59); None for a
    /// suit or grand game.
    pub const fn null_value(self) -> Option<u32> {
        match self.game {
            GameType::Null => Some(match (self.ouvert, self.hand) {
                (false, false) => 23,
                (false, true) => 35,
                (true, false) => 46,
                (true, true) => 59,
            }),
            _ => None,
        }
    }

    /// The levels a suit or grand contract counts in every case: game 1, + Hand, + Schneider
    /// announced, + Schwarz announced, + ouvert (spec §7.2); Schneider and Schwarz themselves
    /// come on top when reached or announced.
    pub const fn announced_levels(self) -> u32 {
        1 + self.hand as u32 + self.schneider as u32 + self.schwarz as u32 + self.ouvert as u32
    }

    /// The highest value the contract can reach with `matadors` (spec §4.3): for suit and grand,
    /// base × (matadors + announced levels + Schneider + Schwarz); for null its fixed value.
    pub const fn max_value(self, matadors: u32) -> u32 {
        match self.null_value() {
            Some(v) => v,
            None => self.game.base() * (matadors + self.announced_levels() + 2),
        }
    }

    /// Whether the contract is one of the 29 (announcements only in Hand games, Schwarz only
    /// with Schneider, ouvert suit and grand games with both).
    pub fn is_valid(self) -> bool {
        self.id() != usize::MAX
    }

    /// The name (see the module documentation), e.g. `clubs`, `grand hand schneider`,
    /// `null ouvert hand`.
    pub fn name(self) -> String {
        let mut s = String::from(self.game.name());
        if self.ouvert {
            s.push_str(" ouvert");
        }
        if self.hand {
            s.push_str(" hand");
        }
        if !self.ouvert {
            if self.schneider {
                s.push_str(" schneider");
            }
            if self.schwarz {
                s.push_str(" schwarz");
            }
        }
        s
    }

    /// Parses a contract name (case-insensitive, any spacing).
    pub fn parse(text: &str) -> Result<Contract> {
        let t = text.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
        Contract::ALL
            .into_iter()
            .find(|c| c.name() == t)
            .ok_or_else(|| Error::invalid("contract", text, CONTRACT_GRAMMAR))
    }

    /// The trumps of the contract as a set.
    pub fn trumps(self) -> CardSet {
        self.game.trumps_high_to_low().iter().fold(0, |m, &c| m | bit(c))
    }
}

/// [`Contract::ALL`], built.
const fn all_contracts() -> [Contract; 29] {
    let mut out = [Contract::plain(GameType::Null); 29];
    let mut n = 0;
    let mut g = 0;
    while g < 5 {
        out[n] = Contract::plain(GameType::ALL[g]);
        n += 1;
        g += 1;
    }
    out[n] = Contract::plain(GameType::Null);
    out[n + 1] = Contract { ouvert: true, ..Contract::plain(GameType::Null) };
    n += 2;
    g = 0;
    while g < 5 {
        let hand = Contract { hand: true, ..Contract::plain(GameType::ALL[g]) };
        out[n] = hand;
        out[n + 1] = Contract { schneider: true, ..hand };
        out[n + 2] = Contract { schneider: true, schwarz: true, ..hand };
        out[n + 3] = Contract { schneider: true, schwarz: true, ouvert: true, ..hand };
        n += 4;
        g += 1;
    }
    out[n] = Contract { hand: true, ..Contract::plain(GameType::Null) };
    out[n + 1] = Contract { hand: true, ouvert: true, ..Contract::plain(GameType::Null) };
    out
}

#[cfg(test)]
mod tests {
    use super::super::cards::{name, parse_card};
    use super::*;

    fn winner(g: GameType, trick: &str) -> String {
        let cards: Vec<Card> = trick.split_whitespace().map(|n| parse_card(n).unwrap()).collect();
        name(cards[g.order().winner(&cards).unwrap()])
    }

    fn legal(g: GameType, hand: &str, led: &str) -> String {
        let hand = super::super::cards::NOTATION.parse_set(hand).unwrap();
        super::super::cards::names_joined(g.order().legal_after(hand, parse_card(led).unwrap()))
    }

    #[test]
    fn counts_names_and_round_trips() {
        assert_eq!(Contract::after_pickup().len(), 7);
        assert_eq!(Contract::hand_contracts().len(), 22);
        assert!(Contract::after_pickup().iter().all(|c| !c.hand));
        assert!(Contract::hand_contracts().iter().all(|c| c.hand));
        for (i, c) in Contract::ALL.into_iter().enumerate() {
            assert_eq!(c.id(), i);
            assert_eq!(Contract::parse(&c.name()).unwrap(), c);
            assert_eq!(Contract::parse(&format!("  {} ", c.name().to_uppercase())).unwrap(), c);
            assert!(Contract::ALL[..i].iter().all(|&d| d.name() != c.name()));
            assert!(!c.schwarz || c.schneider);
            assert!(!c.schneider || c.hand);
            assert!(!c.ouvert || c.game == GameType::Null || (c.hand && c.schneider && c.schwarz));
        }
        let names: Vec<String> = Contract::ALL.iter().map(|c| c.name()).collect();
        for n in [
            "clubs",
            "grand hand schneider",
            "null",
            "null ouvert hand",
            "null ouvert",
            "spades hand schneider schwarz",
            "grand ouvert hand",
            "diamonds hand",
        ] {
            assert!(names.contains(&n.to_string()), "{n}");
        }
        let e = Contract::parse("clubs schneider").unwrap_err().to_string();
        assert!(e.contains("grand hand schneider"), "{e}");
        assert!(Contract::parse("grand hand schwarz").is_err());
        assert!(!Contract { schneider: true, ..Contract::plain(GameType::Grand) }.is_valid());
    }

    #[test]
    fn values() {
        let nulls: Vec<u32> = Contract::ALL.iter().filter_map(|c| c.null_value()).collect();
        assert_eq!(nulls, [23, 46, 35, 59]);
        // Clubs ouvert with 2 = 9 × 12; grand ouvert with 4 = 11 × 24 = 264.
        let ouvert = |g| Contract::ALL.into_iter().find(|c| c.game == g && c.ouvert).unwrap();
        assert_eq!(ouvert(GameType::Suit(CLUBS)).max_value(2), 108);
        assert_eq!(ouvert(GameType::Grand).max_value(4), 264);
        assert_eq!(Contract::plain(GameType::Suit(DIAMONDS)).max_value(1), 36);
        assert_eq!(Contract::plain(GameType::Grand).max_value(1), 96);
    }

    /// Spec §12, tricks 1–6, through the contracts' orders.
    #[test]
    fn tricks_and_following() {
        assert_eq!(winner(GameType::Suit(HEARTS), "H7 DJ HA"), "DJ");
        assert_eq!(winner(GameType::Grand, "ST SA HJ"), "HJ");
        assert_eq!(winner(GameType::Null, "CJ CQ CT"), "CQ");
        assert_eq!(legal(GameType::Suit(CLUBS), "SA S7 C7", "SJ"), "C7");
        assert_eq!(legal(GameType::Suit(CLUBS), "SA S7 HK", "SJ"), "S7 HK SA");
        assert_eq!(legal(GameType::Suit(DIAMONDS), "SJ DA HK", "S7"), "SJ HK DA");
        assert_eq!(legal(GameType::Null, "SJ HA", "S7"), "SJ");
        for g in GameType::ALL {
            let o = g.order();
            assert_eq!(o.trumps(), g.trumps_high_to_low().iter().fold(0, |m, &c| m | bit(c)));
            for w in g.trumps_high_to_low().windows(2) {
                assert!(o.beats(w[0], w[1]), "{} over {}", name(w[0]), name(w[1]));
            }
        }
        assert_eq!(GameType::Grand.order().trumps().count_ones(), 4);
        assert_eq!(GameType::Null.order().trumps(), 0);
        assert_eq!(GameType::Suit(SPADES).order().trumps().count_ones(), 11);
    }
}

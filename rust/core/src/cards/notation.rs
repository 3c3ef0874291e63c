//! How each game writes its cards: rank and suit symbols and their order in a card's name.
//!
//! | notation | deck | suits `0 1 2 3` | ranks, index 0 up | a name |
//! |---|---|---|---|---|
//! | [`Notation::STANDARD`] (Setback) | 52 | `C D H S` | `2 3 4 5 6 7 8 9 T J Q K A` | rank first: `TD`, `AS` |
//! | [`Notation::SCHAFKOPF`] | 32 | `S H G E` (Schellen, Herz, Gras, Eichel) | `7 8 9 U O K 10 A` | suit first: `EO`, `H10` |
//! | [`Notation::SKAT`] | 32 | `D H S C` | `7 8 9 T J Q K A` | suit first: `CJ`, `ST` |
//!
//! Schafkopf's indices are SchafkopfRL's (card `4 * rank + suit`, Schellen-7 = 0, Eichel-Ace =
//! 31). Names are parsed case-insensitively and printed in capitals.

use super::deck::Deck;
use super::set::{bit, card, iter, rank, suit, Card, CardSet};
use crate::error::{Error, Result};

/// A game's way of writing cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notation {
    deck: Deck,
    /// Rank symbols by rank index.
    ranks: &'static [&'static str],
    /// Suit letters by suit index.
    suits: &'static [u8; 4],
    /// Whether a name is the suit letter then the rank (else the rank then the suit letter).
    suit_first: bool,
    /// What a card name may be, for error messages.
    allowed: &'static str,
    /// By ASCII character, in either case: 1 + the rank index of a one-character rank symbol and
    /// 1 + the suit index of a suit letter (0 = none): names are read a character at a time.
    rank_by_char: [u8; 128],
    suit_by_char: [u8; 128],
}

impl Notation {
    /// The 52-card deck as Setback writes it: rank `2..9 T J Q K A` then suit `C D H S`.
    pub const STANDARD: Notation = Notation::new(
        Deck::STANDARD_52,
        &["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
        b"CDHS",
        false,
        "a rank 2-9, T, J, Q, K or A followed by a suit C, D, H or S, e.g. TD or AS",
    );
    /// The 32-card deck as Schafkopf writes it: suit `E G H S` then rank `7 8 9 U O K 10 A`.
    pub const SCHAFKOPF: Notation = Notation::new(
        Deck::PIQUET_32,
        &["7", "8", "9", "U", "O", "K", "10", "A"],
        b"SHGE",
        true,
        "a suit E, G, H or S followed by a rank 7, 8, 9, U, O, K, 10 or A, e.g. EO or H10",
    );
    /// The 32-card deck as Skat writes it: suit `C S H D` then rank `7 8 9 T J Q K A`.
    pub const SKAT: Notation = Notation::new(
        Deck::PIQUET_32,
        &["7", "8", "9", "T", "J", "Q", "K", "A"],
        b"DHSC",
        true,
        "a suit C, S, H or D followed by a rank 7, 8, 9, T, J, Q, K or A, e.g. CJ or ST",
    );

    /// A notation: rank symbols by rank index (ASCII, upper case), suit letters by suit index
    /// (ASCII capitals), and whether names put the suit first.
    const fn new(
        deck: Deck,
        ranks: &'static [&'static str],
        suits: &'static [u8; 4],
        suit_first: bool,
        allowed: &'static str,
    ) -> Notation {
        assert!(ranks.len() == deck.ranks() as usize, "a symbol for every rank");
        let mut rank_by_char = [0u8; 128];
        let mut r = 0;
        while r < ranks.len() {
            let b = ranks[r].as_bytes();
            if b.len() == 1 {
                rank_by_char[b[0] as usize] = r as u8 + 1;
                rank_by_char[b[0].to_ascii_lowercase() as usize] = r as u8 + 1;
            }
            r += 1;
        }
        let mut suit_by_char = [0u8; 128];
        let mut s = 0;
        while s < 4 {
            suit_by_char[suits[s] as usize] = s as u8 + 1;
            suit_by_char[suits[s].to_ascii_lowercase() as usize] = s as u8 + 1;
            s += 1;
        }
        Notation { deck, ranks, suits, suit_first, allowed, rank_by_char, suit_by_char }
    }

    /// The deck the notation writes.
    #[inline]
    pub const fn deck(&self) -> Deck {
        self.deck
    }

    /// The symbol of rank index `rank` (e.g. `T`, `10`, `U`).
    pub const fn rank_symbol(&self, rank: u8) -> &'static str {
        self.ranks[rank as usize]
    }

    /// The rank index written `symbol` (case-insensitive), if it is one.
    pub const fn rank_of(&self, symbol: &str) -> Option<u8> {
        self.rank_index(symbol.as_bytes())
    }

    /// The rank index written with the one character `c` (case-insensitive), if one is.
    #[inline]
    pub fn rank_of_char(&self, c: char) -> Option<u8> {
        let i = *self.rank_by_char.get(c as usize)?;
        i.checked_sub(1)
    }

    /// The letter of suit `suit` (`0..4`).
    pub fn suit_letter(&self, suit: u8) -> char {
        self.suits[suit as usize] as char
    }

    /// The suit written `letter` (case-insensitive), if it is one.
    #[inline]
    pub fn suit_of(&self, letter: char) -> Option<u8> {
        let i = *self.suit_by_char.get(letter as usize)?;
        i.checked_sub(1)
    }

    /// The rank index written `symbol` (case-insensitive), if it is one.
    const fn rank_index(&self, symbol: &[u8]) -> Option<u8> {
        let mut r = 0;
        while r < self.ranks.len() {
            let written = self.ranks[r].as_bytes();
            let mut same = written.len() == symbol.len();
            let mut i = 0;
            while same && i < symbol.len() {
                same = written[i] == symbol[i].to_ascii_uppercase();
                i += 1;
            }
            if same {
                return Some(r as u8);
            }
            r += 1;
        }
        None
    }

    /// The card named `name` (case-insensitive), in a constant: a contract's card lists are
    /// written in the game's notation and checked at compile time. Panics (a compile error in a
    /// constant) on a name that is not a card; at run time use [`Notation::parse`].
    pub const fn card(&self, name: &str) -> Card {
        self.const_card(name.as_bytes())
    }

    /// [`Notation::card`] of a name as bytes.
    const fn const_card(&self, b: &[u8]) -> Card {
        assert!(b.len() >= 2, "a card name is a suit letter and a rank");
        let (letter, symbol) = if self.suit_first { b.split_at(1) } else { b.split_at(b.len() - 1) };
        let (letter, symbol) = if self.suit_first { (letter[0], symbol) } else { (symbol[0], letter) };
        assert!(letter < 128 && self.suit_by_char[letter as usize] != 0, "not a suit letter");
        let Some(r) = self.rank_index(symbol) else { panic!("not a rank") };
        card(r, self.suit_by_char[letter as usize] - 1)
    }

    /// The `N` words of `text` (separated by single or repeated spaces), in a constant.
    const fn words<const N: usize>(text: &str) -> [&[u8]; N] {
        let mut out: [&[u8]; N] = [&[]; N];
        let (mut rest, mut n) = (text.as_bytes(), 0);
        loop {
            while let [b' ', tail @ ..] = rest {
                rest = tail;
            }
            if rest.is_empty() {
                break;
            }
            let mut len = 0;
            while len < rest.len() && rest[len] != b' ' {
                len += 1;
            }
            let (word, tail) = rest.split_at(len);
            assert!(n < N, "more words than expected");
            out[n] = word;
            n += 1;
            rest = tail;
        }
        assert!(n == N, "fewer words than expected");
        out
    }

    /// The `N` cards named in `names` (space-separated), in order, in a constant (see
    /// [`Notation::card`]).
    pub const fn cards<const N: usize>(&self, names: &str) -> [Card; N] {
        let words = Self::words::<N>(names);
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            out[i] = self.const_card(words[i]);
            i += 1;
        }
        out
    }

    /// The `N` rank indices written in `symbols` (space-separated), in order, in a constant.
    /// Panics (a compile error in a constant) on a symbol that is not a rank.
    pub const fn rank_list<const N: usize>(&self, symbols: &str) -> [u8; N] {
        let words = Self::words::<N>(symbols);
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            let Some(r) = self.rank_index(words[i]) else { panic!("not a rank") };
            out[i] = r;
            i += 1;
        }
        out
    }

    /// The name of card `c`, e.g. `TD`, `H10`, `CJ`.
    pub fn name(&self, c: Card) -> String {
        let (r, s) = (self.rank_symbol(rank(c)), self.suit_letter(suit(c)));
        if self.suit_first {
            format!("{s}{r}")
        } else {
            format!("{r}{s}")
        }
    }

    /// Parses a card name (case-insensitive).
    pub fn parse(&self, name: &str) -> Result<Card> {
        let bad = || Error::invalid("card", name, self.allowed);
        let mut chars = name.chars();
        let letter = if self.suit_first { chars.next() } else { chars.next_back() }.ok_or_else(bad)?;
        let s = self.suit_of(letter).ok_or_else(bad)?;
        let r = self.rank_of(chars.as_str()).ok_or_else(bad)?;
        Ok(card(r, s))
    }

    /// Parses a space-separated list of card names into a set; a card named twice is refused.
    pub fn parse_set(&self, names: &str) -> Result<CardSet> {
        let mut set = 0;
        for name in names.split_whitespace() {
            let c = self.parse(name)?;
            if set & bit(c) != 0 {
                return Err(Error::invalid("cards", names, format!("distinct cards ({name} appears twice)")));
            }
            set |= bit(c);
        }
        Ok(set)
    }

    /// The names of a set's cards in ascending order, space-separated.
    pub fn names(&self, set: CardSet) -> String {
        iter(set).map(|c| self.name(c)).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::set::SUITS;

    const ALL: [Notation; 3] = [Notation::STANDARD, Notation::SCHAFKOPF, Notation::SKAT];

    #[test]
    fn every_card_round_trips_in_every_notation() {
        for n in ALL {
            let deck = n.deck();
            assert_eq!(n.ranks.len(), deck.ranks() as usize);
            for c in deck.ordered() {
                let name = n.name(c);
                assert_eq!(n.parse(&name).unwrap(), c, "{name}");
                assert_eq!(n.parse(&name.to_lowercase()).unwrap(), c, "{name} in lower case");
            }
            let names = n.names(deck.cards());
            assert_eq!(n.parse_set(&names).unwrap(), deck.cards());
            assert_eq!(names.split(' ').count(), deck.size());
            for s in 0..SUITS {
                assert_eq!(n.suit_of(n.suit_letter(s)), Some(s));
            }
        }
    }

    #[test]
    fn names_of_each_notation() {
        let sk = Notation::STANDARD;
        assert_eq!(sk.name(card(8, 1)), "TD");
        assert_eq!(sk.name(card(12, 3)), "AS");
        assert_eq!(sk.name(0), "2C");
        // Schafkopf: card 4 * rank + suit with S H G E = 0..4 (SchafkopfRL's ids).
        let sch = Notation::SCHAFKOPF;
        assert_eq!(sch.name(0), "S7");
        assert_eq!(sch.name(1), "H7");
        assert_eq!(sch.name(31), "EA");
        assert_eq!(sch.parse("EO").unwrap(), card(4, 3));
        assert_eq!(sch.parse("H10").unwrap(), card(6, 1));
        assert_eq!(sch.parse("gu").unwrap(), card(3, 2));
        assert_eq!(sch.names(sch.parse_set("H10 EO SU").unwrap()), "SU EO H10");
        let skat = Notation::SKAT;
        assert_eq!(skat.parse("CJ").unwrap(), card(4, 3));
        assert_eq!(skat.parse("ST").unwrap(), card(3, 2));
        assert_eq!(skat.name(card(0, 0)), "D7");
        assert_eq!(skat.name(card(7, 1)), "HA");
    }

    /// Card lists for constants, checked at compile time, equal the parsed ones.
    #[test]
    fn constant_card_lists() {
        const TRUMPS: [Card; 14] = Notation::SCHAFKOPF.cards("EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7");
        const PLAIN: [u8; 6] = Notation::SCHAFKOPF.rank_list("A 10 K 9 8 7");
        const JACKS: [Card; 4] = Notation::SKAT.cards("  cj SJ  HJ dj ");
        let sch = Notation::SCHAFKOPF;
        let parsed: Vec<Card> =
            "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7".split(' ').map(|n| sch.parse(n).unwrap()).collect();
        assert_eq!(TRUMPS.to_vec(), parsed);
        assert_eq!(PLAIN.map(|r| sch.rank_symbol(r)), ["A", "10", "K", "9", "8", "7"]);
        assert_eq!(JACKS.map(|c| Notation::SKAT.name(c)), ["CJ", "SJ", "HJ", "DJ"]);
        assert_eq!(Notation::STANDARD.card("td"), Notation::STANDARD.parse("TD").unwrap());
        for n in [Notation::STANDARD, Notation::SCHAFKOPF, Notation::SKAT] {
            for c in n.deck().ordered() {
                assert_eq!(n.card(&n.name(c)), c);
            }
        }
    }

    #[test]
    fn bad_names_are_refused_with_what_is_allowed() {
        for (n, bad) in [
            (Notation::STANDARD, ["1C", "TX", "T", "", "10D", "TDD", "ÄS"]),
            (Notation::SCHAFKOPF, ["E1", "X7", "E", "", "ET", "10H", "EOO"]),
            (Notation::SKAT, ["C10", "X7", "C", "", "JC", "CJJ", "ÄJ"]),
        ] {
            for name in bad {
                let e = n.parse(name).unwrap_err().to_string();
                assert!(e.contains("card") && e.contains(n.allowed), "{name}: {e}");
            }
        }
        let e = Notation::SCHAFKOPF.parse_set("EO H10 EO").unwrap_err().to_string();
        assert!(e.contains("EO appears twice"), "{e}");
        assert!(Notation::SKAT.parse_set("CJ XX").is_err());
        assert_eq!(Notation::SKAT.parse_set("  ").unwrap(), 0);
    }
}

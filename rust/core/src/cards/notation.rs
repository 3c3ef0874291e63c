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
    pub fn rank_of(&self, symbol: &str) -> Option<u8> {
        match symbol.as_bytes() {
            &[b] => self.rank_of_char(b as char),
            _ => self.ranks.iter().position(|r| r.eq_ignore_ascii_case(symbol)).map(|i| i as u8),
        }
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

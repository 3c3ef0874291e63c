//! Skat's cards on the shared card engine: the 32-card deck as Skat writes it (suit first:
//! suits `D H S C` = 0..4, ranks `7 8 9 T J Q K A` = 0..8, card `4 * rank + suit`), card points,
//! and parsing of hands and the skat.

use crate::cards::{self, iter, Card, CardSet, Notation};
use crate::error::{Error, Result};

pub use crate::cards::bit;

/// How Skat writes its cards (`CJ`, `ST`, `HA`).
pub const NOTATION: Notation = Notation::SKAT;

/// Every card of the deck.
pub const DECK: CardSet = (1u64 << 32) - 1;

/// Diamonds (♦, Schellen).
pub const DIAMONDS: u8 = 0;
/// Hearts (♥, Herz).
pub const HEARTS: u8 = 1;
/// Spades (♠, Grün).
pub const SPADES: u8 = 2;
/// Clubs (♣, Eichel).
pub const CLUBS: u8 = 3;

/// Rank index of the Seven.
pub const SEVEN: u8 = 0;
/// Eight.
pub const EIGHT: u8 = 1;
/// Nine.
pub const NINE: u8 = 2;
/// Ten.
pub const TEN: u8 = 3;
/// Jack (Bube).
pub const JACK: u8 = 4;
/// Queen (Dame).
pub const QUEEN: u8 = 5;
/// King.
pub const KING: u8 = 6;
/// Ace.
pub const ACE: u8 = 7;

/// Card points by rank index: 7, 8, 9 = 0; T 10; J 2; Q 3; K 4; A 11 (120 in the deck).
pub const RANK_POINTS: [u8; 8] = [0, 0, 0, 10, 2, 3, 4, 11];

/// Every card of a rank.
pub const fn rank_cards(rank: u8) -> CardSet {
    0xF << (4 * rank as u32)
}

/// The four Jacks.
pub const JACKS: CardSet = rank_cards(JACK);

/// The card of rank `rank` and suit `suit`.
#[inline]
pub const fn card(rank: u8, suit: u8) -> Card {
    cards::set::card(rank, suit)
}

/// The natural suit of `c`.
#[inline]
pub const fn suit(c: Card) -> u8 {
    cards::set::suit(c)
}

/// The card points of `c`.
#[inline]
pub const fn points(c: Card) -> u8 {
    RANK_POINTS[(c / 4) as usize & 7]
}

/// The card points of a set of cards.
#[inline]
pub fn set_points(set: CardSet) -> u32 {
    (TEN..=ACE).map(|r| (set & rank_cards(r)).count_ones() * RANK_POINTS[r as usize] as u32).sum()
}

/// The name of a card, e.g. `CJ`, `ST`.
pub fn name(c: Card) -> String {
    NOTATION.name(c)
}

/// The names of a set's cards in ascending card order.
pub fn names(set: CardSet) -> Vec<String> {
    iter(set).map(name).collect()
}

/// The names of a set's cards in ascending card order, space-separated.
pub fn names_joined(set: CardSet) -> String {
    NOTATION.names(set)
}

/// The letter of a suit (`D`, `H`, `S`, `C`).
pub fn suit_letter(suit: u8) -> char {
    NOTATION.suit_letter(suit)
}

/// Parses a card name (case-insensitive), e.g. `CJ`, `st`.
pub fn parse_card(text: &str) -> Result<Card> {
    NOTATION.parse(text.trim())
}

/// Parses exactly `n` distinct cards written with spaces (`what` names them in errors).
fn parse_cards(text: &str, n: u32, what: &str, example: &str) -> Result<CardSet> {
    let set = NOTATION.parse_set(text)?;
    if set.count_ones() != n {
        return Err(Error::invalid(what, text, format!("{n} distinct cards separated by spaces, e.g. {example}")));
    }
    Ok(set)
}

/// Parses a hand of exactly ten distinct cards, e.g. `CJ SJ HA HT HK C7 C8 S9 D7 D8`.
pub fn parse_hand(text: &str) -> Result<CardSet> {
    parse_cards(text, 10, "hand", "CJ SJ HA HT HK C7 C8 S9 D7 D8")
}

/// Parses the skat: exactly two distinct cards, e.g. `S9 SK`.
pub fn parse_skat(text: &str) -> Result<CardSet> {
    parse_cards(text, 2, "skat", "S9 SK")
}

/// Parses three hands (Vorhand first) and the skat, which together must hold the whole deck.
pub fn parse_deal<S: AsRef<str>>(hands: &[S], skat: &str) -> Result<([CardSet; 3], CardSet)> {
    if hands.len() != 3 {
        return Err(Error::invalid("hands", hands.len(), "three hands: Vorhand, Mittelhand, Hinterhand"));
    }
    let mut out = [0; 3];
    let mut seen = parse_skat(skat)?;
    for (p, h) in hands.iter().enumerate() {
        let set = parse_hand(h.as_ref())?;
        if set & seen != 0 {
            return Err(Error::invalid(
                "hands",
                h.as_ref(),
                format!("hands and skat without common cards ({} dealt twice)", names_joined(set & seen)),
            ));
        }
        seen |= set;
        out[p] = set;
    }
    Ok((out, seen & !out.iter().fold(0, |a, h| a | h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_points_and_names() {
        assert_eq!(parse_card("D7").unwrap(), 0);
        assert_eq!(parse_card("CA").unwrap(), 31);
        assert_eq!(parse_card("CJ").unwrap(), card(JACK, CLUBS));
        assert_eq!(parse_card("ht").unwrap(), card(TEN, HEARTS));
        assert_eq!(set_points(DECK), 120);
        assert_eq!(DECK.count_ones(), 32);
        for s in 0..4 {
            assert_eq!(set_points(cards::set::SUIT_BITS[s as usize] & DECK), 30);
        }
        assert_eq!(iter(DECK).map(|c| points(c) as u32).sum::<u32>(), 120);
        assert_eq!(names(JACKS), ["DJ", "HJ", "SJ", "CJ"]);
        assert_eq!(suit_letter(CLUBS), 'C');
    }

    #[test]
    fn hands_and_skat_are_checked() {
        assert!(parse_hand("CJ SJ HA HT HK C7 C8 S9 D7").is_err());
        assert!(parse_skat("S9").unwrap_err().to_string().contains("2 distinct cards"));
        let hands = ["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK", "HQ H9 H8 H7 DA DT DK DQ D9 D8"];
        let (h, skat) = parse_deal(&hands, "D7 C7").unwrap();
        assert_eq!(skat, parse_skat("c7 d7").unwrap());
        assert_eq!(h.iter().fold(skat, |a, x| a | x), DECK);
        let e = parse_deal(&hands, "D7 CA").unwrap_err().to_string();
        assert!(e.contains("CA dealt twice"), "{e}");
        assert!(parse_deal(&hands[..2], "D7 C7").is_err());
    }
}

//! Schafkopf's cards on the shared card engine: the 32-card deck written as SchafkopfRL writes
//! it (card `4 * rank + suit`, suits `S H G E` = Schellen, Herz, Gras, Eichel, ranks
//! `7 8 9 U O K 10 A`), card points, and parsing of hands.

use crate::cards::{self, iter, Card, CardSet, Notation};
use crate::error::{Error, Result};

pub use crate::cards::bit;

/// How Schafkopf writes its cards (`EO`, `H10`, `SA`).
pub const NOTATION: Notation = Notation::SCHAFKOPF;

/// Every card of the deck.
pub const DECK: CardSet = (1u64 << 32) - 1;

/// Suit indices.
pub const SCHELLEN: u8 = 0;
/// Herz, the suit of the Sauspiel's suit trumps; it can never be called.
pub const HERZ: u8 = 1;
/// Gras.
pub const GRAS: u8 = 2;
/// Eichel.
pub const EICHEL: u8 = 3;

/// Rank indices.
pub const SEVEN: u8 = 0;
/// Eight.
pub const EIGHT: u8 = 1;
/// Nine.
pub const NINE: u8 = 2;
/// Unter.
pub const UNTER: u8 = 3;
/// Ober.
pub const OBER: u8 = 4;
/// König (King).
pub const KING: u8 = 5;
/// Ten.
pub const TEN: u8 = 6;
/// Ace (Sau).
pub const ACE: u8 = 7;

/// Card points by rank index: 7, 8, 9 = 0; U 2; O 3; K 4; 10 10; A 11 (120 in the deck).
pub const RANK_POINTS: [u8; 8] = [0, 0, 0, 2, 3, 4, 10, 11];

/// Every card of a rank (the four Unters, the four Obers, …).
pub const fn rank_cards(rank: u8) -> CardSet {
    0xF << (4 * rank as u32)
}

/// The four Unters.
pub const UNTERS: CardSet = rank_cards(UNTER);
/// The four Obers.
pub const OBERS: CardSet = rank_cards(OBER);

/// The card of rank `rank` and suit `suit`.
#[inline]
pub const fn card(rank: u8, suit: u8) -> Card {
    cards::set::card(rank, suit)
}

/// The rank index of `c`.
#[inline]
pub const fn rank(c: Card) -> u8 {
    cards::set::rank(c)
}

/// The natural suit (colour index) of `c`.
#[inline]
pub const fn suit(c: Card) -> u8 {
    cards::set::suit(c)
}

/// The Ace of `suit`.
#[inline]
pub const fn ace(suit: u8) -> Card {
    card(ACE, suit)
}

/// The card points of `c`.
#[inline]
pub const fn points(c: Card) -> u8 {
    RANK_POINTS[(c / 4) as usize & 7]
}

/// The card points of a set of cards.
#[inline]
pub fn set_points(set: CardSet) -> u32 {
    // Per rank: the number of cards of that rank times its points.
    (UNTER..=ACE).map(|r| (set & rank_cards(r)).count_ones() * RANK_POINTS[r as usize] as u32).sum()
}

/// The cards of natural suit `suit` (all eight, Obers and Unters included).
#[inline]
pub const fn suit_cards(suit: u8) -> CardSet {
    cards::set::SUIT_BITS[suit as usize & 3] & DECK
}

/// The name of a card, e.g. `EO`, `H10`.
pub fn name(c: Card) -> String {
    NOTATION.name(c)
}

/// The names of a set's cards in ascending card order.
pub fn names(set: CardSet) -> Vec<String> {
    iter(set).map(name).collect()
}

/// The letter of a suit (`S`, `H`, `G`, `E`).
pub fn suit_letter(suit: u8) -> char {
    NOTATION.suit_letter(suit)
}

/// Parses a card name (case-insensitive), e.g. `EO`, `h10`.
pub fn parse_card(text: &str) -> Result<Card> {
    NOTATION.parse(text.trim())
}

/// Parses a hand of exactly eight distinct cards written with spaces, e.g. `EO GO EU HA HK G7 G9 S7`.
pub fn parse_hand(text: &str) -> Result<CardSet> {
    let set = NOTATION.parse_set(text)?;
    if set.count_ones() != 8 {
        return Err(Error::invalid(
            "hand",
            text,
            "eight distinct cards separated by spaces, e.g. EO GO EU HA HK G7 G9 S7",
        ));
    }
    Ok(set)
}

/// Parses four hands (seat 0 first) that together hold the whole deck.
pub fn parse_hands<S: AsRef<str>>(hands: &[S]) -> Result<[CardSet; 4]> {
    if hands.len() != 4 {
        return Err(Error::invalid("hands", hands.len(), "four hands, seat 0 first"));
    }
    let mut out = [0; 4];
    let mut seen: CardSet = 0;
    for (p, h) in hands.iter().enumerate() {
        let set = parse_hand(h.as_ref())?;
        if set & seen != 0 {
            return Err(Error::invalid(
                "hands",
                h.as_ref(),
                format!("hands without common cards ({} dealt twice)", names(set & seen).join(" ")),
            ));
        }
        seen |= set;
        out[p] = set;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_points_and_names() {
        assert_eq!(parse_card("S7").unwrap(), 0);
        assert_eq!(parse_card("H7").unwrap(), 1);
        assert_eq!(parse_card("EA").unwrap(), 31);
        assert_eq!(parse_card("EO").unwrap(), card(OBER, EICHEL));
        assert_eq!(set_points(DECK), 120);
        for s in 0..4 {
            assert_eq!(set_points(suit_cards(s)), 30);
            assert_eq!(suit_cards(s).count_ones(), 8);
        }
        assert_eq!(iter(DECK).map(|c| points(c) as u32).sum::<u32>(), 120);
        assert_eq!(name(ace(GRAS)), "GA");
        assert_eq!(names(UNTERS), ["SU", "HU", "GU", "EU"]);
    }

    #[test]
    fn hands_are_checked() {
        assert!(parse_hand("EO GO EU HA HK G7 G9").is_err());
        assert!(parse_hand("EO GO EU HA HK G7 G9 EO").is_err());
        let e = parse_hands(&["EO GO EU HA HK G7 G9 S7", "EO GU H9 GA EA E7 SK S8", "", ""]).unwrap_err();
        assert!(e.to_string().contains("EO dealt twice"), "{e}");
        assert!(parse_hands(&["EO GO EU HA HK G7 G9 S7"]).is_err());
    }
}

//! Cards and card sets of the 52-card deck.
//!
//! A card is a `u8` index `(rank - 2) * 4 + suit`, so iterating a set's bits in ascending order
//! visits cards in ascending (rank, suit) order — the order the original uses to break ties
//! between equal ranks of different suits (lowest suit index first). Suits: Clubs 0, Diamonds 1,
//! Hearts 2, Spades 3; ranks: Two 2 … Ten 10, Jack 11, Queen 12, King 13, Ace 14.
//! Cards are written `2..9 T J Q K A` + `C D H S`, e.g. `TD`, `AS`.

use crate::error::{Error, Result};

/// A card: `(rank - 2) * 4 + suit`, in `0..52`.
pub type Card = u8;
/// A set of cards as a 52-bit mask (bit `card`).
pub type CardSet = u64;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;
/// Rank of the Ten.
pub const TEN: u8 = 10;
/// Rank of the Jack.
pub const JACK: u8 = 11;
/// Rank of the Five (the highest rank the abstraction writes as a low-trump candidate).
pub const FIVE: u8 = 5;

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"CDHS";

/// Masks of the four suits.
pub const SUIT_MASK: [CardSet; 4] =
    [0x0001_1111_1111_1111, 0x0001_1111_1111_1111 << 1, 0x0001_1111_1111_1111 << 2, 0x0001_1111_1111_1111 << 3];

/// Cards ranked Two to Nine.
pub const SPOT_CARDS: CardSet = (1 << (4 * (TEN - 2))) - 1;
/// The four Tens.
pub const TEN_CARDS: CardSet = 0xF << (4 * (TEN - 2));
/// Cards ranked Jack to Ace.
pub const HONOURS: CardSet = 0xFFFF << (4 * (JACK - 2));
/// Cards worth game points (Ten to Ace).
pub const GAME_POINT_CARDS: CardSet = TEN_CARDS | HONOURS;

/// The cards ranked above `rank` (2..=14).
#[inline]
pub const fn above(rank: u8) -> CardSet {
    !((1u64 << (4 * (rank - 1))) - 1) & (SPOT_CARDS | GAME_POINT_CARDS)
}

/// The card of `rank` (2..=14) and `suit` (0..4).
#[inline]
pub const fn card(rank: u8, suit: u8) -> Card {
    (rank - 2) * 4 + suit
}

/// The rank (2..=14) of `c`.
#[inline]
pub const fn rank(c: Card) -> u8 {
    c / 4 + 2
}

/// The suit (0..4) of `c`.
#[inline]
pub const fn suit(c: Card) -> u8 {
    c % 4
}

/// Game points of a rank: Ten 10, Ace 4, King 3, Queen 2, Jack 1, others 0 (a table lookup:
/// tree walks ask for it at every card).
#[inline]
pub const fn game_points(rank: u8) -> u8 {
    const POINTS: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4, 0];
    POINTS[(rank & 15) as usize]
}

/// The lower of two optional ranks (0 = none); branch-free: 0 wraps to the largest value.
#[inline]
pub fn lower(a: u8, b: u8) -> u8 {
    a.wrapping_sub(1).min(b.wrapping_sub(1)).wrapping_add(1)
}

/// The character of a rank (`2..9 T J Q K A`).
#[inline]
pub fn rank_char(rank: u8) -> char {
    RANK_CHARS[(rank - 2) as usize] as char
}

/// The rank of a rank character, if it is one.
pub fn rank_of_char(c: char) -> Option<u8> {
    RANK_CHARS.iter().position(|&r| r as char == c.to_ascii_uppercase()).map(|i| i as u8 + 2)
}

/// The character of a suit (`C D H S`).
#[inline]
pub fn suit_char(suit: u8) -> char {
    SUIT_CHARS[suit as usize] as char
}

/// The two-character name of a card, e.g. `TD`.
pub fn card_name(c: Card) -> String {
    format!("{}{}", rank_char(rank(c)), suit_char(suit(c)))
}

/// Parses a card name such as `TD` or `as` (case-insensitive).
pub fn parse_card(s: &str) -> Result<Card> {
    let bad =
        || Error::invalid("card", s, "a rank 2-9, T, J, Q, K or A followed by a suit C, D, H or S, e.g. TD or AS");
    let cs: Vec<char> = s.chars().collect();
    if cs.len() != 2 {
        return Err(bad());
    }
    let r = rank_of_char(cs[0]).ok_or_else(bad)?;
    let su = SUIT_CHARS.iter().position(|&x| x as char == cs[1].to_ascii_uppercase()).ok_or_else(bad)? as u8;
    Ok(card(r, su))
}

/// Parses a space-separated list of cards into a set; duplicates are refused.
pub fn parse_cards(s: &str) -> Result<CardSet> {
    let mut set = 0u64;
    for name in s.split_whitespace() {
        let c = parse_card(name)?;
        if set & bit(c) != 0 {
            return Err(Error::invalid("cards", s, format!("distinct cards ({name} appears twice)")));
        }
        set |= bit(c);
    }
    Ok(set)
}

/// The set holding only `c`.
#[inline]
pub const fn bit(c: Card) -> CardSet {
    1u64 << c
}

/// Iterates the cards of a set in ascending (rank, suit) order.
#[inline]
pub fn iter(mut set: CardSet) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(c)
        }
    })
}

/// The lowest card of a non-empty set (lowest rank, then lowest suit).
#[inline]
pub fn lowest(set: CardSet) -> Card {
    set.trailing_zeros() as u8
}

/// The highest card of a non-empty set (highest rank, then highest suit).
#[inline]
pub fn highest(set: CardSet) -> Card {
    63 - set.leading_zeros() as u8
}

/// Names of the cards of a set in ascending order, space-separated.
pub fn set_names(set: CardSet) -> String {
    iter(set).map(card_name).collect::<Vec<_>>().join(" ")
}

/// The ranks held in `suit` as a 15-bit mask (bit `rank`).
#[inline]
pub fn suit_ranks(set: CardSet, suit: u8) -> u16 {
    let mut m = 0u16;
    for c in iter(set & SUIT_MASK[suit as usize]) {
        m |= 1 << rank(c);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in 0..52u8 {
            assert_eq!(parse_card(&card_name(c)).unwrap(), c);
        }
        assert_eq!(card_name(card(10, 1)), "TD");
        assert_eq!(card_name(card(14, 3)), "AS");
        assert_eq!(SUIT_MASK.iter().map(|m| m.count_ones()).sum::<u32>(), 52);
        assert!(parse_card("1C").is_err());
        assert!(parse_cards("AS AS").is_err());
    }

    #[test]
    fn lower_of_optional_ranks() {
        assert_eq!(lower(0, 0), 0);
        for r in 2..=14 {
            assert_eq!(lower(0, r), r);
            assert_eq!(lower(r, 0), r);
            for s in 2..=14 {
                assert_eq!(lower(r, s), r.min(s));
            }
        }
    }
}

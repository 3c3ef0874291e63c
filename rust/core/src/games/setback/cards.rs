//! Setback's cards: the 52-card deck of [`crate::cards`] in Setback's terms, and what is
//! Setback's own (game points, the trick order once trump is set).
//!
//! A card is the shared layout's `(rank - 2) * 4 + suit`, so iterating a set's bits in ascending
//! order visits cards in ascending (rank, suit) order — the order the original uses to break ties
//! between equal ranks of different suits (lowest suit index first). Suits: Clubs 0, Diamonds 1,
//! Hearts 2, Spades 3; ranks: Two 2 … Ten 10, Jack 11, Queen 12, King 13, Ace 14.
//! Cards are written `2..9 T J Q K A` + `C D H S`, e.g. `TD`, `AS` ([`Notation::STANDARD`]).

use crate::cards::{self as shared, Deck, Follow, NaturalSuits, Notation, TrickOrder};
pub use crate::cards::{bit, highest, iter, lowest, Card, CardSet};
use crate::error::Result;

/// Setback's notation.
const NOTATION: Notation = Notation::STANDARD;
/// Setback's deck.
const DECK: Deck = Deck::STANDARD_52;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = DECK.size();
/// Rank of the Ten.
pub const TEN: u8 = 10;
/// Rank of the Jack.
pub const JACK: u8 = 11;
/// Rank of the Five (the highest rank the abstraction writes as a low-trump candidate).
pub const FIVE: u8 = 5;

/// Masks of the four suits.
pub const SUIT_MASK: [CardSet; 4] = [DECK.suit(0), DECK.suit(1), DECK.suit(2), DECK.suit(3)];

/// The trick order once `trump` (0..4) is trump: the trump suit's cards are trumps, every suit
/// runs in its natural order, and a player holding the suit led plays it or a trump (§1.4).
#[inline]
pub fn trick_order(trump: u8) -> TrickOrder<NaturalSuits> {
    TrickOrder::new(NaturalSuits::new(DECK), trump, Follow::SuitOrTrump)
}

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
    shared::set::card(rank - 2, suit)
}

/// The rank (2..=14) of `c`.
#[inline]
pub const fn rank(c: Card) -> u8 {
    shared::set::rank(c) + 2
}

/// The suit (0..4) of `c`.
#[inline]
pub const fn suit(c: Card) -> u8 {
    shared::set::suit(c)
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

/// The notation's rank characters by rank index (each Setback rank is one character).
const RANK_CHARS: [u8; 13] = {
    let mut t = [0; 13];
    let mut r = 0;
    while r < 13 {
        t[r] = NOTATION.rank_symbol(r as u8).as_bytes()[0];
        r += 1;
    }
    t
};

/// The character of a rank (`2..9 T J Q K A`).
#[inline]
pub fn rank_char(rank: u8) -> char {
    RANK_CHARS[(rank - 2) as usize] as char
}

/// The rank of a rank character, if it is one (case-insensitive).
pub fn rank_of_char(c: char) -> Option<u8> {
    NOTATION.rank_of_char(c).map(|r| r + 2)
}

/// The character of a suit (`C D H S`).
#[inline]
pub fn suit_char(suit: u8) -> char {
    NOTATION.suit_letter(suit)
}

/// The two-character name of a card, e.g. `TD`.
pub fn card_name(c: Card) -> String {
    NOTATION.name(c)
}

/// Parses a card name such as `TD` or `as` (case-insensitive).
pub fn parse_card(s: &str) -> Result<Card> {
    NOTATION.parse(s)
}

/// Parses a space-separated list of cards into a set; duplicates are refused.
pub fn parse_cards(s: &str) -> Result<CardSet> {
    NOTATION.parse_set(s)
}

/// Names of the cards of a set in ascending order, space-separated.
pub fn set_names(set: CardSet) -> String {
    NOTATION.names(set)
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

    /// The shared trick order is Setback's §1.4–§1.5 read literally: a trump beats the suit led,
    /// which beats the other suits; higher ranks beat lower; holding the suit led, a player plays
    /// it or a trump; a card neither of the suit led nor trump shows a void in the suit led.
    #[test]
    fn trick_orders_are_setbacks_rules() {
        let contention = |c: Card, led: u8, trump: u8| match suit(c) {
            s if s == trump => 32 + rank(c),
            s if s == led => 16 + rank(c),
            _ => 0,
        };
        for trump in 0..4 {
            let o = trick_order(trump);
            assert_eq!(o.trumps(), SUIT_MASK[trump as usize]);
            for w in 0..52u8 {
                let higher = SUIT_MASK[suit(w) as usize] & !((bit(w) << 1) - 1);
                let trumps = if suit(w) == trump { 0 } else { SUIT_MASK[trump as usize] };
                assert_eq!(o.beaten_by(w), higher | trumps);
                assert_eq!(o.suit(w), suit(w));
            }
            for led in 0..4 {
                for c in 0..52u8 {
                    let follows = suit(c) == led || suit(c) == trump;
                    assert_eq!(o.shows_void(c, led), !follows);
                    for d in 0..52u8 {
                        let want = contention(c, led, trump).cmp(&contention(d, led, trump));
                        assert_eq!(o.power(c, led).cmp(&o.power(d, led)), want);
                    }
                }
                for hand in [0, SUIT_MASK[led as usize] | 1 << 51, 0x000F_0F0F_00F0_F00F, (1 << 52) - 1] {
                    let on_suit = hand & SUIT_MASK[led as usize];
                    let want = if on_suit == 0 { hand } else { on_suit | (hand & SUIT_MASK[trump as usize]) };
                    assert_eq!(o.legal(hand, led), want);
                }
            }
        }
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

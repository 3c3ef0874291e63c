//! Cards as small integers and card sets as 64-bit masks.
//!
//! Every deck lays its cards out rank-major: card `rank * 4 + suit`, with the rank an index into
//! the deck's ranks (0 = the lowest in the notation's order) and the suit an index `0..4`. So the
//! cards of one suit are every fourth bit of a set, and iterating a set's bits in ascending order
//! visits cards in ascending (rank, suit) order. What a rank or suit index means is the
//! notation's business ([`super::Notation`]); how strongly a card plays, the contract's
//! ([`super::TrickOrder`]).

/// A card: `rank * 4 + suit`, below 64.
pub type Card = u8;
/// A set of cards as a mask (bit `card`).
pub type CardSet = u64;

/// Number of suits of every deck.
pub const SUITS: u8 = 4;

/// The natural suits as masks over all 64 card indices (a deck keeps those below its size).
pub const SUIT_BITS: [CardSet; 4] =
    [0x1111_1111_1111_1111, 0x1111_1111_1111_1111 << 1, 0x1111_1111_1111_1111 << 2, 0x1111_1111_1111_1111 << 3];

/// The card of rank index `rank` and suit `suit` (`0..4`).
#[inline]
pub const fn card(rank: u8, suit: u8) -> Card {
    rank * 4 + suit
}

/// The rank index of `c`.
#[inline]
pub const fn rank(c: Card) -> u8 {
    c / 4
}

/// The natural suit (`0..4`) of `c`.
#[inline]
pub const fn suit(c: Card) -> u8 {
    c % 4
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

/// A uniformly random member of a non-empty set of small integers (a card set, or any bit mask).
#[inline]
pub fn random_member<R: rand::Rng + ?Sized>(mut set: u64, rng: &mut R) -> u8 {
    debug_assert!(set != 0);
    let k = rng.gen_range(0..set.count_ones());
    for _ in 0..k {
        set &= set - 1;
    }
    set.trailing_zeros() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_rank_major() {
        for r in 0..13 {
            for s in 0..SUITS {
                let c = card(r, s);
                assert_eq!((rank(c), suit(c)), (r, s));
                assert_ne!(SUIT_BITS[s as usize] & bit(c), 0);
            }
        }
        assert_eq!(SUIT_BITS.iter().fold(0, |a, m| a | m), u64::MAX);
        assert_eq!(SUIT_BITS.iter().map(|m| m.count_ones()).sum::<u32>(), 64);
    }

    #[test]
    fn iteration_and_extremes() {
        let set = bit(3) | bit(17) | bit(40);
        assert_eq!(iter(set).collect::<Vec<_>>(), [3, 17, 40]);
        assert_eq!(iter(0).count(), 0);
        assert_eq!((lowest(set), highest(set)), (3, 40));
        assert_eq!((lowest(bit(63)), highest(bit(0))), (63, 0));
    }
}

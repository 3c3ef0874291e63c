//! Decks: the 52-card deck and the 32-card (piquet) deck of Schafkopf and Skat, and shuffling.

use super::set::{Card, CardSet, SUITS, SUIT_BITS};
use rand::Rng;

/// A deck of four suits of `ranks()` ranks each; its cards are `0..size()` (rank-major, see
/// [`super::set`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    ranks: u8,
}

impl Deck {
    /// The 52-card deck: thirteen ranks (Two to Ace) in each of four suits.
    pub const STANDARD_52: Deck = Deck { ranks: 13 };
    /// The 32-card deck: eight ranks (Seven to Ace) in each of four suits (Schafkopf, Skat).
    pub const PIQUET_32: Deck = Deck { ranks: 8 };

    /// Number of ranks in each suit.
    #[inline]
    pub const fn ranks(self) -> u8 {
        self.ranks
    }

    /// Number of cards.
    #[inline]
    pub const fn size(self) -> usize {
        self.ranks as usize * SUITS as usize
    }

    /// Every card of the deck.
    #[inline]
    pub const fn cards(self) -> CardSet {
        (1u64 << self.size()) - 1
    }

    /// The cards of natural suit `suit` (`0..4`).
    #[inline]
    pub const fn suit(self, suit: u8) -> CardSet {
        SUIT_BITS[suit as usize] & self.cards()
    }

    /// Whether `c` is a card of the deck.
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        (c as usize) < self.size()
    }

    /// The deck's cards in ascending order.
    pub fn ordered(self) -> Vec<Card> {
        (0..self.size() as Card).collect()
    }

    /// The deck's cards in a uniformly random order ([`shuffle`] of [`Deck::ordered`]).
    pub fn shuffled<R: Rng + ?Sized>(self, rng: &mut R) -> Vec<Card> {
        let mut cards = self.ordered();
        shuffle(&mut cards, rng);
        cards
    }
}

/// Shuffles `cards` uniformly (Fisher–Yates from the back: position `i` swaps with a position
/// drawn from `0..=i`), so that one seed always gives one order.
pub fn shuffle<R: Rng + ?Sized>(cards: &mut [Card], rng: &mut R) {
    for i in (1..cards.len()).rev() {
        let j = rng.gen_range(0..=i);
        cards.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn deck_sizes_and_suits() {
        for (deck, size, ranks) in [(Deck::STANDARD_52, 52, 13), (Deck::PIQUET_32, 32, 8)] {
            assert_eq!((deck.size(), deck.ranks()), (size, ranks));
            assert_eq!(deck.cards().count_ones() as usize, size);
            let suits: Vec<CardSet> = (0..SUITS).map(|s| deck.suit(s)).collect();
            assert_eq!(suits.iter().fold(0, |a, m| a | m), deck.cards());
            assert!(suits.iter().all(|m| m.count_ones() == ranks as u32));
            assert!(deck.contains(size as Card - 1) && !deck.contains(size as Card));
            assert_eq!(deck.ordered(), (0..size as Card).collect::<Vec<_>>());
        }
    }

    #[test]
    fn shuffles_are_permutations_fixed_by_the_seed() {
        for deck in [Deck::STANDARD_52, Deck::PIQUET_32] {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
            let a = deck.shuffled(&mut rng);
            let b = deck.shuffled(&mut rand_pcg::Pcg64::seed_from_u64(5));
            assert_eq!(a, b);
            assert_ne!(a, deck.ordered());
            let mut sorted = a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, deck.ordered());
        }
    }
}

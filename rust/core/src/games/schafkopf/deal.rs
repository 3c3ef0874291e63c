//! Deals: four hands of eight cards and a dealer, given or drawn from a seeded stream.
//!
//! A random deal draws the dealer uniformly from the four seats, then shuffles the deck and gives
//! seat `p` the cards `8p..8p+8` of the shuffled deck (SchafkopfRL's `reset`). Deal `index` of
//! `seed` comes from its own stream ([`crate::streams::stream`]), which nothing else draws
//! from: the deals of a match are the same whatever the agents do and however many threads
//! play them.

use super::cards::{parse_hands, DECK};
use crate::cards::{bit, shuffle, Card, CardSet, Deck};
use crate::error::{Error, Result};
use crate::streams::stream;
use rand::Rng;

/// Domain tag of the deal streams ("deals").
const DEALS: u64 = 0x0064_6561_6c73;

/// Four hands and a dealer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The hands, seat 0 first.
    pub hands: [CardSet; 4],
    /// The dealer's seat; the seat after it declares and leads first.
    pub dealer: u8,
}

impl Deal {
    /// A deal of `hands` (eight distinct cards each, together the whole deck) with `dealer`.
    pub fn new(hands: [CardSet; 4], dealer: u8) -> Result<Deal> {
        if dealer > 3 {
            return Err(Error::invalid("dealer", dealer, "a seat 0, 1, 2 or 3"));
        }
        let all = hands.iter().fold(0, |a, h| a | h);
        if all != DECK || hands.iter().any(|h| h.count_ones() != 8) {
            return Err(Error::invalid("hands", format!("{hands:x?}"), "four hands of eight cards that hold the deck"));
        }
        Ok(Deal { hands, dealer })
    }

    /// A deal of hands written as card names (seat 0 first), e.g. `["EO GO EU HA HK G7 G9 S7", …]`.
    pub fn parse<S: AsRef<str>>(hands: &[S], dealer: u8) -> Result<Deal> {
        Deal::new(parse_hands(hands)?, dealer)
    }

    /// A uniformly random deal: the dealer, then the shuffled deck, from `rng`.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Deal {
        let dealer = rng.gen_range(0..4u8);
        let mut cards: [Card; 32] = std::array::from_fn(|i| i as Card);
        debug_assert_eq!(Deck::PIQUET_32.size(), 32);
        shuffle(&mut cards, rng);
        let hands = std::array::from_fn(|p| cards[8 * p..8 * p + 8].iter().fold(0, |m, &c| m | bit(c)));
        Deal { hands, dealer }
    }

    /// Deal `index` of `seed`, from the deal stream of that index.
    pub fn for_game(seed: u64, index: u64) -> Deal {
        Deal::random(&mut stream(seed, DEALS, index, 0))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The hands of the spec's regression deals A–D (§12), seat 0 first.
    pub(crate) const DEAL_A: [&str; 4] = [
        "EO GO EU HA HK G7 G9 S7",
        "HO GU H9 GA EA E7 SK S8",
        "SO HU SU H10 H8 G10 GK E8",
        "H7 G8 E10 EK E9 SA S10 S9",
    ];

    #[test]
    fn random_deals_are_deals_and_reproducible() {
        let mut dealers = [0; 4];
        for i in 0..400 {
            let d = Deal::for_game(7, i);
            assert_eq!(Deal::new(d.hands, d.dealer).unwrap(), d);
            assert_eq!(Deal::for_game(7, i), d);
            dealers[d.dealer as usize] += 1;
        }
        assert!(dealers.iter().all(|&n| n > 60), "{dealers:?}");
        assert_ne!(Deal::for_game(7, 0), Deal::for_game(8, 0));
        assert!(Deal::new([0; 4], 0).is_err());
        let d = Deal::for_game(1, 1);
        assert!(Deal::new(d.hands, 4).unwrap_err().to_string().contains("dealer"));
    }
}

//! Deals: three hands of ten cards (Vorhand, Mittelhand, Hinterhand) and the skat, given or drawn
//! from a seeded stream.
//!
//! A random deal shuffles the deck and gives seat `p` the cards `10p..10p+10` of the shuffled
//! deck and the skat the last two. Deal `index` of `seed` comes from its own stream
//! ([`crate::streams::stream`]) that nothing else draws from: the deals of a match are the same
//! whatever the agents do and however many threads play them.

use super::cards::{parse_deal, DECK};
use crate::cards::{bit, shuffle, Card, CardSet};
use crate::error::{Error, Result};
use crate::streams::stream;
use rand::Rng;

/// Domain tag of Skat's deal streams ("skatdeal").
const DEALS: u64 = 0x736b_6174_6465_616c;

/// Three hands and the skat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The hands: 0 Vorhand, 1 Mittelhand, 2 Hinterhand.
    pub hands: [CardSet; 3],
    /// The two cards of the skat.
    pub skat: CardSet,
}

impl Deal {
    /// A deal of `hands` (ten distinct cards each) and `skat` (two), together the whole deck.
    pub fn new(hands: [CardSet; 3], skat: CardSet) -> Result<Deal> {
        let all = hands.iter().fold(skat, |a, h| a | h);
        if all != DECK || hands.iter().any(|h| h.count_ones() != 10) || skat.count_ones() != 2 {
            return Err(Error::invalid(
                "deal",
                format!("{hands:x?} + {skat:x}"),
                "three hands of ten cards and a skat of two that hold the deck",
            ));
        }
        Ok(Deal { hands, skat })
    }

    /// A deal written as card names: the hands (Vorhand first) and the skat.
    pub fn parse<S: AsRef<str>>(hands: &[S], skat: &str) -> Result<Deal> {
        let (hands, skat) = parse_deal(hands, skat)?;
        Deal::new(hands, skat)
    }

    /// A uniformly random deal from `rng`.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Deal {
        let mut cards: [Card; 32] = std::array::from_fn(|i| i as Card);
        shuffle(&mut cards, rng);
        let set = |r: &[Card]| r.iter().fold(0, |m, &c| m | bit(c));
        Deal { hands: std::array::from_fn(|p| set(&cards[10 * p..10 * p + 10])), skat: set(&cards[30..]) }
    }

    /// Deal `index` of `seed`, from the deal stream of that index.
    pub fn for_game(seed: u64, index: u64) -> Deal {
        Deal::random(&mut stream(seed, DEALS, index, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_deals_are_deals_and_reproducible() {
        let mut in_skat = [0u32; 32];
        for i in 0..2000 {
            let d = Deal::for_game(7, i);
            assert_eq!(Deal::new(d.hands, d.skat).unwrap(), d);
            assert_eq!(Deal::for_game(7, i), d);
            for c in crate::cards::iter(d.skat) {
                in_skat[c as usize] += 1;
            }
        }
        // Each card lies in the skat with probability 1/16: 125 of 2000 expected.
        assert!(in_skat.iter().all(|&n| (70..190).contains(&n)), "{in_skat:?}");
        assert_ne!(Deal::for_game(7, 0), Deal::for_game(8, 0));
        assert_ne!(Deal::for_game(7, 0), Deal::for_game(7, 1));
        assert!(Deal::new([0; 3], 0).is_err());
        let d = Deal::for_game(1, 1);
        assert!(Deal::new(d.hands, 0).is_err());
        let names: Vec<String> = d.hands.iter().map(|&h| super::super::cards::names_joined(h)).collect();
        assert_eq!(Deal::parse(&names, &super::super::cards::names_joined(d.skat)).unwrap(), d);
    }
}

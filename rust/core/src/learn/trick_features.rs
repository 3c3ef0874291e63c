//! What the order of play has shown about each seat, as features for learning agents: the cards
//! it led, the cards it played off the suit led (discards and ruffs, the Skat paper's "sloughed"
//! cards) and the effective suits it has shown void in. The cards each seat played are in every
//! game's own encoder; these facts need the tricks' order, which a set of played cards loses.
//!
//! Three blocks, each by seat relative to the viewer (relative seat `k` is `(viewer + k) % seats`):
//!
//! | offset | length | content |
//! |---|---|---|
//! | 0 | 32 · seats | cards led, 32 per relative seat (by card id) |
//! | 32 · seats | 32 · seats | cards played off the suit led, 32 per relative seat |
//! | 64 · seats | 5 · seats | effective suits shown void, 5 per relative seat: the natural suits 0–3, then [`TRUMP_SUIT`] |

use crate::cards::{Card, Suits, TrickOrder, TRUMP_SUIT};

/// Cards in the decks these features serve (card ids below 32).
const CARDS: usize = 32;
/// Effective suits: the four natural ones and [`TRUMP_SUIT`].
const EFFECTIVE_SUITS: usize = TRUMP_SUIT as usize + 1;

/// Features per seat.
pub const PER_SEAT: usize = 2 * CARDS + EFFECTIVE_SUITS;

/// The blocks' names and lengths for `seats` seats, in order (for a game's layout table).
pub fn blocks(seats: usize) -> [(&'static str, usize); 3] {
    [("led", CARDS * seats), ("off_suit", CARDS * seats), ("voids", EFFECTIVE_SUITS * seats)]
}

/// Writes the features of `tricks` (each trick's leader and its cards in play order, the current
/// one included) into `out` (`PER_SEAT · seats` entries, zeroed by the caller).
pub fn encode<'a, S: Suits>(
    order: &TrickOrder<S>,
    seats: usize,
    viewer: u8,
    tricks: impl IntoIterator<Item = (u8, &'a [Card])>,
    out: &mut [f32],
) {
    debug_assert_eq!(out.len(), PER_SEAT * seats);
    let rel = |seat: usize| (seat + seats - viewer as usize) % seats;
    let (led_block, rest) = out.split_at_mut(CARDS * seats);
    let (off_block, void_block) = rest.split_at_mut(CARDS * seats);
    for (leader, cards) in tricks {
        let Some(&lead) = cards.first() else { continue };
        let led = order.suit(lead);
        led_block[CARDS * rel(leader as usize) + lead as usize] = 1.0;
        for (i, &c) in cards.iter().enumerate().skip(1) {
            if order.suit(c) != led {
                let k = rel((leader as usize + i) % seats);
                off_block[CARDS * k + c as usize] = 1.0;
                if order.shows_void(c, led) {
                    void_block[EFFECTIVE_SUITS * k + led as usize] = 1.0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Deck, Follow, NaturalSuits, TrickOrder};

    /// Spades (suit 0) trump over a 32-card deck of natural suits; card `4 · rank + suit`.
    fn order() -> TrickOrder<NaturalSuits> {
        TrickOrder::new(NaturalSuits::new(Deck::PIQUET_32), 0, Follow::Suit)
    }

    #[test]
    fn leads_discards_ruffs_and_voids_by_relative_seat() {
        let card = |rank: u8, suit: u8| 4 * rank + suit;
        // Seat 2 leads a heart (suit 1); seat 0 follows, seat 1 ruffs with a spade; then seat 1
        // leads a club (suit 2), seat 2 discards a diamond, seat 0 has not played yet.
        let t1 = [card(7, 1), card(0, 1), card(3, 0)];
        let t2 = [card(5, 2), card(2, 3)];
        let mut out = vec![0.0; PER_SEAT * 3];
        encode(&order(), 3, 1, [(2, &t1[..]), (1, &t2[..])], &mut out);
        let on = |o: &[f32]| o.iter().enumerate().filter(|(_, &x)| x == 1.0).map(|(i, _)| i).collect::<Vec<_>>();
        // The viewer is seat 1: seat 1 is relative 0, seat 2 relative 1, seat 0 relative 2.
        assert_eq!(on(&out[..96]), vec![card(5, 2) as usize, 32 + card(7, 1) as usize]);
        assert_eq!(on(&out[96..192]), vec![card(3, 0) as usize, 32 + card(2, 3) as usize]);
        assert_eq!(on(&out[192..]), vec![1, 5 + 2]);
        assert!(out.iter().all(|&x| x == 0.0 || x == 1.0));
        assert_eq!(blocks(3).iter().map(|b| b.1).sum::<usize>(), PER_SEAT * 3);
    }
}

//! Symmetries of decisions: relabellings that leave the play unchanged (plain suits that rank
//! alike, swapped), for training on random images of each decision (data augmentation). A
//! network that sees a position under every labelling learns what the suits have in common
//! instead of each suit's play apart.
//!
//! A [`Symmetry`] says where each feature and each action of a decision kind goes; a game
//! builds its symmetries from suit relabellings ([`suit_relabellings`], [`relabel_suits`]) and
//! card relabellings ([`Symmetry::relabel_cards`]) and groups them
//! (one group per kind of position, e.g. per trump suit: the suits that may be swapped depend
//! on it), each group holding the identity.

use crate::cards::set::{card, rank, suit};
use crate::cards::Card;

/// Cards in the decks these symmetries serve (card ids below 32).
const CARDS: usize = 32;

/// Where each feature and each action of a decision goes under one relabelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    features: Vec<u16>,
    actions: Vec<u16>,
}

impl Symmetry {
    /// The relabelling of cards by `card_of` (card `c` becomes `card_of[c]`, a permutation of
    /// the 32 cards) in a decision of `features` features and `actions` actions: the 32-wide
    /// card blocks starting at `card_blocks` follow the cards, feature `from` moves to `to` for
    /// each pair of `moved` (one-hot blocks by suit, say), the rest stays; with `cards_are_actions`
    /// the actions are the cards (a card-play kind), else they stay.
    pub fn relabel_cards(
        features: usize,
        actions: usize,
        card_of: &[u8; CARDS],
        card_blocks: &[usize],
        moved: &[(usize, usize)],
        cards_are_actions: bool,
    ) -> Symmetry {
        let mut f: Vec<u16> = (0..features as u16).collect();
        for &block in card_blocks {
            for c in 0..CARDS {
                f[block + c] = (block + card_of[c] as usize) as u16;
            }
        }
        for &(from, to) in moved {
            f[from] = to as u16;
        }
        let mut a: Vec<u16> = (0..actions as u16).collect();
        if cards_are_actions {
            a[..CARDS].copy_from_slice(&card_of.map(u16::from));
        }
        let s = Symmetry { features: f, actions: a };
        debug_assert!(s.is_permutation(), "a symmetry must be one to one: {s:?}");
        s
    }

    /// The identity on `features` features and `actions` actions.
    pub fn identity(features: usize, actions: usize) -> Symmetry {
        Symmetry { features: (0..features as u16).collect(), actions: (0..actions as u16).collect() }
    }

    /// Where feature `i` goes.
    #[inline]
    pub fn feature(&self, i: usize) -> usize {
        self.features[i] as usize
    }

    /// Where action `a` goes.
    #[inline]
    pub fn action(&self, a: u16) -> u16 {
        self.actions[a as usize]
    }

    /// The image of a feature vector.
    pub fn apply(&self, features: &[f32]) -> Vec<f32> {
        let mut out = vec![0.0; features.len()];
        for (i, &x) in features.iter().enumerate() {
            out[self.feature(i)] = x;
        }
        out
    }

    fn is_permutation(&self) -> bool {
        let onto = |v: &[u16]| {
            let mut seen = vec![false; v.len()];
            v.iter().all(|&x| (x as usize) < v.len() && !std::mem::replace(&mut seen[x as usize], true))
        };
        onto(&self.features) && onto(&self.actions)
    }
}

/// Every relabelling of the suits `plain` among themselves, the other suits kept: the image of
/// each suit id, the identity first (`plain.len()!` of them).
pub fn suit_relabellings(plain: &[u8]) -> Vec<[u8; 4]> {
    (permutations(plain).iter())
        .map(|to| {
            let mut suit_of = [0, 1, 2, 3];
            for (&from, &to) in plain.iter().zip(to) {
                suit_of[from as usize] = to;
            }
            suit_of
        })
        .collect()
}

/// The card relabelling of `suit_of` (the image of each suit id) on the 32 card ids: a card
/// for which `moves` holds takes its suit's image and keeps its rank, the others stay.
pub fn relabel_suits(suit_of: &[u8; 4], moves: impl Fn(Card) -> bool) -> [u8; CARDS] {
    std::array::from_fn(|c| {
        let c = c as Card;
        if moves(c) {
            card(rank(c), suit_of[suit(c) as usize])
        } else {
            c
        }
    })
}

/// Every ordering of `items` (`items.len()!` of them, the given order first).
fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let rest: Vec<u8> = items.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relabelling_moves_cards_actions_and_named_features() {
        // Swap suits 0 and 1 of card ids 4·rank + suit.
        let mut card_of = [0u8; CARDS];
        for (c, x) in card_of.iter_mut().enumerate() {
            *x = (c as u8 & !3) | [1, 0, 2, 3][c & 3];
        }
        let s = Symmetry::relabel_cards(70, 40, &card_of, &[2, 34], &[(0, 1), (1, 0)], true);
        let mut f = vec![0.0; 70];
        f[0] = 1.0; // a one-hot by suit: suit 0
        f[2 + 4] = 1.0; // rank 1 of suit 0 in the first block
        f[34 + 9] = 0.5; // rank 2 of suit 1 in the second
        f[69] = 0.25; // left alone
        let g = s.apply(&f);
        let on: Vec<(usize, f32)> = g.iter().copied().enumerate().filter(|&(_, x)| x != 0.0).collect();
        assert_eq!(on, vec![(1, 1.0), (2 + 5, 1.0), (34 + 8, 0.5), (69, 0.25)]);
        assert_eq!((s.action(4), s.action(9), s.action(35)), (5, 8, 35));
        assert_eq!(Symmetry::relabel_cards(70, 40, &card_of, &[], &[], false).action(4), 4);
        assert_eq!(Symmetry::identity(70, 40).apply(&f), f);
    }

    #[test]
    fn suit_relabellings_move_the_named_suits_only() {
        let r = suit_relabellings(&[0, 2, 3]);
        assert_eq!((r.len(), r[0]), (6, [0, 1, 2, 3]));
        assert!(r.iter().all(|s| s[1] == 1));
        let swap = relabel_suits(&[2, 1, 0, 3], |c| c / 4 != 4);
        assert_eq!((swap[4 * 7], swap[4 * 7 + 2], swap[4 * 4], swap[4 * 7 + 1]), (4 * 7 + 2, 4 * 7, 4 * 4, 4 * 7 + 1));
    }

    #[test]
    fn permutations_are_all_orderings_once() {
        let p = permutations(&[3, 1, 2]);
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], vec![3, 1, 2]);
        let mut sorted = p.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6);
        assert_eq!(permutations(&[0, 1, 2, 3]).len(), 24);
    }
}

//! Hidden cards placed exactly: uniform, rejection-free sampling of how a set of unseen cards is
//! split among up to three receivers (the other players' hands), each of which needs an exact
//! number of cards, under per-card restrictions on who may hold a card.
//!
//! Cards that the same receivers may hold are interchangeable under these constraints. They
//! form a *class*, and the number of placements is a sum over how many cards of each class each
//! receiver gets, which a dynamic programme over the classes counts exactly (`u128`). Sampling
//! walks the classes, drawing each class's split in proportion to the number of placements it
//! leaves, then shuffles the class's cards into that split: every placement has the same
//! probability, and no draw is ever rejected.
//!
//! Unseen cards that no receiver takes *stay out* (the undealt cards of Setback, the Skat): the
//! number of cards staying out is whatever the needs leave, and any card may stay out. A game
//! whose needs add up to the unseen cards (Schafkopf) places every card.
//!
//! A game adds constraints this cannot express (a bid that needs a card of a suit, say) by
//! rejecting sampled placements that break them: rejection on top of a uniform proposal keeps the
//! result uniform over the placements that pass.

use crate::cards::{bit, iter, Card, CardSet};
use crate::error::{Error, Result};
use rand::Rng;

/// The most receivers a [`HiddenSampler`] places cards with.
pub const MAX_RECEIVERS: usize = 3;
/// The most cards one receiver may need (a Skat hand is 10).
pub const MAX_NEED: usize = 12;

/// Pascal's triangle up to 64 cards (every entry fits a `u64`: C(64, 32) < 2^61).
const BINOM: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline]
fn binom(n: usize, k: usize) -> u128 {
    BINOM[n][k] as u128
}

/// Draws placements of hidden cards uniformly (see the module documentation).
#[derive(Clone, Debug)]
pub struct HiddenSampler {
    /// Cards each receiver needs (0 for receivers beyond those given).
    need: [usize; MAX_RECEIVERS],
    /// Sides of the counting table: `need + 1` per receiver.
    dims: [usize; MAX_RECEIVERS],
    /// Entries per class in `ways`.
    states: usize,
    /// Unseen cards that stay out.
    slack: usize,
    /// The cards of each class and the receivers (bit i) that may hold them.
    class_cards: Vec<CardSet>,
    class_masks: Vec<u8>,
    /// `rem[c]`: cards of classes `c..`.
    rem: Vec<usize>,
    /// `supply[c][i]`: cards of classes `c..` receiver `i` may hold.
    supply: Vec<[usize; MAX_RECEIVERS]>,
    /// `ways[c * states + state(r)]`: placements of classes `c..` when the receivers still need
    /// `r` (for class 0 only the state `need`).
    ways: Vec<u128>,
}

impl HiddenSampler {
    /// The placements of `unseen` among `need.len()` receivers (at most [`MAX_RECEIVERS`]), the
    /// receiver `i` taking exactly `need[i]` cards (at most [`MAX_NEED`]), a card `c` going
    /// only to the receivers in `may_hold(c)` (bit `i` for receiver `i`) or staying out.
    ///
    /// The classes are the cards of equal masks, ordered by their lowest card. An error when
    /// the arguments are out of range or no placement exists.
    pub fn new(unseen: CardSet, need: &[usize], may_hold: impl Fn(Card) -> u8) -> Result<HiddenSampler> {
        let mut classes: Vec<(CardSet, u8)> = Vec::new();
        for c in iter(unseen) {
            let m = may_hold(c);
            match classes.iter_mut().find(|(_, cm)| *cm == m) {
                Some((cards, _)) => *cards |= bit(c),
                None => classes.push((bit(c), m)),
            }
        }
        HiddenSampler::from_classes(&classes, need)
    }

    /// The placements of the cards of `classes` (disjoint sets, each with the receivers that may
    /// hold its cards, bit `i` for receiver `i`) among `need.len()` receivers as in
    /// [`HiddenSampler::new`]. The classes are counted and sampled in the order given, empty
    /// ones included: the draws depend on that order (a game that must reproduce earlier draws
    /// keeps its own).
    pub fn from_classes(classes: &[(CardSet, u8)], need: &[usize]) -> Result<HiddenSampler> {
        if need.len() > MAX_RECEIVERS || need.iter().any(|&n| n > MAX_NEED) {
            return Err(Error::invalid(
                "needs",
                format!("{need:?}"),
                format!("at most {MAX_RECEIVERS} receivers needing at most {MAX_NEED} cards each"),
            ));
        }
        let receivers_mask = (1u8 << need.len()) - 1;
        let mut all: CardSet = 0;
        for &(cards, mask) in classes {
            if cards & all != 0 || mask & !receivers_mask != 0 {
                return Err(Error::invalid(
                    "classes",
                    format!("{classes:x?}"),
                    "disjoint card sets, each with a mask of the receivers",
                ));
            }
            all |= cards;
        }
        let mut nd = [0usize; MAX_RECEIVERS];
        nd[..need.len()].copy_from_slice(need);
        let unseen = all.count_ones() as usize;
        let total_need: usize = nd.iter().sum();
        let no_placement =
            || Error::invalid("hidden cards", format!("{classes:x?} for needs {need:?}"), "at least one placement");
        if total_need > unseen {
            return Err(no_placement());
        }
        let dims = nd.map(|n| n + 1);
        let states = dims.iter().product();
        let n = classes.len();
        let mut rem = vec![0usize; n + 1];
        let mut supply = vec![[0usize; MAX_RECEIVERS]; n + 1];
        for c in (0..n).rev() {
            let (cards, mask) = classes[c];
            let size = cards.count_ones() as usize;
            rem[c] = rem[c + 1] + size;
            supply[c] = std::array::from_fn(|i| supply[c + 1][i] + if mask & (1 << i) != 0 { size } else { 0 });
        }
        let mut s = HiddenSampler {
            need: nd,
            dims,
            states,
            slack: unseen - total_need,
            class_cards: classes.iter().map(|&(cards, _)| cards).collect(),
            class_masks: classes.iter().map(|&(_, mask)| mask).collect(),
            rem,
            supply,
            ways: vec![0u128; (n + 1) * states],
        };
        s.ways[n * states] = 1;
        for c in (0..n).rev() {
            // States that classes c.. cannot fill have no placements: each receiver needs at
            // most what it may take, and the cards left out of classes c.. (rem - sum of the
            // needs) are at most the slack. Class 0 starts from `need`.
            let top = |i: usize| nd[i].min(s.supply[c][i]);
            let bottom = |i: usize| if c == 0 { nd[i] } else { 0 };
            let rem = s.rem[c];
            for r0 in bottom(0)..=top(0) {
                for r1 in bottom(1)..=top(1) {
                    if r0 + r1 > rem {
                        break;
                    }
                    let lo = bottom(2).max((rem - r0 - r1).saturating_sub(s.slack));
                    let hi = top(2).min(rem - r0 - r1);
                    for r2 in lo..=hi {
                        let r = [r0, r1, r2];
                        let mut total = 0u128;
                        s.for_splits(c, r, |_, w| {
                            total += w;
                            false
                        });
                        let at = c * states + s.state(r);
                        s.ways[at] = total;
                    }
                }
            }
        }
        if s.count() == 0 {
            return Err(no_placement());
        }
        Ok(s)
    }

    #[inline]
    fn state(&self, r: [usize; MAX_RECEIVERS]) -> usize {
        (r[0] * self.dims[1] + r[1]) * self.dims[2] + r[2]
    }

    /// Calls `f(split, ways)` for every split of class `c` (cards to each receiver, the rest
    /// staying out) allowed when the receivers still need `r`, with the number of placements
    /// it leaves (zero-weight splits skipped), in lexicographic order of the split, until `f`
    /// returns true.
    fn for_splits(&self, c: usize, r: [usize; MAX_RECEIVERS], mut f: impl FnMut([usize; MAX_RECEIVERS], u128) -> bool) {
        let u = self.class_cards[c].count_ones() as usize;
        let mask = self.class_masks[c];
        let cap = |i: usize| if mask & (1 << i) == 0 { 0 } else { r[i] };
        // Later classes can give receiver i at most supply[c + 1][i] cards.
        let least = |i: usize| r[i].saturating_sub(self.supply[c + 1][i]);
        // Cards of classes c.. that will stay out.
        let out = self.rem[c] - r.iter().sum::<usize>();
        let next = (c + 1) * self.states;
        for k0 in least(0)..=cap(0).min(u) {
            for k1 in least(1)..=cap(1).min(u - k0) {
                let left = u - k0 - k1;
                for k2 in least(2).max(left.saturating_sub(out))..=cap(2).min(left) {
                    let rest = self.ways[next + self.state([r[0] - k0, r[1] - k1, r[2] - k2])];
                    if rest != 0 {
                        let split = binom(u, k0) * binom(u - k0, k1) * binom(left, k2);
                        if f([k0, k1, k2], split * rest) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// The number of placements.
    pub fn count(&self) -> u128 {
        self.ways[self.state(self.need)]
    }

    /// The cards each receiver needs.
    pub fn need(&self) -> [usize; MAX_RECEIVERS] {
        self.need
    }

    /// The classes: each one's cards and the receivers that may hold them, in sampling order.
    pub fn classes(&self) -> impl Iterator<Item = (CardSet, u8)> + '_ {
        self.class_cards.iter().copied().zip(self.class_masks.iter().copied())
    }

    /// A uniformly drawn placement: the cards of each receiver (none for receivers beyond those
    /// given).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> [CardSet; MAX_RECEIVERS] {
        let mut hands = [0u64; MAX_RECEIVERS];
        let mut r = self.need;
        let mut pool = [0 as Card; 64];
        for c in 0..self.class_cards.len() {
            let mut x = rng.gen_range(0..self.ways[c * self.states + self.state(r)]);
            let mut chosen = [0usize; MAX_RECEIVERS];
            self.for_splits(c, r, |k, w| {
                chosen = k;
                if x < w {
                    return true;
                }
                x -= w;
                false
            });
            // Deal the class's cards into the split by a partial Fisher–Yates shuffle.
            let mut len = 0;
            for card in iter(self.class_cards[c]) {
                pool[len] = card;
                len += 1;
            }
            let mut next = 0;
            for (i, &k) in chosen.iter().enumerate() {
                for _ in 0..k {
                    let j = rng.gen_range(next..len);
                    pool.swap(next, j);
                    hands[i] |= bit(pool[next]);
                    next += 1;
                }
                r[i] -= k;
            }
        }
        hands
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Every placement of `unseen` by brute force: each card to a receiver or out.
    fn enumerate(unseen: CardSet, need: &[usize], masks: &[u8; 64]) -> Vec<[CardSet; 3]> {
        let list: Vec<Card> = iter(unseen).collect();
        let mut out = Vec::new();
        for code in 0..4usize.pow(list.len() as u32) {
            let mut hands = [0u64; 4];
            let mut x = code;
            let mut ok = true;
            for &c in &list {
                let to = x % 4; // 3 = stays out
                x /= 4;
                if to < 3 && (to >= need.len() || masks[c as usize] & (1 << to) == 0) {
                    ok = false;
                }
                hands[to] |= bit(c);
            }
            if ok && (0..need.len()).all(|i| hands[i].count_ones() as usize == need[i]) {
                out.push([hands[0], hands[1], hands[2]]);
            }
        }
        out
    }

    /// Counts equal brute force for random unseen sets, needs (with and without cards staying
    /// out) and masks; every sample is a valid placement.
    #[test]
    fn counts_match_brute_force() {
        let mut rng = Pcg64::seed_from_u64(21);
        let mut checked = 0;
        for _ in 0..300 {
            let receivers = rng.gen_range(1..=3usize);
            let size = rng.gen_range(1..=8usize);
            let mut unseen = 0u64;
            while unseen.count_ones() < size as u32 {
                unseen |= bit(rng.gen_range(0..64u8));
            }
            let mut need = vec![0usize; receivers];
            let placed = if rng.gen_bool(0.5) { size } else { rng.gen_range(0..=size) };
            for _ in 0..placed {
                need[rng.gen_range(0..receivers)] += 1;
            }
            let mut masks = [0u8; 64];
            for m in masks.iter_mut() {
                // Few distinct masks, so that classes hold several cards.
                *m = [0b111, 0b111, 0b011, 0b101, 0b110, 0b001, 0b000][rng.gen_range(0..7)] & ((1 << receivers) - 1);
            }
            let brute = enumerate(unseen, &need, &masks);
            match HiddenSampler::new(unseen, &need, |c| masks[c as usize]) {
                Ok(s) => {
                    assert_eq!(s.count(), brute.len() as u128, "{unseen:x} {need:?}");
                    for _ in 0..20 {
                        let h = s.sample(&mut rng);
                        assert!(brute.contains(&h), "{h:x?} is a placement");
                    }
                    checked += 1;
                }
                Err(_) => assert!(brute.is_empty(), "{unseen:x} {need:?}: {} placements", brute.len()),
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// Every placement is drawn about equally often (chi-square, fixed seed).
    #[test]
    fn sampling_is_uniform() {
        let unseen = 0b1011_0110_1101u64;
        let need = [2, 2, 1];
        let masks = |c: Card| match c % 3 {
            0 => 0b011,
            1 => 0b110,
            _ => 0b111,
        };
        let mut m = [0u8; 64];
        for c in 0..64 {
            m[c as usize] = masks(c);
        }
        let brute = enumerate(unseen, &need, &m);
        let s = HiddenSampler::new(unseen, &need, masks).unwrap();
        assert_eq!(s.count(), brute.len() as u128);
        let mut freq = vec![0u32; brute.len()];
        let mut rng = Pcg64::seed_from_u64(4);
        let draws = 100 * brute.len() as u32;
        for _ in 0..draws {
            let h = s.sample(&mut rng);
            freq[brute.iter().position(|w| *w == h).unwrap()] += 1;
        }
        let expected = draws as f64 / brute.len() as f64;
        let chi2: f64 = freq.iter().map(|&f| (f as f64 - expected).powi(2) / expected).sum();
        let df = (brute.len() - 1) as f64;
        assert!(chi2 < df + 6.0 * (2.0 * df).sqrt(), "chi2 {chi2} with {df} degrees of freedom");
    }

    /// Explicit classes keep their order, empty ones included; a 10-card-hands deal counts as
    /// the multinomial.
    #[test]
    fn explicit_classes_and_large_counts() {
        let s = HiddenSampler::from_classes(&[(0, 0b111), ((1 << 32) - 1, 0b111)], &[10, 10, 10]).unwrap();
        // 32 cards: 10 + 10 + 10 dealt, 2 left out (Skat): 32! / (10!^3 2!).
        assert_eq!(s.count(), 2_753_294_408_504_640u128);
        assert_eq!(s.classes().count(), 2);
        let h = s.sample(&mut Pcg64::seed_from_u64(1));
        assert!(h.iter().all(|x| x.count_ones() == 10) && h[0] & h[1] == 0 && h[1] & h[2] == 0);
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(HiddenSampler::new(0b111, &[1, 1, 1, 0], |_| 0b1111).is_err(), "four receivers");
        assert!(HiddenSampler::new(u64::MAX, &[13], |_| 1).is_err(), "need over 12");
        assert!(HiddenSampler::new(0b11, &[3], |_| 1).is_err(), "not enough cards");
        assert!(HiddenSampler::new(0b11, &[1, 1], |_| 0b01).is_err(), "nobody may hold the second's card");
        assert!(HiddenSampler::from_classes(&[(0b11, 1), (0b10, 1)], &[1]).is_err(), "overlapping classes");
        assert!(HiddenSampler::from_classes(&[(0b11, 0b10)], &[1]).is_err(), "mask beyond the receivers");
        assert_eq!(HiddenSampler::new(0, &[], |_| 0).unwrap().count(), 1, "nothing to place: one way");
    }
}

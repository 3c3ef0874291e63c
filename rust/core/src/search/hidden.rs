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
//! [`Quota`]s add lower bounds: a receiver takes at least so many cards of a set (a bid that
//! needs a card of a suit, say). The classes then also separate the cards inside and outside each
//! quota's set, and the count tracks how much of each quota is still to fill; the draw stays
//! exact and uniform.
//!
//! A game adds constraints this cannot express by rejecting sampled placements that break them:
//! rejection on top of a uniform proposal keeps the result uniform over the placements that pass.

use crate::cards::{bit, iter, Card, CardSet};
use crate::error::{Error, Result};
use rand::Rng;

/// The most receivers a [`HiddenSampler`] places cards with.
pub const MAX_RECEIVERS: usize = 3;
/// The most cards one receiver may need (a Skat hand is 10).
pub const MAX_NEED: usize = 12;

/// Pascal's triangle up to 64 cards (every entry fits a `u64`: C(64, 32) < 2^61).
static BINOM: [[u64; 65]; 65] = {
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

/// A lower bound on the cards a receiver gets from a set: receiver `receiver` takes at least
/// `at_least` of `cards` (a bid that needs a card of a suit, say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// The receiver.
    pub receiver: usize,
    /// The cards it must take some of (only unseen ones count).
    pub cards: CardSet,
    /// How many of them it takes at least.
    pub at_least: usize,
}

/// The most quotas a [`HiddenSampler`] honours.
pub const MAX_QUOTAS: usize = 4;
/// The most combinations of quotas left to fill (the product of `at_least + 1`).
const MAX_QUOTA_STATES: usize = 64;

/// Draws placements of hidden cards uniformly (see the module documentation).
#[derive(Clone, Debug)]
pub struct HiddenSampler {
    /// Cards each receiver needs (0 for receivers beyond those given).
    need: [usize; MAX_RECEIVERS],
    /// Sides of the counting table: `need + 1` per receiver.
    dims: [usize; MAX_RECEIVERS],
    /// The quotas (receiver and bound; their cards are the classes of `class_quotas`).
    quotas: Vec<Quota>,
    /// Combinations of quotas left to fill: the product of `at_least + 1`.
    quota_states: usize,
    /// Entries per class in `ways`.
    states: usize,
    /// Unseen cards that stay out.
    slack: usize,
    /// The cards of each class, the receivers (bit i) that may hold them, and the quotas (bit
    /// j) whose cards they are.
    class_cards: Vec<CardSet>,
    class_masks: Vec<u8>,
    class_quotas: Vec<u8>,
    /// `rem[c]`: cards of classes `c..`.
    rem: Vec<usize>,
    /// `supply[c][i]`: cards of classes `c..` receiver `i` may hold.
    supply: Vec<[usize; MAX_RECEIVERS]>,
    /// `ways[c * states + state(r, q)]`: placements of classes `c..` when the receivers still
    /// need `r` cards and the quotas `q` (for class 0 only the state of `need` and the full
    /// quotas).
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
        HiddenSampler::with_quotas(unseen, need, may_hold, &[])
    }

    /// As [`HiddenSampler::new`], counting and drawing only the placements that also fill every
    /// quota (at most [`MAX_QUOTAS`], the product of their `at_least + 1` at most 64). The
    /// classes are the cards of equal masks and equal membership in the quotas' sets.
    pub fn with_quotas(
        unseen: CardSet,
        need: &[usize],
        may_hold: impl Fn(Card) -> u8,
        quotas: &[Quota],
    ) -> Result<HiddenSampler> {
        let mut classes: Vec<(CardSet, u8, u8)> = Vec::new();
        for c in iter(unseen) {
            let m = may_hold(c);
            let g = quotas.iter().enumerate().fold(0u8, |g, (j, q)| g | (((q.cards >> c) & 1) as u8) << j);
            match classes.iter_mut().find(|(_, cm, cg)| (*cm, *cg) == (m, g)) {
                Some((cards, _, _)) => *cards |= bit(c),
                None => classes.push((bit(c), m, g)),
            }
        }
        let classes: Vec<(CardSet, u8)> = classes.into_iter().map(|(cards, m, _)| (cards, m)).collect();
        HiddenSampler::build(&classes, need, quotas)
    }

    /// The placements of the cards of `classes` (disjoint sets, each with the receivers that may
    /// hold its cards, bit `i` for receiver `i`) among `need.len()` receivers as in
    /// [`HiddenSampler::new`]. The classes are counted and sampled in the order given, empty
    /// ones included: the draws depend on that order (a game that must reproduce earlier draws
    /// keeps its own).
    pub fn from_classes(classes: &[(CardSet, u8)], need: &[usize]) -> Result<HiddenSampler> {
        HiddenSampler::build(classes, need, &[])
    }

    fn build(classes: &[(CardSet, u8)], need: &[usize], quotas: &[Quota]) -> Result<HiddenSampler> {
        if need.len() > MAX_RECEIVERS || need.iter().any(|&n| n > MAX_NEED) {
            return Err(Error::invalid(
                "needs",
                format!("{need:?}"),
                format!("at most {MAX_RECEIVERS} receivers needing at most {MAX_NEED} cards each"),
            ));
        }
        let quota_states = quotas.iter().map(|q| q.at_least + 1).product::<usize>();
        if quotas.len() > MAX_QUOTAS
            || quota_states > MAX_QUOTA_STATES
            || quotas.iter().any(|q| q.receiver >= need.len())
        {
            return Err(Error::invalid(
                "quotas",
                format!("{quotas:?}"),
                format!("at most {MAX_QUOTAS} quotas of the receivers, the product of at_least + 1 at most 64"),
            ));
        }
        let receivers_mask = (1u8 << need.len()) - 1;
        let mut all: CardSet = 0;
        let mut class_quotas = Vec::with_capacity(classes.len());
        for &(cards, mask) in classes {
            let inside = |q: &Quota| cards & q.cards == cards;
            let outside = |q: &Quota| cards & q.cards == 0;
            if cards & all != 0 || mask & !receivers_mask != 0 || !quotas.iter().all(|q| inside(q) || outside(q)) {
                return Err(Error::invalid(
                    "classes",
                    format!("{classes:x?}"),
                    "disjoint card sets, each with a mask of the receivers, inside or outside each quota's cards",
                ));
            }
            all |= cards;
            class_quotas
                .push(quotas.iter().enumerate().fold(0u8, |g, (j, q)| g | ((inside(q) && cards != 0) as u8) << j));
        }
        let mut nd = [0usize; MAX_RECEIVERS];
        nd[..need.len()].copy_from_slice(need);
        let unseen = all.count_ones() as usize;
        let total_need: usize = nd.iter().sum();
        let no_placement = || {
            Error::invalid(
                "hidden cards",
                format!("{classes:x?} for needs {need:?} and quotas {quotas:?}"),
                "at least one placement",
            )
        };
        if total_need > unseen {
            return Err(no_placement());
        }
        let dims = nd.map(|n| n + 1);
        let states = dims.iter().product::<usize>() * quota_states;
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
            quotas: quotas.to_vec(),
            quota_states,
            states,
            slack: unseen - total_need,
            class_cards: classes.iter().map(|&(cards, _)| cards).collect(),
            class_masks: classes.iter().map(|&(_, mask)| mask).collect(),
            class_quotas,
            rem,
            supply,
            ways: vec![0u128; (n + 1) * states],
        };
        s.ways[n * states] = 1;
        let full = s.full_quotas();
        for c in (0..n).rev() {
            // States that classes c.. cannot fill have no placements: each receiver needs at
            // most what it may take, and the cards left out of classes c.. (rem - sum of the
            // needs) are at most the slack. Class 0 starts from `need` and the full quotas.
            let top = |i: usize| nd[i].min(s.supply[c][i]);
            let bottom = |i: usize| if c == 0 { nd[i] } else { 0 };
            let quota_range = if c == 0 { full..full + 1 } else { 0..quota_states };
            let rem = s.rem[c];
            for r0 in bottom(0)..=top(0) {
                for r1 in bottom(1)..=top(1) {
                    if r0 + r1 > rem {
                        break;
                    }
                    let lo = bottom(2).max((rem - r0 - r1).saturating_sub(s.slack));
                    let hi = top(2).min(rem - r0 - r1);
                    for r2 in lo..=hi {
                        for q in quota_range.clone() {
                            let r = [r0, r1, r2];
                            let mut total = 0u128;
                            s.for_splits(c, r, q, |_, w| {
                                total += w;
                                false
                            });
                            let at = c * states + s.state(r, q);
                            s.ways[at] = total;
                        }
                    }
                }
            }
        }
        if s.count() == 0 {
            return Err(no_placement());
        }
        Ok(s)
    }

    /// The index of the full quotas (each `at_least` still to fill).
    fn full_quotas(&self) -> usize {
        self.quotas.iter().fold(0, |q, quota| q * (quota.at_least + 1) + quota.at_least)
    }

    #[inline]
    fn state(&self, r: [usize; MAX_RECEIVERS], q: usize) -> usize {
        ((r[0] * self.dims[1] + r[1]) * self.dims[2] + r[2]) * self.quota_states + q
    }

    /// Calls `f(split, ways)` for every split of class `c` (cards to each receiver, the rest
    /// staying out) allowed when the receivers still need `r` and the quotas `q`, with the
    /// number of placements it leaves (zero-weight splits skipped), in lexicographic order of
    /// the split, until `f` returns true.
    fn for_splits(
        &self,
        c: usize,
        r: [usize; MAX_RECEIVERS],
        q: usize,
        mut f: impl FnMut([usize; MAX_RECEIVERS], u128) -> bool,
    ) {
        let u = self.class_cards[c].count_ones() as usize;
        let mask = self.class_masks[c];
        let cap = |i: usize| if mask & (1 << i) == 0 { 0 } else { r[i] };
        // Later classes can give receiver i at most supply[c + 1][i] cards.
        let least = |i: usize| r[i].saturating_sub(self.supply[c + 1][i]);
        // Cards of classes c.. that will stay out.
        let out = self.rem[c] - r.iter().sum::<usize>();
        let next = (c + 1) * self.states;
        let (counted, nq) = self.counted(c, q);
        for k0 in least(0)..=cap(0).min(u) {
            for k1 in least(1)..=cap(1).min(u - k0) {
                let left = u - k0 - k1;
                for k2 in least(2).max(left.saturating_sub(out))..=cap(2).min(left) {
                    let k = [k0, k1, k2];
                    let q_next = counted[..nq].iter().fold(q, |q, &(i, left, stride)| q - left.min(k[i]) * stride);
                    let rest = self.ways[next + self.state([r[0] - k0, r[1] - k1, r[2] - k2], q_next)];
                    if rest != 0 {
                        let split = binom(u, k0) * binom(u - k0, k1) * binom(left, k2);
                        if f(k, split * rest) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// The number of placements.
    pub fn count(&self) -> u128 {
        self.ways[self.state(self.need, self.full_quotas())]
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
        let mut q = self.full_quotas();
        let mut pool = [0 as Card; 64];
        for c in 0..self.class_cards.len() {
            let mut x = rng.gen_range(0..self.ways[c * self.states + self.state(r, q)]);
            let mut chosen = [0usize; MAX_RECEIVERS];
            self.for_splits(c, r, q, |k, w| {
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
            q = self.quota_after(c, q, chosen);
        }
        hands
    }

    /// The quotas class `c` counts for that are left to fill in the quota state `q`: (receiver,
    /// left to fill, index stride), and how many.
    #[inline]
    fn counted(&self, c: usize, q: usize) -> ([(usize, usize, usize); MAX_QUOTAS], usize) {
        let mut counted = [(0usize, 0usize, 0usize); MAX_QUOTAS];
        let mut nq = 0;
        let (mut rest_q, mut stride) = (q, 1);
        for (j, quota) in self.quotas.iter().enumerate().rev() {
            let side = quota.at_least + 1;
            let left = rest_q % side;
            rest_q /= side;
            if self.class_quotas[c] & (1 << j) != 0 && left > 0 {
                counted[nq] = (quota.receiver, left, stride);
                nq += 1;
            }
            stride *= side;
        }
        (counted, nq)
    }

    /// The quota state after class `c` gives `k` cards to the receivers in quota state `q`.
    #[inline]
    fn quota_after(&self, c: usize, q: usize, k: [usize; MAX_RECEIVERS]) -> usize {
        let (counted, nq) = self.counted(c, q);
        counted[..nq].iter().fold(q, |q, &(i, left, stride)| q - left.min(k[i]) * stride)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Every placement of `unseen` that fills `quotas`, by brute force: each card to a receiver
    /// or out.
    fn enumerate(unseen: CardSet, need: &[usize], masks: &[u8; 64], quotas: &[Quota]) -> Vec<[CardSet; 3]> {
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
            let filled = quotas.iter().all(|q| (hands[q.receiver] & q.cards).count_ones() as usize >= q.at_least);
            if ok && filled && (0..need.len()).all(|i| hands[i].count_ones() as usize == need[i]) {
                out.push([hands[0], hands[1], hands[2]]);
            }
        }
        out
    }

    /// Counts equal brute force for random unseen sets, needs (with and without cards staying
    /// out), masks and quotas; every sample is a valid placement.
    #[test]
    fn counts_match_brute_force() {
        let mut rng = Pcg64::seed_from_u64(21);
        let mut checked = 0;
        for _ in 0..600 {
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
            let mut quotas = Vec::new();
            for _ in 0..rng.gen_range(0..=3) {
                let cards = unseen & rng.gen::<u64>();
                quotas.push(Quota { receiver: rng.gen_range(0..receivers), cards, at_least: rng.gen_range(0..=2) });
            }
            let brute = enumerate(unseen, &need, &masks, &quotas);
            match HiddenSampler::with_quotas(unseen, &need, |c| masks[c as usize], &quotas) {
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
        assert!(checked > 200, "{checked}");
    }

    /// Every placement filling a quota is drawn about equally often (chi-square, fixed seed).
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
        let quotas = [Quota { receiver: 0, cards: 0b1000_0110_0001, at_least: 1 }];
        let brute = enumerate(unseen, &need, &m, &quotas);
        let s = HiddenSampler::with_quotas(unseen, &need, masks, &quotas).unwrap();
        assert!(s.count() < HiddenSampler::new(unseen, &need, masks).unwrap().count(), "the quota bites");
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
        let q = |receiver, at_least| Quota { receiver, cards: 0b1, at_least };
        assert!(HiddenSampler::with_quotas(0b11, &[1], |_| 1, &[q(1, 1)]).is_err(), "quota of no receiver");
        assert!(HiddenSampler::with_quotas(0b11, &[1], |_| 1, &[q(0, 63)]).is_err(), "too many quota states");
        assert!(HiddenSampler::with_quotas(0b11, &[1], |_| 1, &[q(0, 2)]).is_err(), "a quota nobody fills");
        assert_eq!(HiddenSampler::with_quotas(0b11, &[1], |_| 1, &[q(0, 1)]).unwrap().count(), 1);
        assert_eq!(HiddenSampler::new(0, &[], |_| 0).unwrap().count(), 1, "nothing to place: one way");
    }
}

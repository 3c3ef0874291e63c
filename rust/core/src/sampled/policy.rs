//! Average strategies over integer keys: the sampled counterpart of
//! [`crate::policy::TabularPolicy`] (whose string keys would not fit tens of millions of
//! infosets), the average of accumulated strategy weights, and the argmax of a strategy.

use super::index::Key;
use super::table::Table;
use crate::cfr::regret_matching;
use crate::policy::argmax;

/// The average strategy of accumulated strategy weights `sums`: the weights normalised
/// (negative ones count as 0; uniform when none is positive), then probabilities below
/// `threshold` zeroed and the rest renormalised.
///
/// The normalisation is [`regret_matching`] of the weights (for weights of one sign the two
/// are the same rule, and the same as [`crate::cfr::normalise`]).
pub fn average_strategy(sums: &[f32], threshold: f64) -> Vec<f32> {
    let n = sums.len();
    let mut p = vec![0.0; n];
    let total = regret_matching(&mut p, |i| sums[i] as f64);
    if total <= 0.0 {
        return vec![1.0 / n as f32; n];
    }
    for x in p.iter_mut() {
        if *x < threshold {
            *x = 0.0;
        }
    }
    let t: f64 = p.iter().sum();
    p.iter().map(|&x| (x / t) as f32).collect()
}

/// A strategy over integer keys: sorted keys, each with its action probabilities (f32) in the
/// key's own action order. Its file form is in [`super::files`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyedPolicy {
    /// Keys, ascending.
    pub keys: Vec<Key>,
    /// Start of each key's probabilities in `probs`; `offsets[keys.len()]` = `probs.len()`.
    pub offsets: Vec<u64>,
    /// Probabilities, key after key.
    pub probs: Vec<f32>,
}

impl KeyedPolicy {
    /// An empty strategy.
    pub fn new() -> KeyedPolicy {
        KeyedPolicy { keys: vec![], offsets: vec![0], probs: vec![] }
    }

    /// The average strategy of every infoset of `table`, whose key `k` has `num_actions(k)`
    /// actions (see [`average_strategy`] for `threshold`).
    pub fn average_of(table: &Table, num_actions: impl Fn(Key) -> usize, threshold: f64) -> KeyedPolicy {
        let entries = table.entries();
        let mut s = KeyedPolicy::new();
        s.keys.reserve(entries.len());
        s.offsets.reserve(entries.len());
        s.probs.reserve(entries.len() * 3);
        for (k, slot) in entries {
            let n = num_actions(k);
            let sums: Vec<f32> = (0..n).map(|i| table.load(slot + (n + i) as u32)).collect();
            s.push(k, &average_strategy(&sums, threshold));
        }
        s
    }

    /// Appends `key` (larger than every key so far) with its probabilities.
    pub fn push(&mut self, key: Key, probs: &[f32]) {
        debug_assert!(self.keys.last().is_none_or(|&last| last < key), "keys ascending");
        // The last offset (the end of `probs`) is where the new entry starts.
        self.keys.push(key);
        self.probs.extend_from_slice(probs);
        self.offsets.push(self.probs.len() as u64);
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// Range of entry `i`'s probabilities in `probs`.
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.offsets[i] as usize..self.offsets[i + 1] as usize
    }

    /// Probabilities of `key`, if present.
    pub fn get(&self, key: Key) -> Option<&[f32]> {
        let i = self.keys.binary_search(&key).ok()?;
        Some(&self.probs[self.range(i)])
    }

    /// Index of the most probable action of `key` ([`argmax`]), if present.
    pub fn best(&self, key: Key) -> Option<usize> {
        self.get(key).map(argmax)
    }

    /// A checksum of the keys and probabilities, identifying the strategy: the number of keys
    /// in the high 32 bits, the CRC-32 of the keys' and then the probabilities' little-endian
    /// bytes in the low ones.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crc32fast::Hasher::new();
        for k in &self.keys {
            h.update(&k.to_le_bytes());
        }
        for p in &self.probs {
            h.update(&p.to_bits().to_le_bytes());
        }
        ((self.keys.len() as u64) << 32) | h.finalize() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_takes_the_first_of_equal_values() {
        let probs = vec![0.25f32, 0.5, 0.5, 0.1];
        assert_eq!(argmax(&probs), 1);
        assert_eq!(argmax([3.0f64, 1.0, 3.0]), 0);
        assert_eq!(argmax::<f32>([]), 0);
        assert_eq!(argmax([-1i64, 7, 2, 7]), 1);
        assert_eq!(argmax([(1, 0.5), (2, 0.75), (0, 0.75)].iter().map(|v| v.1)), 1);
    }

    /// The rule as the Setback trainer first wrote it (f32 uniform, clamped sums).
    fn reference(sums: &[f32], threshold: f64) -> Vec<f32> {
        let n = sums.len();
        let total: f64 = sums.iter().map(|&x| x.max(0.0) as f64).sum();
        if total <= 0.0 {
            return vec![1.0 / n as f32; n];
        }
        let mut p: Vec<f64> = sums.iter().map(|&x| x.max(0.0) as f64 / total).collect();
        for x in p.iter_mut() {
            if *x < threshold {
                *x = 0.0;
            }
        }
        let t: f64 = p.iter().sum();
        p.iter().map(|&x| (x / t) as f32).collect()
    }

    #[test]
    fn average_strategy_is_normalised_thresholded_and_bit_identical_to_the_first_rule() {
        assert_eq!(average_strategy(&[0.0, 0.0, 0.0, 0.0], 0.001), vec![0.25; 4]);
        assert_eq!(average_strategy(&[3.0, 1.0], 0.001), vec![0.75, 0.25]);
        let p = average_strategy(&[10_000.0, 5.0, 5_000.0], 0.001);
        assert_eq!(p[1], 0.0, "below 0.001 is zeroed");
        let mut x: u64 = 7;
        for n in 1..=8usize {
            for _ in 0..2000 {
                let sums: Vec<f32> = (0..n)
                    .map(|_| {
                        x = crate::streams::splitmix(x);
                        match x % 5 {
                            0 => 0.0,
                            1 => -((x >> 40) as f32),
                            _ => (x >> 20) as f32 / (1u64 << (x % 40)) as f32,
                        }
                    })
                    .collect();
                let (got, want) = (average_strategy(&sums, 0.001), reference(&sums, 0.001));
                let bits = |v: &[f32]| v.iter().map(|p| p.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{sums:?}");
            }
        }
    }

    #[test]
    fn keyed_policy_finds_keys_and_fingerprints_its_contents() {
        let mut s = KeyedPolicy::new();
        s.push(3, &[0.5, 0.5]);
        s.push(9, &[0.1, 0.2, 0.7]);
        assert_eq!((s.len(), s.offsets.clone()), (2, vec![0, 2, 5]));
        assert_eq!(s.get(9), Some(&[0.1f32, 0.2, 0.7][..]));
        assert_eq!((s.best(3), s.best(9), s.get(4)), (Some(0), Some(2), None));
        let mut t = s.clone();
        t.probs[4] = 0.6;
        assert_ne!(s.fingerprint(), t.fingerprint());
        assert_eq!(s.fingerprint() >> 32, 2);
    }
}

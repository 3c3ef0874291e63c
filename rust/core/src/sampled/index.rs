//! The key → slot index of the infoset [`super::table::Table`]: sharded open addressing whose
//! buckets hold the key beside its slot, so finding a cold key misses the cache once (twice for a long probe). A
//! general-purpose map keeps its control bytes apart from its entries: a cold key misses twice,
//! the second address known only when the first arrives.

use crate::streams::mix;
use std::sync::{Mutex, MutexGuard};

/// A compact infoset key: any integer but `u64::MAX` (which marks an empty index bucket). A game
/// packs what its infoset keys hold into one; the number of actions must follow from the key.
pub type Key = u64;

const SHARD_BITS: u32 = 10;
const SHARDS: usize = 1 << SHARD_BITS;
/// Buckets of a shard when its first key arrives.
const FIRST_BUCKETS: usize = 64;
/// Marks an empty bucket; it is no key (see [`Key`]).
pub const NO_KEY: Key = u64::MAX;

/// A key and its slot, four to a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Bucket {
    key: Key,
    slot: u32,
}

const EMPTY: Bucket = Bucket { key: NO_KEY, slot: 0 };

/// One shard's buckets (a power of two of them, or none), probed linearly from the bucket the
/// key's hash names, and kept at most 4/5 full.
#[derive(Default)]
struct Buckets {
    b: Box<[Bucket]>,
    len: usize,
}

impl Buckets {
    /// The bucket holding `key`, or the empty one where it would go.
    #[inline]
    fn position(&self, key: Key, hash: u64) -> usize {
        let mask = self.b.len() - 1;
        let mut i = hash as usize & mask;
        while self.b[i].key != key && self.b[i].key != NO_KEY {
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, key: Key, hash: u64) -> Option<u32> {
        if self.b.is_empty() {
            return None;
        }
        let b = self.b[self.position(key, hash)];
        (b.key == key).then_some(b.slot)
    }

    /// Adds `key` (absent) with `slot`, doubling first when it would be over 4/5 full.
    fn insert(&mut self, key: Key, hash: u64, slot: u32) {
        if (self.len + 1) * 5 > self.b.len() * 4 {
            let old = std::mem::take(&mut self.b);
            self.b = vec![EMPTY; (old.len() * 2).max(FIRST_BUCKETS)].into_boxed_slice();
            for e in old.iter().filter(|e| e.key != NO_KEY) {
                let i = self.position(e.key, mix(e.key));
                self.b[i] = *e;
            }
        }
        let i = self.position(key, hash);
        self.b[i] = Bucket { key, slot };
        self.len += 1;
    }
}

/// The sharded index: a thread locks one shard to find or add a key.
pub struct Index {
    shards: Box<[Mutex<Buckets>]>,
}

impl Default for Index {
    fn default() -> Self {
        Index { shards: (0..SHARDS).map(|_| Mutex::default()).collect() }
    }
}

impl Index {
    /// The locked shard of a key's hash.
    #[inline]
    fn shard(&self, hash: u64) -> MutexGuard<'_, Buckets> {
        lock(&self.shards[(hash >> (64 - SHARD_BITS)) as usize])
    }

    /// The slot of `key`, if present.
    pub fn get(&self, key: Key) -> Option<u32> {
        let hash = mix(key);
        self.shard(hash).get(key, hash)
    }

    /// The slot of `key`; when absent, `new_slot()` is called (under the shard's lock, so once
    /// per key) and its slot added. Returns the slot and whether it was added.
    pub fn get_or_insert(&self, key: Key, new_slot: impl FnOnce() -> u32) -> (u32, bool) {
        debug_assert_ne!(key, NO_KEY, "the empty marker is not a key");
        let hash = mix(key);
        let mut b = self.shard(hash);
        if let Some(slot) = b.get(key, hash) {
            return (slot, false);
        }
        let slot = new_slot();
        b.insert(key, hash, slot);
        (slot, true)
    }

    /// Calls `f` with every key and slot (in no particular order).
    pub fn for_each(&self, mut f: impl FnMut(Key, u32)) {
        for s in self.shards.iter() {
            for e in lock(s).b.iter().filter(|e| e.key != NO_KEY) {
                f(e.key, e.slot);
            }
        }
    }

    /// Bytes held by the buckets.
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| lock(s).b.len() * std::mem::size_of::<Bucket>()).sum()
    }
}

/// Locks a shard. A panic under the lock (the arena full) comes before the insert, so a
/// poisoned shard is still consistent.
fn lock(shard: &Mutex<Buckets>) -> MutexGuard<'_, Buckets> {
    shard.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn finds_every_key_added_across_growth_and_no_other() {
        let index = Index::default();
        let keys: Vec<Key> = (0..200_000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 3).collect();
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(index.get_or_insert(k, || i as u32), (i as u32, true));
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(index.get(k), Some(i as u32));
            assert_eq!(index.get_or_insert(k, || unreachable!("present")), (i as u32, false));
        }
        assert_eq!(index.get(u64::MAX - 1), None);
        let mut seen = 0;
        index.for_each(|k, s| {
            assert_eq!(keys[s as usize], k);
            seen += 1;
        });
        assert_eq!(seen, keys.len());
        let buckets = index.bytes() / std::mem::size_of::<Bucket>();
        assert!(buckets * 4 >= keys.len() * 5, "{buckets} buckets for {} keys: over 4/5 full", keys.len());
    }

    #[test]
    fn threads_adding_the_same_keys_agree_on_one_slot_each() {
        let index = Index::default();
        let next = AtomicUsize::new(0);
        let slots: Vec<Vec<u32>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..20_000u64)
                            .map(|k| index.get_or_insert(k, || next.fetch_add(1, Ordering::Relaxed) as u32).0)
                            .collect()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(slots.iter().all(|v| *v == slots[0]));
        assert_eq!(next.load(Ordering::Relaxed), 20_000, "one slot made per key");
    }
}

//! A concurrent infoset table for sampled CFR over games too big to compile: compact integer
//! keys ([`Key`]) map to slots in a shared arena of f32 accumulators, updated in place by every
//! thread (updates are applied immediately, which imperfect-recall abstractions need; no
//! update is lost).
//!
//! * The index (`Index`) from a 64-bit key to the slot's start (a `u32`) is sharded behind locks; a
//!   thread takes a shard's lock only to find or create a key: each walker keeps a
//!   [`SlotCache`] of `key → slot` in front of it, so locks are rare in the hot loop.
//! * The arena is a directory of fixed-size chunks of `AtomicU32` (f32 bits) that never move, so
//!   slots stay valid while other threads grow the table. An infoset with `n` actions owns `2n`
//!   consecutive floats: `n` cumulative regrets, then `n` cumulative strategy weights.
//! * Accumulation is a compare-and-swap add on the f32 bits.
//!
//! Memory per infoset: one 16-byte index bucket (the index between 2/5 and 4/5 full) plus `8n`
//! bytes of accumulators. f32 accumulators are the documented precision trade-off for memory.

use super::index::Key;
use super::index::{Index, NO_KEY};
use crate::streams::mix;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

const CHUNK_BITS: u32 = 20;
const CHUNK: usize = 1 << CHUNK_BITS;
const MAX_CHUNKS: usize = 1 << 12;

/// The concurrent table.
pub struct Table {
    index: Index,
    chunks: Box<[OnceLock<Box<[AtomicU32]>>]>,
    next: AtomicU64,
    count: AtomicU64,
}

impl Default for Table {
    fn default() -> Self {
        Self::new()
    }
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table {
            index: Index::default(),
            chunks: (0..MAX_CHUNKS).map(|_| OnceLock::new()).collect(),
            next: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    /// Reserves `len` consecutive floats (zeroed) that do not cross a chunk boundary.
    fn alloc(&self, len: usize) -> u32 {
        let mut cur = self.next.load(Ordering::Relaxed);
        loop {
            let mut start = cur;
            if (start as usize & (CHUNK - 1)) + len > CHUNK {
                start = (start + CHUNK as u64) & !(CHUNK as u64 - 1);
            }
            let end = start + len as u64;
            assert!((end as usize) < CHUNK * MAX_CHUNKS, "infoset table full (over 4 billion accumulators)");
            match self.next.compare_exchange_weak(cur, end, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    self.chunks[start as usize >> CHUNK_BITS]
                        .get_or_init(|| (0..CHUNK).map(|_| AtomicU32::new(0)).collect());
                    return start as u32;
                }
                Err(now) => cur = now,
            }
        }
    }

    /// The slot of `key`, created (zeroed) with `n` actions when absent.
    pub fn slot(&self, key: Key, n: usize) -> u32 {
        let (slot, added) = self.index.get_or_insert(key, || self.alloc(2 * n));
        if added {
            self.count.fetch_add(1, Ordering::Relaxed);
        }
        slot
    }

    /// The slot of `key`, if present.
    pub fn find(&self, key: Key) -> Option<u32> {
        self.index.get(key)
    }

    #[inline]
    fn cell(&self, i: u32) -> &AtomicU32 {
        let i = i as usize;
        // Every slot handed out lies in an initialised chunk (see `alloc`).
        &self.chunks[i >> CHUNK_BITS].get().expect("slot in an allocated chunk")[i & (CHUNK - 1)]
    }

    /// Reads the float at arena index `i`.
    #[inline]
    pub fn load(&self, i: u32) -> f32 {
        f32::from_bits(self.cell(i).load(Ordering::Relaxed))
    }

    /// Sets the float at arena index `i`.
    #[inline]
    pub fn store(&self, i: u32, x: f32) {
        self.cell(i).store(x.to_bits(), Ordering::Relaxed)
    }

    /// The record of an infoset with `n` actions at `slot`: its `2n` floats, found in the chunk
    /// directory once for all of the walk's reads and updates of the infoset.
    #[inline]
    pub fn record(&self, slot: u32, n: usize) -> Record<'_> {
        let i = slot as usize;
        // A record never crosses a chunk boundary (see `alloc`).
        let chunk = self.chunks[i >> CHUNK_BITS].get().expect("slot in an allocated chunk");
        Record(&chunk[i & (CHUNK - 1)..][..2 * n])
    }

    /// Number of infosets.
    pub fn len(&self) -> usize {
        self.count.load(Ordering::Relaxed) as usize
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All `(key, slot)` pairs, sorted by key.
    pub fn entries(&self) -> Vec<(Key, u32)> {
        let mut v = Vec::with_capacity(self.len());
        self.index.for_each(|k, s| v.push((k, s)));
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    /// Floats of the arena handed out so far: every slot lies below it.
    pub fn arena_len(&self) -> usize {
        self.next.load(Ordering::Relaxed) as usize
    }

    /// Bytes held: the index's buckets and the arena's accumulators in use.
    pub fn bytes(&self) -> usize {
        self.index.bytes() + self.next.load(Ordering::Relaxed) as usize * 4
    }
}

/// One thread's direct-mapped cache of `key → slot` in front of the shared index. Slots never
/// move, so an entry stays valid for the table's life: the cache is never cleared and keeps the
/// keys that come back deal after deal (the auction's, the first tricks'); a key landing on a
/// taken entry replaces it.
pub struct SlotCache(Box<[(Key, u32)]>);

const CACHE_BITS: u32 = 16;

impl Default for SlotCache {
    fn default() -> Self {
        SlotCache(vec![(NO_KEY, 0); 1 << CACHE_BITS].into_boxed_slice())
    }
}

impl SlotCache {
    /// The entry `key` maps to.
    #[inline(always)]
    fn entry(key: Key) -> usize {
        (mix(key) >> (64 - CACHE_BITS)) as usize
    }

    /// The slot of `key` in `table`, created (zeroed) with `n` actions when absent.
    #[inline(always)]
    pub fn slot(&mut self, table: &Table, key: Key, n: usize) -> u32 {
        debug_assert_ne!(key, NO_KEY, "the cache's empty marker is not a key");
        let e = &mut self.0[Self::entry(key)];
        if e.0 != key {
            *e = (key, table.slot(key, n));
        }
        e.1
    }

    /// Starts fetching the entry of `key` (a hint: see [`crate::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        crate::prefetch::prefetch(&self.0[Self::entry(key)]);
    }
}

/// The accumulators of one infoset: `n` cumulative regrets, then `n` cumulative strategy weights.
#[derive(Clone, Copy)]
pub struct Record<'a>(&'a [AtomicU32]);

impl Record<'_> {
    /// Reads float `i`.
    #[inline]
    pub fn load(&self, i: usize) -> f32 {
        f32::from_bits(self.0[i].load(Ordering::Relaxed))
    }

    /// Sets float `i`.
    #[inline]
    pub fn store(&self, i: usize, x: f32) {
        self.0[i].store(x.to_bits(), Ordering::Relaxed)
    }

    /// Starts fetching the record's floats (a hint: see [`crate::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self) {
        crate::prefetch::prefetch(self.0.as_ptr());
        crate::prefetch::prefetch(self.0.as_ptr().wrapping_add(self.0.len() - 1));
    }

    /// Adds `x` to float `i` (compare-and-swap; never loses an update).
    #[inline]
    pub fn add(&self, i: usize, x: f32) {
        let c = &self.0[i];
        let mut cur = c.load(Ordering::Relaxed);
        loop {
            let new = (f32::from_bits(cur) + x).to_bits();
            match c.compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }

    /// Adds `x` to float `i` without a compare-and-swap; correct only while no other thread
    /// writes to the table (single-threaded training).
    #[inline]
    pub fn add_unshared(&self, i: usize, x: f32) {
        self.store(i, self.load(i) + x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_zeroed_stay_put_and_list_sorted() {
        let table = Table::new();
        let a = table.slot(42, 3);
        let b = table.slot(7, 2);
        assert_eq!((table.len(), table.slot(42, 3), table.find(7), table.find(8)), (2, a, Some(b), None));
        let rec = table.record(a, 3);
        assert!((0..6).all(|i| rec.load(i) == 0.0), "a new record is zeroed");
        rec.add(1, 1.5);
        rec.add_unshared(4, -2.0);
        rec.store(5, 0.25);
        assert_eq!((table.load(a + 1), table.load(a + 4), table.load(a + 5)), (1.5, -2.0, 0.25));
        // Growing the table moves no record.
        for k in 100..50_000u64 {
            table.slot(k, 6);
        }
        assert_eq!(table.record(a, 3).load(1), 1.5);
        let keys: Vec<Key> = table.entries().iter().map(|e| e.0).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]) && keys.len() == table.len());
        assert!(table.bytes() >= table.len() * 16);
    }

    #[test]
    fn records_never_cross_a_chunk_boundary() {
        let table = Table::new();
        for k in 0..(CHUNK as u64 / 12 + 10) {
            let s = table.slot(k, 6) as usize;
            assert_eq!(s >> CHUNK_BITS, (s + 11) >> CHUNK_BITS, "record of key {k} at {s}");
        }
    }

    #[test]
    fn concurrent_adds_lose_no_update_and_caches_agree() {
        let table = Table::new();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let table = &table;
                s.spawn(move || {
                    let mut cache = SlotCache::default();
                    for i in 0..20_000u64 {
                        let key = (i * 7 + t) % 1000;
                        let rec = table.record(cache.slot(table, key, 2), 2);
                        rec.add(0, 1.0);
                        rec.add(3, 0.5);
                    }
                });
            }
        });
        let total: f64 = table.entries().iter().map(|&(_, s)| table.load(s) as f64).sum();
        let half: f64 = table.entries().iter().map(|&(_, s)| table.load(s + 3) as f64).sum();
        assert_eq!((table.len(), total, half), (1000, 80_000.0, 40_000.0));
    }
}

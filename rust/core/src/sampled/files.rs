//! Checkpoint and strategy files over integer keys, in the versioned, checksummed, atomically
//! written container of [`crate::store`]. A game names the file kinds, writes and reads its own
//! header (what was trained, how, how far), and says how many actions each key has (a key's
//! record length follows from the key, so files hold no action counts):
//!
//! * checkpoint: the header, then the number of infosets and every infoset sorted by key:
//!   `u64 key`, its `n` cumulative regrets and `n` cumulative strategy weights as f32 bits.
//!   Loaded into a fresh [`Table`], a run continues exactly.
//! * strategy: the header, then the number of keys and every key in ascending order:
//!   `u64 key` and its `n` probabilities as f32 bits (a [`KeyedPolicy`]).

use super::index::Key;
use super::policy::KeyedPolicy;
use super::table::Table;
use crate::error::{Error, Result};
use crate::store::{read_container, write_container, Reader, Writer};
use std::path::Path;

/// A file error about `path`.
pub fn bad_file(path: &Path, reason: impl Into<String>) -> Error {
    Error::BadFile { path: path.display().to_string(), reason: reason.into() }
}

/// Gives a file error raised while decoding (which knows no path) the path of the file.
fn located(path: &Path, e: Error) -> Error {
    match e {
        Error::BadFile { reason, .. } => bad_file(path, reason),
        other => other,
    }
}

/// Writes a checkpoint of `table` to `path` atomically: `header` writes the game's header, and
/// key `k` has `num_actions(k)` actions.
pub fn save_checkpoint(
    path: &Path,
    kind: &[u8; 8],
    header: impl FnOnce(&mut Writer),
    table: &Table,
    num_actions: impl Fn(Key) -> usize,
) -> Result<()> {
    let entries = table.entries();
    let mut w = Writer::default();
    header(&mut w);
    w.u64(entries.len() as u64);
    w.buf.reserve(entries.len() * 32);
    for (k, slot) in entries {
        w.u64(k);
        for i in 0..2 * num_actions(k) {
            w.u32(table.load(slot + i as u32).to_bits());
        }
    }
    write_container(path, kind, &w.buf)
}

/// Reads a checkpoint written by [`save_checkpoint`]: `header` reads the game's header, and
/// `num_actions(header, k)` gives the actions of key `k` or refuses a key the header's game
/// does not have. Errors name `path`.
pub fn load_checkpoint<H>(
    path: &Path,
    kind: &[u8; 8],
    header: impl FnOnce(&mut Reader) -> Result<H>,
    num_actions: impl Fn(&H, Key) -> Result<usize>,
) -> Result<(H, Table)> {
    let payload = read_container(path, kind)?;
    let mut r = Reader::new(&payload);
    let body = (|| -> Result<(H, Table)> {
        let h = header(&mut r)?;
        let count = r.u64()?;
        let table = Table::new();
        for _ in 0..count {
            let k = r.u64()?;
            let n = num_actions(&h, k)?;
            let slot = table.slot(k, n);
            for i in 0..2 * n {
                table.store(slot + i as u32, f32::from_bits(r.u32()?));
            }
        }
        if !r.done() || table.len() as u64 != count {
            return Err(bad_file(path, "infoset records do not match the count"));
        }
        Ok((h, table))
    })();
    body.map_err(|e| located(path, e))
}

/// Writes `policy` to `path` atomically after the header that `header` writes.
pub fn save_strategy(
    path: &Path,
    kind: &[u8; 8],
    header: impl FnOnce(&mut Writer),
    policy: &KeyedPolicy,
) -> Result<()> {
    let mut w = Writer::default();
    header(&mut w);
    w.u64(policy.len() as u64);
    w.buf.reserve(policy.len() * 8 + policy.probs.len() * 4);
    for (i, &k) in policy.keys.iter().enumerate() {
        w.u64(k);
        for &p in &policy.probs[policy.range(i)] {
            w.u32(p.to_bits());
        }
    }
    write_container(path, kind, &w.buf)
}

/// Reads a strategy written by [`save_strategy`] (`header` and `num_actions` as in
/// [`load_checkpoint`]); keys must be ascending. Errors name `path`.
pub fn load_strategy<H>(
    path: &Path,
    kind: &[u8; 8],
    header: impl FnOnce(&mut Reader) -> Result<H>,
    num_actions: impl Fn(&H, Key) -> Result<usize>,
) -> Result<(H, KeyedPolicy)> {
    let payload = read_container(path, kind)?;
    let mut r = Reader::new(&payload);
    let body = (|| -> Result<(H, KeyedPolicy)> {
        let h = header(&mut r)?;
        let count = r.u64()? as usize;
        // A corrupt count must not reserve more than the file could hold.
        let cap = count.min(payload.len() / 8);
        let mut s = KeyedPolicy::new();
        s.keys.reserve(cap);
        s.offsets.reserve(cap);
        for _ in 0..count {
            let k = r.u64()?;
            let n = num_actions(&h, k)?;
            if s.keys.last().is_some_and(|&last| last >= k) {
                return Err(bad_file(path, "keys are not in ascending order"));
            }
            s.keys.push(k);
            for _ in 0..n {
                s.probs.push(f32::from_bits(r.u32()?));
            }
            s.offsets.push(s.probs.len() as u64);
        }
        if !r.done() {
            return Err(bad_file(path, "bytes left after the last infoset"));
        }
        Ok((h, s))
    })();
    body.map_err(|e| located(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CK: &[u8; 8] = b"TESTCK\0\0";
    const ST: &[u8; 8] = b"TESTST\0\0";

    fn actions(_: &String, k: Key) -> Result<usize> {
        match k % 4 {
            0 => Err(Error::BadFile { path: String::new(), reason: format!("no key {k}") }),
            n => Ok(n as usize + 1),
        }
    }

    #[test]
    fn checkpoints_and_strategies_round_trip_and_refuse_what_is_not_theirs() {
        let dir = std::env::temp_dir().join(format!("cfrkit-sampled-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let table = Table::new();
        for k in [5u64, 1, 3, 2, 7] {
            let n = actions(&String::new(), k).unwrap();
            let rec = table.record(table.slot(k, n), n);
            for i in 0..2 * n {
                rec.add(i, (k * 10 + i as u64) as f32 / 7.0);
            }
        }
        let ck = dir.join("ck.cfrkit");
        save_checkpoint(&ck, CK, |w| w.str("game-v1"), &table, |k| actions(&String::new(), k).unwrap()).unwrap();
        let (h, back) = load_checkpoint(&ck, CK, |r| r.str(), actions).unwrap();
        assert_eq!(h, "game-v1");
        let bits = |t: &Table| -> Vec<(Key, Vec<u32>)> {
            t.entries()
                .into_iter()
                .map(|(k, s)| {
                    let n = actions(&String::new(), k).unwrap() as u32;
                    (k, (0..2 * n).map(|i| t.load(s + i).to_bits()).collect())
                })
                .collect()
        };
        assert_eq!(bits(&back), bits(&table));

        let policy = KeyedPolicy::average_of(&table, |k| actions(&String::new(), k).unwrap(), 0.001);
        assert_eq!(policy.keys, vec![1, 2, 3, 5, 7]);
        let st = dir.join("st.cfrkit");
        save_strategy(&st, ST, |w| w.str("game-v1"), &policy).unwrap();
        let (_, p) = load_strategy(&st, ST, |r| r.str(), actions).unwrap();
        assert_eq!(p, policy);

        let e = load_checkpoint(&st, CK, |r| r.str(), actions).err().expect("refused").to_string();
        assert!(e.contains("a \"TESTST\" file, not a \"TESTCK\" file"), "{e}");
        // A key the game does not have is refused, naming the file.
        let foreign = Table::new();
        foreign.slot(4, 2);
        save_checkpoint(&ck, CK, |w| w.str("game-v1"), &foreign, |_| 2).unwrap();
        let e = load_checkpoint(&ck, CK, |r| r.str(), actions).err().expect("refused").to_string();
        assert!(e.contains("no key 4") && e.contains("ck.cfrkit"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

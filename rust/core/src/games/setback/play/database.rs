//! The strategy database (spec §4.1): SQLite with the original's schema, one table
//! `Strategy(Key TEXT NOT NULL, ActionIndex INTEGER NOT NULL)` and, built after the load, the
//! unique index `Strategy_Key_Idx`. Keys are the original's strings; `ActionIndex` is the argmax
//! of the average strategy (first on ties). Rows: the baseline's establish-trump and playout
//! keys (first character `.`, `E` or `H`) and every bootstrap auction key; the baseline's own
//! auction keys are left out, bids coming from the bootstrap stage.
//!
//! The export runs in one transaction with journaling and syncing off (as the original does),
//! into a temporary file renamed over the target at the end. [`Database`] answers lookups with
//! one query per call on a small pool of read-only connections, so a match can consult it from
//! every thread; it is the score-aware source of the database player.

use super::super::keys::{self, Key};
use super::super::store::{Stage, Strategy};
use super::strategy_agent::{one_hot, Lookup};
use crate::error::{Error, Result};
use crate::policy::argmax;
use crate::store::replace_atomic;
use rand_pcg::Pcg64;
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const SELECT: &str = "SELECT ActionIndex FROM Strategy WHERE Key = ?1";

fn sql_error(path: &Path, e: rusqlite::Error) -> Error {
    Error::BadFile { path: path.display().to_string(), reason: format!("SQLite: {e}") }
}

/// Rows written by [`export`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportStats {
    /// Establish-trump and playout rows from the baseline.
    pub baseline_rows: u64,
    /// Auction rows from the bootstrap.
    pub bootstrap_rows: u64,
}

/// Whether a baseline key belongs in the database (establish-trump and playout keys).
fn exported_from_baseline(k: Key) -> bool {
    keys::key_string(k).starts_with(['.', 'E', 'H'])
}

/// Writes the database of `baseline` and `bootstrap` to `out` (replacing it atomically).
pub fn export(baseline: &Strategy, bootstrap: &Strategy, out: &Path) -> Result<ExportStats> {
    for (s, stage) in [(baseline, Stage::Baseline), (bootstrap, Stage::Bootstrap)] {
        if s.stage != stage {
            return Err(Error::invalid(
                format!("{} strategy", stage.name()),
                format!("a {} strategy", s.stage.name()),
                format!("a {} strategy", stage.name()),
            ));
        }
    }
    let mut stats = ExportStats::default();
    replace_atomic(out, |tmp| {
        let fail = |e| sql_error(tmp, e);
        let mut db = Connection::open(tmp).map_err(fail)?;
        db.execute_batch(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
             CREATE TABLE Strategy (Key TEXT NOT NULL, ActionIndex INTEGER NOT NULL);",
        )
        .map_err(fail)?;
        let tx = db.transaction().map_err(fail)?;
        {
            let mut insert = tx.prepare("INSERT INTO Strategy (Key, ActionIndex) VALUES (?1, ?2)").map_err(fail)?;
            for (s, rows) in [(baseline, &mut stats.baseline_rows), (bootstrap, &mut stats.bootstrap_rows)] {
                for (i, &k) in s.keys.iter().enumerate() {
                    if s.stage == Stage::Baseline && !exported_from_baseline(k) {
                        continue;
                    }
                    let probs = &s.probs[s.offsets[i] as usize..s.offsets[i + 1] as usize];
                    insert.execute((keys::key_string(k), argmax(probs) as i64)).map_err(fail)?;
                    *rows += 1;
                }
            }
        }
        tx.execute_batch("CREATE UNIQUE INDEX Strategy_Key_Idx ON Strategy(Key);").map_err(fail)?;
        tx.commit().map_err(fail)?;
        db.close().map_err(|(_, e)| fail(e))
    })?;
    Ok(stats)
}

/// A strategy database opened for lookups.
pub struct Database {
    path: PathBuf,
    /// Idle read-only connections (a connection serves one thread at a time).
    idle: Mutex<Vec<Connection>>,
}

impl Database {
    /// Opens `path` read-only and checks that it holds the strategy table.
    pub fn open(path: &Path) -> Result<Database> {
        if !path.is_file() {
            return Err(Error::invalid(
                "strategy database",
                path.display(),
                "an existing SQLite file (export-db writes one)",
            ));
        }
        let db = Database { path: path.to_path_buf(), idle: Mutex::new(Vec::new()) };
        let conn = db.connect()?;
        conn.prepare(SELECT).map_err(|e| sql_error(path, e))?;
        db.idle.lock().unwrap_or_else(|e| e.into_inner()).push(conn);
        Ok(db)
    }

    fn connect(&self) -> Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        Connection::open_with_flags(&self.path, flags).map_err(|e| sql_error(&self.path, e))
    }

    /// The stored action index of the key string `key`, if present.
    pub fn action_index(&self, key: &str) -> Result<Option<usize>> {
        let popped = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match popped {
            Some(c) => c,
            None => self.connect()?,
        };
        let found = conn
            .prepare_cached(SELECT)
            .and_then(|mut q| q.query_row([key], |row| row.get::<_, i64>(0)).optional())
            .map_err(|e| sql_error(&self.path, e));
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(conn);
        match found? {
            None => Ok(None),
            Some(i) if (0..6).contains(&i) => Ok(Some(i as usize)),
            Some(i) => Err(Error::BadFile {
                path: self.path.display().to_string(),
                reason: format!("action index {i} of key {key:?} is not 0..=5"),
            }),
        }
    }

    /// Number of rows.
    pub fn len(&self) -> Result<u64> {
        let conn = self.connect()?;
        conn.query_row("SELECT COUNT(*) FROM Strategy", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| sql_error(&self.path, e))
    }

    /// Whether the database has no rows.
    pub fn is_empty(&self) -> Result<bool> {
        self.len().map(|n| n == 0)
    }
}

impl Database {
    /// The index of the action the database keeps for `key` among its `n` actions (the most
    /// probable one), or None when the key is missing.
    fn action_of(&self, key: Key, n: usize) -> Result<Option<usize>> {
        let s = keys::key_string(key);
        match self.action_index(&s)? {
            Some(i) if i >= n => Err(Error::BadFile {
                path: self.path.display().to_string(),
                reason: format!("action index {i} of key {s:?}, which has {n} actions"),
            }),
            found => Ok(found),
        }
    }
}

impl Lookup for Database {
    fn choose(&self, key: Key, n: usize, _rng: &mut Pcg64) -> Result<Option<usize>> {
        self.action_of(key, n)
    }
    fn probabilities(&self, key: Key, n: usize) -> Result<Option<Vec<f64>>> {
        Ok(self.action_of(key, n)?.map(|i| one_hot(n, i)))
    }
    fn score_aware(&self) -> bool {
        true
    }
}

//! Record files: plain text or bzip2 (told by its magic bytes, concatenated streams as
//! parallel compressors write them), read as a stream of lines by one thread and parsed,
//! replayed and checked in batches on a rayon pool, the results handed on in line order.
//!
//! A line that is not a record that replays is a [`Rejected`] with its line number, its id
//! (`?` where none can be read) and the reason, and the rest of the file is still read; only a
//! file that cannot be opened or read at all (missing, a directory, a `.bz2` that is not
//! bzip2, bzip2 data that breaks off) is an error.

use super::record::{id_of_line, parse};
use super::replay::{replay, Replayed};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::mpsc::sync_channel;

/// The longest line read as a record; a longer one (binary data, say) is rejected unread.
pub const MAX_LINE: usize = 1 << 16;
/// Lines handed to the pool at once.
const BATCH: usize = 4096;

/// A line that is not a record that replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// Its line number (from 1).
    pub line: u64,
    /// The record's id, `?` where it has none.
    pub id: String,
    /// Why it does not replay.
    pub reason: String,
}

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} (id {}): {}", self.line, self.id, self.reason)
    }
}

/// One line's outcome: the game replayed, or why not.
pub type LineResult = std::result::Result<Replayed, Rejected>;

/// Reads, replays and checks one record line (numbered `line`).
pub fn read_line(line: u64, text: &str) -> LineResult {
    let reject = |reason: String| Rejected { line, id: id_of_line(text), reason };
    let record = parse(text).map_err(reject)?;
    let mut r = replay(record).map_err(reject)?;
    r.record_line = line;
    Ok(r)
}

/// Opens `path` as a stream of text: bzip2 when it starts with bzip2's magic, plain otherwise;
/// a file named `.bz2` must be bzip2. Also says whether it is bzip2.
pub fn open(path: &Path) -> Result<(Box<dyn BufRead + Send>, bool)> {
    if path.is_dir() {
        return Err(Error::invalid("record file", path.display(), "a file of ISS records, not a directory"));
    }
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut magic = [0u8; 3];
    let n = file.read(&mut magic).map_err(|e| Error::io(path, e))?;
    let bz2 = n == 3 && &magic == b"BZh";
    let named_bz2 = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bz2"));
    if named_bz2 && !bz2 {
        return Err(Error::BadFile {
            path: path.display().to_string(),
            reason: "named .bz2 but not bzip2 data".into(),
        });
    }
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let input: Box<dyn BufRead + Send> = if bz2 {
        Box::new(BufReader::with_capacity(1 << 20, bzip2::read::MultiBzDecoder::new(BufReader::new(file))))
    } else {
        Box::new(BufReader::with_capacity(1 << 20, file))
    };
    Ok((input, bz2))
}

/// Reads the next line of `input` into `line` (without its line break), at most [`MAX_LINE`]
/// bytes of it (the rest skipped); false at the end of the input.
fn next_line(input: &mut dyn BufRead, line: &mut Vec<u8>) -> std::io::Result<(bool, bool)> {
    line.clear();
    let mut any = false;
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((any, too_long));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if chunk.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok((true, too_long));
        }
    }
}

/// What a read of a file counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Lines read (blank ones included).
    pub lines: u64,
    /// Records replayed and checked.
    pub games: u64,
    /// Lines rejected.
    pub rejected: u64,
}

/// Reads the records of `path` on `threads` threads (0 = the default; of a bzip2 file, one of
/// them decodes) and hands each batch of line outcomes, in line order, to `each` (which may
/// stop the read with an error, e.g. on Ctrl-C). Blank lines are skipped.
pub fn read_file(path: &Path, threads: usize, each: &mut dyn FnMut(Vec<LineResult>) -> Result<()>) -> Result<Counts> {
    read_file_with(path, threads, &|r| r, each)
}

/// [`read_file`], each line's outcome first turned by `map` on the pool (work that can run
/// in parallel, such as building a log line), then handed on in line order.
pub fn read_file_with<T: Send>(
    path: &Path,
    threads: usize,
    map: &(dyn Fn(LineResult) -> T + Sync),
    each: &mut dyn FnMut(Vec<T>) -> Result<()>,
) -> Result<Counts> {
    let (mut input, bz2) = open(path)?;
    // Decoding bzip2 keeps the reading thread busy (about 20 MB/s): it takes one of the threads.
    let n = crate::threads::resolve(threads)?;
    let pool = crate::threads::pool(if bz2 && n > 1 { n - 1 } else { n })?;
    let (send, receive) = sync_channel::<std::io::Result<Vec<(u64, Vec<u8>, bool)>>>(4);
    let reader = std::thread::spawn(move || {
        let mut number = 0u64;
        loop {
            let mut batch = Vec::with_capacity(BATCH);
            let mut failed = None;
            while batch.len() < BATCH {
                let mut line = Vec::new();
                match next_line(&mut input, &mut line) {
                    Ok((false, _)) => break,
                    Ok((true, too_long)) => {
                        number += 1;
                        batch.push((number, line, too_long));
                    }
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            let last = batch.len() < BATCH;
            if !batch.is_empty() && send.send(Ok(batch)).is_err() {
                return;
            }
            if let Some(e) = failed {
                let _ = send.send(Err(e));
                return;
            }
            if last {
                return;
            }
        }
    });
    let mut counts = Counts::default();
    let mut outcome = Ok(());
    for batch in receive.iter() {
        let batch = match batch {
            Ok(b) => b,
            Err(e) => {
                outcome = Err(Error::BadFile {
                    path: path.display().to_string(),
                    reason: format!("unreadable after line {} ({e})", counts.lines),
                });
                break;
            }
        };
        counts.lines += batch.len() as u64;
        let results: Vec<(bool, T)> = pool.install(|| {
            batch
                .par_iter()
                .filter(|(_, bytes, _)| !bytes.iter().all(u8::is_ascii_whitespace))
                .map(|(n, bytes, too_long)| {
                    let reject = |reason: &str| Rejected { line: *n, id: "?".into(), reason: reason.into() };
                    let r = if *too_long {
                        Err(reject("a line longer than 64 KiB: not an ISS record"))
                    } else {
                        match std::str::from_utf8(bytes) {
                            Ok(text) => read_line(*n, text.trim_end_matches('\r')),
                            Err(_) => Err(reject("not text (binary data)")),
                        }
                    };
                    (r.is_ok(), map(r))
                })
                .collect()
        });
        counts.games += results.iter().filter(|r| r.0).count() as u64;
        counts.rejected += results.iter().filter(|r| !r.0).count() as u64;
        if let Err(e) = each(results.into_iter().map(|r| r.1).collect()) {
            outcome = Err(e);
            break;
        }
    }
    drop(receive);
    let _ = reader.join();
    outcome.map(|()| counts)
}

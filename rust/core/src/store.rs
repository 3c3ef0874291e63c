//! Versioned, checksummed binary files, written atomically.
//!
//! Layout of every cfrkit file:
//! `magic "CFRKIT\0\0"` · `format version u32` · `kind [u8; 8]` · `payload length u64` ·
//! `payload` · `CRC-32 of everything before it (u32)`; integers little-endian.
//! Writes go to a temporary file in the same directory, are flushed to disk, then renamed over
//! the target, so a crash never leaves a half-written file under the final name; the temporary
//! files of killed writers are removed by the next write or run ([`remove_stale_temps`]).
//! A run directory is held by one live run at a time ([`RunLock`]).

use crate::error::{Error, Result};
use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

const MAGIC: &[u8; 8] = b"CFRKIT\0\0";
/// Current container format version.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 8 + 8;

/// Writes `payload` as a file of `kind` (8 ASCII bytes, e.g. `b"POLICY\0\0"`) atomically.
pub fn write_container(path: &Path, kind: &[u8; 8], payload: &[u8]) -> Result<()> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len() + 4);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(kind);
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(payload);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    write_atomic(path, &bytes)
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_atomic(path, |tmp| {
        let mut f = fs::File::create(tmp).map_err(|e| Error::io(tmp, e))?;
        f.write_all(bytes).map_err(|e| Error::io(tmp, e))
    })
}

/// Creates `path` atomically: `write` fills a temporary file beside it ([`temp_path`]), which is
/// then synced and renamed over `path`. On failure the temporary file is removed and `path` is
/// untouched. Temporary files of `path` left by killed writers are removed first
/// ([`remove_stale_temps`]).
pub fn replace_atomic(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let tmp = temp_path(path)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Best effort: a directory that cannot be listed still gets its file written.
    let _ = remove_stale(tmp.parent().unwrap_or(Path::new(".")), Some(&name));
    let _ = fs::remove_file(&tmp);
    let result = write(&tmp).and_then(|()| {
        let finish = || -> std::io::Result<()> {
            fs::File::open(&tmp)?.sync_all()?;
            fs::rename(&tmp, path)
        };
        finish().map_err(|e| Error::io(path, e))
    });
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The temporary file an atomic write of `path` goes through: `.NAME.tmp.PID` beside it, named
/// after the writing process so that a later run can tell a killed writer's file from a live
/// one's.
pub fn temp_path(path: &Path) -> Result<PathBuf> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| Error::invalid("output path", path.display(), "a file path"))?;
    Ok(dir.join(format!(".{}{TEMP_TAG}{}", name.to_string_lossy(), std::process::id())))
}

/// What separates a target's name from the writer's process id in a temporary file's name.
const TEMP_TAG: &str = ".tmp.";

/// A temporary file left this long ago is removed whatever its process id says (which another
/// process may have been given since).
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(24 * 3600);

/// Removes the temporary files of atomic writes in `dir` whose writer is gone: its process no
/// longer runs (checked where the system tells, e.g. `/proc` on Linux), or the file is older
/// than [`STALE_TEMP_AGE`]. Files of this process and of live processes are kept. Also
/// recognises the earlier naming `.NAME.tmpPID`. Returns the files removed.
pub fn remove_stale_temps(dir: &Path) -> Result<Vec<PathBuf>> {
    remove_stale(dir, None)
}

/// [`remove_stale_temps`] for the temporary files of the target `name` only, or of every target.
fn remove_stale(dir: &Path, name: Option<&str>) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let file = entry.file_name();
        let Some((target, pid)) = file.to_str().and_then(temp_owner) else { continue };
        if name.is_some_and(|n| n != target) || pid == std::process::id() {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMP_AGE);
        if (old || process_gone(pid)) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let path = entry.path();
            if fs::remove_file(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    Ok(removed)
}

/// The target name and the writer's process id of a temporary file name `.NAME.tmp.PID` (or the
/// earlier `.NAME.tmpPID`); None for other names.
fn temp_owner(file: &str) -> Option<(&str, u32)> {
    let rest = file.strip_prefix('.')?;
    let at = rest.rfind(".tmp")?;
    let (target, tail) = (&rest[..at], &rest[at + 4..]);
    let digits = tail.strip_prefix('.').unwrap_or(tail);
    if target.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((target, digits.parse().ok()?))
}

/// Whether process `pid` is known not to run (false where the system cannot tell).
fn process_gone(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        let proc = Path::new("/proc");
        proc.join("self").exists() && !proc.join(pid.to_string()).exists()
    } else {
        false
    }
}

/// Name of the lock file of a run directory.
pub const LOCK_FILE: &str = ".lock";

/// An exclusive hold on a run directory (an OS file lock on `DIR/.lock`, which holds the
/// holder's process id): a second run given the same directory is refused while the first
/// lives. The operating system releases the lock when its process ends, however it ends, so a
/// killed run leaves nothing stuck; the file itself stays. Released on drop; a directory the
/// lock made and the run left empty is removed with its lock file (a refused run leaves
/// nothing behind).
#[derive(Debug)]
pub struct RunLock {
    file: Option<fs::File>,
    path: PathBuf,
    /// The directory, where acquiring the lock made it.
    made: Option<PathBuf>,
}

impl RunLock {
    /// Creates `dir` if needed and locks it, or says which process holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock> {
        let made = (!dir.exists()).then(|| dir.to_path_buf());
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let path = dir.join(LOCK_FILE);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = match holder.trim() {
                    "" => String::new(),
                    pid => format!(" (process {pid})"),
                };
                let msg = format!(
                    "the directory {} is in use by another run{holder}; wait for it to end or choose another directory",
                    dir.display()
                );
                return Err(Error::io(&path, std::io::Error::new(std::io::ErrorKind::WouldBlock, msg)));
            }
            Err(fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        let mut stamp = || -> std::io::Result<()> {
            file.set_len(0)?;
            file.seek(SeekFrom::Start(0))?;
            file.write_all(format!("{}\n", std::process::id()).as_bytes())?;
            file.flush()
        };
        stamp().map_err(|e| Error::io(&path, e))?;
        Ok(RunLock { file: Some(file), path, made })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the lock is still held.
    pub fn held(&self) -> bool {
        self.file.is_some()
    }

    /// Releases the lock (also done on drop); releasing twice does nothing.
    pub fn release(&mut self) {
        if let Some(f) = self.file.take() {
            let _ = f.unlock();
        }
        if let Some(dir) = self.made.take() {
            let only_the_lock = fs::read_dir(&dir)
                .map(|entries| entries.filter_map(|e| e.ok()).all(|e| e.file_name() == LOCK_FILE))
                .unwrap_or(false);
            if only_the_lock {
                let _ = fs::remove_file(&self.path);
                let _ = fs::remove_dir(&dir);
            }
        }
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        self.release();
    }
}

/// A container kind in a user's words (the kinds cfrkit writes), else the kind as stored.
fn kind_name(kind: &[u8]) -> String {
    match kind {
        b"SOLVER\0\0" => "a checkpoint of a full-width CFR solver (cfr, cfr+, lcfr, dcfr, pcfr+)".into(),
        b"MCCFR\0\0\0" => "a checkpoint of a Monte-Carlo CFR solver (es-mccfr, os-mccfr)".into(),
        b"POLICY\0\0" => "a policy".into(),
        b"SBCKPT\0\0" => "a Setback training checkpoint".into(),
        b"SBSTRAT\0" => "a Setback strategy".into(),
        other => format!("a {:?} file", String::from_utf8_lossy(other).trim_end_matches('\0')),
    }
}

/// Reads a file written by [`write_container`], checking magic, version, kind, length and
/// checksum; returns the payload.
pub fn read_container(path: &Path, kind: &[u8; 8]) -> Result<Vec<u8>> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    let bad = |reason: String| Error::BadFile { path: path.display().to_string(), reason };
    if bytes.len() < HEADER_LEN + 4 || &bytes[..8] != MAGIC {
        return Err(bad("not a cfrkit file (bad magic)".into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != FORMAT_VERSION {
        return Err(bad(format!("format version {version}; this cfrkit reads version {FORMAT_VERSION}")));
    }
    if &bytes[12..20] != kind {
        let (held, wanted) = (kind_name(&bytes[12..20]), kind_name(kind));
        let solvers = [kind_name(b"SOLVER\0\0"), kind_name(b"MCCFR\0\0\0")];
        let hint = if solvers.contains(&held) && solvers.contains(&wanted) {
            ": resume it with the algorithm that wrote it"
        } else {
            ""
        };
        return Err(bad(format!("{held}, not {wanted}{hint}")));
    }
    let len = u64::from_le_bytes(bytes[20..28].try_into().unwrap()) as usize;
    if bytes.len() != HEADER_LEN + len + 4 {
        return Err(bad(format!("truncated or padded: {} bytes, header says {}", bytes.len(), HEADER_LEN + len + 4)));
    }
    let body = &bytes[..HEADER_LEN + len];
    let stored = u32::from_le_bytes(bytes[HEADER_LEN + len..].try_into().unwrap());
    if crc32fast::hash(body) != stored {
        return Err(bad("checksum mismatch (file is corrupt)".into()));
    }
    Ok(bytes[HEADER_LEN..HEADER_LEN + len].to_vec())
}

/// Little-endian encoder for payloads.
#[derive(Default)]
pub struct Writer {
    /// The bytes written so far.
    pub buf: Vec<u8>,
}

impl Writer {
    /// Appends a u32.
    pub fn u32(&mut self, x: u32) {
        self.buf.extend_from_slice(&x.to_le_bytes());
    }
    /// Appends a u64.
    pub fn u64(&mut self, x: u64) {
        self.buf.extend_from_slice(&x.to_le_bytes());
    }
    /// Appends an f64.
    pub fn f64(&mut self, x: f64) {
        self.buf.extend_from_slice(&x.to_le_bytes());
    }
    /// Appends a length-prefixed UTF-8 string.
    pub fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.buf.extend_from_slice(s.as_bytes());
    }
}

/// Little-endian decoder for payloads; every read is bounds-checked.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.pos + n > self.bytes.len() {
            return Err(Error::BadFile { path: String::new(), reason: "payload ends early".into() });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    /// Reads a u32.
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    /// Reads a u64.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    /// Reads an f64.
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    /// Reads a length-prefixed UTF-8 string.
    pub fn str(&mut self) -> Result<String> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| Error::BadFile { path: String::new(), reason: "invalid UTF-8".into() })
    }
    /// Whether everything was read.
    pub fn done(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cfrkit-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// The id of a process that has ended.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn temp_names_carry_the_target_and_the_writer() {
        let t = temp_path(Path::new("runs/a/checkpoint.cfrkit")).unwrap();
        assert_eq!(t, Path::new(&format!("runs/a/.checkpoint.cfrkit.tmp.{}", std::process::id())));
        assert_eq!(temp_owner(".checkpoint.cfrkit.tmp.123"), Some(("checkpoint.cfrkit", 123)));
        assert_eq!(temp_owner(".checkpoint.cfrkit.tmp77"), Some(("checkpoint.cfrkit", 77)));
        for other in ["checkpoint.cfrkit", ".lock", ".x.tmp.", ".x.tmp.12a", ".tmp.5", ".db.tmp.5-journal"] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
    }

    #[test]
    fn temps_of_ended_writers_are_removed_and_live_ones_kept() {
        if !Path::new("/proc/self").exists() {
            return; // liveness is only known through /proc
        }
        let d = scratch("stale");
        let dead = dead_pid();
        let stale = d.join(format!(".checkpoint.cfrkit.tmp.{dead}"));
        let older_naming = d.join(format!(".strategy.cfrkit.tmp{dead}"));
        let live = d.join(format!(".checkpoint.cfrkit.tmp.{}", std::process::id()));
        let parent = d.join(".checkpoint.cfrkit.tmp.1"); // init runs as long as the system does
        for f in [&stale, &older_naming, &live, &parent] {
            fs::write(f, b"partial").unwrap();
        }
        fs::write(d.join("checkpoint.cfrkit"), b"kept").unwrap();
        let mut removed = remove_stale_temps(&d).unwrap();
        removed.sort();
        let mut want = vec![stale.clone(), older_naming.clone()];
        want.sort();
        assert_eq!(removed, want);
        assert!(live.exists() && parent.exists() && d.join("checkpoint.cfrkit").exists());
        // An atomic write cleans the stale temporary files of its own target.
        fs::write(&stale, b"partial").unwrap();
        fs::write(&older_naming, b"partial").unwrap();
        write_atomic(&d.join("checkpoint.cfrkit"), b"new").unwrap();
        assert!(!stale.exists() && older_naming.exists());
        assert_eq!(fs::read(d.join("checkpoint.cfrkit")).unwrap(), b"new");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_run_directory_is_held_by_one_run_at_a_time() {
        let d = scratch("lock").join("run");
        let mut first = RunLock::acquire(&d).unwrap();
        assert!(first.held() && d.is_dir());
        let pid = std::process::id().to_string();
        assert_eq!(fs::read_to_string(first.path()).unwrap().trim(), pid);
        let e = RunLock::acquire(&d).unwrap_err().to_string();
        assert!(e.contains("in use by another run") && e.contains(&pid), "{e}");
        first.release();
        first.release();
        assert!(!first.held());
        // The directory the lock made, left empty by the run, goes with it.
        assert!(!d.exists());
        // A lock file left by a process that is gone blocks nothing.
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join(LOCK_FILE), format!("{}\n", dead_pid())).unwrap();
        let again = RunLock::acquire(&d).unwrap();
        drop(again);
        assert!(RunLock::acquire(&d).is_ok());
        assert!(d.join(LOCK_FILE).exists(), "a directory the run did not make is left as it is");
        fs::remove_dir_all(d.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_run_directory_under_a_file_is_an_io_error() {
        let d = scratch("lockfile");
        fs::write(d.join("f"), b"x").unwrap();
        assert!(matches!(RunLock::acquire(&d.join("f").join("run")), Err(Error::Io { .. })));
        fs::remove_dir_all(&d).unwrap();
    }
}

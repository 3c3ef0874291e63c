//! Versioned, checksummed binary files, written atomically.
//!
//! Layout of every cfrkit file:
//! `magic "CFRKIT\0\0"` · `format version u32` · `kind [u8; 8]` · `payload length u64` ·
//! `payload` · `CRC-32 of everything before it (u32)`; integers little-endian.
//! Writes go to a temporary file in the same directory, are flushed to disk, then renamed over
//! the target, so a crash never leaves a half-written file under the final name.

use crate::error::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::Path;

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

/// Creates `path` atomically: `write` fills a temporary file beside it, which is then synced
/// and renamed over `path`. On failure the temporary file is removed and `path` is untouched.
pub fn replace_atomic(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| Error::invalid("output path", path.display(), "a file path"))?;
    let tmp = dir.join(format!(".{}.tmp{}", name.to_string_lossy(), std::process::id()));
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
        return Err(bad(format!(
            "holds {:?}, expected {:?}",
            String::from_utf8_lossy(&bytes[12..20]).trim_end_matches('\0'),
            String::from_utf8_lossy(kind).trim_end_matches('\0')
        )));
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

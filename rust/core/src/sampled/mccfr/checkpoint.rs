//! MCCFR checkpoints: the complete state of a run (game, algorithm, seed, iterations done and
//! the tables) in a versioned, checksummed file written atomically. Iteration `t`'s random
//! numbers depend only on the seed and `t`, so a run resumed from it with the same thread count
//! continues exactly as if it had never stopped.

use super::Mccfr;
use crate::error::{Error, Result};
use crate::store::{read_container, write_container, Reader, Writer};
use std::path::Path;

const KIND: &[u8; 8] = b"MCCFR\0\0\0";

fn write_entries(w: &mut Writer, v: &[f64]) {
    w.u64(v.len() as u64);
    for &x in v {
        w.f64(x);
    }
}

fn read_entries(r: &mut Reader, into: &mut [f64], what: &str) -> Result<()> {
    let n = r.u64()? as usize;
    if n != into.len() {
        return Err(Error::BadFile {
            path: String::new(),
            reason: format!("{what} has {n} entries, this game needs {}", into.len()),
        });
    }
    for x in into.iter_mut() {
        *x = r.f64()?;
    }
    Ok(())
}

impl Mccfr {
    /// Writes the solver's state to `path` atomically.
    pub fn save_checkpoint(&self, path: &Path) -> Result<()> {
        let mut w = Writer::default();
        w.str(&self.tree.spec);
        w.str(self.method.name());
        w.f64(self.method.epsilon().unwrap_or(0.0));
        w.u64(self.seed);
        w.u64(self.iteration);
        w.u32(u32::from(self.keying.is_some()));
        write_entries(&mut w, &self.regrets);
        write_entries(&mut w, &self.average);
        write_container(path, KIND, &w.buf)
    }

    /// Restores the state saved by [`Mccfr::save_checkpoint`]; the file must come from a
    /// solver of the same game, keys, algorithm (and ε) and seed. Nothing changes on error.
    pub fn load_checkpoint(&mut self, path: &Path) -> Result<()> {
        let payload = read_container(path, KIND)?;
        let bad = |reason: String| Error::BadFile { path: path.display().to_string(), reason };
        let located = |e: Error| match e {
            Error::BadFile { reason, .. } => bad(reason),
            e => e,
        };
        let mismatch = |what: &str, theirs: String, ours: String| {
            bad(format!("checkpoint of {what} {theirs}, this solver has {what} {ours}"))
        };
        let mut r = Reader::new(&payload);
        let spec = r.str().map_err(located)?;
        if spec != self.tree.spec {
            return Err(mismatch("game", format!("{spec:?}"), format!("{:?}", self.tree.spec)));
        }
        let name = r.str().map_err(located)?;
        if name != self.method.name() {
            return Err(mismatch("algorithm", format!("{name:?}"), format!("{:?}", self.method.name())));
        }
        let epsilon = r.f64().map_err(located)?;
        if epsilon != self.method.epsilon().unwrap_or(0.0) {
            return Err(mismatch("epsilon", epsilon.to_string(), self.method.epsilon().unwrap_or(0.0).to_string()));
        }
        let seed = r.u64().map_err(located)?;
        if seed != self.seed {
            return Err(mismatch("seed", seed.to_string(), self.seed.to_string()));
        }
        let iteration = r.u64().map_err(located)?;
        let keyed = r.u32().map_err(located)? == 1;
        if keyed != self.keying.is_some() {
            return Err(mismatch("coarse keys", keyed.to_string(), self.keying.is_some().to_string()));
        }
        let mut regrets = vec![0.0; self.regrets.len()];
        let mut average = vec![0.0; self.average.len()];
        read_entries(&mut r, &mut regrets, "regrets").map_err(located)?;
        read_entries(&mut r, &mut average, "cumulative policy").map_err(located)?;
        if !r.done() {
            return Err(bad("trailing bytes after the state".into()));
        }
        self.iteration = iteration;
        self.regrets = regrets;
        self.average = average;
        Ok(())
    }
}

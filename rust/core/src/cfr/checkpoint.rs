//! Solver checkpoints: the complete state of a full-width solver in a versioned, checksummed
//! file written atomically, so that a run resumed from it continues exactly as if it had never
//! stopped.

use super::Solver;
use crate::error::{Error, Result};
use crate::store::{read_container, write_container, Reader, Writer};
use std::path::Path;

const KIND: &[u8; 8] = b"SOLVER\0\0";

fn write_vec(w: &mut Writer, v: &[f64]) {
    w.u64(v.len() as u64);
    for &x in v {
        w.f64(x);
    }
}

fn read_vec(r: &mut Reader, expected: usize, what: &str) -> Result<Vec<f64>> {
    let n = r.u64()? as usize;
    if n != expected {
        return Err(Error::BadFile {
            path: String::new(),
            reason: format!("{what} has {n} entries, this game needs {expected}"),
        });
    }
    (0..n).map(|_| r.f64()).collect()
}

impl Solver {
    /// Writes the solver's state to `path` atomically.
    pub fn save_checkpoint(&self, path: &Path) -> Result<()> {
        let mut w = Writer::default();
        w.str(&self.tree.spec);
        w.str(&self.algorithm.name());
        w.u32(u32::from(self.alternating));
        w.u64(self.iteration);
        write_vec(&mut w, &self.regrets);
        write_vec(&mut w, &self.instant);
        write_vec(&mut w, &self.cumulative_policy);
        write_vec(&mut w, &self.policy);
        match &self.grouped {
            None => w.u32(0),
            Some(g) => {
                w.u32(1);
                write_vec(&mut w, &g.regrets);
                write_vec(&mut w, &g.policy);
            }
        }
        write_container(path, KIND, &w.buf)
    }

    /// Restores the state saved by [`Solver::save_checkpoint`]; the file must come from a solver
    /// of the same game, keys, algorithm and update order.
    pub fn load_checkpoint(&mut self, path: &Path) -> Result<()> {
        let payload = read_container(path, KIND)?;
        let located = |e: Error| match e {
            Error::BadFile { reason, .. } => Error::BadFile { path: path.display().to_string(), reason },
            e => e,
        };
        let mut r = Reader::new(&payload);
        let mismatch = |what: &str, theirs: String, ours: String| Error::BadFile {
            path: path.display().to_string(),
            reason: format!("checkpoint of {what} {theirs:?}, this solver has {ours:?}"),
        };
        let spec = r.str().map_err(located)?;
        if spec != self.tree.spec {
            return Err(mismatch("game", spec, self.tree.spec.clone()));
        }
        let algo = r.str().map_err(located)?;
        if algo != self.algorithm.name() {
            return Err(mismatch("algorithm", algo, self.algorithm.name()));
        }
        let alternating = r.u32().map_err(located)? == 1;
        if alternating != self.alternating {
            return Err(mismatch("alternating updates", alternating.to_string(), self.alternating.to_string()));
        }
        let iteration = r.u64().map_err(located)?;
        let regrets = read_vec(&mut r, self.regrets.len(), "regrets").map_err(located)?;
        let instant = read_vec(&mut r, self.instant.len(), "instantaneous regrets").map_err(located)?;
        let cumulative = read_vec(&mut r, self.cumulative_policy.len(), "cumulative policy").map_err(located)?;
        let policy = read_vec(&mut r, self.policy.len(), "policy").map_err(located)?;
        let has_groups = r.u32().map_err(located)? == 1;
        if has_groups != self.grouped.is_some() {
            return Err(mismatch("coarse keys", has_groups.to_string(), self.grouped.is_some().to_string()));
        }
        let groups = match &self.grouped {
            Some(g) => Some((
                read_vec(&mut r, g.regrets.len(), "group regrets").map_err(located)?,
                read_vec(&mut r, g.policy.len(), "group policy").map_err(located)?,
            )),
            None => None,
        };
        if !r.done() {
            return Err(located(Error::BadFile {
                path: String::new(),
                reason: "trailing bytes after the state".into(),
            }));
        }
        self.iteration = iteration;
        self.regrets = regrets;
        self.instant = instant;
        self.cumulative_policy = cumulative;
        self.policy = policy;
        if let (Some(g), Some((gr, gp))) = (&mut self.grouped, groups) {
            g.regrets = gr;
            g.policy = gp;
        }
        self.policy_changed();
        Ok(())
    }
}

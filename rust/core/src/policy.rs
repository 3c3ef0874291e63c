//! Tabular policies: information-state key -> action probabilities, with policy files.

use crate::error::{Error, Result};
use crate::game::Action;
use crate::key_list::KeyList;
use crate::store::{read_container, write_container, Reader, Writer};
use crate::tree::PublicTree;
use std::collections::HashMap;
use std::path::Path;

const KIND: &[u8; 8] = b"POLICY\0\0";

/// Index of the largest value, the first (lowest index) among equal ones; values are compared
/// exactly, and 0 is returned for an empty list. The one tie rule of table strategies (the
/// original Setback program's `StrategyProfile.Best`) and of PIMC's choices
/// (`search::best_option`).
pub fn argmax<T: PartialOrd>(values: impl IntoIterator<Item = T>) -> usize {
    let mut best: Option<(usize, T)> = None;
    for (i, v) in values.into_iter().enumerate() {
        if best.as_ref().is_none_or(|(_, b)| v > *b) {
            best = Some((i, v));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// A tabular policy: for each information-state key, its actions and their probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct TabularPolicy {
    /// Spec of the game it belongs to.
    pub game: String,
    /// Information-state keys.
    pub keys: KeyList,
    /// Offset of each key's first action in `actions` / `probs`.
    pub offset: Vec<u32>,
    /// Action ids.
    pub actions: Vec<Action>,
    /// Probabilities.
    pub probs: Vec<f64>,
}

impl TabularPolicy {
    /// The policy `probs` (indexed like `tree`'s information sets' actions) with its keys.
    pub fn from_tree(tree: &PublicTree, probs: &[f64]) -> TabularPolicy {
        let mut actions = Vec::with_capacity(probs.len());
        for i in 0..tree.infosets.len() {
            actions.extend_from_slice(tree.infoset_actions(i));
        }
        TabularPolicy {
            game: tree.spec.clone(),
            keys: tree.infosets.keys.clone(),
            offset: tree.infosets.offset.clone(),
            actions,
            probs: probs.to_vec(),
        }
    }

    /// Number of information states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// Entry range of information state `i`.
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        let end = self.offset.get(i + 1).map_or(self.actions.len(), |&o| o as usize);
        self.offset[i] as usize..end
    }
    /// Key -> index.
    pub fn index(&self) -> HashMap<&str, usize> {
        self.keys.iter().enumerate().map(|(i, k)| (k, i)).collect()
    }

    /// Lays this policy out on `tree`'s information sets. Information sets the policy lacks
    /// get `fallback` (e.g. uniform) if given, else an error names the first missing key.
    pub fn to_tree(&self, tree: &PublicTree, uniform_fallback: bool) -> Result<Vec<f64>> {
        self.to_tree_keyed(tree, |i| &tree.infosets.keys[i], uniform_fallback)
    }

    /// Like [`Self::to_tree`], looking up information set `i` under `key_of(i)` (e.g. a coarser
    /// keying's key).
    pub fn to_tree_keyed<'k>(
        &self,
        tree: &PublicTree,
        key_of: impl Fn(usize) -> &'k str,
        uniform_fallback: bool,
    ) -> Result<Vec<f64>> {
        let index = self.index();
        let mut out = vec![0.0; tree.infosets.total_actions];
        for i in 0..tree.infosets.len() {
            let off = tree.infosets.offset[i] as usize;
            let acts = tree.infoset_actions(i);
            let key = key_of(i);
            match index.get(key) {
                Some(&j) => {
                    let r = self.range(j);
                    for (k, a) in acts.iter().enumerate() {
                        let pos = self.actions[r.clone()].iter().position(|x| x == a);
                        out[off + k] = pos.map_or(0.0, |p| self.probs[r.start + p]);
                    }
                    let sum: f64 = out[off..off + acts.len()].iter().sum();
                    if (sum - 1.0).abs() > 1e-6 {
                        return Err(Error::invalid(
                            format!("policy at {key:?}"),
                            format!("probabilities summing to {sum}"),
                            "probabilities of the legal actions summing to 1",
                        ));
                    }
                }
                None if uniform_fallback => out[off..off + acts.len()].fill(1.0 / acts.len() as f64),
                None => {
                    return Err(Error::invalid(
                        "policy",
                        format!("missing information state {key:?}"),
                        format!("a policy for every information state of {}", tree.spec),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Writes a policy file atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut w = Writer::default();
        w.str(&self.game);
        w.u64(self.keys.len() as u64);
        for (i, key) in self.keys.iter().enumerate() {
            w.str(key);
            let r = self.range(i);
            w.u32(r.len() as u32);
            for k in r {
                w.u32(self.actions[k]);
                w.f64(self.probs[k]);
            }
        }
        write_container(path, KIND, &w.buf)
    }

    /// Reads a policy file, verifying its header and checksum.
    pub fn load(path: &Path) -> Result<TabularPolicy> {
        let payload = read_container(path, KIND)?;
        let bad = |e: Error| match e {
            Error::BadFile { reason, .. } => Error::BadFile { path: path.display().to_string(), reason },
            e => e,
        };
        let mut r = Reader::new(&payload);
        let mut p = TabularPolicy {
            game: r.str().map_err(bad)?,
            keys: KeyList::new(),
            offset: vec![],
            actions: vec![],
            probs: vec![],
        };
        let n = r.u64().map_err(bad)?;
        for _ in 0..n {
            p.keys.push(&r.str().map_err(bad)?);
            p.offset.push(p.actions.len() as u32);
            let na = r.u32().map_err(bad)?;
            for _ in 0..na {
                p.actions.push(r.u32().map_err(bad)?);
                p.probs.push(r.f64().map_err(bad)?);
            }
        }
        if !r.done() {
            return Err(Error::BadFile {
                path: path.display().to_string(),
                reason: "trailing bytes after the policy".into(),
            });
        }
        Ok(p)
    }
}

impl TabularPolicy {
    /// The policy restricted to the information states at `indices` (in that order).
    pub fn subset(&self, indices: &[usize]) -> TabularPolicy {
        let mut out = TabularPolicy {
            game: self.game.clone(),
            keys: KeyList::new(),
            offset: vec![],
            actions: vec![],
            probs: vec![],
        };
        for &i in indices {
            out.keys.push(&self.keys[i]);
            out.offset.push(out.actions.len() as u32);
            let r = self.range(i);
            out.actions.extend_from_slice(&self.actions[r.clone()]);
            out.probs.extend_from_slice(&self.probs[r]);
        }
        out
    }
}

impl TabularPolicy {
    /// A policy with one entry per key of `keying`, from group-indexed probabilities.
    pub fn from_keying(tree: &PublicTree, keying: &crate::keying::Keying, probs: &[f64]) -> TabularPolicy {
        let mut p = TabularPolicy {
            game: tree.spec.clone(),
            keys: keying.keys.clone(),
            offset: keying.offset.clone(),
            actions: vec![],
            probs: probs.to_vec(),
        };
        for g in 0..keying.len() {
            p.actions.extend_from_slice(tree.infoset_actions(keying.members_of(g)[0] as usize));
        }
        p
    }
}

//! The traversal of one player's CFR update over a public tree, lane-vectorised.
//!
//! The walk computes, per lane, the player's values under the current policy; at the player's
//! decisions it adds counterfactual regrets `cf_reach * (child value - value)` and average-policy
//! contributions `(weight * own reach) * policy`. Per lane it performs OpenSpiel's per-history
//! arithmetic in the same order (values summed in action order from 0.0, `cf_reach` the product
//! of the other players' and chance's reaches in index order), and adds lanes to an information
//! set in deal order, which is the order of OpenSpiel's depth-first walk. Subtrees where no lane
//! has positive counterfactual reach nor positive own reach are skipped: everything they would
//! add is exactly zero.
//!
//! Children of large nodes run in parallel on the current rayon pool. Different public subtrees
//! touch disjoint information sets (a tree invariant), and results are combined in edge order,
//! so the numbers are identical for any thread count.

use crate::tree::{NodeKind, PublicTree, NO_SLOT};
use rayon::prelude::*;

/// A shared view of an `f64` array that parallel tasks update at disjoint indices.
#[derive(Clone, Copy)]
pub struct Disjoint {
    ptr: *mut f64,
    len: usize,
}

// SAFETY: tasks only touch the entries of information sets in their own public subtree, and
// those sets are disjoint (checked when the tree is built), so no two threads write one entry.
unsafe impl Send for Disjoint {}
unsafe impl Sync for Disjoint {}

impl Disjoint {
    /// Wraps `v` for the duration of a traversal.
    pub fn new(v: &mut [f64]) -> Self {
        Disjoint { ptr: v.as_mut_ptr(), len: v.len() }
    }
    /// A mutable view of `len` entries from `off`.
    ///
    /// # Safety
    /// No other reference to that range may be alive while the view is used.
    pub unsafe fn slice<'b>(&self, off: usize, len: usize) -> &'b mut [f64] {
        assert!(off + len <= self.len);
        // SAFETY: in bounds (checked above); exclusivity is the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(off), len) }
    }

    #[inline]
    fn add(&self, i: usize, x: f64) {
        assert!(i < self.len);
        // SAFETY: in bounds (checked above) and written by one task only (see the Send impl).
        unsafe { *self.ptr.add(i) += x }
    }
}

/// What a traversal needs besides the node.
pub struct Walk<'a> {
    /// The tree.
    pub tree: &'a PublicTree,
    /// Current policy, indexed like the information sets' actions.
    pub policy: &'a [f64],
    /// The player being updated.
    pub player: usize,
    /// Where regret contributions go (cumulative or instantaneous regrets).
    pub regrets: Disjoint,
    /// Where average-policy contributions go.
    pub average: Disjoint,
    /// Average-policy weight of this iteration.
    pub weight: f64,
    /// Subtrees at least this large (in nodes) run their children in parallel; `u32::MAX`
    /// keeps the whole walk on the calling thread.
    pub split_size: u32,
    /// Largest edge count of any node.
    pub max_edges: usize,
}

impl Walk<'_> {
    /// Scratch space one task needs below a node of height `depth`.
    pub fn scratch_len(&self, depth: usize) -> usize {
        let l = self.tree.num_lanes;
        (depth + 1) * ((self.tree.num_players + 2) * l + 2 * self.max_edges * l)
    }

    /// Gathers the policy of decision node `n` per lane into `pol[a * L + lane]` (0 for
    /// absent lanes).
    #[inline]
    fn gather_policy(&self, n: usize, pol: &mut [f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let d = &t.decisions[t.aux[n] as usize];
        let map = t.lane_map(d);
        let na = t.num_edges[n] as usize;
        let offsets = &t.infosets.offset[d.base as usize..d.base as usize + d.slots as usize];
        for (lane, &slot) in map.iter().enumerate() {
            if slot == NO_SLOT {
                for a in 0..na {
                    pol[a * l + lane] = 0.0;
                }
            } else {
                let src = &self.policy[offsets[slot as usize] as usize..][..na];
                for (a, &x) in src.iter().enumerate() {
                    pol[a * l + lane] = x;
                }
            }
        }
    }

    fn parallel_here(&self, n: usize) -> bool {
        self.tree.subtree_size[n] >= self.split_size
    }

    /// Whether anything below can change: some lane with positive counterfactual reach, or
    /// with positive own reach where chance reaches it.
    #[inline]
    fn alive(&self, reach: &[f64]) -> bool {
        let l = self.tree.num_lanes;
        let rows = self.tree.num_players + 1;
        let own = &reach[self.player * l..(self.player + 1) * l];
        let chance = &reach[(rows - 1) * l..];
        (0..l).any(|lane| {
            (own[lane] != 0.0 && chance[lane] != 0.0)
                || (0..rows).all(|i| i == self.player || reach[i * l + lane] != 0.0)
        })
    }

    /// Walks below `n`: `reach` holds `num_players + 1` rows of lanes (chance last); writes the
    /// player's per-lane values into `out`.
    pub fn walk(&self, n: usize, reach: &[f64], out: &mut [f64], scratch: &mut [f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let rows = t.num_players + 1;
        match t.kind[n] {
            NodeKind::Terminal => out.copy_from_slice(t.payoffs(n, self.player)),
            NodeKind::Chance => {
                let edges = t.edges(n);
                let child_reach = |e: usize, buf: &mut [f64]| {
                    buf.copy_from_slice(reach);
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    for (x, &q) in buf[(rows - 1) * l..].iter_mut().zip(probs) {
                        *x *= q;
                    }
                };
                out.fill(0.0);
                let mut add = |e: usize, v: &[f64]| {
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    for ((o, &q), &x) in out.iter_mut().zip(probs).zip(v) {
                        *o += q * x;
                    }
                };
                if self.parallel_here(n) {
                    let vals: Vec<Option<Vec<f64>>> = edges
                        .clone()
                        .into_par_iter()
                        .map(|e| {
                            let mut r = vec![0.0; rows * l];
                            child_reach(e, &mut r);
                            self.alive(&r).then(|| self.task(t.edge_child[e] as usize, &r))
                        })
                        .collect();
                    for (e, v) in edges.zip(vals) {
                        if let Some(v) = v {
                            add(e, &v);
                        }
                    }
                } else {
                    let (r, rest) = scratch.split_at_mut(rows * l);
                    let (v, rest) = rest.split_at_mut(l);
                    for e in edges {
                        child_reach(e, r);
                        if self.alive(r) {
                            self.walk(t.edge_child[e] as usize, r, v, rest);
                            add(e, v);
                        }
                    }
                }
            }
            NodeKind::Decision => {
                let q = t.player[n] as usize;
                let na = t.num_edges[n] as usize;
                let first = t.first_edge[n] as usize;
                let (pol, rest) = scratch.split_at_mut(na * l);
                let (vals, rest) = rest.split_at_mut(na * l);
                self.gather_policy(n, pol);
                let child_reach = |a: usize, buf: &mut [f64]| {
                    buf.copy_from_slice(reach);
                    for (x, &pr) in buf[q * l..(q + 1) * l].iter_mut().zip(&pol[a * l..(a + 1) * l]) {
                        *x *= pr;
                    }
                };
                if self.parallel_here(n) {
                    let results: Vec<Option<Vec<f64>>> = (0..na)
                        .into_par_iter()
                        .map(|a| {
                            let mut r = vec![0.0; rows * l];
                            child_reach(a, &mut r);
                            self.alive(&r).then(|| self.task(t.edge_child[first + a] as usize, &r))
                        })
                        .collect();
                    for (v, res) in vals.chunks_exact_mut(l).zip(results) {
                        match res {
                            Some(x) => v.copy_from_slice(&x),
                            None => v.fill(0.0),
                        }
                    }
                } else {
                    let (r, rest) = rest.split_at_mut(rows * l);
                    for (a, v) in vals.chunks_exact_mut(l).enumerate() {
                        child_reach(a, r);
                        if self.alive(r) {
                            self.walk(t.edge_child[first + a] as usize, r, v, rest);
                        } else {
                            v.fill(0.0);
                        }
                    }
                }
                out.fill(0.0);
                for (pa, va) in pol.chunks_exact(l).zip(vals.chunks_exact(l)) {
                    for ((o, &pr), &x) in out.iter_mut().zip(pa).zip(va) {
                        *o += pr * x;
                    }
                }
                if q == self.player {
                    self.update_infosets(n, reach, pol, vals, out);
                }
            }
        }
    }

    /// Walks below `n` in a task of its own; returns the lane values.
    fn task(&self, n: usize, reach: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.tree.num_lanes];
        let mut scratch = vec![0.0; self.scratch_len(self.tree.depth_below(n))];
        self.walk(n, reach, &mut out, &mut scratch);
        out
    }

    /// Adds regrets and average-policy contributions at the player's decision node `n`.
    fn update_infosets(&self, n: usize, reach: &[f64], pol: &[f64], vals: &[f64], value: &[f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let rows = t.num_players + 1;
        let d = &t.decisions[t.aux[n] as usize];
        let map = t.lane_map(d);
        let na = t.num_edges[n] as usize;
        let own = &reach[self.player * l..(self.player + 1) * l];
        for (lane, &slot) in map.iter().enumerate() {
            if slot == NO_SLOT {
                continue;
            }
            let off = t.infosets.offset[(d.base + slot as u32) as usize] as usize;
            let mut cf = 1.0;
            for i in 0..rows {
                if i != self.player {
                    cf *= reach[i * l + lane];
                }
            }
            if cf != 0.0 {
                for a in 0..na {
                    self.regrets.add(off + a, cf * (vals[a * l + lane] - value[lane]));
                }
            }
            if own[lane] != 0.0 {
                let w = self.weight * own[lane];
                for a in 0..na {
                    self.average.add(off + a, w * pol[a * l + lane]);
                }
            }
        }
    }
}

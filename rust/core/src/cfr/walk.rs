//! The two traversals of one player's CFR update over a public tree, lane-vectorised.
//!
//! * The **regret walk** computes, per lane, the player's values under the current policy and
//!   adds counterfactual regrets `cf_reach * (child value - value)` at the player's decisions.
//!   Per lane it performs OpenSpiel's per-history arithmetic in the same order (values summed in
//!   action order from 0.0, `cf_reach` the product of the other players' and chance's reaches
//!   in index order), and adds lanes to an information set in deal order, which is the order of
//!   OpenSpiel's depth-first walk. Subtrees where no lane has positive counterfactual reach are
//!   skipped: their contributions are exactly zero.
//! * The **average walk** carries only the player's own reach and adds `(weight * reach) * policy`
//!   to the cumulative policy at the player's decisions; subtrees the player never reaches are
//!   skipped.
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
    /// Where regret contributions (regret walk) or policy contributions (average walk) go.
    pub target: Disjoint,
    /// Average-walk weight of this iteration.
    pub weight: f64,
    /// Subtrees at least this large (in nodes) run their children in parallel.
    pub split_size: u32,
    /// Largest edge count of any node.
    pub max_edges: usize,
}

impl Walk<'_> {
    /// Scratch space one task needs below a node.
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
        for (lane, &slot) in map.iter().enumerate() {
            if slot == NO_SLOT {
                for a in 0..na {
                    pol[a * l + lane] = 0.0;
                }
            } else {
                let off = t.infosets.offset[(d.base + slot as u32) as usize] as usize;
                for a in 0..na {
                    pol[a * l + lane] = self.policy[off + a];
                }
            }
        }
    }

    fn parallel_here(&self, n: usize) -> bool {
        self.tree.subtree_size[n] >= self.split_size && rayon::current_num_threads() > 1
    }

    /// Regret walk: `reach` holds `num_players + 1` rows of lanes (chance last); writes the
    /// player's per-lane values into `out`.
    pub fn regret(&self, n: usize, reach: &[f64], out: &mut [f64], scratch: &mut [f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let rows = t.num_players + 1;
        let p = self.player;
        match t.kind[n] {
            NodeKind::Terminal => out.copy_from_slice(t.payoffs(n, p)),
            NodeKind::Chance => {
                let edges = t.edges(n);
                let child_reach = |e: usize, buf: &mut [f64]| {
                    buf.copy_from_slice(reach);
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    let c = &mut buf[(rows - 1) * l..];
                    for (x, &q) in c.iter_mut().zip(probs) {
                        *x *= q;
                    }
                };
                out.fill(0.0);
                if self.parallel_here(n) {
                    let vals: Vec<Option<Vec<f64>>> = edges
                        .clone()
                        .into_par_iter()
                        .map(|e| {
                            let mut r = vec![0.0; rows * l];
                            child_reach(e, &mut r);
                            self.alive(&r).then(|| self.regret_task(t.edge_child[e] as usize, &r))
                        })
                        .collect();
                    for (e, v) in edges.zip(vals) {
                        if let Some(v) = v {
                            let probs = t.prob_row(t.edge_prob_row[e]);
                            for ((o, &q), &x) in out.iter_mut().zip(probs).zip(&v) {
                                *o += q * x;
                            }
                        }
                    }
                } else {
                    let (r, rest) = scratch.split_at_mut(rows * l);
                    let (v, rest) = rest.split_at_mut(l);
                    for e in edges {
                        child_reach(e, r);
                        if !self.alive(r) {
                            continue;
                        }
                        self.regret(t.edge_child[e] as usize, r, v, rest);
                        let probs = t.prob_row(t.edge_prob_row[e]);
                        for ((o, &q), &x) in out.iter_mut().zip(probs).zip(v.iter()) {
                            *o += q * x;
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
                    let row = &mut buf[q * l..(q + 1) * l];
                    for (x, &pr) in row.iter_mut().zip(&pol[a * l..(a + 1) * l]) {
                        *x *= pr;
                    }
                };
                if self.parallel_here(n) {
                    let results: Vec<Option<Vec<f64>>> = (0..na)
                        .into_par_iter()
                        .map(|a| {
                            let mut r = vec![0.0; rows * l];
                            child_reach(a, &mut r);
                            self.alive(&r).then(|| self.regret_task(t.edge_child[first + a] as usize, &r))
                        })
                        .collect();
                    for (a, v) in results.into_iter().enumerate() {
                        match v {
                            Some(v) => vals[a * l..(a + 1) * l].copy_from_slice(&v),
                            None => vals[a * l..(a + 1) * l].fill(0.0),
                        }
                    }
                } else {
                    let (r, rest) = rest.split_at_mut(rows * l);
                    for a in 0..na {
                        child_reach(a, r);
                        let v = &mut vals[a * l..(a + 1) * l];
                        if self.alive(r) {
                            self.regret(t.edge_child[first + a] as usize, r, v, rest);
                        } else {
                            v.fill(0.0);
                        }
                    }
                }
                out.fill(0.0);
                for a in 0..na {
                    let (pa, va) = (&pol[a * l..(a + 1) * l], &vals[a * l..(a + 1) * l]);
                    for ((o, &pr), &x) in out.iter_mut().zip(pa).zip(va) {
                        *o += pr * x;
                    }
                }
                if q == p {
                    self.add_regrets(n, reach, vals, out);
                }
            }
        }
    }

    /// Runs a regret walk below `n` in a task of its own; returns the lane values.
    fn regret_task(&self, n: usize, reach: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.tree.num_lanes];
        let mut scratch = vec![0.0; self.scratch_len(self.tree.depth_below(n))];
        self.regret(n, reach, &mut out, &mut scratch);
        out
    }

    /// Whether any lane has positive counterfactual reach for the updated player.
    #[inline]
    fn alive(&self, reach: &[f64]) -> bool {
        let l = self.tree.num_lanes;
        let rows = self.tree.num_players + 1;
        (0..l).any(|lane| (0..rows).all(|i| i == self.player || reach[i * l + lane] != 0.0))
    }

    fn add_regrets(&self, n: usize, reach: &[f64], vals: &[f64], value: &[f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let rows = t.num_players + 1;
        let d = &t.decisions[t.aux[n] as usize];
        let map = t.lane_map(d);
        let na = t.num_edges[n] as usize;
        for (lane, &slot) in map.iter().enumerate() {
            if slot == NO_SLOT {
                continue;
            }
            let mut cf = 1.0;
            for i in 0..rows {
                if i != self.player {
                    cf *= reach[i * l + lane];
                }
            }
            if cf == 0.0 {
                continue;
            }
            let off = t.infosets.offset[(d.base + slot as u32) as usize] as usize;
            for a in 0..na {
                self.target.add(off + a, cf * (vals[a * l + lane] - value[lane]));
            }
        }
    }

    /// Average walk: `own` is the player's reach per lane (0 for absent lanes).
    pub fn average(&self, n: usize, own: &[f64], scratch: &mut [f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        match t.kind[n] {
            NodeKind::Terminal => {}
            NodeKind::Chance => {
                let child_own = |e: usize, buf: &mut [f64]| {
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    for ((x, &o), &q) in buf.iter_mut().zip(own).zip(probs) {
                        *x = if q > 0.0 { o } else { 0.0 };
                    }
                };
                if self.parallel_here(n) {
                    t.edges(n).into_par_iter().for_each(|e| {
                        let mut r = vec![0.0; l];
                        child_own(e, &mut r);
                        if r.iter().any(|&x| x != 0.0) {
                            self.average_task(t.edge_child[e] as usize, &r);
                        }
                    });
                } else {
                    let (r, rest) = scratch.split_at_mut(l);
                    for e in t.edges(n) {
                        child_own(e, r);
                        if r.iter().any(|&x| x != 0.0) {
                            self.average(t.edge_child[e] as usize, r, rest);
                        }
                    }
                }
            }
            NodeKind::Decision => {
                let na = t.num_edges[n] as usize;
                let first = t.first_edge[n] as usize;
                if t.player[n] as usize != self.player {
                    // Other players' choices do not change this player's reach.
                    if self.parallel_here(n) {
                        (0..na).into_par_iter().for_each(|a| self.average_task(t.edge_child[first + a] as usize, own));
                    } else {
                        for a in 0..na {
                            self.average(t.edge_child[first + a] as usize, own, scratch);
                        }
                    }
                    return;
                }
                let (pol, rest) = scratch.split_at_mut(na * l);
                self.gather_policy(n, pol);
                self.add_average(n, own, pol);
                let child_own = |a: usize, buf: &mut [f64]| {
                    for ((x, &o), &pr) in buf.iter_mut().zip(own).zip(&pol[a * l..(a + 1) * l]) {
                        *x = o * pr;
                    }
                };
                if self.parallel_here(n) {
                    let child_own = &child_own;
                    (0..na).into_par_iter().for_each(|a| {
                        let mut r = vec![0.0; l];
                        child_own(a, &mut r);
                        if r.iter().any(|&x| x != 0.0) {
                            self.average_task(t.edge_child[first + a] as usize, &r);
                        }
                    });
                } else {
                    let (r, rest) = rest.split_at_mut(l);
                    for a in 0..na {
                        child_own(a, r);
                        if r.iter().any(|&x| x != 0.0) {
                            self.average(t.edge_child[first + a] as usize, r, rest);
                        }
                    }
                }
            }
        }
    }

    fn average_task(&self, n: usize, own: &[f64]) {
        let mut scratch = vec![0.0; self.scratch_len(self.tree.depth_below(n))];
        self.average(n, own, &mut scratch);
    }

    fn add_average(&self, n: usize, own: &[f64], pol: &[f64]) {
        let t = self.tree;
        let l = t.num_lanes;
        let d = &t.decisions[t.aux[n] as usize];
        let map = t.lane_map(d);
        let na = t.num_edges[n] as usize;
        for (lane, &slot) in map.iter().enumerate() {
            if slot == NO_SLOT || own[lane] == 0.0 {
                continue;
            }
            let off = t.infosets.offset[(d.base + slot as u32) as usize] as usize;
            let w = self.weight * own[lane];
            for a in 0..na {
                self.target.add(off + a, w * pol[a * l + lane]);
            }
        }
    }
}

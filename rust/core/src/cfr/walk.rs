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
//! Speed comes from a [`Plan`] computed once per tree: lanes padded to whole vectors, the
//! current policy kept lane-major per decision node (rewritten after each update, not gathered
//! per visit), and each lane map's information sets listed with their lanes, so that a
//! contribution is summed in a register and stored once. Reach rows are shared between a node
//! and its children: a child gets a new row only for the player (or chance) that moved, and
//! carries whether any lane can still matter. Terminal children are read in place. Lane loops
//! are branch-free (a lane that must add nothing adds -0.0, the exact identity of addition)
//! and the walk is specialised per player count; where the CPU has AVX2 it runs a variant
//! compiled for it, with the same operations and therefore the same numbers.
//!
//! Children of large nodes run in parallel on the current rayon pool. Different public subtrees
//! touch disjoint information sets (a tree invariant), and results are combined in edge order,
//! so the numbers are identical for any thread count.

use crate::error::{Error, Result};
use crate::tree::{NodeKind, PublicTree, NO_SLOT};
use rayon::prelude::*;

/// Most players the walk supports (it is specialised per player count).
pub const MAX_PLAYERS: usize = 4;

/// Rows are padded to a multiple of this many lanes, so that lane loops are whole vectors.
const LANE_ALIGN: usize = 4;

/// Largest lane-major policy copy (in `f64`s) kept; larger trees gather policies per visit.
const MAX_LANE_POLICY: usize = 1 << 26;

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

    /// Adds the `xs` to entry `i`, one after the other.
    ///
    /// # Safety
    /// `i` must be in bounds ([`Plan::new`] checks every information set's action range).
    #[inline]
    unsafe fn add_all(&self, i: usize, xs: impl Iterator<Item = f64>) {
        debug_assert!(i < self.len);
        // SAFETY: in bounds (the caller's promise) and written by one task only (see the Send
        // impl); no reference to the entry exists.
        unsafe {
            let e = self.ptr.add(i);
            let mut sum = *e;
            for x in xs {
                sum += x;
            }
            *e = sum;
        }
    }
}

/// Per-tree data the walk needs, computed once per solver.
pub struct Plan {
    /// Lanes per row, padded to a multiple of [`LANE_ALIGN`]; padding lanes have zero chance
    /// reach, payoffs and policy.
    pub lanes: usize,
    /// Lane-major offset of each decision node's policy in the lane policy (0 elsewhere).
    policy_at: Vec<usize>,
    /// Length of the lane policy, or `None` when it is too large to keep.
    lane_policy_len: Option<usize>,
    /// The information sets of lane map `m`, as slots with their lanes in ascending order:
    /// `groups[group_at[m]..group_at[m + 1]]`, each (slot, lanes) with lanes in `group_lanes`.
    group_at: Vec<usize>,
    groups: Vec<Group>,
    group_lanes: Vec<u16>,
    /// Padded payoff rows (`num_players` rows of `lanes` per payoff row of the tree).
    payoffs: Vec<f64>,
    /// Padded chance probability rows.
    probs: Vec<f64>,
    /// Chance reach at the root (the lanes' probabilities), padded.
    pub root_chance: Vec<f64>,
    /// A row of ones (players' reach at the root).
    pub ones: Vec<f64>,
    zeros: Vec<f64>,
    /// Per player, the (lane policy index, policy index) pairs that make up the lane policy of
    /// the player's decision nodes (empty when it is not kept).
    copies_of: Vec<Vec<(u32, u32)>>,
    /// Information sets of each player.
    pub infosets_of: Vec<Vec<u32>>,
    /// Whether the CPU has AVX2 (then the walk runs its AVX2 variant).
    avx2: bool,
    /// Length of action-indexed arrays.
    total_actions: usize,
}

/// One information set of a lane map: its slot and where its lanes are in `group_lanes`.
#[derive(Clone, Copy)]
struct Group {
    slot: u16,
    start: u32,
    end: u32,
}

fn padded(rows: &[f64], lanes: usize, padded_lanes: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows.len() / lanes.max(1) * padded_lanes);
    for row in rows.chunks_exact(lanes) {
        out.extend_from_slice(row);
        out.resize(out.len() + padded_lanes - lanes, 0.0);
    }
    out
}

impl Plan {
    /// Precomputes the walk's data for `tree`, checking the index ranges the walk relies on.
    pub fn new(tree: &PublicTree) -> Result<Plan> {
        let np = tree.num_players;
        if np == 0 || np > MAX_PLAYERS {
            return Err(Error::invalid("number of players", np, format!("1 to {MAX_PLAYERS} for the CFR solvers")));
        }
        let l = tree.num_lanes;
        let lanes = l.div_ceil(LANE_ALIGN).max(1) * LANE_ALIGN;
        let (mut group_at, mut groups, mut group_lanes) = (vec![0], vec![], vec![]);
        for map in tree.lane_maps.chunks_exact(l) {
            let mut by_slot: Vec<(u16, u16)> =
                (0..l).filter(|&i| map[i] != NO_SLOT).map(|i| (map[i], i as u16)).collect();
            by_slot.sort_unstable();
            for (k, &(slot, lane)) in by_slot.iter().enumerate() {
                if k == 0 || by_slot[k - 1].0 != slot {
                    let start = group_lanes.len() as u32;
                    groups.push(Group { slot, start, end: start });
                }
                group_lanes.push(lane);
                groups.last_mut().unwrap().end += 1;
            }
            group_at.push(groups.len());
        }
        let infosets = &tree.infosets;
        let mut policy_at = vec![0; tree.num_nodes()];
        let mut len = 0;
        let mut nodes_of: Vec<Vec<usize>> = vec![vec![]; np];
        let bad = |what: &str| Error::Compile(format!("inconsistent public tree: {what}"));
        #[allow(clippy::needless_range_loop)] // `n` indexes several per-node arrays
        for n in 0..tree.num_nodes() {
            if tree.kind[n] != NodeKind::Decision {
                continue;
            }
            let na = tree.num_edges[n] as usize;
            let d = tree.decisions.get(tree.aux[n] as usize).ok_or_else(|| bad("decision index"))?;
            let range = group_at.get(d.map as usize..d.map as usize + 2).ok_or_else(|| bad("lane map index"))?;
            for g in &groups[range[0]..range[1]] {
                let (slot, i) = (g.slot, d.base as usize + g.slot as usize);
                if slot >= d.slots || i >= infosets.len() || infosets.offset[i] as usize + na > infosets.total_actions {
                    return Err(bad("information-set slot"));
                }
            }
            nodes_of.get_mut(tree.player[n] as usize).ok_or_else(|| bad("player"))?.push(n);
            policy_at[n] = len;
            len += na * lanes;
        }
        let kept = len <= MAX_LANE_POLICY;
        let mut copies_of = vec![vec![]; np];
        for (copies, nodes) in copies_of.iter_mut().zip(&nodes_of).filter(|_| kept) {
            for &n in nodes {
                let d = &tree.decisions[tree.aux[n] as usize];
                let gs = &groups[group_at[d.map as usize]..group_at[d.map as usize + 1]];
                for g in gs {
                    let off = infosets.offset[d.base as usize + g.slot as usize] as usize;
                    for a in 0..tree.num_edges[n] as usize {
                        for &lane in &group_lanes[g.start as usize..g.end as usize] {
                            copies.push(((policy_at[n] + a * lanes + lane as usize) as u32, (off + a) as u32));
                        }
                    }
                }
            }
            copies.sort_unstable();
        }
        let mut infosets_of = vec![vec![]; np];
        for i in 0..infosets.len() {
            infosets_of[infosets.player[i] as usize].push(i as u32);
        }
        Ok(Plan {
            lanes,
            policy_at,
            lane_policy_len: kept.then_some(len),
            group_at,
            groups,
            group_lanes,
            payoffs: padded(&tree.payoff_rows, l, lanes),
            probs: padded(&tree.prob_rows, l, lanes),
            root_chance: padded(&tree.lane_prob, l, lanes),
            ones: vec![1.0; lanes],
            zeros: vec![0.0; lanes],
            copies_of,
            infosets_of,
            total_actions: infosets.total_actions,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        })
    }

    /// Scratch space one walk needs below a node of height `depth`: per level at most a
    /// gathered policy, the children's values, two rows and the contributions per action.
    pub fn scratch_len(&self, tree: &PublicTree, depth: usize) -> usize {
        (depth + 1) * (4 * tree.max_edges() + 3) * self.lanes
    }

    /// Length of the lane-major policy copy (0 when policies are gathered per visit).
    pub fn lane_policy_len(&self) -> usize {
        self.lane_policy_len.unwrap_or(0)
    }

    /// Copies `player`'s current policy (indexed like the information sets' actions) into the
    /// lane-major copy `dst`.
    pub fn write_lane_policy(&self, policy: &[f64], player: usize, dst: &mut [f64]) {
        assert!(policy.len() == self.total_actions && dst.len() == self.lane_policy_len());
        for &(to, from) in &self.copies_of[player] {
            // SAFETY: `to < lane_policy_len` and `from < total_actions` (checked by Plan::new).
            unsafe { *dst.get_unchecked_mut(to as usize) = *policy.get_unchecked(from as usize) };
        }
    }

    /// Writes decision node `n`'s policy lane-major into `dst` (`pol[a * lanes + lane]`); absent
    /// lanes are left as they are (0).
    fn node_policy(&self, tree: &PublicTree, n: usize, policy: &[f64], dst: &mut [f64]) {
        let d = &tree.decisions[tree.aux[n] as usize];
        let na = tree.num_edges[n] as usize;
        let offsets = &tree.infosets.offset[d.base as usize..];
        for (slot, lanes) in self.groups(d.map) {
            let src = &policy[offsets[slot] as usize..][..na];
            for (&x, row) in src.iter().zip(dst.chunks_exact_mut(self.lanes)) {
                for &lane in lanes {
                    row[lane as usize] = x;
                }
            }
        }
    }

    /// The information sets of lane map `map`: (slot, its lanes in ascending order).
    #[inline]
    fn groups(&self, map: u32) -> impl Iterator<Item = (usize, &[u16])> {
        let gs = &self.groups[self.group_at[map as usize]..self.group_at[map as usize + 1]];
        gs.iter().map(|g| (g.slot as usize, &self.group_lanes[g.start as usize..g.end as usize]))
    }

    #[inline]
    fn payoffs(&self, tree: &PublicTree, n: usize, player: usize) -> &[f64] {
        &self.payoffs[(tree.aux[n] as usize * tree.num_players + player) * self.lanes..][..self.lanes]
    }

    #[inline]
    fn prob_row(&self, r: u32) -> &[f64] {
        &self.probs[r as usize * self.lanes..][..self.lanes]
    }
}

/// Reach probabilities at a public node: one row of lanes per player, and chance's; with
/// whether some lane has non-zero chance and own reach, and whether some lane has non-zero
/// chance and other players' reach. A subtree matters only if one of them holds.
#[derive(Clone, Copy)]
pub struct Reach<'r, const P: usize> {
    players: [&'r [f64]; P],
    chance: &'r [f64],
    own_alive: bool,
    others_alive: bool,
}

impl<'r, const P: usize> Reach<'r, P> {
    /// Row `which`: a player's, or chance's for `P`.
    #[inline]
    fn row(&self, which: usize) -> &'r [f64] {
        if which == P {
            self.chance
        } else {
            self.players[which]
        }
    }

    /// Whether anything below can change.
    #[inline]
    fn alive(&self) -> bool {
        self.own_alive || self.others_alive
    }
}

/// Whether some lane is non-zero in every row of `rows` (all of one length).
#[inline(always)]
fn any_all_nonzero<const K: usize>(rows: [&[f64]; K]) -> bool {
    let n = rows[0].len();
    let rows = rows.map(|r| &r[..n]);
    let mut any = false;
    for l in 0..n {
        any |= rows.iter().fold(true, |all, row| all & (row[l] != 0.0));
    }
    any
}

/// `dst = a * b` lane by lane.
#[inline(always)]
fn mul(dst: &mut [f64], a: &[f64], b: &[f64]) {
    for ((d, &a), &b) in dst.iter_mut().zip(a).zip(b) {
        *d = a * b;
    }
}

/// `dst *= a` lane by lane.
#[inline(always)]
fn mul_assign(dst: &mut [f64], a: &[f64]) {
    for (d, &a) in dst.iter_mut().zip(a) {
        *d *= a;
    }
}

/// `dst += a * b` lane by lane.
#[inline(always)]
fn add_product(dst: &mut [f64], a: &[f64], b: &[f64]) {
    for ((d, &a), &b) in dst.iter_mut().zip(a).zip(b) {
        *d += a * b;
    }
}

/// Per lane, the regret contribution `cf * (child - value)` and the average-policy contribution
/// `(weight * own) * policy`, or -0.0 (the exact identity of addition) where `cf`, respectively
/// `own`, is zero and nothing may be added.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn contributions(
    regret: &mut [f64],
    average: &mut [f64],
    cf: &[f64],
    own: &[f64],
    child: &[f64],
    value: &[f64],
    policy: &[f64],
    weight: f64,
) {
    let n = regret.len();
    let (average, cf, own, child, value, policy) =
        (&mut average[..n], &cf[..n], &own[..n], &child[..n], &value[..n], &policy[..n]);
    for l in 0..n {
        let (x, y) = (cf[l] * (child[l] - value[l]), (weight * own[l]) * policy[l]);
        regret[l] = if cf[l] != 0.0 { x } else { -0.0 };
        average[l] = if own[l] != 0.0 { y } else { -0.0 };
    }
}

/// Where a child's values are: in the buffer the child was walked into, or elsewhere.
#[derive(Clone, Copy)]
enum Vals<'p> {
    Here,
    There(&'p [f64]),
}

/// What a traversal needs besides the node.
pub struct Walk<'a, const P: usize> {
    /// The tree.
    pub tree: &'a PublicTree,
    /// The tree's precomputed data.
    pub plan: &'a Plan,
    /// Current policy, indexed like the information sets' actions.
    pub policy: &'a [f64],
    /// The current policy lane-major (see [`Plan::write_lane_policy`]); empty when gathered.
    pub lane_policy: &'a [f64],
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
}

impl<'a, const P: usize> Walk<'a, P> {
    /// Scratch space one task needs below a node of height `depth`.
    pub fn scratch_len(&self, depth: usize) -> usize {
        self.plan.scratch_len(self.tree, depth)
    }

    fn parallel_here(&self, n: usize) -> bool {
        self.tree.subtree_size[n] >= self.split_size
    }

    /// Reach with the given rows, and its liveness flags: `known` = (own, others) are kept
    /// where `Some`, computed where `None`.
    #[inline(always)]
    fn reach<'r>(
        &self,
        players: [&'r [f64]; P],
        chance: &'r [f64],
        known: (Option<bool>, Option<bool>),
    ) -> Reach<'r, P> {
        let (lp, p) = (self.plan.lanes, self.player);
        let own_alive = known.0.unwrap_or_else(|| any_all_nonzero([&chance[..lp], &players[p][..lp]]));
        // The player's own row stands in for chance's duplicate.
        let others_alive = known.1.unwrap_or_else(|| {
            let mut rows = players;
            rows[p] = chance;
            any_all_nonzero(rows.map(|r| &r[..lp]))
        });
        Reach { players, chance, own_alive, others_alive }
    }

    /// The reach at the root.
    pub fn root_reach(&self) -> Reach<'a, P> {
        self.reach([&self.plan.ones[..]; P], &self.plan.root_chance, (None, None))
    }

    /// `reach` with row `which` (a player's, or chance's for `P`) replaced by `row`.
    #[inline(always)]
    fn with_row<'r>(&self, reach: &Reach<'r, P>, which: usize, row: &'r [f64]) -> Reach<'r, P> {
        let mut players = reach.players;
        if which == P {
            return self.reach(players, row, (None, None));
        }
        players[which] = row;
        if which == self.player {
            self.reach(players, reach.chance, (None, Some(reach.others_alive)))
        } else {
            self.reach(players, reach.chance, (Some(reach.own_alive), None))
        }
    }

    /// Walks below `n` with reach `reach`; writes the player's per-lane values into `out`.
    #[inline]
    pub fn walk(&self, n: usize, reach: &Reach<P>, out: &mut [f64], scratch: &mut [f64]) {
        #[cfg(target_arch = "x86_64")]
        if self.plan.avx2 {
            // SAFETY: the CPU has AVX2 (checked when the plan was made).
            return unsafe { self.walk_avx2(n, reach, out, scratch) };
        }
        self.walk_plain(n, reach, out, scratch)
    }

    #[inline(never)]
    fn walk_plain(&self, n: usize, reach: &Reach<P>, out: &mut [f64], scratch: &mut [f64]) {
        self.node(n, reach, out, scratch)
    }

    /// The walk compiled for AVX2: the same operations lane by lane (no fused multiply-add),
    /// hence the same numbers, on wider vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn walk_avx2(&self, n: usize, reach: &Reach<P>, out: &mut [f64], scratch: &mut [f64]) {
        self.node(n, reach, out, scratch)
    }

    /// The work at node `n` (see [`Self::walk`]); inlined into each instruction-set variant.
    #[inline(always)]
    fn node(&self, n: usize, reach: &Reach<P>, out: &mut [f64], scratch: &mut [f64]) {
        let t = self.tree;
        let lp = self.plan.lanes;
        match t.kind[n] {
            NodeKind::Terminal => out.copy_from_slice(self.plan.payoffs(t, n, self.player)),
            NodeKind::Chance => {
                let first = t.first_edge[n] as usize;
                let mult = |i: usize| self.plan.prob_row(t.edge_prob_row[first + i]);
                self.expand(n, reach, P, &mult, out, None, scratch);
            }
            NodeKind::Decision => {
                let q = t.player[n] as usize;
                let na = t.num_edges[n] as usize;
                let (pol, scratch): (&[f64], &mut [f64]) = if self.lane_policy.is_empty() {
                    let (g, rest) = scratch.split_at_mut(na * lp);
                    g.fill(0.0);
                    self.plan.node_policy(t, n, self.policy, g);
                    (g, rest)
                } else {
                    (&self.lane_policy[self.plan.policy_at[n]..][..na * lp], scratch)
                };
                let mult = |a: usize| &pol[a * lp..(a + 1) * lp];
                if q == self.player {
                    let (vals, rest) = scratch.split_at_mut(na * lp);
                    self.expand(n, reach, q, &mult, out, Some(vals), rest);
                    self.update_infosets(n, reach, pol, vals, out, rest);
                } else {
                    self.expand(n, reach, q, &mult, out, None, scratch);
                }
            }
        }
    }

    /// Values of child `c` under `reach`: walked into `buf`, or its payoffs, or zeros when it
    /// is not alive.
    #[inline(always)]
    fn child(&self, c: usize, reach: &Reach<P>, alive: bool, buf: &mut [f64], scratch: &mut [f64]) -> Vals<'a> {
        if !alive {
            Vals::There(&self.plan.zeros)
        } else if self.tree.kind[c] == NodeKind::Terminal {
            Vals::There(self.plan.payoffs(self.tree, c, self.player))
        } else {
            self.walk(c, reach, buf, scratch);
            Vals::Here
        }
    }

    /// Visits the children of `n`, where edge `i` multiplies reach row `which` (a player's, or
    /// chance's for `P`) by `mult(i)`, and sets `out` to the sum of `mult(i) * child value` in
    /// edge order. With `keep`, leaves child `i`'s values in `keep[i * lanes..]`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn expand<'m, F>(
        &self,
        n: usize,
        reach: &Reach<P>,
        which: usize,
        mult: &F,
        out: &mut [f64],
        mut keep: Option<&mut [f64]>,
        scratch: &mut [f64],
    ) where
        F: Fn(usize) -> &'m [f64] + Sync,
    {
        let t = self.tree;
        let lp = self.plan.lanes;
        let edges = t.edges(n);
        let first = edges.start;
        // Children are surely alive if lanes that stay alive whatever row `which` holds exist.
        let sure = match which {
            w if w == P => false,
            w if w == self.player => reach.others_alive,
            _ => reach.own_alive,
        };
        let done: Option<Vec<Vec<f64>>> = self.parallel_here(n).then(|| {
            edges
                .clone()
                .into_par_iter()
                .map(|e| {
                    let c = t.edge_child[e] as usize;
                    let mut row = vec![0.0; lp];
                    mul(&mut row, reach.row(which), mult(e - first));
                    let child = self.with_row(reach, which, &row);
                    let mut buf = vec![0.0; lp];
                    let mut scratch = vec![0.0; self.scratch_len(t.depth_below(c))];
                    match self.child(c, &child, sure || child.alive(), &mut buf, &mut scratch) {
                        Vals::Here => buf,
                        Vals::There(x) => x.to_vec(),
                    }
                })
                .collect()
        });
        let (row, rest) = scratch.split_at_mut(lp);
        let (tmp, rest) = rest.split_at_mut(lp);
        let keeping = keep.is_some();
        out.fill(0.0);
        for (i, e) in edges.enumerate() {
            let m = mult(i);
            let buf = match keep.as_deref_mut() {
                Some(k) => &mut k[i * lp..(i + 1) * lp],
                None => &mut *tmp,
            };
            let vals = match &done {
                Some(d) => Vals::There(&d[i]),
                None => {
                    let c = t.edge_child[e] as usize;
                    // A terminal child's reach only serves to tell whether it is alive.
                    if sure && t.kind[c] == NodeKind::Terminal {
                        self.child(c, reach, true, buf, rest)
                    } else {
                        mul(row, reach.row(which), m);
                        let child = self.with_row(reach, which, row);
                        self.child(c, &child, child.alive(), buf, rest)
                    }
                }
            };
            let v: &[f64] = match vals {
                Vals::Here => buf,
                Vals::There(x) => x,
            };
            add_product(out, m, v);
            if let (Vals::There(x), true) = (vals, keeping) {
                buf.copy_from_slice(x);
            }
        }
    }

    /// Adds regrets and average-policy contributions at the player's decision node `n`, given
    /// its lane-major policy `pol`, children's values `vals` and value `value`.
    #[inline(always)]
    fn update_infosets(
        &self,
        n: usize,
        reach: &Reach<P>,
        pol: &[f64],
        vals: &[f64],
        value: &[f64],
        scratch: &mut [f64],
    ) {
        let t = self.tree;
        let lp = self.plan.lanes;
        let p = self.player;
        let na = t.num_edges[n] as usize;
        let (cf, rest) = scratch.split_at_mut(lp);
        let (dr, rest) = rest.split_at_mut(na * lp);
        let da = &mut rest[..na * lp];
        // Counterfactual reach: the other players' rows in index order, then chance's (the
        // first factor is taken as is, which is exactly `1.0 * row`).
        let mut others = (0..P).filter(|&i| i != p);
        match others.next() {
            Some(i) => cf.copy_from_slice(reach.players[i]),
            None => cf.fill(1.0),
        }
        for row in others.map(|i| reach.players[i]).chain([reach.chance]) {
            mul_assign(cf, row);
        }
        let own = &reach.players[p][..lp];
        let w = self.weight;
        let d = &t.decisions[t.aux[n] as usize];
        let offsets = &t.infosets.offset[d.base as usize..];
        // Lanes that add nothing (zero counterfactual or own reach) add -0.0, the exact identity
        // of addition.
        let per_action =
            dr.chunks_exact_mut(lp).zip(da.chunks_exact_mut(lp)).zip(vals.chunks_exact(lp).zip(pol.chunks_exact(lp)));
        for ((dr, da), (va, pa)) in per_action {
            contributions(dr, da, cf, own, va, value, pa, w);
        }
        for (slot, lanes) in self.plan.groups(d.map) {
            let off = offsets[slot] as usize;
            for (a, (dr, da)) in dr.chunks_exact(lp).zip(da.chunks_exact(lp)).enumerate() {
                // SAFETY: `off + a` is within the information set's actions, and the lanes are
                // below `num_lanes <= lp` (both checked by Plan::new).
                unsafe {
                    self.regrets.add_all(off + a, lanes.iter().map(|&l| *dr.get_unchecked(l as usize)));
                    self.average.add_all(off + a, lanes.iter().map(|&l| *da.get_unchecked(l as usize)));
                }
            }
        }
    }
}

//! The traversal of one player's CFR update over a public tree, lane-vectorised.
//!
//! The walk computes, per lane, the player's values under the current policy; at the player's
//! decisions it adds counterfactual regrets `cf_reach * (child value - value)` and average-policy
//! contributions `(weight * own reach) * policy`. Per lane it performs OpenSpiel's per-history
//! arithmetic in the same order (values summed in action order from 0.0, `cf_reach` the product
//! of the other players' and chance's reaches in index order), and adds lanes to an information
//! set in deal order, which is the order of OpenSpiel's depth-first walk. Subtrees where no lane
//! has positive counterfactual reach nor positive own reach are skipped: everything they would
//! add is exactly zero. (A lane's value where both its reaches are zero only ever reaches a
//! regret multiplied by an exact zero, so computing it or not gives the same numbers.)
//!
//! Speed comes from a [`Plan`] computed once per tree: the *walk tree*, in which the children of
//! a chance node that have the same shape (Leduc's board card) are walked side by side as one
//! node with a lane per possible (deal, outcome) pair; lanes padded to whole vectors; the
//! current policy kept lane-major per decision node (rewritten after each update, not gathered
//! per visit); and each decision node's information sets listed with their lanes, so that a
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
use std::collections::HashMap;
use std::rc::Rc;

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
    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Asks the CPU to fetch the cache line holding entry `off` (a hint: no effect on results).
    #[inline(always)]
    pub fn prefetch(&self, off: usize) {
        if off < self.len {
            crate::prefetch::prefetch(self.ptr.wrapping_add(off));
        }
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

    /// Entry `i`.
    ///
    /// # Safety
    /// `i` must be in bounds ([`Plan::new`] checks every information set's action range) and
    /// no reference to the entry may be alive.
    #[inline(always)]
    unsafe fn get(&self, i: usize) -> f64 {
        debug_assert!(i < self.len);
        // SAFETY: the caller's promise; written by one task only (see the Send impl).
        unsafe { *self.ptr.add(i) }
    }

    /// Sets entry `i` to `x`.
    ///
    /// # Safety
    /// As for [`Disjoint::get`].
    #[inline(always)]
    unsafe fn set(&self, i: usize, x: f64) {
        debug_assert!(i < self.len);
        // SAFETY: the caller's promise; written by one task only (see the Send impl).
        unsafe { *self.ptr.add(i) = x }
    }
}

/// Merged lanes above which a chance node's children are not walked side by side: rows that
/// long already spread the per-node cost over many lanes, and the rows (and the scratch space
/// sized by the longest row) grow with every merge.
const MAX_SPREAD_LANES: usize = 512;

/// What a walk node does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Terminal,
    /// A chance node whose children keep its lanes (each edge multiplies by a probability row).
    Chance,
    Decision,
    /// A chance node whose children are walked side by side as one node with one lane per
    /// (lane, outcome) pair: its single child's rows are gathered from its own.
    Spread,
}

/// A node of the walk tree: one public node, or isomorphic public nodes side by side (see
/// [`Plan`]). Its rows have `lanes` entries.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    player: u8,
    num_edges: u16,
    /// Lanes per row, padded to a multiple of [`LANE_ALIGN`].
    lanes: u32,
    first_edge: u32,
    /// Terminal: offset of its payoff rows (one per player) in `payoffs`; Decision: index in
    /// `decisions`; Spread: index in `spreads`.
    data: u32,
    /// Public nodes it stands for, subtrees included (decides where to run in parallel).
    size: u32,
    /// Height of its subtree in nodes (1 for a terminal), to size scratch space.
    height: u32,
}

/// A walk decision node: its information sets are `base + slot` of its groups.
#[derive(Clone, Copy, Debug)]
struct DecisionPlan {
    base: u32,
    groups: (u32, u32),
    /// Offset of its policy in the lane-major policy copy.
    policy_at: usize,
}

/// A spread: child lane `j` (of `len` in use) comes from parent lane `src[start + j]` with
/// chance probability `prob[start + j]`.
#[derive(Clone, Copy, Debug)]
struct Spread {
    start: u32,
    len: u32,
}

/// One information set of a decision node: its slot and where its lanes are in `group_lanes`.
#[derive(Clone, Copy)]
struct Group {
    slot: u32,
    start: u32,
    end: u32,
}

/// Per-tree data the walk needs, computed once per solver: the *walk tree*.
///
/// The walk tree is the public tree with chance nodes after the deal "spread" where their
/// children have the same shape (Leduc's board card): the children are walked as one node whose
/// lanes are all (lane, outcome) pairs with the outcome possible, e.g. 6 boards × 20 deals = 120
/// lanes instead of 6 nodes × 30 padded to 32. A lane is still one history and gets exactly the
/// arithmetic it got before, so the numbers do not change; but the second round costs one visit
/// per node instead of six, and impossible (lane, outcome) pairs cost nothing.
///
/// Further, lanes are padded to whole vectors, the current policy is kept lane-major per
/// decision node (rewritten after each update, not gathered per visit), and each decision
/// node's information sets are listed with their lanes, so that a contribution is summed in a
/// register and stored once.
pub struct Plan {
    nodes: Vec<Node>,
    edge_child: Vec<u32>,
    /// Per chance edge, the offset of its probability row in `probs`.
    edge_row: Vec<u32>,
    decisions: Vec<DecisionPlan>,
    groups: Vec<Group>,
    group_lanes: Vec<u16>,
    spreads: Vec<Spread>,
    spread_src: Vec<u16>,
    spread_prob: Vec<f64>,
    /// Payoff rows: the tree's, padded, then those of merged terminals.
    payoffs: Vec<f64>,
    /// Chance probability rows: the tree's, padded, then those of merged chance nodes.
    probs: Vec<f64>,
    /// The root of the walk tree.
    pub root: usize,
    /// Lanes of the root's rows.
    pub root_lanes: usize,
    /// Chance reach at the root (the lanes' probabilities), padded.
    root_chance: Vec<f64>,
    /// A row of ones (players' reach at the root) and one of zeros, as long as the longest row.
    ones: Vec<f64>,
    zeros: Vec<f64>,
    /// Longest row.
    max_lanes: usize,
    /// Length of the lane policy, or `None` when it is too large to keep.
    lane_policy_len: Option<usize>,
    /// Per player, the lane policy of the player's decision nodes as runs of consecutive
    /// entries: (first entry, length), each entry filled from the policy index in `copy_from`
    /// (empty when the lane policy is not kept).
    runs_of: Vec<Vec<(u32, u32)>>,
    copy_from: Vec<Vec<u32>>,
    /// Information sets of each player: (offset of the first action, number of actions).
    pub sets_of: Vec<Vec<(u32, u32)>>,
    /// Whether the CPU has AVX2 (then the walk runs its AVX2 variant).
    avx2: bool,
    /// Length of action-indexed arrays.
    total_actions: usize,
}

/// Public nodes of the same shape walked side by side: each with the tree lanes it holds
/// (ascending), which take the next lanes of the walk node in order.
struct Part {
    node: usize,
    lanes: Rc<[u16]>,
}

fn padded_len(lanes: usize) -> usize {
    lanes.div_ceil(LANE_ALIGN).max(1) * LANE_ALIGN
}

fn padded(rows: &[f64], lanes: usize, padded_lanes: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows.len() / lanes.max(1) * padded_lanes);
    for row in rows.chunks_exact(lanes) {
        out.extend_from_slice(row);
        out.resize(out.len() + padded_lanes - lanes, 0.0);
    }
    out
}

/// Whether public nodes `a` and `b` have the same shape: kinds, players and edge counts, all
/// the way down.
fn same_shape(t: &PublicTree, a: usize, b: usize) -> bool {
    if a == b {
        return true;
    }
    if t.kind[a] != t.kind[b] || t.player[a] != t.player[b] || t.num_edges[a] != t.num_edges[b] {
        return false;
    }
    t.edges(a).zip(t.edges(b)).all(|(x, y)| same_shape(t, t.edge_child[x] as usize, t.edge_child[y] as usize))
}

/// Whether lane `l` reaches a decision below node `n` (only then can a lane that chance gives
/// probability 0 change anything).
fn reaches_decision(t: &PublicTree, n: usize, l: usize) -> bool {
    match t.kind[n] {
        NodeKind::Terminal => false,
        NodeKind::Decision => t.lane_map(&t.decisions[t.aux[n] as usize])[l] != NO_SLOT,
        NodeKind::Chance => t.edges(n).any(|e| reaches_decision(t, t.edge_child[e] as usize, l)),
    }
}

/// Builds the walk tree (see [`Plan`]).
struct Builder<'t> {
    tree: &'t PublicTree,
    plan: Plan,
    /// Groups of the tree's lane maps, for nodes over the tree's own lanes.
    map_groups: HashMap<u32, (u32, u32)>,
    /// Scratch: position of a tree lane within a part.
    pos: Vec<u32>,
}

impl Builder<'_> {
    fn build(&mut self, parts: &[Part]) -> Result<u32> {
        let t = self.tree;
        let n0 = parts[0].node;
        let real: usize = parts.iter().map(|p| p.lanes.len()).sum();
        let lanes = padded_len(real);
        // The tree's own lanes: its padded rows serve as they are.
        let own = parts.len() == 1 && real == t.num_lanes;
        let id = self.plan.nodes.len();
        let size = parts.iter().map(|p| t.subtree_size[p.node]).fold(0u32, u32::saturating_add);
        let mut node = Node {
            kind: Kind::Terminal,
            player: t.player[n0],
            num_edges: t.num_edges[n0],
            lanes: lanes as u32,
            first_edge: 0,
            data: 0,
            size,
            height: 1,
        };
        self.plan.nodes.push(node);
        self.plan.max_lanes = self.plan.max_lanes.max(lanes);
        let np = t.num_players;
        let mut children = vec![];
        let mut rows = vec![];
        match t.kind[n0] {
            NodeKind::Terminal => {
                node.data = if own {
                    (t.aux[n0] as usize * np * lanes) as u32
                } else {
                    let at = self.plan.payoffs.len();
                    for p in 0..np {
                        for part in parts {
                            let pay = t.payoffs(part.node, p);
                            self.plan.payoffs.extend(part.lanes.iter().map(|&l| pay[l as usize]));
                        }
                        self.plan.payoffs.resize(at + (p + 1) * lanes, 0.0);
                    }
                    at as u32
                };
            }
            NodeKind::Decision => {
                node.kind = Kind::Decision;
                let na = t.num_edges[n0] as usize;
                for i in 0..na {
                    let sub: Vec<Part> = parts
                        .iter()
                        .map(|p| Part {
                            node: t.edge_child[t.edges(p.node).start + i] as usize,
                            lanes: p.lanes.clone(),
                        })
                        .collect();
                    children.push(self.build(&sub)?);
                }
                let (base, groups) = self.decision_groups(parts, own)?;
                node.data = self.plan.decisions.len() as u32;
                self.plan.decisions.push(DecisionPlan { base, groups, policy_at: 0 });
            }
            NodeKind::Chance => match self.spread(parts) {
                Some((sub, src, prob)) => {
                    node.kind = Kind::Spread;
                    node.num_edges = 1;
                    node.data = self.plan.spreads.len() as u32;
                    let start = self.plan.spread_src.len() as u32;
                    self.plan.spreads.push(Spread { start, len: src.len() as u32 });
                    let child_lanes = padded_len(src.len());
                    self.plan.spread_src.extend(&src);
                    self.plan.spread_prob.extend(&prob);
                    self.plan.spread_src.resize(start as usize + child_lanes, 0);
                    self.plan.spread_prob.resize(start as usize + child_lanes, 0.0);
                    children.push(self.build(&sub)?);
                    rows.push(0);
                }
                None => {
                    node.kind = Kind::Chance;
                    for i in 0..t.num_edges[n0] as usize {
                        let edge = |p: &Part| t.edges(p.node).start + i;
                        rows.push(if own {
                            (t.edge_prob_row[edge(&parts[0])] as usize * lanes) as u32
                        } else {
                            let at = self.plan.probs.len();
                            for part in parts {
                                let row = t.prob_row(t.edge_prob_row[edge(part)]);
                                self.plan.probs.extend(part.lanes.iter().map(|&l| row[l as usize]));
                            }
                            self.plan.probs.resize(at + lanes, 0.0);
                            at as u32
                        });
                        let sub: Vec<Part> = parts
                            .iter()
                            .map(|p| Part { node: t.edge_child[edge(p)] as usize, lanes: p.lanes.clone() })
                            .collect();
                        children.push(self.build(&sub)?);
                    }
                }
            },
        }
        if rows.is_empty() {
            rows.resize(children.len(), 0);
        }
        node.first_edge = self.plan.edge_child.len() as u32;
        node.height = 1 + children.iter().map(|&c| self.plan.nodes[c as usize].height).max().unwrap_or(0);
        self.plan.edge_child.extend(&children);
        self.plan.edge_row.extend(&rows);
        self.plan.nodes[id] = node;
        Ok(id as u32)
    }

    /// The information sets of a decision walk node, as its first information set and its
    /// groups (slots relative to it), checking the index ranges the walk relies on.
    fn decision_groups(&mut self, parts: &[Part], own: bool) -> Result<(u32, (u32, u32))> {
        let t = self.tree;
        let infosets = &t.infosets;
        let bad = |what: &str| Error::Compile(format!("inconsistent public tree: {what}"));
        for p in parts {
            let d = t.decisions.get(t.aux[p.node] as usize).ok_or_else(|| bad("decision index"))?;
            let map = t.lane_maps.get(d.map as usize * t.num_lanes..).ok_or_else(|| bad("lane map index"))?;
            let na = t.num_edges[p.node] as usize;
            for &slot in map[..t.num_lanes].iter().filter(|&&s| s != NO_SLOT) {
                let i = d.base as usize + slot as usize;
                if slot >= d.slots || i >= infosets.len() || infosets.offset[i] as usize + na > infosets.total_actions {
                    return Err(bad("information-set slot"));
                }
            }
        }
        let base = parts.iter().map(|p| t.decisions[t.aux[p.node] as usize].base).min().unwrap();
        let d0 = t.decisions[t.aux[parts[0].node] as usize];
        if let Some(&range) = self.map_groups.get(&d0.map).filter(|_| own) {
            return Ok((base, range));
        }
        let start = self.plan.groups.len() as u32;
        let mut offset = 0;
        for p in parts {
            let d = t.decisions[t.aux[p.node] as usize];
            let map = t.lane_map(&d);
            for (k, &l) in p.lanes.iter().enumerate() {
                self.pos[l as usize] = offset + k as u32;
            }
            let mut by_slot: Vec<(u16, u32)> =
                (0..t.num_lanes).filter(|&l| map[l] != NO_SLOT).map(|l| (map[l], self.pos[l])).collect();
            // Every lane with a slot is among the part's lanes (lanes are dropped only where no
            // decision below has them).
            if by_slot.iter().any(|&(_, j)| j == u32::MAX) {
                return Err(bad("lane missing below a chance node"));
            }
            by_slot.sort_unstable();
            for (k, &(slot, lane)) in by_slot.iter().enumerate() {
                if k == 0 || by_slot[k - 1].0 != slot {
                    let at = self.plan.group_lanes.len() as u32;
                    self.plan.groups.push(Group { slot: d.base - base + slot as u32, start: at, end: at });
                }
                self.plan.group_lanes.push(lane as u16);
                self.plan.groups.last_mut().unwrap().end += 1;
            }
            for &l in p.lanes.iter() {
                self.pos[l as usize] = u32::MAX;
            }
            offset += p.lanes.len() as u32;
        }
        let range = (start, self.plan.groups.len() as u32);
        if own {
            self.map_groups.insert(d0.map, range);
        }
        Ok((base, range))
    }

    /// The children of chance nodes `parts` as one node, with each child lane's parent lane and
    /// probability; `None` where they differ in shape or would make too long a row.
    #[allow(clippy::type_complexity)]
    fn spread(&self, parts: &[Part]) -> Option<(Vec<Part>, Vec<u16>, Vec<f64>)> {
        let t = self.tree;
        let (mut sub, mut src, mut prob) = (vec![], vec![], vec![]);
        for i in 0..t.num_edges[parts[0].node] as usize {
            let mut offset = 0;
            for p in parts {
                let e = t.edges(p.node).start + i;
                let (c, row) = (t.edge_child[e] as usize, t.prob_row(t.edge_prob_row[e]));
                let mut lanes = vec![];
                for (k, &l) in p.lanes.iter().enumerate() {
                    // A lane with probability 0 that reaches no decision adds exactly nothing.
                    if row[l as usize] != 0.0 || reaches_decision(t, c, l as usize) {
                        lanes.push(l);
                        src.push((offset + k) as u16);
                        prob.push(row[l as usize]);
                    }
                }
                offset += p.lanes.len();
                if !lanes.is_empty() {
                    sub.push(Part { node: c, lanes: lanes.into() });
                }
                if src.len() > MAX_SPREAD_LANES {
                    return None;
                }
            }
        }
        let first = sub.first()?.node;
        sub.iter().all(|p| same_shape(t, first, p.node)).then_some((sub, src, prob))
    }
}

impl Plan {
    /// Precomputes the walk's data for `tree`, checking the index ranges the walk relies on.
    pub fn new(tree: &PublicTree) -> Result<Plan> {
        let np = tree.num_players;
        if np == 0 || np > MAX_PLAYERS {
            return Err(Error::invalid("number of players", np, format!("1 to {MAX_PLAYERS} for the CFR solvers")));
        }
        let l = tree.num_lanes;
        let lanes = padded_len(l);
        let plan = Plan {
            nodes: vec![],
            edge_child: vec![],
            edge_row: vec![],
            decisions: vec![],
            groups: vec![],
            group_lanes: vec![],
            spreads: vec![],
            spread_src: vec![],
            spread_prob: vec![],
            payoffs: padded(&tree.payoff_rows, l, lanes),
            probs: padded(&tree.prob_rows, l, lanes),
            root: 0,
            root_lanes: lanes,
            root_chance: padded(&tree.lane_prob, l, lanes),
            ones: vec![],
            zeros: vec![],
            max_lanes: lanes,
            lane_policy_len: None,
            runs_of: vec![vec![]; np],
            copy_from: vec![vec![]; np],
            sets_of: vec![vec![]; np],
            total_actions: tree.infosets.total_actions,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        };
        let mut b = Builder { tree, plan, map_groups: HashMap::new(), pos: vec![u32::MAX; l] };
        let root = Part { node: tree.root as usize, lanes: (0..l as u16).collect::<Vec<_>>().into() };
        b.plan.root = b.build(&[root])? as usize;
        let mut plan = b.plan;
        plan.ones = vec![1.0; plan.max_lanes];
        plan.zeros = vec![0.0; plan.max_lanes];
        // Policies lane-major in node order, so that copying a player's policy writes memory
        // in order.
        let mut len = 0;
        for node in plan.nodes.iter().filter(|n| n.kind == Kind::Decision) {
            plan.decisions[node.data as usize].policy_at = len;
            len += node.num_edges as usize * node.lanes as usize;
        }
        let kept = len <= MAX_LANE_POLICY;
        plan.lane_policy_len = kept.then_some(len);
        // Each node's entries, then its runs of entries that hold a lane.
        let mut from = vec![];
        for node in plan.nodes.iter().filter(|n| kept && n.kind == Kind::Decision) {
            let d = &plan.decisions[node.data as usize];
            let p = node.player as usize;
            if p >= np {
                return Err(Error::Compile("inconsistent public tree: player".into()));
            }
            let lanes = node.lanes as usize;
            from.clear();
            from.resize(node.num_edges as usize * lanes, u32::MAX);
            for g in &plan.groups[d.groups.0 as usize..d.groups.1 as usize] {
                let off = tree.infosets.offset[(d.base + g.slot) as usize] as usize;
                for a in 0..node.num_edges as usize {
                    for &lane in &plan.group_lanes[g.start as usize..g.end as usize] {
                        from[a * lanes + lane as usize] = (off + a) as u32;
                    }
                }
            }
            for (k, &f) in from.iter().enumerate().filter(|&(_, &f)| f != u32::MAX) {
                let to = (d.policy_at + k) as u32;
                match plan.runs_of[p].last_mut() {
                    Some(run) if run.0 + run.1 == to => run.1 += 1,
                    _ => plan.runs_of[p].push((to, 1)),
                }
                plan.copy_from[p].push(f);
            }
        }
        for i in 0..tree.infosets.len() {
            let set = (tree.infosets.offset[i], tree.infosets.num_actions(i) as u32);
            plan.sets_of[tree.infosets.player[i] as usize].push(set);
        }
        Ok(plan)
    }

    /// Scratch space one walk needs below a node of height `depth`: per level at most a
    /// gathered policy, the children's values, two rows and the contributions per action (or a
    /// spread's reach rows and its child's values).
    pub fn scratch_len(&self, tree: &PublicTree, depth: usize) -> usize {
        (depth + 1) * (4 * tree.max_edges() + MAX_PLAYERS + 3) * self.max_lanes
    }

    /// Height of the walk tree.
    pub fn height(&self) -> usize {
        self.nodes[self.root].height as usize
    }

    /// Length of the lane-major policy copy (0 when policies are gathered per visit).
    pub fn lane_policy_len(&self) -> usize {
        self.lane_policy_len.unwrap_or(0)
    }

    /// Copies `player`'s current policy (indexed like the information sets' actions) into the
    /// lane-major copy `dst`.
    pub fn write_lane_policy(&self, policy: &[f64], player: usize, dst: &mut [f64]) {
        assert!(policy.len() == self.total_actions && dst.len() == self.lane_policy_len());
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (checked when the plan was made).
            return unsafe { self.write_avx2(policy, player, dst) };
        }
        self.write(policy, player, dst)
    }

    /// [`Plan::write_lane_policy`] compiled for AVX2: the compiler then copies with a third
    /// fewer instructions (measured on Leduc).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn write_avx2(&self, policy: &[f64], player: usize, dst: &mut [f64]) {
        self.write(policy, player, dst)
    }

    #[inline(always)]
    fn write(&self, policy: &[f64], player: usize, dst: &mut [f64]) {
        let from = &self.copy_from[player];
        let mut at = 0;
        for &(to, len) in &self.runs_of[player] {
            let (to, len) = (to as usize, len as usize);
            for (x, &i) in dst[to..to + len].iter_mut().zip(&from[at..at + len]) {
                // SAFETY: `i < total_actions` (checked by Plan::new).
                *x = unsafe { *policy.get_unchecked(i as usize) };
            }
            at += len;
        }
    }

    /// Writes decision node `n`'s policy lane-major into `dst` (`pol[a * lanes + lane]`); absent
    /// lanes are left as they are (0).
    fn node_policy(&self, tree: &PublicTree, n: usize, policy: &[f64], dst: &mut [f64]) {
        let node = &self.nodes[n];
        let d = &self.decisions[node.data as usize];
        let na = node.num_edges as usize;
        let offsets = &tree.infosets.offset[d.base as usize..];
        for (slot, lanes) in self.groups(d) {
            let src = &policy[offsets[slot] as usize..][..na];
            for (&x, row) in src.iter().zip(dst.chunks_exact_mut(node.lanes as usize)) {
                for &lane in lanes {
                    row[lane as usize] = x;
                }
            }
        }
    }

    /// The information sets of decision `d`: (slot, its lanes in ascending order).
    #[inline]
    fn groups(&self, d: &DecisionPlan) -> impl Iterator<Item = (usize, &[u16])> {
        let gs = &self.groups[d.groups.0 as usize..d.groups.1 as usize];
        gs.iter().map(|g| (g.slot as usize, &self.group_lanes[g.start as usize..g.end as usize]))
    }

    /// Payoffs of `player` at terminal `n`.
    #[inline]
    fn payoffs(&self, n: &Node, player: usize) -> &[f64] {
        let lanes = n.lanes as usize;
        &self.payoffs[n.data as usize + player * lanes..][..lanes]
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
        self.plan.nodes[n].size >= self.split_size
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
        let (lp, p) = (chance.len(), self.player);
        let own_alive = known.0.unwrap_or_else(|| any_all_nonzero([chance, &players[p][..lp]]));
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
        let lp = self.plan.root_lanes;
        self.reach([&self.plan.ones[..lp]; P], &self.plan.root_chance, (None, None))
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

    /// Walks below walk node `n` (the root is [`Plan::root`]) with reach `reach`; writes the
    /// player's per-lane values into `out`.
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
        let plan = self.plan;
        let node = &plan.nodes[n];
        let lp = node.lanes as usize;
        match node.kind {
            Kind::Terminal => out.copy_from_slice(plan.payoffs(node, self.player)),
            Kind::Chance => {
                let rows = &plan.edge_row[node.first_edge as usize..][..node.num_edges as usize];
                let mult = |i: usize| &plan.probs[rows[i] as usize..][..lp];
                self.expand(n, reach, P, &mult, out, None, scratch);
            }
            Kind::Spread => self.spread(node, reach, out, scratch),
            Kind::Decision => {
                let q = node.player as usize;
                let na = node.num_edges as usize;
                let d = &plan.decisions[node.data as usize];
                let (pol, scratch): (&[f64], &mut [f64]) = if self.lane_policy.is_empty() {
                    let (g, rest) = scratch.split_at_mut(na * lp);
                    g.fill(0.0);
                    plan.node_policy(self.tree, n, self.policy, g);
                    (g, rest)
                } else {
                    (&self.lane_policy[d.policy_at..][..na * lp], scratch)
                };
                let mult = |a: usize| &pol[a * lp..(a + 1) * lp];
                if q == self.player {
                    let (vals, rest) = scratch.split_at_mut(na * lp);
                    self.expand(n, reach, q, &mult, out, Some(vals), rest);
                    self.update_infosets(node, reach, pol, vals, out, rest);
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
        let node = &self.plan.nodes[c];
        if !alive {
            Vals::There(&self.plan.zeros[..node.lanes as usize])
        } else if node.kind == Kind::Terminal {
            Vals::There(self.plan.payoffs(node, self.player))
        } else {
            self.walk(c, reach, buf, scratch);
            Vals::Here
        }
    }

    /// Walks a spread's child, whose lane `j` is parent lane `src[j]` after an outcome of
    /// probability `prob[j]`, and sets `out` to the sum over each lane's outcomes (in edge
    /// order) of probability times value: per lane, the chance node's arithmetic.
    #[inline(always)]
    fn spread(&self, node: &Node, reach: &Reach<P>, out: &mut [f64], scratch: &mut [f64]) {
        let plan = self.plan;
        let c = plan.edge_child[node.first_edge as usize] as usize;
        let lc = plan.nodes[c].lanes as usize;
        let s = plan.spreads[node.data as usize];
        let src = &plan.spread_src[s.start as usize..][..lc];
        let prob = &plan.spread_prob[s.start as usize..][..lc];
        let (rows, rest) = scratch.split_at_mut((P + 1) * lc);
        let (vals, rest) = rest.split_at_mut(lc);
        let (players, chance) = rows.split_at_mut(P * lc);
        for (q, row) in players.chunks_exact_mut(lc).enumerate() {
            let from = reach.players[q];
            for (x, &j) in row.iter_mut().zip(src) {
                *x = from[j as usize];
            }
        }
        for ((x, &j), &p) in chance.iter_mut().zip(src).zip(prob) {
            *x = reach.chance[j as usize] * p;
        }
        let mut rows = players.chunks_exact(lc);
        let players: [&[f64]; P] = std::array::from_fn(|_| rows.next().unwrap());
        let child = self.reach(players, chance, (None, None));
        let v = match self.child(c, &child, child.alive(), vals, rest) {
            Vals::Here => &*vals,
            Vals::There(x) => x,
        };
        out.fill(0.0);
        for ((&j, &p), &x) in src.iter().zip(prob).zip(v).take(s.len as usize) {
            out[j as usize] += p * x;
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
        let plan = self.plan;
        let node = &plan.nodes[n];
        let lp = node.lanes as usize;
        let edges = &plan.edge_child[node.first_edge as usize..][..node.num_edges as usize];
        // Children are surely alive if lanes that stay alive whatever row `which` holds exist.
        let sure = match which {
            w if w == P => false,
            w if w == self.player => reach.others_alive,
            _ => reach.own_alive,
        };
        let done: Option<Vec<Vec<f64>>> = self.parallel_here(n).then(|| {
            edges
                .par_iter()
                .enumerate()
                .map(|(i, &c)| {
                    let c = c as usize;
                    let mut row = vec![0.0; lp];
                    mul(&mut row, reach.row(which), mult(i));
                    let child = self.with_row(reach, which, &row);
                    let mut buf = vec![0.0; lp];
                    let mut scratch = vec![0.0; self.scratch_len(plan.nodes[c].height as usize)];
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
        for (i, &c) in edges.iter().enumerate() {
            let c = c as usize;
            let m = mult(i);
            let buf = match keep.as_deref_mut() {
                Some(k) => &mut k[i * lp..(i + 1) * lp],
                None => &mut *tmp,
            };
            let vals = match &done {
                Some(d) => Vals::There(&d[i]),
                None => {
                    // A terminal child's reach only serves to tell whether it is alive.
                    if sure && plan.nodes[c].kind == Kind::Terminal {
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

    /// Adds regrets and average-policy contributions at the player's decision node `node`,
    /// given its lane-major policy `pol`, children's values `vals` and value `value`.
    #[inline(always)]
    fn update_infosets(
        &self,
        node: &Node,
        reach: &Reach<P>,
        pol: &[f64],
        vals: &[f64],
        value: &[f64],
        scratch: &mut [f64],
    ) {
        let lp = node.lanes as usize;
        let p = self.player;
        let na = node.num_edges as usize;
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
        let d = &self.plan.decisions[node.data as usize];
        let offsets = &self.tree.infosets.offset[d.base as usize..];
        // Lanes that add nothing (zero counterfactual or own reach) add -0.0, the exact identity
        // of addition.
        let per_action =
            dr.chunks_exact_mut(lp).zip(da.chunks_exact_mut(lp)).zip(vals.chunks_exact(lp).zip(pol.chunks_exact(lp)));
        for ((dr, da), (va, pa)) in per_action {
            contributions(dr, da, cf, own, va, value, pa, w);
        }
        for (slot, lanes) in self.plan.groups(d) {
            let off = offsets[slot] as usize;
            // Sets of 2 and 3 actions get copies for that constant count (see `add_lanes`).
            match na {
                2 => self.add_lanes::<2>(off, lanes, dr, da, lp),
                3 => self.add_lanes::<3>(off, lanes, dr, da, lp),
                _ => {
                    for a in 0..na {
                        self.add_lanes::<1>(off + a, lanes, &dr[a * lp..], &da[a * lp..], lp);
                    }
                }
            }
        }
    }

    /// Adds to the regrets and average-policy weights of the `N` actions from `off` the
    /// contributions of `lanes` (in rows `a * lp` of `dr` and `da`), lane after lane. Reading
    /// each lane once for all `2 * N` sums, kept in registers, halves the cost of adding one
    /// history at a time (which OpenSpiel's order of additions requires).
    #[inline(always)]
    fn add_lanes<const N: usize>(&self, off: usize, lanes: &[u16], dr: &[f64], da: &[f64], lp: usize) {
        let (dr, da) = (&dr[..N * lp], &da[..N * lp]);
        // SAFETY: `off + a` is within the information set's actions and the lanes are below the
        // node's `lp` lanes (both checked by Plan::new), so every index is in bounds.
        unsafe {
            let mut r: [f64; N] = std::array::from_fn(|a| self.regrets.get(off + a));
            let mut s: [f64; N] = std::array::from_fn(|a| self.average.get(off + a));
            for &l in lanes {
                for a in 0..N {
                    r[a] += *dr.get_unchecked(a * lp + l as usize);
                    s[a] += *da.get_unchecked(a * lp + l as usize);
                }
            }
            for a in 0..N {
                self.regrets.set(off + a, r[a]);
                self.average.set(off + a, s[a]);
            }
        }
    }
}

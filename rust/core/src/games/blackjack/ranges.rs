//! CFR-family iterations over per-player ranges for Blackjack++ trees.
//!
//! A Blackjack++ lane is a pair of down cards, and everything after the deal is public and
//! independent of them: the chance probability of a public event is the same in every lane,
//! and a player's reach depends only on its own down card. So instead of 100 lane values per
//! node, a traversal carries the opponent's range (10 values: chance times opponent reach per
//! opponent down card) and the traverser's own reach (10 values), and returns the traverser's
//! counterfactual values (10 values). A terminal is a showdown: the opponent's range is
//! bucketed by hand value and prefix-summed, so each own card's value is one lookup; sibling
//! terminals after a Hit of the traverser share the opponent's buckets. The update rules are
//! the [`Algorithm`]s of [`crate::cfr`], so this is the algorithm of [`crate::cfr::Solver`]
//! with sums in another order: iterates agree up to rounding, except where regrets tie exactly
//! and rounding picks a different next policy; both converge to the same values.
//!
//! Public subtrees are laid out children before parents, so the decision nodes (and hence the
//! information sets and their action entries) of a subtree form one contiguous range: parallel
//! tasks get disjoint slices of the regret and average arrays, with no locks and no unsafe code,
//! and the numbers do not depend on the thread count.

use super::build::NUM_LANES;
use super::rules::{card_prob, Hand, NUM_CARDS};
use super::Blackjack;
use crate::cfr::{normalise, Algorithm};
use crate::error::{Error, Result};
use crate::tree::{NodeKind, PublicTree};
use std::sync::Arc;

/// A vector over one player's down cards.
type Range = [f64; NUM_CARDS];

/// Entries (information set × action) per decision node: 10 down cards × (Stand, Hit).
const ENTRIES: usize = NUM_CARDS * 2;

/// Subtrees at least this large (in public nodes) walk their children in parallel.
const PARALLEL_NODES: u32 = 4096;

/// A CFR-family solver for a Blackjack++ public tree, over per-player ranges.
pub struct RangeSolver {
    tree: Arc<PublicTree>,
    algorithm: Algorithm,
    /// Both hands' values per down card and hits, per payoff row (terminals with equal payoff
    /// rows have equal outcomes, so any of them describes the row): a small, cache-resident
    /// table.
    showdowns: Vec<Showdown>,
    /// Probability of each down card.
    deal: Range,
    /// Chance probability of each chance edge (the same in every lane).
    edge_prob: Vec<f64>,
    /// Decision nodes in each node's subtree (a subtree's decisions end at its last one).
    decisions_below: Vec<u32>,
    regrets: Vec<f64>,
    instant: Vec<f64>,
    cumulative: Vec<f64>,
    policy: Vec<f64>,
    iteration: u64,
    pool: rayon::ThreadPool,
}

/// What one traversal reads.
struct Pass<'a> {
    s: &'a RangeSolver,
    player: usize,
    weight: f64,
}

/// The arrays one traversal writes, for the decisions `first..` of a subtree.
struct Acc<'a> {
    first: usize,
    regrets: &'a mut [f64],
    average: &'a mut [f64],
}

impl<'a> Acc<'a> {
    /// Splits off the entries of the first `decisions` decision nodes.
    fn split(self, decisions: usize) -> (Acc<'a>, Acc<'a>) {
        let (r1, r2) = self.regrets.split_at_mut(decisions * ENTRIES);
        let (a1, a2) = self.average.split_at_mut(decisions * ENTRIES);
        (
            Acc { first: self.first, regrets: r1, average: a1 },
            Acc { first: self.first + decisions, regrets: r2, average: a2 },
        )
    }
}

impl RangeSolver {
    /// A solver with uniform initial policy for a tree built by [`super::Blackjack::build`];
    /// `threads` = 0 means the default thread count.
    pub fn new(tree: Arc<PublicTree>, game: &Blackjack, algorithm: Algorithm, threads: usize) -> Result<RangeSolver> {
        let bad = || Error::invalid("tree", &tree.spec, "a Blackjack++ tree from Blackjack::build");
        if tree.num_lanes != NUM_LANES || tree.num_players != 2 || tree.spec != game.spec_string() {
            return Err(bad());
        }
        // Lane (d0, d1) = d0 * 10 + d1; slots are the acting player's own card.
        for (m, map) in tree.lane_maps.chunks_exact(NUM_LANES).enumerate() {
            if m > 1 || (0..NUM_LANES).any(|l| map[l] as usize != if m == 0 { l / NUM_CARDS } else { l % NUM_CARDS }) {
                return Err(bad());
            }
        }
        let deal: Range = std::array::from_fn(|k| card_prob(k as u8 + 1));
        let showdowns = showdowns(&tree, game)?;
        let edge_prob: Vec<f64> =
            (0..tree.edge_child.len()).map(|e| tree.prob_rows[tree.edge_prob_row[e] as usize * NUM_LANES]).collect();
        let n = tree.num_nodes();
        let mut decisions_below = vec![0u32; n];
        for v in 0..n {
            // Children come before parents, so their counts are ready.
            let own = u32::from(tree.kind[v] == NodeKind::Decision);
            decisions_below[v] = own + tree.edges(v).map(|e| decisions_below[tree.edge_child[e] as usize]).sum::<u32>();
        }
        let entries = tree.decisions.len() * ENTRIES;
        if tree.infosets.total_actions != entries {
            return Err(bad());
        }
        Ok(RangeSolver {
            algorithm,
            showdowns,
            deal,
            edge_prob,
            decisions_below,
            regrets: vec![0.0; entries],
            instant: if algorithm.uses_instant_regrets() { vec![0.0; entries] } else { vec![] },
            cumulative: vec![0.0; entries],
            policy: vec![0.5; entries],
            iteration: 0,
            pool: crate::threads::pool(threads)?,
            tree,
        })
    }

    /// Iterations done.
    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    /// Runs `iterations` alternating iterations (P0's traversal and update, then P1's).
    pub fn run(&mut self, iterations: u64) {
        for _ in 0..iterations {
            self.iteration += 1;
            for p in 0..2 {
                self.traverse(p);
                self.update(p);
            }
        }
    }

    /// The current policy, indexed like the tree's information sets' actions.
    pub fn current_policy(&self) -> &[f64] {
        &self.policy
    }

    /// Cumulative regrets, indexed like the tree's information sets' actions.
    pub fn regrets(&self) -> &[f64] {
        &self.regrets
    }

    /// The average policy, indexed like the tree's information sets' actions.
    pub fn average_policy(&self) -> Vec<f64> {
        normalise(&self.tree, &self.cumulative)
    }

    fn traverse(&mut self, player: usize) {
        let weight = self.algorithm.average_weight(self.iteration);
        let mut regrets =
            std::mem::take(if self.algorithm.uses_instant_regrets() { &mut self.instant } else { &mut self.regrets });
        let mut average = std::mem::take(&mut self.cumulative);
        {
            let pass = Pass { s: self, player, weight };
            let acc = Acc { first: 0, regrets: &mut regrets, average: &mut average };
            let root = self.tree.root as usize;
            let mut out = [0.0; NUM_CARDS];
            self.pool.install(|| pass.walk(root, &self.deal, &[1.0; NUM_CARDS], acc, &mut out));
        }
        self.cumulative = average;
        if self.algorithm.uses_instant_regrets() {
            self.instant = regrets;
        } else {
            self.regrets = regrets;
        }
    }

    fn update(&mut self, player: usize) {
        let t = self.iteration;
        let tree = &self.tree;
        let instant = self.algorithm.uses_instant_regrets();
        for (d, info) in tree.decisions.iter().enumerate() {
            let node = tree.infosets.node[info.base as usize] as usize;
            if tree.player[node] as usize != player {
                continue;
            }
            for k in 0..NUM_CARDS {
                let off = d * ENTRIES + 2 * k;
                let m = if instant { &mut self.instant[off..off + 2] } else { &mut [][..] };
                self.algorithm.update(t, &mut self.regrets[off..off + 2], m, &mut self.policy[off..off + 2]);
            }
        }
    }
}

/// A terminal's hands: each player's hand value (0 = bust) per own down card, and hits.
#[derive(Clone, Copy)]
struct Showdown {
    value: [[u8; NUM_CARDS]; 2],
    hits: [u8; 2],
}

/// The opponent's range bucketed by hand value: `eq[s]` is the range on hands of value `s`,
/// `below[s]` on hands of lower value; `key` is the hand values they were built for.
struct Buckets {
    key: Option<[u8; NUM_CARDS]>,
    total: f64,
    eq: [f64; 22],
    below: [f64; 22],
}

impl Buckets {
    fn new() -> Buckets {
        Buckets { key: None, total: 0.0, eq: [0.0; 22], below: [0.0; 22] }
    }

    /// The traverser's payoff-weighted values at showdown `sd` against range `opp` (which must
    /// not change while these buckets are reused).
    #[inline]
    fn values(&mut self, sd: &Showdown, player: usize, opp: &Range, out: &mut Range) {
        let theirs = sd.value[1 - player];
        if self.key != Some(theirs) {
            self.eq = [0.0; 22];
            for (&v, &r) in theirs.iter().zip(opp) {
                self.eq[v as usize] += r;
            }
            let mut run = 0.0;
            for s in 0..22 {
                self.below[s] = run;
                run += self.eq[s];
            }
            self.total = run;
            self.key = Some(theirs);
        }
        let own_hits = f64::from(sd.hits[player]);
        let pot = 3.0 + f64::from(sd.hits[0]) + f64::from(sd.hits[1]);
        let lost = -own_hits * self.total;
        for (o, &v) in out.iter_mut().zip(&sd.value[player]) {
            let v = v as usize;
            // Beat lower hands (bust is 0), split the pot on equal hands; bust never wins.
            *o = if v == 0 { lost } else { lost + pot * (self.below[v] + 0.5 * self.eq[v]) };
        }
    }
}

/// The showdown of every payoff row, found by walking the tree beside the game's shape.
fn showdowns(tree: &PublicTree, game: &Blackjack) -> Result<Vec<Showdown>> {
    let shape = game.shape();
    let mut out = vec![None; tree.payoff_rows.len() / (2 * NUM_LANES)];
    let mut stack = vec![(tree.root as usize, shape.root())];
    let bad =
        || Error::invalid("tree", &tree.spec, format!("the tree Blackjack::build makes for {}", game.spec_string()));
    while let Some((n, id)) = stack.pop() {
        let st = shape.state(id);
        match tree.kind[n] {
            NodeKind::Terminal if st.table.is_terminal() => {
                let [a, b] = st.table.hands;
                let value = |h: Hand| std::array::from_fn(|k| h.value(k as u8 + 1));
                out[tree.aux[n] as usize] = Some(Showdown { value: [value(a), value(b)], hits: [a.hits, b.hits] });
            }
            NodeKind::Decision if !st.table.is_terminal() && tree.num_edges[n] == 2 => {
                let e = tree.edges(n);
                let chance = tree.edge_child[e.start + 1] as usize;
                if tree.kind[chance] != NodeKind::Chance || tree.num_edges[chance] as usize != NUM_CARDS {
                    return Err(bad());
                }
                stack.push((tree.edge_child[e.start] as usize, st.stand));
                for (k, c) in tree.edges(chance).enumerate() {
                    stack.push((tree.edge_child[c] as usize, st.hit[k]));
                }
            }
            _ => return Err(bad()),
        }
    }
    out.into_iter().map(|s| s.ok_or_else(bad)).collect()
}

fn any_nonzero(x: &Range) -> bool {
    x.iter().any(|&v| v != 0.0)
}

impl Pass<'_> {
    /// Walks below `n`: `opp` is chance times the opponent's reach per opponent card, `own`
    /// the traverser's reach per own card; writes the traverser's counterfactual values per own
    /// card (without its own card's deal probability) into `out`.
    fn walk(&self, n: usize, opp: &Range, own: &Range, acc: Acc<'_>, out: &mut Range) {
        let t = &*self.s.tree;
        if !any_nonzero(opp) && !any_nonzero(own) {
            *out = [0.0; NUM_CARDS];
            return;
        }
        match t.kind[n] {
            NodeKind::Terminal => {
                let sd = &self.s.showdowns[t.aux[n] as usize];
                Buckets::new().values(sd, self.player, opp, out);
            }
            NodeKind::Chance if t.subtree_size[n] < PARALLEL_NODES => {
                // Terminal children share the opponent's buckets while its hand stays the same
                // (after a Hit of the traverser); the chance probability scales their values.
                let mut buckets = Buckets::new();
                let mut rest = acc;
                *out = [0.0; NUM_CARDS];
                for e in t.edges(n) {
                    let c = t.edge_child[e] as usize;
                    let q = self.s.edge_prob[e];
                    let mut v = [0.0; NUM_CARDS];
                    if t.kind[c] == NodeKind::Terminal {
                        let sd = &self.s.showdowns[t.aux[c] as usize];
                        buckets.values(sd, self.player, opp, &mut v);
                        for (o, x) in out.iter_mut().zip(&v) {
                            *o += q * x;
                        }
                    } else {
                        let (mine, r) = rest.split(self.s.decisions_below[c] as usize);
                        rest = r;
                        self.walk(c, &opp.map(|x| x * q), own, mine, &mut v);
                        for (o, x) in out.iter_mut().zip(&v) {
                            *o += x;
                        }
                    }
                }
            }
            NodeKind::Chance => {
                let edges = t.edges(n);
                let vals = self.children(n, edges.len(), acc, |k| {
                    let q = self.s.edge_prob[edges.start + k];
                    (opp.map(|x| x * q), *own)
                });
                *out = [0.0; NUM_CARDS];
                for v in &vals[..edges.len()] {
                    for (o, x) in out.iter_mut().zip(v) {
                        *o += x;
                    }
                }
            }
            NodeKind::Decision => {
                let dec = t.aux[n] as usize;
                let pol = &self.s.policy[dec * ENTRIES..(dec + 1) * ENTRIES];
                let mine = t.player[n] as usize == self.player;
                let (acc, own_acc) = acc.split(self.s.decisions_below[n] as usize - 1);
                let vals = self.children(n, 2, acc, |a| {
                    let mut r = if mine { *own } else { *opp };
                    for (k, x) in r.iter_mut().enumerate() {
                        *x *= pol[2 * k + a];
                    }
                    if mine {
                        (*opp, r)
                    } else {
                        (r, *own)
                    }
                });
                if !mine {
                    for k in 0..NUM_CARDS {
                        out[k] = vals[0][k] + vals[1][k];
                    }
                    return;
                }
                let deal = &self.s.deal;
                for k in 0..NUM_CARDS {
                    let (p0, p1) = (pol[2 * k], pol[2 * k + 1]);
                    let v = p0 * vals[0][k] + p1 * vals[1][k];
                    out[k] = v;
                    let cf = deal[k];
                    own_acc.regrets[2 * k] += cf * (vals[0][k] - v);
                    own_acc.regrets[2 * k + 1] += cf * (vals[1][k] - v);
                    own_acc.average[2 * k] += (self.weight * own[k]) * p0;
                    own_acc.average[2 * k + 1] += (self.weight * own[k]) * p1;
                }
            }
        }
    }

    /// Walks the `count` (at most 10) children of `n` (child `k` with the ranges `ranges(k)`),
    /// in parallel for large subtrees; returns their values in edge order.
    fn children<F>(&self, n: usize, count: usize, acc: Acc<'_>, ranges: F) -> [Range; NUM_CARDS]
    where
        F: Fn(usize) -> (Range, Range) + Sync,
    {
        use rayon::prelude::*;
        let t = &*self.s.tree;
        let first = t.first_edge[n] as usize;
        let mut vals = [[0.0; NUM_CARDS]; NUM_CARDS];
        let mut rest = acc;
        if t.subtree_size[n] < PARALLEL_NODES {
            for (k, v) in vals.iter_mut().enumerate().take(count) {
                let c = t.edge_child[first + k] as usize;
                let (mine, r) = rest.split(self.s.decisions_below[c] as usize);
                rest = r;
                let (opp, own) = ranges(k);
                self.walk(c, &opp, &own, mine, v);
            }
            return vals;
        }
        let mut parts = Vec::with_capacity(count);
        for (k, v) in vals.iter_mut().enumerate().take(count) {
            let c = t.edge_child[first + k] as usize;
            let (mine, r) = rest.split(self.s.decisions_below[c] as usize);
            rest = r;
            parts.push((k, c, mine, v));
        }
        parts.into_par_iter().for_each(|(k, c, a, v)| {
            let (opp, own) = ranges(k);
            self.walk(c, &opp, &own, a, v);
        });
        vals
    }
}

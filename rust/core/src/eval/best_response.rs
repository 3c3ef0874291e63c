//! Evaluation on compiled trees: expected values of a policy profile, best responses,
//! NashConv and exploitability.
//!
//! A policy is a flat array of action probabilities indexed like the tree's information sets'
//! actions. Because every information set lies in one public node, a best response is found in
//! one bottom-up pass: at the responder's public node, each information set picks the action
//! with the largest counterfactual value summed over its lanes.

use crate::error::{Error, Result};
use crate::keying::Keying;
use crate::tree::{NodeKind, PublicTree, NO_SLOT};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Subtrees at least this large evaluate their children in parallel.
const SPLIT_SIZE: u32 = 4096;

fn lane_policy(tree: &PublicTree, policy: &[f64], n: usize, a: usize, lane: usize) -> f64 {
    let d = &tree.decisions[tree.aux[n] as usize];
    let slot = tree.lane_map(d)[lane];
    if slot == NO_SLOT {
        return 0.0;
    }
    policy[tree.infosets.offset[(d.base + slot as u32) as usize] as usize + a]
}

/// Runs `f` over the edges of `n`, in parallel for large subtrees; results in edge order.
fn map_edges<T: Send>(tree: &PublicTree, n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    let edges = tree.edges(n);
    if tree.subtree_size[n] >= SPLIT_SIZE && rayon::current_num_threads() > 1 {
        edges.into_par_iter().map(f).collect()
    } else {
        edges.map(f).collect()
    }
}

/// Per-lane values of every player (player-major rows) below node `n` under `policy`.
fn values_below(tree: &PublicTree, policy: &[f64], n: usize) -> Vec<f64> {
    let l = tree.num_lanes;
    let np = tree.num_players;
    match tree.kind[n] {
        NodeKind::Terminal => (0..np).flat_map(|p| tree.payoffs(n, p).iter().copied()).collect(),
        NodeKind::Chance => {
            let first = tree.first_edge[n] as usize;
            let children = map_edges(tree, n, |e| values_below(tree, policy, tree.edge_child[e] as usize));
            let mut out = vec![0.0; np * l];
            for (k, v) in children.iter().enumerate() {
                let probs = tree.prob_row(tree.edge_prob_row[first + k]);
                for p in 0..np {
                    for lane in 0..l {
                        out[p * l + lane] += probs[lane] * v[p * l + lane];
                    }
                }
            }
            out
        }
        NodeKind::Decision => {
            let children = map_edges(tree, n, |e| values_below(tree, policy, tree.edge_child[e] as usize));
            let mut out = vec![0.0; np * l];
            for (a, v) in children.iter().enumerate() {
                for lane in 0..l {
                    let pr = lane_policy(tree, policy, n, a, lane);
                    for p in 0..np {
                        out[p * l + lane] += pr * v[p * l + lane];
                    }
                }
            }
            out
        }
    }
}

fn check_policy(tree: &PublicTree, policy: &[f64]) -> Result<()> {
    if policy.len() != tree.infosets.total_actions {
        return Err(Error::invalid(
            "policy length",
            policy.len(),
            format!("{} entries, one per (information set, action) of {}", tree.infosets.total_actions, tree.spec),
        ));
    }
    Ok(())
}

/// Expected value of every player when all follow `policy`.
pub fn expected_values(tree: &PublicTree, policy: &[f64]) -> Result<Vec<f64>> {
    check_policy(tree, policy)?;
    let l = tree.num_lanes;
    let v = values_below(tree, policy, tree.root as usize);
    Ok((0..tree.num_players).map(|p| (0..l).map(|lane| tree.lane_prob[lane] * v[p * l + lane]).sum()).collect())
}

/// A best response of one player to the others' policy.
pub struct BestResponse {
    /// The responder's expected value.
    pub value: f64,
    /// Chosen action index per information set of the responder (`u32::MAX` for others).
    pub choice: Vec<u32>,
}

/// The best response of `player` to the other players' `policy`.
pub fn best_response(tree: &PublicTree, policy: &[f64], player: usize) -> Result<BestResponse> {
    check_policy(tree, policy)?;
    if player >= tree.num_players {
        return Err(Error::invalid("player", player, format!("0..{}", tree.num_players)));
    }
    if tree.shared_keys {
        return best_response_grouped(tree, policy, player, &Keying::of_tree(tree)?);
    }
    let choice: Vec<AtomicU32> = (0..tree.infosets.len()).map(|_| AtomicU32::new(u32::MAX)).collect();
    let weights = tree.lane_prob.clone();
    let v = br_below(tree, policy, player, tree.root as usize, &weights, &choice);
    let value = (0..tree.num_lanes).map(|lane| weights[lane] * v[lane]).sum();
    Ok(BestResponse { value, choice: choice.into_iter().map(|c| c.into_inner()).collect() })
}

/// Responder's per-lane values below `n`; `w` is the lanes' reach by chance and the others.
fn br_below(tree: &PublicTree, policy: &[f64], player: usize, n: usize, w: &[f64], choice: &[AtomicU32]) -> Vec<f64> {
    let l = tree.num_lanes;
    if w.iter().all(|&x| x == 0.0) {
        return vec![0.0; l];
    }
    match tree.kind[n] {
        NodeKind::Terminal => tree.payoffs(n, player).to_vec(),
        NodeKind::Chance => {
            let children = map_edges(tree, n, |e| {
                let probs = tree.prob_row(tree.edge_prob_row[e]);
                let cw: Vec<f64> = w.iter().zip(probs).map(|(a, b)| a * b).collect();
                (br_below(tree, policy, player, tree.edge_child[e] as usize, &cw, choice), e)
            });
            let mut out = vec![0.0; l];
            for (v, e) in children {
                let probs = tree.prob_row(tree.edge_prob_row[e]);
                for lane in 0..l {
                    out[lane] += probs[lane] * v[lane];
                }
            }
            out
        }
        NodeKind::Decision if tree.player[n] as usize != player => {
            let first = tree.first_edge[n] as usize;
            let children = map_edges(tree, n, |e| {
                let a = e - first;
                let cw: Vec<f64> = (0..l).map(|lane| w[lane] * lane_policy(tree, policy, n, a, lane)).collect();
                br_below(tree, policy, player, tree.edge_child[e] as usize, &cw, choice)
            });
            let mut out = vec![0.0; l];
            for (a, v) in children.iter().enumerate() {
                for lane in 0..l {
                    out[lane] += lane_policy(tree, policy, n, a, lane) * v[lane];
                }
            }
            out
        }
        NodeKind::Decision => {
            let children =
                map_edges(tree, n, |e| br_below(tree, policy, player, tree.edge_child[e] as usize, w, choice));
            let d = &tree.decisions[tree.aux[n] as usize];
            let map = tree.lane_map(d);
            let mut best = vec![0u32; d.slots as usize];
            for (s, b) in best.iter_mut().enumerate() {
                let mut best_q = f64::NEG_INFINITY;
                for (a, v) in children.iter().enumerate() {
                    let q: f64 = (0..l).filter(|&lane| map[lane] as usize == s).map(|lane| w[lane] * v[lane]).sum();
                    if q > best_q {
                        best_q = q;
                        *b = a as u32;
                    }
                }
                choice[(d.base as usize) + s].store(*b, Ordering::Relaxed);
            }
            (0..l)
                .map(|lane| if map[lane] == NO_SLOT { 0.0 } else { children[best[map[lane] as usize] as usize][lane] })
                .collect()
        }
    }
}

/// Best response when information sets span public nodes (`groups` joins the tree's pieces of
/// one information set). Perfect recall orders the responder's information sets by how many of
/// its own decisions precede them; decisions are fixed deepest first, one walk per depth, each
/// walk summing every group's counterfactual action values given the deeper decisions.
fn best_response_grouped(tree: &PublicTree, policy: &[f64], player: usize, groups: &Keying) -> Result<BestResponse> {
    let mut node_depth = vec![u16::MAX; tree.num_nodes()];
    own_depths(tree, player, tree.root as usize, 0, &mut node_depth);
    let mut group_depth = vec![u16::MAX; groups.len()];
    for (i, &g) in groups.group.iter().enumerate() {
        if tree.infosets.player[i] as usize != player {
            continue;
        }
        let d = node_depth[tree.infosets.node[i] as usize];
        let gd = &mut group_depth[g as usize];
        if *gd != u16::MAX && *gd != d {
            return Err(Error::invalid(
                "best response",
                &groups.keys[g as usize],
                "games with perfect recall (this information state is reached after different numbers of the player's own decisions)",
            ));
        }
        *gd = d;
    }
    let max_depth = group_depth.iter().copied().filter(|&d| d != u16::MAX).max();
    let mut choice = vec![u32::MAX; groups.len()];
    let walker = GroupedWalk { tree, policy, player, groups, node_depth: &node_depth };
    if let Some(max_depth) = max_depth {
        for d in (0..=max_depth).rev() {
            let mut q = vec![0.0; groups.total_actions];
            walker.walk(tree.root as usize, &tree.lane_prob, &choice, Some((d, &mut q)));
            for (g, c) in choice.iter_mut().enumerate() {
                if group_depth[g] == d {
                    let (o, na) = (groups.offset[g] as usize, groups.num_actions(g));
                    let mut best = 0;
                    for a in 1..na {
                        if q[o + a] > q[o + best] {
                            best = a;
                        }
                    }
                    *c = best as u32;
                }
            }
        }
    }
    let v = walker.walk(tree.root as usize, &tree.lane_prob, &choice, None);
    let value = (0..tree.num_lanes).map(|lane| tree.lane_prob[lane] * v[lane]).sum();
    Ok(BestResponse { value, choice: groups.group.iter().map(|&g| choice[g as usize]).collect() })
}

fn own_depths(tree: &PublicTree, player: usize, n: usize, depth: u16, out: &mut [u16]) {
    out[n] = depth;
    let step = u16::from(tree.kind[n] == NodeKind::Decision && tree.player[n] as usize == player);
    for e in tree.edges(n) {
        own_depths(tree, player, tree.edge_child[e] as usize, depth + step, out);
    }
}

struct GroupedWalk<'a> {
    tree: &'a PublicTree,
    policy: &'a [f64],
    player: usize,
    groups: &'a Keying,
    node_depth: &'a [u16],
}

impl GroupedWalk<'_> {
    /// Responder's per-lane values below `n` given the fixed `choice`s; with `collect =
    /// Some((d, q))`, adds the counterfactual action values of depth-`d` groups to `q` instead
    /// (values above depth `d` are then not needed and returned as zeros).
    fn walk(&self, n: usize, w: &[f64], choice: &[u32], mut collect: Option<(u16, &mut Vec<f64>)>) -> Vec<f64> {
        let t = self.tree;
        let l = t.num_lanes;
        if w.iter().all(|&x| x == 0.0) {
            return vec![0.0; l];
        }
        let first = t.first_edge[n] as usize;
        let mut out = vec![0.0; l];
        match t.kind[n] {
            NodeKind::Terminal => out.copy_from_slice(t.payoffs(n, self.player)),
            NodeKind::Chance => {
                for e in t.edges(n) {
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    let cw: Vec<f64> = w.iter().zip(probs).map(|(a, b)| a * b).collect();
                    let v =
                        self.walk(t.edge_child[e] as usize, &cw, choice, collect.as_mut().map(|(d, q)| (*d, &mut **q)));
                    for lane in 0..l {
                        out[lane] += probs[lane] * v[lane];
                    }
                }
            }
            NodeKind::Decision if t.player[n] as usize != self.player => {
                for e in t.edges(n) {
                    let a = e - first;
                    let pr: Vec<f64> = (0..l).map(|lane| lane_policy(t, self.policy, n, a, lane)).collect();
                    let cw: Vec<f64> = w.iter().zip(&pr).map(|(x, p)| x * p).collect();
                    let v =
                        self.walk(t.edge_child[e] as usize, &cw, choice, collect.as_mut().map(|(d, q)| (*d, &mut **q)));
                    for lane in 0..l {
                        out[lane] += pr[lane] * v[lane];
                    }
                }
            }
            NodeKind::Decision => {
                let d = &t.decisions[t.aux[n] as usize];
                let map = t.lane_map(d);
                let depth = self.node_depth[n];
                let group_of = |lane: usize| self.groups.group[(d.base + map[lane] as u32) as usize] as usize;
                match collect.as_mut() {
                    Some((cd, _)) if depth < *cd => {
                        for e in t.edges(n) {
                            self.walk(
                                t.edge_child[e] as usize,
                                w,
                                choice,
                                collect.as_mut().map(|(d, q)| (*d, &mut **q)),
                            );
                        }
                        return out;
                    }
                    Some((cd, q)) if depth == *cd => {
                        for e in t.edges(n) {
                            let a = e - first;
                            let v = self.walk(t.edge_child[e] as usize, w, choice, None);
                            for lane in (0..l).filter(|&lane| map[lane] != NO_SLOT) {
                                let g = group_of(lane);
                                q[self.groups.offset[g] as usize + a] += w[lane] * v[lane];
                            }
                        }
                        return out;
                    }
                    _ => {}
                }
                for e in t.edges(n) {
                    let a = (e - first) as u32;
                    let chosen: Vec<bool> =
                        (0..l).map(|lane| map[lane] != NO_SLOT && choice[group_of(lane)] == a).collect();
                    if !chosen.iter().any(|&c| c) {
                        continue;
                    }
                    let cw: Vec<f64> = (0..l).map(|lane| if chosen[lane] { w[lane] } else { 0.0 }).collect();
                    let v = self.walk(t.edge_child[e] as usize, &cw, choice, None);
                    for lane in 0..l {
                        if chosen[lane] {
                            out[lane] = v[lane];
                        }
                    }
                }
            }
        }
        out
    }
}

/// NashConv: the sum over players of what a best response gains against `policy`.
pub fn nash_conv(tree: &PublicTree, policy: &[f64]) -> Result<f64> {
    let ev = expected_values(tree, policy)?;
    let mut total = 0.0;
    for (p, v) in ev.iter().enumerate() {
        total += best_response(tree, policy, p)?.value - v;
    }
    Ok(total)
}

/// Exploitability as OpenSpiel defines it: NashConv divided by the number of players; only for
/// constant-sum games.
pub fn exploitability(tree: &PublicTree, policy: &[f64]) -> Result<f64> {
    if !tree.constant_sum {
        return Err(Error::invalid(
            "exploitability",
            &tree.spec,
            "a constant-sum game; this game is general-sum, use nash_conv",
        ));
    }
    Ok(nash_conv(tree, policy)? / tree.num_players as f64)
}

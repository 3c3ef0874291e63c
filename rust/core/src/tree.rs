//! Compiled game trees: the public tree with vectors over private deals ("lanes").
//!
//! A game is compiled once into flat struct-of-arrays. The chance events that happen before the
//! first decision (the private deals: poker hole cards, Blackjack down cards) are enumerated into
//! `num_lanes` lanes. Every later event must be public: the tree of these events is the *public
//! tree*, and each public node holds, for every lane, the history "this deal + these public
//! events". Solvers walk the public tree once per update and do dense per-lane arithmetic, which
//! is exactly the per-history arithmetic of a tree walk (so results can be bit-identical to
//! per-history solvers such as OpenSpiel's) without per-history pointer chasing.
//!
//! Invariants (checked when building):
//! * all lanes of a public node agree on whose turn it is and on the legal actions;
//! * every information set lies inside one public node (perfect recall of public events), so
//!   different public subtrees touch disjoint information sets — the basis of lock-free,
//!   deterministic parallel traversal;
//! * a lane absent from a node (e.g. the board card equals a hole card) has probability 0 on
//!   the chance edge into it, and slot [`NO_SLOT`] at decision nodes.

use crate::error::{Error, Result};
use crate::game::{Action, Game, Turn};
use crate::key_list::KeyList;
use rayon::prelude::*;
use std::collections::HashMap;

/// Marks a lane that is absent from a decision node.
pub const NO_SLOT: u16 = u16::MAX;

/// Largest number of lanes (private deals) a compiled tree may have.
pub const MAX_LANES: usize = 4096;

/// What a public node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A player's decision; `aux` indexes [`PublicTree::decisions`].
    Decision,
    /// A chance event; each edge carries a per-lane probability row.
    Chance,
    /// A terminal; `aux` indexes the payoff rows.
    Terminal,
}

/// Per-decision-node data: its information sets are `base + slot` for the lanes' slots.
#[derive(Clone, Copy, Debug)]
pub struct DecisionInfo {
    /// Index of the first information set of this node.
    pub base: u32,
    /// Index of the lane-to-slot map in [`PublicTree::lane_maps`].
    pub map: u32,
    /// Number of information sets (slots) of this node.
    pub slots: u16,
}

/// A compiled public tree. Node ids are indices into the per-node arrays; `root` is the root.
#[derive(Clone, Debug)]
pub struct PublicTree {
    /// The game's spec string.
    pub spec: String,
    /// Number of players.
    pub num_players: usize,
    /// Whether every terminal's returns sum to the same constant.
    pub constant_sum: bool,
    /// Number of lanes (private deals).
    pub num_lanes: usize,
    /// Chance probability of each lane (product of the deal probabilities, in deal order).
    pub lane_prob: Vec<f64>,
    /// Readable name of each lane's deal (the chance actions' names joined by spaces).
    pub lane_names: Vec<String>,
    /// Number of chance nodes in the deal prefix above the lanes (they are not public nodes).
    pub deal_nodes: usize,
    /// The root node.
    pub root: u32,
    /// Kind of each node.
    pub kind: Vec<NodeKind>,
    /// Acting player of decision nodes (0 elsewhere).
    pub player: Vec<u8>,
    /// First edge of each node in the edge arrays.
    pub first_edge: Vec<u32>,
    /// Number of edges (children) of each node.
    pub num_edges: Vec<u16>,
    /// Decision index or payoff row of each node (see [`NodeKind`]).
    pub aux: Vec<u32>,
    /// Number of nodes in each node's subtree (itself included), used to split work.
    pub subtree_size: Vec<u32>,
    /// Height of each node's subtree in nodes (1 for a terminal), used to size scratch space.
    pub height: Vec<u16>,
    /// Child node of each edge.
    pub edge_child: Vec<u32>,
    /// Action id of each edge.
    pub edge_action: Vec<Action>,
    /// For chance edges, the row in `prob_rows` with each lane's probability.
    pub edge_prob_row: Vec<u32>,
    /// Per-lane probability rows (`num_lanes` values each), deduplicated.
    pub prob_rows: Vec<f64>,
    /// Per-lane payoff rows (`num_players * num_lanes` values each, player-major), deduplicated.
    pub payoff_rows: Vec<f64>,
    /// Decision nodes' data.
    pub decisions: Vec<DecisionInfo>,
    /// Lane-to-slot maps (`num_lanes` values each), deduplicated.
    pub lane_maps: Vec<u16>,
    /// Information sets.
    pub infosets: InfosetTable,
    /// Whether some information-state key occurs in more than one public node (hidden actions
    /// after the deal, private chance later in the game): then the tree's information sets are
    /// pieces of the game's, which solvers and best responses group by key.
    pub shared_keys: bool,
}

/// The information sets of a compiled tree, in id order.
#[derive(Clone, Debug, Default)]
pub struct InfosetTable {
    /// The information-state key of each information set.
    pub keys: KeyList,
    /// Acting player.
    pub player: Vec<u8>,
    /// Public node it belongs to.
    pub node: Vec<u32>,
    /// Offset of its first action in action-indexed arrays (regrets, policies).
    pub offset: Vec<u32>,
    /// Total number of (information set, action) entries.
    pub total_actions: usize,
}

impl InfosetTable {
    /// Number of information sets.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// Number of actions of information set `i`.
    pub fn num_actions(&self, i: usize) -> usize {
        let end = if i + 1 < self.offset.len() { self.offset[i + 1] as usize } else { self.total_actions };
        end - self.offset[i] as usize
    }
}

impl PublicTree {
    /// Number of public nodes.
    pub fn num_nodes(&self) -> usize {
        self.kind.len()
    }
    /// Height of the subtree below node `n` (1 for a terminal).
    pub fn depth_below(&self, n: usize) -> usize {
        self.height[n] as usize
    }
    /// Largest number of edges of any node.
    pub fn max_edges(&self) -> usize {
        self.num_edges.iter().copied().max().unwrap_or(0) as usize
    }
    /// Edges of node `n` as an index range.
    #[inline]
    pub fn edges(&self, n: usize) -> std::ops::Range<usize> {
        let s = self.first_edge[n] as usize;
        s..s + self.num_edges[n] as usize
    }
    /// Lane-to-slot map of decision `d`.
    #[inline]
    pub fn lane_map(&self, d: &DecisionInfo) -> &[u16] {
        let s = d.map as usize * self.num_lanes;
        &self.lane_maps[s..s + self.num_lanes]
    }
    /// Probability row `r`.
    #[inline]
    pub fn prob_row(&self, r: u32) -> &[f64] {
        let s = r as usize * self.num_lanes;
        &self.prob_rows[s..s + self.num_lanes]
    }
    /// Payoffs of `player` at terminal node `n`, one per lane.
    #[inline]
    pub fn payoffs(&self, n: usize, player: usize) -> &[f64] {
        let s = (self.aux[n] as usize * self.num_players + player) * self.num_lanes;
        &self.payoff_rows[s..s + self.num_lanes]
    }
    /// Action ids of information set `i` (the edges of its node).
    pub fn infoset_actions(&self, i: usize) -> &[Action] {
        let n = self.infosets.node[i] as usize;
        &self.edge_action[self.edges(n)]
    }
    /// Number of histories, as a per-history tree counts them: the deal prefix's chance nodes
    /// plus every (public node, present lane).
    pub fn num_histories(&self) -> usize {
        self.deal_nodes + self.count_histories(self.root as usize, &vec![true; self.num_lanes])
    }

    fn count_histories(&self, n: usize, present: &[bool]) -> usize {
        let here = present.iter().filter(|&&p| p).count();
        if here == 0 {
            return 0;
        }
        let mut total = here;
        match self.kind[n] {
            NodeKind::Terminal => {}
            NodeKind::Decision => {
                for e in self.edges(n) {
                    total += self.count_histories(self.edge_child[e] as usize, present);
                }
            }
            NodeKind::Chance => {
                for e in self.edges(n) {
                    let row = self.prob_row(self.edge_prob_row[e]);
                    let sub: Vec<bool> = present.iter().zip(row).map(|(&p, &q)| p && q > 0.0).collect();
                    total += self.count_histories(self.edge_child[e] as usize, &sub);
                }
            }
        }
        total
    }

    /// Approximate heap size in bytes.
    pub fn memory_bytes(&self) -> usize {
        let n = self.num_nodes();
        let e = self.edge_child.len();
        n * (1 + 1 + 4 + 2 + 4 + 4)
            + e * 12
            + (self.prob_rows.len() + self.payoff_rows.len()) * 8
            + self.decisions.len() * 12
            + self.lane_maps.len() * 2
            + self.infosets.keys.memory_bytes()
            + self.infosets.len() * 12
    }
}

/// Builds a [`PublicTree`] bottom-up: children are added before their parent. Games with their
/// own fast construction (e.g. Blackjack) drive it directly; [`compile`] drives it for any
/// [`Game`].
pub struct TreeBuilder {
    tree: PublicTree,
    prob_index: HashMap<Vec<u64>, u32>,
    payoff_index: HashMap<Vec<u64>, u32>,
    map_index: HashMap<Vec<u16>, u32>,
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

impl TreeBuilder {
    /// A builder for a game with `num_players` players and the given lanes.
    pub fn new(
        spec: &str,
        num_players: usize,
        constant_sum: bool,
        lane_prob: Vec<f64>,
        lane_names: Vec<String>,
    ) -> Self {
        let num_lanes = lane_prob.len();
        TreeBuilder {
            tree: PublicTree {
                spec: spec.to_string(),
                num_players,
                constant_sum,
                num_lanes,
                lane_prob,
                lane_names,
                deal_nodes: 0,
                root: 0,
                kind: vec![],
                player: vec![],
                first_edge: vec![],
                num_edges: vec![],
                aux: vec![],
                subtree_size: vec![],
                height: vec![],
                edge_child: vec![],
                edge_action: vec![],
                edge_prob_row: vec![],
                prob_rows: vec![],
                payoff_rows: vec![],
                decisions: vec![],
                lane_maps: vec![],
                infosets: InfosetTable::default(),
                shared_keys: false,
            },
            prob_index: HashMap::new(),
            payoff_index: HashMap::new(),
            map_index: HashMap::new(),
        }
    }

    /// Number of nodes added so far.
    pub fn num_nodes(&self) -> usize {
        self.tree.kind.len()
    }

    fn push_node(&mut self, kind: NodeKind, player: u8, aux: u32, edges: &[(Action, u32, u32)]) -> u32 {
        let id = self.tree.kind.len() as u32;
        let size = 1 + edges.iter().map(|&(_, c, _)| self.tree.subtree_size[c as usize]).sum::<u32>();
        let height = 1 + edges.iter().map(|&(_, c, _)| self.tree.height[c as usize]).max().unwrap_or(0);
        self.tree.kind.push(kind);
        self.tree.player.push(player);
        self.tree.first_edge.push(self.tree.edge_child.len() as u32);
        self.tree.num_edges.push(edges.len() as u16);
        self.tree.aux.push(aux);
        self.tree.subtree_size.push(size);
        self.tree.height.push(height);
        for &(a, c, r) in edges {
            self.tree.edge_action.push(a);
            self.tree.edge_child.push(c);
            self.tree.edge_prob_row.push(r);
        }
        id
    }

    /// Adds a terminal with payoffs laid out player-major (`num_players * num_lanes`).
    pub fn add_terminal(&mut self, payoffs: &[f64]) -> u32 {
        debug_assert_eq!(payoffs.len(), self.tree.num_players * self.tree.num_lanes);
        let key = bits(payoffs);
        let next = (self.tree.payoff_rows.len() / payoffs.len()) as u32;
        let row = *self.payoff_index.entry(key).or_insert_with(|| {
            self.tree.payoff_rows.extend_from_slice(payoffs);
            next
        });
        self.push_node(NodeKind::Terminal, 0, row, &[])
    }

    /// Adds a chance node; each edge is (outcome, per-lane probabilities, child).
    pub fn add_chance(&mut self, edges: &[(Action, &[f64], u32)]) -> u32 {
        let mut rows = Vec::with_capacity(edges.len());
        for &(a, probs, child) in edges {
            debug_assert_eq!(probs.len(), self.tree.num_lanes);
            let next = (self.tree.prob_rows.len() / self.tree.num_lanes) as u32;
            let row = *self.prob_index.entry(bits(probs)).or_insert_with(|| {
                self.tree.prob_rows.extend_from_slice(probs);
                next
            });
            rows.push((a, child, row));
        }
        self.push_node(NodeKind::Chance, 0, 0, &rows)
    }

    /// Adds a decision node of `player`. `slots[lane]` is the lane's information-set slot
    /// ([`NO_SLOT`] if absent) and `slot_keys[slot]` that information set's key.
    pub fn add_decision(
        &mut self,
        player: usize,
        slots: &[u16],
        slot_keys: Vec<String>,
        edges: &[(Action, u32)],
    ) -> u32 {
        debug_assert_eq!(slots.len(), self.tree.num_lanes);
        let next = (self.tree.lane_maps.len() / self.tree.num_lanes) as u32;
        let map = *self.map_index.entry(slots.to_vec()).or_insert_with(|| {
            self.tree.lane_maps.extend_from_slice(slots);
            next
        });
        let id = self.tree.kind.len() as u32;
        let infosets = &mut self.tree.infosets;
        let base = infosets.len() as u32;
        for key in &slot_keys {
            infosets.keys.push(key);
            infosets.player.push(player as u8);
            infosets.node.push(id);
            infosets.offset.push(infosets.total_actions as u32);
            infosets.total_actions += edges.len();
        }
        let dec = self.tree.decisions.len() as u32;
        self.tree.decisions.push(DecisionInfo { base, map, slots: slot_keys.len() as u16 });
        let e: Vec<(Action, u32, u32)> = edges.iter().map(|&(a, c)| (a, c, 0)).collect();
        self.push_node(NodeKind::Decision, player as u8, dec, &e)
    }

    /// Appends another builder's nodes (built for the same lanes); returns the node-id offset to
    /// add to `other`'s node ids.
    pub fn absorb(&mut self, other: TreeBuilder) -> u32 {
        let o = other.tree;
        let t = &mut self.tree;
        let node_off = t.kind.len() as u32;
        let edge_off = t.edge_child.len() as u32;
        let prob_off = (t.prob_rows.len() / t.num_lanes) as u32;
        let pay_off = (t.payoff_rows.len() / (t.num_lanes * t.num_players)) as u32;
        let dec_off = t.decisions.len() as u32;
        let map_off = (t.lane_maps.len() / t.num_lanes) as u32;
        let inf_off = t.infosets.len() as u32;
        let act_off = t.infosets.total_actions as u32;
        for n in 0..o.kind.len() {
            t.kind.push(o.kind[n]);
            t.player.push(o.player[n]);
            t.first_edge.push(o.first_edge[n] + edge_off);
            t.num_edges.push(o.num_edges[n]);
            t.aux.push(match o.kind[n] {
                NodeKind::Decision => o.aux[n] + dec_off,
                NodeKind::Terminal => o.aux[n] + pay_off,
                NodeKind::Chance => 0,
            });
            t.subtree_size.push(o.subtree_size[n]);
            t.height.push(o.height[n]);
        }
        for e in 0..o.edge_child.len() {
            t.edge_child.push(o.edge_child[e] + node_off);
            t.edge_action.push(o.edge_action[e]);
            t.edge_prob_row.push(o.edge_prob_row[e] + prob_off);
        }
        t.prob_rows.extend_from_slice(&o.prob_rows);
        t.payoff_rows.extend_from_slice(&o.payoff_rows);
        t.lane_maps.extend_from_slice(&o.lane_maps);
        for d in &o.decisions {
            t.decisions.push(DecisionInfo { base: d.base + inf_off, map: d.map + map_off, slots: d.slots });
        }
        let oi = o.infosets;
        for i in 0..oi.keys.len() {
            t.infosets.player.push(oi.player[i]);
            t.infosets.node.push(oi.node[i] + node_off);
            t.infosets.offset.push(oi.offset[i] + act_off);
        }
        t.infosets.keys.extend_from_list(&oi.keys);
        t.infosets.total_actions += oi.total_actions;
        node_off
    }

    /// Finishes the tree with `root` as its root, noting whether any information-state key
    /// occurs in more than one public node.
    pub fn finish(mut self, root: u32) -> Result<PublicTree> {
        self.tree.root = root;
        let mut seen: HashMap<&str, ()> = HashMap::with_capacity(self.tree.infosets.len());
        self.tree.shared_keys = !self.tree.infosets.keys.iter().all(|k| seen.insert(k, ()).is_none());
        Ok(self.tree)
    }
}

/// Compiles any [`Game`] into a [`PublicTree`]: enumerates the deals before the first decision
/// into lanes, then walks the public events for all lanes at once (in parallel near the root).
/// Games whose later events are not public to all (the deals disagree on who moves or what is
/// legal after the same events) are compiled with one lane: every history is a public node.
pub fn compile<G: Game>(game: &G) -> Result<PublicTree> {
    match compile_lanes(game, true) {
        Err(Error::Compile(why)) if why.starts_with(NOT_PUBLIC) => compile_lanes(game, false),
        other => other,
    }
}

/// Start of the messages of compile errors that a one-lane compilation avoids.
const NOT_PUBLIC: &str = "deals disagree";

fn compile_lanes<G: Game>(game: &G, deal_lanes: bool) -> Result<PublicTree> {
    let mut lanes: Vec<(G::State, f64, String)> = Vec::new();
    let mut deal_nodes = 0;
    if deal_lanes {
        collect_deals(game, game.initial_state(), 1.0, String::new(), &mut lanes, &mut deal_nodes)?;
    } else {
        lanes.push((game.initial_state(), 1.0, String::new()));
    }
    let names = lanes.iter().map(|l| l.2.trim().to_string()).collect();
    let probs = lanes.iter().map(|l| l.1).collect();
    let states: Vec<Option<G::State>> = lanes.into_iter().map(|l| Some(l.0)).collect();
    let mut builder = TreeBuilder::new(&game.spec(), game.num_players(), game.constant_sum(), probs, names);
    let root = build_node(game, &states, &mut builder, 0)?;
    let mut tree = builder.finish(root)?;
    tree.deal_nodes = deal_nodes;
    Ok(tree)
}

fn collect_deals<G: Game>(
    game: &G,
    state: G::State,
    prob: f64,
    name: String,
    out: &mut Vec<(G::State, f64, String)>,
    deal_nodes: &mut usize,
) -> Result<()> {
    if game.turn(&state) != Turn::Chance {
        if out.len() >= MAX_LANES {
            return Err(Error::TooLarge(format!("more than {MAX_LANES} private deals before the first decision")));
        }
        out.push((state, prob, name));
        return Ok(());
    }
    *deal_nodes += 1;
    for (a, p) in game.chance_outcomes(&state) {
        let n = format!("{name} {}", game.action_name(&state, a));
        collect_deals(game, game.child(&state, a), prob * p, n, out, deal_nodes)?;
    }
    Ok(())
}

/// Depth (in public nodes) down to which subtrees are built in parallel.
const PARALLEL_BUILD_DEPTH: usize = 3;

fn build_node<G: Game>(game: &G, lanes: &[Option<G::State>], b: &mut TreeBuilder, depth: usize) -> Result<u32> {
    let np = game.num_players();
    let present: Vec<&G::State> = lanes.iter().flatten().collect();
    let first = present.first().ok_or_else(|| Error::Compile("a public state with no deal".into()))?;
    let turn = game.turn(first);
    for s in &present {
        if game.turn(s) != turn {
            return Err(Error::Compile(format!(
                "deals disagree on who moves after the same public events ({turn:?} vs {:?})",
                game.turn(s)
            )));
        }
    }
    match turn {
        Turn::Terminal => {
            let mut payoffs = vec![0.0; np * lanes.len()];
            for (l, s) in lanes.iter().enumerate() {
                if let Some(s) = s {
                    let r = game.returns(s);
                    if r.len() != np {
                        return Err(Error::Compile(format!("returns have {} entries, expected {np}", r.len())));
                    }
                    for p in 0..np {
                        payoffs[p * lanes.len() + l] = r[p];
                    }
                }
            }
            Ok(b.add_terminal(&payoffs))
        }
        Turn::Player(p) => {
            let actions = game.legal_actions(first);
            if actions.is_empty() {
                return Err(Error::Compile("a decision state with no legal actions".into()));
            }
            let mut slots = vec![NO_SLOT; lanes.len()];
            let mut keys: Vec<String> = Vec::new();
            let mut key_slot: HashMap<String, u16> = HashMap::new();
            for (l, s) in lanes.iter().enumerate() {
                if let Some(s) = s {
                    if game.legal_actions(s) != actions {
                        return Err(Error::Compile(
                            "deals disagree on the legal actions after the same public events".into(),
                        ));
                    }
                    let key = game.info_key(s, p);
                    let next = keys.len() as u16;
                    slots[l] = *key_slot.entry(key.clone()).or_insert_with(|| {
                        keys.push(key);
                        next
                    });
                }
            }
            let children: Vec<Vec<Option<G::State>>> =
                actions.iter().map(|&a| lanes.iter().map(|s| s.as_ref().map(|s| game.child(s, a))).collect()).collect();
            let child_ids = build_children(game, &children, b, depth)?;
            let edges: Vec<(Action, u32)> = actions.iter().copied().zip(child_ids).collect();
            Ok(b.add_decision(p, &slots, keys, &edges))
        }
        Turn::Chance => {
            // Union of the lanes' outcomes: ascending ids when every lane lists them ascending,
            // else in order of first appearance; each lane's own order must agree with it.
            let mut order: Vec<Action> = Vec::new();
            let mut per_lane: Vec<Vec<(Action, f64)>> = Vec::with_capacity(lanes.len());
            for s in lanes {
                let outs = s.as_ref().map(|s| game.chance_outcomes(s)).unwrap_or_default();
                for &(a, _) in &outs {
                    if !order.contains(&a) {
                        order.push(a);
                    }
                }
                per_lane.push(outs);
            }
            if per_lane.iter().all(|o| o.windows(2).all(|w| w[0].0 < w[1].0)) {
                order.sort_unstable();
            }
            for outs in &per_lane {
                let pos: Vec<usize> = outs.iter().map(|(a, _)| order.iter().position(|x| x == a).unwrap()).collect();
                if pos.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(Error::Compile("deals disagree on the order of chance outcomes".into()));
                }
            }
            let mut rows = vec![vec![0.0; lanes.len()]; order.len()];
            let mut children: Vec<Vec<Option<G::State>>> = vec![vec![None; lanes.len()]; order.len()];
            for (l, outs) in per_lane.iter().enumerate() {
                for &(a, pr) in outs {
                    let k = order.iter().position(|&x| x == a).unwrap();
                    rows[k][l] = pr;
                    children[k][l] = Some(game.child(lanes[l].as_ref().unwrap(), a));
                }
            }
            let child_ids = build_children(game, &children, b, depth)?;
            let edges: Vec<(Action, &[f64], u32)> =
                order.iter().zip(rows.iter()).zip(child_ids).map(|((&a, r), c)| (a, r.as_slice(), c)).collect();
            Ok(b.add_chance(&edges))
        }
    }
}

fn build_children<G: Game>(
    game: &G,
    children: &[Vec<Option<G::State>>],
    b: &mut TreeBuilder,
    depth: usize,
) -> Result<Vec<u32>> {
    if depth >= PARALLEL_BUILD_DEPTH || children.len() < 2 {
        return children.iter().map(|c| build_node(game, c, b, depth + 1)).collect();
    }
    let t = &b.tree;
    let parts: Vec<Result<(TreeBuilder, u32)>> = children
        .par_iter()
        .map(|c| {
            let mut sub = TreeBuilder::new(&t.spec, t.num_players, t.constant_sum, t.lane_prob.clone(), vec![]);
            let root = build_node(game, c, &mut sub, depth + 1)?;
            Ok((sub, root))
        })
        .collect();
    let mut ids = Vec::with_capacity(parts.len());
    for part in parts {
        let (sub, root) = part?;
        let off = b.absorb(sub);
        ids.push(root + off);
    }
    Ok(ids)
}

//! The direct, parallel builder of the Blackjack++ public tree.
//!
//! [`Shape`] gives the exact size of every public subtree, so the final arrays are allocated
//! once and every subtree is written by one task into its own disjoint slices, in the same
//! order [`TreeBuilder`](crate::tree::TreeBuilder) would write it (children before parents,
//! edges and information sets with their node). The information sets' keys are written
//! meanwhile by one more task, into one [`KeyList`]. Payoff rows are computed once per distinct
//! terminal state and deduplicated by value. The result equals
//! [`compile`](crate::tree::compile) of the generic game node for node (checked by tests).

use super::rules::{card_prob, CARDS, HIT, NUM_CARDS, STAND};
use super::shape::{Counts, Shape};
use super::{available_memory, write_info_key, Blackjack, NUM_LANES};
use crate::error::Result;
use crate::game::Action;
use crate::key_list::KeyList;
use crate::tree::{DecisionInfo, InfosetTable, NodeKind, PublicTree};
use std::collections::HashMap;

impl Blackjack {
    /// Builds the public tree with the direct parallel builder (on the current rayon pool),
    /// after checking its size against the available memory.
    pub fn build(&self) -> Result<PublicTree> {
        let shape = self.shape();
        self.check_size(&shape.total(), available_memory())?;
        Ok(build(self, &shape))
    }
}

/// Subtrees with at least this many nodes are split between rayon tasks.
const PARALLEL_NODES: u64 = 20_000;

/// Lane of the deal (P0 holds `d0`, P1 holds `d1`), in the generic game's deal order.
#[inline]
pub fn lane(d0: u8, d1: u8) -> usize {
    (d0 as usize - 1) * NUM_CARDS + (d1 as usize - 1)
}

/// The output slices of one subtree, the global index of their first entries, and a write
/// cursor (entries written so far) for filling them in order.
struct Out<'a> {
    node0: u32,
    edge0: u32,
    dec0: u32,
    n: usize,
    e: usize,
    d: usize,
    kind: &'a mut [NodeKind],
    player: &'a mut [u8],
    first_edge: &'a mut [u32],
    num_edges: &'a mut [u16],
    aux: &'a mut [u32],
    subtree_size: &'a mut [u32],
    height: &'a mut [u16],
    edge_child: &'a mut [u32],
    edge_action: &'a mut [Action],
    edge_prob_row: &'a mut [u32],
    decisions: &'a mut [DecisionInfo],
    inf_player: &'a mut [u8],
    inf_node: &'a mut [u32],
    inf_offset: &'a mut [u32],
}

impl<'a> Out<'a> {
    /// Splits off the first subtree of size `c`; returns (it, the rest).
    fn split(self, c: &Counts) -> (Out<'a>, Out<'a>) {
        debug_assert_eq!((self.n, self.e, self.d), (0, 0, 0), "split before writing");
        let (n, e, d) = (c.nodes as usize, c.edges as usize, c.decisions as usize);
        let i = d * NUM_CARDS;
        let (kind, kind2) = self.kind.split_at_mut(n);
        let (player, player2) = self.player.split_at_mut(n);
        let (first_edge, first_edge2) = self.first_edge.split_at_mut(n);
        let (num_edges, num_edges2) = self.num_edges.split_at_mut(n);
        let (aux, aux2) = self.aux.split_at_mut(n);
        let (subtree_size, subtree_size2) = self.subtree_size.split_at_mut(n);
        let (height, height2) = self.height.split_at_mut(n);
        let (edge_child, edge_child2) = self.edge_child.split_at_mut(e);
        let (edge_action, edge_action2) = self.edge_action.split_at_mut(e);
        let (edge_prob_row, edge_prob_row2) = self.edge_prob_row.split_at_mut(e);
        let (decisions, decisions2) = self.decisions.split_at_mut(d);
        let (inf_player, inf_player2) = self.inf_player.split_at_mut(i);
        let (inf_node, inf_node2) = self.inf_node.split_at_mut(i);
        let (inf_offset, inf_offset2) = self.inf_offset.split_at_mut(i);
        let first = Out {
            node0: self.node0,
            edge0: self.edge0,
            dec0: self.dec0,
            n: 0,
            e: 0,
            d: 0,
            kind,
            player,
            first_edge,
            num_edges,
            aux,
            subtree_size,
            height,
            edge_child,
            edge_action,
            edge_prob_row,
            decisions,
            inf_player,
            inf_node,
            inf_offset,
        };
        let rest = Out {
            node0: self.node0 + n as u32,
            edge0: self.edge0 + e as u32,
            dec0: self.dec0 + d as u32,
            n: 0,
            e: 0,
            d: 0,
            kind: kind2,
            player: player2,
            first_edge: first_edge2,
            num_edges: num_edges2,
            aux: aux2,
            subtree_size: subtree_size2,
            height: height2,
            edge_child: edge_child2,
            edge_action: edge_action2,
            edge_prob_row: edge_prob_row2,
            decisions: decisions2,
            inf_player: inf_player2,
            inf_node: inf_node2,
            inf_offset: inf_offset2,
        };
        (first, rest)
    }

    /// Writes the next node with its edges; returns its id.
    fn node(&mut self, kind: NodeKind, player: u8, aux: u32, size: &Counts, edges: &[(Action, u32, u32)]) -> u32 {
        let (n, e) = (self.n, self.e);
        self.kind[n] = kind;
        self.player[n] = player;
        self.first_edge[n] = self.edge0 + e as u32;
        self.num_edges[n] = edges.len() as u16;
        self.aux[n] = aux;
        self.subtree_size[n] = size.nodes as u32;
        self.height[n] = size.height as u16;
        for (k, &(a, child, row)) in edges.iter().enumerate() {
            self.edge_action[e + k] = a;
            self.edge_child[e + k] = child;
            self.edge_prob_row[e + k] = row;
        }
        self.n += 1;
        self.e += edges.len();
        self.node0 + n as u32
    }

    /// Writes the next decision node of `player` with its information sets (but not their
    /// keys); returns its id.
    fn decision(&mut self, player: u8, size: &Counts, stand: u32, hit: u32) -> u32 {
        let dec = self.dec0 + self.d as u32;
        let base = dec * NUM_CARDS as u32;
        self.decisions[self.d] = DecisionInfo { base, map: u32::from(player), slots: NUM_CARDS as u16 };
        let node = self.node(NodeKind::Decision, player, dec, size, &[(STAND, stand, 0), (HIT, hit, 0)]);
        let i = self.d * NUM_CARDS;
        for slot in 0..NUM_CARDS {
            self.inf_player[i + slot] = player;
            self.inf_node[i + slot] = node;
            self.inf_offset[i + slot] = (base + slot as u32) * 2;
        }
        self.d += 1;
        node
    }
}

/// Path tokens: Stand, then Hit with card 1..10.
const TOKENS: [&str; 11] = ["s", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10"];

/// Writes the information sets' keys in their order, walking the shape as
/// [`Ctx::position_in_order`] does, into one growing [`KeyList`].
struct KeyWriter<'g> {
    shape: &'g Shape,
    /// Public path to the current node (`s`, `h1`..`h10` without separators).
    path: String,
    /// Scratch space for one key.
    key: String,
    keys: KeyList,
}

impl KeyWriter<'_> {
    /// Appends the keys of the subtree of state `id`, at the current path, children first.
    fn subtree(&mut self, id: u32) {
        let st = self.shape.state(id);
        if st.table.is_terminal() {
            return;
        }
        let at = self.path.len();
        for (token, child) in TOKENS.into_iter().zip(std::iter::once(st.stand).chain(st.hit)) {
            self.path.push_str(token);
            self.subtree(child);
            self.path.truncate(at);
        }
        for down in CARDS {
            self.key.clear();
            write_info_key(&mut self.key, down, &self.path);
            self.keys.push(&self.key);
        }
    }
}

/// What every task reads: the shape and the payoff row of each terminal state.
struct Ctx<'g> {
    shape: &'g Shape,
    payoff_row: Vec<u32>,
}

/// Root id of the subtree of size `c` that starts at `out`.
fn root_of(out: &Out<'_>, c: &Counts) -> u32 {
    out.node0 + c.nodes as u32 - 1
}

impl Ctx<'_> {
    /// Fills the subtree of the decision or terminal with state id `id` into `out`, which has
    /// exactly its size, splitting big subtrees between tasks; returns its root id.
    fn position(&self, id: u32, out: Out<'_>) -> u32 {
        let st = self.shape.state(id);
        let mut out = out;
        if st.counts.nodes < PARALLEL_NODES {
            return self.position_in_order(id, &mut out);
        }
        let stand_size = self.shape.state(st.stand).counts;
        let (stand_out, rest) = out.split(&stand_size);
        let (hit_out, mut own) = rest.split(&st.after_hit);
        let (stand, hit) = (root_of(&stand_out, &stand_size), root_of(&hit_out, &st.after_hit));
        rayon::join(|| self.position(st.stand, stand_out), || self.chance(id, hit_out));
        own.decision(st.table.to_act, &st.counts, stand, hit)
    }

    /// Like [`position`](Self::position) for the chance node after a Hit at decision `id`.
    fn chance(&self, id: u32, out: Out<'_>) -> u32 {
        use rayon::prelude::*;
        let st = self.shape.state(id);
        let mut rest = out;
        if st.after_hit.nodes < PARALLEL_NODES {
            return self.chance_in_order(id, &mut rest);
        }
        let mut parts = Vec::with_capacity(NUM_CARDS);
        let mut edges = [(0 as Action, 0u32, 0u32); NUM_CARDS];
        for (k, card) in CARDS.enumerate() {
            let c = self.shape.state(st.hit[k]).counts;
            let (part, r) = rest.split(&c);
            rest = r;
            edges[k] = (Action::from(card), root_of(&part, &c), u32::from(card == 10));
            parts.push((st.hit[k], part));
        }
        parts.into_par_iter().for_each(|(child, part)| {
            self.position(child, part);
        });
        rest.node(NodeKind::Chance, 0, 0, &st.after_hit, &edges)
    }

    /// Writes the subtree of state `id` at the cursor of `out`, children before parents.
    fn position_in_order(&self, id: u32, out: &mut Out<'_>) -> u32 {
        let st = self.shape.state(id);
        if st.table.is_terminal() {
            return out.node(NodeKind::Terminal, 0, self.payoff_row[id as usize], &st.counts, &[]);
        }
        let stand = self.position_in_order(st.stand, out);
        let hit = self.chance_in_order(id, out);
        out.decision(st.table.to_act, &st.counts, stand, hit)
    }

    /// Writes the chance node after a Hit at decision `id` at the cursor of `out`.
    fn chance_in_order(&self, id: u32, out: &mut Out<'_>) -> u32 {
        let st = self.shape.state(id);
        let mut edges = [(0 as Action, 0u32, 0u32); NUM_CARDS];
        for (k, card) in CARDS.enumerate() {
            let child = self.position_in_order(st.hit[k], out);
            edges[k] = (Action::from(card), child, u32::from(card == 10));
        }
        out.node(NodeKind::Chance, 0, 0, &st.after_hit, &edges)
    }
}

/// Builds the public tree of `game`, whose size `shape` has been checked.
pub fn build(game: &Blackjack, shape: &Shape) -> PublicTree {
    let total = shape.total();
    let (n, e, d) = (total.nodes as usize, total.edges as usize, total.decisions as usize);
    let i = d * NUM_CARDS;

    // Lanes in the generic game's deal order (P0's card, then P1's).
    let mut lane_prob = vec![0.0; NUM_LANES];
    let mut lane_names = vec![String::new(); NUM_LANES];
    let mut lane_maps = vec![0u16; 2 * NUM_LANES];
    for d0 in CARDS {
        for d1 in CARDS {
            let l = lane(d0, d1);
            lane_prob[l] = card_prob(d0) * card_prob(d1);
            lane_names[l] = format!("P0={d0} P1={d1}");
            lane_maps[l] = u16::from(d0 - 1); // map 0: P0 decides on its own down card
            lane_maps[NUM_LANES + l] = u16::from(d1 - 1); // map 1: P1 likewise
        }
    }
    // Chance rows: row 0 for cards 1..9, row 1 for tens.
    let mut prob_rows = vec![card_prob(1); NUM_LANES];
    prob_rows.extend(std::iter::repeat_n(card_prob(10), NUM_LANES));

    // Payoff rows, one per distinct payoff vector (player-major: P0's lanes, then P1's).
    let mut payoff_rows = Vec::new();
    let mut by_value: HashMap<Vec<u64>, u32> = HashMap::new();
    let mut payoff_row = vec![u32::MAX; shape.states().len()];
    for (id, st) in shape.states().iter().enumerate().filter(|(_, st)| st.table.is_terminal()) {
        let t = st.table;
        let mut row = vec![0.0; 2 * NUM_LANES];
        for d0 in CARDS {
            for d1 in CARDS {
                let [a, b] = t.payoffs(d0, d1);
                row[lane(d0, d1)] = a;
                row[NUM_LANES + lane(d0, d1)] = b;
            }
        }
        let next = by_value.len() as u32;
        let r = *by_value.entry(row.iter().map(|x| x.to_bits()).collect()).or_insert_with(|| {
            payoff_rows.extend_from_slice(&row);
            next
        });
        payoff_row[id] = r;
    }

    let mut kind = vec![NodeKind::Terminal; n];
    let mut player = vec![0u8; n];
    let mut first_edge = vec![0u32; n];
    let mut num_edges = vec![0u16; n];
    let mut aux = vec![0u32; n];
    let mut subtree_size = vec![0u32; n];
    let mut height = vec![0u16; n];
    let mut edge_child = vec![0u32; e];
    let mut edge_action = vec![0 as Action; e];
    let mut edge_prob_row = vec![0u32; e];
    let mut decisions = vec![DecisionInfo { base: 0, map: 0, slots: 0 }; d];
    let mut inf_player = vec![0u8; i];
    let mut inf_node = vec![0u32; i];
    let mut inf_offset = vec![0u32; i];
    let out = Out {
        node0: 0,
        edge0: 0,
        dec0: 0,
        n: 0,
        e: 0,
        d: 0,
        kind: &mut kind,
        player: &mut player,
        first_edge: &mut first_edge,
        num_edges: &mut num_edges,
        aux: &mut aux,
        subtree_size: &mut subtree_size,
        height: &mut height,
        edge_child: &mut edge_child,
        edge_action: &mut edge_action,
        edge_prob_row: &mut edge_prob_row,
        decisions: &mut decisions,
        inf_player: &mut inf_player,
        inf_node: &mut inf_node,
        inf_offset: &mut inf_offset,
    };
    let ctx = Ctx { shape, payoff_row };
    let mut writer = KeyWriter { shape, path: String::new(), key: String::new(), keys: KeyList::with_capacity(i, 0) };
    let (root, ()) = rayon::join(|| ctx.position(shape.root(), out), || writer.subtree(shape.root()));
    let keys = writer.keys;

    PublicTree {
        spec: game.spec_string(),
        num_players: 2,
        constant_sum: false,
        num_lanes: NUM_LANES,
        lane_prob,
        lane_names,
        deal_nodes: 1 + 10,
        shared_keys: false,
        root,
        kind,
        player,
        first_edge,
        num_edges,
        aux,
        subtree_size,
        height,
        edge_child,
        edge_action,
        edge_prob_row,
        prob_rows,
        payoff_rows,
        decisions,
        lane_maps,
        infosets: InfosetTable { keys, player: inf_player, node: inf_node, offset: inf_offset, total_actions: 2 * i },
    }
}

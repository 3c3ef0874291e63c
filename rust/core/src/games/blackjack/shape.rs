//! The shape of a Blackjack++ public tree, computed before anything large is allocated: node,
//! edge, decision and terminal counts of every public subtree, memoized by public state.
//!
//! Layout of the public tree (as [`compile`](crate::tree::compile) lays out the generic game):
//! a decision node has the edges Stand and Hit; Hit leads to a chance node with one edge per
//! card 1..10. Subtrees of equal public states (transpositions) are not merged, so counts
//! multiply while the memo stays small.

use super::rules::{Table, CARDS, NUM_CARDS};
use std::collections::HashMap;

/// Sizes of one public subtree. Arithmetic saturates, so absurd configurations give
/// `u64::MAX` instead of overflowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Public nodes (decision, chance and terminal).
    pub nodes: u64,
    /// Edges.
    pub edges: u64,
    /// Decision nodes (equal to the number of chance nodes: one per Hit).
    pub decisions: u64,
    /// Terminal nodes.
    pub terminals: u64,
    /// Height in nodes (1 for a terminal).
    pub height: u64,
}

impl Counts {
    fn add(&mut self, c: &Counts) {
        self.nodes = self.nodes.saturating_add(c.nodes);
        self.edges = self.edges.saturating_add(c.edges);
        self.decisions = self.decisions.saturating_add(c.decisions);
        self.terminals = self.terminals.saturating_add(c.terminals);
        self.height = self.height.max(c.height);
    }

    /// Node count the original's way: decision and terminal nodes, the root included, the
    /// Hit and its card merged into one edge (so chance nodes are not counted).
    pub fn original_nodes(&self) -> u64 {
        self.nodes - self.decisions
    }
}

/// A distinct public state (decision or terminal) with its subtree sizes and children.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// The public state.
    pub table: Table,
    /// Sizes of its subtree.
    pub counts: Counts,
    /// Sizes of the subtree of the chance node after a Hit (decisions only).
    pub after_hit: Counts,
    /// State id after Stand (decisions only).
    pub stand: u32,
    /// State id after Hit and card `c`, at index `c - 1` (decisions only).
    pub hit: [u32; NUM_CARDS],
}

/// Every distinct public state reachable from the start, numbered, with subtree sizes.
pub struct Shape {
    max_hits: u32,
    index: HashMap<Table, u32>,
    states: Vec<State>,
    root: u32,
}

impl Shape {
    /// Counts the tree that starts at `root` with the given hit limit (0 = none).
    pub fn new(root: Table, max_hits: u32) -> Shape {
        let mut s = Shape { max_hits, index: HashMap::new(), states: Vec::new(), root: 0 };
        s.root = s.visit(root);
        s
    }

    fn visit(&mut self, t: Table) -> u32 {
        if let Some(&id) = self.index.get(&t) {
            return id;
        }
        let leaf = Counts { nodes: 1, edges: 0, decisions: 0, terminals: 1, height: 1 };
        let mut st = State { table: t, counts: leaf, after_hit: Counts::default(), stand: 0, hit: [0; NUM_CARDS] };
        if !t.is_terminal() {
            let mut chance = Counts { nodes: 1, edges: NUM_CARDS as u64, ..Counts::default() };
            for card in CARDS {
                let child = self.visit(t.hit(card, self.max_hits));
                st.hit[card as usize - 1] = child;
                chance.add(&self.states[child as usize].counts);
            }
            chance.height += 1;
            st.stand = self.visit(t.stand());
            let mut d = Counts { nodes: 1, edges: 2, decisions: 1, ..Counts::default() };
            d.add(&self.states[st.stand as usize].counts);
            d.add(&chance);
            d.height += 1;
            st.counts = d;
            st.after_hit = chance;
        }
        let id = self.states.len() as u32;
        self.states.push(st);
        self.index.insert(t, id);
        id
    }

    /// The state with id `id`.
    #[inline]
    pub fn state(&self, id: u32) -> &State {
        &self.states[id as usize]
    }

    /// All distinct states, by id.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// Id of the start state.
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Counts of the whole tree.
    pub fn total(&self) -> Counts {
        self.states[self.root as usize].counts
    }
}

//! Traversals over per-player ranges for Blackjack++ trees: the [`Engine`] that
//! [`crate::cfr::Solver`] uses for this game (the games registry hands it over).
//!
//! A Blackjack++ lane is a pair of down cards, and everything after the deal is public and
//! independent of them: the chance probability of a public event is the same in every lane,
//! and a player's reach depends only on its own down card. So instead of 100 lane values per
//! node, a traversal carries the opponent's range (10 values: chance times opponent reach per
//! opponent down card) and the traverser's own reach (10 values), and returns the traverser's
//! counterfactual values (10 values). The arithmetic is the CFR walk's with sums in another
//! order, so iterates agree with the lane walk up to rounding.
//!
//! Terminals are showdowns. The terminals after one Hit (one per card drawn that ends the game)
//! are evaluated together, and every showdown is one 10 × 10 matrix-vector product: the matrix
//! holds the traverser's share of the pot per (own card, opponent card), summed over the ending
//! cards; showdowns with the same hands share their matrices (the 1.2 million terminals of (1,1)
//! with max_hits 3 come in about 1,300 distinct hand situations).
//!
//! Where the opponent's range is zero every value below is zero, so such subtrees only add the
//! traverser's reach-weighted policy to the average. With alternating updates each information
//! set is updated as soon as its regrets are final (its policy is not read again in that
//! traversal), which saves a second pass over the arrays.

use super::rules::{card_prob, Hand, Table, NUM_CARDS};
use super::shape::Shape;
use super::Blackjack;
use super::NUM_LANES;
use crate::cfr::{Disjoint, Engine, Step, Traversal};
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tree::{NodeKind, PublicTree};

/// A vector over one player's down cards.
pub type Range = [f64; NUM_CARDS];

/// Entries (information set × action) per decision node: 10 down cards × (Stand, Hit).
const ENTRIES: usize = NUM_CARDS * 2;

/// Subtrees with at least this many decision nodes walk their children in parallel.
const PARALLEL_DECISIONS: u32 = 1024;

/// Where an edge leads: a decision node (its decision index) or a showdown.
#[derive(Clone, Copy, Debug)]
enum Next {
    Decision(u32),
    Showdown(u32),
}

/// A decision node of the walk, at its decision index.
#[derive(Clone, Debug)]
struct Node {
    player: u8,
    stand: Next,
    /// Hit cards that lead to decision nodes: `hits[first_hit..first_hit + num_hits]`.
    first_hit: u32,
    num_hits: u8,
    /// The showdown of the Hit cards that end the game, if any.
    hit_showdown: Option<u32>,
    /// Decision nodes in this node's subtree, itself included: the decision indices
    /// `d + 1 - decisions..=d` (children come before parents).
    decisions: u32,
}

/// A showdown, or the terminals after one Hit evaluated together (one per card that ends the
/// game). For each traverser, a matrix gives the share of the pot won per own card and
/// opponent card, summed over the ending cards with their probabilities.
#[derive(Clone, Debug)]
struct Showdown {
    /// Index in [`RangeWalk::matrices`] of each player's matrix as the traverser.
    matrix: [u32; 2],
    /// Hits made (after the draw), and the pot.
    hits: [f64; 2],
    pot: f64,
    /// Probability of the ending cards (1 without a draw).
    chance: f64,
}

/// `m[10 * j + d]`: the traverser's share of the pot with own card `d` against opponent card
/// `j` (1 higher, 1/2 equal, 0 lower or both bust), summed over the ending cards.
type Matrix = [f64; NUM_CARDS * NUM_CARDS];

/// What a showdown matrix depends on: both hands' up cards, who drew, the set of cards that
/// end the game (bit `c - 1` for card `c`), and the traverser.
type MatrixKey = ([(u8, bool); 2], Option<u8>, u16, u8);

/// What [`RangeWalk::visit`] reads and fills while it walks the tree beside the game's shape.
struct Visit<'a> {
    tree: &'a PublicTree,
    shape: &'a Shape,
    max_hits: u32,
    /// The walk's node at each decision index, once read.
    nodes: Vec<Option<Node>>,
    /// Payoff rows already compared with the rules'.
    rows_checked: Vec<bool>,
}

impl Visit<'_> {
    /// Whether terminal `n`'s payoffs are the rules' for `table` in every lane (each distinct
    /// payoff row is compared once): the walk computes showdowns from the rules, so a tree
    /// with other payoffs must take the lane walk.
    fn check_payoffs(&mut self, n: usize, table: &Table) -> Option<()> {
        let row = self.tree.aux[n] as usize;
        if !*self.rows_checked.get(row)? {
            for lane in 0..NUM_LANES {
                let want = table.payoffs((lane / NUM_CARDS) as u8 + 1, (lane % NUM_CARDS) as u8 + 1);
                for (p, &w) in want.iter().enumerate() {
                    if self.tree.payoffs(n, p)[lane] != w {
                        return None;
                    }
                }
            }
            self.rows_checked[row] = true;
        }
        Some(())
    }
}

/// A Blackjack++ tree prepared for range traversals.
pub struct RangeWalk {
    nodes: Vec<Node>,
    /// (card probability, decision index) of the Hit edges that lead to decision nodes.
    hits: Vec<(f64, u32)>,
    showdowns: Vec<Showdown>,
    matrices: Vec<Matrix>,
    /// The matrix of each key (used while the walk is made).
    matrix_index: std::collections::HashMap<MatrixKey, u32>,
    root: u32,
    /// Probability of each down card.
    deal: Range,
    /// Information sets of each player: (offset of the first action, number of actions).
    pub sets_of: [Vec<(u32, u32)>; 2],
    /// Whether the CPU has AVX2 (then the walk runs its AVX2 variant).
    avx2: bool,
}

/// What one traversal reads and writes.
struct Pass<'a> {
    w: &'a RangeWalk,
    player: u8,
    weight: f64,
    policy: Disjoint,
    /// Where regret contributions go: the regrets, or the instantaneous regrets.
    contributions: Disjoint,
    regrets: Disjoint,
    instant: Disjoint,
    average: Disjoint,
    /// The update that ends the iteration for the traverser's information sets, applied as
    /// soon as each one's regrets are final (alternating updates), if any.
    update: Option<Step>,
    parallel: bool,
}

impl RangeWalk {
    /// Prepares `tree`, whose spec names a Blackjack++ game, if it is laid out as
    /// [`Blackjack::build`] lays it out (decision nodes with Stand and Hit, ten cards per Hit,
    /// down-card lanes, ten information sets per decision node in decision order); `None` for
    /// any other tree.
    pub fn for_tree(tree: &PublicTree) -> Option<RangeWalk> {
        let game = Blackjack::from_spec(&Spec::parse(&tree.spec).ok()?).ok()?;
        RangeWalk::new(tree, &game).ok()
    }

    /// Prepares `tree`, which must be `game`'s tree as [`Blackjack::build`] makes it.
    pub fn new(tree: &PublicTree, game: &Blackjack) -> Result<RangeWalk> {
        let bad = || {
            Error::invalid("tree", &tree.spec, format!("the tree Blackjack::build makes for {}", game.spec_string()))
        };
        if tree.num_lanes != NUM_LANES || tree.num_players != 2 {
            return Err(bad());
        }
        // Lane (d0, d1) = d0 * 10 + d1; slots are the acting player's own card.
        for (m, map) in tree.lane_maps.chunks_exact(NUM_LANES).enumerate() {
            if m > 1 || (0..NUM_LANES).any(|l| map[l] as usize != if m == 0 { l / NUM_CARDS } else { l % NUM_CARDS }) {
                return Err(bad());
            }
        }
        let mut sets_of = [vec![], vec![]];
        for (d, info) in tree.decisions.iter().enumerate() {
            if info.slots as usize != NUM_CARDS {
                return Err(bad());
            }
            for k in 0..NUM_CARDS {
                let set = info.base as usize + k;
                if tree.infosets.offset[set] as usize != d * ENTRIES + 2 * k || tree.infosets.num_actions(set) != 2 {
                    return Err(bad());
                }
                let p = tree.infosets.player[set] as usize;
                sets_of.get_mut(p).ok_or_else(bad)?.push((tree.infosets.offset[set], 2));
            }
        }
        let mut walk = RangeWalk {
            nodes: vec![],
            hits: vec![],
            showdowns: vec![],
            matrices: vec![],
            matrix_index: Default::default(),
            root: 0,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
            deal: std::array::from_fn(|k| card_prob(k as u8 + 1)),
            sets_of,
        };
        let shape = game.shape();
        let mut visit = Visit {
            tree,
            shape: &shape,
            max_hits: game.max_hits,
            nodes: vec![None; tree.decisions.len()],
            rows_checked: vec![false; tree.payoff_rows.len() / (2 * NUM_LANES)],
        };
        match walk.visit(&mut visit, tree.root as usize, shape.root()) {
            Some(Next::Decision(d)) => walk.root = d,
            _ => return Err(bad()),
        }
        walk.nodes = visit.nodes.into_iter().collect::<Option<Vec<_>>>().ok_or_else(bad)?;
        walk.matrix_index = Default::default();
        Ok(walk)
    }

    /// Reads the subtree of tree node `n` (public state `id` of the shape) into the walk;
    /// `None` where the tree does not have the builder's layout or the game's payoffs.
    fn visit(&mut self, v: &mut Visit<'_>, n: usize, id: u32) -> Option<Next> {
        let (tree, max_hits) = (v.tree, v.max_hits);
        let st = *v.shape.state(id);
        let table = st.table;
        if tree.kind[n] == NodeKind::Terminal && table.is_terminal() {
            v.check_payoffs(n, &table)?;
            let s = self.showdown(table.hands, None, [0.0; NUM_CARDS]);
            return Some(Next::Showdown(s));
        }
        if tree.kind[n] != NodeKind::Decision || table.is_terminal() || tree.num_edges[n] != 2 {
            return None;
        }
        let e = tree.edges(n);
        let chance = tree.edge_child[e.start + 1] as usize;
        if tree.kind[chance] != NodeKind::Chance || tree.num_edges[chance] as usize != NUM_CARDS {
            return None;
        }
        let stand = self.visit(v, tree.edge_child[e.start] as usize, st.stand)?;
        let mut hits = vec![];
        let mut ending = [0.0; NUM_CARDS];
        for (k, edge) in tree.edges(chance).enumerate() {
            let card = k as u8 + 1;
            if tree.edge_action[edge] != u32::from(card) {
                return None;
            }
            let after = table.hit(card, max_hits);
            if after.is_terminal() {
                let child = tree.edge_child[edge] as usize;
                if tree.kind[child] != NodeKind::Terminal {
                    return None;
                }
                v.check_payoffs(child, &after)?;
                ending[k] = card_prob(card);
            } else {
                match self.visit(v, tree.edge_child[edge] as usize, st.hit[k])? {
                    Next::Decision(d) => hits.push((card_prob(card), d)),
                    Next::Showdown(_) => return None,
                }
            }
        }
        let hit_showdown = ending.iter().any(|&q| q > 0.0).then(|| {
            let mut hands = table.hands;
            hands[table.to_act as usize].hits += 1;
            self.showdown(hands, Some(table.to_act), ending)
        });
        let d = tree.aux[n] as usize;
        let nodes = &mut v.nodes;
        if nodes.get(d)?.is_some() || tree.player[n] != table.to_act {
            return None;
        }
        let below = |c: u32| nodes[c as usize].as_ref().map_or(0, |c| c.decisions);
        let stand_decisions = if let Next::Decision(c) = stand { below(c) } else { 0 };
        let decisions = 1 + stand_decisions + hits.iter().map(|&(_, c)| below(c)).sum::<u32>();
        // The subtree's decisions must be the contiguous range that ends at this node's.
        let first = |n: Next| match n {
            Next::Decision(c) => c + 1 - below(c),
            Next::Showdown(_) => u32::MAX,
        };
        let lowest = hits.iter().map(|&(_, c)| first(Next::Decision(c))).chain([first(stand), d as u32]).min()?;
        if d as u32 + 1 - decisions != lowest {
            return None;
        }
        let first_hit = self.hits.len() as u32;
        self.hits.extend_from_slice(&hits);
        nodes[d] =
            Some(Node { player: table.to_act, stand, first_hit, num_hits: hits.len() as u8, hit_showdown, decisions });
        Some(Next::Decision(d as u32))
    }

    /// Adds the showdown of `hands` (for a Hit: the drawer's hand before the draw, with the
    /// hit counted) where the ending cards have probabilities `cards`.
    fn showdown(&mut self, hands: [Hand; 2], drawer: Option<u8>, cards: Range) -> u32 {
        let hits = [f64::from(hands[0].hits), f64::from(hands[1].hits)];
        let matrix = [0, 1].map(|player| self.matrix(hands, drawer, cards, player));
        let chance = if drawer.is_some() { cards.iter().sum() } else { 1.0 };
        self.showdowns.push(Showdown { matrix, hits, pot: 3.0 + hits[0] + hits[1], chance });
        (self.showdowns.len() - 1) as u32
    }

    /// The index of the showdown matrix for traverser `player` (made once per key).
    fn matrix(&mut self, hands: [Hand; 2], drawer: Option<u8>, cards: Range, player: u8) -> u32 {
        let ending = cards.iter().enumerate().fold(0u16, |m, (k, &q)| if q > 0.0 { m | 1 << k } else { m });
        let key: MatrixKey = (hands.map(|h| (h.up_sum, h.ace)), drawer, ending, player);
        if let Some(&i) = self.matrix_index.get(&key) {
            return i;
        }
        let (me, other) = (usize::from(player), usize::from(1 - player));
        let mut m = [0.0; NUM_CARDS * NUM_CARDS];
        let draws: Vec<(u8, f64)> = match drawer {
            Some(_) => (1..=NUM_CARDS as u8).map(|c| (c, cards[c as usize - 1])).filter(|x| x.1 > 0.0).collect(),
            None => vec![(0, 1.0)],
        };
        for (card, q) in draws {
            let with = |p: usize| if drawer == Some(p as u8) { card } else { 0 };
            let (mine, theirs) = (hand_values(&hands[me], with(me)), hand_values(&hands[other], with(other)));
            for (j, &t) in theirs.iter().enumerate() {
                for (d, &v) in mine.iter().enumerate() {
                    // Beat lower hands (bust is 0), split the pot with equal ones; bust never wins.
                    let share = if v == 0 || v < t {
                        0.0
                    } else if v == t {
                        0.5
                    } else {
                        1.0
                    };
                    m[NUM_CARDS * j + d] += q * share;
                }
            }
        }
        self.matrices.push(m);
        let i = (self.matrices.len() - 1) as u32;
        self.matrix_index.insert(key, i);
        i
    }

    /// The Hit edges of `node` that lead to decision nodes: (card probability, decision index).
    #[inline(always)]
    fn hit_children(&self, node: &Node) -> &[(f64, u32)] {
        &self.hits[node.first_hit as usize..][..usize::from(node.num_hits)]
    }

    /// The traverser's values at showdown `s` against the opponent's range `opp` (chance
    /// included), per own down card: the pot times the share won, less the own hits paid.
    #[inline(always)]
    fn showdown_values(&self, s: &Showdown, player: usize, opp: &Range) -> Range {
        let m = &self.matrices[s.matrix[player] as usize];
        let mut won = [0.0; NUM_CARDS];
        let mut total = 0.0;
        for (j, &r) in opp.iter().enumerate() {
            total += r;
            for (w, &x) in won.iter_mut().zip(&m[NUM_CARDS * j..NUM_CARDS * (j + 1)]) {
                *w += x * r;
            }
        }
        let paid = s.hits[player] * s.chance * total;
        for w in won.iter_mut() {
            *w = s.pot * *w - paid;
        }
        won
    }
}

impl Engine for RangeWalk {
    fn name(&self) -> &'static str {
        "ranges"
    }

    fn sets_of(&self, player: usize) -> &[(u32, u32)] {
        &self.sets_of[player]
    }

    fn updates_during_traversal(&self) -> bool {
        true
    }

    /// One traversal for `t.player` under the current policy: adds the counterfactual regrets
    /// (to the instantaneous regrets where the algorithm keeps them) and `t.weight` times the
    /// reach-weighted policy to the average. With `t.update`, also ends the iteration for the
    /// player's information sets (as [`Step::update`] would after the traversal: each one's
    /// policy is read only before its own update). `t.parallel` walks large subtrees on the
    /// current rayon pool; the numbers do not depend on it.
    fn traverse(&mut self, t: Traversal<'_>) {
        let a = t.arrays;
        let n = self.nodes.len() * ENTRIES;
        let instant = t.algorithm.uses_instant_regrets();
        assert!(a.policy.len() == n && a.regrets.len() == n && a.average.len() == n);
        assert_eq!(a.instant.len(), if instant { n } else { 0 });
        let regrets = Disjoint::new(a.regrets);
        let instant_d = Disjoint::new(a.instant);
        let pass = Pass {
            w: self,
            player: t.player as u8,
            weight: t.weight,
            policy: Disjoint::new(a.policy),
            contributions: if instant { instant_d } else { regrets },
            regrets,
            instant: instant_d,
            average: Disjoint::new(a.average),
            update: t.update,
            parallel: t.parallel,
        };
        pass.walk(self.root, &self.deal, &[1.0; NUM_CARDS]);
    }
}

/// Hand values per down card of `hand` with `card` added (0 for none).
fn hand_values(hand: &Hand, card: u8) -> [u8; NUM_CARDS] {
    let h = Hand { up_sum: hand.up_sum + card, ace: hand.ace || card == 1, ..*hand };
    std::array::from_fn(|k| h.value(k as u8 + 1))
}

// Small helpers, inlined into each instruction-set variant of the walk.

#[inline(always)]
fn scaled(x: &Range, by: &[f64], col: usize) -> Range {
    let mut out = [0.0; NUM_CARDS];
    for k in 0..NUM_CARDS {
        out[k] = x[k] * by[2 * k + col];
    }
    out
}

#[inline(always)]
fn any_nonzero(x: &Range) -> bool {
    x.iter().any(|&v| v != 0.0)
}

#[inline(always)]
fn add_scaled(out: &mut Range, q: f64, v: &Range) {
    for (o, x) in out.iter_mut().zip(v) {
        *o += q * x;
    }
}

impl Pass<'_> {
    /// Walks below decision `d`: `opp` is chance times the opponent's reach per opponent
    /// card, `own` the traverser's reach per own card; returns the traverser's counterfactual
    /// values per own card (without its own card's deal probability).
    fn walk(&self, d: u32, opp: &Range, own: &Range) -> Range {
        #[cfg(target_arch = "x86_64")]
        if self.w.avx2 {
            // SAFETY: the CPU has AVX2 (checked when the walk was made).
            return unsafe { self.walk_avx2(d, opp, own) };
        }
        self.walk_plain(d, opp, own)
    }

    #[inline(never)]
    fn walk_plain(&self, d: u32, opp: &Range, own: &Range) -> Range {
        self.node(d, opp, own)
    }

    /// The walk compiled for AVX2: the same operations card by card (no fused multiply-add),
    /// hence the same numbers, on wider vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn walk_avx2(&self, d: u32, opp: &Range, own: &Range) -> Range {
        self.node(d, opp, own)
    }

    /// The work at decision `d` (see [`Self::walk`]); inlined into each instruction-set variant.
    #[inline(always)]
    fn node(&self, d: u32, opp: &Range, own: &Range) -> Range {
        let node = &self.w.nodes[d as usize];
        if !any_nonzero(opp) {
            // The opponent never gets here: every value below is zero, so only the average
            // and the updates remain.
            self.reach_only(d, own);
            return [0.0; NUM_CARDS];
        }
        // The children's policies are far apart in memory: ask for them early.
        for &(_, c) in self.w.hit_children(node) {
            for line in [0, 8, 16] {
                self.policy.prefetch(c as usize * ENTRIES + line);
            }
        }
        let off = d as usize * ENTRIES;
        // SAFETY: decision `d`'s entries are read and written only by the walk of its own
        // subtree, and by nothing else during it.
        let pol: [f64; ENTRIES] = unsafe { self.policy.slice(off, ENTRIES) }.try_into().unwrap();
        let mine = node.player == self.player;
        // The acting player's reach splits between Stand and Hit.
        let acting = if mine { own } else { opp };
        let (after_stand, after_hit) = (scaled(acting, &pol, 0), scaled(acting, &pol, 1));
        let (stand, hit) = if mine {
            self.children(node, (opp, &after_stand), (opp, &after_hit))
        } else {
            self.children(node, (&after_stand, own), (&after_hit, own))
        };
        if !mine {
            let mut sum = stand;
            add_scaled(&mut sum, 1.0, &hit);
            return sum;
        }
        // SAFETY: as above.
        let regrets = unsafe { self.contributions.slice(off, ENTRIES) };
        let deal = &self.w.deal;
        let mut values = [0.0; NUM_CARDS];
        for k in 0..NUM_CARDS {
            let (p0, p1) = (pol[2 * k], pol[2 * k + 1]);
            let v = p0 * stand[k] + p1 * hit[k];
            regrets[2 * k] += deal[k] * (stand[k] - v);
            regrets[2 * k + 1] += deal[k] * (hit[k] - v);
            values[k] = v;
        }
        self.add_average(off, own, &pol);
        self.update_node(off);
        values
    }

    /// The walk below decision `d` where the opponent's range is zero: adds the traverser's
    /// reach-weighted policy to the average and updates, with no values to compute.
    fn reach_only(&self, d: u32, own: &Range) {
        let node = &self.w.nodes[d as usize];
        if !any_nonzero(own) {
            if self.update.is_some() {
                for x in d + 1 - node.decisions..=d {
                    if self.w.nodes[x as usize].player == self.player {
                        self.update_node(x as usize * ENTRIES);
                    }
                }
            }
            return;
        }
        let hits = self.w.hit_children(node);
        let stand = match node.stand {
            Next::Decision(c) => Some(c),
            Next::Showdown(_) => None,
        };
        let children = stand.into_iter().map(|c| (c, 0)).chain(hits.iter().map(|&(_, c)| (c, 1)));
        if node.player != self.player {
            children.for_each(|(c, _)| self.reach_only(c, own));
            return;
        }
        let off = d as usize * ENTRIES;
        // SAFETY: as in `node`.
        let pol: [f64; ENTRIES] = unsafe { self.policy.slice(off, ENTRIES) }.try_into().unwrap();
        let reach = [scaled(own, &pol, 0), scaled(own, &pol, 1)];
        self.add_average(off, own, &pol);
        children.for_each(|(c, a)| self.reach_only(c, &reach[a]));
        self.update_node(off);
    }

    /// Adds `weight` times the traverser's reach-weighted policy `pol` at the decision whose
    /// entries start at `off` to the average.
    #[inline(always)]
    fn add_average(&self, off: usize, own: &Range, pol: &[f64; ENTRIES]) {
        // SAFETY: as in `node`: this decision's entries belong to this walk alone.
        let average = unsafe { self.average.slice(off, ENTRIES) };
        for k in 0..NUM_CARDS {
            average[2 * k] += (self.weight * own[k]) * pol[2 * k];
            average[2 * k + 1] += (self.weight * own[k]) * pol[2 * k + 1];
        }
    }

    /// Ends the iteration for the information sets of the decision whose entries start at
    /// `off`, if this traversal updates.
    #[inline(always)]
    fn update_node(&self, off: usize) {
        let Some(step) = self.update else { return };
        // SAFETY: as in `walk`: this decision's entries belong to this walk alone.
        let (regrets, policy) = unsafe { (self.regrets.slice(off, ENTRIES), self.policy.slice(off, ENTRIES)) };
        let has_instant = !self.instant.is_empty();
        for k in 0..NUM_CARDS {
            let instant = if has_instant { unsafe { self.instant.slice(off + 2 * k, 2) } } else { &mut [][..] };
            step.update(&mut regrets[2 * k..2 * k + 2], instant, &mut policy[2 * k..2 * k + 2]);
        }
    }

    /// The values of the walk from `n` with the ranges (opponent's, own).
    #[inline(always)]
    fn next(&self, n: Next, (opp, own): (&Range, &Range)) -> Range {
        match n {
            Next::Decision(c) => self.walk(c, opp, own),
            Next::Showdown(s) => self.w.showdown_values(&self.w.showdowns[s as usize], self.player as usize, opp),
        }
    }

    /// The values after Stand and after Hit (chance included) of decision node `node`,
    /// walking the Stand child with the ranges `stand` and the Hit children with `hit`;
    /// large subtrees walk their children in parallel.
    #[inline(always)]
    fn children(&self, node: &Node, stand: (&Range, &Range), hit: (&Range, &Range)) -> (Range, Range) {
        let player = self.player as usize;
        let hits = self.w.hit_children(node);
        let mut hit_values = match node.hit_showdown {
            Some(s) => self.w.showdown_values(&self.w.showdowns[s as usize], player, hit.0),
            None => [0.0; NUM_CARDS],
        };
        if !self.parallel || node.decisions < PARALLEL_DECISIONS {
            let stand_values = self.next(node.stand, stand);
            for &(q, c) in hits {
                add_scaled(&mut hit_values, q, &self.walk(c, hit.0, hit.1));
            }
            return (stand_values, hit_values);
        }
        use rayon::prelude::*;
        let mut values = vec![[0.0; NUM_CARDS]; hits.len() + 1];
        values.par_iter_mut().enumerate().for_each(|(i, v)| {
            *v = if i == 0 { self.next(node.stand, stand) } else { self.walk(hits[i - 1].1, hit.0, hit.1) };
        });
        for (&(q, _), v) in hits.iter().zip(&values[1..]) {
            add_scaled(&mut hit_values, q, v);
        }
        (values[0], hit_values)
    }
}

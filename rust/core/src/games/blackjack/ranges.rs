//! Traversals over per-player ranges for Blackjack++ trees: the engine that
//! [`crate::cfr::Solver`] uses for this game.
//!
//! A Blackjack++ lane is a pair of down cards, and everything after the deal is public and
//! independent of them: the chance probability of a public event is the same in every lane,
//! and a player's reach depends only on its own down card. So instead of 100 lane values per
//! node, a traversal carries the opponent's range (10 values: chance times opponent reach per
//! opponent down card) and the traverser's own reach (10 values), and returns the traverser's
//! counterfactual values (10 values). The arithmetic is the CFR walk's with sums in another
//! order, so iterates agree with the lane walk up to rounding.
//!
//! Terminals are showdowns, evaluated by hand value rather than by pairs of down cards: the
//! opponent's range is bucketed by the opponent's hand value and prefix-summed, so each own
//! card's value is one lookup. The terminals after one Hit (one per card drawn) are evaluated
//! together: when the opponent drew, its buckets collect every card's hands before one prefix
//! sum; when the traverser drew, one set of buckets serves every card.

use super::build::NUM_LANES;
use super::rules::{card_prob, Hand, NUM_CARDS};
use super::shape::Shape;
use super::Blackjack;
use crate::cfr::walk::Disjoint;
use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tree::{NodeKind, PublicTree};

/// A vector over one player's down cards.
pub type Range = [f64; NUM_CARDS];

/// Entries (information set × action) per decision node: 10 down cards × (Stand, Hit).
const ENTRIES: usize = NUM_CARDS * 2;

/// Subtrees with at least this many decision nodes walk their children in parallel.
const PARALLEL_DECISIONS: u32 = 1024;

/// Hand values 0 (bust) and 4..=21, indexed directly.
const VALUES: usize = 22;

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
    /// Decision nodes in this node's subtree, itself included.
    decisions: u32,
}

/// A showdown: the hands, and for the terminals after a Hit, the drawing player and the
/// probabilities of the cards that end the game (zero for the others).
#[derive(Clone, Debug)]
struct Showdown {
    /// The hands at the terminal; for a Hit, the drawing player's hand before the draw.
    hands: [Hand; 2],
    /// Hits made (after the draw), and the pot.
    hits: [f64; 2],
    pot: f64,
    /// The player who drew, for terminals after a Hit.
    drawer: Option<u8>,
    cards: Range,
}

/// A Blackjack++ tree prepared for range traversals.
pub struct RangeWalk {
    nodes: Vec<Node>,
    /// (card probability, decision index) of the Hit edges that lead to decision nodes.
    hits: Vec<(f64, u32)>,
    showdowns: Vec<Showdown>,
    root: u32,
    /// Probability of each down card.
    deal: Range,
    /// Hand value per down card of each (up-card sum, ace) pair: index `2 * up_sum + ace`.
    values: Vec<[u8; NUM_CARDS]>,
    /// Information sets of each player: (offset of the first action, number of actions).
    pub sets_of: [Vec<(u32, u32)>; 2],
}

/// What one traversal reads and writes.
struct Pass<'a> {
    w: &'a RangeWalk,
    player: u8,
    weight: f64,
    policy: &'a [f64],
    regrets: Disjoint,
    average: Disjoint,
    parallel: bool,
}

impl RangeWalk {
    /// Prepares `tree` if it is a Blackjack++ tree laid out as [`Blackjack::build`] lays it
    /// out (decision nodes with Stand and Hit, ten cards per Hit, down-card lanes, ten
    /// information sets per decision node in decision order); `None` for any other tree.
    pub fn for_tree(tree: &PublicTree) -> Option<RangeWalk> {
        if !tree.spec.starts_with("blackjack") {
            return None;
        }
        let game = Blackjack::from_spec(&Spec::parse(&tree.spec).ok()?).ok()?;
        RangeWalk::new(tree, &game).ok()
    }

    /// Prepares `tree`, which must be `game`'s tree as [`Blackjack::build`] makes it.
    pub fn new(tree: &PublicTree, game: &Blackjack) -> Result<RangeWalk> {
        let bad =
            || Error::invalid("tree", &tree.spec, format!("the tree Blackjack::build makes for {}", game.spec_string()));
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
            root: 0,
            deal: std::array::from_fn(|k| card_prob(k as u8 + 1)),
            values: (0..64).map(|i| std::array::from_fn(|k| hand(i / 2, i % 2 == 1).value(k as u8 + 1))).collect(),
            sets_of,
        };
        let mut nodes = vec![None; tree.decisions.len()];
        let shape = game.shape();
        match walk.visit(tree, &shape, tree.root as usize, shape.root(), &mut nodes, game.max_hits) {
            Some(Next::Decision(d)) => walk.root = d,
            _ => return Err(bad()),
        }
        walk.nodes = nodes.into_iter().collect::<Option<Vec<_>>>().ok_or_else(bad)?;
        Ok(walk)
    }

    /// Reads the subtree of tree node `n` (public state `id` of `shape`) into the walk;
    /// `None` where the tree does not have the builder's layout.
    fn visit(
        &mut self,
        tree: &PublicTree,
        shape: &Shape,
        n: usize,
        id: u32,
        nodes: &mut Vec<Option<Node>>,
        max_hits: u32,
    ) -> Option<Next> {
        let st = *shape.state(id);
        let table = st.table;
        if tree.kind[n] == NodeKind::Terminal && table.is_terminal() {
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
        let stand = self.visit(tree, shape, tree.edge_child[e.start] as usize, st.stand, nodes, max_hits)?;
        let mut hits = vec![];
        let mut ending = [0.0; NUM_CARDS];
        for (k, edge) in tree.edges(chance).enumerate() {
            let card = k as u8 + 1;
            if tree.edge_action[edge] != u32::from(card) {
                return None;
            }
            let after = table.hit(card, max_hits);
            if after.is_terminal() {
                if tree.kind[tree.edge_child[edge] as usize] != NodeKind::Terminal {
                    return None;
                }
                ending[k] = card_prob(card);
            } else {
                match self.visit(tree, shape, tree.edge_child[edge] as usize, st.hit[k], nodes, max_hits)? {
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
        if nodes.get(d)?.is_some() || tree.player[n] != table.to_act {
            return None;
        }
        let below = |c: u32| nodes[c as usize].as_ref().map_or(0, |c| c.decisions);
        let stand_decisions = if let Next::Decision(c) = stand { below(c) } else { 0 };
        let decisions = 1 + stand_decisions + hits.iter().map(|&(_, c)| below(c)).sum::<u32>();
        let first_hit = self.hits.len() as u32;
        self.hits.extend_from_slice(&hits);
        nodes[d] = Some(Node {
            player: table.to_act,
            stand,
            first_hit,
            num_hits: hits.len() as u8,
            hit_showdown,
            decisions,
        });
        Some(Next::Decision(d as u32))
    }

    fn showdown(&mut self, hands: [Hand; 2], drawer: Option<u8>, cards: Range) -> u32 {
        let hits = [f64::from(hands[0].hits), f64::from(hands[1].hits)];
        let pot = 3.0 + hits[0] + hits[1];
        self.showdowns.push(Showdown { hands, hits, pot, drawer, cards });
        (self.showdowns.len() - 1) as u32
    }

    /// One traversal for `player` under `policy`: adds the counterfactual regrets to `regrets`
    /// and `weight` times the reach-weighted policy to `average` (both indexed like the
    /// tree's information sets' actions). `parallel` walks large subtrees on the current rayon
    /// pool; the numbers do not depend on it.
    pub fn traverse(
        &self,
        player: usize,
        weight: f64,
        policy: &[f64],
        regrets: &mut [f64],
        average: &mut [f64],
        parallel: bool,
    ) {
        let n = self.nodes.len() * ENTRIES;
        assert!(policy.len() == n && regrets.len() == n && average.len() == n);
        let pass = Pass {
            w: self,
            player: player as u8,
            weight,
            policy,
            regrets: Disjoint::new(regrets),
            average: Disjoint::new(average),
            parallel,
        };
        pass.walk(self.root, &self.deal, &[1.0; NUM_CARDS]);
    }

    /// Hand values per down card of `hand` with `card` added (0 for none).
    #[inline]
    fn hand_values(&self, hand: &Hand, card: u8) -> &[u8; NUM_CARDS] {
        let i = 2 * usize::from(hand.up_sum + card) + usize::from(hand.ace || card == 1);
        &self.values[i]
    }

    /// The traverser's values at showdown `s` against the opponent's range `opp` (chance
    /// included), per own down card.
    #[inline]
    fn showdown_values(&self, s: &Showdown, player: usize, opp: &Range) -> Range {
        let other = 1 - player;
        // The opponent's range by hand value, over every ending card when it drew.
        let mut eq = [0.0; VALUES];
        if s.drawer == Some(other as u8) {
            for (k, &q) in s.cards.iter().enumerate() {
                if q != 0.0 {
                    let values = self.hand_values(&s.hands[other], k as u8 + 1);
                    for (&v, &r) in values.iter().zip(opp) {
                        eq[v as usize] += q * r;
                    }
                }
            }
        } else {
            let values = self.hand_values(&s.hands[other], 0);
            for (&v, &r) in values.iter().zip(opp) {
                eq[v as usize] += r;
            }
        }
        // payoff[v]: the traverser's value with hand value v: beat lower hands (bust is 0),
        // split the pot with equal ones, pay the own hits; bust never wins.
        let mut payoff = [0.0; VALUES];
        let mut below = eq[0];
        for v in 1..VALUES {
            payoff[v] = s.pot * (below + 0.5 * eq[v]);
            below += eq[v];
        }
        let lost = s.hits[player] * below;
        let mut out = [0.0; NUM_CARDS];
        if s.drawer == Some(player as u8) {
            for (k, &q) in s.cards.iter().enumerate() {
                if q != 0.0 {
                    let values = self.hand_values(&s.hands[player], k as u8 + 1);
                    for (o, &v) in out.iter_mut().zip(values) {
                        *o += q * (payoff[v as usize] - lost);
                    }
                }
            }
        } else {
            let values = self.hand_values(&s.hands[player], 0);
            for (o, &v) in out.iter_mut().zip(values) {
                *o = payoff[v as usize] - lost;
            }
        }
        out
    }
}

/// The hand with up-card sum `up_sum` and `ace` (only its value per down card matters).
fn hand(up_sum: usize, ace: bool) -> Hand {
    Hand { up_sum: up_sum as u8, ace, hits: 0, done: true }
}

fn scaled(x: &Range, by: &[f64], col: usize) -> Range {
    std::array::from_fn(|k| x[k] * by[2 * k + col])
}

fn any_nonzero(x: &Range) -> bool {
    x.iter().any(|&v| v != 0.0)
}

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
        if !any_nonzero(opp) && !any_nonzero(own) {
            return [0.0; NUM_CARDS];
        }
        let node = &self.w.nodes[d as usize];
        let off = d as usize * ENTRIES;
        let pol = &self.policy[off..off + ENTRIES];
        let mine = node.player == self.player;
        let (stand_ranges, hit_ranges) = if mine {
            ((*opp, scaled(own, pol, 0)), (*opp, scaled(own, pol, 1)))
        } else {
            ((scaled(opp, pol, 0), *own), (scaled(opp, pol, 1), *own))
        };
        let (stand, hit) = self.children(node, stand_ranges, hit_ranges);
        if !mine {
            return std::array::from_fn(|k| stand[k] + hit[k]);
        }
        // SAFETY: decision `d`'s entries are written only by the walk of its own subtree.
        let regrets = unsafe { self.regrets.slice(off, ENTRIES) };
        let average = unsafe { self.average.slice(off, ENTRIES) };
        let deal = &self.w.deal;
        std::array::from_fn(|k| {
            let (p0, p1) = (pol[2 * k], pol[2 * k + 1]);
            let v = p0 * stand[k] + p1 * hit[k];
            regrets[2 * k] += deal[k] * (stand[k] - v);
            regrets[2 * k + 1] += deal[k] * (hit[k] - v);
            average[2 * k] += (self.weight * own[k]) * p0;
            average[2 * k + 1] += (self.weight * own[k]) * p1;
            v
        })
    }

    /// The values after Stand and after Hit (chance included) of decision node `node`,
    /// walking the Stand child with the ranges `stand` and the Hit children with `hit`;
    /// large subtrees walk their children in parallel.
    fn children(&self, node: &Node, stand: (Range, Range), hit: (Range, Range)) -> (Range, Range) {
        let player = self.player as usize;
        let next = |n: Next, (opp, own): &(Range, Range)| match n {
            Next::Decision(c) => self.walk(c, opp, own),
            Next::Showdown(s) => self.w.showdown_values(&self.w.showdowns[s as usize], player, opp),
        };
        let hits = &self.w.hits[node.first_hit as usize..][..usize::from(node.num_hits)];
        let mut hit_values = match node.hit_showdown {
            Some(s) => self.w.showdown_values(&self.w.showdowns[s as usize], player, &hit.0),
            None => [0.0; NUM_CARDS],
        };
        if !self.parallel || node.decisions < PARALLEL_DECISIONS {
            let stand_values = next(node.stand, &stand);
            for &(q, c) in hits {
                add_scaled(&mut hit_values, q, &self.walk(c, &hit.0, &hit.1));
            }
            return (stand_values, hit_values);
        }
        use rayon::prelude::*;
        let mut values = vec![[0.0; NUM_CARDS]; hits.len() + 1];
        values.par_iter_mut().enumerate().for_each(|(i, v)| {
            *v = if i == 0 { next(node.stand, &stand) } else { self.walk(hits[i - 1].1, &hit.0, &hit.1) };
        });
        for (&(q, _), v) in hits.iter().zip(&values[1..]) {
            add_scaled(&mut hit_values, q, v);
        }
        (values[0], hit_values)
    }
}

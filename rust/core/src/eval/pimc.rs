//! PIMC (Perfect Information Monte Carlo) policies of compiled games.
//!
//! For every information set of every player, PIMC takes as its *worlds* the histories in that
//! information set — each (public node, lane) of the information set — and weights each by the
//! chance probability of reaching it. Only chance is weighted: PIMC samples worlds from the
//! deals, not from what the opponents' actions reveal, so the opponents' policies do not enter
//! (this is what determinized search does in card games, and what makes it exploitable). Each
//! world is solved with perfect information: at every later decision the player to move takes
//! the action with the largest value for itself (minimax in two-player zero-sum games, max-n
//! otherwise). The policy picks, in each information set, the action with the largest
//! chance-weighted average value across the worlds, by default the lowest action index on ties
//! (a pure policy), or mixes the tied actions uniformly ([`PimcTies`]); either way it evaluates
//! like any other policy (best response, exploitability). Ties are common (in Leduc about one
//! information set in eight) and the rule matters: PIMC's Leduc exploitability is 13/30 with the
//! lowest index and 1/2 with uniform ties when later chance is averaged.
//!
//! Chance events after the world's decision are treated in one of two ways ([`PimcChance`]):
//! averaged at each chance node (expectimax), or fixed by the world: the world then also draws
//! every later chance outcome, and the perfect-information solver knows them all in advance.
//! Later chance outcomes are matched by position, as cards dealt from one shuffled deck: the
//! `k`-th chance event below the decision gets the world's `k`-th outcome whichever actions lead
//! to it (Leduc's board card, Blackjack's draws). Where that outcome is impossible at a chance
//! node (games whose later chance depends on the actions), that node is averaged instead. Every
//! sequence of later outcomes is enumerated for every world, so the fixed variant's cost grows
//! exponentially with the number of later chance events (milliseconds for Leduc).
//!
//! The textbook weakness of PIMC is *strategy fusion*: a world's solver may choose differently
//! in each world at a later decision that the player cannot tell the worlds apart at, so PIMC
//! overrates actions that lead to such decisions.

use crate::error::{Error, Result};
use crate::keying::Keying;
use crate::policy::TabularPolicy;
use crate::tree::{NodeKind, PublicTree, NO_SLOT};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// How PIMC's perfect-information solver treats chance events after a world's decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PimcChance {
    /// Each later chance node is averaged over its outcomes (expectimax).
    #[default]
    Expectation,
    /// The world fixes every later chance outcome and the solver sees them in advance.
    Fixed,
}

impl PimcChance {
    /// The names [`PimcChance::parse`] accepts, in variant order.
    pub const NAMES: [&'static str; 2] = ["expectation", "fixed"];

    /// The variant named `name` (`expectation` or `fixed`).
    pub fn parse(name: &str) -> Result<PimcChance> {
        match name {
            "expectation" => Ok(PimcChance::Expectation),
            "fixed" => Ok(PimcChance::Fixed),
            other => Err(Error::invalid("chance", other, format!("one of {}", Self::NAMES.join(", ")))),
        }
    }

    /// The variant's name.
    pub fn name(self) -> &'static str {
        match self {
            PimcChance::Expectation => Self::NAMES[0],
            PimcChance::Fixed => Self::NAMES[1],
        }
    }
}

/// How PIMC chooses among actions whose average values tie.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PimcTies {
    /// The lowest action index (a pure policy).
    #[default]
    Lowest,
    /// All tied actions with equal probability.
    Uniform,
}

impl PimcTies {
    /// The names [`PimcTies::parse`] accepts, in variant order.
    pub const NAMES: [&'static str; 2] = ["lowest", "uniform"];

    /// The variant named `name` (`lowest` or `uniform`).
    pub fn parse(name: &str) -> Result<PimcTies> {
        match name {
            "lowest" => Ok(PimcTies::Lowest),
            "uniform" => Ok(PimcTies::Uniform),
            other => Err(Error::invalid("ties", other, format!("one of {}", Self::NAMES.join(", ")))),
        }
    }

    /// The variant's name.
    pub fn name(self) -> &'static str {
        match self {
            PimcTies::Lowest => Self::NAMES[0],
            PimcTies::Uniform => Self::NAMES[1],
        }
    }
}

/// PIMC's evaluation of every information-set group (see [`pimc_values`]).
#[derive(Clone, Debug)]
pub struct PimcValues {
    /// Chance-weighted average perfect-information value of each (group, action), for the acting
    /// player; laid out like the keying's group-indexed action arrays.
    pub values: Vec<f64>,
    /// The chosen action index of each group.
    pub choice: Vec<u32>,
}

/// Relative margin below which two values count as tied (floating-point noise in sums of
/// products must not decide between actions that are equal).
const TIE: f64 = 1e-12;

/// Whether `v` is larger than `best` by more than the tie margin.
fn beats(v: f64, best: f64) -> bool {
    v > best + TIE * best.abs().max(1.0)
}

/// Index of the largest value, the lowest index among (near-)ties.
fn best_index(values: impl IntoIterator<Item = f64>) -> usize {
    let mut best: Option<(usize, f64)> = None;
    for (i, v) in values.into_iter().enumerate() {
        if best.is_none_or(|(_, b)| beats(v, b)) {
            best = Some((i, v));
        }
    }
    best.map_or(0, |b| b.0)
}

/// Subtrees at least this large visit their children in parallel (fixed chance does far more
/// work per node, so it splits much finer).
const SPLIT_EXPECTATION: u32 = 4096;
const SPLIT_FIXED: u32 = 32;

/// PIMC's action values and choices for every group of `keying` (information sets sharing a
/// key pool their worlds).
pub fn pimc_values(tree: &PublicTree, keying: &Keying, chance: PimcChance) -> Result<PimcValues> {
    if keying.group.len() != tree.infosets.len() {
        return Err(Error::invalid(
            "keying",
            keying.group.len(),
            format!("one group per information set of {} ({})", tree.spec, tree.infosets.len()),
        ));
    }
    let walk = Walk {
        tree,
        chance,
        split: if chance == PimcChance::Expectation { SPLIT_EXPECTATION } else { SPLIT_FIXED },
        q: (0..tree.infosets.total_actions).map(|_| AtomicU64::new(0)).collect(),
        weight: (0..tree.infosets.len()).map(|_| AtomicU64::new(0)).collect(),
    };
    walk.visit(tree.root as usize, &tree.lane_prob);
    let load = |cells: &[AtomicU64]| cells.iter().map(|c| f64::from_bits(c.load(Ordering::Relaxed))).collect();
    let q: Vec<f64> = load(&walk.q);
    let weight: Vec<f64> = load(&walk.weight);
    // Pool the members' sums in id order, so that the result does not depend on threads.
    let mut values = keying.gather(tree, &q);
    let mut choice = Vec::with_capacity(keying.len());
    for g in 0..keying.len() {
        let total: f64 = keying.members_of(g).iter().map(|&i| weight[i as usize]).sum();
        let row = &mut values[keying.offset[g] as usize..][..keying.num_actions(g)];
        if total > 0.0 {
            row.iter_mut().for_each(|v| *v /= total);
        }
        choice.push(best_index(row.iter().copied()) as u32);
    }
    Ok(PimcValues { values, choice })
}

/// The PIMC policy on `tree`'s information sets (action probabilities: 1 on the chosen action,
/// or shared among the tied best actions under [`PimcTies::Uniform`]), grouped by `keying` if
/// given, else by the tree's own keys.
pub fn pimc_probs(tree: &PublicTree, keying: Option<&Keying>, chance: PimcChance, ties: PimcTies) -> Result<Vec<f64>> {
    let own;
    let keying = match keying {
        Some(k) => k,
        None => {
            own = Keying::of_tree(tree)?;
            &own
        }
    };
    let v = pimc_values(tree, keying, chance)?;
    let mut per_group = vec![0.0; keying.total_actions];
    for (g, &c) in v.choice.iter().enumerate() {
        let o = keying.offset[g] as usize;
        let row = &v.values[o..o + keying.num_actions(g)];
        let out = &mut per_group[o..o + row.len()];
        match ties {
            PimcTies::Lowest => out[c as usize] = 1.0,
            PimcTies::Uniform => {
                let best = row[c as usize];
                let tied: Vec<usize> = (0..row.len()).filter(|&a| !beats(best, row[a])).collect();
                tied.iter().for_each(|&a| out[a] = 1.0 / tied.len() as f64);
            }
        }
    }
    Ok(keying.spread(tree, &per_group))
}

/// The PIMC policy of a compiled game under its own information-state keys.
pub fn pimc_policy(tree: &PublicTree, chance: PimcChance, ties: PimcTies) -> Result<TabularPolicy> {
    let keying = Keying::of_tree(tree)?;
    let probs = pimc_probs(tree, Some(&keying), chance, ties)?;
    if keying.is_identity() {
        return Ok(TabularPolicy::from_tree(tree, &probs));
    }
    // Members of a group share their probabilities; keep one entry per key.
    let per_group: Vec<f64> = (0..keying.len())
        .flat_map(|g| {
            let o = tree.infosets.offset[keying.members_of(g)[0] as usize] as usize;
            probs[o..o + keying.num_actions(g)].to_vec()
        })
        .collect();
    Ok(TabularPolicy::from_keying(tree, &keying, &per_group))
}

/// One pass over the public tree carrying the lanes' chance reach; every decision node records,
/// for each of its information sets, the reach-weighted sums of its worlds' action values.
struct Walk<'a> {
    tree: &'a PublicTree,
    chance: PimcChance,
    split: u32,
    /// Reach-weighted action-value sums per (information set, action), as f64 bits; each entry
    /// is written once, by the node that holds the information set.
    q: Vec<AtomicU64>,
    /// Total chance reach of each information set's worlds, as f64 bits.
    weight: Vec<AtomicU64>,
}

impl Walk<'_> {
    /// Visits the subtree of `n` with lane reach `w`. Under [`PimcChance::Expectation`] returns
    /// the perfect-information values below `n` (player-major, one per lane), else nothing.
    fn visit(&self, n: usize, w: &[f64]) -> Vec<f64> {
        let t = self.tree;
        let (l, np) = (t.num_lanes, t.num_players);
        let expect = self.chance == PimcChance::Expectation;
        if w.iter().all(|&x| x == 0.0) {
            return if expect { vec![0.0; np * l] } else { vec![] };
        }
        match t.kind[n] {
            NodeKind::Terminal if expect => (0..np).flat_map(|p| t.payoffs(n, p).iter().copied()).collect(),
            NodeKind::Terminal => vec![],
            NodeKind::Chance => {
                let children = self.map_edges(n, |e| {
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    let cw: Vec<f64> = w.iter().zip(probs).map(|(a, b)| a * b).collect();
                    self.visit(t.edge_child[e] as usize, &cw)
                });
                if !expect {
                    return vec![];
                }
                let mut out = vec![0.0; np * l];
                for (e, v) in t.edges(n).zip(&children) {
                    let probs = t.prob_row(t.edge_prob_row[e]);
                    for (k, x) in out.iter_mut().enumerate() {
                        *x += probs[k % l] * v[k];
                    }
                }
                out
            }
            NodeKind::Decision => {
                let children = self.map_edges(n, |e| self.visit(t.edge_child[e] as usize, w));
                let p = t.player[n] as usize;
                let na = children.len();
                // Each lane's action values for the player to move.
                let lane_values = |lane: usize| -> Vec<f64> {
                    if expect {
                        children.iter().map(|v| v[p * l + lane]).collect()
                    } else {
                        self.fixed_action_values(n, lane)
                    }
                };
                let d = &t.decisions[t.aux[n] as usize];
                let map = t.lane_map(d);
                let mut q = vec![0.0; d.slots as usize * na];
                let mut weight = vec![0.0; d.slots as usize];
                let mut best = vec![0usize; l];
                for lane in 0..l {
                    if map[lane] == NO_SLOT || w[lane] == 0.0 {
                        continue;
                    }
                    let s = map[lane] as usize;
                    let av = lane_values(lane);
                    weight[s] += w[lane];
                    for (a, v) in av.iter().enumerate() {
                        q[s * na + a] += w[lane] * v;
                    }
                    best[lane] = best_index(av);
                }
                for s in 0..d.slots as usize {
                    let i = (d.base as usize) + s;
                    self.weight[i].store(weight[s].to_bits(), Ordering::Relaxed);
                    let o = t.infosets.offset[i] as usize;
                    for a in 0..na {
                        self.q[o + a].store(q[s * na + a].to_bits(), Ordering::Relaxed);
                    }
                }
                if !expect {
                    return vec![];
                }
                // The world's solver follows the mover's best action in each lane.
                let mut out = vec![0.0; np * l];
                for (k, x) in out.iter_mut().enumerate() {
                    *x = children[best[k % l]][k];
                }
                out
            }
        }
    }

    /// Runs `f` over the edges of `n`, in parallel for large subtrees; results in edge order.
    fn map_edges(&self, n: usize, f: impl Fn(usize) -> Vec<f64> + Sync + Send) -> Vec<Vec<f64>> {
        let edges = self.tree.edges(n);
        if self.tree.subtree_size[n] >= self.split && rayon::current_num_threads() > 1 {
            edges.into_par_iter().map(f).collect()
        } else {
            edges.map(f).collect()
        }
    }

    /// Action values at decision `n` for its mover in `lane`, averaged over the later chance
    /// outcomes the world fixes, each known to the solver.
    fn fixed_action_values(&self, n: usize, lane: usize) -> Vec<f64> {
        let t = self.tree;
        let p = t.player[n] as usize;
        let mut worlds = Vec::new();
        self.chance_sequences(n, lane, &mut Vec::new(), 1.0, &mut worlds);
        let mut out = vec![0.0; t.num_edges[n] as usize];
        for (seq, pr) in &worlds {
            for (a, e) in t.edges(n).enumerate() {
                out[a] += pr * self.solve_fixed(t.edge_child[e] as usize, lane, seq, 0)[p];
            }
        }
        out
    }

    /// Enumerates the sequences of later chance outcomes below `n` in `lane` with their
    /// probabilities: the `k`-th outcome is drawn at the first chance node (depth first) that
    /// is the `k`-th chance event below `n` on a path consistent with the earlier outcomes.
    fn chance_sequences(&self, n: usize, lane: usize, seq: &mut Vec<u32>, pr: f64, out: &mut Vec<(Vec<u32>, f64)>) {
        let t = self.tree;
        match self.next_chance(n, lane, seq, 0) {
            None => out.push((seq.clone(), pr)),
            Some(c) => {
                for e in t.edges(c) {
                    let q = t.prob_row(t.edge_prob_row[e])[lane];
                    if q > 0.0 {
                        seq.push(t.edge_action[e]);
                        self.chance_sequences(n, lane, seq, pr * q, out);
                        seq.pop();
                    }
                }
            }
        }
    }

    /// The edges a chance node `c` follows in `lane` when the world fixes `outcome` there: that
    /// outcome's edge, or every possible edge where it is impossible.
    fn fixed_edges(&self, c: usize, lane: usize, outcome: Option<u32>) -> Vec<(usize, f64)> {
        let t = self.tree;
        let possible = || t.edges(c).map(|e| (e, t.prob_row(t.edge_prob_row[e])[lane])).filter(|&(_, q)| q > 0.0);
        match outcome.and_then(|o| possible().find(|&(e, _)| t.edge_action[e] == o)) {
            Some((e, _)) => vec![(e, 1.0)],
            None => possible().collect(),
        }
    }

    /// The first chance node (depth first) below `n` that is chance event number `seq.len()`
    /// on a path following `seq`, with `k` chance events passed so far.
    fn next_chance(&self, n: usize, lane: usize, seq: &[u32], k: usize) -> Option<usize> {
        let t = self.tree;
        match t.kind[n] {
            NodeKind::Terminal => None,
            NodeKind::Decision => t.edges(n).find_map(|e| self.next_chance(t.edge_child[e] as usize, lane, seq, k)),
            NodeKind::Chance if k == seq.len() => Some(n),
            NodeKind::Chance => self
                .fixed_edges(n, lane, Some(seq[k]))
                .into_iter()
                .find_map(|(e, _)| self.next_chance(t.edge_child[e] as usize, lane, seq, k + 1)),
        }
    }

    /// Every player's perfect-information value of node `n` in `lane` when the later chance
    /// outcomes are `seq` (`k` of them used so far).
    fn solve_fixed(&self, n: usize, lane: usize, seq: &[u32], k: usize) -> Vec<f64> {
        let t = self.tree;
        match t.kind[n] {
            NodeKind::Terminal => (0..t.num_players).map(|p| t.payoffs(n, p)[lane]).collect(),
            NodeKind::Decision => {
                let p = t.player[n] as usize;
                let children: Vec<Vec<f64>> =
                    t.edges(n).map(|e| self.solve_fixed(t.edge_child[e] as usize, lane, seq, k)).collect();
                let best = best_index(children.iter().map(|v| v[p]));
                children.into_iter().nth(best).unwrap_or_default()
            }
            NodeKind::Chance => {
                let mut out = vec![0.0; t.num_players];
                for (e, q) in self.fixed_edges(n, lane, seq.get(k).copied()) {
                    let v = self.solve_fixed(t.edge_child[e] as usize, lane, seq, k + 1);
                    out.iter_mut().zip(v).for_each(|(x, y)| *x += q * y);
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::best_response::{expected_values, exploitability};
    use crate::tree::TreeBuilder;

    const MODES: [(PimcChance, PimcTies); 4] = [
        (PimcChance::Expectation, PimcTies::Lowest),
        (PimcChance::Expectation, PimcTies::Uniform),
        (PimcChance::Fixed, PimcTies::Lowest),
        (PimcChance::Fixed, PimcTies::Uniform),
    ];

    /// Root values and choice of a tree's information set `key`.
    fn values_at(tree: &PublicTree, chance: PimcChance, key: &str) -> (Vec<f64>, u32) {
        let k = Keying::of_tree(tree).unwrap();
        let v = pimc_values(tree, &k, chance).unwrap();
        let g = k.keys.iter().position(|x| x == key).unwrap();
        let o = k.offset[g] as usize;
        (v.values[o..o + k.num_actions(g)].to_vec(), v.choice[g])
    }

    /// Two equally likely worlds the player cannot tell apart; A pays 0.6 in both, B leads to a
    /// choice where x pays 1 in world 1 and y in world 2. Player 1 never moves.
    fn strategy_fusion() -> PublicTree {
        let mut b = TreeBuilder::new("fusion", 2, true, vec![0.5, 0.5], vec!["w1".into(), "w2".into()]);
        let a = b.add_terminal(&[0.6, 0.6, -0.6, -0.6]);
        let x = b.add_terminal(&[1.0, 0.0, -1.0, 0.0]);
        let y = b.add_terminal(&[0.0, 1.0, 0.0, -1.0]);
        let second = b.add_decision(0, &[0, 0], vec!["B".into()], &[(0, x), (1, y)]);
        let root = b.add_decision(0, &[0, 0], vec!["root".into()], &[(0, a), (1, second)]);
        b.finish(root).unwrap()
    }

    #[test]
    fn strategy_fusion_makes_pimc_choose_the_wrong_action() {
        let tree = strategy_fusion();
        for (chance, ties) in MODES {
            let (root, choice) = values_at(&tree, chance, "root");
            assert_eq!((root, choice), (vec![0.6, 1.0], 1), "PIMC values B at 1 and picks it");
            let (second, _) = values_at(&tree, chance, "B");
            assert_eq!(second, vec![0.5, 0.5]);
            let probs = pimc_probs(&tree, None, chance, ties).unwrap();
            let v = expected_values(&tree, &probs).unwrap();
            assert!((v[0] - 0.5).abs() < 1e-12, "B is really worth 0.5: {v:?}");
            // A best response of player 0 gets 0.6, so (0.6 - 0.5) / 2.
            assert!((exploitability(&tree, &probs).unwrap() - 0.05).abs() < 1e-12);
        }
    }

    /// A pays 0.6; B leads to guessing a later fair coin, paying 1 when right.
    fn guess_coin() -> PublicTree {
        let mut b = TreeBuilder::new("coin", 2, true, vec![1.0], vec![String::new()]);
        let mut guess = Vec::new();
        for g in 0..2 {
            let pay: Vec<u32> = (0..2)
                .map(|c| if c == g { b.add_terminal(&[1.0, -1.0]) } else { b.add_terminal(&[0.0, 0.0]) })
                .collect();
            guess.push((g as u32, b.add_chance(&[(0, &[0.5], pay[0]), (1, &[0.5], pay[1])])));
        }
        let second = b.add_decision(0, &[0], vec!["guess".into()], &guess);
        let a = b.add_terminal(&[0.6, -0.6]);
        let root = b.add_decision(0, &[0], vec!["root".into()], &[(0, a), (1, second)]);
        b.finish(root).unwrap()
    }

    #[test]
    fn fixed_chance_is_known_to_later_decisions_in_advance() {
        let tree = guess_coin();
        assert_eq!(values_at(&tree, PimcChance::Expectation, "root"), (vec![0.6, 0.5], 0));
        assert_eq!(values_at(&tree, PimcChance::Fixed, "root"), (vec![0.6, 1.0], 1));
        // The decision just before the coin cannot know it under either variant.
        for chance in [PimcChance::Expectation, PimcChance::Fixed] {
            assert_eq!(values_at(&tree, chance, "guess"), (vec![0.5, 0.5], 0));
        }
    }

    #[test]
    fn names_parse_and_bad_names_are_refused() {
        for c in [PimcChance::Expectation, PimcChance::Fixed] {
            assert_eq!(PimcChance::parse(c.name()).unwrap(), c);
        }
        for t in [PimcTies::Lowest, PimcTies::Uniform] {
            assert_eq!(PimcTies::parse(t.name()).unwrap(), t);
        }
        let e = PimcChance::parse("sampled").unwrap_err().to_string();
        assert!(e.contains("\"sampled\"") && e.contains("expectation, fixed"), "{e}");
        let e = PimcTies::parse("random").unwrap_err().to_string();
        assert!(e.contains("\"random\"") && e.contains("lowest, uniform"), "{e}");
    }
}

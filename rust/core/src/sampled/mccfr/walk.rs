//! The sampled traversals over a compiled tree: external sampling and outcome sampling, each as
//! OpenSpiel's `ExternalSamplingMCCFRSolver::UpdateRegrets` and
//! `OutcomeSamplingMCCFRSolver::SampleEpisode` compute it, on dense arrays.
//!
//! A history of the compiled game is a public node and a lane (a private deal): at a decision
//! node the lane's information set is `base + slot`, a chance edge's probability is the lane's
//! entry of the edge's probability row, and a terminal's payoff the lane's entry of its payoff
//! row. A traversal draws its lane by the lanes' probabilities and keeps it to the end.

// Per-action arrays (strategies, values) are indexed side by side.
#![allow(clippy::needless_range_loop)]

use crate::cfr::regret_matching;
use crate::tree::{NodeKind, PublicTree};
use rand::Rng;
use rand_pcg::Pcg64;

/// Where a traversal reads regrets and writes updates.
pub(super) trait Tables {
    /// The cumulative regrets of the row at `row` (`n` actions).
    fn regrets(&self, row: usize, n: usize) -> &[f64];
    /// The row's regret and average-policy accumulators, to add this traversal's updates to.
    fn updates(&mut self, row: usize, n: usize) -> (&mut [f64], &mut [f64]);
}

/// Tables updated in place: the sequential algorithm, each update seen by what follows.
pub(super) struct Live<'a> {
    pub regrets: &'a mut [f64],
    pub average: &'a mut [f64],
}

impl Tables for Live<'_> {
    #[inline(always)]
    fn regrets(&self, row: usize, n: usize) -> &[f64] {
        &self.regrets[row..row + n]
    }
    #[inline(always)]
    fn updates(&mut self, row: usize, n: usize) -> (&mut [f64], &mut [f64]) {
        (&mut self.regrets[row..row + n], &mut self.average[row..row + n])
    }
}

/// One worker's updates of a round, kept apart from the tables (which stay as they were when
/// the round began) and added to them after the round: dense accumulators and the rows touched.
#[derive(Default)]
pub(super) struct Delta {
    regrets: Vec<f64>,
    average: Vec<f64>,
    /// Rows touched in this round (start, actions), in order of first touch.
    touched: Vec<(u32, u32)>,
    /// Whether the row starting at an entry was touched.
    marked: Vec<bool>,
    /// The worker's traversal scratch space.
    pub scratch: Vec<f64>,
}

impl Delta {
    /// Empty accumulators for tables of `len` entries.
    pub fn new(len: usize, scratch: usize) -> Delta {
        Delta {
            regrets: vec![0.0; len],
            average: vec![0.0; len],
            touched: Vec::new(),
            marked: vec![false; len],
            scratch: vec![0.0; scratch],
        }
    }

    /// Adds the round's updates to `regrets` and `average` and clears them.
    pub fn merge_into(&mut self, regrets: &mut [f64], average: &mut [f64]) {
        for &(row, n) in &self.touched {
            let (row, n) = (row as usize, n as usize);
            for i in row..row + n {
                regrets[i] += self.regrets[i];
                average[i] += self.average[i];
                self.regrets[i] = 0.0;
                self.average[i] = 0.0;
            }
            self.marked[row] = false;
        }
        self.touched.clear();
    }
}

/// Tables of a parallel round: regrets read as the round began, updates into a [`Delta`].
pub(super) struct Deferred<'a> {
    pub regrets: &'a [f64],
    pub delta: &'a mut Delta,
}

impl Tables for Deferred<'_> {
    #[inline(always)]
    fn regrets(&self, row: usize, n: usize) -> &[f64] {
        &self.regrets[row..row + n]
    }
    #[inline(always)]
    fn updates(&mut self, row: usize, n: usize) -> (&mut [f64], &mut [f64]) {
        let d = &mut *self.delta;
        if !d.marked[row] {
            d.marked[row] = true;
            d.touched.push((row as u32, n as u32));
        }
        (&mut d.regrets[row..row + n], &mut d.average[row..row + n])
    }
}

/// Scratch entries a traversal of `tree` needs: two per action on every level.
pub(super) fn scratch_len(tree: &PublicTree) -> usize {
    2 * tree.max_edges().max(1) * (tree.height[tree.root as usize] as usize + 1)
}

/// The index drawn by `u` in [0, 1) from the probabilities `p(0..n)`: the first whose
/// cumulative probability exceeds `u`, or the last with a positive probability when rounding
/// leaves `u` beyond the total.
#[inline(always)]
fn draw(n: usize, u: f64, p: impl Fn(usize) -> f64) -> usize {
    let mut acc = 0.0;
    let mut last = 0;
    for i in 0..n {
        let x = p(i);
        if x > 0.0 {
            acc += x;
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

/// A traversal of one tree: its arrays, the tables, the players.
pub(super) struct Walk<'a, T: Tables> {
    pub tree: &'a PublicTree,
    /// Start of each of the tree's information sets' rows in the tables.
    pub row: &'a [u32],
    pub tables: T,
    /// Outcome sampling's exploration (unused by external sampling).
    pub epsilon: f64,
    /// Whether an information set's row can recur below itself (rows shared by key): outcome
    /// sampling then re-reads its strategy after the subtree, as OpenSpiel does.
    pub may_revisit: bool,
}

impl<T: Tables> Walk<'_, T> {
    /// The chance edge of node `n` drawn by `u` for `lane`, and its probability.
    #[inline]
    fn chance(&self, n: usize, lane: usize, u: f64) -> (usize, f64) {
        let t = self.tree;
        let first = t.first_edge[n] as usize;
        let prob = |i: usize| t.prob_rows[t.edge_prob_row[first + i] as usize * t.num_lanes + lane];
        let i = draw(t.num_edges[n] as usize, u, prob);
        (first + i, prob(i))
    }

    /// The table row of `lane`'s information set at decision node `n`, and its actions.
    #[inline]
    fn row_of(&self, n: usize, lane: usize) -> (usize, usize) {
        let t = self.tree;
        let d = &t.decisions[t.aux[n] as usize];
        let slot = t.lane_maps[d.map as usize * t.num_lanes + lane];
        debug_assert_ne!(slot, crate::tree::NO_SLOT, "a sampled lane is present at its node");
        (self.row[(d.base + slot as u32) as usize] as usize, t.num_edges[n] as usize)
    }

    /// External sampling for `player` from node `n` in `lane`: every action of the player is
    /// explored, one of every other player's and one chance outcome sampled; the player's
    /// regrets get `v(a) - v`, and the next player's average the current strategy ("simple"
    /// averaging). Returns the player's sampled value.
    pub fn external(&mut self, n: usize, lane: usize, player: usize, rng: &mut Pcg64, scratch: &mut [f64]) -> f64 {
        let t = self.tree;
        match t.kind[n] {
            NodeKind::Terminal => t.payoff_rows[(t.aux[n] as usize * t.num_players + player) * t.num_lanes + lane],
            NodeKind::Chance => {
                let (e, _) = self.chance(n, lane, rng.gen());
                self.external(t.edge_child[e] as usize, lane, player, rng, scratch)
            }
            NodeKind::Decision => {
                let (row, na) = self.row_of(n, lane);
                let (sigma, rest) = scratch.split_at_mut(na);
                let regrets = self.tables.regrets(row, na);
                regret_matching(sigma, |i| regrets[i]);
                let first = t.first_edge[n] as usize;
                let actor = t.player[n] as usize;
                let v = if actor != player {
                    let a = draw(na, rng.gen(), |i| sigma[i]);
                    self.external(t.edge_child[first + a] as usize, lane, player, rng, rest)
                } else {
                    let (values, rest) = rest.split_at_mut(na);
                    let mut v = 0.0;
                    for a in 0..na {
                        values[a] = self.external(t.edge_child[first + a] as usize, lane, player, rng, rest);
                        v += sigma[a] * values[a];
                    }
                    let (regrets, _) = self.tables.updates(row, na);
                    for a in 0..na {
                        regrets[a] += values[a] - v;
                    }
                    v
                };
                // The player after the traverser: an opponent in two-player games, the
                // traverser itself in one-player games.
                if actor == (player + 1) % t.num_players {
                    let (_, average) = self.tables.updates(row, na);
                    for i in 0..na {
                        average[i] += sigma[i];
                    }
                }
                v
            }
        }
    }

    /// Outcome sampling for `player` from node `n` in `lane`: one action sampled everywhere,
    /// the player's by the ε-exploring strategy; `reach` holds the player's reach, the others'
    /// and chance's, and the sample's probability. Updates the player's regrets and average
    /// with importance weights; returns the sampled value estimate (already divided by the
    /// tail's sample probability).
    pub fn outcome(
        &mut self,
        n: usize,
        lane: usize,
        player: usize,
        rng: &mut Pcg64,
        reach: [f64; 3],
        scratch: &mut [f64],
    ) -> f64 {
        let t = self.tree;
        let [mine, others, sample] = reach;
        match t.kind[n] {
            NodeKind::Terminal => t.payoff_rows[(t.aux[n] as usize * t.num_players + player) * t.num_lanes + lane],
            NodeKind::Chance => {
                let (e, p) = self.chance(n, lane, rng.gen());
                self.outcome(t.edge_child[e] as usize, lane, player, rng, [mine, p * others, p * sample], scratch)
            }
            NodeKind::Decision => {
                let (row, na) = self.row_of(n, lane);
                let (sigma, rest) = scratch.split_at_mut(na);
                let regrets = self.tables.regrets(row, na);
                regret_matching(sigma, |i| regrets[i]);
                let first = t.first_edge[n] as usize;
                let mine_to_move = t.player[n] as usize == player;
                let eps = self.epsilon;
                let explore = |i: usize| eps * 1.0 / na as f64 + (1.0 - eps) * sigma[i];
                let (a, q) = if mine_to_move {
                    let a = draw(na, rng.gen(), explore);
                    (a, explore(a))
                } else {
                    let a = draw(na, rng.gen(), |i| sigma[i]);
                    (a, sigma[a])
                };
                let child_reach = if mine_to_move {
                    [mine * sigma[a], others, sample * q]
                } else {
                    [mine, others * sigma[a], sample * q]
                };
                let child = self.outcome(t.edge_child[first + a] as usize, lane, player, rng, child_reach, rest);
                // The sampled action's value estimate; the others' are 0 (no baseline).
                let sampled = child / q;
                let value = sigma[a] * sampled;
                if mine_to_move {
                    if self.may_revisit {
                        let regrets = self.tables.regrets(row, na);
                        regret_matching(sigma, |i| regrets[i]);
                    }
                    let cf_value = value * others / sample;
                    let (regrets, average) = self.tables.updates(row, na);
                    for i in 0..na {
                        let action_value = if i == a { sampled } else { 0.0 };
                        regrets[i] += action_value * others / sample - cf_value;
                    }
                    for i in 0..na {
                        average[i] += mine * sigma[i] / sample;
                    }
                }
                value
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::draw;

    #[test]
    fn draw_picks_by_cumulative_probability_and_skips_impossible_outcomes() {
        let p = [0.0, 0.25, 0.0, 0.75];
        assert_eq!(draw(4, 0.0, |i| p[i]), 1);
        assert_eq!(draw(4, 0.2499, |i| p[i]), 1);
        assert_eq!(draw(4, 0.25, |i| p[i]), 3);
        assert_eq!(draw(4, 0.999_999_999, |i| p[i]), 3);
        // Rounding that leaves the total below u still draws a possible outcome.
        let q = [0.3, 0.3, 0.3999999, 0.0];
        assert_eq!(draw(4, 0.99999999, |i| q[i]), 2);
    }
}

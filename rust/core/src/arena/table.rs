//! Tournaments: every pair of agents plays a match; the cross table shows each row agent's
//! result against each column agent.

use super::matches::{play_pair_tallied, PairResult, Progress};
use super::seating::Protocol;
use crate::error::{Error, Result};
use std::ops::Range;

/// The matches of a tournament and their cross table.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossTable {
    /// The agents' names, in the order given.
    pub names: Vec<String>,
    /// Each pair `(i, j)` with `i < j` and its match, A = agent `i`, B = agent `j`.
    pub pairs: Vec<(usize, usize, PairResult)>,
}

/// Plays every pair `(i, j)`, `i < j`, of `names.len()` agents: `play(i, j, deal, seatings)`
/// plays deal `deal` in every seating of `seatings`, agent `i` in the seats where a seating
/// holds 0 and agent `j` where it holds 1, and returns every seat's payoff per seating (see
/// [`play_pair_tallied`], `together` as there). `progress` hears of the games played in all
/// pairs.
#[allow(clippy::too_many_arguments)]
pub fn tournament(
    names: Vec<String>,
    protocol: Protocol,
    seats: usize,
    deals: Range<u64>,
    threads: usize,
    together: bool,
    progress: Progress,
    play: impl Fn(usize, usize, u64, &[Vec<u8>]) -> Result<Vec<Vec<i64>>> + Sync + Send,
) -> Result<CrossTable> {
    let n = names.len() as u64;
    let all_pairs = n * n.saturating_sub(1) / 2;
    let mut pairs = Vec::new();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let before = pairs.len() as u64;
            let mut of_all = |done: u64, per_pair: u64| progress(before * per_pair + done, all_pairs * per_pair);
            let r =
                play_pair_tallied(protocol, seats, deals.clone(), threads, 0, together, &mut of_all, |d, seatings| {
                    let games = play(i, j, d, seatings)?;
                    Ok(games.into_iter().map(|g| g.into_iter().map(|x| (x, 0)).collect()).collect())
                })?;
            pairs.push((i, j, r.pair));
        }
    }
    Ok(CrossTable { names, pairs })
}

/// Checks that `(i, j)` is a pair of a tournament of `agents` agents: `i < j < agents`.
pub fn check_pair(agents: usize, i: usize, j: usize) -> Result<()> {
    if i < j && j < agents {
        Ok(())
    } else {
        Err(Error::invalid("pair", format!("({i}, {j})"), format!("agents i < j of the {agents} agents")))
    }
}

impl CrossTable {
    /// Row agent `i`'s result per seat and game against column agent `j` (None on the diagonal).
    pub fn cell(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        self.pairs.iter().find_map(|(a, b, r)| match (*a == i && *b == j, *a == j && *b == i) {
            (true, _) => Some((r.a.mean, r.a.ci95)),
            (_, true) => Some((r.b.mean, r.b.ci95)),
            _ => None,
        })
    }

    /// Each agent's mean result over its matches (a row's mean).
    pub fn row_means(&self) -> Vec<f64> {
        (0..self.names.len())
            .map(|i| {
                let cells: Vec<f64> = (0..self.names.len()).filter_map(|j| self.cell(i, j)).map(|c| c.0).collect();
                if cells.is_empty() {
                    0.0
                } else {
                    cells.iter().sum::<f64>() / cells.len() as f64
                }
            })
            .collect()
    }

    /// The cross table as text: each row agent's result per seat and game against each column
    /// agent, `mean ± ci95`, and the row's mean.
    pub fn render(&self, unit: &str) -> String {
        let n = self.names.len();
        let cell_text = |i: usize, j: usize| match self.cell(i, j) {
            Some((m, ci)) => format!("{m:+.2} ± {ci:.2}"),
            None => "—".into(),
        };
        let w0 = self.names.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(8);
        let widths: Vec<usize> = (0..n)
            .map(|j| {
                (0..n).map(|i| cell_text(i, j).chars().count()).max().unwrap_or(0).max(self.names[j].chars().count())
            })
            .collect();
        let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
        let mut out = format!("{} ", pad(&format!("{unit}:"), w0));
        for (name, &w) in self.names.iter().zip(&widths) {
            out += &format!(" | {}", pad(name, w));
        }
        out += " | mean\n";
        for (i, (name, mean)) in self.names.iter().zip(self.row_means()).enumerate() {
            out += &format!("{} ", pad(name, w0));
            for (j, &w) in widths.iter().enumerate() {
                out += &format!(" | {}", pad(&cell_text(i, j), w));
            }
            out += &format!(" | {mean:+.2}\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_table_cells_are_both_sides_of_a_match() {
        // Agent k adds k to each of its seats and takes it from the others' (zero-sum).
        let mut last = (0, 0);
        let mut seen = |done, total| {
            last = (done, total);
            Ok(())
        };
        let names = vec!["x".into(), "y".into(), "z".into()];
        let t = tournament(names, Protocol::Halves, 4, 0..20, 2, true, &mut seen, |i, j, _, seatings| {
            let strength = |a: u8| if a == 0 { i as i64 } else { j as i64 };
            let game = |s: &Vec<u8>| {
                let total: i64 = s.iter().map(|&a| strength(a)).sum();
                s.iter().map(|&a| 4 * strength(a) - total).collect()
            };
            Ok(seatings.iter().map(game).collect())
        })
        .unwrap();
        assert_eq!(t.pairs.len(), 3);
        assert_eq!(last, (120, 120));
        let (m, _) = t.cell(0, 2).unwrap();
        assert_eq!(m, -4.0);
        assert_eq!(t.cell(2, 0).unwrap().0, 4.0);
        assert_eq!(t.cell(1, 1), None);
        assert_eq!(t.row_means(), [-3.0, 0.0, 3.0]);
        let text = t.render("cents");
        assert!(text.contains("+4.00 ± 0.00") && text.lines().count() == 4, "{text}");
    }
}

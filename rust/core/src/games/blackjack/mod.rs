//! Blackjack++: two players and a dealer, an infinite deck, one up card and one down card each
//! (see `specs/blackjack.md`).
//!
//! * [`rules`]: hand values, the Stand/Hit transitions and the payoffs on a compact public state;
//! * [`game`]: the game as a generic [`Game`](crate::game::Game) (slow to compile, used to check);
//! * [`shape`]: exact sizes of the public tree, computed before anything large is allocated;
//! * [`build`]: the direct parallel builder used by [`load`];
//! * [`ranges`]: CFR-family iterations over per-player ranges instead of deal lanes.
//!
//! The private deals (P0's and P1's down cards, 10 × 10 = 100 lanes) come before the first
//! decision; every later event (actions, hit cards) is public. An information set is a decision
//! node and the acting player's down card, so each decision node has 10 of them, slot `d - 1`
//! for down card `d`. The game is general-sum between P0 and P1 (the dealer, who never acts,
//! gets `3 - P0 - P1`).

pub mod build;
pub mod game;
pub mod ranges;
pub mod rules;
pub mod shape;

use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tree::{NodeKind, PublicTree};
use rules::{Table, NUM_CARDS};
use shape::{Counts, Shape};

/// A Blackjack++ configuration: the up cards of P0, P1 and the dealer, and the hit limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blackjack {
    /// Up cards of P0, P1 and the dealer (1 = ace, 10 = ten or face card). The dealer's is
    /// accepted and ignored: the dealer never plays.
    pub up: [u8; 3],
    /// Most hits a player may make; 0 means no limit.
    pub max_hits: u32,
}

/// Largest `max_hits` accepted (values from 19 on already mean "no limit": a player reaches
/// 20 in up cards after at most 19 hits).
pub const MAX_HITS_LIMIT: i64 = 255;

/// Lanes of a Blackjack++ tree: P0's down card × P1's down card.
pub const NUM_LANES: usize = NUM_CARDS * NUM_CARDS;

/// Bytes per decision node used to estimate memory before building: the node, its chance node
/// and their edges, 10 information sets with their keys (an end offset and about 16 bytes of
/// text each), and a solver's per-action arrays (four f64 per action).
const BYTES_PER_DECISION: u64 = 2 * 18 + 12 * 12 + 12 + 10 * (9 + 4 + 16) + 20 * 4 * 8;
/// Bytes per terminal node (node arrays and the edge into it).
const BYTES_PER_TERMINAL: u64 = 18 + 12;

impl Blackjack {
    /// Checks and stores a configuration: exactly three up cards, each in 1..=10, and
    /// `max_hits` in 0..=[`MAX_HITS_LIMIT`].
    pub fn new(up: &[i64], max_hits: i64) -> Result<Blackjack> {
        const NAMES: [&str; 3] = ["P0", "P1", "dealer"];
        if up.len() != 3 {
            let shown = up.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",");
            return Err(Error::invalid(
                "blackjack up cards",
                format!("[{shown}] ({} cards)", up.len()),
                "exactly 3 up cards: P0's, P1's and the dealer's, each in 1..=10",
            ));
        }
        let mut cards = [0u8; 3];
        for (k, &c) in up.iter().enumerate() {
            if !(1..=10).contains(&c) {
                return Err(Error::invalid(
                    format!("blackjack up card of {}", NAMES[k]),
                    c,
                    "a card value in 1..=10 (1 = ace, 10 = ten or face card)",
                ));
            }
            cards[k] = c as u8;
        }
        if !(0..=MAX_HITS_LIMIT).contains(&max_hits) {
            return Err(Error::invalid(
                "blackjack max_hits",
                max_hits,
                format!("an integer in 0..={MAX_HITS_LIMIT} (0 = no limit)"),
            ));
        }
        Ok(Blackjack { up: cards, max_hits: max_hits as u32 })
    }

    /// Reads `up=P0-P1-D` (default 6-6-2) and `max_hits=N` (default 1) from a spec.
    pub fn from_spec(spec: &Spec) -> Result<Blackjack> {
        spec.only(&["up", "max_hits"])?;
        let up = match spec.params.get("up") {
            None => vec![6, 6, 2],
            Some(v) => {
                v.split('-').map(|x| x.trim().parse::<i64>()).collect::<std::result::Result<Vec<_>, _>>().map_err(
                    |_| Error::invalid("blackjack.up", v, "3 card values in 1..=10 separated by '-', e.g. 6-6-2"),
                )?
            }
        };
        let max_hits = match spec.params.get("max_hits") {
            None => 1,
            Some(v) => v.parse::<i64>().map_err(|_| {
                Error::invalid("blackjack.max_hits", v, format!("an integer in 0..={MAX_HITS_LIMIT} (0 = no limit)"))
            })?,
        };
        Blackjack::new(&up, max_hits)
    }

    /// The canonical spec string, e.g. `blackjack(up=6-6-2,max_hits=1)`.
    pub fn spec_string(&self) -> String {
        format!("blackjack(up={}-{}-{},max_hits={})", self.up[0], self.up[1], self.up[2], self.max_hits)
    }

    /// The public state at the start.
    pub fn start(&self) -> Table {
        Table::new(self.up[0], self.up[1])
    }

    /// Exact sizes of the public tree (cheap: memoized by public state).
    pub fn shape(&self) -> Shape {
        Shape::new(self.start(), self.max_hits)
    }

    /// Estimated bytes to hold the tree and solve it, from its counts.
    pub fn estimated_bytes(counts: &Counts) -> u64 {
        counts
            .decisions
            .saturating_mul(BYTES_PER_DECISION)
            .saturating_add(counts.terminals.saturating_mul(BYTES_PER_TERMINAL))
    }

    /// Checks that the tree fits: node ids are 32-bit and the estimate of
    /// [`estimated_bytes`](Self::estimated_bytes) must be below `memory_bytes`.
    pub fn check_size(&self, counts: &Counts, memory_bytes: u64) -> Result<()> {
        let need = Self::estimated_bytes(counts);
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        if counts.nodes >= u64::from(u32::MAX) || counts.height >= u64::from(u16::MAX) || need > memory_bytes {
            let nodes =
                if counts.nodes == u64::MAX { "more than 1.8e19".to_string() } else { counts.nodes.to_string() };
            return Err(Error::TooLarge(format!(
                "{} has {nodes} public nodes ({} decision nodes) and would need about {:.1} GiB to build and \
                 solve, but {:.1} GiB of memory is available and at most {} nodes are supported; use a smaller max_hits",
                self.spec_string(),
                counts.decisions,
                gib(need),
                gib(memory_bytes),
                u32::MAX - 1
            )));
        }
        Ok(())
    }
}

/// The information-state key of a player holding `down` at the public node reached by `path`.
pub fn info_key(down: u8, path: &str) -> String {
    let mut k = String::with_capacity(3 + path.len());
    write_info_key(&mut k, down, path);
    k
}

/// Appends [`info_key`]`(down, path)` to `k`.
pub fn write_info_key(k: &mut String, down: u8, path: &str) {
    if down >= 10 {
        k.push(char::from(b'0' + down / 10));
    }
    k.push(char::from(b'0' + down % 10));
    k.push('|');
    k.push_str(path);
}

/// Memory available for a new tree: `MemAvailable` of `/proc/meminfo`, else 8 GiB.
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()).map(|kb| kb * 1024))
        })
        .unwrap_or(8 << 30)
}

/// Compiles `blackjack(up=P0-P1-D,max_hits=N)`.
pub fn load(spec: &Spec) -> Result<PublicTree> {
    Blackjack::from_spec(spec)?.build()
}

/// A decision node of a Blackjack++ tree as the original's strategy dump names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpNode {
    /// Public node id.
    pub node: u32,
    /// Acting player (0 or 1).
    pub player: u8,
    /// Directory path below the dump root: child keys (`s`, `h1`..`h10`) joined by `/`
    /// (empty at the root).
    pub path: String,
}

/// The decision nodes of a Blackjack++ tree in decision-index order, with their dump paths.
/// Works on any tree of this game (built directly or compiled from [`game`]).
pub fn dump_nodes(tree: &PublicTree) -> Result<Vec<DumpNode>> {
    if tree.num_lanes != NUM_LANES || !tree.spec.starts_with("blackjack") {
        return Err(Error::invalid("tree", &tree.spec, "a Blackjack++ tree"));
    }
    let mut out: Vec<Option<DumpNode>> = vec![None; tree.decisions.len()];
    let mut stack = vec![(tree.root, String::new())];
    while let Some((n, path)) = stack.pop() {
        let n_us = n as usize;
        match tree.kind[n_us] {
            NodeKind::Terminal => {}
            NodeKind::Chance => {
                for e in tree.edges(n_us) {
                    let sep = if path.is_empty() { "" } else { "/" };
                    stack.push((tree.edge_child[e], format!("{path}{sep}h{}", tree.edge_action[e])));
                }
            }
            NodeKind::Decision => {
                let edges = tree.edges(n_us);
                let sep = if path.is_empty() { "" } else { "/" };
                stack.push((tree.edge_child[edges.start], format!("{path}{sep}s")));
                stack.push((tree.edge_child[edges.start + 1], path.clone()));
                out[tree.aux[n_us] as usize] = Some(DumpNode { node: n, player: tree.player[n_us], path });
            }
        }
    }
    out.into_iter()
        .map(|x| x.ok_or_else(|| Error::Compile("a decision node unreachable from the root".into())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_configurations_with_clear_messages() {
        let e = Blackjack::new(&[6, 11, 2], 1).unwrap_err().to_string();
        assert!(e.contains("P1") && e.contains("11") && e.contains("1..=10"), "{e}");
        let e = Blackjack::new(&[0, 6, 2], 1).unwrap_err().to_string();
        assert!(e.contains("P0") && e.contains('0'), "{e}");
        let e = Blackjack::new(&[6, 6], 1).unwrap_err().to_string();
        assert!(e.contains("exactly 3") && e.contains("[6,6]"), "{e}");
        let e = Blackjack::new(&[6, 6, 2], -1).unwrap_err().to_string();
        assert!(e.contains("max_hits") && e.contains("-1") && e.contains("0 = no limit"), "{e}");
        let e = Blackjack::from_spec(&Spec::parse("blackjack(up=6-x-2)").unwrap()).unwrap_err().to_string();
        assert!(e.contains("6-x-2"), "{e}");
        let e = Blackjack::from_spec(&Spec::parse("blackjack(hits=2)").unwrap()).unwrap_err().to_string();
        assert!(e.contains("hits") && e.contains("max_hits"), "{e}");
    }

    #[test]
    fn spec_round_trips() {
        let g = Blackjack::from_spec(&Spec::parse("blackjack(up=1-10-3,max_hits=2)").unwrap()).unwrap();
        assert_eq!(g, Blackjack { up: [1, 10, 3], max_hits: 2 });
        assert_eq!(g.spec_string(), "blackjack(up=1-10-3,max_hits=2)");
        assert_eq!(
            Blackjack::from_spec(&Spec::parse("blackjack").unwrap()).unwrap().spec_string(),
            "blackjack(up=6-6-2,max_hits=1)"
        );
    }
}

//! A game given as an explicit history tree, as recorded by walking a game defined elsewhere
//! (a Python class, an OpenSpiel game). It implements [`Game`] over node indices, so the
//! generic compiler turns it into a public tree like any built-in game.

use crate::error::{Error, Result};
use crate::game::{Action, Game, Turn};

/// Kind of a recorded node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedKind {
    /// Chance node.
    Chance,
    /// Decision of the given player.
    Player(usize),
    /// Terminal.
    Terminal,
}

/// An explicit history tree. Node 0 is the root; node `n`'s children are
/// `children[first[n]..first[n] + count[n]]`, reached by `actions[..]` with (at chance nodes)
/// probabilities `probs[..]`.
#[derive(Clone, Debug, Default)]
pub struct RecordedGame {
    /// Spec string to report.
    pub spec: String,
    /// Number of players.
    pub num_players: usize,
    /// Kind of every node.
    pub kind: Vec<RecordedKind>,
    /// First edge of every node.
    pub first: Vec<u32>,
    /// Number of edges of every node.
    pub count: Vec<u32>,
    /// Child node of every edge.
    pub children: Vec<u32>,
    /// Action id of every edge.
    pub actions: Vec<Action>,
    /// Probability of every edge (chance nodes; 0 elsewhere).
    pub probs: Vec<f64>,
    /// Returns of every node, `num_players` each (used at terminals).
    pub returns: Vec<f64>,
    /// Information-state key of the acting player at decision nodes ("" elsewhere).
    pub keys: Vec<String>,
}

impl RecordedGame {
    /// Checks the tree's structure; names the first problem found.
    pub fn validate(&self) -> Result<()> {
        let n = self.kind.len();
        let bad = |msg: String| Err(Error::Compile(msg));
        if n == 0 {
            return bad("the game has no states".into());
        }
        if self.num_players == 0 {
            return bad("the game has no players".into());
        }
        for (name, len) in [("first", self.first.len()), ("count", self.count.len()), ("keys", self.keys.len())] {
            if len != n {
                return bad(format!("{name} has {len} entries for {n} nodes"));
            }
        }
        if self.returns.len() != n * self.num_players {
            return bad(format!(
                "returns have {} entries, expected {} ({} players × {n} nodes)",
                self.returns.len(),
                n * self.num_players,
                self.num_players
            ));
        }
        let e = self.children.len();
        if self.actions.len() != e || self.probs.len() != e {
            return bad("edge arrays differ in length".into());
        }
        for i in 0..n {
            let (f, c) = (self.first[i] as usize, self.count[i] as usize);
            if f + c > e || self.children[f..f + c].iter().any(|&ch| ch as usize >= n || ch as usize <= i) {
                return bad(format!("node {i} has bad children"));
            }
            match self.kind[i] {
                RecordedKind::Terminal if c != 0 => return bad(format!("terminal node {i} has children")),
                RecordedKind::Player(p) if p >= self.num_players => {
                    return bad(format!("node {i}: player {p} of {} players", self.num_players))
                }
                RecordedKind::Player(_) | RecordedKind::Chance if c == 0 => {
                    return bad(format!("node {i} has no legal actions"))
                }
                RecordedKind::Chance => {
                    let sum: f64 = self.probs[f..f + c].iter().sum();
                    if (sum - 1.0).abs() > 1e-9 || self.probs[f..f + c].iter().any(|&p| !(p > 0.0 && p <= 1.0)) {
                        return bad(format!(
                            "chance node {i}: probabilities must be in (0, 1] and sum to 1, they sum to {sum}"
                        ));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn edges(&self, s: u32) -> std::ops::Range<usize> {
        let f = self.first[s as usize] as usize;
        f..f + self.count[s as usize] as usize
    }
}

impl Game for RecordedGame {
    type State = u32;

    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn num_players(&self) -> usize {
        self.num_players
    }
    fn constant_sum(&self) -> bool {
        let np = self.num_players;
        let mut sums = (0..self.kind.len())
            .filter(|&i| self.kind[i] == RecordedKind::Terminal)
            .map(|i| self.returns[i * np..(i + 1) * np].iter().sum::<f64>());
        let first = sums.next().unwrap_or(0.0);
        sums.all(|s| (s - first).abs() < 1e-9)
    }
    fn initial_state(&self) -> u32 {
        0
    }
    fn turn(&self, s: &u32) -> Turn {
        match self.kind[*s as usize] {
            RecordedKind::Chance => Turn::Chance,
            RecordedKind::Player(p) => Turn::Player(p),
            RecordedKind::Terminal => Turn::Terminal,
        }
    }
    fn chance_outcomes(&self, s: &u32) -> Vec<(Action, f64)> {
        self.edges(*s).map(|e| (self.actions[e], self.probs[e])).collect()
    }
    fn legal_actions(&self, s: &u32) -> Vec<Action> {
        self.edges(*s).map(|e| self.actions[e]).collect()
    }
    fn child(&self, s: &u32, a: Action) -> u32 {
        let e = self.edges(*s).find(|&e| self.actions[e] == a).expect("child of a legal action");
        self.children[e]
    }
    fn returns(&self, s: &u32) -> Vec<f64> {
        let np = self.num_players;
        self.returns[*s as usize * np..(*s as usize + 1) * np].to_vec()
    }
    fn info_key(&self, s: &u32, _player: usize) -> String {
        self.keys[*s as usize].clone()
    }
    fn action_name(&self, _s: &u32, a: Action) -> String {
        a.to_string()
    }
}

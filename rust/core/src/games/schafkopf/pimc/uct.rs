//! `schafkopfrl-pimc:n=N,m=M`: SchafkopfRL's PIMC agent made faithful (spec §9 "PIMC(n, m)"),
//! the yardstick the other agents are measured against.
//!
//! Used for every decision (declarations, contra and retour, cards):
//! 1. `n` times: draw a world — the hidden hands dealt uniformly among the deals consistent with
//!    everything the seat has seen (the seed meant to but did not; see [`ExactWorlds`]) — and
//!    grow a fresh UCT tree of `m` iterations from the current state with the world's hands:
//!    * **selection**: at a node with untried actions, expand one chosen uniformly at random;
//!      else descend to the child maximising `avg_reward[p] + 1·sqrt(2·ln N_parent / n_child)`,
//!      `p` the seat to act at the parent, rewards in raw cents (so exploration barely counts);
//!    * **simulation**: from the new node (or a finished one), uniformly random legal actions
//!      to the end of the game, remaining declarations and doubling included;
//!    * **backup**: the payment vector is added to every node of the path and each node's
//!      visit count rises by one (the root's count only).
//! 2. The visit counts of the root's children are summed over the `n` trees; the action with the
//!    most visits is played, ties going to the first inserted: the first expanded in the first
//!    tree, then the first expanded in the second tree of those the first lacked, and so on.
//!
//! A decision with a single legal action plays it without searching (the search could choose
//! nothing else). Otherwise it draws one number from the seat's random stream; world `i` is
//! sampled, expanded and rolled out from the stream `(draw, i)` only, so the trees can grow on
//! any number of threads with the same result. The trees live in a reused arena per thread;
//! a rollout copies the node's [`Game`] and allocates nothing.

use super::super::actions::Action;
use super::super::agents::agent::random_member;
use super::super::agents::{Agent, Schafkopf};
use super::super::game::Game;
use super::super::view::View;
use super::worlds::Worlds;
use crate::error::{Error, Result};
use crate::search::Determinization;
use crate::spec::AgentOptions;
use crate::streams::stream;
use crate::threads;
use rand::Rng;
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// The agent's name in specs.
pub const NAME: &str = "schafkopfrl-pimc";
/// Largest `n` (worlds per decision) and `m` (UCT iterations per world).
pub const MAX_ITERATIONS: usize = 100_000;
/// Default worlds per decision.
pub const DEFAULT_N: usize = 10;
/// Default UCT iterations per world.
pub const DEFAULT_M: usize = 40;
/// The options accepted after `schafkopfrl-pimc:`.
pub const OPTIONS: &str = "comma-separated n=N (worlds per decision, 1 to 100000, default 10), m=M (UCT iterations \
                           per world, 1 to 100000, default 40) and threads=T (0 = all cores; default 1, since \
                           matches already play games in parallel), e.g. n=10,m=40";

/// Domain tag of the per-world streams ("uct").
const WORLD_STREAMS: u64 = 0x0075_6374;
/// No node (end of a child list).
const NONE: u32 = u32::MAX;

// ---------------------------------------------------------------------------------------------
// Worlds

/// Where the agent's worlds come from: a [`Determinization`] of one seat's view whose worlds are
/// complete games at the view's current state, every hand filled.
pub trait WorldSource: Send + Sync {
    /// The determinization of one view.
    type Worlds<'a>: Determinization<World = Game>
    where
        Self: 'a;
    /// The determinization of `view` (built once per decision, sampled `n` times).
    fn worlds<'a>(&'a self, view: &'a View<'a>) -> Result<Self::Worlds<'a>>;
}

/// The agent's worlds: exact and uniform over the deals consistent with the view ([`Worlds`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactWorlds;

impl WorldSource for ExactWorlds {
    type Worlds<'a> = Worlds;
    fn worlds<'a>(&'a self, view: &'a View<'a>) -> Result<Worlds> {
        Worlds::new(view)
    }
}

// ---------------------------------------------------------------------------------------------
// One UCT tree

/// A node of a UCT tree: the game after the path's actions and the statistics of the path.
#[derive(Clone, Copy, Debug)]
struct Node {
    game: Game,
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    /// Legal actions not expanded yet, as a mask over action ids.
    untried: u64,
    visits: u32,
    /// Sum of the payments of the rollouts through the node, per seat.
    rewards: [i64; 4],
    /// The action that leads here from the parent.
    action: u8,
}

impl Node {
    fn new(game: Game, parent: u32, action: u8) -> Node {
        Node {
            game,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            untried: game.legal_mask(),
            visits: 0,
            rewards: [0; 4],
            action,
        }
    }
}

thread_local! {
    /// The arena of each thread's trees, reused from tree to tree.
    static ARENA: RefCell<Vec<Node>> = const { RefCell::new(Vec::new()) };
}

/// A root child of a finished tree: its action, visits and summed payments per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootChild {
    /// The action from the root.
    pub action: Action,
    /// Iterations through it.
    pub visits: u32,
    /// Sum of the payments of those iterations, per seat (cents).
    pub rewards: [i64; 4],
}

/// Grows a UCT tree of `m` iterations from `world` (a game that is not finished), every random
/// choice from `rng`; returns the root's children in the order they were expanded.
pub fn uct_tree(world: &Game, m: usize, rng: &mut Pcg64) -> Result<Vec<RootChild>> {
    if world.finished() {
        return Err(Error::invalid("world", "a finished game", "a game with a seat to act"));
    }
    ARENA.with(|arena| {
        let mut nodes = arena.borrow_mut();
        nodes.clear();
        nodes.reserve(m + 1);
        nodes.push(Node::new(*world, NONE, 0));
        for _ in 0..m {
            iterate(&mut nodes, rng);
        }
        let mut children = Vec::new();
        let mut c = nodes[0].first_child;
        while c != NONE {
            let n = &nodes[c as usize];
            let action = Action::from_id(n.action).expect("tree actions are action ids");
            children.push(RootChild { action, visits: n.visits, rewards: n.rewards });
            c = n.next_sibling;
        }
        Ok(children)
    })
}

/// One UCT iteration: selection (with expansion), simulation, backup.
fn iterate(nodes: &mut Vec<Node>, rng: &mut Pcg64) {
    let mut v = 0usize;
    loop {
        let node = &nodes[v];
        let Some(p) = node.game.player() else { break };
        if node.untried != 0 {
            let id = random_member(node.untried, rng);
            let mut game = node.game;
            game.apply_legal(Action::from_id(id).expect("legal masks hold action ids"));
            let child = nodes.len() as u32;
            nodes.push(Node::new(game, v as u32, id));
            let parent = &mut nodes[v];
            parent.untried &= !(1u64 << id);
            if parent.last_child == NONE {
                parent.first_child = child;
            } else {
                let last = parent.last_child as usize;
                nodes[last].next_sibling = child;
            }
            nodes[v].last_child = child;
            v = child as usize;
            break;
        }
        // Fully expanded: every child has been visited at least once.
        let log_n = 2.0 * f64::from(node.visits).ln();
        let (mut best, mut best_value) = (NONE, f64::NEG_INFINITY);
        let mut c = node.first_child;
        while c != NONE {
            let child = &nodes[c as usize];
            let n = f64::from(child.visits);
            let value = child.rewards[p as usize] as f64 / n + (log_n / n).sqrt();
            if value > best_value {
                (best, best_value) = (c, value);
            }
            c = child.next_sibling;
        }
        v = best as usize;
    }
    let mut game = nodes[v].game;
    while !game.finished() {
        let id = random_member(game.legal_mask(), rng);
        game.apply_legal(Action::from_id(id).expect("legal masks hold action ids"));
    }
    let payments = game.returns();
    while v != 0 {
        let node = &mut nodes[v];
        node.visits += 1;
        for (sum, &x) in node.rewards.iter_mut().zip(&payments) {
            *sum += i64::from(x);
        }
        v = node.parent as usize;
    }
    nodes[0].visits += 1;
}

// ---------------------------------------------------------------------------------------------
// The agent

/// SchafkopfRL's PIMC(n, m) over the worlds of `S` (see the module documentation).
#[derive(Clone)]
pub struct SchafkopfRlPimc<S> {
    n: usize,
    m: usize,
    threads: usize,
    /// The pool the trees grow on; None to grow them on the calling thread.
    pool: Option<Arc<rayon::ThreadPool>>,
    source: S,
}

impl<S> std::fmt::Debug for SchafkopfRlPimc<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchafkopfRlPimc")
            .field("n", &self.n)
            .field("m", &self.m)
            .field("threads", &self.threads)
            .finish()
    }
}

/// The range check of `n` and `m`.
fn check_count(what: &str, value: usize) -> Result<usize> {
    if value == 0 || value > MAX_ITERATIONS {
        return Err(Error::invalid(format!("{NAME} {what}"), value, format!("an integer from 1 to {MAX_ITERATIONS}")));
    }
    Ok(value)
}

impl<S: WorldSource> SchafkopfRlPimc<S> {
    /// `n` worlds per decision, `m` UCT iterations per world (each 1..=[`MAX_ITERATIONS`]), the
    /// trees grown on `threads` threads (0 = `CFRKIT_NUM_THREADS` or all cores; decisions do not
    /// depend on it), the worlds drawn from `source`.
    pub fn new(n: usize, m: usize, threads: usize, source: S) -> Result<Self> {
        let n = check_count("n", n)?;
        let m = check_count("m", m)?;
        let t = threads::resolve(threads)?;
        let pool = if t > 1 { Some(Arc::new(threads::pool(t)?)) } else { None };
        Ok(SchafkopfRlPimc { n, m, threads: t, pool, source })
    }

    /// Worlds per decision.
    pub fn n(&self) -> usize {
        self.n
    }
    /// UCT iterations per world.
    pub fn m(&self) -> usize {
        self.m
    }
    /// Threads the trees grow on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Every root action's visits summed over the decision's `n` trees, in insertion order
    /// (the first tree's expansion order, then each later tree's new actions in its order).
    /// The viewing seat must be to act. Draws one number from `rng`.
    pub fn visits(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Action, u64)>> {
        if !view.to_act() {
            return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
        }
        let draw: u64 = rng.gen();
        let worlds = self.source.worlds(view)?;
        let flag = crate::stop::current();
        let tree = |i: usize| -> Result<Vec<RootChild>> {
            crate::stop::check(flag.as_deref())?;
            let mut rng = stream(draw, WORLD_STREAMS, i as u64, 0);
            let world = worlds.sample(&mut rng)?;
            if world.player() != Some(view.seat()) || world.legal_mask() != view.legal_mask() {
                return Err(Error::invalid(
                    "world",
                    format!("a world of seat {} at step {}", view.seat(), world.steps()),
                    "a world at the view's state (the same seat to act with the same legal actions)",
                ));
            }
            uct_tree(&world, self.m, &mut rng)
        };
        let trees: Vec<Vec<RootChild>> = match &self.pool {
            Some(pool) => pool.install(|| (0..self.n).into_par_iter().map(tree).collect::<Result<_>>())?,
            None => (0..self.n).map(tree).collect::<Result<_>>()?,
        };
        let mut sums: Vec<(Action, u64)> = Vec::new();
        for child in trees.iter().flatten() {
            match sums.iter_mut().find(|(a, _)| *a == child.action) {
                Some((_, v)) => *v += u64::from(child.visits),
                None => sums.push((child.action, u64::from(child.visits))),
            }
        }
        Ok(sums)
    }
}

/// The action with the most visits, ties to the first listed.
pub fn most_visited(visits: &[(Action, u64)]) -> Option<Action> {
    let mut best: Option<(Action, u64)> = None;
    for &(a, v) in visits {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((a, v));
        }
    }
    best.map(|(a, _)| a)
}

impl<S: WorldSource> Agent<Schafkopf> for SchafkopfRlPimc<S> {
    fn name(&self) -> String {
        format!("{NAME}:n={},m={}", self.n, self.m)
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let legal = view.legal_mask();
        if legal.count_ones() == 1 {
            return Ok(Action::from_id(legal.trailing_zeros() as u8).expect("legal masks hold action ids"));
        }
        let visits = self.visits(view, rng)?;
        most_visited(&visits).ok_or_else(|| Error::invalid("view", format!("seat {}", view.seat()), "a seat to act"))
    }
}

/// The agent of the options after `schafkopfrl-pimc:` (see [`OPTIONS`]; empty for the
/// defaults), its worlds exact ([`ExactWorlds`]).
pub fn from_options(args: &str) -> Result<SchafkopfRlPimc<ExactWorlds>> {
    let o = AgentOptions::parse(NAME, args, &["n", "m", "threads"], OPTIONS)?;
    let n = o.uint("n", DEFAULT_N as u64, 1, MAX_ITERATIONS as u64)? as usize;
    let m = o.uint("m", DEFAULT_M as u64, 1, MAX_ITERATIONS as u64)? as usize;
    let threads = threads::check(o.uint("threads", 1, 0, threads::MAX_THREADS as u64)?)?;
    SchafkopfRlPimc::new(n, m, threads, ExactWorlds)
}

#[cfg(test)]
mod tests {
    use super::super::super::actions::Phase;
    use super::super::super::deal::Deal;
    use super::super::super::rules::Rules;
    use super::*;
    use crate::cards::iter;
    use rand::SeedableRng;

    fn rng(seed: u64) -> Pcg64 {
        Pcg64::seed_from_u64(seed)
    }

    fn agent(n: usize, m: usize, threads: usize) -> SchafkopfRlPimc<ExactWorlds> {
        SchafkopfRlPimc::new(n, m, threads, ExactWorlds).unwrap()
    }

    /// Plays `game` on with uniformly random actions for `steps` decisions (or to the end).
    fn random_steps(game: &mut Game, steps: usize, rng: &mut Pcg64) {
        for _ in 0..steps {
            if game.finished() {
                break;
            }
            let id = random_member(game.legal_mask(), rng);
            game.apply_legal(Action::from_id(id).unwrap());
        }
    }

    /// Random positions with a choice to make, in every phase.
    fn positions(count: usize, seed: u64) -> Vec<Game> {
        let mut r = rng(seed);
        let mut out = Vec::new();
        let mut i = 0;
        while out.len() < count {
            let rules = if i % 2 == 0 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
            let mut g = Game::new(&Deal::random(&mut r), rules);
            let steps = r.gen_range(0..40);
            random_steps(&mut g, steps, &mut r);
            if !g.finished() && g.legal_mask().count_ones() > 1 {
                out.push(g);
            }
            i += 1;
        }
        out
    }

    #[test]
    fn decisions_are_reproducible_and_independent_of_threads() {
        let (one, two) = (agent(6, 25, 1), agent(6, 25, 2));
        for (k, g) in positions(40, 2).iter().enumerate() {
            let view = View::new(g, g.player().unwrap());
            let a = one.visits(&view, &mut rng(k as u64)).unwrap();
            assert_eq!(a, one.visits(&view, &mut rng(k as u64)).unwrap());
            assert_eq!(a, two.visits(&view, &mut rng(k as u64)).unwrap());
            assert_eq!(one.act(&view, &mut rng(k as u64)).unwrap(), two.act(&view, &mut rng(k as u64)).unwrap());
        }
    }

    /// Every action chosen is legal, in every phase of both rule sets; each phase is met.
    #[test]
    fn always_legal_in_every_phase() {
        let a = agent(3, 12, 1);
        let mut r = rng(3);
        let mut asked = [0usize; 5];
        for i in 0..120 {
            let rules = if i % 2 == 0 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
            let mut g = Game::new(&Deal::random(&mut r), rules);
            while let Some(p) = g.player() {
                let view = View::new(&g, p);
                let action = a.act(&view, &mut r).unwrap();
                assert!(g.is_legal(action), "{action:?} in {g:?}");
                asked[g.phase() as usize] += 1;
                // Half the time play the agent's action, else a random one (more contra and retour).
                if r.gen_bool(0.5) {
                    g.apply_legal(action);
                } else {
                    random_steps(&mut g, 1, &mut r);
                }
            }
        }
        for phase in [Phase::Bidding, Phase::Contra, Phase::Retour, Phase::Tricks] {
            assert!(asked[phase as usize] > 20, "{phase:?}: {asked:?}");
        }
    }

    /// Each tree has `m` iterations through the root's children; the agent's visits are the
    /// trees' summed in insertion order, and its action the first of the most visited.
    #[test]
    fn visits_are_summed_over_trees_in_insertion_order() {
        for (k, g) in positions(30, 4).iter().enumerate() {
            let view = View::new(g, g.player().unwrap());
            let legal = g.legal_mask().count_ones() as usize;
            for m in [1, legal.saturating_sub(1).max(1), legal, 30] {
                let a = agent(4, m, 1);
                let got = a.visits(&view, &mut rng(k as u64)).unwrap();
                // The same trees by hand.
                let draw: u64 = rng(k as u64).gen();
                let worlds = Worlds::new(&view).unwrap();
                let mut want: Vec<(Action, u64)> = Vec::new();
                for i in 0..4 {
                    let mut s = stream(draw, WORLD_STREAMS, i, 0);
                    let w = worlds.sample(&mut s).unwrap();
                    let tree = uct_tree(&w, m, &mut s).unwrap();
                    assert_eq!(tree.iter().map(|c| c.visits as usize).sum::<usize>(), m);
                    assert_eq!(tree.len(), m.min(legal), "each child expanded once before any is revisited");
                    for c in tree {
                        assert!(g.is_legal(c.action));
                        match want.iter_mut().find(|(x, _)| *x == c.action) {
                            Some((_, v)) => *v += u64::from(c.visits),
                            None => want.push((c.action, u64::from(c.visits))),
                        }
                    }
                }
                assert_eq!(got, want);
                assert_eq!(got.iter().map(|x| x.1).sum::<u64>(), 4 * m as u64);
                let best = got.iter().map(|x| x.1).max().unwrap();
                let chosen = a.act(&view, &mut rng(k as u64)).unwrap();
                assert_eq!(chosen, got.iter().find(|x| x.1 == best).unwrap().0);
                if m == legal {
                    // Every action once per tree: all tied, the first expanded in the first tree wins.
                    assert!(got.iter().all(|x| x.1 == 4));
                    assert_eq!(chosen, got[0].0);
                }
            }
        }
    }

    #[test]
    fn most_visited_takes_the_first_of_ties() {
        let (x, y, z) = (Action::Card(3), Action::Card(1), Action::Card(2));
        assert_eq!(most_visited(&[(x, 2), (y, 5), (z, 5)]), Some(y));
        assert_eq!(most_visited(&[(z, 4), (x, 4)]), Some(z));
        assert_eq!(most_visited(&[]), None);
    }

    /// A world source that always gives one game (the worlds fixed).
    struct Fixed(Game);
    struct FixedWorld(Game);
    impl Determinization for FixedWorld {
        type World = Game;
        fn sample(&self, _: &mut Pcg64) -> Result<Game> {
            Ok(self.0)
        }
    }
    impl WorldSource for Fixed {
        type Worlds<'a> = FixedWorld;
        fn worlds<'a>(&'a self, _: &'a View<'a>) -> Result<FixedWorld> {
            Ok(FixedWorld(self.0))
        }
    }

    /// Every seat's payment under perfect play, each seat maximising its own payment (partners
    /// are paid alike and opponents the opposite, so this is the two teams' minimax).
    fn exhaustive(g: &Game) -> [i32; 4] {
        let Some(p) = g.player() else { return g.returns() };
        let mut best: Option<[i32; 4]> = None;
        for id in iter(g.legal_mask()) {
            let mut h = *g;
            h.apply_legal(Action::from_id(id).unwrap());
            let v = exhaustive(&h);
            if best.is_none_or(|b| v[p as usize] > b[p as usize]) {
                best = Some(v);
            }
        }
        best.unwrap()
    }

    /// With the world fixed and many iterations, the agent plays a card that exhaustive search
    /// says is best, on endgames of the last two tricks where what follows its card is forced
    /// or up to the other team (whose random rollouts only flatter the agent's averages, which
    /// UCT then corrects: with raw-cent rewards its own team's random errors would not be).
    #[test]
    fn endgames_with_many_iterations_play_the_exhaustive_best() {
        let mut r = rng(6);
        let mut tested = 0;
        while tested < 25 {
            let rules = if tested % 2 == 0 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
            let mut g = Game::new(&Deal::random(&mut r), rules);
            while !g.finished() && (g.tricks_done() < 6 || g.current_trick().len() < 1 + tested % 3) {
                random_steps(&mut g, 1, &mut r);
            }
            let (Some(p), Some(contract), Some(declarer)) = (g.player(), g.contract(), g.declarer()) else { continue };
            if g.tricks_done() != 6 {
                continue;
            }
            let called = contract.called_ace().map_or(0, |a| 1u64 << a);
            let team = |s: u8| s == declarer || g.dealt(s) & called != 0;
            let later = (g.current_trick().len() + 1..4).map(|i| g.seat_of(6, i));
            if later.clone().any(|s| team(s) == team(p)) {
                continue;
            }
            let values: Vec<(Action, i32)> = iter(g.legal_mask())
                .map(|id| {
                    let a = Action::from_id(id).unwrap();
                    let mut h = g;
                    h.apply_legal(a);
                    (a, exhaustive(&h)[p as usize])
                })
                .collect();
            let best = values.iter().map(|x| x.1).max().unwrap();
            if values.iter().all(|x| x.1 == best) {
                continue;
            }
            let a = SchafkopfRlPimc::new(2, 3000, 1, Fixed(g)).unwrap();
            let view = View::new(&g, p);
            let chosen = a.act(&view, &mut r).unwrap();
            let value = values.iter().find(|x| x.0 == chosen).unwrap().1;
            assert_eq!(value, best, "{chosen:?} of {values:?} in {g:?}");
            tested += 1;
        }
    }

    #[test]
    fn options_parse_and_bad_ones_are_refused() {
        let a = from_options("").unwrap();
        assert_eq!((a.n(), a.m(), a.threads(), a.name()), (10, 40, 1, "schafkopfrl-pimc:n=10,m=40".to_string()));
        let a = from_options(" m = 7 , n=3,threads=2").unwrap();
        assert_eq!((a.n(), a.m(), a.threads()), (3, 7, 2));
        assert_eq!(from_options("n=100000,m=1").unwrap().n(), 100_000);
        for (bad, says) in [
            ("n=0", "n"),
            ("m=100001", "100001"),
            ("m=-1", "-1"),
            ("n=ten", "ten"),
            ("n=1,n=2", "each option once"),
            ("worlds=4", "worlds"),
            ("n", "n=N"),
            ("threads=5000", "threads"),
        ] {
            let e = from_options(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(SchafkopfRlPimc::new(0, 1, 1, ExactWorlds).is_err());
        assert!(SchafkopfRlPimc::new(1, MAX_ITERATIONS + 1, 1, ExactWorlds).is_err());
    }

    #[test]
    fn single_actions_and_views_not_to_act() {
        let a = agent(2, 5, 1);
        let mut g = Game::new(&Deal::random(&mut rng(7)), Rules::SCHAFKOPFRL);
        let p = g.player().unwrap();
        assert!(a.visits(&View::new(&g, (p + 1) % 4), &mut rng(0)).is_err());
        // Through the auction to the contra round: the declarer may only say no.
        let mut r = rng(8);
        while g.phase() == Phase::Bidding {
            random_steps(&mut g, 1, &mut r);
        }
        let d = g.declarer().unwrap();
        while g.player() != Some(d) {
            g.apply_legal(Action::Double(false));
        }
        assert_eq!(a.act(&View::new(&g, d), &mut rng(0)).unwrap(), Action::Double(false));
    }
}

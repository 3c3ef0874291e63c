//! Training the baseline Setback deal game (spec §2.1, §3.1) and the bootstrap auction game
//! (§2.9, see [`super::bootstrap`]; chance-sampled CFR over a random deal and game score).
//!
//! * `cs-cfr` — chance-sampled CFR as the original (Cfrm) does it: one random deal per
//!   iteration, full traversal of both teams' abstract actions, plain regret matching (uniform
//!   when no regret is positive), simultaneous updates applied immediately, single-action nodes
//!   skipped without a key, subtrees where both teams' reach is 0 skipped.
//!   The walk is depth-first with every update applied at once (Cfrm 3.0).
//! * `cs-cfr-2x` — the same with Cfrm 2.x's write-back of each infoset after its subtree, which
//!   loses same-key updates made inside the subtree; the original's published numbers
//!   (specs/setback.md §3.4) were trained with Cfrm 2.x.
//! * `cs-cfr-merged` — a faster variant: bid sequences that end in the same (high bid, bidder)
//!   lead to the same playout state (up to 20 sequences end in the dealer's Four), so each such
//!   state is walked once with the reach probabilities of its sequences summed. For fixed
//!   strategies that is the same update; but the depth-first walk re-reads the strategies
//!   between sequences, so the learning dynamics differ (measured: a lower non-dealer root
//!   value after 100k deals, see the bench notes), and it is not the original's algorithm.
//! * `es-mccfr` — external-sampling MCCFR on the same deal: for each team in turn, its actions are
//!   all explored and the other team's are sampled from the current strategy.
//!
//! Iterations run in parallel over deals on a rayon pool; all threads update one [`Table`] in
//! place. Deal `i` is drawn from a generator seeded by `(seed, i)`, so a resumed run continues
//! the random stream exactly and never replays a deal; with one thread a run is bit-for-bit
//! reproducible however it is split into calls or resumed.

// Per-action arrays (strategy, values) are indexed side by side.
#![allow(clippy::needless_range_loop)]

use super::abstraction::{actions, fill_actions, Action, Actions};
use super::bootstrap;
use super::cards;
use super::keys;
use super::rules::{legal_bids, Deal, Phase};
use super::store::{average_strategy, load_checkpoint_file, save_checkpoint_file, Run, Stage, Strategy};
use crate::cfr::regret_matching;
use crate::error::{Error, Result};
use crate::sampled::{Record, SlotCache, Table};
use crate::streams::mix;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use super::store::Algo;

/// The deal of iteration `i` of a run seeded with `seed`, and the generator it continues with.
/// (Derived with [`mix`], not [`crate::streams::stream`]: the trained tables depend on
/// these deals.)
pub fn iteration_rng(seed: u64, i: u64) -> Pcg64 {
    Pcg64::seed_from_u64(mix(seed ^ mix(i.wrapping_add(0x5EED))))
}

/// Post-auction states: all pass, or (bid 2–4, bidder 0–3).
const POST_AUCTION_STATES: usize = 13;

/// Index of a finished auction's outcome.
fn post_auction_index(d: &Deal) -> usize {
    match d.high_bid() {
        (0, _) => 0,
        (b, Some(p)) => 1 + (b as usize - 2) * 4 + p as usize,
        (_, None) => unreachable!("a high bid has a bidder"),
    }
}

/// What the auction's first pass gathers.
#[derive(Default)]
struct AuctionPlan<'a> {
    /// Record and strategy of each auction decision, in pre-order.
    sigmas: Vec<(Record<'a>, [f64; 6])>,
    /// Summed reach of each post-auction state.
    reach: [[f64; 2]; POST_AUCTION_STATES],
    /// Each post-auction state that is not terminal.
    states: [Option<Deal>; POST_AUCTION_STATES],
}

/// A child of a decision node, played forward to its own next decision.
#[derive(Clone, Copy)]
struct Child<'a> {
    deal: Deal,
    actions: Actions,
    key: keys::Key,
    rec: Option<Record<'a>>,
}

/// One thread's traversal state.
struct Walker<'a> {
    table: &'a Table,
    cache: SlotCache,
    /// Whether this walker is the only thread writing to the table.
    alone: bool,
    /// Cfrm 2.x's write-back of playout infosets (see [`Algo::CsCfr2x`]).
    write_back: bool,
    /// The baseline strategy playing out bootstrap deals (bootstrap stage only).
    baseline: Option<&'a Strategy>,
}

#[inline]
fn apply(d: &mut Deal, a: &Actions, i: usize) {
    match a.acts[i] {
        Action::Bid(b) => d.apply_bid(b),
        _ => d.apply_card(a.cards[i]),
    }
}

#[inline]
fn child(d: &Deal, a: &Actions, i: usize) -> Deal {
    let mut c = *d;
    apply(&mut c, a, i);
    c
}

/// Plays the forced moves at `d` (single-action nodes, which have no key) in place, up to the
/// next decision; writes its actions to `a` and returns true, or returns false when the deal is
/// exhausted first. Most nodes of a walk are forced, so this is the walk's inner loop.
fn next_decision(d: &mut Deal, a: &mut Actions) -> bool {
    loop {
        if d.exhausted {
            return false;
        }
        if d.phase() == Phase::Playout {
            // A lone legal card is the lone abstract action: no need to build the abstraction.
            let legal = d.playable();
            if legal & (legal - 1) == 0 {
                d.apply_card(cards::lowest(legal));
                continue;
            }
        }
        fill_actions(d, a);
        if a.n != 1 {
            return true;
        }
        apply(d, a, 0);
    }
}

impl<'a> Walker<'a> {
    fn new(table: &'a Table, alone: bool, write_back: bool, baseline: Option<&'a Strategy>) -> Self {
        Walker { table, cache: SlotCache::default(), alone, write_back, baseline }
    }

    /// Adds `x` to float `i` of `rec`. Adding zero changes nothing (an accumulator is never
    /// -0), so alone it is not tested for (a branch that mispredicts); shared, it saves a CAS.
    #[inline]
    fn add(&self, rec: Record, i: usize, x: f32) {
        if self.alone {
            rec.add_unshared(i, x)
        } else if x != 0.0 {
            rec.add(i, x)
        }
    }

    /// The record of `key` (`n` actions), created when absent.
    #[inline(always)]
    fn record(&mut self, key: keys::Key, n: usize) -> Record<'a> {
        let slot = self.cache.slot(self.table, key, n);
        self.table.record(slot, n)
    }

    /// Regret matching over the `n` regrets of `rec`. Kept out of line: inlined into the
    /// recursive walk it costs more than the call.
    #[inline(never)]
    fn strategy(rec: Record, n: usize) -> [f64; 6] {
        let mut s = [0f64; 6];
        regret_matching(&mut s[..n], |i| rec.load(i) as f64);
        s
    }

    /// Chance-sampled CFR from `d` (played forward in place); returns team 0's value.
    fn cfr(&mut self, d: &mut Deal, reach: [f64; 2]) -> f64 {
        if d.exhausted {
            return d.payoff();
        }
        // Reach is unchanged along forced moves, so one check covers the whole chain.
        if reach[0] == 0.0 && reach[1] == 0.0 {
            return 0.0;
        }
        let mut a = Actions::empty();
        if !next_decision(d, &mut a) {
            return d.payoff();
        }
        let key = keys::key(d, &a).expect("two or more actions have a key");
        let rec = self.record(key, a.n);
        self.cfr_decision(d, &a, rec, reach)
    }

    /// Chance-sampled CFR at the decision `d` with actions `a` and record `rec`; returns team
    /// 0's value.
    ///
    /// Every child that is walked is first played to its own next decision and its record
    /// looked up, before any child's subtree is walked: the table reads of the children then
    /// wait on memory together rather than one after another, and each child's record is on
    /// its way while its elder siblings' subtrees are walked. Strategies are still read when a
    /// child is entered, so the updates are those of the plain depth-first walk.
    fn cfr_decision(&mut self, d: &Deal, a: &Actions, rec: Record<'a>, reach: [f64; 2]) -> f64 {
        let team = (d.actor() % 2) as usize;
        let n = a.n;
        // A child is pruned only when the other team's reach is 0 and the actor's reach times
        // the action's probability is 0 too. When the other team's reach is not 0 no child is
        // pruned, so the children are played forward before the strategy is read: the record
        // (prefetched by the parent) arrives while they are.
        let prunable = reach[1 - team] == 0.0;
        let mut sigma = if prunable { Self::strategy(rec, n) } else { [0.0; 6] };
        let mut u = [0f64; 6];
        // The children walked, played to their next decision (None: pruned or a leaf).
        let mut kids: [Option<Child<'a>>; 6] = [None; 6];
        for i in 0..n {
            if prunable && reach[team] * sigma[i] == 0.0 {
                continue;
            }
            // Played where it is kept: a copy played and then moved would be read with a wide
            // load right after its narrow stores (a store-forwarding stall).
            let kid = kids[i].insert(Child { deal: *d, actions: Actions::empty(), key: 0, rec: None });
            apply(&mut kid.deal, a, i);
            if kid.deal.exhausted || !next_decision(&mut kid.deal, &mut kid.actions) {
                u[i] = kid.deal.payoff();
                kids[i] = None;
                continue;
            }
            kid.key = keys::key(&kid.deal, &kid.actions).expect("two or more actions have a key");
            self.cache.prefetch(kid.key);
        }
        if !prunable {
            sigma = Self::strategy(rec, n);
        }
        // Cfrm 2.x: the record as read here is what gets written back after the subtree.
        let mut before = [0f32; 12];
        if self.write_back {
            for (i, x) in before.iter_mut().enumerate().take(2 * n) {
                *x = rec.load(i);
            }
        }
        for kid in kids[..n].iter_mut().flatten() {
            let rec = self.record(kid.key, kid.actions.n);
            rec.prefetch();
            kid.rec = Some(rec);
        }
        let mut v = 0.0;
        for i in 0..n {
            if let Some(kid) = &kids[i] {
                let rec = kid.rec.expect("looked up above");
                // Built whole, not as a copy with one element changed (a store-forwarding stall).
                let r = if team == 0 { [reach[0] * sigma[i], reach[1]] } else { [reach[0], reach[1] * sigma[i]] };
                u[i] = self.cfr_decision(&kid.deal, &kid.actions, rec, r);
            }
            v += sigma[i] * u[i];
        }
        if self.write_back {
            for i in 0..2 * n {
                rec.store(i, before[i]);
            }
        }
        self.update(rec, n, team, reach, &sigma, &u, v);
        v
    }

    /// Chance-sampled CFR on the bootstrap auction game at game score `score`; `outcomes` caches
    /// the payoff of each post-auction state (the playout is fixed). Returns team 0's value.
    fn bootstrap_cfr(
        &mut self,
        d: &Deal,
        score: [i32; 2],
        reach: [f64; 2],
        outcomes: &mut [Option<f64>; POST_AUCTION_STATES],
    ) -> f64 {
        if d.phase() != Phase::Auction {
            let baseline = self.baseline.expect("the bootstrap stage has a baseline");
            return *outcomes[post_auction_index(d)].get_or_insert_with(|| bootstrap::payoff(baseline, d, score));
        }
        if reach[0] == 0.0 && reach[1] == 0.0 {
            return 0.0;
        }
        let mut bids = [0u8; 4];
        let mut n = 0;
        for b in legal_bids(d.high_bid, d.num_bids == 3) {
            bids[n] = b;
            n += 1;
        }
        let bid_child = |b: u8| {
            let mut c = *d;
            c.apply_bid(b);
            c
        };
        if n == 1 {
            return self.bootstrap_cfr(&bid_child(bids[0]), score, reach, outcomes);
        }
        let team = (d.actor() % 2) as usize;
        let key = keys::bootstrap_key(d, score).expect("in the auction");
        let rec = self.record(key, n);
        let sigma = Self::strategy(rec, n);
        let mut u = [0f64; 6];
        let mut v = 0.0;
        for i in 0..n {
            let mut r = reach;
            r[team] *= sigma[i];
            u[i] = self.bootstrap_cfr(&bid_child(bids[i]), score, r, outcomes);
            v += sigma[i] * u[i];
        }
        self.update(rec, n, team, reach, &sigma, &u, v);
        v
    }

    /// `cs-cfr-merged` on a fresh deal: the auction walked in two passes around one walk of each
    /// post-auction state (see the module documentation); returns team 0's value.
    fn cs_iteration(&mut self, deal: &Deal) -> f64 {
        let mut plan = AuctionPlan::default();
        self.auction_forward(deal, [1.0, 1.0], &mut plan);
        let mut values = [0f64; POST_AUCTION_STATES];
        for (i, st) in plan.states.iter().enumerate() {
            if let Some(mut st) = *st {
                values[i] = self.cfr(&mut st, plan.reach[i]);
            }
        }
        let mut next = 0;
        self.auction_backward(deal, [1.0, 1.0], &plan, &values, &mut next)
    }

    /// Pass 1: records each auction decision's strategy (pre-order) and sums the reach of every
    /// post-auction state.
    fn auction_forward(&mut self, d: &Deal, reach: [f64; 2], plan: &mut AuctionPlan<'a>) {
        if reach[0] == 0.0 && reach[1] == 0.0 {
            return;
        }
        if d.phase() != super::rules::Phase::Auction {
            let i = post_auction_index(d);
            plan.reach[i][0] += reach[0];
            plan.reach[i][1] += reach[1];
            if plan.states[i].is_none() && !d.exhausted {
                plan.states[i] = Some(*d);
            }
            return;
        }
        let a = actions(d);
        if a.n == 1 {
            return self.auction_forward(&child(d, &a, 0), reach, plan);
        }
        let team = (d.actor() % 2) as usize;
        let key = keys::key(d, &a).expect("two or more actions have a key");
        let rec = self.record(key, a.n);
        let sigma = Self::strategy(rec, a.n);
        plan.sigmas.push((rec, sigma));
        for i in 0..a.n {
            let mut r = reach;
            r[team] *= sigma[i];
            self.auction_forward(&child(d, &a, i), r, plan);
        }
    }

    /// Pass 3: the auction's values from the post-auction values, with the auction's updates.
    fn auction_backward(
        &mut self,
        d: &Deal,
        reach: [f64; 2],
        plan: &AuctionPlan,
        values: &[f64; POST_AUCTION_STATES],
        next: &mut usize,
    ) -> f64 {
        if reach[0] == 0.0 && reach[1] == 0.0 {
            return 0.0;
        }
        if d.phase() != super::rules::Phase::Auction {
            return values[post_auction_index(d)];
        }
        let a = actions(d);
        if a.n == 1 {
            return self.auction_backward(&child(d, &a, 0), reach, plan, values, next);
        }
        let team = (d.actor() % 2) as usize;
        let (rec, sigma) = plan.sigmas[*next];
        *next += 1;
        let n = a.n;
        let mut u = [0f64; 6];
        let mut v = 0.0;
        for i in 0..n {
            let mut r = reach;
            r[team] *= sigma[i];
            u[i] = self.auction_backward(&child(d, &a, i), r, plan, values, next);
            v += sigma[i] * u[i];
        }
        self.update(rec, n, team, reach, &sigma, &u, v);
        v
    }

    /// The regret and strategy-weight updates of a chance-sampled CFR decision node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn update(&self, rec: Record, n: usize, team: usize, reach: [f64; 2], sigma: &[f64; 6], u: &[f64; 6], v: f64) {
        let sign = if team == 0 { 1.0 } else { -1.0 };
        let opp = reach[1 - team];
        if opp != 0.0 {
            for i in 0..n {
                self.add(rec, i, (opp * sign * (u[i] - v)) as f32);
            }
        }
        let own = reach[team];
        if own != 0.0 {
            for i in 0..n {
                self.add(rec, n + i, (own * sigma[i]) as f32);
            }
        }
    }

    /// External-sampling MCCFR for `traverser`; returns the traverser's sampled value. `d` is
    /// played forward in place.
    fn es(&mut self, d: &mut Deal, traverser: usize, rng: &mut Pcg64) -> f64 {
        let mut a = Actions::empty();
        if !next_decision(d, &mut a) {
            let p = d.payoff();
            return if traverser == 0 { p } else { -p };
        }
        let d = &*d;
        let team = (d.actor() % 2) as usize;
        let key = keys::key(d, &a).expect("two or more actions have a key");
        let n = a.n;
        let rec = self.record(key, n);
        let sigma = Self::strategy(rec, n);
        if team == traverser {
            let mut u = [0f64; 6];
            let mut v = 0.0;
            for i in 0..n {
                u[i] = self.es(&mut child(d, &a, i), traverser, rng);
                v += sigma[i] * u[i];
            }
            for i in 0..n {
                self.add(rec, i, (u[i] - v) as f32);
            }
            v
        } else {
            for i in 0..n {
                self.add(rec, n + i, sigma[i] as f32);
            }
            let x: f64 = rng.gen();
            let mut acc = 0.0;
            let mut pick = n - 1;
            for (i, s) in sigma.iter().enumerate().take(n) {
                acc += s;
                if x < acc {
                    pick = i;
                    break;
                }
            }
            self.es(&mut child(d, &a, pick), traverser, rng)
        }
    }

    /// Runs iteration `i`; returns the non-dealer team's root value.
    fn iteration(&mut self, algo: Algo, seed: u64, i: u64) -> f64 {
        let mut rng = iteration_rng(seed, i);
        let mut deal = Deal::random(&mut rng);
        if self.baseline.is_some() {
            let score = bootstrap::random_score(&mut rng);
            return -self.bootstrap_cfr(&deal, score, [1.0, 1.0], &mut [None; POST_AUCTION_STATES]);
        }
        match algo {
            Algo::CsCfr | Algo::CsCfr2x => -self.cfr(&mut deal, [1.0, 1.0]),
            Algo::CsCfrMerged => -self.cs_iteration(&deal),
            Algo::EsMccfr => {
                let (mut d0, mut d1) = (deal, deal);
                self.es(&mut d0, 0, &mut rng);
                self.es(&mut d1, 1, &mut rng)
            }
        }
    }
}

/// Progress of a training run.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    /// Iterations (deals) done in total.
    pub iterations: u64,
    /// Infosets in the table.
    pub infosets: usize,
    /// Bytes held by the table.
    pub bytes: usize,
    /// Average root value of the non-dealer team (team 1) over all iterations.
    pub root_value: f64,
}

/// A training run of the baseline deal game, or of the bootstrap auction game.
pub struct Trainer {
    algo: Algo,
    seed: u64,
    /// The baseline strategy of a bootstrap run (None for a baseline run).
    baseline: Option<Arc<Strategy>>,
    table: Table,
    iterations: u64,
    value_sum: f64,
    pool: rayon::ThreadPool,
    threads: usize,
}

impl Trainer {
    /// A fresh baseline run.
    pub fn new(algo: Algo, seed: u64, threads: usize) -> Result<Trainer> {
        Trainer::with_state(algo, seed, None, Table::new(), 0, 0.0, threads)
    }

    /// A fresh bootstrap run whose deals are played out by `baseline` (a baseline strategy).
    pub fn bootstrap(baseline: Arc<Strategy>, seed: u64, threads: usize) -> Result<Trainer> {
        Trainer::with_state(Algo::CsCfr, seed, Some(baseline), Table::new(), 0, 0.0, threads)
    }

    fn with_state(
        algo: Algo,
        seed: u64,
        baseline: Option<Arc<Strategy>>,
        table: Table,
        iterations: u64,
        value_sum: f64,
        threads: usize,
    ) -> Result<Trainer> {
        if let Some(b) = &baseline {
            if b.stage != Stage::Baseline {
                return Err(Error::invalid("baseline", "a bootstrap strategy", "a baseline strategy"));
            }
            if algo != Algo::CsCfr {
                return Err(Error::invalid("algorithm of the bootstrap stage", algo.name(), "cs-cfr"));
            }
        }
        let threads = crate::threads::resolve(threads)?;
        let pool = crate::threads::pool(threads)?;
        Ok(Trainer { algo, seed, baseline, table, iterations, value_sum, pool, threads })
    }

    /// The stage trained.
    pub fn stage(&self) -> Stage {
        if self.baseline.is_some() {
            Stage::Bootstrap
        } else {
            Stage::Baseline
        }
    }

    /// The algorithm.
    pub fn algo(&self) -> Algo {
        self.algo
    }
    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// The infoset table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Current figures.
    pub fn stats(&self) -> Stats {
        Stats {
            iterations: self.iterations,
            infosets: self.table.len(),
            bytes: self.table.bytes(),
            root_value: if self.iterations == 0 { 0.0 } else { self.value_sum / self.iterations as f64 },
        }
    }

    /// Runs iterations until `target` iterations are done in total, `budget` has elapsed, or
    /// `stop` is set — whichever comes first. Iterations already started are finished, so the
    /// completed iterations are always a prefix of the run. Returns how many were done.
    pub fn run(&mut self, target: u64, budget: Duration, stop: &AtomicBool) -> u64 {
        let start = self.iterations;
        if target <= start {
            return 0;
        }
        let next = AtomicU64::new(start);
        let sum = Mutex::new(self.value_sum);
        let t0 = Instant::now();
        let (algo, seed, table, alone) = (self.algo, self.seed, &self.table, self.threads == 1);
        let baseline = self.baseline.as_deref();
        self.pool.broadcast(|_| {
            let mut w = Walker::new(table, alone, algo == Algo::CsCfr2x, baseline);
            loop {
                if t0.elapsed() >= budget || stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= target {
                    break;
                }
                let v = w.iteration(algo, seed, i);
                *sum.lock().unwrap_or_else(|e| e.into_inner()) += v;
            }
        });
        let end = next.load(Ordering::Relaxed).min(target);
        self.iterations = end;
        self.value_sum = sum.into_inner().unwrap_or_else(|e| e.into_inner());
        end - start
    }

    /// The average strategy of `key`, in the key's action order.
    pub fn average(&self, key: keys::Key) -> Option<Vec<f32>> {
        let slot = self.table.find(key)?;
        let n = keys::key_num_actions(key);
        let sums: Vec<f32> = (0..n).map(|i| self.table.load(slot + (n + i) as u32)).collect();
        Some(average_strategy(&sums))
    }

    /// What the run is: stage, algorithm, seed, iterations done.
    pub fn run_info(&self) -> Run {
        Run { stage: self.stage(), algo: self.algo, seed: self.seed, iterations: self.iterations }
    }

    /// The average strategy of the table.
    pub fn strategy(&self) -> Strategy {
        Strategy::of_table(self.run_info(), self.stats().root_value, &self.table)
    }
}

/// What a piece of a training round played elsewhere changed: per infoset key it created or
/// changed (in key order), its `2n` accumulator changes (`n` regrets, then `n` strategy weights), and the
/// sum of its deals' root values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableDelta {
    /// The keys touched, in increasing order.
    pub keys: Vec<keys::Key>,
    /// Each key's `2n` changes, one key after the other.
    pub values: Vec<f32>,
    /// The pieces' deals' root values (non-dealer team), summed.
    pub value_sum: f64,
}

impl Trainer {
    /// Trains deals `from..to` on this trainer's table — on a worker, a copy of a round's
    /// snapshot — with every update applied at once as usual, and returns what they changed
    /// ([`TableDelta`]); the trainer then holds the snapshot plus the piece (its root values
    /// those of the piece alone). With one thread the
    /// piece is a function of the snapshot and the deals alone. `stop` ends it early
    /// ([`Error::Interrupted`]).
    pub fn train_piece(&mut self, from: u64, to: u64, stop: &AtomicBool) -> Result<TableDelta> {
        if from > to {
            return Err(Error::invalid("deals", format!("{from}..{to}"), "a range from..to with from <= to"));
        }
        let old_len = self.table.arena_len();
        let before: Vec<f32> = (0..old_len as u32).map(|i| self.table.load(i)).collect();
        self.iterations = from;
        self.value_sum = 0.0;
        self.run(to, Duration::MAX, stop);
        if self.iterations < to {
            return Err(Error::Interrupted);
        }
        let mut delta = TableDelta { value_sum: self.value_sum, ..TableDelta::default() };
        let mut changes = Vec::new();
        for (key, slot) in self.table.entries() {
            changes.clear();
            for i in slot..slot + 2 * keys::key_num_actions(key) as u32 {
                let old = before.get(i as usize).copied().unwrap_or(0.0);
                changes.push(self.table.load(i) - old);
            }
            // New infosets count even unchanged (visited at zero reach), as in a local run.
            if slot as usize >= old_len || changes.iter().any(|&d| d != 0.0) {
                delta.keys.push(key);
                delta.values.extend_from_slice(&changes);
            }
        }
        Ok(delta)
    }

    /// Adds the pieces of a round ([`Trainer::train_piece`] on workers) in order; the trainer
    /// then stands at `to` deals done.
    pub fn merge_pieces(&mut self, pieces: &[TableDelta], to: u64) -> Result<()> {
        for p in pieces {
            let want: usize = p.keys.iter().map(|&k| 2 * keys::key_num_actions(k)).sum();
            if want != p.values.len() {
                return Err(Error::invalid("piece", format!("{} values", p.values.len()), format!("{want}")));
            }
        }
        if to < self.iterations {
            return Err(Error::invalid("to", to, format!("at least the {} deals done", self.iterations)));
        }
        for p in pieces {
            let mut at = 0;
            for &key in &p.keys {
                let n = keys::key_num_actions(key);
                let slot = self.table.slot(key, n);
                let record = self.table.record(slot, n);
                for (i, d) in p.values[at..at + 2 * n].iter().enumerate() {
                    record.store(i, record.load(i) + d);
                }
                at += 2 * n;
            }
            self.value_sum += p.value_sum;
        }
        self.iterations = to;
        Ok(())
    }
}

/// Writes a checkpoint of `t` to `path` atomically.
pub fn save_checkpoint(t: &Trainer, path: &Path) -> Result<()> {
    let baseline = t.baseline.as_ref().map(|b| b.fingerprint());
    save_checkpoint_file(path, t.run_info(), baseline, t.value_sum, &t.table)
}

/// Loads a checkpoint into a trainer with `threads` threads. A bootstrap checkpoint needs the
/// baseline strategy it was trained with (checked by fingerprint); a baseline one takes none.
pub fn load_checkpoint(path: &Path, threads: usize, baseline: Option<Arc<Strategy>>) -> Result<Trainer> {
    let c = load_checkpoint_file(path, baseline.as_ref().map(|b| b.fingerprint()))?;
    Trainer::with_state(c.run.algo, c.run.seed, baseline, c.table, c.run.iterations, c.value_sum, threads)
}

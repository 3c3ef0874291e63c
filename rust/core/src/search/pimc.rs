//! The Perfect Information Monte Carlo loop (see the [module documentation](super)).
//!
//! A decision draws one number from the caller's random stream; world `i` of that decision is
//! sampled from the stream `(seed, draw, i)`. So the worlds, and therefore the decision, do not
//! depend on the number of threads, and two decisions never share worlds by accident.

use super::determinization::Determinization;
use super::solver::PerfectInfoSolver;
use super::weighted::WeightedWorlds;
use crate::error::{Error, Result};
use crate::policy::argmax;
use crate::stop;
use crate::streams::stream;
use crate::threads;
use rand::Rng;
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::sync::Arc;

/// Largest number of worlds per decision.
pub const MAX_WORLDS: usize = 100_000;
/// Domain tag of the world streams ("pimc").
const WORLDS: u64 = 0x7069_6d63;
/// Domain tag of the candidate streams of a weighted pool ("pool").
const POOL: u64 = 0x706f_6f6c;
/// Largest pool of candidate worlds per decision.
pub const MAX_POOL: usize = 1_000_000;

/// The PIMC loop: how many worlds, on which threads, from which seed.
#[derive(Clone)]
pub struct Pimc {
    worlds: usize,
    threads: usize,
    seed: u64,
    /// The pool the worlds are solved on; None to solve them on the calling thread.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Whether the thread count was left to the loop (0): then a decision inside a game of a
    /// parallel match solves its worlds on the calling thread, as the match already keeps every
    /// core busy (measured: a Schafkopf match 1.32x slower with every decision on all cores).
    threads_chosen: bool,
    /// Whether a game log gets every legal action's exact mean (more search than the choice).
    logs_values: bool,
}

/// The `values` option of the PIMC agents: what a game log gets from them.
pub const VALUES_OPTION: &str = "values=exact|none (what a game log gets: every legal action's exact \
                                 mean, the default and more search than the choice, or none, a log as \
                                 fast as play)";

impl std::fmt::Debug for Pimc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pimc")
            .field("worlds", &self.worlds)
            .field("threads", &self.threads)
            .field("seed", &self.seed)
            .field("logs_values", &self.logs_values)
            .finish()
    }
}

/// One world's bounds on an option's value: `(lower, upper)`, exact when equal.
pub type Bounds = (i64, i64);

impl Pimc {
    /// A loop over `worlds` worlds (1..=[`MAX_WORLDS`]) per decision on `threads` threads
    /// (0 = `CFRKIT_NUM_THREADS` or all cores), its world streams keyed by `seed`.
    pub fn new(worlds: usize, threads: usize, seed: u64) -> Result<Pimc> {
        if worlds == 0 || worlds > MAX_WORLDS {
            return Err(Error::invalid("worlds", worlds, format!("an integer from 1 to {MAX_WORLDS}")));
        }
        let n = threads::resolve(threads)?;
        let pool = if n > 1 { Some(Arc::new(threads::pool(n)?)) } else { None };
        Ok(Pimc { worlds, threads: n, seed, pool, threads_chosen: threads > 0, logs_values: true })
    }

    /// The same loop with `values` (the agent option [`VALUES_OPTION`]: `exact`, `none`, or
    /// None for the default, exact) deciding what a game log gets.
    pub fn with_logged_values(self, values: Option<&str>) -> Result<Pimc> {
        let logs_values = match values.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("exact") => true,
            Some("none") => false,
            Some(_) => return Err(Error::invalid("pimc values", values.unwrap_or_default(), VALUES_OPTION)),
        };
        Ok(Pimc { logs_values, ..self })
    }

    /// Whether a game log gets every legal action's exact mean from the agent.
    pub fn logs_values(&self) -> bool {
        self.logs_values
    }

    /// Worlds sampled per decision.
    pub fn worlds(&self) -> usize {
        self.worlds
    }
    /// Threads the worlds are solved on.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Seed of the world streams.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The agent spec of a PIMC agent on this loop: `pimc:worlds=N`, with `,seed=S` unless the
    /// seed is 0 and `,values=none` when logs get no values (threads are left out: they do not
    /// change a decision).
    pub fn agent_name(&self) -> String {
        let seed = match self.seed {
            0 => String::new(),
            s => format!(",seed={s}"),
        };
        let values = if self.logs_values { "" } else { ",values=none" };
        format!("pimc:worlds={}{seed}{values}", self.worlds)
    }

    /// `f(i)` for the worlds `ids`, in order, on the loop's pool; stopped between worlds when
    /// the work this decision belongs to is stopped ([`stop`]).
    fn per_world_of<T: Send>(&self, ids: &[u64], f: impl Fn(u64) -> Result<T> + Sync + Send) -> Result<Vec<T>> {
        let flag = stop::current();
        let f = |i: u64| stop::check(flag.as_deref()).and_then(|()| f(i));
        match &self.pool {
            Some(pool) if self.threads_chosen || !threads::in_parallel_unit() => {
                pool.install(|| ids.par_iter().map(|&i| f(i)).collect())
            }
            _ => ids.iter().map(|&i| f(i)).collect(),
        }
    }

    /// For each of this decision's worlds (drawn from `sampler`, the decision's draw taken from
    /// `rng`), `solve(solver, world)` on the thread's solver; returns the worlds and the results
    /// in world order.
    pub fn solve_worlds<D, S, T>(
        &self,
        sampler: &D,
        rng: &mut Pcg64,
        solve: impl Fn(&mut S, &D::World) -> Result<T> + Sync + Send,
    ) -> Result<(Vec<D::World>, Vec<T>)>
    where
        D: Determinization,
        S: PerfectInfoSolver,
        T: Send,
    {
        let draw: u64 = rng.gen();
        let ids: Vec<u64> = (0..self.worlds as u64).collect();
        let per = self.per_world_of(&ids, |i| {
            let world = sampler.sample(&mut stream(self.seed, WORLDS, draw, i))?;
            let value = S::with_thread_solver(|s| solve(s, &world))?;
            Ok((world, value))
        })?;
        Ok(per.into_iter().unzip())
    }

    /// A pool of `size` candidate worlds drawn from `sampler` (the pool's draw taken from `rng`;
    /// candidate `j` from the stream `(seed, draw, j)`), each weighted by `log_weight(world)`
    /// (a natural logarithm), computed on the loop's threads: the determinization of PIMC with
    /// inference ([`WeightedWorlds`]). Like the worlds, the pool does not depend on the thread
    /// count.
    pub fn weighted_pool<D>(
        &self,
        sampler: &D,
        size: usize,
        rng: &mut Pcg64,
        log_weight: impl Fn(&D::World) -> Result<f64> + Sync + Send,
    ) -> Result<WeightedWorlds<D::World>>
    where
        D: Determinization,
    {
        if size == 0 || size > MAX_POOL {
            return Err(Error::invalid("pool", size, format!("an integer from 1 to {MAX_POOL}")));
        }
        let draw: u64 = rng.gen();
        let ids: Vec<u64> = (0..size as u64).collect();
        let per = self.per_world_of(&ids, |j| {
            let world = sampler.sample(&mut stream(self.seed, POOL, draw, j))?;
            let w = log_weight(&world)?;
            Ok((world, w))
        })?;
        let (pool, weights): (Vec<_>, Vec<f64>) = per.into_iter().unzip();
        WeightedWorlds::new(pool, &weights)
    }

    /// The mean over this decision's worlds of each option's value, where `values(solver,
    /// world)` gives every option's exact value in one world (the same options, in the same
    /// order, in every world).
    pub fn mean_values<D, S>(
        &self,
        sampler: &D,
        rng: &mut Pcg64,
        values: impl Fn(&mut S, &D::World) -> Result<Vec<i64>> + Sync + Send,
    ) -> Result<Vec<f64>>
    where
        D: Determinization,
        S: PerfectInfoSolver,
    {
        let (_, per) = self.solve_worlds(sampler, rng, values)?;
        let n = per.first().map_or(0, Vec::len);
        let mut sums = vec![0i64; n];
        for v in &per {
            for (sum, x) in sums.iter_mut().zip(v) {
                *sum += x;
            }
        }
        Ok(sums.into_iter().map(|s| s as f64 / self.worlds as f64).collect())
    }

    /// The option [`best_option`] picks from [`Self::mean_values`], found with less search.
    /// `bounds(solver, world)` gives every option's [`Bounds`] in one world (exact for the
    /// likeliest best); `below(solver, world, option, upper)` tightens one option's bound with a
    /// null-window search: its exact value if below `upper`, else `upper`. The option with the
    /// highest sum of upper bounds (the first on ties) is the choice once its sum of lower bounds
    /// beats every other option's sum of upper bounds (as it does once exact); until then its
    /// bound is tightened in the worlds where it is not exact.
    pub fn choose_by_bounds<D, S>(
        &self,
        sampler: &D,
        rng: &mut Pcg64,
        bounds: impl Fn(&mut S, &D::World) -> Result<Vec<Bounds>> + Sync + Send,
        below: impl Fn(&mut S, &D::World, usize, i64) -> Result<i64> + Sync + Send,
    ) -> Result<usize>
    where
        D: Determinization,
        S: PerfectInfoSolver,
    {
        let (worlds, mut per) = self.solve_worlds(sampler, rng, bounds)?;
        loop {
            let n = per[0].len();
            let upper: Vec<i64> = (0..n).map(|k| per.iter().map(|w| w[k].1).sum()).collect();
            let choice = (0..n).fold(0, |b, k| if upper[k] > upper[b] { k } else { b });
            // Settled once its lower sum beats every other upper sum (ties to the first).
            let lower: i64 = per.iter().map(|w| w[choice].0).sum();
            if (0..n).all(|k| k == choice || (k < choice && lower > upper[k]) || (k > choice && lower >= upper[k])) {
                return Ok(choice);
            }
            let open: Vec<u64> =
                (0..per.len() as u64).filter(|&i| per[i as usize][choice].0 != per[i as usize][choice].1).collect();
            let tightened = self.per_world_of(&open, |i| {
                let hi = per[i as usize][choice].1;
                S::with_thread_solver(|s| below(s, &worlds[i as usize], choice, hi))
            })?;
            for (&i, v) in open.iter().zip(tightened) {
                let (lo, hi) = &mut per[i as usize][choice];
                if v == *hi {
                    *lo = v;
                } else {
                    *hi = v;
                }
            }
        }
    }
}

/// PIMC's tie rule: the index of the first option with the highest value (values compared
/// exactly, as [`argmax`] does); `None` for no options.
pub fn best_option(values: &[f64]) -> Option<usize> {
    (!values.is_empty()).then(|| argmax(values.iter().copied()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A toy game: a world is a hidden number 0..10; option k is worth `(world * (k + 1)) % 7`.
    struct Hidden;
    impl Determinization for Hidden {
        type World = u64;
        fn sample(&self, rng: &mut Pcg64) -> Result<u64> {
            Ok(rng.gen_range(0..10))
        }
    }
    #[derive(Default)]
    struct Table {
        solves: u64,
    }
    thread_local! {
        static TABLE: RefCell<Table> = RefCell::new(Table::default());
    }
    impl PerfectInfoSolver for Table {
        fn with_thread_solver<T>(f: impl FnOnce(&mut Self) -> T) -> T {
            TABLE.with(|t| f(&mut t.borrow_mut()))
        }
    }
    fn value(w: u64, k: usize) -> i64 {
        ((w * (k as u64 + 1)) % 7) as i64
    }
    fn exact(s: &mut Table, w: &u64) -> Result<Vec<i64>> {
        s.solves += 1;
        Ok((0..4).map(|k| value(*w, k)).collect())
    }

    #[test]
    fn decisions_do_not_depend_on_threads_and_bounds_agree_with_exact_means() {
        for seed in 0..20 {
            let mut results = vec![];
            for threads in [1, 2, 3] {
                let pimc = Pimc::new(25, threads, seed).unwrap();
                let mut rng = stream(seed, 1, 2, 3);
                let means = pimc.mean_values::<_, Table>(&Hidden, &mut rng, exact).unwrap();
                let mut rng = stream(seed, 1, 2, 3);
                // Loose bounds: exact for option 0, [0, 6] for the others.
                let chosen = pimc
                    .choose_by_bounds::<_, Table>(
                        &Hidden,
                        &mut rng,
                        |_, w| Ok((0..4).map(|k| if k == 0 { (value(*w, 0), value(*w, 0)) } else { (0, 6) }).collect()),
                        |_, w, k, hi| Ok(value(*w, k).min(hi)),
                    )
                    .unwrap();
                assert_eq!(Some(chosen), best_option(&means), "seed {seed}, threads {threads}: {means:?}");
                results.push((means, chosen));
            }
            assert!(results.windows(2).all(|w| w[0] == w[1]), "seed {seed}: {results:?}");
        }
    }

    #[test]
    fn ties_go_to_the_first_option_and_bad_sizes_are_refused() {
        assert_eq!(best_option(&[1.0, 3.0, 3.0, 2.0]), Some(1));
        assert_eq!(best_option(&[]), None);
        assert!(Pimc::new(0, 1, 0).is_err());
        assert!(Pimc::new(MAX_WORLDS + 1, 1, 0).unwrap_err().to_string().contains("100000"));
    }

    #[test]
    fn a_decision_inside_a_parallel_match_stays_on_its_thread_unless_told() {
        let here = std::thread::current().id();
        let ids: Vec<u64> = (0..8).collect();
        let on = |p: &Pimc| p.per_world_of(&ids, |_| Ok(std::thread::current().id())).unwrap();
        let (auto, two) = (Pimc::new(8, 0, 0).unwrap(), Pimc::new(8, 2, 0).unwrap());
        assert!(threads::parallel_unit(|| on(&auto)).iter().all(|&t| t == here));
        // Told its threads, or outside a match, a decision solves on its pool.
        assert!(threads::parallel_unit(|| on(&two)).iter().all(|&t| t != here));
        if auto.threads() > 1 {
            assert!(on(&auto).iter().all(|&t| t != here));
        }
        assert!(!threads::in_parallel_unit());
    }
}

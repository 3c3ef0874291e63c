//! Setback's names and spec strings, in one place: agent specs (`random`, `rules`, `table:DIR`,
//! `pimc:worlds=64`, ...), the training algorithms and stages, the files of a training
//! directory, and the checked form of a training request ([`TrainSpec`]). The bindings, the
//! Python package and the command line take these names from here instead of copying them.
//!
//! This module sits above [`super::play`] and [`super::pimc`] (it builds agents of both), so
//! neither of them needs the other's constructors.

use super::learned::{Model, NetAgent, SetbackPolicies};
use super::pimc::PimcAgent;
use super::play::agent::{Agent, Setback};
use super::play::database::Database;
use super::play::hybrid::{HybridAgent, LearnedHybrid};
use super::play::rules_agent::RulesAgent;
use super::play::strategy_agent::{StrategyAgent, TableMode, Tables};
use super::rules::CARDS_PER_HAND;
use super::store::{Stage, Strategy};
use crate::trick::RandomAgent;

use super::train::{load_checkpoint, Algo, Trainer};
use crate::error::{Error, Result};
use crate::learn::PlayModel;
use crate::search::{parse_pimc_options, Inference};
use crate::threads;
use std::path::{Path, PathBuf};
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Agents

/// Agent spec strings [`agent`] accepts.
pub const AGENT_SPECS: &str = "random, rules, table:DIR[+DIR2], table-sampled:DIR[+DIR2] (DIR a baseline training \
                               directory or strategy file, DIR2 a bootstrap one), db:PATH (a strategy database), \
                               pimc[:worlds=N,threads=T,seed=S,values=exact|none,bidding=rules,inference=MODEL,pool=N,floor=X,temper=X] or hybrid:PATH[,worlds=N,threads=T,seed=S] (the \
                               database's bids, PIMC's card play), net:DIR[,sample=1,likely_value=0|1] (a learned policy made by \
                               `cfrkit learn imitate --game setback`) or hybrid:net=DIR,from=K[,pimc options] (the \
                               policy's bids and first tricks, PIMC's from trick K on)";

/// Builds an agent from a spec string: `random`, `rules`, `table:DIR` (argmax of a trained
/// strategy), `table-sampled:DIR` (drawn from it), `db:PATH` (the strategy database),
/// `pimc[:OPTIONS]` (Perfect Information Monte Carlo, see [`pimc`]) and
/// `hybrid:PATH[,OPTIONS]` (the database's bids, PIMC's card play), `net:DIR[,sample=1,likely_value=0|1]` (a
/// learned policy, [`super::learned`]) and `hybrid:net=DIR,...` (the policy early, PIMC late,
/// [`learned_hybrid`]). `DIR` of `table` is a baseline training
/// directory holding [`STRATEGY_FILE`] (or the strategy file itself), optionally followed by
/// `+DIR2`, a bootstrap training directory whose score-aware bids replace the baseline's.
pub fn agent(spec: &str) -> Result<Arc<dyn Agent<Setback>>> {
    let (kind, arg) = match spec.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (spec, None),
    };
    match (kind, arg) {
        ("random", None) => Ok(Arc::new(RandomAgent)),
        ("rules", None) => Ok(Arc::new(RulesAgent)),
        ("table", Some(p)) if !p.is_empty() => Ok(Arc::new(table_agent(p, TableMode::Argmax)?)),
        ("table-sampled", Some(p)) if !p.is_empty() => Ok(Arc::new(table_agent(p, TableMode::Sampled)?)),
        ("db", Some(p)) if !p.is_empty() => Ok(Arc::new(database_agent(p)?)),
        ("net", Some(p)) if !p.is_empty() => Ok(Arc::new(NetAgent::from_options(p)?)),
        ("pimc", opts) => pimc_with_bidding(opts.unwrap_or("")),
        ("hybrid", Some(arg)) if arg.split(',').next().is_some_and(|first| first.contains('=')) => {
            Ok(Arc::new(learned_hybrid(arg)?))
        }
        ("hybrid", Some(arg)) if !arg.is_empty() => {
            let (path, opts) = arg.split_once(',').unwrap_or((arg, ""));
            let player = pimc(opts)?;
            let label = format!("hybrid:{path}({})", player.name());
            Ok(Arc::new(HybridAgent::new(Arc::new(database_agent(path)?), Arc::new(player), label)))
        }
        _ => Err(Error::invalid("agent", spec, format!("one of {AGENT_SPECS}"))),
    }
}

/// The first trick the learned hybrid's PIMC plays unless told otherwise: the policy takes the
/// first two of six tricks, where PIMC's worlds are least informed and its searches longest.
pub const HYBRID_FROM: u64 = 3;

/// The learned hybrid of the options after `hybrid:` (`net=DIR,from=K[,precardplay=net|pimc]`
/// and the options of a `pimc:` spec, `bidding=rules` included).
pub fn learned_hybrid(args: &str) -> Result<LearnedHybrid> {
    let spec = crate::learn::HybridSpec::parse(args, CARDS_PER_HAND as u64, HYBRID_FROM)?; // a trick per card
    let net: Arc<dyn Agent<Setback>> = Arc::new(NetAgent::from_options(&spec.net)?);
    let pimc = pimc_with_bidding(&spec.pimc)?;
    Ok(crate::learn::Hybrid::new(spec, net, pimc))
}

/// The table agent of `BASELINE[+BOOTSTRAP]` (see [`tables`]), named `table:SPEC` or
/// `table-sampled:SPEC`.
pub fn table_agent(spec: &str, mode: TableMode) -> Result<StrategyAgent> {
    let prefix = if mode == TableMode::Argmax { "table" } else { "table-sampled" };
    Ok(StrategyAgent::new(Arc::new(tables(spec, mode)?), format!("{prefix}:{spec}")))
}

/// The database player of the strategy database at `path`.
pub fn database_agent(path: &str) -> Result<StrategyAgent> {
    Ok(StrategyAgent::new(Arc::new(Database::open(path.as_ref())?), format!("db:{path}")))
}

/// Default worlds per PIMC decision.
pub const DEFAULT_WORLDS: usize = 64;

/// Builds a PIMC agent from the argument of a `pimc:` agent spec (every game's options,
/// [`PIMC_KEYS`]; the agent spec also takes `bidding=rules`); an empty argument gives the
/// defaults.
pub fn pimc(args: &str) -> Result<PimcAgent> {
    let (o, pimc) = parse_pimc_options(args, DEFAULT_WORLDS, &[], "", MODEL_SPECS)?;
    let worlds = pimc.worlds();
    let agent = PimcAgent::on(pimc);
    Ok(match Inference::from_options(&o, worlds, move_model)? {
        Some(inference) => agent.with_inference(inference),
        None => agent,
    })
}

/// The models PIMC's inference accepts (`pimc:inference=MODEL`, see [`move_model`]).
pub const MODEL_SPECS: &str = "MODEL one of net:DIR (a learned policy's probabilities), table:DIR[+DIR2], \
                               table-sampled:DIR[+DIR2], db:PATH, rules or random (the agent's own probabilities of \
                               its moves)";

/// The model of the other players' play named by `spec` for PIMC with inference: a learned
/// policy's softmax (`net:DIR`) or an agent that gives the probabilities of its moves — a
/// trained strategy (`table:`, `table-sampled:`, `db:`; [`StrategyAgent`]), `rules` (its one
/// move) or `random` (uniform).
pub fn move_model(spec: &str) -> Result<Arc<Model>> {
    let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
    match (kind, arg.is_empty()) {
        ("net", false) => Ok(Arc::new(PlayModel::from_spec::<SetbackPolicies>(spec)?)),
        ("table", false) => Ok(Arc::new(table_agent(arg, TableMode::Argmax)?)),
        ("table-sampled", false) => Ok(Arc::new(table_agent(arg, TableMode::Sampled)?)),
        ("db", false) => Ok(Arc::new(database_agent(arg)?)),
        ("rules", true) if !spec.contains(':') => Ok(Arc::new(RulesAgent)),
        ("random", true) if !spec.contains(':') => Ok(Arc::new(RandomAgent)),
        _ => Err(Error::invalid("inference", spec, MODEL_SPECS)),
    }
}

/// A `pimc:` agent: PIMC's bids and card play, or with `bidding=rules` the `rules` agent's bids
/// and PIMC's card play (PIMC's own bids overrate a hand, and two PIMC teams bidding against
/// each other are set back so often that a game may never end).
fn pimc_with_bidding(args: &str) -> Result<Arc<dyn Agent<Setback>>> {
    let (own, rest) = crate::spec::split_options(args, &["bidding"]);
    let player = pimc(&rest)?;
    match own.split_once('=').map(|kv| kv.1.trim().to_ascii_lowercase()).as_deref() {
        None | Some("pimc") => Ok(Arc::new(player)),
        Some("rules") => {
            let label = format!("{},bidding=rules", player.name());
            Ok(Arc::new(HybridAgent::new(Arc::new(RulesAgent), Arc::new(player), label)))
        }
        Some(_) => Err(Error::invalid("pimc bidding", own, "bidding=pimc (the default) or bidding=rules")),
    }
}

// ---------------------------------------------------------------------------------------------
// Training directories and strategy files

/// File name of the strategy inside a training directory.
pub const STRATEGY_FILE: &str = "strategy.cfrkit";

/// File name of the checkpoint inside a training directory.
pub const CHECKPOINT_FILE: &str = "checkpoint.cfrkit";

/// A strategy file: `path` itself, or `path/strategy.cfrkit` for a training directory.
pub fn strategy_file(path: &Path) -> Result<PathBuf> {
    let file = if path.is_dir() { path.join(STRATEGY_FILE) } else { path.to_path_buf() };
    if !file.is_file() {
        return Err(Error::invalid(
            "strategy path",
            path.display(),
            format!("a training directory holding {STRATEGY_FILE}, or a strategy file (not found: {})", file.display()),
        ));
    }
    Ok(file)
}

/// Loads the strategy of a training directory (or strategy file) `path`, which must be of
/// `stage`.
pub fn load_strategy(path: &Path, stage: Stage) -> Result<Arc<Strategy>> {
    let s = Strategy::load(&strategy_file(path)?)?;
    if s.stage != stage {
        return Err(Error::invalid(
            format!("{} strategy", stage.name()),
            path.display(),
            format!("a {} strategy (this one is {})", stage.name(), s.stage.name()),
        ));
    }
    Ok(Arc::new(s))
}

/// Loads the tables of `BASELINE[+BOOTSTRAP]`: a baseline training directory (or strategy
/// file), optionally followed by `+` and a bootstrap one.
pub fn tables(spec: &str, mode: TableMode) -> Result<Tables> {
    let (base, boot) = match spec.split_once('+') {
        Some((a, b)) => (a, Some(b)),
        None => (spec, None),
    };
    Ok(Tables {
        baseline: load_strategy(base.as_ref(), Stage::Baseline)?,
        bootstrap: boot.map(|b| load_strategy(b.as_ref(), Stage::Bootstrap)).transpose()?,
        mode,
    })
}

// ---------------------------------------------------------------------------------------------
// Training

/// The training algorithms, in the order they are listed.
pub const ALGORITHMS: [Algo; 4] = [Algo::CsCfr, Algo::CsCfr2x, Algo::CsCfrMerged, Algo::EsMccfr];

/// The training stages, in the order they are trained.
pub const STAGES: [Stage; 2] = [Stage::Baseline, Stage::Bootstrap];

/// The stage named `name`.
pub fn stage(name: &str) -> Result<Stage> {
    STAGES.into_iter().find(|s| s.name() == name).ok_or_else(|| {
        let names: Vec<&str> = STAGES.iter().map(|s| s.name()).collect();
        Error::invalid("stage", name, format!("one of {}", names.join(", ")))
    })
}

/// A training request, checked: the stage, its algorithm, the baseline strategy file that plays
/// out bootstrap deals, the seed of the deal stream, the threads and the total deals to reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainSpec {
    /// The stage trained.
    pub stage: Stage,
    /// The algorithm (cs-cfr for the bootstrap stage).
    pub algo: Algo,
    /// The baseline strategy file of a bootstrap run (None for a baseline run).
    pub baseline: Option<PathBuf>,
    /// Seed of the deal stream.
    pub seed: u64,
    /// Requested threads (0 = `CFRKIT_NUM_THREADS` or all cores).
    pub threads: usize,
    /// Total deals to reach (a resumed run continues to it).
    pub iterations: u64,
}

/// A training run set up in its directory by [`TrainSpec::start`].
pub struct Started {
    /// The trainer, fresh or restored from the directory's checkpoint.
    pub trainer: Trainer,
    /// The checkpoint it was restored from, if it was.
    pub resumed_from: Option<PathBuf>,
    /// Temporary files of killed writes that were removed from the directory.
    pub removed: Vec<PathBuf>,
}

impl TrainSpec {
    /// Checks a request: `stage` is `baseline` or `bootstrap`; `algo` one of [`ALGORITHMS`];
    /// the bootstrap stage, and only it, takes `baseline` (a baseline training directory or
    /// strategy file) and trains with cs-cfr; `threads` at most [`threads::MAX_THREADS`].
    pub fn new(
        stage_name: &str,
        algo: &str,
        baseline: Option<&Path>,
        seed: u64,
        threads: u64,
        iterations: u64,
    ) -> Result<TrainSpec> {
        let stage = stage(stage_name)?;
        let algo = Algo::parse(algo)?;
        let baseline = match (stage, baseline) {
            (Stage::Bootstrap, None) => {
                return Err(Error::invalid(
                    "baseline",
                    "none",
                    "the bootstrap stage needs a trained baseline directory",
                ))
            }
            (Stage::Bootstrap, Some(_)) if algo != Algo::CsCfr => {
                return Err(Error::invalid("algo", algo.name(), "the bootstrap stage trains with cs-cfr"))
            }
            (Stage::Bootstrap, Some(b)) => Some(strategy_file(b)?),
            (Stage::Baseline, Some(b)) => {
                return Err(Error::invalid(
                    "baseline",
                    b.display(),
                    "only the bootstrap stage plays out with a baseline",
                ))
            }
            (Stage::Baseline, None) => None,
        };
        let threads = threads::check(threads)?;
        Ok(TrainSpec { stage, algo, baseline, seed, threads, iterations })
    }

    /// The baseline strategy of a bootstrap run, loaded.
    fn load_baseline(&self) -> Result<Option<Arc<Strategy>>> {
        self.baseline.as_deref().map(|p| load_strategy(p, Stage::Baseline)).transpose()
    }

    /// A fresh trainer for the request.
    pub fn fresh(&self) -> Result<Trainer> {
        match self.load_baseline()? {
            Some(b) => Trainer::bootstrap(b, self.seed, self.threads),
            None => Trainer::new(self.algo, self.seed, self.threads),
        }
    }

    /// Restores the checkpoint at `path`, which must be of this request's stage, algorithm
    /// and seed (a bootstrap checkpoint also of its baseline).
    pub fn resume(&self, path: &Path) -> Result<Trainer> {
        let t = load_checkpoint(path, self.threads, self.load_baseline()?)?;
        let dir = path.parent().unwrap_or(Path::new(".")).display();
        if t.stage() != self.stage {
            return Err(Error::invalid(
                "stage",
                self.stage.name(),
                format!("the checkpoint in '{dir}' is of the {} stage", t.stage().name()),
            ));
        }
        if t.algo() != self.algo || t.seed() != self.seed {
            return Err(Error::invalid(
                "algo/seed",
                format!("{}/{}", self.algo.name(), self.seed),
                format!(
                    "the checkpoint in '{dir}' was made with '{}'/{}; resume with those",
                    t.algo().name(),
                    t.seed()
                ),
            ));
        }
        Ok(t)
    }

    /// Sets the run up in the training directory `dir` (created if needed): removes the
    /// temporary files of killed writes, then continues the directory's checkpoint when
    /// `resume` is set (it must hold one) or starts afresh (it must hold none).
    pub fn start(&self, dir: &Path, resume: bool) -> Result<Started> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let removed = crate::store::remove_stale_temps(dir)?;
        let ckpt = dir.join(CHECKPOINT_FILE);
        let (trainer, resumed_from) = match (ckpt.exists(), resume) {
            (true, true) => (self.resume(&ckpt)?, Some(ckpt)),
            (true, false) => {
                return Err(Error::invalid(
                    "out",
                    dir.display(),
                    format!("it already holds {CHECKPOINT_FILE}; resume it or choose another directory"),
                ))
            }
            (false, true) => {
                return Err(Error::invalid(
                    "out",
                    dir.display(),
                    format!("nothing to resume: it holds no {CHECKPOINT_FILE}; start without resume"),
                ))
            }
            (false, false) => (self.fresh()?, None),
        };
        Ok(Started { trainer, resumed_from, removed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_specs_parse_here() {
        assert_eq!(agent("random").unwrap().name(), "random");
        assert_eq!(agent("rules").unwrap().name(), "rules");
        assert_eq!(agent("pimc:worlds=8,threads=1").unwrap().name(), "pimc:worlds=8");
        assert_eq!(agent("pimc:bidding=rules,worlds=8").unwrap().name(), "pimc:worlds=8,bidding=rules");
        assert_eq!(agent("pimc:worlds=8,bidding=PIMC").unwrap().name(), "pimc:worlds=8");
        assert!(agent("pimc:bidding=db").err().unwrap().to_string().contains("bidding=rules"));
        for bad in ["bogus", "table:", "random:x", "db:", "hybrid:"] {
            let e = agent(bad).err().unwrap().to_string();
            assert!(e.contains(&format!("{bad:?}")) && e.contains(AGENT_SPECS), "{e}");
        }
        let e = agent("table:/nonexistent/dir").err().unwrap().to_string();
        assert!(e.contains(STRATEGY_FILE), "{e}");
    }

    #[test]
    fn pimc_options_parse_and_refuse_bad_input() {
        let a = pimc("worlds=16,threads=1,seed=7").unwrap();
        assert_eq!((a.pimc().worlds(), a.pimc().threads(), a.pimc().seed()), (16, 1, 7));
        assert_eq!(a.name(), "pimc:worlds=16,seed=7");
        let d = pimc("").unwrap();
        assert_eq!((d.pimc().worlds(), d.pimc().seed()), (DEFAULT_WORLDS, 0));
        assert_eq!(pimc(" worlds = 8 ").unwrap().pimc().worlds(), 8);
        for (bad, says) in [
            ("worlds=0", "an integer from 1 to 100000"),
            ("worlds=100001", "an integer from 1 to 100000"),
            ("worlds=x", "an integer from 1 to 100000"),
            ("depth=3", "worlds=N"),
            ("worlds", "worlds=N"),
            ("seed=-1", "an integer from 0 to"),
            ("worlds=4,worlds=5", "worlds=N"),
            ("threads=1025", "an integer from 0 to 1024"),
        ] {
            let e = pimc(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn training_requests_are_checked_once_here() {
        let ok = TrainSpec::new("baseline", "es-mccfr", None, 3, 2, 10).unwrap();
        assert_eq!((ok.stage, ok.algo, ok.threads), (Stage::Baseline, Algo::EsMccfr, 2));
        let cases: [(&str, &str, Option<&Path>, u64, &str); 6] = [
            ("final", "cs-cfr", None, 0, "one of baseline, bootstrap"),
            ("baseline", "vanilla", None, 0, "cs-cfr, cs-cfr-2x, cs-cfr-merged, es-mccfr"),
            ("bootstrap", "cs-cfr", None, 0, "needs a trained baseline"),
            ("bootstrap", "es-mccfr", Some(Path::new("x")), 0, "trains with cs-cfr"),
            ("baseline", "cs-cfr", Some(Path::new("x")), 0, "only the bootstrap stage"),
            ("baseline", "cs-cfr", None, 100_000, "from 0 to 1024"),
        ];
        for (stage, algo, baseline, threads, needle) in cases {
            let e = TrainSpec::new(stage, algo, baseline, 0, threads, 1).unwrap_err().to_string();
            assert!(e.contains(needle), "{stage} {algo}: {e}");
        }
        let e = TrainSpec::new("bootstrap", "cs-cfr", Some(Path::new("/no/such/run")), 0, 1, 1).unwrap_err();
        assert!(e.to_string().contains(STRATEGY_FILE), "{e}");
    }

    #[test]
    fn names_come_from_the_types() {
        let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name()).collect();
        assert_eq!(names.join(", "), Algo::NAMES);
        for a in ALGORITHMS {
            assert_eq!(Algo::parse(a.name()).unwrap(), a);
        }
        for s in STAGES {
            assert_eq!(stage(s.name()).unwrap(), s);
        }
    }
}

//! Agent spec strings, parsed in one place: `random`, `random-coward`, `rules`,
//! `schafkopfrl-pimc[:OPTIONS]`, `pimc[:OPTIONS]` and `net:DIR`. This module sits above
//! [`super::agents`], [`super::pimc`] and [`super::learned`]: it builds agents of each.

use super::agents::random::{RandomAgent, RandomCowardAgent};
use super::agents::rules_agent::RulesAgent;
use super::agents::Agent;
use super::learned::NetAgent;
use super::pimc::agent::{PimcAgent, DEFAULT_WORLDS, MAX_WORLDS};
use super::pimc::uct;
use crate::error::{Error, Result};
use crate::spec::AgentOptions;
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random, random-coward, rules, schafkopfrl-pimc[:n=N,m=M,threads=T] or \
                         pimc[:worlds=N,threads=T,seed=S] or net:DIR[,sample=1]";

/// The options accepted after `pimc:`.
pub const PIMC_OPTIONS: &str = "comma-separated worlds=N (1 to 100000, default 40), threads=T (0 = all cores; \
                                default 1, since matches already play games in parallel) and seed=S (an unsigned \
                                integer, default 0), e.g. worlds=40,seed=7";

/// Builds an agent from a spec string (see [`SPECS`]).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent>> {
    // A policy directory's path keeps its case.
    if let Some(dir) = spec.trim().strip_prefix("net:").or_else(|| spec.trim().strip_prefix("NET:")) {
        return Ok(Arc::new(NetAgent::from_options(dir)?));
    }
    let lower = spec.trim().to_ascii_lowercase();
    let (name, args) = lower.split_once(':').unwrap_or((&lower, ""));
    match (name.trim(), lower.contains(':')) {
        ("random", false) => Ok(Arc::new(RandomAgent)),
        ("random-coward", false) => Ok(Arc::new(RandomCowardAgent)),
        ("rules", false) => Ok(Arc::new(RulesAgent)),
        (uct::NAME, _) => Ok(Arc::new(uct::from_options(args)?)),
        ("pimc", _) => Ok(Arc::new(pimc(args)?)),
        _ => Err(Error::invalid("agent", spec, format!("one of {SPECS}"))),
    }
}

/// cfrkit's PIMC agent from the options after `pimc:` (see [`PIMC_OPTIONS`]).
pub fn pimc(args: &str) -> Result<PimcAgent> {
    let o = AgentOptions::parse("pimc", args, &["worlds", "threads", "seed"], PIMC_OPTIONS)?;
    let worlds = o.uint("worlds", DEFAULT_WORLDS as u64, 1, MAX_WORLDS as u64)? as usize;
    let threads = crate::threads::check(o.uint("threads", 1, 0, crate::threads::MAX_THREADS as u64)?)?;
    PimcAgent::new(worlds, threads, o.seed()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        for s in ["random", "random-coward", "rules", " Rules "] {
            assert_eq!(parse(s).unwrap().name(), s.trim().to_ascii_lowercase());
        }
        assert_eq!(parse("schafkopfrl-pimc:m=40,n=10,threads=1").unwrap().name(), "schafkopfrl-pimc:n=10,m=40");
        assert_eq!(parse("schafkopfrl-pimc").unwrap().name(), "schafkopfrl-pimc:n=10,m=40");
        assert_eq!(parse("pimc:worlds=8,seed=3").unwrap().name(), "pimc:worlds=8,seed=3");
        assert_eq!(parse("PIMC").unwrap().name(), "pimc:worlds=40");
        for bad in ["pimc9", "rules:x", "pimc:worlds=0", "pimc:depth=2", "schafkopfrl-pimc:n=0", "pimc:threads=5000"] {
            let e = parse(bad).err().unwrap().to_string();
            assert!(e.contains("pimc") || e.contains("threads"), "{bad}: {e}");
        }
        let e = parse("pimc9").err().unwrap().to_string();
        assert!(e.contains("pimc9") && e.contains("random-coward"), "{e}");
    }
}

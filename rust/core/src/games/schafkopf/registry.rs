//! Agent spec strings, parsed in one place: `random`, `random-coward`, `rules`,
//! `schafkopfrl-pimc[:OPTIONS]`, `pimc[:OPTIONS]`, `net:DIR` and `hybrid:OPTIONS`. This module
//! sits above [`super::agents`], [`super::pimc`], [`super::learned`] and [`super::hybrid`]: it
//! builds agents of each.

use super::agents::random::RandomCowardAgent;
use super::agents::rules_agent::RulesAgent;
use super::agents::RandomAgent;
use super::agents::{Agent, Schafkopf};
use super::hybrid;
use super::learned::NetAgent;
use super::pimc::agent as pimc;
use super::pimc::uct;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random, random-coward, rules, schafkopfrl-pimc[:n=N,m=M,threads=T], \
                         pimc[:worlds=N,threads=T,seed=S,inference=MODEL,pool=N,floor=X,temper=X,values=exact|none], \
                         net:DIR[,sample=1,likely_value=0|1] or hybrid:net=DIR,from=K[,precardplay=net|pimc][,pimc options]";

/// Builds an agent from a spec string (see [`SPECS`]).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent<Schafkopf>>> {
    // A policy directory's path keeps its case.
    if let Some(dir) = spec.trim().strip_prefix("net:").or_else(|| spec.trim().strip_prefix("NET:")) {
        return Ok(Arc::new(NetAgent::from_options(dir)?));
    }
    // Option values keep their case (an inference policy's path); names and keys do not.
    let spec = spec.trim();
    let (name, args) = spec.split_once(':').unwrap_or((spec, ""));
    match (name.trim().to_ascii_lowercase().as_str(), spec.contains(':')) {
        ("random", false) => Ok(Arc::new(RandomAgent)),
        ("random-coward", false) => Ok(Arc::new(RandomCowardAgent)),
        ("rules", false) => Ok(Arc::new(RulesAgent)),
        (uct::NAME, _) => Ok(Arc::new(uct::from_options(args)?)),
        ("pimc", _) => Ok(Arc::new(pimc::from_options(args)?)),
        ("hybrid", true) => Ok(Arc::new(hybrid::from_options(args)?)),
        _ => Err(Error::invalid("agent", spec, format!("one of {SPECS}"))),
    }
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

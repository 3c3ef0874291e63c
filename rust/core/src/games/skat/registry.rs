//! Agent spec strings, parsed in one place: `random`, `rules`, `pimc[:OPTIONS]`, `net:DIR` and
//! `hybrid:OPTIONS`. This module sits above [`super::agents`], [`super::pimc`],
//! [`super::learned`] and [`super::hybrid`]: it builds agents of each.

use super::agents::rules_agent::RulesAgent;
use super::agents::RandomAgent;
use super::agents::{Agent, Skat};
use super::hybrid;
use super::learned::NetAgent;
use super::pimc::agent as pimc;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random, rules, pimc[:worlds=N,threads=T,seed=S,bidding=rules|search,bidding_worlds=N,\
     inference=MODEL,pool=N,floor=X,temper=X,values=exact|none], net:DIR[,sample=1,percentile=A|bidding=argmax,likely_value=0|1] or \
     hybrid:net=DIR,from=K[,precardplay=net|pimc][,pimc options]";

/// Builds an agent from a spec string (see [`SPECS`]; case and surrounding spaces do not matter).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent<Skat>>> {
    // A policy directory's path keeps its case.
    if let Some(dir) = spec.trim().strip_prefix("net:").or_else(|| spec.trim().strip_prefix("NET:")) {
        return Ok(Arc::new(NetAgent::from_options(dir)?));
    }
    // Option values keep their case (an inference policy's path); names and keys do not.
    let spec = spec.trim();
    let (name, args) = spec.split_once(':').unwrap_or((spec, ""));
    match (name.trim().to_ascii_lowercase().as_str(), spec.contains(':')) {
        ("random", false) => Ok(Arc::new(RandomAgent)),
        ("rules", false) => Ok(Arc::new(RulesAgent::default())),
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
        for s in ["random", "rules", " Rules ", "RANDOM"] {
            assert_eq!(parse(s).unwrap().name(), s.trim().to_ascii_lowercase());
        }
        for bad in ["rules:x", "pimc9", "", "random:"] {
            let e = parse(bad).err().unwrap().to_string();
            assert!(e.contains(bad) && e.contains(SPECS), "{bad}: {e}");
        }
        assert_eq!(parse("PIMC").unwrap().name(), "pimc:worlds=160");
        assert_eq!(parse("pimc:worlds=8,seed=3").unwrap().name(), "pimc:worlds=8,seed=3");
        for bad in ["pimc:worlds=0", "pimc:depth=2", "pimc:threads=5000"] {
            let e = parse(bad).err().unwrap().to_string();
            assert!(e.contains("pimc") || e.contains("threads"), "{bad}: {e}");
        }
    }
}

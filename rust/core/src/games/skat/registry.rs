//! Agent spec strings, parsed in one place: `random`, `rules` and `pimc[:OPTIONS]`. This module
//! sits above [`super::agents`] and [`super::pimc`]: it builds agents of both.

use super::agents::random::RandomAgent;
use super::agents::rules_agent::RulesAgent;
use super::agents::Agent;
use super::pimc::agent as pimc;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random, rules or pimc[:worlds=N,threads=T,seed=S]";

/// Builds an agent from a spec string (see [`SPECS`]; case and surrounding spaces do not matter).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent>> {
    let lower = spec.trim().to_ascii_lowercase();
    let (name, args) = lower.split_once(':').unwrap_or((&lower, ""));
    match (name.trim(), lower.contains(':')) {
        ("random", false) => Ok(Arc::new(RandomAgent)),
        ("rules", false) => Ok(Arc::new(RulesAgent::default())),
        ("pimc", _) => Ok(Arc::new(pimc::from_options(args)?)),
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

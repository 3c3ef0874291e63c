//! Agent spec strings, parsed in one place: `random` and `rules` (the search agents come in
//! here as well: see [`parse`]).

use super::agents::random::RandomAgent;
use super::agents::rules_agent::RulesAgent;
use super::agents::Agent;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random or rules";

/// Builds an agent from a spec string (see [`SPECS`]; case and surrounding spaces do not matter).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent>> {
    let lower = spec.trim().to_ascii_lowercase();
    let (name, _args) = lower.split_once(':').unwrap_or((&lower, ""));
    match (name.trim(), lower.contains(':')) {
        ("random", false) => Ok(Arc::new(RandomAgent)),
        ("rules", false) => Ok(Arc::new(RulesAgent::default())),
        // The PIMC agent (`pimc[:worlds=N,threads=T,seed=S]`, module `super::pimc`) is parsed
        // here, from `_args`, once it is part of the crate; add it to SPECS then.
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
            assert!(e.contains(bad) && e.contains("random or rules"), "{bad}: {e}");
        }
    }
}

//! Agent spec strings, parsed in one place: `random`, `random-coward`, `rules`.

use super::agent::Agent;
use super::random::{RandomAgent, RandomCowardAgent};
use super::rules_agent::RulesAgent;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The spec strings [`parse`] accepts.
pub const SPECS: &str = "random, random-coward, rules or schafkopfrl-pimc[:n=N,m=M,threads=T]";

/// Builds an agent from a spec string (see [`SPECS`]).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent>> {
    match spec.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(Arc::new(RandomAgent)),
        "random-coward" => Ok(Arc::new(RandomCowardAgent)),
        "rules" => Ok(Arc::new(RulesAgent)),
        s if s.split(':').next() == Some(super::uct::NAME) => Ok(Arc::new(super::uct::from_spec(s)?)),
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
        let e = parse("pimc9").err().unwrap().to_string();
        assert!(e.contains("pimc9") && e.contains("random-coward"), "{e}");
    }
}

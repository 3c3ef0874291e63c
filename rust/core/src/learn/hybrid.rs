//! The options and name of every game's hybrid agent: a learned policy (`net:DIR`) before trick
//! `K`, PIMC from it on (`hybrid:net=DIR,from=K[,PIMC options]`). PIMC is costliest in the
//! first tricks (many unseen cards, deep searches) and strongest late; a network costs
//! microseconds at any point: the hybrid buys most of PIMC's card play for a fraction of its
//! time. Each game plays it with its own agents (`games::skat::hybrid`,
//! `games::schafkopf::hybrid`).

use crate::error::{Error, Result};
use crate::spec::{split_options, AgentOptions};

/// A parsed `hybrid:` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct HybridSpec {
    /// The options after `net:` of the early agent (the policy directory).
    pub net: String,
    /// The first trick (1-based) PIMC plays.
    pub from: u8,
    /// The options after `pimc:` of the late agent.
    pub pimc: String,
}

/// The help text of `hybrid:` for a game of `tricks` tricks whose PIMC plays from trick
/// `default_from` unless told otherwise.
pub fn help(tricks: u64, default_from: u64) -> String {
    format!(
        "net=DIR (a policy directory made by `cfrkit learn imitate`), from=K (the trick, 1 to {tricks}, from which \
         PIMC plays; default {default_from}) and any options of pimc (worlds=N, seed=S, inference=net:DIR, ...), \
         e.g. net=policies/game,from=3,worlds=40"
    )
}

impl HybridSpec {
    /// Parses the options after `hybrid:` for a game of `tricks` tricks.
    pub fn parse(args: &str, tricks: u64, default_from: u64) -> Result<HybridSpec> {
        let help = help(tricks, default_from);
        let (own, pimc) = split_options(args, &["net", "from"]);
        let o = AgentOptions::parse("hybrid", &own, &["net", "from"], &help)?;
        let net = o.text("net").ok_or_else(|| Error::invalid("hybrid net", "none", help.clone()))?;
        let from = o.uint("from", default_from, 1, tricks)? as u8;
        Ok(HybridSpec { net: net.to_string(), from, pimc })
    }
}

/// The hybrid agent's name from its parts' names (`net:DIR`, `pimc:…`):
/// `hybrid:net=DIR,from=K,worlds=N…`.
pub fn name(net: &str, from: u8, pimc: &str) -> String {
    let dir = net.strip_prefix("net:").unwrap_or(net);
    let pimc = pimc.strip_prefix("pimc:").unwrap_or(pimc);
    format!("hybrid:net={dir},from={from},{pimc}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_into_their_agents_and_bad_ones_are_refused() {
        let s = HybridSpec::parse("worlds=8,NET=Pol/A,from=3,seed=2", 10, 4).unwrap();
        assert_eq!(s, HybridSpec { net: "Pol/A".into(), from: 3, pimc: "worlds=8,seed=2".into() });
        assert_eq!(HybridSpec::parse("net=p", 8, 3).unwrap().from, 3);
        for (bad, want) in [("worlds=8", "hybrid net"), ("net=p,from=0", "from"), ("net=p,from=11", "1 to 10")] {
            let e = HybridSpec::parse(bad, 10, 4).unwrap_err().to_string();
            assert!(e.contains(want), "{bad}: {e}");
        }
        assert_eq!(name("net:pol", 4, "pimc:worlds=8"), "hybrid:net=pol,from=4,worlds=8");
    }
}

//! Sampled CFR, for any game.
//!
//! * [`table`] — a concurrent infoset table over compact integer keys (f32 accumulators in a
//!   shared arena, a sharded index, a per-thread slot cache), for games too big to compile:
//!   Setback's trainer keeps its own tuned walk over it;
//! * [`policy`] — average strategies over integer keys and the average rule;
//! * [`files`] — checkpoint and strategy files over integer keys;
//! * [`mccfr`] — external- and outcome-sampling Monte-Carlo CFR with OpenSpiel's semantics over
//!   any compiled game ([`crate::tree::PublicTree`]): dense per-infoset arrays, seeded and
//!   reproducible, parallel on rayon, checkpointed and resumable.
//!
//! Regret matching is [`crate::cfr::regret_matching`], shared with the full-width solvers.

pub mod files;
mod index;
pub mod mccfr;
pub mod policy;
pub mod table;

pub use index::Key;
pub use policy::{average_strategy, KeyedPolicy};
pub use table::{Record, SlotCache, Table};

use crate::cfr::{Algorithm, ALGORITHM_NAMES};
use crate::error::{Error, Result};
use mccfr::Method;

/// Every algorithm a compiled game can be solved with: the full-width ones
/// ([`crate::cfr::ALGORITHM_NAMES`]), then the sampled ones ([`mccfr::NAMES`]).
pub fn algorithm_names() -> Vec<&'static str> {
    ALGORITHM_NAMES.iter().chain(mccfr::NAMES).copied().collect()
}

/// A solver algorithm of either family, parsed from its name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolverAlgorithm {
    /// A full-width CFR-family update rule.
    FullWidth(Algorithm),
    /// Monte-Carlo CFR.
    Sampled(Method),
}

impl SolverAlgorithm {
    /// Parses any name of [`algorithm_names`]: `dcfr` takes DCFR's `(alpha, beta, gamma)`,
    /// `os-mccfr` an optional exploration `epsilon` (which no other algorithm takes).
    pub fn parse(name: &str, dcfr: (f64, f64, f64), epsilon: Option<f64>) -> Result<SolverAlgorithm> {
        if Method::is_name(name) {
            return Method::parse(name, epsilon).map(SolverAlgorithm::Sampled);
        }
        if let Some(e) = epsilon {
            return Err(Error::invalid("epsilon", e, "none: epsilon is os-mccfr's exploration"));
        }
        match Algorithm::parse(name, dcfr) {
            Err(Error::UnknownAlgorithm { name, .. }) => {
                Err(Error::UnknownAlgorithm { name, known: algorithm_names().join(", ") })
            }
            other => other.map(SolverAlgorithm::FullWidth),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfr::DCFR_DEFAULTS;

    #[test]
    fn one_parser_names_every_algorithm() {
        assert_eq!(
            SolverAlgorithm::parse("cfr+", DCFR_DEFAULTS, None).unwrap(),
            SolverAlgorithm::FullWidth(Algorithm::CfrPlus)
        );
        assert_eq!(
            SolverAlgorithm::parse("es-mccfr", DCFR_DEFAULTS, None).unwrap(),
            SolverAlgorithm::Sampled(Method::External)
        );
        let e = SolverAlgorithm::parse("mccfr", DCFR_DEFAULTS, None).unwrap_err().to_string();
        assert!(e.contains("\"mccfr\"") && e.contains("cfr, cfr+, lcfr, dcfr, pcfr+, es-mccfr, os-mccfr"), "{e}");
        let e = SolverAlgorithm::parse("cfr", DCFR_DEFAULTS, Some(0.5)).unwrap_err().to_string();
        assert!(e.contains("epsilon") && e.contains("os-mccfr"), "{e}");
    }
}

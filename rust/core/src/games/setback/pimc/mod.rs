//! Perfect Information Monte Carlo (PIMC) for Setback: sample complete deals consistent with what
//! a player has seen, solve each as if every card were visible, and take the action with the best
//! average value.
//!
//! * [`worlds`] — determinization: uniform, exact sampling of the hidden hands under hand sizes,
//!   played cards, undealt cards and shown voids, rebuilt into deals at the view's state;
//! * [`solver`] — the perfect-information solver (alpha-beta with a transposition table);
//! * [`agent`] — [`PimcAgent`], bidding, setting trump and playing by PIMC: Setback's worlds and
//!   solver plugged into the generic loop of [`crate::search`].
//!
//! Known limit of the method: in each world the solver assumes everyone knows every card, so PIMC
//! can average over plays that no single strategy could make (strategy fusion) and never plays to
//! hide or gather information.

pub mod agent;
pub mod solver;
pub mod worlds;

pub use agent::PimcAgent;

use crate::error::{Error, Result};

/// The options accepted after `pimc:` (see [`parse`]).
pub const OPTIONS: &str = "comma-separated worlds=N (1 to 100000, default 64), threads=T (0 = all cores, the \
                           default) and seed=S (an unsigned integer, default 0), e.g. worlds=64,threads=2,seed=7";

/// Default worlds per decision.
pub const DEFAULT_WORLDS: usize = 64;

/// Builds a PIMC agent from the argument of a `pimc:` agent spec (see [`OPTIONS`]); an empty
/// argument gives the defaults.
pub fn parse(args: &str) -> Result<PimcAgent> {
    let (mut worlds, mut threads, mut seed) = (DEFAULT_WORLDS, 0usize, 0u64);
    let mut seen: Vec<&str> = Vec::new();
    for item in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((name, value)) = item.split_once('=') else {
            return Err(Error::invalid("pimc option", item, OPTIONS));
        };
        let (name, value) = (name.trim(), value.trim());
        if seen.contains(&name) {
            return Err(Error::invalid("pimc option", item, format!("each option once: {OPTIONS}")));
        }
        let number = |what: &str, max: u64| -> Result<u64> {
            match value.parse::<u64>() {
                Ok(v) if v <= max => Ok(v),
                _ => Err(Error::invalid(format!("pimc {what}"), value, OPTIONS)),
            }
        };
        match name {
            "worlds" => {
                worlds = number("worlds", agent::MAX_WORLDS as u64)? as usize;
                if worlds == 0 {
                    return Err(Error::invalid("pimc worlds", value, OPTIONS));
                }
            }
            "threads" => threads = number("threads", 4096)? as usize,
            "seed" => seed = number("seed", u64::MAX)?,
            _ => return Err(Error::invalid("pimc option", name, OPTIONS)),
        }
        seen.push(name);
    }
    PimcAgent::new(worlds, threads, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::setback::play::agent::Agent;

    #[test]
    fn parse_accepts_options_and_refuses_bad_input() {
        let a = parse("worlds=16,threads=1,seed=7").unwrap();
        assert_eq!((a.worlds(), a.threads(), a.seed()), (16, 1, 7));
        assert_eq!(a.name(), "pimc:worlds=16,seed=7");
        let d = parse("").unwrap();
        assert_eq!((d.worlds(), d.seed()), (DEFAULT_WORLDS, 0));
        assert_eq!(parse(" worlds = 8 ").unwrap().worlds(), 8);
        for bad in ["worlds=0", "worlds=100001", "worlds=x", "depth=3", "worlds", "seed=-1", "worlds=4,worlds=5"] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains("worlds=N"), "{bad}: {e}");
        }
    }
}

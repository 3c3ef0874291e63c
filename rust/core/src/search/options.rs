//! The options of every game's `pimc:` agent, parsed once: one set of keys ([`PIMC_KEYS`]) with
//! one meaning and one default each, plus the keys a game adds (Skat's `bidding`).

use super::inference::INFERENCE_OPTIONS;
use super::pimc::{Pimc, MAX_WORLDS, VALUES_OPTION};
use crate::error::Result;
use crate::spec::AgentOptions;

/// The options of every game's `pimc:` agent, e.g. `pimc:worlds=40,threads=2,seed=7` (a game may
/// add its own, as Skat's `bidding`).
pub const PIMC_KEYS: [&str; 8] = ["worlds", "threads", "seed", "values", "inference", "pool", "floor", "temper"];

/// What [`PIMC_KEYS`] mean, for a game whose decisions sample `default_worlds` worlds unless told.
pub fn pimc_options_help(default_worlds: usize) -> String {
    format!(
        "comma-separated worlds=N (1 to {MAX_WORLDS}, default {default_worlds}), threads=T (0 = all cores, the \
         default; the game's own thread inside a match that plays games in parallel), seed=S (an unsigned \
         integer, default 0), {VALUES_OPTION}; with inference: {INFERENCE_OPTIONS}"
    )
}

/// A `pimc:` agent's options `text`: the keys of [`PIMC_KEYS`] and the game's own `extra` keys
/// (described by `extra_help`, and the inference models by `models`), and the loop they set
/// (worlds, by default `default_worlds`; threads, by default all cores; seed; values).
pub fn parse_pimc_options(
    text: &str,
    default_worlds: usize,
    extra: &[&str],
    extra_help: &str,
    models: &str,
) -> Result<(AgentOptions, Pimc)> {
    let help = format!("{}{extra_help} ({models})", pimc_options_help(default_worlds));
    let keys: Vec<&str> = PIMC_KEYS.iter().chain(extra).copied().collect();
    let o = AgentOptions::parse("pimc", text, &keys, &help)?;
    let worlds = o.uint("worlds", default_worlds as u64, 1, MAX_WORLDS as u64)? as usize;
    let pimc = Pimc::new(worlds, o.threads()?, o.seed()?)?.with_logged_values(o.text("values"))?;
    Ok((o, pimc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threads;

    #[test]
    fn every_games_options_parse_alike() {
        let (o, p) = parse_pimc_options(" Worlds=12,seed=3,values=NONE,extra=1", 40, &["extra"], "", "").unwrap();
        assert_eq!((p.worlds(), p.seed(), p.logs_values(), o.text("extra")), (12, 3, false, Some("1")));
        let (_, d) = parse_pimc_options("", 40, &[], "", "").unwrap();
        assert_eq!((d.worlds(), d.threads(), d.logs_values()), (40, threads::resolve(0).unwrap(), true));
        for (bad, says) in [("depth=3", "threads=T (0 = all cores, the default;"), ("worlds=0", "from 1 to 100000")] {
            let e = parse_pimc_options(bad, 40, &[], "", "").unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}

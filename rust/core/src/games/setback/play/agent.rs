//! The [`Agent`] trait — anything that bids and plays from a player's [`View`] — and agent spec
//! strings: `random`, `rules`, `table:DIR` (argmax of a trained strategy), `table-sampled:DIR`
//! (drawn from it), `db:PATH` (the strategy database), `pimc[:OPTIONS]` (Perfect Information
//! Monte Carlo, e.g. `pimc:worlds=64`) and `hybrid:PATH[,OPTIONS]` (the database's bids, PIMC's
//! card play). `DIR` is a baseline training directory holding `strategy.cfrkit` (or the strategy
//! file itself), optionally followed by `+DIR2`, a bootstrap training directory whose
//! score-aware bids replace the baseline's.

use super::super::cards::{self, Card};
use super::super::pimc;
use super::database::Database;
use super::hybrid::HybridAgent;
use super::random::RandomAgent;
use super::rules_agent::RulesAgent;
use super::strategy_agent::{StrategyAgent, TableMode};
use super::view::View;
use crate::error::{Error, Result};
use rand_pcg::Pcg64;
use std::sync::Arc;

/// A Setback player. Agents are shared by the games of a match running on many threads, so they
/// hold no per-game state: every decision is a function of the view and the random stream.
pub trait Agent: Send + Sync {
    /// A short name for reports, e.g. `rules` or `table:runs/base`.
    fn name(&self) -> String;
    /// The bid (0 = Pass, 2, 3 or 4) of the viewing player, who is to act in the auction.
    fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8>;
    /// The card the viewing player, who is to act after the auction, plays.
    fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card>;
}

/// Spec strings the CLI and [`parse`] accept.
pub const SPECS: &str = "random, rules, table:DIR[+DIR2], table-sampled:DIR[+DIR2] (DIR a baseline training \
                         directory or strategy file, DIR2 a bootstrap one), db:PATH (a strategy database), \
                         pimc[:worlds=N,threads=T,seed=S] or hybrid:PATH[,worlds=N,threads=T,seed=S] (the \
                         database's bids, PIMC's card play)";

/// Builds an agent from a spec string (see [`SPECS`]).
pub fn parse(spec: &str) -> Result<Arc<dyn Agent>> {
    let (kind, arg) = match spec.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (spec, None),
    };
    match (kind, arg) {
        ("random", None) => Ok(Arc::new(RandomAgent)),
        ("rules", None) => Ok(Arc::new(RulesAgent)),
        ("table", Some(p)) if !p.is_empty() => Ok(Arc::new(StrategyAgent::load_tables(p, TableMode::Argmax)?)),
        ("table-sampled", Some(p)) if !p.is_empty() => Ok(Arc::new(StrategyAgent::load_tables(p, TableMode::Sampled)?)),
        ("db", Some(p)) if !p.is_empty() => Ok(Arc::new(database_agent(p)?)),
        ("pimc", opts) => Ok(Arc::new(pimc::parse(opts.unwrap_or(""))?)),
        ("hybrid", Some(arg)) if !arg.is_empty() => {
            let (path, opts) = arg.split_once(',').unwrap_or((arg, ""));
            let player = pimc::parse(opts)?;
            let label = format!("hybrid:{path}({})", player.name());
            Ok(Arc::new(HybridAgent::new(Arc::new(database_agent(path)?), Arc::new(player), label)))
        }
        _ => Err(Error::invalid("agent", spec, format!("one of {SPECS}"))),
    }
}

/// The database player of the strategy database at `path`.
fn database_agent(path: &str) -> Result<StrategyAgent> {
    Ok(StrategyAgent::new(Arc::new(Database::open(path.as_ref())?), format!("db:{path}")))
}

/// Checks an agent's bid against the legal bids.
pub fn check_bid(agent: &dyn Agent, view: &View, b: u8) -> Result<u8> {
    let legal = view.legal_bids();
    if legal.contains(&b) {
        Ok(b)
    } else {
        Err(Error::invalid(format!("bid of agent {}", agent.name()), b, format!("one of {legal:?}")))
    }
}

/// Checks an agent's card against the legal cards.
pub fn check_card(agent: &dyn Agent, view: &View, c: Card) -> Result<Card> {
    let legal = view.legal_cards();
    if c < 52 && legal & cards::bit(c) != 0 {
        Ok(c)
    } else {
        let name = if c < 52 { cards::card_name(c) } else { c.to_string() };
        Err(Error::invalid(
            format!("card of agent {}", agent.name()),
            name,
            format!("one of {}", cards::set_names(legal)),
        ))
    }
}

//! cfrkit's PIMC agent for Schafkopf: sample worlds consistent with the view, solve each with
//! every card visible, take the action with the best mean payment.
//!
//! **Cards**: every legal card is valued in each world by the [`Solver`] (the payment to the
//! agent after that card, both teams playing perfectly from there), averaged over the worlds;
//! the first card (in card order) with the highest mean is played. The choice is found with
//! bounds and only as many exact values as it needs ([`Pimc::choose_by_bounds`]);
//! [`PimcAgent::action_values`] gives every exact mean. In the play-out after all passed
//! (SchafkopfRL's rules) every card pays 0, and the first legal card is played.
//!
//! **Declarations, contra and retour**: each legal option is played in every world, the rest of
//! the auction and of the doubling rounds completed with every later seat passing (`pass`,
//! `no`), and the game that results solved from its first trick. So a declaration is valued as
//! if it wins the auction unless an earlier seat's declaration outranks it; `pass` is valued as
//! the game the earlier declarations make (0 when all pass); contra and retour as the game at the
//! doubled stake. Options that lead to the same game are solved once per world.
//!
//! Decisions are functions of the view and the random stream: one draw from the stream seeds
//! every world (world `i` from `(seed, draw, i)`), so they do not depend on the thread count.

use super::super::actions::{Action, Phase};
use super::super::agents::Agent;
use super::super::game::Game;
use super::super::view::View;
use super::solver::Solver;
use super::worlds::Worlds;
use crate::cards::Card;
use crate::error::{Error, Result};
use crate::search::{best_option, Pimc};
use rand_pcg::Pcg64;

pub use crate::search::MAX_WORLDS;

/// Default worlds per decision.
pub const DEFAULT_WORLDS: usize = 40;

/// Perfect Information Monte Carlo player (see the module documentation).
#[derive(Clone, Debug)]
pub struct PimcAgent {
    pimc: Pimc,
}

impl PimcAgent {
    /// An agent sampling `worlds` worlds (1..=[`MAX_WORLDS`]) per decision on `threads` threads
    /// (0 = `CFRKIT_NUM_THREADS` or all cores), its world streams keyed by `seed`.
    pub fn new(worlds: usize, threads: usize, seed: u64) -> Result<PimcAgent> {
        Ok(PimcAgent { pimc: Pimc::new(worlds, threads, seed)? })
    }

    /// The PIMC loop: worlds per decision, threads, seed.
    pub fn pimc(&self) -> &Pimc {
        &self.pimc
    }

    /// The mean payment over the sampled worlds of every legal action of the viewing seat, which
    /// must be to act, in the order of [`View::legal_actions`].
    pub fn action_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Action, f64)>> {
        let legal = legal_actions(view)?;
        let worlds = Worlds::new(view)?;
        let seat = view.seat();
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, world: &Game| {
            if world.phase() == Phase::Tricks {
                Ok(s.card_values(world)?.into_iter().map(|(_, v)| v).collect())
            } else {
                option_values(s, world, seat, &legal)
            }
        })?;
        Ok(legal.into_iter().zip(means).collect())
    }

    /// The card [`Agent::act`] plays: the first legal card with the highest mean payment, as by
    /// [`Self::action_values`], found with bounds.
    fn choose_card(&self, view: &View, legal: &[Action], rng: &mut Pcg64) -> Result<Action> {
        let cards: Vec<Card> =
            legal.iter().filter_map(|a| if let Action::Card(c) = a { Some(*c) } else { None }).collect();
        let worlds = Worlds::new(view)?;
        let k = self.pimc.choose_by_bounds(
            &worlds,
            rng,
            |s: &mut Solver, world: &Game| Ok(s.card_bounds(world)?.into_iter().map(|(_, lo, hi)| (lo, hi)).collect()),
            |s: &mut Solver, world: &Game, k, upper| s.card_below(world, cards[k], upper),
        )?;
        Ok(legal[k])
    }
}

/// The legal actions of a view of the seat to act.
fn legal_actions(view: &View) -> Result<Vec<Action>> {
    let legal = view.legal_actions();
    if legal.is_empty() {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
    }
    Ok(legal)
}

/// The payment to `seat` of each of its `options` in `world` (a declaration, contra or retour
/// decision): the option played, later seats passing, the resulting game solved.
fn option_values(solver: &mut Solver, world: &Game, seat: u8, options: &[Action]) -> Result<Vec<i64>> {
    let mut solved: Vec<(Game, i64)> = Vec::with_capacity(options.len());
    let mut values = Vec::with_capacity(options.len());
    for &option in options {
        let game = after(world, seat, option)?;
        let known = solved.iter().find(|(g, _)| same_game(g, &game)).map(|&(_, v)| v);
        let value = match known {
            Some(v) => v,
            None => {
                let v = if game.finished() || game.all_passed() {
                    i64::from(game.returns()[seat as usize])
                } else {
                    solver.value(&game, seat)?
                };
                solved.push((game, v));
                v
            }
        };
        values.push(value);
    }
    Ok(values)
}

/// `world` after `seat` plays `option` and every later decision before the first card is
/// `pass` or `no`.
fn after(world: &Game, seat: u8, option: Action) -> Result<Game> {
    let mut game = world.clone();
    game.apply(option)?;
    while let Some(p) = game.player() {
        let default = match game.phase() {
            Phase::Bidding => Action::Declare(super::super::contract::Declaration::Pass),
            Phase::Contra | Phase::Retour => Action::Double(false),
            Phase::Tricks | Phase::Finished => break,
        };
        debug_assert!(p != seat || game.phase() != Phase::Bidding, "each seat declares once");
        game.apply(default)?;
    }
    Ok(game)
}

/// Whether two games at their first trick are the same game: contract, declarer and stake.
fn same_game(a: &Game, b: &Game) -> bool {
    a.phase() == b.phase()
        && a.contract() == b.contract()
        && a.declarer() == b.declarer()
        && a.contra_given() == b.contra_given()
        && a.retour_given() == b.retour_given()
}

impl Agent for PimcAgent {
    fn name(&self) -> String {
        self.pimc.agent_name()
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let legal = legal_actions(view)?;
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        match view.phase() {
            // The play-out after all passed pays 0 whatever is played.
            Phase::Tricks if view.contract().is_some_and(|c| c.kind().is_none()) => Ok(legal[0]),
            Phase::Tricks => self.choose_card(view, &legal, rng),
            _ => {
                let values = self.action_values(view, rng)?;
                let means: Vec<f64> = values.iter().map(|&(_, v)| v).collect();
                Ok(values[best_option(&means).expect("a non-empty list of legal actions")].0)
            }
        }
    }
}

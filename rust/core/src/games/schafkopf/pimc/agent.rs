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
//! Every choice is found with bounds ([`Pimc::choose_by_bounds`]): the same action as the best
//! exact mean, with far less search.
//!
//! **Inference** (`inference=MODEL`, a learned policy `net:DIR` or `random`,
//! [`super::super::learned::move_model`]): the worlds of every decision are drawn from a pool of
//! candidate worlds (default four per world) in proportion to the probability, under the
//! model, of every move the other seats made in each
//! ([`crate::search::WeightedWorlds`], [`super::super::learned::log_likelihood`]): a Solo
//! declared before makes the worlds where its declarer holds many trumps likelier.
//!
//! Decisions are functions of the view and the random stream: one draw from the stream seeds
//! every world (world `i` from `(seed, draw, i)`), so they do not depend on the thread count.

use super::super::actions::{Action, Phase};
use super::super::agents::{Agent, Schafkopf};
use super::super::game::Game;
use super::super::learned::{log_likelihood, move_model, Model, MODEL_SPECS};
use super::super::view::View;
use super::solver::Solver;
use super::worlds::Worlds;
use crate::cards::Card;
use crate::error::{Error, Result};
use crate::search::{parse_pimc_options, Inference, Pimc, Sampling};
use rand_pcg::Pcg64;

pub use crate::search::MAX_WORLDS;

/// Default worlds per decision.
pub const DEFAULT_WORLDS: usize = 40;

/// Perfect Information Monte Carlo player (see the module documentation).
#[derive(Clone, Debug)]
pub struct PimcAgent {
    pimc: Pimc,
    /// The model its decisions weigh their worlds by, if any.
    inference: Option<Inference<Model>>,
}

impl PimcAgent {
    /// An agent sampling `worlds` worlds (1..=[`MAX_WORLDS`]) per decision on `threads` threads
    /// (0 = `CFRKIT_NUM_THREADS` or all cores), its world streams keyed by `seed`.
    pub fn new(worlds: usize, threads: usize, seed: u64) -> Result<PimcAgent> {
        Ok(PimcAgent::on(Pimc::new(worlds, threads, seed)?))
    }

    /// An agent deciding on the PIMC loop `pimc`.
    pub fn on(pimc: Pimc) -> PimcAgent {
        PimcAgent { pimc, inference: None }
    }

    /// The same agent with its decisions' worlds weighted by `inference`.
    pub fn with_inference(self, inference: Inference<Model>) -> PimcAgent {
        PimcAgent { inference: Some(inference), ..self }
    }

    /// The worlds of a decision of `view`: uniform among the consistent ones, or with inference
    /// drawn from a weighted pool (which takes one more draw from `rng`).
    fn worlds(&self, view: &View, rng: &mut Pcg64) -> Result<Sampling<Worlds>> {
        let seat = view.seat();
        Inference::sampling(self.inference.as_ref(), &self.pimc, Worlds::new(view)?, rng, |evidence, w: &Game| {
            log_likelihood(evidence, w, seat)
        })
    }

    /// The PIMC loop: worlds per decision, threads, seed.
    pub fn pimc(&self) -> &Pimc {
        &self.pimc
    }

    /// The mean payment over the sampled worlds of every legal action of the viewing seat, which
    /// must be to act, in the order of [`View::legal_actions`].
    pub fn action_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Action, f64)>> {
        let legal = legal_actions(view)?;
        let worlds = self.worlds(view, rng)?;
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
        let worlds = self.worlds(view, rng)?;
        let k = self.pimc.choose_by_bounds(
            &worlds,
            rng,
            |s: &mut Solver, world: &Game| Ok(s.card_bounds(world)?.into_iter().map(|(_, lo, hi)| (lo, hi)).collect()),
            |s: &mut Solver, world: &Game, k, upper| s.card_below(world, cards[k], upper),
        )?;
        Ok(legal[k])
    }

    /// The declaration, contra or retour [`Agent::act`] takes: the first option with the highest
    /// mean payment, as by [`Self::action_values`], found with bounds: each option's game is
    /// first only asked whether the player team wins, and only the options that may be best are
    /// solved further (a hopeless Solo is never asked about Schneider).
    fn choose_option(&self, view: &View, legal: &[Action], rng: &mut Pcg64) -> Result<Action> {
        let worlds = self.worlds(view, rng)?;
        let seat = view.seat();
        let k = self.pimc.choose_by_bounds(
            &worlds,
            rng,
            |s: &mut Solver, world: &Game| option_bounds(s, world, seat, legal),
            |s: &mut Solver, world: &Game, k, upper| s.value_below(&after(world, seat, legal[k])?, seat, upper),
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
    per_option(world, seat, options, |game| solver.value(game, seat))
}

/// Bounds on the payment to `seat` of each of its `options` in `world`, as
/// [`Solver::value_bounds`] gives them.
fn option_bounds(solver: &mut Solver, world: &Game, seat: u8, options: &[Action]) -> Result<Vec<(i64, i64)>> {
    per_option(world, seat, options, |game| solver.value_bounds(game, seat))
}

/// `solve` of the game each of `seat`'s `options` leads to in `world` (see [`after`]); options
/// that lead to the same game are solved once.
fn per_option<T: Copy>(
    world: &Game,
    seat: u8,
    options: &[Action],
    mut solve: impl FnMut(&Game) -> Result<T>,
) -> Result<Vec<T>> {
    let mut solved: Vec<(Game, T)> = Vec::with_capacity(options.len());
    options
        .iter()
        .map(|&option| {
            let game = after(world, seat, option)?;
            if let Some(&(_, v)) = solved.iter().find(|(g, _)| same_game(g, &game)) {
                return Ok(v);
            }
            let v = solve(&game)?;
            solved.push((game, v));
            Ok(v)
        })
        .collect()
}

/// `world` after `seat` plays `option` and every later decision before the first card is
/// `pass` or `no`.
fn after(world: &Game, seat: u8, option: Action) -> Result<Game> {
    let mut game = *world;
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

impl Agent<Schafkopf> for PimcAgent {
    fn name(&self) -> String {
        let inference = self.inference.as_ref().map(|i| i.name_suffix(self.pimc.worlds()));
        format!("{}{}", self.pimc.agent_name(), inference.unwrap_or_default())
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
            _ => self.choose_option(view, &legal, rng),
        }
    }

    /// [`Self::act`]'s action and, where it searches, every legal action's exact mean payment
    /// over the worlds ([`PimcAgent::action_values`]: more search than the choice alone needs);
    /// none with `values=none`.
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<crate::arena::log::Valued<Action>> {
        let legal = legal_actions(view)?;
        let playout = view.phase() == Phase::Tricks && view.contract().is_some_and(|c| c.kind().is_none());
        if legal.len() == 1 || playout || !self.pimc.logs_values() {
            return Ok((self.act(view, rng)?, None));
        }
        let values = self.action_values(view, rng)?;
        let means: Vec<f64> = values.iter().map(|v| v.1).collect();
        let best = crate::search::best_option(&means).unwrap_or(0);
        Ok((values[best].0, Some(values)))
    }
}

/// cfrkit's PIMC agent from the options after `pimc:` ([`PIMC_KEYS`]).
pub fn from_options(args: &str) -> Result<PimcAgent> {
    let (o, pimc) = parse_pimc_options(args, DEFAULT_WORLDS, &[], "", MODEL_SPECS)?;
    let worlds = pimc.worlds();
    let agent = PimcAgent::on(pimc);
    Ok(match Inference::from_options(&o, worlds, move_model)? {
        Some(inference) => agent.with_inference(inference),
        None => agent,
    })
}

#[cfg(test)]
mod tests {
    use super::super::super::agents::rules_agent::RulesAgent;
    use super::super::super::deal::Deal;
    use super::super::super::rules::Rules;
    use super::*;
    use crate::arena::quiet;
    use crate::search::best_option;
    use crate::trick::matches::{run_match, MatchSettings};
    use rand::SeedableRng;

    /// The games of deals `0..deals` played by the rules agent, every position on the way.
    fn positions(deals: u64, rules: Rules) -> Vec<Game> {
        let mut out = Vec::new();
        for i in 0..deals {
            let mut g = Game::new(&Deal::for_game(3, i), rules);
            let mut rng = Pcg64::seed_from_u64(i);
            while let Some(p) = g.player() {
                out.push(g);
                let a = RulesAgent.act(&View::new(&g, p), &mut rng).unwrap();
                g.apply(a).unwrap();
            }
        }
        out
    }

    fn first_best(values: &[(Action, f64)]) -> Action {
        let means: Vec<f64> = values.iter().map(|&(_, v)| v).collect();
        values[best_option(&means).unwrap()].0
    }

    /// Decisions depend on the view and the random stream only, not on the thread count; the
    /// action taken is the best by exact means (first on ties) though found with bounds.
    #[test]
    fn decisions_do_not_depend_on_threads_and_follow_exact_means() {
        let (one, two) = (PimcAgent::new(6, 1, 5).unwrap(), PimcAgent::new(6, 2, 5).unwrap());
        let (mut cards, mut others) = (0, 0);
        for (i, g) in positions(6, Rules::SCHAFKOPFRL).iter().enumerate() {
            let view = View::new(g, g.player().unwrap());
            // Declarations are the slowest decisions: a few suffice.
            let early = g.phase() != Phase::Tricks && others >= 3;
            if view.legal_actions().len() < 2 || early || (g.phase() == Phase::Tricks && g.tricks_done() < 4) {
                continue;
            }
            others += usize::from(g.phase() != Phase::Tricks);
            let rng = || Pcg64::seed_from_u64(i as u64);
            let values = one.action_values(&view, &mut rng()).unwrap();
            assert_eq!(values, two.action_values(&view, &mut rng()).unwrap());
            assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), view.legal_actions());
            let chosen = one.act(&view, &mut rng()).unwrap();
            assert_eq!(chosen, two.act(&view, &mut rng()).unwrap());
            if g.phase() != Phase::Tricks || g.contract().is_some_and(|c| c.kind().is_some()) {
                assert_eq!(chosen, first_best(&values), "{values:?}");
                cards += usize::from(g.phase() == Phase::Tricks);
            }
        }
        assert!(cards >= 20 && others == 3, "{cards} {others}");
    }

    /// With `values=none` a logged decision is the same action without the exact means (the
    /// default logs them); the option is in the name and refused when neither value.
    #[test]
    fn logged_values_can_be_left_out() {
        let exact = from_options("worlds=4").unwrap();
        let none = from_options("worlds=4,values=none").unwrap();
        assert_eq!(none.name(), "pimc:worlds=4,values=none");
        assert!(from_options("worlds=4,values=1").is_err());
        let mut valued = 0;
        for (i, g) in positions(3, Rules::SCHAFKOPFRL).iter().enumerate() {
            if g.phase() == Phase::Tricks && g.tricks_done() < 3 {
                continue;
            }
            let view = View::new(g, g.player().unwrap());
            let rng = || Pcg64::seed_from_u64(i as u64);
            let (a, values) = exact.act_valued(&view, &mut rng()).unwrap();
            assert_eq!(none.act_valued(&view, &mut rng()).unwrap(), (a, None));
            valued += usize::from(values.is_some());
        }
        assert!(valued >= 10, "{valued}");
    }

    /// Contra and retour double the stake of the game the other options leave: in every world
    /// the doubling option is worth exactly twice not doubling.
    #[test]
    fn doubling_is_valued_at_twice_the_stake() {
        let agent = PimcAgent::new(4, 1, 0).unwrap();
        let mut seen = 0;
        for g in positions(30, Rules::SCHAFKOPFRL) {
            let view = View::new(&g, g.player().unwrap());
            let legal = view.legal_actions();
            if matches!(g.phase(), Phase::Contra | Phase::Retour) && legal.len() == 2 && seen < 4 {
                let v = agent.action_values(&view, &mut Pcg64::seed_from_u64(seen)).unwrap();
                assert_eq!((v[0].0, v[1].0), (Action::Double(false), Action::Double(true)));
                assert_eq!(v[1].1, 2.0 * v[0].1, "{v:?}");
                seen += 1;
            }
        }
        assert!(seen >= 2, "{seen}");
    }

    /// Whole games against the rules agent, under both rule sets: every action legal (the
    /// match checks each), a seat not to act refused.
    #[test]
    fn plays_legal_games() {
        let pimc = PimcAgent::new(3, 1, 0).unwrap();
        for rules in [Rules::SCHAFKOPFRL, Rules::STANDARD] {
            let s = MatchSettings { rules, threads: 1, ..MatchSettings::default() };
            let r = run_match(&pimc, &RulesAgent, 2, &s, None, &mut quiet).unwrap();
            assert_eq!(r.pair.games, 4);
        }
        let g = Game::new(&Deal::for_game(0, 0), Rules::SCHAFKOPFRL);
        let idle = View::new(&g, (g.player().unwrap() + 1) % 4);
        assert!(pimc.act(&idle, &mut Pcg64::seed_from_u64(0)).is_err());
        assert!(PimcAgent::new(0, 1, 0).is_err());
        assert_eq!(pimc.name(), "pimc:worlds=3");
    }
}

//! The PIMC agent: sample worlds, solve each with perfect information, play the best average.
//!
//! **Card play** (the trump-setting lead included): draw `worlds` worlds consistent with the view
//! ([`Worlds`]), compute every legal card's value in each with the [`Solver`] (the deal score
//! difference for the agent's team after the setback rule), average over the worlds and play the
//! best card; ties go to the lowest card index. The move itself is found with bounds and only as
//! many exact values as the choice needs (`choose_card`); [`PimcAgent::card_values`] gives
//! every exact mean.
//!
//! **Bidding**: for each legal bid, the same worlds are completed with that bid and every later
//! bidder passing, then solved from the first lead. So a non-pass bid is valued as if it wins the
//! auction, with the setback risk of that bid; Pass is valued as the auction ending with the
//! current high bid (a partner's or an opponent's), or 0 when nobody has bid (all pass). Bids
//! reveal nothing hard about the hands, so the other hands are uniform over the unseen cards.
//! Values are deal points, not the game score; ties go to the lower bid. A bid that wins the
//! auction is worth no more in any world than a lower one (the bidding team scores the same
//! points, or is set back by more), so the decision needs only Pass and the lowest legal bid.
//!
//! **Inference** (`inference=MODEL`): the worlds of every decision are drawn from a pool of
//! candidate worlds (default four per world) in proportion to the probability, under the
//! model (a learned policy `net:DIR`, or an agent that gives the probabilities of its moves,
//! [`super::super::registry::move_model`]), of every move the other players made in each
//! ([`crate::search::WeightedWorlds`], [`super::super::learned::log_likelihood`]): a Four bid
//! makes the worlds where its bidder holds strong trumps likelier. It needs views that carry the
//! order of the cards played, as a game's views do.
//!
//! The worlds come from [`Worlds`] (Setback's [`Determinization`]) and are solved by [`Solver`]
//! (its [`PerfectInfoSolver`]) in the generic loop [`Pimc`], which also gives the tie rule.
//! Decisions are deterministic given the view and the random stream: one draw from the stream
//! seeds every world (world `i` from `(seed, draw, i)`), so the result does not depend on the
//! number of threads.

use super::super::cards::{self, Card};
use super::super::learned::{log_likelihood, Model};
use super::super::play::agent::{by_phase, Agent, Move, Setback};
use super::super::play::view::View;
use super::super::rules::{Deal, Phase};
use super::solver::Solver;
use super::worlds::Worlds;
use crate::arena::log::Valued;
use crate::error::{Error, Result};
use crate::search::{best_option, Determinization, Inference, PerfectInfoSolver, Pimc, Sampling};
use rand_pcg::Pcg64;
use std::cell::RefCell;

pub use crate::search::MAX_WORLDS;

thread_local! {
    /// One solver (and transposition table) per thread, reused across decisions.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

impl PerfectInfoSolver for Solver {
    fn with_thread_solver<T>(f: impl FnOnce(&mut Self) -> T) -> T {
        SOLVER.with(|s| f(&mut s.borrow_mut()))
    }
}

impl Determinization for Worlds<'_> {
    type World = Deal;
    fn sample(&self, rng: &mut Pcg64) -> Result<Deal> {
        Worlds::sample(self, rng)
    }
}

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
    fn worlds<'a>(&self, view: &'a View, rng: &mut Pcg64) -> Result<Sampling<Worlds<'a>>> {
        Inference::sampling(self.inference.as_ref(), &self.pimc, Worlds::new(view)?, rng, |evidence, world: &Deal| {
            log_likelihood(evidence, world, view)
        })
    }

    /// The PIMC loop: worlds per decision, threads, seed.
    pub fn pimc(&self) -> &Pimc {
        &self.pimc
    }

    /// The mean value over the sampled worlds of every legal card of the viewer, who must be to
    /// act after the auction, in ascending card order.
    pub fn card_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Card, f64)>> {
        let legal = view.legal_cards();
        if legal == 0 {
            return Err(Error::invalid("card request", "no legal card", "a view of a player to act in the playout"));
        }
        let worlds = self.worlds(view, rng)?;
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, deal| {
            Ok(s.card_values(deal)?.into_iter().map(|(_, v)| i64::from(v)).collect())
        })?;
        Ok(cards::iter(legal).zip(means).collect())
    }

    /// The card [`Agent::play`] chooses: the first legal card with the highest mean value over
    /// the sampled worlds, as by [`Self::card_values`], found with less search
    /// ([`Pimc::choose_by_bounds`] over [`Solver::card_bounds`] and [`Solver::card_below`]).
    fn choose_card(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        let worlds = self.worlds(view, rng)?;
        let legal: Vec<Card> = cards::iter(view.legal_cards()).collect();
        let k = self.pimc.choose_by_bounds(
            &worlds,
            rng,
            |s: &mut Solver, deal| {
                Ok(s.card_bounds(deal, false)?.into_iter().map(|(_, lo, hi)| (i64::from(lo), i64::from(hi))).collect())
            },
            |s: &mut Solver, deal, k, hi| Ok(i64::from(s.card_below(deal, legal[k], hi as i32)?)),
        )?;
        Ok(legal[k])
    }

    /// The mean value over the sampled worlds of every legal bid of the viewer, who must be to
    /// act in the auction, in the order Pass, Two, Three, Four.
    pub fn bid_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(u8, f64)>> {
        self.values_of_bids(view, &view.legal_bids(), rng)
    }

    /// The mean values of the bids `legal` (legal bids of the viewer, in ascending order).
    fn values_of_bids(&self, view: &View, legal: &[u8], rng: &mut Pcg64) -> Result<Vec<(u8, f64)>> {
        if legal.is_empty() {
            return Err(Error::invalid("bid request", "no legal bid", "a view of a player to act in the auction"));
        }
        let worlds = self.worlds(view, rng)?;
        let team = view.team();
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, deal| {
            let after = legal.iter().map(|&b| after_bid(deal, b)).collect::<Result<Vec<Deal>>>()?;
            Ok(s.values_across_bids(&after, team)?.into_iter().map(i64::from).collect())
        })?;
        Ok(legal.iter().copied().zip(means).collect())
    }
}

/// `deal` after bidding `b` in its auction when every later bidder passes.
fn after_bid(deal: &Deal, b: u8) -> Result<Deal> {
    let mut d = *deal;
    d.bid(b)?;
    while d.phase() == Phase::Auction {
        d.apply_bid(0);
    }
    Ok(d)
}

impl Agent<Setback> for PimcAgent {
    fn name(&self) -> String {
        let inference = self.inference.as_ref().map(|i| i.name_suffix(self.pimc.worlds()));
        format!("{}{}", self.pimc.agent_name(), inference.unwrap_or_default())
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Move> {
        by_phase(view, rng, |r| self.bid(view, r), |r| self.play(view, r))
    }

    /// The move [`PimcAgent::bid`] or [`PimcAgent::play`] makes, with every legal move's exact
    /// mean over the same worlds ([`PimcAgent::bid_values`], [`PimcAgent::card_values`]: more
    /// search than the choice alone needs); no values for a forced move.
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<Valued<Move>> {
        let values: Vec<(Move, f64)> = if view.phase() == Phase::Auction {
            if view.legal_bids().len() < 2 {
                return Ok((Move::Bid(self.bid(view, rng)?), None));
            }
            self.bid_values(view, rng)?.into_iter().map(|(b, v)| (Move::Bid(b), v)).collect()
        } else {
            if view.legal_cards().count_ones() < 2 {
                return Ok((Move::Card(self.play(view, rng)?), None));
            }
            self.card_values(view, rng)?.into_iter().map(|(c, v)| (Move::Card(c), v)).collect()
        };
        let means: Vec<f64> = values.iter().map(|v| v.1).collect();
        let best = best_option(&means).expect("two or more legal moves");
        Ok((values[best].0, Some(values)))
    }
}

impl PimcAgent {
    /// PIMC's bid for the viewing player, who is to act in the auction.
    pub fn bid(&self, view: &View, rng: &mut Pcg64) -> Result<u8> {
        let legal = view.legal_bids();
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        // In every world a higher bid is worth no more than a lower one (see the module
        // documentation), so the lowest bid stands for all and, ties going to the lower bid,
        // the choice is the same as over every legal bid.
        let candidates: Vec<u8> =
            legal.iter().copied().filter(|&b| b == 0).chain(legal.iter().copied().find(|&b| b > 0)).collect();
        let values = self.values_of_bids(view, &candidates, rng)?;
        let means: Vec<f64> = values.iter().map(|&(_, v)| v).collect();
        Ok(values[best_option(&means).expect("a non-empty list of legal bids")].0)
    }

    /// PIMC's card for the viewing player, who is to act after the auction.
    pub fn play(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        let legal = view.legal_cards();
        if legal.count_ones() == 1 {
            return Ok(cards::lowest(legal));
        }
        self.choose_card(view, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::setback::play::matches::run_match;
    use crate::games::setback::play::random::RandomAgent;
    use crate::games::setback::play::rules_agent::RulesAgent;
    use rand::SeedableRng;

    /// The item of the first highest value, by PIMC's tie rule.
    fn argmax<T: Copy>(values: &[(T, f64)]) -> T {
        let means: Vec<f64> = values.iter().map(|&(_, v)| v).collect();
        values[best_option(&means).unwrap()].0
    }

    /// Views of the player to act along deals played by the rules agent.
    fn views(deals: u64) -> Vec<View> {
        let mut rng = Pcg64::seed_from_u64(1);
        let mut out = Vec::new();
        for k in 0..deals {
            let mut d = Deal::seeded(k);
            while !d.is_finished() && !d.is_exhausted() {
                let v = View::of_actor(&d, [0, 0]).unwrap();
                out.push(v);
                if d.phase() == Phase::Auction {
                    d.bid(RulesAgent.bid(&v, &mut rng).unwrap()).unwrap();
                } else {
                    d.play_card(RulesAgent.play(&v, &mut rng).unwrap()).unwrap();
                }
            }
        }
        out
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(PimcAgent::new(0, 1, 0).is_err());
        assert!(PimcAgent::new(MAX_WORLDS + 1, 1, 0).is_err());
        let agent = PimcAgent::new(4, 1, 0).unwrap();
        let d = Deal::seeded(3);
        let not_to_act = View::new(&d, 2, [0, 0]);
        let mut rng = Pcg64::seed_from_u64(0);
        assert!(agent.bid(&not_to_act, &mut rng).is_err());
        assert!(agent.play(&View::of_actor(&d, [0, 0]).unwrap(), &mut rng).is_err());
    }

    /// Values, and so decisions, depend on the view and the random stream only: not on threads.
    #[test]
    fn decisions_do_not_depend_on_threads() {
        let one = PimcAgent::new(12, 1, 5).unwrap();
        let two = PimcAgent::new(12, 2, 5).unwrap();
        for (i, v) in views(4).iter().enumerate() {
            let (mut r1, mut r2) = (Pcg64::seed_from_u64(i as u64), Pcg64::seed_from_u64(i as u64));
            if v.legal_bids().len() > 1 {
                assert_eq!(one.bid_values(v, &mut r1).unwrap(), two.bid_values(v, &mut r2).unwrap());
            } else if v.legal_cards().count_ones() > 1 {
                let values = one.card_values(v, &mut r1).unwrap();
                assert_eq!(values, two.card_values(v, &mut r2).unwrap());
                assert_eq!(
                    values.iter().map(|x| x.0).collect::<Vec<_>>(),
                    cards::iter(v.legal_cards()).collect::<Vec<_>>()
                );
                assert!(values.iter().all(|x| x.1.abs() <= 8.0));
            }
        }
    }

    /// The card chosen with bounds is the best by exact mean values (first on ties), at the
    /// trump-setting lead, in the first trick and later.
    #[test]
    fn cards_are_chosen_as_by_exact_values() {
        let agent = PimcAgent::new(8, 1, 7).unwrap();
        let mut kinds = [0; 3];
        for (i, v) in views(10).iter().enumerate().filter(|(_, v)| v.legal_cards().count_ones() > 1) {
            let values = agent.card_values(v, &mut Pcg64::seed_from_u64(i as u64)).unwrap();
            assert_eq!(agent.play(v, &mut Pcg64::seed_from_u64(i as u64)).unwrap(), argmax(&values));
            kinds[match (v.phase(), v.tricks_done()) {
                (Phase::Establish, _) => 0,
                (_, 0) => 1,
                _ => 2,
            }] += 1;
        }
        assert!(kinds.iter().all(|&k| k >= 3), "{kinds:?}");
    }

    /// Higher bids are worth no more than lower ones in every world, so the bid chosen from Pass
    /// and the lowest legal bid is the best of all legal bids (ties to the lower).
    #[test]
    fn bids_are_chosen_as_over_every_legal_bid() {
        let agent = PimcAgent::new(6, 1, 3).unwrap();
        let mut compared = 0;
        for (i, v) in views(12).iter().enumerate().filter(|(_, v)| v.legal_bids().len() > 2) {
            let all = agent.bid_values(v, &mut Pcg64::seed_from_u64(i as u64)).unwrap();
            for pair in all.windows(2).filter(|p| p[0].0 > 0) {
                assert!(pair[0].1 >= pair[1].1, "{all:?}");
            }
            assert_eq!(agent.bid(v, &mut Pcg64::seed_from_u64(i as u64)).unwrap(), argmax(&all));
            compared += 1;
        }
        assert!(compared >= 10, "{compared}");
    }

    /// PIMC plays whole games against the rules agent with only legal moves (the match checks
    /// every bid and card).
    #[test]
    fn plays_legal_games_against_rules() {
        let pimc = PimcAgent::new(8, 1, 0).unwrap();
        let s = run_match(&pimc, &RulesAgent, 2, 3, 2).unwrap();
        assert_eq!(s.games, 4);
        assert!(s.deals >= 4);
    }

    /// PIMC beats the random agent clearly.
    #[test]
    fn beats_random() {
        let pimc = PimcAgent::new(8, 1, 0).unwrap();
        let s = run_match(&pimc, &RandomAgent, 4, 1, 2).unwrap();
        assert!(s.win_rate >= 0.85, "{s:?}");
        assert!(s.mean_points[0] > s.mean_points[1] + 1.0, "{s:?}");
    }
}

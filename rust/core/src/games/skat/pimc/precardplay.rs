//! Search-based decisions before the cards (`pimc:…,bidding=search`): bid limit, Hand or
//! pickup, discard and contract chosen by solving sampled worlds for each candidate and
//! maximising the mean Seeger-Fabian points (TP) of the agent's seat, as open-hand Skat
//! programs do.
//!
//! Every decision samples `worlds` worlds consistent with the view ([`Worlds`]: the other
//! hands and the skat, uniformly; nothing is inferred from the other seats' calls) and values
//! a fixed list of *options* in each world with the [`Solver`] (the declarer's TP when everyone
//! plays perfectly with every card visible, from the first trick on); the option with the
//! highest mean is taken, the first on ties. One draw from the random stream seeds the worlds
//! ([`Pimc`]), so the decisions do not depend on the thread count.
//!
//! **Candidates.** Solving every contract and discard would cost too much, so candidates are
//! pruned with the `rules` agent's hand ratings ([`strength`]):
//! * *contracts* (of a hand of ten cards): every legal null contract (nulls are almost free to
//!   solve) and, for the `contracts` suit or grand games that rate best (a grand's rating +2,
//!   as `rules` does), the legal contract of that game with the fewest announcements;
//! * *discards* (of twelve cards): for the `games` games whose best discard rates best, that
//!   game's `discards` best discards by the `rules` discard rating (the rating of the ten cards
//!   kept, +0.03 per card point put away, −3 per trump put away), each with its game's
//!   contract as above.
//!
//! **The decisions.**
//! * *Declare*: each candidate contract's mean TP over the worlds.
//! * *Discard* (after a pickup): each candidate (discard, contract) pair's mean TP; the best
//!   pair's discard is put away (the contract is chosen again, by search, at the declaration).
//! * *Hand or pickup*: Hand is worth the best candidate Hand contract's mean TP (one contract
//!   for every world, as the skat is unseen); pickup is worth the mean over the worlds (each of
//!   which fixes the skat) of the best candidate (discard, contract) in that world. The pickup
//!   value is optimistic twice over: the discard and the contract are chosen knowing the
//!   defenders' hands (strategy fusion), and so is the play. No discount is applied; Hand
//!   wins ties.
//! * *Bidding*: the value `v` at stake is the next value to name (as bidder) or the value to
//!   hold (as hearer; 18 for Vorhand alone). In each world the agent's seat is made declarer
//!   at `v` (the other calls replaced by passes) and the Hand-or-pickup options above are
//!   valued at that bid (an overbid loses, as the scoring says). The agent bids or holds when
//!   the best option's mean beats [`PrecardplaySearch::defend_tp`], the TP it expects from
//!   defending (a constant, default [`DEFEND_TP`]: a defender scores 40 when the declarer
//!   loses, about a quarter of the games, and 0 in thrown-in deals); else it passes. As a
//!   higher bid only removes contracts and adds overbids, this is "bid while the next value is
//!   within the limit" for the highest value whose declaring beats defending, found one value
//!   at a time (each call searches once; agents keep no state between calls). A hand that the
//!   `rules` agent would not bid even with a threshold lowered by [`PREFILTER_SLACK`] passes
//!   without search.
//!
//! **Values.** By default a world's value of a suit or grand contract is not the exact TP
//! ([`Solver::value`], ~1–10 ms per world) but the TP of a win or a loss as the solver's one
//! null-window search ([`Solver::declarer_wins`], ~10 times cheaper) finds it, scored without
//! Schneider or Schwarz reached (announced ones count when won) and with the matadors of the
//! declarer's twelve cards, overbids lost; nulls are solved exactly (they are cheap). The field
//! [`PrecardplaySearch::exact`] asks for exact values.
//!
//! **Cost.** A bidding or Hand-or-pickup decision solves (contracts + games × discards + the
//! legal nulls) games per world, a declaration `contracts` + nulls, a discard `games ×
//! discards`; suit games take ~1–10 ms each on one thread, nulls far less.

use super::super::actions::{Action, Phase};
use super::super::agents::rules_agent::{bid_limit, strength, Thresholds};
use super::super::agents::{Agent, Skat};
use super::super::bidding::Call;
use super::super::cards::{bit, set_points, DECK};
use super::super::contract::{Contract, GameType};
use super::super::deal::Deal;
use super::super::game::Game;
use super::super::scoring::{matadors, score};
use super::super::view::View;
use super::solver::Solver;
use super::worlds::Worlds;
use crate::cards::{iter, Card, CardSet};
use crate::error::{Error, Result};
use crate::search::{best_option, Pimc};
use rand_pcg::Pcg64;

/// Default worlds per decision before the cards.
pub const DEFAULT_BIDDING_WORLDS: usize = 16;
/// Default TP the agent expects from defending (see the module documentation).
pub const DEFEND_TP: f64 = 10.0;
/// How far below the `rules` bid threshold a hand is still searched when bidding.
pub const PREFILTER_SLACK: f32 = 1.5;

/// A discard with its rating.
type Rated = (f32, CardSet);

/// The search-based pre-cardplay agent (see the module documentation).
#[derive(Clone, Debug)]
pub struct PrecardplaySearch {
    pimc: Pimc,
    /// Suit or grand games tried per hand of ten cards.
    pub contracts: usize,
    /// Games tried per pickup.
    pub games: usize,
    /// Discards tried per game in a pickup.
    pub discards: usize,
    /// The TP expected from defending: the bar a bid must beat.
    pub defend_tp: f64,
    /// Exact TP per world ([`Solver::value`]) rather than the win-or-loss estimate (default).
    pub exact: bool,
}

impl PrecardplaySearch {
    /// The agent with `worlds` worlds per decision on `threads` threads (0 = all cores), its
    /// world streams keyed by `seed`; 2 contracts, 2 games × 2 discards, [`DEFEND_TP`], win-or-loss
    /// values.
    pub fn new(worlds: usize, threads: usize, seed: u64) -> Result<PrecardplaySearch> {
        Ok(PrecardplaySearch {
            pimc: Pimc::new(worlds, threads, seed)?,
            contracts: 2,
            games: 2,
            discards: 2,
            defend_tp: DEFEND_TP,
            exact: false,
        })
    }

    /// Worlds per decision.
    pub fn worlds(&self) -> usize {
        self.pimc.worlds()
    }

    /// The candidate contracts of a hand of ten `cards` among `legal` (see the module
    /// documentation), in `legal` order.
    pub fn contract_candidates(&self, legal: &[Contract], cards: CardSet) -> Vec<Contract> {
        let rating = |g: GameType| strength(g, cards) + if g == GameType::Grand { 2.0 } else { 0.0 };
        // Per suit or grand game, its legal contract with the fewest announcements.
        let mut per_game: Vec<Contract> = Vec::new();
        for &c in legal.iter().filter(|c| c.game != GameType::Null) {
            match per_game.iter_mut().find(|x| x.game == c.game) {
                Some(x) if c.announced_levels() < x.announced_levels() => *x = c,
                Some(_) => {}
                None => per_game.push(c),
            }
        }
        let mut ranked = per_game.clone();
        ranked.sort_by(|a, b| rating(b.game).total_cmp(&rating(a.game)));
        ranked.truncate(self.contracts);
        legal.iter().copied().filter(|c| c.game == GameType::Null || ranked.contains(c)).collect()
    }

    /// The candidate (discard, contract) pairs of `g`, a game in the discard phase (see the
    /// module documentation).
    pub fn pickup_candidates(&self, g: &Game) -> Vec<(CardSet, Contract)> {
        let Some(seat) = g.player() else { return Vec::new() };
        let cards = g.hand(seat);
        let list: Vec<Card> = iter(cards).collect();
        let mut per_game: Vec<(f32, GameType, Vec<Rated>)> = Vec::new();
        for game in GameType::ALL {
            let trumps = Contract::plain(game).trumps();
            let threshold = match game {
                GameType::Null => 7.0,
                GameType::Grand => 4.0,
                GameType::Suit(_) => 6.0,
            };
            let mut pairs = Vec::with_capacity(66);
            for (i, &a) in list.iter().enumerate() {
                for &b in &list[i + 1..] {
                    let pair = bit(a) | bit(b);
                    let mut v = strength(game, cards & !pair) - threshold;
                    if game != GameType::Null {
                        v += 0.03 * set_points(pair) as f32 - 3.0 * (pair & trumps).count_ones() as f32;
                    }
                    pairs.push((v, pair));
                }
            }
            // Stable: ties keep the first discard.
            pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
            pairs.truncate(self.discards);
            per_game.push((pairs[0].0, game, pairs));
        }
        per_game.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut out = Vec::new();
        for (_, game, pairs) in per_game {
            if out.len() >= self.games * self.discards {
                break;
            }
            for (_, pair) in pairs {
                let mut x = *g;
                if x.apply(Action::Discard(pair)).is_err() {
                    continue;
                }
                let legal = x.legal_contracts();
                let best = legal
                    .iter()
                    .filter(|c| c.game == game)
                    .min_by_key(|c| (c.announced_levels(), c.null_value().unwrap_or(0)));
                if let Some(&c) = best {
                    out.push((pair, c));
                }
            }
        }
        out
    }

    /// The options of a game in the skat phase: the candidate Hand contracts.
    fn hand_options(&self, g: &Game) -> Result<Vec<Contract>> {
        let seat = g.player().unwrap_or(0);
        let mut h = *g;
        h.apply(Action::Hand(true))?;
        Ok(self.contract_candidates(&h.legal_contracts(), h.hand(seat)))
    }

    /// The TP of each of `hand` (Hand contracts) in world `g` (skat phase), then of the best
    /// candidate pickup (discard, contract) in that world.
    fn skat_values(&self, s: &mut Solver, g: &Game, hand: &[Contract]) -> Result<Vec<i64>> {
        let seat = g.player().unwrap_or(0);
        let mut out = Vec::with_capacity(hand.len() + 1);
        let mut h = *g;
        h.apply(Action::Hand(true))?;
        for &c in hand {
            out.push(declared_value(self.exact, s, &h, c, seat)?);
        }
        let mut p = *g;
        p.apply(Action::Hand(false))?;
        let mut best = i64::MIN;
        for (pair, c) in self.pickup_candidates(&p) {
            let mut x = p;
            x.apply(Action::Discard(pair))?;
            best = best.max(declared_value(self.exact, s, &x, c, seat)?);
        }
        if best == i64::MIN {
            return Err(Error::invalid("pickup", "no candidate discard", "a pickup with a legal contract"));
        }
        out.push(best);
        Ok(out)
    }

    /// The mean TP of Hand's candidate contracts and of pickup for the viewing seat declaring
    /// at `bid`: the Hand contracts, the means (the last one pickup's).
    pub fn declaring_values(&self, view: &View, bid: u16, rng: &mut Pcg64) -> Result<(Vec<Contract>, Vec<f64>)> {
        let seat = view.seat();
        let worlds = Worlds::new(view)?;
        let in_skat = view.phase() == Phase::Skat;
        let template = declaring_at(&filled(view)?, seat, bid)?;
        let hand = self.hand_options(&template)?;
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, w: &Game| {
            let g = if in_skat { *w } else { declaring_at(&w.deal(), seat, bid)? };
            self.skat_values(s, &g, &hand)
        })?;
        Ok((hand, means))
    }

    fn bid(&self, view: &View, legal: &[Action], rng: &mut Pcg64) -> Result<Action> {
        let next = legal.iter().find_map(|&a| match a {
            Action::Call(Call::Bid(v)) => Some((a, v)),
            _ => None,
        });
        let (act, v) = match next {
            Some(x) => x,
            None if legal.contains(&Action::Call(Call::Hold)) => (Action::Call(Call::Hold), view.auction().current()),
            None => return Ok(Action::Call(Call::Pass)),
        };
        let th = Thresholds::default();
        let relaxed = Thresholds { bid: th.bid - PREFILTER_SLACK, ..th };
        if bid_limit(view.hand(), &relaxed) == 0 {
            return Ok(Action::Call(Call::Pass));
        }
        let (_, means) = self.declaring_values(view, v, rng)?;
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Ok(if best > self.defend_tp { act } else { Action::Call(Call::Pass) })
    }

    fn hand_or_pickup(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let (_, means) = self.declaring_values(view, view.bid(), rng)?;
        let (pickup, hand) = means.split_last().unwrap_or((&f64::NEG_INFINITY, &[]));
        let best_hand = hand.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Ok(Action::Hand(best_hand >= *pickup))
    }

    /// The candidate (discard, contract) pairs of the viewing declarer, who is to discard, with
    /// their mean TP.
    pub fn discard_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<((CardSet, Contract), f64)>> {
        let seat = view.seat();
        let worlds = Worlds::new(view)?;
        let template = worlds.sample(&mut crate::streams::stream(0, 0, 0, 0))?;
        let options = self.pickup_candidates(&template);
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, w: &Game| {
            options
                .iter()
                .map(|&(pair, c)| {
                    let mut x = *w;
                    x.apply(Action::Discard(pair))?;
                    declared_value(self.exact, s, &x, c, seat)
                })
                .collect()
        })?;
        Ok(options.into_iter().zip(means).collect())
    }

    /// The candidate contracts of the viewing declarer, who is to declare, with their mean TP.
    pub fn contract_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Contract, f64)>> {
        let seat = view.seat();
        let options = self.contract_candidates(&view.legal_contracts(), view.hand());
        let worlds = Worlds::new(view)?;
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, w: &Game| {
            options.iter().map(|&c| declared_value(self.exact, s, w, c, seat)).collect()
        })?;
        Ok(options.into_iter().zip(means).collect())
    }
}

/// The TP of `seat` when `g` (declaration phase) is declared `c` and played perfectly: exact
/// ([`Solver::value`]) when `exact`, else from whether the declarer wins
/// ([`Solver::declarer_wins`], one null-window search) scored as a win or loss without
/// Schneider or Schwarz reached (see the module documentation).
fn declared_value(exact: bool, s: &mut Solver, g: &Game, c: Contract, seat: u8) -> Result<i64> {
    let mut x = *g;
    x.apply(Action::Declare(c))?;
    if exact || c.game == GameType::Null {
        return s.value(&x, seat);
    }
    let won = s.declarer_wins(&x)?;
    let d = x.declarer().unwrap_or(seat);
    let m = matadors(c.game, x.dealt(d) | x.skat()).map_or(0, |m| m.0);
    let (points, tricks) = if won { (61, 5) } else { (60, 5) };
    let sc = score(
        c,
        x.bid() as u32,
        m,
        if c.schneider && won { 90 } else { points },
        if c.schwarz && won { 10 } else { tricks },
    );
    Ok(if d == seat { sc.declarer_tp } else { sc.defender_tp } as i64)
}

/// The game of `deal` in the skat phase with `seat` declarer at `bid`, the other calls passes
/// (and a hold by Vorhand when it declares above 18).
pub fn declaring_at(deal: &Deal, seat: u8, bid: u16) -> Result<Game> {
    use Call::{Bid, Hold, Pass};
    let calls: &[Call] = match (seat, bid) {
        (0, 18) => &[Pass, Pass, Bid(18)],
        (0, _) => &[Bid(bid), Hold, Pass, Pass],
        (1, _) => &[Bid(bid), Pass, Pass],
        _ => &[Pass, Bid(bid), Pass],
    };
    let mut g = Game::new(deal);
    for &c in calls {
        g.apply(Action::Call(c))?;
    }
    Ok(g)
}

/// A deal in which the viewing seat holds its dealt cards and the others the unseen ones in
/// card order (only the seat's own cards matter to the options of a decision).
fn filled(view: &View) -> Result<Deal> {
    let seat = view.seat() as usize;
    let own = view.dealt_hand();
    let mut hands = [0; 3];
    hands[seat] = own;
    let mut rest: Vec<Card> = iter(DECK & !own).collect();
    let skat = rest.split_off(20).into_iter().fold(0, |m, c| m | bit(c));
    for (k, p) in (0..3).filter(|&p| p != seat).enumerate() {
        hands[p] = rest[10 * k..10 * k + 10].iter().fold(0, |m, &c| m | bit(c));
    }
    Deal::new(hands, skat)
}

impl Agent<Skat> for PrecardplaySearch {
    fn name(&self) -> String {
        format!("precardplay-search:worlds={}", self.pimc.worlds())
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let legal = view.legal_actions();
        if legal.is_empty() {
            return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
        }
        match view.phase() {
            Phase::Bidding => self.bid(view, &legal, rng),
            Phase::Skat => self.hand_or_pickup(view, rng),
            Phase::Discard => {
                let values = self.discard_values(view, rng)?;
                let means: Vec<f64> = values.iter().map(|v| v.1).collect();
                match best_option(&means) {
                    Some(k) => Ok(Action::Discard(values[k].0 .0)),
                    None => Ok(legal[0]),
                }
            }
            Phase::Declare => {
                let values = self.contract_values(view, rng)?;
                let means: Vec<f64> = values.iter().map(|v| v.1).collect();
                match best_option(&means) {
                    Some(k) => Ok(Action::Declare(values[k].0)),
                    None => Ok(legal[0]),
                }
            }
            Phase::Tricks | Phase::Finished => Err(Error::invalid(
                "view",
                format!("phase {}", view.phase().name()),
                "a decision before the cards (the pre-cardplay search plays no cards)",
            )),
        }
    }
}

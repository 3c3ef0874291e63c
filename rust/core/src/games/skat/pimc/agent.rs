//! cfrkit's PIMC agent for Skat: sample worlds consistent with the view, solve each with every
//! card visible, play the card with the best mean.
//!
//! **Cards**: every legal card is valued in each world by the [`Solver`] — the Seeger-Fabian
//! points of the agent's seat after that card, everyone playing perfectly from there (the
//! declarer maximizing his result level, the defenders minimizing it) — and averaged over the
//! worlds (default [`DEFAULT_WORLDS`], the standard Kermit setting); the first card (in card
//! order) with the highest mean is played. The choice is found with bounds and only as many
//! exact values as it needs ([`Pimc::choose_by_bounds`]); [`PimcAgent::card_values`] gives every
//! exact mean. Legal cards that every world values alike (one suit, equal points, only played
//! cards ranked between them) need no search: the first is played, as PIMC would.
//!
//! **Before the cards** (bidding, Hand or pickup, discard, declaration) the agent delegates to
//! its *pre-cardplay agent*: by default the `rules` agent ([`RulesAgent`]), so that `pimc`
//! against `rules` compares card play under the same bidding; [`PimcAgent::with_precardplay`]
//! plugs in any other agent ([`HeuristicBidder`], a simpler deterministic hand evaluation
//! documented below, say); the spec option `bidding=search` plugs in [`PrecardplaySearch`]
//! (search over sampled worlds, see [`super::precardplay`]).
//!
//! **Inference** (`inference=MODEL`, a learned policy `net:DIR`, `rules` or `random`,
//! [`super::super::learned::move_model`]): the worlds of a card decision are drawn from a pool of
//! candidate worlds (default four per world) in proportion to the probability, under the
//! model, of every move the other seats made in each
//! ([`crate::search::WeightedWorlds`], [`super::super::learned::log_likelihood`]): a bid of 48
//! makes the worlds where the bidder holds Jacks likelier than those where he holds none.
//!
//! Decisions are functions of the view and the random stream: one draw from the stream seeds
//! every world (world `i` from `(seed, draw, i)`), so they do not depend on the thread count.

use super::super::actions::{Action, Phase};
use super::super::agents::rules_agent::RulesAgent;
use super::super::agents::{Agent, Skat};
use super::super::bidding::Call;
use super::super::cards::{bit, card, points, set_points, suit, ACE, CLUBS, DIAMONDS, JACKS, TEN};
use super::super::contract::{Contract, GameType};
use super::super::game::Game;
use super::super::learned::{log_likelihood, move_model, Model, MODEL_SPECS};
use super::super::scoring::matadors;
use super::super::view::View;
use super::precardplay::{PrecardplaySearch, DEFAULT_BIDDING_WORLDS};
use super::solver::Solver;
use super::worlds::Worlds;
use crate::cards::{iter, lowest, Card, CardSet, Suits};
use crate::error::{Error, Result};
use crate::search::{parse_pimc_options, Inference, Pimc, Sampling};
use rand_pcg::Pcg64;
use std::sync::Arc;

pub use crate::search::MAX_WORLDS;

/// Default worlds per decision (Kermit's "typical setting", spec §10).
pub const DEFAULT_WORLDS: usize = 160;

/// The options accepted after `pimc:`.
pub const PIMC_OPTIONS: &str = "bidding=rules|search (the decisions before the cards: the rules agent, the \
                                default, or search over sampled worlds) and bidding_worlds=N (1 to 100000, default \
                                16; with bidding=search)";

/// Perfect Information Monte Carlo player (see the module documentation).
#[derive(Clone)]
pub struct PimcAgent {
    pimc: Pimc,
    precardplay: Arc<dyn Agent<Skat>>,
    /// What the spec adds to the name after `pimc:worlds=N[,seed=S]` (`,bidding=search…`).
    name_suffix: String,
    /// The model its card decisions weigh their worlds by, if any.
    inference: Option<Inference<Model>>,
}

impl std::fmt::Debug for PimcAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PimcAgent").field("pimc", &self.pimc).field("precardplay", &self.precardplay.name()).finish()
    }
}

impl PimcAgent {
    /// An agent sampling `worlds` worlds (1..=[`MAX_WORLDS`]) per card decision on `threads`
    /// threads (0 = `CFRKIT_NUM_THREADS` or all cores), its world streams keyed by `seed`;
    /// [`RulesAgent`] before the cards.
    pub fn new(worlds: usize, threads: usize, seed: u64) -> Result<PimcAgent> {
        Ok(PimcAgent::on(Pimc::new(worlds, threads, seed)?))
    }

    /// An agent deciding its cards on the PIMC loop `pimc`.
    pub fn on(pimc: Pimc) -> PimcAgent {
        PimcAgent { pimc, precardplay: Arc::new(RulesAgent::default()), name_suffix: String::new(), inference: None }
    }

    /// The same agent with `agent` taking the decisions before the cards.
    pub fn with_precardplay(self, agent: Arc<dyn Agent<Skat>>) -> PimcAgent {
        PimcAgent { precardplay: agent, name_suffix: String::new(), ..self }
    }

    /// The same agent with its card decisions' worlds weighted by `inference`.
    pub fn with_inference(self, inference: Inference<Model>) -> PimcAgent {
        PimcAgent { inference: Some(inference), ..self }
    }

    /// The PIMC loop: worlds per decision, threads, seed.
    pub fn pimc(&self) -> &Pimc {
        &self.pimc
    }

    /// The worlds of a decision of `view`: uniform among the consistent ones, or with inference
    /// drawn from a weighted pool (which takes one more draw from `rng`).
    fn worlds(&self, view: &View, rng: &mut Pcg64) -> Result<Sampling<Worlds>> {
        let seat = view.seat();
        Inference::sampling(self.inference.as_ref(), &self.pimc, Worlds::new(view)?, rng, |evidence, w: &Game| {
            log_likelihood(evidence, w, seat)
        })
    }

    /// The agent that takes the decisions before the cards.
    pub fn precardplay(&self) -> &Arc<dyn Agent<Skat>> {
        &self.precardplay
    }

    /// The mean Seeger-Fabian points over the sampled worlds of every legal card of the viewing
    /// seat, which must be to play a card, in ascending card order.
    pub fn card_values(&self, view: &View, rng: &mut Pcg64) -> Result<Vec<(Card, f64)>> {
        let legal = legal_cards(view)?;
        let worlds = self.worlds(view, rng)?;
        let means = self.pimc.mean_values(&worlds, rng, |s: &mut Solver, world: &Game| {
            Ok(s.card_values(world)?.into_iter().map(|(_, v)| v).collect())
        })?;
        Ok(legal.into_iter().zip(means).collect())
    }

    /// The card [`Agent::act`] plays: the first legal card with the highest mean, as by
    /// [`Self::card_values`], found with bounds.
    pub fn choose_card(&self, view: &View, rng: &mut Pcg64) -> Result<Card> {
        let cards = legal_cards(view)?;
        if cards.len() == 1 || interchangeable(view) {
            return Ok(cards[0]);
        }
        let worlds = self.worlds(view, rng)?;
        let k = self.pimc.choose_by_bounds(
            &worlds,
            rng,
            |s: &mut Solver, world: &Game| Ok(s.card_bounds(world)?.into_iter().map(|(_, lo, hi)| (lo, hi)).collect()),
            |s: &mut Solver, world: &Game, k, upper| s.card_below(world, cards[k], upper),
        )?;
        Ok(cards[k])
    }
}

/// Whether the legal cards of the seat to play are interchangeable in every world: of one
/// effective suit, of equal worth (card points; any in null), with only cards of completed
/// tricks ranked between them. Every world then values them alike, so PIMC plays the first.
fn interchangeable(view: &View) -> bool {
    let (Some(contract), legal) = (view.contract(), view.legal_cards()) else { return false };
    let order = contract.order();
    let suits = order.suits();
    let first = lowest(legal);
    let s = order.suit(first);
    let null = contract.game == GameType::Null;
    if iter(legal).any(|c| order.suit(c) != s || (!null && points(c) != points(first))) {
        return false;
    }
    let in_trick = view.current_trick().iter().fold(0, |m, &c| m | bit(c));
    let gone = view.played() & !in_trick;
    // Every card of the suit between the strongest and the weakest legal card is held or gone.
    let strongest = order.strongest(legal, s).unwrap_or(first);
    let weakest = iter(legal).find(|&c| suits.stronger(c) & legal == legal & !bit(c)).unwrap_or(first);
    let between = suits.stronger(weakest) & !suits.stronger(strongest) & !bit(strongest);
    between & !legal & !gone == 0
}

/// The legal cards of a view of the seat to play, ascending.
fn legal_cards(view: &View) -> Result<Vec<Card>> {
    let legal = view.legal_cards();
    if view.phase() != Phase::Tricks || legal == 0 {
        return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to play a card"));
    }
    Ok(iter(legal).collect())
}

impl Agent<Skat> for PimcAgent {
    fn name(&self) -> String {
        let inference = self.inference.as_ref().map(|i| i.name_suffix(self.pimc.worlds()));
        format!("{}{}{}", self.pimc.agent_name(), self.name_suffix, inference.unwrap_or_default())
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        if !view.to_act() {
            return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
        }
        match view.phase() {
            Phase::Tricks => self.choose_card(view, rng).map(Action::Card),
            _ => self.precardplay.act(view, rng),
        }
    }

    /// In the tricks, the card [`Self::act`] plays and every legal card's exact mean over the
    /// worlds ([`PimcAgent::card_values`]: more search than the choice alone needs); no values
    /// where `act` needs no search (one legal card, or interchangeable ones), before the cards
    /// or with `values=none`.
    fn act_valued(&self, view: &View, rng: &mut Pcg64) -> Result<crate::arena::log::Valued<Action>> {
        let searched = self.pimc.logs_values()
            && view.to_act()
            && view.phase() == Phase::Tricks
            && view.legal_cards().count_ones() > 1
            && !interchangeable(view);
        if !searched {
            return Ok((self.act(view, rng)?, None));
        }
        let values = self.card_values(view, rng)?;
        let means: Vec<f64> = values.iter().map(|v| v.1).collect();
        let best = crate::search::best_option(&means).unwrap_or(0);
        let values = values.into_iter().map(|(c, v)| (Action::Card(c), v)).collect();
        Ok((Action::Card(legal_cards(view)?[best]), Some(values)))
    }
}

/// cfrkit's PIMC agent from the options after `pimc:`: every game's ([`PIMC_KEYS`]) and Skat's
/// own (see [`PIMC_OPTIONS`]).
pub fn from_options(args: &str) -> Result<PimcAgent> {
    let own = ["bidding", "bidding_worlds"];
    let (o, pimc) = parse_pimc_options(args, DEFAULT_WORLDS, &own, &format!("; {PIMC_OPTIONS}"), MODEL_SPECS)?;
    // The requested threads (0 = all cores, but one inside a parallel match), as the card play's.
    let (worlds, threads, seed) = (pimc.worlds(), o.threads()?, pimc.seed());
    let mut agent = PimcAgent::on(pimc);
    if let Some(inference) = Inference::from_options(&o, worlds, move_model)? {
        agent = agent.with_inference(inference);
    }
    let bidding_worlds = o.uint("bidding_worlds", DEFAULT_BIDDING_WORLDS as u64, 1, MAX_WORLDS as u64)? as usize;
    match o.text("bidding").unwrap_or("rules").to_ascii_lowercase().as_str() {
        "rules" if o.text("bidding_worlds").is_none() => Ok(agent),
        "search" => {
            let search = PrecardplaySearch::new(bidding_worlds, threads, seed)?;
            let mut suffix = String::from(",bidding=search");
            if bidding_worlds != DEFAULT_BIDDING_WORLDS {
                suffix.push_str(&format!(",bidding_worlds={bidding_worlds}"));
            }
            Ok(PimcAgent { name_suffix: suffix, ..agent.with_precardplay(Arc::new(search)) })
        }
        "rules" => Err(Error::invalid("pimc bidding_worlds", bidding_worlds, "only with bidding=search")),
        other => Err(Error::invalid("pimc bidding", other, "rules (the default) or search")),
    }
}

/// A simple deterministic player of the decisions before the cards (the default pre-cardplay
/// agent of [`PimcAgent`]); it plays no cards.
///
/// It rates a hand for each suit game and grand in half-points:
/// * suit `X`: 4 per Jack, 2 per other trump, 3 per side Ace, 1 more with its Ten, 2 per side
///   suit the hand lacks; *playable* with 5 trumps or more and a rating of 22 or more;
/// * grand: 5 per Jack, 3 per Ace, 2 per Ten with its Ace; playable with 2 Jacks or more, 5 or
///   more Jacks and Aces, and a rating of 20 or more.
///
/// * **Bidding**: its limit is the highest value `base × (matadors + 1)` of the games playable
///   with its ten cards (the rating lowered by 3 for the skat to come; never null); it bids
///   the next value or holds while that is within the limit, else passes.
/// * **Skat**: always picks up.
/// * **Discard**: the two cards whose removal leaves the best rated game (grand when playable,
///   else the best suit), ties to the higher points put away, then to the first discard.
/// * **Declare**: the best rated game's contract if legal (the Hand form plain in a Hand game),
///   else the legal contract of the best rated game that is, else the first legal one.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBidder;

/// The rating of `cards` for `game` in half-points (suit and grand; 0 for null; see
/// [`HeuristicBidder`]).
pub fn rate(cards: CardSet, game: GameType) -> i32 {
    let jacks = (cards & JACKS).count_ones() as i32;
    let ace = |s: u8| bit(card(ACE, s));
    let ten = |s: u8| bit(card(TEN, s));
    let plain = |s: u8| iter(cards & !JACKS).filter(|&c| suit(c) == s).fold(0, |m, c| m | bit(c));
    match game {
        GameType::Suit(x) => {
            let mut r = 4 * jacks + 2 * plain(x).count_ones() as i32;
            for s in (DIAMONDS..=CLUBS).filter(|&s| s != x) {
                let side = plain(s);
                if side == 0 {
                    r += 2;
                } else if side & ace(s) != 0 {
                    r += 3 + i32::from(side & ten(s) != 0);
                }
            }
            r
        }
        GameType::Grand => {
            let aces = (DIAMONDS..=CLUBS).filter(|&s| cards & ace(s) != 0);
            5 * jacks + aces.map(|s| 3 + 2 * i32::from(cards & ten(s) != 0)).sum::<i32>()
        }
        GameType::Null => 0,
    }
}

/// Whether `game` is playable with `cards`, the rating raised by `bonus` (see
/// [`HeuristicBidder`]).
pub fn playable(cards: CardSet, game: GameType, bonus: i32) -> bool {
    let r = rate(cards, game) + bonus;
    let jacks = (cards & JACKS).count_ones();
    match game {
        GameType::Suit(_) => (cards & Contract::plain(game).trumps()).count_ones() >= 5 && r >= 22,
        GameType::Grand => {
            let aces = (DIAMONDS..=CLUBS).filter(|&s| cards & bit(card(ACE, s)) != 0).count() as u32;
            jacks >= 2 && jacks + aces >= 5 && r >= 20
        }
        GameType::Null => false,
    }
}

/// The best game of `cards` with the rating raised by `bonus`: grand when playable, else the
/// playable suit of the best rating, else the suit of the best rating (the lowest suit on
/// ties); its rating and whether it is playable.
fn best_game(cards: CardSet, bonus: i32) -> (GameType, i32, bool) {
    if playable(cards, GameType::Grand, bonus) {
        return (GameType::Grand, rate(cards, GameType::Grand), true);
    }
    let mut best = (GameType::Suit(DIAMONDS), i32::MIN, false);
    for s in DIAMONDS..=CLUBS {
        let g = GameType::Suit(s);
        let (r, ok) = (rate(cards, g), playable(cards, g, bonus));
        if (ok, r) > (best.2, best.1) {
            best = (g, r, ok);
        }
    }
    best
}

impl Agent<Skat> for HeuristicBidder {
    fn name(&self) -> String {
        "heuristic-bidder".into()
    }

    fn act(&self, view: &View, _rng: &mut Pcg64) -> Result<Action> {
        let legal = view.legal_actions();
        let Some(&first) = legal.first() else {
            return Err(Error::invalid("view", format!("seat {}", view.seat()), "a view of the seat to act"));
        };
        let hand = view.hand();
        Ok(match view.phase() {
            Phase::Bidding => {
                let (game, _, ok) = best_game(hand, 3);
                let limit = if ok {
                    let m = matadors(game, hand).map_or(0, |m| m.0);
                    game.base() * (m + 1)
                } else {
                    0
                };
                let next = legal.iter().find_map(|&a| match a {
                    Action::Call(Call::Bid(v)) => Some(Action::Call(Call::Bid(v))),
                    _ => None,
                });
                let hold = legal.contains(&Action::Call(Call::Hold));
                match next {
                    Some(Action::Call(Call::Bid(v))) if v as u32 <= limit => Action::Call(Call::Bid(v)),
                    _ if hold && view.bid() as u32 <= limit => Action::Call(Call::Hold),
                    _ => Action::Call(Call::Pass),
                }
            }
            Phase::Skat => Action::Hand(false),
            Phase::Discard => {
                let mut best = (first, (false, i32::MIN, 0u32));
                for &a in &legal {
                    if let Action::Discard(set) = a {
                        let (_, r, ok) = best_game(hand & !set, 0);
                        let key = (ok, r, set_points(set));
                        if key > best.1 {
                            best = (a, key);
                        }
                    }
                }
                best.0
            }
            Phase::Declare => {
                let hand_game = view.hand_game() == Some(true);
                let contracts = view.legal_contracts();
                let (game, _, _) = best_game(hand, 0);
                let want = Contract { hand: hand_game, ..Contract::plain(game) };
                if contracts.contains(&want) {
                    Action::Declare(want)
                } else {
                    // The legal suit or grand contract of the best rating, else the first.
                    contracts
                        .iter()
                        .filter(|c| c.game != GameType::Null)
                        .max_by_key(|c| (rate(hand, c.game), std::cmp::Reverse(c.id())))
                        .map_or(first, |&c| Action::Declare(c))
                }
            }
            Phase::Tricks | Phase::Finished => {
                return Err(Error::invalid(
                    "view",
                    format!("phase {}", view.phase().name()),
                    "a decision before the cards (the heuristic bidder plays no cards)",
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::NOTATION;
    use super::super::super::deal::Deal;
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn ratings() {
        let hand = NOTATION.parse_set("CJ SJ HA HT HK H9 H8 CA D7 D8").unwrap();
        // Hearts: 2 Jacks, 5 hearts, the club Ace, no spades.
        assert_eq!(rate(hand, GameType::Suit(1)), 8 + 10 + 3 + 2);
        assert!(playable(hand, GameType::Suit(1), 0));
        assert!(!playable(hand, GameType::Grand, 0));
        assert!(!playable(hand, GameType::Suit(0), 3));
    }

    /// Where the legal cards are interchangeable, every sampled world values them alike.
    #[test]
    fn interchangeable_cards_are_valued_alike() {
        let agent = PimcAgent::new(8, 1, 0).unwrap();
        let (mut seen, mut positions) = (0, 0);
        for i in 0..100 {
            let mut g = Game::new(&Deal::for_game(6, i));
            let mut rng = Pcg64::seed_from_u64(i);
            while let Some(p) = g.player() {
                let view = View::new(&g, p);
                let a = if g.phase() == Phase::Tricks {
                    positions += 1;
                    if view.legal_cards().count_ones() > 1 && interchangeable(&view) {
                        let values = agent.card_values(&view, &mut rng).unwrap();
                        assert!(values.iter().all(|v| v.1 == values[0].1), "{values:?}");
                        seen += 1;
                    }
                    crate::games::skat::agents::random_action(&view, &mut rng).unwrap()
                } else {
                    HeuristicBidder.act(&view, &mut rng).unwrap()
                };
                g.apply(a).unwrap();
            }
        }
        assert!(seen >= 20, "{seen} of {positions}");
    }

    /// With `values=none` a logged decision is the same action without the exact means (the
    /// default logs them); the option is in the name and refused when neither value.
    #[test]
    fn logged_values_can_be_left_out() {
        let exact = from_options("worlds=6").unwrap();
        let none = from_options("worlds=6,values=NONE").unwrap();
        assert_eq!((exact.name(), none.name()), ("pimc:worlds=6".into(), "pimc:worlds=6,values=none".into()));
        assert_eq!(from_options("worlds=6,values=exact").unwrap().name(), "pimc:worlds=6");
        let e = from_options("values=some").err().unwrap().to_string();
        assert!(e.contains("values") && e.contains("some") && e.contains("exact|none"), "{e}");
        let mut valued = 0;
        for i in 0..4 {
            let mut g = Game::new(&Deal::for_game(6, i));
            while let Some(p) = g.player() {
                let view = View::new(&g, p);
                let rng = || Pcg64::seed_from_u64(i);
                let (a, values) = exact.act_valued(&view, &mut rng()).unwrap();
                assert_eq!(none.act_valued(&view, &mut rng()).unwrap(), (a, None));
                valued += usize::from(values.is_some());
                g.apply(a).unwrap();
            }
        }
        assert!(valued >= 10, "{valued}");
    }

    /// The heuristic bidder takes a legal action in every phase before the cards and refuses
    /// to play cards.
    #[test]
    fn heuristic_bidder_is_legal() {
        let mut phases = std::collections::HashSet::new();
        for i in 0..60 {
            let mut g = Game::new(&Deal::for_game(5, i));
            let mut rng = Pcg64::seed_from_u64(i);
            while g.phase() != Phase::Tricks && !g.finished() {
                let p = g.player().unwrap();
                let a = HeuristicBidder.act(&View::new(&g, p), &mut rng).unwrap();
                phases.insert(g.phase().name());
                g.apply(a).unwrap();
            }
            if let Some(p) = g.player() {
                assert!(HeuristicBidder.act(&View::new(&g, p), &mut rng).is_err());
            }
        }
        assert_eq!(phases.len(), 4, "{phases:?}");
    }
}

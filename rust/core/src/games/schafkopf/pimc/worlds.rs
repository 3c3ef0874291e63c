//! Determinization: complete games consistent with what one seat has seen, drawn uniformly among
//! the consistent deals.
//!
//! A *world* is a whole [`Game`] at the view's state: the deal of the seat's own cards and of
//! sampled hands for the other three (their remaining cards plus those they played), with the
//! public history replayed on it, so that a solver or a search can play on from it.
//!
//! Two layers make the draw exact:
//!
//! 1. **Proposal.** The unseen cards (neither in the seat's hand nor played) are placed among the
//!    other seats by the generic [`HiddenSampler`]: uniformly among the placements that give
//!    every seat its number of cards, each card only to a seat that may hold it, and every
//!    [`Quota`] filled. What the view proves:
//!    * voids: a card the follow rule would not allow to a holder of the suit led (effective
//!      suits of the contract: trumps, plain suits, Wenz's Obers as plain cards) shows that its
//!      seat holds none of that suit, in every trick including the current one;
//!    * a seat that declared a Sauspiel does not hold the Ace it called, and held a plain card
//!      (not Ober, Unter or Ace) of that suit: if it has played none, one is among its hidden
//!      cards (a quota);
//!    * the called Ace (while unplayed): never with the declarer, nor with a contra-giver; with
//!      the retour-giver if that is not the declarer; with the seat that ran away
//!      ("davongelaufen"); not with a seat that played another card to a trick led in the called
//!      suit (the holder must play the Ace, unless he ran away), nor with the leader of such a
//!      complete trick who did not run away;
//!    * the seat that ran away held three plain cards of the called suit besides the Ace when it
//!      led the first of them (a quota on those it has not played since);
//!    * the called suit led in the current trick, the Ace not fallen: either the leader lacks the
//!      Ace, or he holds it with two more plain cards of the suit (running away). The two cases
//!      are disjoint; each has its own sampler, drawn from in proportion to its count.
//! 2. **Acceptance.** A proposal is kept only if the whole public history replays legally on
//!    the sampled original hands and reproduces the view (the seat that ran away included):
//!    every bid allowed for the hand, doubling eligibility, the called Ace's lead, follow and
//!    discard rules. Rejection on top of a uniform proposal keeps the result uniform over the
//!    consistent deals; the true deal is always one of them. With the facts above the proposals
//!    are exact in every game the tests play (no proposal rejected); the replay check is what
//!    guarantees it.
//!
//! The proposals of one [`Worlds`] are bounded ([`MAX_ATTEMPTS`] per world); running out is an
//! error, never a hang.

use super::super::actions::Action;
use super::super::cards::{ace, bit, suit_cards, DECK, OBERS, UNTERS};
use super::super::contract::Declaration;
use super::super::deal::Deal;
use super::super::game::Game;
use super::super::rules::Rules;
use super::super::view::View;
use crate::cards::{iter, Card, CardSet};
use crate::error::{Error, Result};
use crate::search::{Determinization, HiddenSampler, Quota};
use rand::Rng;
use rand_pcg::Pcg64;

/// Proposals drawn for one world before [`Worlds::sample`] gives up with an error.
pub const MAX_ATTEMPTS: u32 = 20_000;

/// Draws worlds for one seat's view (see the module documentation). Built once per decision;
/// holds no reference to the view.
#[derive(Clone, Debug)]
pub struct Worlds {
    seat: u8,
    rules: Rules,
    dealer: u8,
    /// The cards each seat has played, and the viewing seat's own cards besides.
    known: [CardSet; 4],
    /// The other seats, ascending: the sampler's receivers 0, 1, 2.
    others: [u8; 3],
    /// Seats (bit `p`) that may hold each unseen card; 0 for the other cards.
    holders: [u8; 32],
    history: Vec<(u8, Action)>,
    davongelaufen: Option<u8>,
    /// The proposal samplers of disjoint cases (one, or two when the called suit is led in the
    /// current trick), drawn from in proportion to their counts.
    proposals: Vec<HiddenSampler>,
    /// Their counts together.
    total: u128,
}

impl Worlds {
    /// Worlds consistent with what `view` shows. An error only for a view no deal reproduces
    /// (which a view of a real game never is).
    pub fn new(view: &View) -> Result<Worlds> {
        let seat = view.seat();
        let others: [u8; 3] = std::array::from_fn(|i| (0..4u8).filter(|&p| p != seat).nth(i).unwrap_or(0));
        let unseen = DECK & !view.hand() & !view.played();
        let mut holders = [0u8; 32];
        let other_seats = others.iter().fold(0u8, |m, &p| m | 1 << p);
        for c in iter(unseen) {
            holders[c as usize] = other_seats;
        }
        let forbid = |holders: &mut [u8; 32], cards: CardSet, p: u8| {
            for c in iter(cards & unseen) {
                holders[c as usize] &= !(1 << p);
            }
        };
        for (p, bid) in view.bids().iter().enumerate() {
            if let Some(Declaration::Sauspiel(x)) = *bid {
                forbid(&mut holders, bit(ace(x)), p as u8);
            }
        }
        let davongelaufen = view.davongelaufen();
        if let Some(contract) = view.contract() {
            let order = contract.order();
            let tricks = (0..=view.tricks_done().min(7) as usize).map(|t| (t, view.trick(t)));
            for (t, trick) in tricks.clone().filter(|(_, trick)| !trick.is_empty()) {
                let led = order.suit(trick[0]);
                for (i, &c) in trick.iter().enumerate().skip(1) {
                    if order.shows_void(c, led) {
                        forbid(&mut holders, order.suit_cards(led), view.seat_of(t, i));
                    }
                }
            }
            if let (Some(a), Some(x)) = (contract.called_ace(), contract.called_suit()) {
                if unseen & bit(a) != 0 {
                    let only = |holders: &mut [u8; 32], p: u8| holders[a as usize] &= 1 << p;
                    if let Some(d) = view.declarer() {
                        forbid(&mut holders, bit(a), d);
                    }
                    for p in 0..4u8 {
                        if view.contra()[p as usize] == Some(true) {
                            forbid(&mut holders, bit(a), p);
                        }
                        if view.retour()[p as usize] == Some(true) && view.declarer() != Some(p) {
                            only(&mut holders, p);
                        }
                    }
                    if let Some(r) = davongelaufen {
                        only(&mut holders, r);
                    }
                    // The called suit led and the Ace not played: everyone who played to the
                    // trick lacks it (the leader too once the trick is complete), but the seat
                    // that ran away.
                    for (t, trick) in tricks.filter(|(_, trick)| !trick.is_empty() && order.suit(trick[0]) == x) {
                        let first = if trick.len() == 4 { 0 } else { 1 };
                        for i in first..trick.len() {
                            let s = view.seat_of(t, i);
                            if davongelaufen != Some(s) {
                                forbid(&mut holders, bit(a), s);
                            }
                        }
                    }
                }
            }
        }
        let need = others.map(|p| 8 - view.played_by(p).count_ones() as usize);
        let receiver = |p: u8| others.iter().position(|&o| o == p);
        let quotas = quotas(view, &others, unseen);
        let mut cases = vec![(holders, quotas.clone())];
        if let Some((leader, a, plain)) = open_called_lead(view, unseen) {
            // The called suit is led in the current trick and the Ace has not fallen: either the
            // leader lacks it, or he holds it and is running away with two more plain cards.
            if let (Some(i), true) = (receiver(leader), holders[a as usize] & (1 << leader) != 0) {
                let mut lacks = holders;
                lacks[a as usize] &= !(1 << leader);
                let mut runs = holders;
                runs[a as usize] = 1 << leader;
                let mut more = quotas;
                more.push(Quota { receiver: i, cards: plain & unseen, at_least: 2 });
                cases = vec![(lacks, cases[0].1.clone()), (runs, more)];
            }
        }
        let mut proposals = Vec::with_capacity(cases.len());
        for (h, q) in &cases {
            let may_hold = |c: Card| (0..3).fold(0u8, |m, i| m | (((h[c as usize] >> others[i]) & 1) << i));
            if let Ok(sampler) = HiddenSampler::with_quotas(unseen, &need, may_hold, q) {
                proposals.push(sampler);
            }
        }
        if proposals.is_empty() {
            return Err(Error::invalid("view", format!("seat {seat}"), "a view some deal reproduces"));
        }
        let total = proposals.iter().map(HiddenSampler::count).sum();
        let mut known: [CardSet; 4] = std::array::from_fn(|p| view.played_by(p as u8));
        known[seat as usize] |= view.hand();
        Ok(Worlds {
            seat,
            rules: view.rules(),
            dealer: view.dealer(),
            known,
            others,
            holders,
            history: view.history(),
            davongelaufen,
            proposals,
            total,
        })
    }

    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The seats (bit `p`) that may hold card `c` as far as the proved facts go (before the
    /// replay check); 0 for a card the viewer has seen.
    pub fn possible_holders(&self, c: Card) -> u8 {
        self.holders.get(c as usize).copied().unwrap_or(0)
    }

    /// The number of deals the proved facts allow (the proposals): at least the number of
    /// consistent deals, and equal to it when no proposal can be rejected.
    pub fn proposal_count(&self) -> u128 {
        self.total
    }

    /// The world of a deal given as the four original hands: the game at the view's state, or
    /// None if the public history does not replay legally on them or reproduces another view.
    pub fn world(&self, dealt: [CardSet; 4]) -> Option<Game> {
        if (0..4).any(|p| dealt[p] & self.known[p] != self.known[p]) {
            return None;
        }
        let mut g = Game::new(&Deal::new(dealt, self.dealer).ok()?, self.rules);
        for &(p, a) in &self.history {
            if g.player() != Some(p) || !g.is_legal(a) {
                return None;
            }
            g.apply_legal(a);
        }
        (g.davongelaufen() == self.davongelaufen).then_some(g)
    }

    /// One proposal, uniform among the deals the proved facts allow, as the original hands
    /// (before the replay check of [`Worlds::world`]).
    pub fn proposal<R: Rng + ?Sized>(&self, rng: &mut R) -> [CardSet; 4] {
        let mut sampler = &self.proposals[0];
        if self.proposals.len() > 1 {
            let mut x = rng.gen_range(0..self.total);
            for p in &self.proposals {
                sampler = p;
                if x < p.count() {
                    break;
                }
                x -= p.count();
            }
        }
        let h = sampler.sample(rng);
        let mut dealt = self.known;
        for (i, &p) in self.others.iter().enumerate() {
            dealt[p as usize] |= h[i];
        }
        dealt
    }

    /// One proposal: a world, or None if the proposal was rejected.
    pub fn propose<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        self.world(self.proposal(rng))
    }

    /// A world drawn uniformly among the deals consistent with the view; an error after
    /// [`MAX_ATTEMPTS`] rejected proposals.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Game> {
        for _ in 0..MAX_ATTEMPTS {
            if let Some(g) = self.propose(rng) {
                return Ok(g);
            }
        }
        Err(Error::invalid(
            "determinization",
            format!("seat {}: no consistent world in {MAX_ATTEMPTS} proposals", self.seat),
            "a view whose consistent deals are not too rare among the proposals",
        ))
    }
}

/// The plain cards (neither Ober, Unter nor Ace) of suit `x`.
fn plain(x: u8) -> CardSet {
    suit_cards(x) & !OBERS & !UNTERS & !bit(ace(x))
}

/// The leader of the current trick, the called Ace and its suit's plain cards, when the leader
/// (not the viewer, not a seat that ran away) led a plain card of the called suit and the Ace,
/// unseen by the viewer, has not fallen.
fn open_called_lead(view: &View, unseen: CardSet) -> Option<(u8, Card, CardSet)> {
    let x = view.contract()?.called_suit()?;
    let a = ace(x);
    let &lead = view.current_trick().first()?;
    let leader = view.trick_leader(view.tricks_done() as usize);
    let free = view.davongelaufen() == Some(leader);
    (unseen & bit(a) != 0 && bit(lead) & plain(x) != 0 && leader != view.seat() && !free).then_some((
        leader,
        a,
        plain(x),
    ))
}

/// The cards the other seats (`others`, the sampler's receivers) must hold some of, as quotas
/// over the `unseen` cards:
/// * a seat that declared a Sauspiel held a plain card of the called suit (not Ober, Unter or
///   Ace): one of the unseen ones if it has played none;
/// * the seat that ran away held three plain cards of the called suit besides the Ace when it
///   led the first of them: those it has not played since are among its unseen cards.
fn quotas(view: &View, others: &[u8; 3], unseen: CardSet) -> Vec<Quota> {
    let receiver = |p: u8| others.iter().position(|&o| o == p);
    let mut quotas = Vec::new();
    for (p, bid) in view.bids().iter().enumerate() {
        if let (Some(Declaration::Sauspiel(x)), Some(i)) = (*bid, receiver(p as u8)) {
            if view.played_by(p as u8) & plain(x) == 0 {
                quotas.push(Quota { receiver: i, cards: plain(x) & unseen, at_least: 1 });
            }
        }
    }
    let (Some(r), Some(x)) = (view.davongelaufen(), view.contract().and_then(|c| c.called_suit())) else {
        return quotas;
    };
    let Some(i) = receiver(r) else { return quotas };
    let ran =
        (0..view.tricks_done() as usize).find(|&t| view.trick_leader(t) == r && bit(view.trick(t)[0]) & plain(x) != 0);
    if let Some(t0) = ran {
        let mut since: CardSet = 0;
        for t in t0..=view.tricks_done().min(7) as usize {
            for (k, &c) in view.trick(t).iter().enumerate() {
                if view.seat_of(t, k) == r {
                    since |= bit(c);
                }
            }
        }
        let at_least = 3usize.saturating_sub((since & plain(x)).count_ones() as usize);
        if at_least > 0 {
            quotas.push(Quota { receiver: i, cards: plain(x) & unseen, at_least });
        }
    }
    quotas
}

impl Determinization for Worlds {
    type World = Game;

    fn sample(&self, rng: &mut Pcg64) -> Result<Game> {
        Worlds::sample(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::actions::Phase;
    use super::super::super::cards::{parse_card, GRAS};
    use super::*;
    use rand::SeedableRng;

    /// Deal A of the spec, Gras-Sauspiel by seat 0 (seat 1 holds GA).
    fn deal_a_sauspiel() -> Game {
        let deal = Deal::parse(
            &[
                "EO GO EU HA HK G7 G9 S7",
                "HO GU H9 GA EA E7 SK S8",
                "SO HU SU H10 H8 G10 GK E8",
                "H7 G8 E10 EK E9 SA S10 S9",
            ],
            3,
        )
        .unwrap();
        let mut g = Game::new(&deal, Rules::SCHAFKOPFRL);
        g.apply(Action::Declare(Declaration::Sauspiel(GRAS))).unwrap();
        for _ in 0..3 {
            g.apply(Action::Declare(Declaration::Pass)).unwrap();
        }
        g
    }

    #[test]
    fn the_true_deal_is_a_world_and_worlds_reproduce_the_view() {
        let g = deal_a_sauspiel();
        assert_eq!(g.phase(), Phase::Contra);
        for seat in 0..4 {
            let view = View::new(&g, seat);
            let w = Worlds::new(&view).unwrap();
            assert_eq!(w.world(std::array::from_fn(|p| g.dealt(p as u8))), Some(g));
            let mut rng = Pcg64::seed_from_u64(seat as u64);
            for _ in 0..50 {
                let world = w.sample(&mut rng).unwrap();
                assert_eq!(world.hand(seat), g.hand(seat));
                assert_eq!(world.history(), g.history());
                // The declarer never holds the called Ace, but held a plain Gras card.
                let ga = parse_card("GA").unwrap();
                assert_eq!(world.dealt(0) & bit(ga), 0);
                assert_ne!(world.dealt(0) & super::super::super::cards::suit_cards(GRAS) & !bit(ga), 0);
            }
        }
        // The declarer knows nobody but seats 1–3 may hold the Ace; seat 1 sees it in its hand.
        let w = Worlds::new(&View::new(&g, 2)).unwrap();
        assert_eq!(w.possible_holders(parse_card("GA").unwrap()), 0b1010);
        assert_eq!(Worlds::new(&View::new(&g, 1)).unwrap().possible_holders(parse_card("GA").unwrap()), 0);
    }

    #[test]
    fn a_wrong_deal_is_not_a_world() {
        let g = deal_a_sauspiel();
        let w = Worlds::new(&View::new(&g, 2)).unwrap();
        // Swap GA (seat 1) with a card of seat 0: the declarer would hold the Ace he called.
        let mut dealt: [CardSet; 4] = std::array::from_fn(|p| g.dealt(p as u8));
        let (ga, eo) = (bit(parse_card("GA").unwrap()), bit(parse_card("EO").unwrap()));
        dealt[0] = dealt[0] & !eo | ga;
        dealt[1] = dealt[1] & !ga | eo;
        assert_eq!(w.world(dealt), None);
        // A deal that misses the seat's own cards is none either.
        let mut dealt: [CardSet; 4] = std::array::from_fn(|p| g.dealt(p as u8));
        dealt.swap(2, 3);
        assert_eq!(w.world(dealt), None);
    }
}

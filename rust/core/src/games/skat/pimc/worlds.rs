//! Determinization: complete games consistent with what one seat has seen, drawn uniformly.
//!
//! A *world* is a whole [`Game`] at the view's state: a deal (three hands and the skat) on which
//! the public history is replayed, so that a solver can play on from it.
//!
//! **What is hidden.** The viewer knows the cards it was dealt, every card played and by whom,
//! in an ouvert game the declarer's hand, and — as the declarer after a pickup — the skat and
//! its discard. The other cards (the *unseen* ones) lie with the two other seats and, unless the
//! viewer knows them, in the *skat slot*: two cards that are the original skat before a discard,
//! and the declarer's discard after a pickup (spec §9). The generic [`HiddenSampler`] places the
//! unseen cards among three receivers — the two other seats (their cards still in hand, or all
//! ten before the play) and the skat slot (two cards) — uniformly, under the hard constraints:
//!
//! * counts: each seat holds ten cards less those it has played;
//! * voids: a seat that did not follow the suit led holds none of it, in every trick including
//!   the current one; suits are the contract's effective suits (in suit and grand games the
//!   Jacks are trumps, not cards of their suit; in null they belong to their suit). The skat
//!   slot is never restricted: cards put away before the play show nothing;
//! * an ouvert declarer's hand is known exactly.
//!
//! **The defenders' worlds after a pickup.** A defender knows neither the original skat nor the
//! discard. For the play and the score only three things matter: the declarer's cards in hand,
//! the two cards he put away (their points count for him), and his twelve cards after the
//! pickup (the matadors are counted over them, and so is the check that the contract was
//! allowed: [`Game::legal_contracts`]). The world therefore samples the declarer's hand and the
//! put-away pair, and builds the deal in which the original skat *is* the put-away pair: the
//! declarer picked up those two cards and put them straight back. Every deal consistent with a
//! sample (the original skat any two of the twelve cards) gives the same play, the same matadors
//! and the same result, and each sample stands for the same number (66) of them, so the draw is
//! uniform over the consistent deals as far as anything after the discard can tell.
//!
//! **Acceptance.** A proposal is kept only if the public history replays legally on it and
//! reproduces the view (the declaration in particular: a Hand game's contract must be one the
//! declarer's sampled ten cards allow at the bid, a pickup contract one his twelve allow).
//! Rejection on top of a uniform proposal keeps the draw uniform over the accepted worlds; the
//! true deal is always one of them. The proposals of one [`Worlds`] are bounded
//! ([`MAX_ATTEMPTS`] per world); running out is an error, never a hang.

use super::super::actions::{Action, Phase};
use super::super::cards::DECK;
use super::super::deal::Deal;
use super::super::game::Game;
use super::super::view::View;
use crate::cards::{iter, Card, CardSet};
use crate::error::{Error, Result};
use crate::search::{Determinization, HiddenSampler};
use rand::Rng;
use rand_pcg::Pcg64;

/// Proposals drawn for one world before [`Worlds::sample`] gives up with an error.
pub const MAX_ATTEMPTS: u32 = 20_000;

/// The receiver index of the skat slot in the sampler.
const SKAT_SLOT: usize = 2;

/// Draws worlds for one seat's view (see the module documentation). Built once per decision;
/// holds no reference to the view.
#[derive(Clone, Debug)]
pub struct Worlds {
    seat: u8,
    /// The other two seats, ascending: the sampler's receivers 0 and 1.
    others: [u8; 2],
    /// The cards each seat is known to have been dealt: the viewer's own, the cards each seat
    /// played, an ouvert declarer's hand.
    known: [CardSet; 3],
    /// The skat when the viewer knows it.
    skat: Option<CardSet>,
    /// Whether the skat slot holds the declarer's discard (a pickup seen by a defender after
    /// the discard): the discard is then replayed as the slot's cards.
    slot_is_discard: bool,
    /// Receivers (bit `i`) that may hold each unseen card; 0 for the other cards.
    holders: [u8; 32],
    history: Vec<(u8, Action)>,
    sampler: HiddenSampler,
}

impl Worlds {
    /// Worlds consistent with what `view` shows. An error for a finished or thrown-in game and
    /// for a view no deal reproduces (which a view of a real game never is).
    pub fn new(view: &View) -> Result<Worlds> {
        let seat = view.seat();
        if view.finished() {
            return Err(Error::invalid("view", format!("seat {seat}"), "a view of a game in progress"));
        }
        let others = [(seat + 1) % 3, (seat + 2) % 3];
        let others = if others[0] < others[1] { others } else { [others[1], others[0]] };
        // The viewer's own cards are those it was dealt (a declarer may play cards of the skat).
        let mut known: [CardSet; 3] = std::array::from_fn(|p| view.played_by(p as u8));
        known[seat as usize] = view.dealt_hand();
        match (view.open_hand(), view.declarer()) {
            (Some(open), Some(d)) if d != seat => known[d as usize] |= open,
            _ => {}
        }
        let skat = view.skat();
        let slot_known = skat.is_some();
        let slot_is_discard = !slot_known
            && view.hand_game() == Some(false)
            && matches!(view.phase(), Phase::Declare | Phase::Tricks | Phase::Finished);
        let seen = known.iter().fold(skat.unwrap_or(0), |m, &k| m | k);
        let unseen = DECK & !seen;
        // Each other seat's cards still to place: ten dealt, less those known.
        let need: Vec<usize> = others
            .iter()
            .map(|&p| 10 - known[p as usize].count_ones() as usize)
            .chain(std::iter::once(if slot_known { 0 } else { 2 }))
            .collect();
        let mut holders = [0u8; 32];
        let receivers = if slot_known { 0b011 } else { 0b111 };
        for c in iter(unseen) {
            holders[c as usize] = receivers;
        }
        if let Some(contract) = view.contract() {
            let order = contract.order();
            for t in 0..=view.tricks_done().min(9) as usize {
                let trick = view.trick(t);
                let Some(&lead) = trick.first() else { continue };
                let led = order.suit(lead);
                for (i, &c) in trick.iter().enumerate().skip(1) {
                    if order.shows_void(c, led) {
                        let p = view.seat_of(t, i);
                        if let Some(r) = others.iter().position(|&o| o == p) {
                            for x in iter(order.suit_cards(led) & unseen) {
                                holders[x as usize] &= !(1 << r);
                            }
                        }
                    }
                }
            }
        }
        let h = holders;
        let sampler = HiddenSampler::new(unseen, &need, |c: Card| h[c as usize])
            .map_err(|_| Error::invalid("view", format!("seat {seat}"), "a view some deal reproduces"))?;
        Ok(Worlds { seat, others, known, skat, slot_is_discard, holders, history: view.history(), sampler })
    }

    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The receivers that may hold card `c` (bit 0 and 1: the other seats, ascending; bit 2:
    /// the skat slot); 0 for a card the viewer has seen.
    pub fn possible_holders(&self, c: Card) -> u8 {
        self.holders.get(c as usize).copied().unwrap_or(0)
    }

    /// The number of placements the proved facts allow (the proposals): at least the number of
    /// consistent worlds, and equal to it when no proposal can be rejected.
    pub fn proposal_count(&self) -> u128 {
        self.sampler.count()
    }

    /// The world of a placement: `placed[i]` the unseen cards of the other seat `i` (ascending)
    /// and `placed[2]` those of the skat slot; None if the history does not replay on it.
    pub fn world(&self, placed: [CardSet; 3]) -> Option<Game> {
        let mut dealt = self.known;
        for (i, &p) in self.others.iter().enumerate() {
            dealt[p as usize] |= placed[i];
        }
        let skat = self.skat.unwrap_or(placed[SKAT_SLOT]);
        let mut g = Game::new(&Deal::new(dealt, skat).ok()?);
        let apply = |g: &mut Game, p: u8, a: Action| -> Option<()> {
            (g.player() == Some(p) && g.is_legal(a)).then(|| g.apply_legal(a))
        };
        for &(p, a) in &self.history {
            apply(&mut g, p, a)?;
            if self.slot_is_discard && a == Action::Hand(false) {
                apply(&mut g, p, Action::Discard(skat))?;
            }
        }
        Some(g)
    }

    /// One proposal: a world, or None if it was rejected.
    pub fn propose<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        self.world(self.sampler.sample(rng))
    }

    /// A world drawn uniformly among the worlds consistent with the view; an error after
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
            "a view whose consistent worlds are not too rare among the proposals",
        ))
    }
}

impl Determinization for Worlds {
    type World = Game;

    fn sample(&self, rng: &mut Pcg64) -> Result<Game> {
        Worlds::sample(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_true_deal_is_a_world() {
        let mut g = Game::new(&Deal::for_game(3, 0));
        for a in ["18", "pass", "pass", "pickup"] {
            g.apply_name(a).unwrap();
        }
        let d = g.declarer().unwrap();
        let discard = g.legal_actions()[7];
        g.apply(discard).unwrap();
        g.apply_name("grand").unwrap();
        for seat in 0..3u8 {
            let w = Worlds::new(&View::new(&g, seat)).unwrap();
            let mut rng = Pcg64::seed_from_u64(seat as u64);
            for _ in 0..20 {
                let world = w.sample(&mut rng).unwrap();
                assert_eq!(world.hand(seat), g.hand(seat));
                assert_eq!(View::new(&world, seat).history(), View::new(&g, seat).history());
                assert_eq!(world.hand(d).count_ones(), 10);
            }
            // The declarer knows everything but how the defenders' cards are split.
            let slot = (0..32).filter(|&c| w.possible_holders(c) & 0b100 != 0).count();
            assert_eq!(slot == 0, seat == d, "seat {seat}");
        }
    }
}

//! SchafkopfRL's rule-based player (spec §9), heuristics and quirks included.
//!
//! * **Declaration** (the first rule that matches): a Solo of the first suit in order S, H, G, E
//!   in which the hand holds 7 or more of its 14 trumps; a Wenz with 2 or more Unters and fewer
//!   than 2 cards of rank 7, 8, 9, O, K or 10 in suits whose Ace it does not hold; with 4 or
//!   more Sauspiel trumps (Obers, Unters, Herz) the *last* allowed Sauspiel in order S, G, E
//!   (the seed meant the shortest suit, but its counter is never updated); else pass.
//! * **Contra and retour**: double when allowed and holding 6 or more Sauspiel trumps, whatever
//!   the game.
//! * **Cards**: a uniformly random legal card unless a rule below applies. "Player side" is the
//!   declarer or, in a Sauspiel, the seat dealt the called Ace (the seed fixes it at its first
//!   card, when it still holds its whole hand). "Led suits" are the natural suits of the lead
//!   cards of completed tricks, Ober and Unter leads left out.
//!   - Sauspiel (every seat), Aces considered exclude the Herz Ace and the called Ace. Leading,
//!     player side: the lowest or the highest legal trump at random, else a random Ace; leading,
//!     defender: while the called suit was never led, a called-suit card (the Ten when holding 4
//!     or more of them and the Ten, else a random one), else a random Ace, else a random
//!     non-trump. Following a plain lead with a trump allowed: HA, else H10, else the lowest
//!     trump if that suit was never led, else the highest trump. Following a trump lead (quirk of
//!     an if/elif): the Ace of the lead card's natural suit if legal and that suit was never led.
//!   - Solo, soloist only: lead the highest trump, else a random Ace (not the solo suit's);
//!     follow as in a Sauspiel with the solo suit's A and 10 in place of HA and H10, and the
//!     trump-lead Ace rule without the never-led test.
//!   - Wenz (and the play-out after four passes, where the dealer counts as declarer), declarer
//!     only: lead the highest Unter, else the highest card of the lowest-indexed suit (S, H, G,
//!     E); follow with the lowest Unter, else the lowest card of the highest-indexed suit.

use super::super::actions::{Action, Phase, DOUBLE};
use super::super::cards::{ace, bit, card, rank, rank_cards, suit, suit_cards, ACE, HERZ, OBER, TEN, UNTER, UNTERS};
use super::super::contract::{Contract, Declaration};
use super::super::view::View;
use super::agent::{random_action, random_member, Agent, Schafkopf};
use crate::cards::{highest, lowest, Card, CardSet};
use crate::error::Result;
use rand::Rng;
use rand_pcg::Pcg64;

/// The rule-based player.
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesAgent;

/// The Obers, the Unters and the Herz cards: the Sauspiel's trumps.
fn sauspiel_trumps() -> CardSet {
    Contract::Solo(HERZ).order().trumps()
}

/// The declaration of a hand whose allowed declarations are `allowed` (mask over ids).
pub fn declare(hand: CardSet, allowed: u64) -> Declaration {
    for x in 0..4 {
        if (hand & Contract::Solo(x).order().trumps()).count_ones() >= 7 {
            return Declaration::Solo(x);
        }
    }
    if (hand & UNTERS).count_ones() >= 2 {
        let small = (0..4u8)
            .filter(|&s| hand & bit(ace(s)) == 0)
            .map(|s| (hand & suit_cards(s) & !UNTERS & !bit(ace(s))).count_ones())
            .sum::<u32>();
        if small < 2 {
            return Declaration::Wenz;
        }
    }
    let sauspiele = allowed & 0b1110;
    if (hand & sauspiel_trumps()).count_ones() >= 4 && sauspiele != 0 {
        return Declaration::from_id(63 - sauspiele.leading_zeros() as u8).expect("a Sauspiel id");
    }
    Declaration::Pass
}

/// The highest (`first`) or lowest of `cards` in the listed order (high to low), if any.
fn by_rank(list: &[Card], cards: CardSet, first: bool) -> Option<Card> {
    let present = |&t: &Card| cards & bit(t) != 0;
    if first {
        list.iter().copied().find(present)
    } else {
        list.iter().rev().copied().find(present)
    }
}

/// A uniformly random card of a non-empty set.
fn random_card(set: CardSet, rng: &mut Pcg64) -> Card {
    random_member(set, rng)
}

/// Natural suits (bit per suit) of the lead cards of completed tricks, Ober and Unter leads
/// left out.
fn led_suits(view: &View) -> u8 {
    (0..view.tricks_done() as usize)
        .map(|t| view.trick(t)[0])
        .filter(|&c| rank(c) != OBER && rank(c) != UNTER)
        .fold(0, |m, c| m | 1 << suit(c))
}

/// The card rule of the Sauspiel, Solo and Wenz (None: play a random card).
fn choose_card(view: &View, contract: Contract, rng: &mut Pcg64) -> Option<Card> {
    let legal = view.legal_cards();
    let seat = view.seat();
    let player_side =
        view.declarer() == Some(seat) || contract.called_ace().is_some_and(|a| view.dealt_hand() & bit(a) != 0);
    let order = contract.order();
    let trumps_list = contract.trumps_high_to_low();
    let trumps = legal & order.trumps();
    let aces = legal & rank_cards(ACE);
    let led = led_suits(view);
    let never_led = |s: u8| led & (1 << s) == 0;
    let lead = view.current_trick().first().copied();
    match contract {
        Contract::Sauspiel(x) => {
            let aces = aces & !bit(ace(HERZ)) & !bit(ace(x));
            match lead {
                None if player_side => {
                    if trumps != 0 {
                        by_rank(trumps_list, trumps, rng.gen_bool(0.5))
                    } else if aces != 0 {
                        Some(random_card(aces, rng))
                    } else {
                        None
                    }
                }
                None => {
                    let called = legal & suit_cards(x) & !rank_cards(OBER) & !UNTERS;
                    if never_led(x) && called != 0 {
                        let ten = bit(card(TEN, x));
                        if called.count_ones() > 3 && called & ten != 0 {
                            Some(card(TEN, x))
                        } else {
                            Some(random_card(called, rng))
                        }
                    } else if aces != 0 {
                        Some(random_card(aces, rng))
                    } else {
                        let plain = legal & !order.trumps();
                        (plain != 0).then(|| random_card(plain, rng))
                    }
                }
                Some(l) => follow(legal, trumps, trumps_list, l, order.trumps(), HERZ, never_led(suit(l)), true),
            }
        }
        Contract::Solo(x) if player_side => match lead {
            None => {
                let aces = aces & !bit(ace(x));
                if trumps != 0 {
                    by_rank(trumps_list, trumps, true)
                } else if aces != 0 {
                    Some(random_card(aces, rng))
                } else {
                    None
                }
            }
            Some(l) => follow(legal, trumps, trumps_list, l, order.trumps(), x, never_led(suit(l)), false),
        },
        Contract::Wenz | Contract::Passed if player_side => {
            let unters = legal & UNTERS;
            let others = legal & !UNTERS;
            if lead.is_none() {
                if unters != 0 {
                    Some(highest(unters))
                } else {
                    (0..4u8).map(|s| others & suit_cards(s)).find(|&c| c != 0).map(highest)
                }
            } else if unters != 0 {
                Some(lowest(unters))
            } else {
                (0..4u8).rev().map(|s| others & suit_cards(s)).find(|&c| c != 0).map(lowest)
            }
        }
        _ => None,
    }
}

/// Following a trick led with `lead`: to a plain lead, with a trump allowed, the trump suit's
/// Ace or Ten (suit `trump_suit`) or the lowest trump while the led suit was never led, else the
/// highest trump; to a trump lead, the Ace of the lead card's natural suit when legal (and,
/// when `need_never_led`, that suit never led).
#[allow(clippy::too_many_arguments)]
fn follow(
    legal: CardSet,
    trumps: CardSet,
    trumps_list: &[Card],
    lead: Card,
    all_trumps: CardSet,
    trump_suit: u8,
    never_led: bool,
    need_never_led: bool,
) -> Option<Card> {
    if all_trumps & bit(lead) == 0 {
        if trumps == 0 {
            return None;
        }
        if !never_led {
            return by_rank(trumps_list, trumps, true);
        }
        let (a, ten) = (ace(trump_suit), card(TEN, trump_suit));
        return Some(if trumps & bit(a) != 0 {
            a
        } else if trumps & bit(ten) != 0 {
            ten
        } else {
            by_rank(trumps_list, trumps, false).expect("a trump")
        });
    }
    let a = ace(suit(lead));
    (legal & bit(a) != 0 && (never_led || !need_never_led)).then_some(a)
}

impl Agent<Schafkopf> for RulesAgent {
    fn name(&self) -> String {
        "rules".into()
    }

    fn act(&self, view: &View, rng: &mut Pcg64) -> Result<Action> {
        let mask = view.legal_mask();
        match view.phase() {
            Phase::Bidding if mask != 0 => Ok(Action::Declare(declare(view.hand(), mask))),
            Phase::Contra | Phase::Retour if mask != 0 => {
                let strong = (view.hand() & sauspiel_trumps()).count_ones() >= 6;
                Ok(Action::Double(strong && mask & (1 << DOUBLE) != 0))
            }
            Phase::Tricks if mask != 0 => {
                let contract = view.contract().expect("tricks have a contract");
                match choose_card(view, contract, rng) {
                    Some(c) => Ok(Action::Card(c)),
                    None => random_action(view, rng),
                }
            }
            _ => random_action(view, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::NOTATION;
    use super::super::super::game::Game;
    use super::*;

    fn hand(s: &str) -> CardSet {
        NOTATION.parse_set(s).unwrap()
    }

    fn decl(s: &str) -> String {
        let h = hand(s);
        declare(h, Game::allowed_declarations(h) as u64).name()
    }

    #[test]
    fn declarations() {
        // Seven Gras-Solo trumps: the Gras Solo, though S comes first in the scan (no S Solo).
        assert_eq!(decl("EO GO HO EU GA G10 GK S7"), "solo:G");
        // Seven Sauspiel trumps make the Herz Solo (scanned before Gras and Eichel).
        assert_eq!(decl("EO GO HO SO EU HA H10 S7"), "solo:H");
        // Two Unters, Aces with every other suit: Wenz.
        assert_eq!(decl("EU GU SA S10 SK GA G10 E7"), "wenz");
        // Four Sauspiel trumps: the last allowed Sauspiel (S, G, E order).
        assert_eq!(decl("EO GO HU H7 S7 G8 E9 EA"), "sauspiel:G");
        assert_eq!(decl("EO GO HU H7 S7 S8 G9 E9"), "sauspiel:E");
        // Too weak.
        assert_eq!(decl("EO H7 S7 S8 G9 E9 EK GK"), "pass");
        // Four trumps but no callable suit: pass.
        assert_eq!(decl("EO GO HU H7 SA S10 GA EA"), "pass");
    }
}

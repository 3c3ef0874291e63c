//! A fixed-length numeric encoding of one seat's view, for learning agents.
//!
//! Seats are relative to the viewer: relative seat `k` is seat `(viewer + k) % 4` (0 = the viewer,
//! 1 = the next seat clockwise). Cards are indexed by id (`4 * rank + suit`, S7 = 0 … EA = 31).
//! Every entry is 0 or 1 except the card points.
//!
//! | offset | length | content |
//! |---|---|---|
//! | 0 | 11 | phase one-hot: bidding, contra, retour, trick 0 … trick 7 (all 0 when finished) |
//! | 11 | 3 | game kind one-hot: Sauspiel, Wenz, Solo (0 before the auction ends and after four passes) |
//! | 14 | 4 | suit of the game (the called suit of a Sauspiel, the Solo suit), one-hot by suit id S H G E |
//! | 18 | 4 | declarer, by relative seat |
//! | 22 | 4 | contra given, by relative seat |
//! | 26 | 4 | retour given, by relative seat |
//! | 30 | 4 | first player (the seat after the dealer), by relative seat |
//! | 34 | 4 | card points taken / 120, by relative seat |
//! | 38 | 32 | the viewer's hand |
//! | 70 | 36 | declarations made: 9 per relative seat (one-hot by declaration id, 0 until made) |
//! | 106 | 128 | cards played: 32 per relative seat (completed tricks and the current one) |
//! | 234 | 128 | the current trick: 32 per relative seat |
//! | 362 | 4 | the seat that ran away from the called Ace, by relative seat |
//! | 366 | 128 | cards led: 32 per relative seat |
//! | 494 | 128 | cards played off the suit led (discards and trumps): 32 per relative seat |
//! | 622 | 20 | effective suits shown void: 5 per relative seat (S H G E by suit id 0–3, then the Unters of a Wenz) |
//! | 642 | 32 | the viewer's legal cards, when it is to play one |
//!
//! The blocks from offset 366 on are [`crate::learn::trick_features`]'s and the legal cards.
//! 674 entries in all ([`FEATURES`]).
//!
//! **Symmetries of card play** ([`card_play_symmetries`]): plain suits rank alike (A 10 K O U
//! 9 8 7 less the trumps), so relabelling them leaves the play as it was, with the called suit,
//! the declarations and the voids relabelled alike. Hearts stays (it is trump in a Sauspiel, and
//! another seat's Sauspiel declaration could not name it), and so do the Obers and Unters of a
//! Sauspiel or Solo: in a Sauspiel, a Wenz (whose Obers are plain and move with their suit) and
//! a Hearts Solo Schellen, Gras and Eichel are relabelled (six each), in a Schellen, Gras or
//! Eichel Solo the two suits left (two). The legal actions are not part of it: they come as a mask
//! over the 43 action ids ([`View::legal_mask`]).

use super::actions::Phase;
use super::cards::{EICHEL, GRAS, HERZ, OBER, SCHELLEN, UNTER};
use super::contract::Contract;
use super::view::View;
use crate::cards::{iter, CardSet};
use crate::learn::symmetry::{relabel_suits, suit_relabellings, Symmetry};
use crate::learn::trick_features;

/// Number of features.
pub const FEATURES: usize = 674;
/// Where [`trick_features`]' blocks start.
const TRICK_FEATURES: usize = 366;
/// The legal cards.
const LEGAL: usize = TRICK_FEATURES + 4 * trick_features::PER_SEAT;

/// The blocks of the encoding: name, offset, length.
pub const LAYOUT: [(&str, usize, usize); 17] = [
    ("phase", 0, 11),
    ("game_kind", 11, 3),
    ("game_suit", 14, 4),
    ("declarer", 18, 4),
    ("contra", 22, 4),
    ("retour", 26, 4),
    ("first_player", 30, 4),
    ("points", 34, 4),
    ("hand", 38, 32),
    ("declarations", 70, 36),
    ("played", 106, 128),
    ("trick", 234, 128),
    ("davongelaufen", 362, 4),
    ("led", 366, 128),
    ("off_suit", 494, 128),
    ("voids", 622, 20),
    ("legal", 642, 32),
];

/// The 32-wide blocks indexed by card.
const CARD_BLOCKS: [usize; 18] =
    [38, 106, 138, 170, 202, 234, 266, 298, 330, 366, 398, 430, 462, 494, 526, 558, 590, LEGAL];
/// The void block, 5 slots per relative seat.
const VOIDS: usize = 622;
/// The game kind (Sauspiel, Wenz, Solo) and the game's suit one-hots; the declarations.
const GAME_KIND: usize = 11;
const GAME_SUIT: usize = 14;
const DECLARATIONS: usize = 70;
/// The plain suits relabelled when Hearts stays.
const NOT_HEARTS: [u8; 3] = [SCHELLEN, GRAS, EICHEL];

/// The groups of card-play symmetries, by [`card_play_group`]: Sauspiel (0), Wenz (1), the
/// Solos by suit (2 + suit id: 2 Schellen, 3 Hearts, 4 Gras, 5 Eichel); the identity first.
/// Actions are the 32 cards (a card kind's ids less its offset).
pub fn card_play_symmetries() -> Vec<Vec<Symmetry>> {
    let group = |plain: &[u8], obers_move: bool| -> Vec<Symmetry> {
        (suit_relabellings(plain).iter())
            .map(|suit_of| {
                let trump_rank = |rank: u8| rank == UNTER || (rank == OBER && !obers_move);
                let card_of = relabel_suits(suit_of, |c| plain.contains(&(c % 4)) && !trump_rank(c / 4));
                // Declaration ids: 1–3 the Sauspiele on Schellen, Gras, Eichel; 5 + suit the Solos.
                let sauspiel = |s: u8| 1 + NOT_HEARTS.iter().position(|&x| x == s).unwrap_or(0);
                let mut moved: Vec<(usize, usize)> = Vec::new();
                for s in 0..4u8 {
                    let t = suit_of[s as usize];
                    moved.push((GAME_SUIT + s as usize, GAME_SUIT + t as usize));
                    for k in 0..4 {
                        moved.push((VOIDS + 5 * k + s as usize, VOIDS + 5 * k + t as usize));
                        moved.push((DECLARATIONS + 9 * k + 5 + s as usize, DECLARATIONS + 9 * k + 5 + t as usize));
                        if s != HERZ {
                            moved.push((DECLARATIONS + 9 * k + sauspiel(s), DECLARATIONS + 9 * k + sauspiel(t)));
                        }
                    }
                }
                Symmetry::relabel_cards(FEATURES, 32, &card_of, &CARD_BLOCKS, &moved, true)
            })
            .collect()
    };
    let mut groups = vec![group(&NOT_HEARTS, false), group(&NOT_HEARTS, true)];
    for solo in 0..4u8 {
        let plain: Vec<u8> = NOT_HEARTS.iter().copied().filter(|&s| s != solo).collect();
        groups.push(group(&plain, false));
    }
    groups
}

/// The group of [`card_play_symmetries`] of a card decision with `features` (None after four
/// passes).
pub fn card_play_group(features: &[f32]) -> Option<usize> {
    let kind = features[GAME_KIND..GAME_KIND + 3].iter().position(|&x| x == 1.0)?;
    let suit = features[GAME_SUIT..GAME_SUIT + 4].iter().position(|&x| x == 1.0);
    match kind {
        0 | 1 => Some(kind),
        _ => suit.map(|s| 2 + s),
    }
}

/// The features of `view`.
pub fn features(view: &View) -> Vec<f32> {
    let mut out = [0.0; FEATURES];
    encode(view, &mut out);
    out.to_vec()
}

/// Writes the features of `view` into `out`.
pub fn encode(view: &View, out: &mut [f32; FEATURES]) {
    out.fill(0.0);
    let me = view.seat();
    let rel = |seat: u8| ((seat + 4 - me) % 4) as usize;
    let set_cards = |out: &mut [f32; FEATURES], offset: usize, cards: CardSet| {
        for c in iter(cards) {
            out[offset + c as usize] = 1.0;
        }
    };
    match view.phase() {
        Phase::Bidding => out[0] = 1.0,
        Phase::Contra => out[1] = 1.0,
        Phase::Retour => out[2] = 1.0,
        Phase::Tricks => out[3 + view.tricks_done().min(7) as usize] = 1.0,
        Phase::Finished => {}
    }
    let contract = view.contract().filter(|c| *c != Contract::Passed);
    if let Some(c) = contract {
        let kind = c.kind().expect("a played contract has a kind");
        out[11 + kind as usize] = 1.0;
        if let Contract::Sauspiel(s) | Contract::Solo(s) = c {
            out[14 + s as usize] = 1.0;
        }
    }
    if let (Some(_), Some(d)) = (contract, view.declarer()) {
        out[18 + rel(d)] = 1.0;
    }
    for p in 0..4u8 {
        if view.contra()[p as usize] == Some(true) {
            out[22 + rel(p)] = 1.0;
        }
        if view.retour()[p as usize] == Some(true) {
            out[26 + rel(p)] = 1.0;
        }
        out[34 + rel(p)] = view.scores()[p as usize] as f32 / 120.0;
        if let Some(d) = view.bids()[p as usize] {
            out[70 + 9 * rel(p) + d.id() as usize] = 1.0;
        }
        set_cards(out, 106 + 32 * rel(p), view.played_by(p));
    }
    out[30 + rel(view.first_player())] = 1.0;
    set_cards(out, 38, view.hand());
    let t = view.tricks_done() as usize;
    if view.phase() == Phase::Tricks {
        for (i, &c) in view.current_trick().iter().enumerate() {
            let seat = (view.trick_leader(t) + i as u8) % 4;
            out[234 + 32 * rel(seat) + c as usize] = 1.0;
        }
    }
    if let Some(d) = view.davongelaufen() {
        out[362 + rel(d)] = 1.0;
    }
    if let Some(c) = contract {
        let tricks = (0..=t.min(7)).map(|t| (view.trick_leader(t), view.trick(t)));
        trick_features::encode(&c.order(), 4, me, tricks, &mut out[TRICK_FEATURES..LEGAL]);
    }
    if view.phase() == Phase::Tricks {
        set_cards(out, LEGAL, view.legal_cards());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_covers_the_vector() {
        let mut at = 0;
        for (_, offset, len) in LAYOUT {
            assert_eq!(offset, at);
            at += len;
        }
        assert_eq!(at, FEATURES);
        let shared = LAYOUT.iter().skip_while(|b| b.1 != TRICK_FEATURES).take(3);
        assert!(shared.map(|b| (b.0, b.2)).eq(trick_features::blocks(4)));
        assert_eq!(LAYOUT[16], ("legal", LEGAL, 32));
    }
}

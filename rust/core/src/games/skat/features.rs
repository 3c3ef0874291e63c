//! A fixed-length numeric encoding of one seat's view and a fixed action-id space, for learning
//! agents: one id is one [`Action`], so an environment's `step(id)` plays one action of the game.
//!
//! **Action ids** ([`NUM_ACTIONS`] = 624):
//!
//! | ids | actions |
//! |---|---|
//! | 0, 1 | `pass`, `hold` |
//! | 2–64 | the bids 18 … 264, by their index in [`BID_VALUES`] |
//! | 65, 66 | `hand`, `pickup` |
//! | 67–562 | the 496 discards: cards `a < b` (card ids) are pair `31a − a(a−1)/2 + b − a − 1` |
//! | 563–591 | the 29 contracts in [`Contract::ALL`] order |
//! | 592–623 | the cards, by card id (`D7` = 0 … `CA` = 31) |
//!
//! **Features** ([`FEATURES`] = 561). Seats are relative to the viewer: relative seat `k` is
//! seat `(viewer + k) % 3`. Cards are indexed by card id. Every entry is 0 or 1 except the
//! scaled values.
//!
//! | offset | length | content |
//! |---|---|---|
//! | 0 | 6 | phase one-hot: bidding, skat, discard, declare, tricks, finished |
//! | 6 | 3 | the viewer's seat one-hot: Vorhand, Mittelhand, Hinterhand |
//! | 9 | 1 | the highest value named so far / 264 |
//! | 10 | 3 | passed in the auction, by relative seat |
//! | 13 | 3 | the highest value each relative seat named or held / 264 |
//! | 16 | 3 | declarer, by relative seat |
//! | 19 | 2 | Hand, pickup (once chosen) |
//! | 21 | 6 | game one-hot: diamonds, hearts, spades, clubs, grand, null (once announced) |
//! | 27 | 3 | announced: schneider, schwarz, ouvert |
//! | 30 | 3 | card points taken in tricks / 120, by relative seat |
//! | 33 | 1 | tricks done / 10 |
//! | 34 | 32 | the viewer's hand |
//! | 66 | 32 | the skat or the discard, when the viewer knows it |
//! | 98 | 32 | the declarer's open hand in an ouvert game |
//! | 130 | 96 | cards played to tricks: 32 per relative seat |
//! | 226 | 96 | the current trick: 32 per relative seat |
//! | 322 | 96 | cards led: 32 per relative seat |
//! | 418 | 96 | cards played off the suit led (discards and trumps): 32 per relative seat |
//! | 514 | 15 | effective suits shown void: 5 per relative seat (D H S C by suit id 0–3, then the Jacks of a grand) |
//! | 529 | 32 | the viewer's legal cards, when it is to play one |
//!
//! The blocks from offset 322 on are [`crate::learn::trick_features`]'s (the paper's lead,
//! sloughed and void features) and the legal cards.
//!
//! **Symmetries of card play** ([`card_play_symmetries`]): the plain suits of a game rank
//! alike (A T K Q 9 8 7), so relabelling them leaves the play as it was — in a suit game the
//! three suits other than trump (the Jacks stay), in a grand all four (the Jacks stay: their
//! suits rank them), in a null all four with their Jacks. The game's values do not move (the
//! trump suit stays), nor do the bidding and declaration, which are not relabelled.
//!
//! The legal actions are not part of it: they come as a mask over the action ids
//! ([`legal_mask`]).

use super::actions::{Action, Phase};
use super::bidding::{Call, BID_VALUES};
use super::cards::JACK;
use super::contract::{Contract, GameType};
use super::view::View;
use crate::cards::{bit, iter, lowest, Card, CardSet};
use crate::learn::symmetry::{relabel_suits, suit_relabellings, Symmetry};
use crate::learn::trick_features;

/// Number of action ids.
pub const NUM_ACTIONS: usize = 624;
/// First id of each block of action ids: calls, Hand or pickup, discards, contracts, cards.
const CALLS: usize = 0;
const HAND: usize = 65;
const DISCARDS: usize = 67;
const CONTRACTS: usize = 563;
const CARDS: usize = 592;

/// The id of the discard of cards `a < b`.
fn pair_id(a: Card, b: Card) -> usize {
    let (a, b) = (a as usize, b as usize);
    31 * a - a * a.saturating_sub(1) / 2 + b - a - 1
}

/// The id of `action` (None for an action no game has, e.g. a discard of three cards).
pub fn action_id(action: Action) -> Option<usize> {
    Some(match action {
        Action::Call(Call::Pass) => CALLS,
        Action::Call(Call::Hold) => CALLS + 1,
        Action::Call(Call::Bid(v)) => CALLS + 2 + BID_VALUES.iter().position(|&x| x == v)?,
        Action::Hand(true) => HAND,
        Action::Hand(false) => HAND + 1,
        Action::Discard(set) if set.count_ones() == 2 && set >> 32 == 0 => {
            let a = lowest(set);
            DISCARDS + pair_id(a, lowest(set & !bit(a)))
        }
        Action::Discard(_) => return None,
        Action::Declare(c) if c.is_valid() => CONTRACTS + c.id(),
        Action::Declare(_) => return None,
        Action::Card(c) if c < 32 => CARDS + c as usize,
        Action::Card(_) => return None,
    })
}

/// The action of id `id` (None outside `0..NUM_ACTIONS`).
pub fn action_of(id: usize) -> Option<Action> {
    Some(match id {
        0 => Action::Call(Call::Pass),
        1 => Action::Call(Call::Hold),
        2..HAND => Action::Call(Call::Bid(BID_VALUES[id - 2])),
        HAND => Action::Hand(true),
        66 => Action::Hand(false),
        DISCARDS..CONTRACTS => {
            let mut k = id - DISCARDS;
            let mut a = 0;
            while k >= 31 - a {
                k -= 31 - a;
                a += 1;
            }
            Action::Discard(bit(a as Card) | bit((a + 1 + k) as Card))
        }
        CONTRACTS..CARDS => Action::Declare(Contract::ALL[id - CONTRACTS]),
        CARDS..NUM_ACTIONS => Action::Card((id - CARDS) as Card),
        _ => return None,
    })
}

/// The legal action ids of the viewing seat, ascending (empty unless it is to act).
pub fn legal_ids(view: &View) -> Vec<usize> {
    let mut ids: Vec<usize> = view.legal_actions().into_iter().filter_map(action_id).collect();
    ids.sort_unstable();
    ids
}

/// The legal-action mask over the [`NUM_ACTIONS`] ids (all false unless the seat is to act).
pub fn legal_mask(view: &View) -> Vec<bool> {
    let mut mask = vec![false; NUM_ACTIONS];
    for id in legal_ids(view) {
        mask[id] = true;
    }
    mask
}

/// Number of features.
pub const FEATURES: usize = 561;
/// The feature holding the tricks done / 10.
pub const TRICKS_DONE: usize = 33;
/// Where [`trick_features`]' blocks start.
const TRICK_FEATURES: usize = 322;
/// The legal cards.
const LEGAL: usize = TRICK_FEATURES + 3 * trick_features::PER_SEAT;

/// The blocks of the encoding: name, offset, length.
pub const LAYOUT: [(&str, usize, usize); 20] = [
    ("phase", 0, 6),
    ("seat", 6, 3),
    ("bid", 9, 1),
    ("passed", 10, 3),
    ("named", 13, 3),
    ("declarer", 16, 3),
    ("hand_or_pickup", 19, 2),
    ("game", 21, 6),
    ("announced", 27, 3),
    ("points", 30, 3),
    ("tricks_done", 33, 1),
    ("hand", 34, 32),
    ("skat", 66, 32),
    ("open_hand", 98, 32),
    ("played", 130, 96),
    ("trick", 226, 96),
    ("led", 322, 96),
    ("off_suit", 418, 96),
    ("voids", 514, 15),
    ("legal", 529, 32),
];

/// The 32-wide blocks indexed by card.
const CARD_BLOCKS: [usize; 16] = [34, 66, 98, 130, 162, 194, 226, 258, 290, 322, 354, 386, 418, 450, 482, LEGAL];
/// The void block, 5 slots per relative seat.
const VOIDS: usize = 514;
/// The game one-hot: diamonds, hearts, spades, clubs, grand, null.
const GAME: usize = 21;

/// The groups of card-play symmetries, by [`card_play_group`]: the suit games by trump suit
/// (groups 0–3, six relabellings each), grand (4) and null (5), 24 each; the identity first.
/// Actions are the 32 cards (a card kind's ids less its offset).
pub fn card_play_symmetries() -> Vec<Vec<Symmetry>> {
    let group = |plain: &[u8], jacks_move: bool| -> Vec<Symmetry> {
        (suit_relabellings(plain).iter())
            .map(|suit_of| {
                let card_of = relabel_suits(suit_of, |c| plain.contains(&(c % 4)) && (jacks_move || c / 4 != JACK));
                let moved: Vec<(usize, usize)> = (0..3)
                    .flat_map(|k| (0..4).map(move |s| (VOIDS + 5 * k + s, VOIDS + 5 * k + suit_of[s] as usize)))
                    .collect();
                Symmetry::relabel_cards(FEATURES, 32, &card_of, &CARD_BLOCKS, &moved, true)
            })
            .collect()
    };
    let mut groups: Vec<Vec<Symmetry>> =
        (0..4u8).map(|trump| group(&(0..4).filter(|&s| s != trump).collect::<Vec<u8>>(), false)).collect();
    groups.push(group(&[0, 1, 2, 3], false));
    groups.push(group(&[0, 1, 2, 3], true));
    groups
}

/// The group of [`card_play_symmetries`] of a card decision with `features`: its game's
/// position in the game one-hot (None before a game is announced).
pub fn card_play_group(features: &[f32]) -> Option<usize> {
    features[GAME..GAME + 6].iter().position(|&x| x == 1.0)
}

/// The features of `view`.
pub fn features(view: &View) -> Vec<f32> {
    let mut out = [0.0; FEATURES];
    encode(view, &mut out);
    out.to_vec()
}

/// Writes the features of `view` into `out` (see the module documentation).
pub fn encode(view: &View, out: &mut [f32; FEATURES]) {
    out.fill(0.0);
    let me = view.seat();
    let rel = |seat: u8| ((seat + 3 - me) % 3) as usize;
    let set_cards = |out: &mut [f32; FEATURES], offset: usize, cards: CardSet| {
        for c in iter(cards & 0xFFFF_FFFF) {
            out[offset + c as usize] = 1.0;
        }
    };
    let phase = [Phase::Bidding, Phase::Skat, Phase::Discard, Phase::Declare, Phase::Tricks, Phase::Finished];
    out[phase.iter().position(|&p| p == view.phase()).unwrap_or(0)] = 1.0;
    out[6 + me as usize] = 1.0;
    out[9] = view.bid() as f32 / 264.0;
    let mut current = 0u16;
    for (seat, a) in view.history() {
        match a {
            Action::Call(Call::Pass) => out[10 + rel(seat)] = 1.0,
            Action::Call(Call::Bid(v)) => {
                current = v;
                out[13 + rel(seat)] = v as f32 / 264.0;
            }
            Action::Call(Call::Hold) => out[13 + rel(seat)] = current as f32 / 264.0,
            _ => {}
        }
    }
    if let Some(d) = view.declarer() {
        out[16 + rel(d)] = 1.0;
    }
    if let Some(h) = view.hand_game() {
        out[19 + !h as usize] = 1.0;
    }
    if let Some(c) = view.contract() {
        let g = GameType::ALL.iter().position(|&g| g == c.game).unwrap_or(5);
        out[21 + g] = 1.0;
        out[27] = c.schneider as u8 as f32;
        out[28] = c.schwarz as u8 as f32;
        out[29] = c.ouvert as u8 as f32;
    }
    let points = view.trick_points();
    for p in 0..3u8 {
        out[30 + rel(p)] = points[p as usize] as f32 / 120.0;
        set_cards(out, 130 + 32 * rel(p), view.played_by(p));
    }
    out[TRICKS_DONE] = view.tricks_done() as f32 / 10.0;
    set_cards(out, 34, view.hand());
    set_cards(out, 66, view.put_away().or(view.skat()).unwrap_or(0));
    set_cards(out, 98, view.open_hand().unwrap_or(0));
    if view.phase() == Phase::Tricks {
        let t = view.tricks_done() as usize;
        for (i, &c) in view.current_trick().iter().enumerate() {
            let seat = view.seat_of(t, i);
            out[226 + 32 * rel(seat) + c as usize] = 1.0;
        }
        set_cards(out, LEGAL, view.legal_cards());
    }
    if let Some(contract) = view.contract() {
        let tricks = (0..=view.tricks_done().min(9) as usize).map(|t| (view.trick_leader(t), view.trick(t)));
        trick_features::encode(&contract.order(), 3, me, tricks, &mut out[TRICK_FEATURES..LEGAL]);
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
        assert!(shared.map(|b| (b.0, b.2)).eq(trick_features::blocks(3)));
        assert_eq!(LAYOUT[19], ("legal", LEGAL, 32));
    }

    #[test]
    fn every_id_round_trips() {
        for id in 0..NUM_ACTIONS {
            let a = action_of(id).unwrap();
            assert_eq!(action_id(a), Some(id), "{a:?}");
        }
        assert_eq!(action_of(NUM_ACTIONS), None);
        assert_eq!(action_id(Action::Discard(0b111)), None);
        assert_eq!(action_id(Action::Call(Call::Bid(19))), None);
    }
}

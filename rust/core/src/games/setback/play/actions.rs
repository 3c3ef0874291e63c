//! Setback's action ids, as game logs name moves: 0 Pass, 1 Two, 2 Three, 3 Four, then
//! `4 + card` for the 52 cards (card id `4 × (rank − 2) + suit`, 2C = 0 … AS = 51).

use super::super::cards::{self, Card};
use super::super::rules::Phase;
use super::agent::Move;
use super::view::View;

/// Number of action ids.
pub const NUM_ACTIONS: usize = 4 + cards::DECK_SIZE;
/// The first card's action id.
pub const FIRST_CARD: usize = 4;

/// The action id of a move.
pub fn action_id(m: Move) -> u32 {
    match m {
        Move::Bid(0) => 0,
        Move::Bid(b) => u32::from(b) - 1,
        Move::Card(c) => (FIRST_CARD + c as usize) as u32,
    }
}

/// The move of an action id (None beyond [`NUM_ACTIONS`]).
pub fn move_of(id: usize) -> Option<Move> {
    match id {
        0 => Some(Move::Bid(0)),
        1..=3 => Some(Move::Bid(id as u8 + 1)),
        _ if id < NUM_ACTIONS => Some(Move::Card((id - FIRST_CARD) as Card)),
        _ => None,
    }
}

/// The name of every action id: `pass`, `2`, `3`, `4`, then the cards (`2C` … `AS`).
pub fn action_names() -> Vec<String> {
    let bids = ["pass", "2", "3", "4"].map(String::from);
    bids.into_iter().chain((0..cards::DECK_SIZE as Card).map(cards::card_name)).collect()
}

/// The move a user names: a bid (`pass` or `0`, `2`, `3`, `4`) or a card (`AS`, `td`).
pub fn move_named(name: &str) -> Option<Move> {
    match name.trim().to_ascii_lowercase().as_str() {
        "pass" | "0" => Some(Move::Bid(0)),
        "2" => Some(Move::Bid(2)),
        "3" => Some(Move::Bid(3)),
        "4" => Some(Move::Bid(4)),
        card => cards::parse_card(&card.to_ascii_uppercase()).ok().map(Move::Card),
    }
}

/// A mask over the [`NUM_ACTIONS`] action ids of the viewer's legal moves.
pub fn legal_mask(view: &View) -> Vec<bool> {
    let mut mask = vec![false; NUM_ACTIONS];
    for id in legal_ids(view) {
        mask[id as usize] = true;
    }
    mask
}

/// The viewer's legal action ids, ascending (empty unless it is to act).
pub fn legal_ids(view: &View) -> Vec<u32> {
    if view.phase() == Phase::Auction {
        view.legal_bids().into_iter().map(|b| action_id(Move::Bid(b))).collect()
    } else {
        cards::iter(view.legal_cards()).map(|c| action_id(Move::Card(c))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_moves_round_trip() {
        let names = action_names();
        assert_eq!(names.len(), NUM_ACTIONS);
        assert_eq!(&names[..5], ["pass", "2", "3", "4", "2C"]);
        assert_eq!(names[NUM_ACTIONS - 1], "AS");
        for (id, name) in names.iter().enumerate() {
            assert_eq!(action_id(move_of(id).unwrap()) as usize, id);
            assert_eq!(move_named(name), move_of(id), "{name}");
        }
        assert_eq!(move_named(" Td "), move_named("TD"));
        assert_eq!((move_named("0"), move_named("1"), move_named("ZZ")), (Some(Move::Bid(0)), None, None));
        assert_eq!(move_of(NUM_ACTIONS), None);
        assert_eq!(move_of(2), Some(Move::Bid(3)));
    }
}

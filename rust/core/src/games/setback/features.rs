//! A fixed-length numeric encoding of one player's view, for learned policies.
//!
//! Players are relative to the viewer: relative player `k` is the one `k` seats to its left
//! (0 = the viewer, 2 = its partner). Once trump is set, cards are named in **trump-relative
//! suit order** — a card of suit `s` is encoded as suit `(s − trump) mod 4`, so trump is always
//! suit 0 — since Setback's suits are interchangeable apart from trump; before (the auction and
//! the trump-setting lead) cards keep their own suits. Card index `4 × (rank − 2) + suit`. Every
//! entry is 0 or 1 except the game points and the scores.
//!
//! | offset | length | content |
//! |---|---|---|
//! | 0 | 8 | phase one-hot: auction, trump-setting lead, trick 1 … 6 (the lead is trick 1's first card; all 0 when finished) |
//! | 8 | 4 | the dealer, by relative player |
//! | 12 | 20 | bids: 5 per relative player (not yet, pass, 2, 3, 4), one-hot |
//! | 32 | 4 | the high bidder, by relative player (0 while nobody has bid) |
//! | 36 | 3 | the high bid 2, 3, 4 one-hot |
//! | 39 | 52 | the viewer's hand |
//! | 91 | 208 | cards played: 52 per relative player (completed tricks and the current one) |
//! | 299 | 208 | the current trick: 52 per relative player |
//! | 507 | 16 | suits shown void: 4 per relative player |
//! | 523 | 2 | game points taken in completed tricks / 20: the viewer's team, the other |
//! | 525 | 2 | the lowest trump in completed tricks so far, taken by: the viewer's team, the other |
//! | 527 | 2 | the Jack of trump taken: by the viewer's team, by the other |
//! | 529 | 2 | the game score before this deal / 11: the viewer's team, the other |
//! | 531 | 1 | trump is set |
//!
//! 532 entries in all ([`FEATURES`]).

use super::cards::{self, Card, CardSet};
use super::play::view::View;
use super::rules::Phase;

/// Number of features.
pub const FEATURES: usize = 532;

/// The blocks of the encoding: name, offset, length.
pub const LAYOUT: [(&str, usize, usize); 14] = [
    ("phase", 0, 8),
    ("dealer", 8, 4),
    ("bids", 12, 20),
    ("high_bidder", 32, 4),
    ("high_bid", 36, 3),
    ("hand", 39, 52),
    ("played", 91, 208),
    ("trick", 299, 208),
    ("voids", 507, 16),
    ("game_points", 523, 2),
    ("low", 525, 2),
    ("jack", 527, 2),
    ("score", 529, 2),
    ("trump_set", 531, 1),
];

/// No team took it yet (the rules' marker).
const NONE: u8 = u8::MAX;

/// The card as the encoding names it (trump-relative suits once trump is set).
pub fn encoded_card(view: &View, c: Card) -> Card {
    match view.trump() {
        Some(t) => cards::card(cards::rank(c), (cards::suit(c) + 4 - t) % 4),
        None => c,
    }
}

/// The card an encoded card names (the inverse of [`encoded_card`]).
pub fn decoded_card(view: &View, c: Card) -> Card {
    match view.trump() {
        Some(t) => cards::card(cards::rank(c), (cards::suit(c) + t) % 4),
        None => c,
    }
}

/// The features of `view`.
pub fn features(view: &View) -> Vec<f32> {
    let mut out = vec![0.0; FEATURES];
    let me = view.player();
    // Relative player of dealer-relative player `p`, and the dealer-relative player of relative `k`.
    let rel = |p: u8| ((p + 4 - me) % 4) as usize;
    let abs = |k: usize| (me + k as u8) % 4;
    let put_cards = |out: &mut [f32], offset: usize, set: CardSet| {
        for c in cards::iter(set) {
            out[offset + encoded_card(view, c) as usize] = 1.0;
        }
    };
    match view.phase() {
        Phase::Auction => out[0] = 1.0,
        Phase::Establish => out[1] = 1.0,
        Phase::Playout => out[2 + view.tricks_done().min(5) as usize] = 1.0,
        Phase::Finished => {}
    }
    out[8 + rel(0)] = 1.0;
    // Bids are made by players 1, 2, 3, 0 (the dealer last).
    let bids = view.bids();
    for k in 0..4 {
        let order = (abs(k) + 3) % 4;
        let slot = match bids.get(order as usize) {
            None => 0,
            Some(0) => 1,
            Some(&b) => b as usize,
        };
        out[12 + 5 * k + slot] = 1.0;
    }
    let (high, bidder) = view.high_bid();
    if let Some(p) = bidder {
        out[32 + rel(p)] = 1.0;
        out[36 + (high as usize - 2)] = 1.0;
    }
    put_cards(&mut out, 39, view.hand());
    for k in 0..4 {
        put_cards(&mut out, 91 + 52 * k, view.played_by(abs(k)));
    }
    if let Some(leader) = view.leader() {
        for (i, &c) in view.trick().iter().enumerate() {
            out[299 + 52 * rel((leader + i as u8) % 4) + encoded_card(view, c) as usize] = 1.0;
        }
    }
    let voids = view.shown_voids();
    for k in 0..4 {
        for s in 0..4u8 {
            if voids[abs(k) as usize] & (1 << s) != 0 {
                let s = view.trump().map_or(s, |t| (s + 4 - t) % 4);
                out[507 + 4 * k + s as usize] = 1.0;
            }
        }
    }
    let deal = view.deal();
    let (mine, theirs) = (view.team(), 1 - view.team());
    out[523] = f32::from(deal.game_pts[mine]) / 20.0;
    out[524] = f32::from(deal.game_pts[theirs]) / 20.0;
    let by_team = |out: &mut [f32], offset: usize, team: u8| {
        if team != NONE {
            out[offset + usize::from(team as usize != mine)] = 1.0;
        }
    };
    if deal.low_taken != 0 {
        by_team(&mut out, 525, deal.low_taken_team);
    }
    by_team(&mut out, 527, deal.jack_taken);
    let score = view.score();
    out[529] = score[mine] as f32 / 11.0;
    out[530] = score[theirs] as f32 / 11.0;
    out[531] = f32::from(u8::from(view.trump().is_some()));
    out
}

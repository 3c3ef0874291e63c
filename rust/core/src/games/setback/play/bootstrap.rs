//! Bootstrap (score-aware) auction keys (spec §2.9), in the original's string format
//! `NeedFlag/Bid/Bidder/NumBids/Hand`, untrimmed:
//!
//! * the score is taken from the side of the player to bid ("us"); the target is
//!   `max(us + 1, them + 1, 11)` (11, or one more than a tied score of 11 or more);
//! * NeedFlag: the points the opponents need as a digit when at most 4, else `x`; then `!` when
//!   that digit is shown and we need more than they do, else `.`;
//! * Bid: the current high bid (`0`, `2`, `3`, `4`); Bidder: the dealer-relative index of the high
//!   bidder or `-1`; NumBids: bids made so far; Hand: the 12-character sketch (§2.2b).
//!
//! A bootstrap key's strategy indexes the full list of legal bids (no Jack filter).

use super::super::keys::sketch_string;
use super::super::rules::WIN_THRESHOLD;
use super::view::View;

/// The bootstrap auction key of the viewing player (meaningful in the auction).
pub fn bootstrap_key(view: &View) -> String {
    let score = view.score();
    let us = score[view.team()];
    let them = score[1 - view.team()];
    let target = (us + 1).max(them + 1).max(WIN_THRESHOLD);
    let (us_need, them_need) = (target - us, target - them);
    let (c1, c2) = if them_need <= 4 {
        (char::from_digit(them_need as u32, 10).expect("1..=4"), if us_need > them_need { '!' } else { '.' })
    } else {
        ('x', '.')
    };
    let (bid, bidder) = view.high_bid();
    let bidder = bidder.map_or(-1, |b| b as i32);
    format!("{c1}{c2}/{bid}/{bidder}/{}/{}", view.bids().len(), sketch_string(view.dealt_hand()))
}

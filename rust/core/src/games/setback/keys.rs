//! Information-set keys as compact 64-bit integers, printable as (and parsable from) the
//! original's strings: the baseline keys (spec §2.3–§2.5, trailing `.` trimmed) and the
//! bootstrap stage's score-aware auction keys (§2.9, untrimmed).
//!
//! Layout of a [`Key`] (bits): 62–63 kind (0 auction, 1 establish, 2 playout, 3 bootstrap).
//! * auction: 48–49 high-bid character (`0`, `2`, `3`, `D`), 0–47 the 12 sketch codes;
//! * establish: 48–50 the winning bid (2, 3, 4), 0–47 the sketch;
//! * playout: 58 `H`, 54–57 low-taken code, 53 `J`, 52 `+`, 48–51 trump voids, 33–47 three trick
//!   plays (5 bits each: 0 none, else 2 × rank code + trump bit), 30–32 trick winner (0 none,
//!   else 1 + position), 0–29 the set of action codes (lead codes when no card is on the table,
//!   follow codes otherwise; canonical order = bit order);
//! * bootstrap: 57–58 bids made, 54–56 high bidder + 1 (0 none), 52–53 high-bid character
//!   (`0`, `2`, `3`, `4`), 51 the `!` flag, 48–50 the opponents' need (0 = `x`, else 1..=4),
//!   0–47 the sketch. Its actions are all legal bids (no Jack filter).
//!
//! Sketch and rank codes: 0 = `.`, 1..=13 = ranks `2`…`A`, 14 = `x`.

use super::abstraction::{self, Action, Actions, FOLLOW_CODES, LEAD_CODES, SKETCH_DOT, SKETCH_X};
use super::cards::{self, suit, FIVE};
use super::rules::{legal_bids, Deal, Phase, BIDS, WIN_THRESHOLD};
use crate::error::{Error, Result};

/// A compact baseline key.
pub type Key = u64;

const KIND_SHIFT: u32 = 62;
const AUCTION: u64 = 0;
const ESTABLISH: u64 = 1;
const PLAYOUT: u64 = 2;
const BOOTSTRAP: u64 = 3;
const SKETCH_BITS: u64 = (1 << 48) - 1;
const AUCTION_CHARS: [char; 4] = ['0', '2', '3', 'D'];
const KEY_LEN: usize = 24;

/// The key of the player to act at `d`, given its abstract actions `a` (None when fewer than two).
pub fn key(d: &Deal, a: &Actions) -> Option<Key> {
    if a.n < 2 {
        return None;
    }
    Some(match d.phase() {
        Phase::Auction => {
            let p = ((d.num_bids + 1) % 4) as usize;
            let bid_char = match d.high_bid {
                0 => 0,
                2 => 1,
                3 => 2,
                _ => 3,
            };
            (AUCTION << KIND_SHIFT) | (bid_char << 48) | abstraction::sketch(d.dealt[p])
        }
        Phase::Establish => {
            (ESTABLISH << KIND_SHIFT)
                | ((d.high_bid as u64) << 48)
                | abstraction::sketch(d.dealt[d.high_bidder as usize])
        }
        Phase::Playout => playout_key(d, a.mask),
        Phase::Finished => return None,
    })
}

/// The bootstrap (score-aware) auction key of the player to act in the auction of `d`, the game
/// score being `score` (the dealer's team, the other team) before the deal (spec §2.9):
///
/// * the score is taken from the side of the player to bid ("us"); the target is
///   `max(us + 1, them + 1, 11)` (11, or one more than a tied score of 11 or more);
/// * NeedFlag: the points the opponents need as a digit when at most 4, else `x`; then `!` when
///   that digit is shown and we need more than they do, else `.`;
/// * Bid: the current high bid; Bidder: the dealer-relative index of the high bidder or `-1`;
///   NumBids: bids made so far; Hand: the 12-character sketch (§2.2b).
///
/// None outside the auction.
pub fn bootstrap_key(d: &Deal, score: [i32; 2]) -> Option<Key> {
    if d.phase() != Phase::Auction {
        return None;
    }
    let p = ((d.num_bids + 1) % 4) as usize;
    let team = p % 2;
    let (us, them) = (score[team], score[1 - team]);
    let target = (us + 1).max(them + 1).max(WIN_THRESHOLD);
    let (us_need, them_need) = (target - us, target - them);
    let (need, flag) = if them_need <= 4 { (them_need as u64, (us_need > them_need) as u64) } else { (0, 0) };
    let bid_char = match d.high_bid {
        0 => 0,
        2 => 1,
        3 => 2,
        _ => 3,
    };
    let bidder = if d.high_bid == 0 { 0 } else { 1 + d.high_bidder as u64 };
    Some(
        (BOOTSTRAP << KIND_SHIFT)
            | ((d.num_bids as u64) << 57)
            | (bidder << 54)
            | (bid_char << 52)
            | (flag << 51)
            | (need << 48)
            | abstraction::sketch(d.dealt[p]),
    )
}

/// Whether `k` is a bootstrap (score-aware auction) key.
pub fn is_bootstrap(k: Key) -> bool {
    k >> KIND_SHIFT == BOOTSTRAP
}

fn playout_key(d: &Deal, mask: u32) -> Key {
    let p = ((d.leader + d.trick_len) % 4) as usize;
    let mut k = (PLAYOUT << KIND_SHIFT) | mask as u64;
    if d.high_flag {
        k |= 1 << 58;
    }
    if d.low_taken != 0 {
        let thr = if d.hand_low[p] == 0 { FIVE } else { d.hand_low[p].min(FIVE) };
        let code = if d.low_taken <= thr { d.low_taken - 1 } else { SKETCH_X };
        k |= (code as u64) << 54;
    }
    if d.jack_taken != u8::MAX {
        k |= 1 << 53;
    }
    let team = p % 2;
    if d.game_pts[team] >= d.game_pts[1 - team] {
        k |= 1 << 52;
    }
    // Void players as leader-relative positions (rotate the 4 bits), those yet to play.
    let relative = ((d.voids as u64 | (d.voids as u64) << 4) >> d.leader) & 15;
    let yet_to_play = 15 & !((2u64 << d.trick_len) - 1);
    k |= (relative & yet_to_play) << 48;
    for i in 0..d.trick_len as usize {
        let c = d.trick[i];
        let code = abstraction::play_rank_code(d, p, c) as u64 * 2 + (suit(c) == d.trump) as u64;
        k |= code << (33 + 5 * i);
    }
    if d.trick_len > 0 {
        k |= (1 + d.trick_winner as u64) << 30;
    }
    k
}

fn code_char(code: u8) -> char {
    match code {
        SKETCH_DOT => '.',
        SKETCH_X => 'x',
        c => cards::rank_char(c + 1),
    }
}

fn char_code(c: char) -> Option<u8> {
    match c {
        '.' => Some(SKETCH_DOT),
        'x' => Some(SKETCH_X),
        _ => cards::rank_of_char(c).filter(|_| !c.is_ascii_lowercase()).map(|r| r - 1),
    }
}

fn push_sketch(s: &mut String, sk: u64) {
    for i in 0..12 {
        s.push(code_char(((sk >> (4 * i)) & 15) as u8));
    }
}

/// Whether a sketch shows a Jack (the Four filter of §2.3).
fn sketch_has_jack(sk: u64) -> bool {
    (0..12).any(|i| ((sk >> (4 * i)) & 15) as u8 == cards::JACK - 1)
}

/// The abstract actions a key stands for, in canonical (strategy-vector) order.
pub fn key_actions(k: Key) -> Vec<Action> {
    match k >> KIND_SHIFT {
        AUCTION => {
            let bids: &[u8] = match (k >> 48) & 3 {
                0 => &[0, 2, 3, 4],
                1 => &[0, 3, 4],
                _ => &[0, 4],
            };
            let jack = sketch_has_jack(k & SKETCH_BITS);
            bids.iter().copied().filter(|&b| b != 4 || jack).map(Action::Bid).collect()
        }
        ESTABLISH => vec![Action::Establish(0), Action::Establish(1)],
        BOOTSTRAP => {
            let high = BIDS[((k >> 52) & 3) as usize];
            legal_bids(high, (k >> 57) & 3 == 3).map(Action::Bid).collect()
        }
        _ => {
            let lead = (k >> 33) & 0x7fff == 0;
            let mut m = (k & ((1 << 30) - 1)) as u32;
            let mut v = Vec::new();
            while m != 0 {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                v.push(if lead { Action::Lead(i) } else { Action::Follow(i) });
            }
            v
        }
    }
}

/// Number of actions of a key.
pub fn key_num_actions(k: Key) -> usize {
    match k >> KIND_SHIFT {
        AUCTION | ESTABLISH | BOOTSTRAP => key_actions(k).len(),
        _ => (k as u32 & ((1 << 30) - 1)).count_ones() as usize,
    }
}

fn codes_ok(sk: u64) -> bool {
    (0..12).all(|i| (sk >> (4 * i)) & 15 <= SKETCH_X as u64)
}

fn bootstrap_fields_ok(k: Key) -> bool {
    let (bid, bidder, need) = ((k >> 52) & 3, (k >> 54) & 7, (k >> 48) & 7);
    // A high bid has a bidder and no bid has none; `!` only follows a digit.
    k >> KIND_SHIFT == BOOTSTRAP
        && (k >> 59) & 7 == 0
        && (bid == 0) == (bidder == 0)
        && bidder <= 4
        && need <= 4
        && (need != 0 || k & (1 << 51) == 0)
        && codes_ok(k & SKETCH_BITS)
}

/// Whether `k` is a well-formed compact key (every field in range, and it prints to a string
/// that parses back to it).
pub fn is_valid(k: Key) -> bool {
    let fields_ok = match k >> KIND_SHIFT {
        AUCTION => (k >> 50) & 0xfff == 0 && codes_ok(k & SKETCH_BITS),
        ESTABLISH => (k >> 51) & 0x7ff == 0 && (2..=4).contains(&((k >> 48) & 7)) && codes_ok(k & SKETCH_BITS),
        PLAYOUT => {
            (k >> 59) & 7 == 0
                && (k >> 54) & 15 <= SKETCH_X as u64
                && (0..3).all(|i| {
                    let c = (k >> (33 + 5 * i)) & 31;
                    c == 0 || (2..=29).contains(&c)
                })
                && (k >> 30) & 7 <= 4
        }
        BOOTSTRAP => bootstrap_fields_ok(k),
        _ => false,
    };
    fields_ok && parse_key(&key_string(k)).ok() == Some(k)
}

/// The original's key string of a key known to be valid (see [`is_valid`]), trailing `.` trimmed.
pub fn key_string(k: Key) -> String {
    let mut s = String::with_capacity(KEY_LEN);
    match k >> KIND_SHIFT {
        AUCTION => {
            s.push(AUCTION_CHARS[((k >> 48) & 3) as usize]);
            push_sketch(&mut s, k & SKETCH_BITS);
        }
        ESTABLISH => {
            s.push('E');
            s.push(char::from(b'0' + ((k >> 48) & 7) as u8));
            push_sketch(&mut s, k & SKETCH_BITS);
        }
        BOOTSTRAP => {
            let need = (k >> 48) & 7;
            s.push(if need == 0 { 'x' } else { char::from(b'0' + need as u8) });
            s.push(if k & (1 << 51) != 0 { '!' } else { '.' });
            let bidder = ((k >> 54) & 7) as i32 - 1;
            let bid = [0, 2, 3, 4][((k >> 52) & 3) as usize];
            s.push_str(&format!("/{bid}/{bidder}/{}/", (k >> 57) & 3));
            push_sketch(&mut s, k & SKETCH_BITS);
            // Bootstrap keys are not trimmed.
            return s;
        }
        _ => {
            s.push(if k & (1 << 58) != 0 { 'H' } else { '.' });
            s.push(code_char(((k >> 54) & 15) as u8));
            s.push(if k & (1 << 53) != 0 { 'J' } else { '.' });
            s.push(if k & (1 << 52) != 0 { '+' } else { '-' });
            s.push(char::from_digit(((k >> 48) & 15) as u32, 16).unwrap().to_ascii_uppercase());
            for i in 0..3 {
                let code = (k >> (33 + 5 * i)) & 31;
                if code == 0 {
                    s.push_str("..");
                } else {
                    s.push(code_char((code / 2) as u8));
                    s.push(if code & 1 != 0 { 't' } else { 'x' });
                }
            }
            let w = (k >> 30) & 7;
            s.push(if w == 0 { '.' } else { char::from(b'0' + (w - 1) as u8) });
            for a in key_actions(k) {
                s.push_str(&a.code());
            }
        }
    }
    s.truncate(s.trim_end_matches('.').len());
    s
}

/// Parses an original key string (trimmed or not) into a compact key; refuses anything that is
/// not a well-formed baseline key.
pub fn parse_key(s: &str) -> Result<Key> {
    let bad = || {
        Error::invalid(
            "Setback key",
            s,
            "a baseline key: auction (0|2|3|D + hand sketch), establish (E + bid + sketch) or playout (H|. + 23 chars)",
        )
    };
    if s.contains('/') {
        return parse_bootstrap(s).ok_or_else(|| {
            Error::invalid("Setback bootstrap key", s, "NeedFlag/Bid/Bidder/NumBids/Hand, e.g. 3!/0/-1/0/AJ4.........")
        });
    }
    if !s.is_ascii() || s.len() > KEY_LEN || s.is_empty() {
        return Err(bad());
    }
    let mut b: Vec<char> = s.chars().collect();
    b.resize(KEY_LEN, '.');
    let sketch_at = |from: usize| -> Option<u64> {
        let mut sk = 0u64;
        for i in 0..12 {
            sk |= (char_code(b[from + i])? as u64) << (4 * i);
        }
        Some(sk)
    };
    let k = match b[0] {
        '0' | '2' | '3' | 'D' => {
            if b[13..].iter().any(|&c| c != '.') {
                return Err(bad());
            }
            let bc = AUCTION_CHARS.iter().position(|&c| c == b[0]).unwrap() as u64;
            (AUCTION << KIND_SHIFT) | (bc << 48) | sketch_at(1).ok_or_else(bad)?
        }
        'E' => {
            let bid = match b[1] {
                '2' => 2u64,
                '3' => 3,
                '4' => 4,
                _ => return Err(bad()),
            };
            if b[14..].iter().any(|&c| c != '.') {
                return Err(bad());
            }
            (ESTABLISH << KIND_SHIFT) | (bid << 48) | sketch_at(2).ok_or_else(bad)?
        }
        'H' | '.' => parse_playout(&b).ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    // Only canonical strings are keys: printing the parsed key must give the input back.
    if key_string(k) != s.trim_end_matches('.') {
        return Err(bad());
    }
    Ok(k)
}

fn parse_bootstrap(s: &str) -> Option<Key> {
    let f: Vec<&str> = s.split('/').collect();
    let [flags, bid, bidder, num_bids, hand] = f.as_slice() else { return None };
    let fc: Vec<char> = flags.chars().collect();
    let need = match fc.first()? {
        'x' => 0,
        c => c.to_digit(10).filter(|d| (1..=4).contains(d))? as u64,
    };
    let flag = match fc.get(1)? {
        '!' => 1u64,
        '.' => 0,
        _ => return None,
    };
    let bid_char = [0u8, 2, 3, 4].iter().position(|&b| bid.parse::<u8>().ok() == Some(b))? as u64;
    let bidder: i64 = bidder.parse().ok().filter(|b| (-1..=3).contains(b))?;
    let num_bids: u64 = num_bids.parse().ok().filter(|n| *n <= 3)?;
    let hc: Vec<char> = hand.chars().collect();
    if hc.len() != 12 || fc.len() != 2 {
        return None;
    }
    let mut sk = 0u64;
    for (i, &c) in hc.iter().enumerate() {
        sk |= (char_code(c)? as u64) << (4 * i);
    }
    let k = (BOOTSTRAP << KIND_SHIFT)
        | (num_bids << 57)
        | (((bidder + 1) as u64) << 54)
        | (bid_char << 52)
        | (flag << 51)
        | (need << 48)
        | sk;
    (bootstrap_fields_ok(k) && key_string(k) == s).then_some(k)
}

fn parse_playout(b: &[char]) -> Option<Key> {
    let mut k = PLAYOUT << KIND_SHIFT;
    if b[0] == 'H' {
        k |= 1 << 58;
    }
    k |= (char_code(b[1])? as u64) << 54;
    match b[2] {
        'J' => k |= 1 << 53,
        '.' => {}
        _ => return None,
    }
    match b[3] {
        '+' => k |= 1 << 52,
        '-' | '.' => {}
        _ => return None,
    }
    // Void positions are 1..=3 (never the leader): an even digit up to E.
    k |= (b[4].to_digit(16).filter(|v| v % 2 == 0)? as u64) << 48;
    let mut lead = true;
    for i in 0..3 {
        let (r, t) = (b[5 + 2 * i], b[6 + 2 * i]);
        if r == '.' && t == '.' {
            continue;
        }
        lead = false;
        let code = char_code(r).filter(|&c| c != SKETCH_DOT)? as u64 * 2
            + match t {
                't' => 1,
                'x' => 0,
                _ => return None,
            };
        k |= code << (33 + 5 * i);
    }
    if b[11] != '.' {
        k |= (b[11].to_digit(10).filter(|&w| w < 4)? as u64 + 1) << 30;
    }
    let codes: &[&str] = if lead { &LEAD_CODES } else { &FOLLOW_CODES };
    for j in 0..6 {
        let pair: String = b[12 + 2 * j..14 + 2 * j].iter().collect();
        if pair == ".." {
            break;
        }
        // Trimming may have eaten the '.' of the last code (e.g. `S.` printed as `S`).
        let i = codes.iter().position(|&c| c == pair)?;
        k |= 1 << i;
    }
    Some(k)
}

/// The 12-character hand sketch of a 6-card hand (§2.2b), untrimmed.
pub fn sketch_string(hand: cards::CardSet) -> String {
    let mut s = String::with_capacity(12);
    push_sketch(&mut s, abstraction::sketch(hand));
    s
}

/// The abstract actions and key of the player to act, as the original's strings.
pub fn describe(d: &Deal) -> (Vec<String>, Option<String>) {
    let a = abstraction::actions(d);
    let codes = a.as_slice().iter().map(|x| x.code()).collect();
    (codes, key(d, &a).map(key_string))
}

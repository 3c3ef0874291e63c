//! Matadors, game value, winning, the list score and Seeger-Fabian points (spec §6–§8).
//!
//! * **Matadors** run along the contract's trumps from the top (♣J ♠J ♥J ♦J, then the trump
//!   suit's A T K Q 9 8 7) over the declarer's ten dealt cards and the two cards of the original
//!   skat: "with m" when ♣J is among them (the unbroken run held), else "without m" (the trumps
//!   above the highest one held; all of them when none is held).
//! * **Suit and grand**: value = base × (m + 1 game + Hand + Schneider + Schneider announced +
//!   Schwarz + Schwarz announced + ouvert); Schneider when a party has ≤ 30 card points (or
//!   announced), Schwarz when a party took no trick (or announced), each counted once. The
//!   declarer wins with ≥ 61 card points (the skat counts for him), ≥ 90 when Schneider was
//!   announced, all ten tricks when Schwarz was announced or ouvert.
//! * **Null**: won iff the declarer takes no trick; value 23, Hand 35, ouvert 46, ouvert Hand 59.
//! * **Overbid**: a value below the bid loses, at the smallest multiple of the base value ≥ the
//!   bid (max with the value computed).
//! * **List score**: +value won, −2 × value lost. **Seeger-Fabian**: the declarer value + 50
//!   when won, −2 × value − 50 when lost, each defender then +40; a thrown-in deal 0 for all.

use super::cards::bit;
use super::contract::{Contract, GameType};
use crate::cards::CardSet;

/// Seeger-Fabian bonus of a won game.
pub const WIN_BONUS: i32 = 50;
/// Seeger-Fabian bonus of each defender at a 3-player table when the declarer loses.
pub const DEFENDER_BONUS: i32 = 40;

/// The matadors of `game` over `cards` (the declarer's dealt cards and the original skat): the
/// count and whether it is "with" (None for null).
pub fn matadors(game: GameType, cards: CardSet) -> Option<(u32, bool)> {
    let trumps = game.trumps_high_to_low();
    if trumps.is_empty() {
        return None;
    }
    let with = trumps.iter().take_while(|&&t| cards & bit(t) != 0).count();
    if with > 0 {
        return Some((with as u32, true));
    }
    Some((trumps.iter().take_while(|&&t| cards & bit(t) == 0).count() as u32, false))
}

/// The outcome of a played contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Whether the declarer won.
    pub won: bool,
    /// The game value (for an overbid lost game, the value it is lost at).
    pub value: u32,
    /// Whether the game was lost for being overbid.
    pub overbid: bool,
    /// Schneider reached or announced (suit and grand).
    pub schneider: bool,
    /// Schwarz reached or announced (suit and grand).
    pub schwarz: bool,
    /// The ISkO list score of the declarer: +value won, −2 × value lost.
    pub list_score: i32,
    /// The declarer's Seeger-Fabian points: value + 50 won, −2 × value − 50 lost.
    pub declarer_tp: i32,
    /// Each defender's Seeger-Fabian points: 0 won, 40 lost.
    pub defender_tp: i32,
}

/// Scores `contract` played at `bid` by a declarer with `matadors` (the count, as
/// [`matadors`]; ignored in null), `points` card points (the skat included) and `tricks` tricks
/// of ten (spec §7.5).
pub fn score(contract: Contract, bid: u32, matadors: u32, points: u32, tricks: u32) -> Score {
    let (mut won, mut value, schneider, schwarz) = match contract.null_value() {
        Some(v) => (tricks == 0, v, false, false),
        None => {
            let s = points >= 90 || points <= 30 || contract.schneider;
            let z = tricks == 10 || tricks == 0 || contract.schwarz;
            let value = contract.game.base() * (matadors + contract.announced_levels() + s as u32 + z as u32);
            let won = points >= 61 && (!contract.schneider || points >= 90) && (!contract.schwarz || tricks == 10);
            (won, value, s, z)
        }
    };
    let overbid = value < bid;
    if overbid {
        let base = contract.game.base();
        won = false;
        value = value.max(bid.div_ceil(base) * base);
    }
    let v = value as i32;
    let (list_score, declarer_tp, defender_tp) =
        if won { (v, v + WIN_BONUS, 0) } else { (-2 * v, -2 * v - WIN_BONUS, DEFENDER_BONUS) };
    Score { won, value, overbid, schneider, schwarz, list_score, declarer_tp, defender_tp }
}

/// Everything about a finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The declarer (None when thrown in).
    pub declarer: Option<u8>,
    /// The contract (None when thrown in).
    pub contract: Option<Contract>,
    /// The bid (0 when thrown in).
    pub bid: u16,
    /// The declarer's card points, the skat (or the discard) included.
    pub declarer_points: u32,
    /// Tricks the declarer took.
    pub declarer_tricks: u32,
    /// The matadors over the declarer's dealt cards and the original skat, and whether "with"
    /// (None in null and when thrown in).
    pub matadors: Option<(u32, bool)>,
    /// The score (None when thrown in).
    pub score: Option<Score>,
    /// Seeger-Fabian points by seat.
    pub tp: [i32; 3],
}

impl GameResult {
    /// The result of a thrown-in deal: nothing played, 0 for everyone.
    pub const THROWN_IN: GameResult = GameResult {
        declarer: None,
        contract: None,
        bid: 0,
        declarer_points: 0,
        declarer_tricks: 0,
        matadors: None,
        score: None,
        tp: [0; 3],
    };

    /// The result of `declarer`'s `contract` at `bid`, holding `cards` (dealt cards and original
    /// skat, for the matadors), with `points` card points and `tricks` tricks.
    pub fn played(declarer: u8, contract: Contract, bid: u16, cards: CardSet, points: u32, tricks: u32) -> GameResult {
        let m = matadors(contract.game, cards);
        let s = score(contract, bid as u32, m.map_or(0, |x| x.0), points, tricks);
        let mut tp = [s.defender_tp; 3];
        tp[declarer as usize % 3] = s.declarer_tp;
        GameResult {
            declarer: Some(declarer),
            contract: Some(contract),
            bid,
            declarer_points: points,
            declarer_tricks: tricks,
            matadors: m,
            score: Some(s),
            tp,
        }
    }

    /// Whether the declarer won (false when thrown in).
    pub fn won(&self) -> bool {
        self.score.is_some_and(|s| s.won)
    }

    /// The game value (0 when thrown in).
    pub fn value(&self) -> u32 {
        self.score.map_or(0, |s| s.value)
    }

    /// The declarer's list score (0 when thrown in).
    pub fn list_score(&self) -> i32 {
        self.score.map_or(0, |s| s.list_score)
    }

    /// Whether the deal was thrown in.
    pub fn thrown_in(&self) -> bool {
        self.declarer.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{CLUBS, HEARTS, NOTATION};
    use super::*;

    fn m(game: GameType, cards: &str) -> (u32, bool) {
        matadors(game, NOTATION.parse_set(cards).unwrap()).unwrap()
    }

    /// Spec §12, matadors.
    #[test]
    fn matador_examples() {
        assert_eq!(m(GameType::Suit(HEARTS), "CJ SJ HJ HA HT"), (3, true));
        assert_eq!(m(GameType::Suit(HEARTS), "CJ SJ HJ DJ HA HT"), (6, true));
        assert_eq!(m(GameType::Grand, "HJ D7"), (2, false));
        assert_eq!(m(GameType::Suit(HEARTS), "HT S7"), (5, false));
        assert_eq!(m(GameType::Suit(CLUBS), "SA D7 HK"), (11, false));
        assert_eq!(m(GameType::Suit(CLUBS), "CJ SJ"), (2, true));
        assert_eq!(matadors(GameType::Null, 0), None);
    }
}

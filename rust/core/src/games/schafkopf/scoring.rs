//! The result of a played game and its payment vector (spec §7).
//!
//! The player team (the declarer, in a Sauspiel with the holder of the called Ace) wins with 61
//! card points or more. The tariff is the base (Sauspiel 20, Solo and Wenz 50 cents), +10 for
//! Schneider (91+ or 30−), +20 for Schwarz (instead; 120 or 0 points, or under the standard
//! rules one party took no trick), +10 for each Laufender from 3 (Wenz from 2), doubled for a
//! contra and again for a retour. A Sauspiel pays ±v to each of the four, a Solo or Wenz 3v
//! between the declarer and the others.

use super::cards::bit;
use super::contract::{Contract, Kind};
use super::rules::Rules;
use crate::cards::CardSet;

/// Base tariff of a Sauspiel, in cents.
pub const SAUSPIEL_BASE: i32 = 20;
/// Base tariff of a Solo or Wenz, in cents.
pub const SOLO_BASE: i32 = 50;
/// Schneider bonus.
pub const SCHNEIDER: i32 = 10;
/// Schwarz bonus (instead of Schneider's).
pub const SCHWARZ: i32 = 20;
/// Bonus per Laufender.
pub const PER_LAUFENDER: i32 = 10;

/// Everything a finished game's payment is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The contract played; None when nothing was played for money (all passed).
    pub contract: Option<Contract>,
    /// Seats of the player team, as a mask (bit `p` for seat `p`).
    pub team: u8,
    /// Card points of the player team (the others have 120 minus these).
    pub team_points: u32,
    /// Whether the player team won (61 points or more).
    pub won: bool,
    /// Schneider (and not Schwarz).
    pub schneider: bool,
    /// Schwarz.
    pub schwarz: bool,
    /// Laufende counted ("with" or "without"), whether or not they reach the minimum.
    pub laufende: u32,
    /// Whether the Laufende are paid (3 or more, in a Wenz 2 or more).
    pub laufende_paid: bool,
    /// Doublings: 0, 1 (contra) or 2 (contra and retour).
    pub doublings: u32,
    /// The tariff v, negative when the player team lost.
    pub value: i32,
    /// Cents won by each seat; they sum to 0.
    pub payments: [i32; 4],
}

impl Settlement {
    /// The settlement of a game without money (all passed).
    pub const NOTHING: Settlement = Settlement {
        contract: None,
        team: 0,
        team_points: 0,
        won: false,
        schneider: false,
        schwarz: false,
        laufende: 0,
        laufende_paid: false,
        doublings: 0,
        value: 0,
        payments: [0; 4],
    };
}

/// The number of Laufende of a team that held `cards` in a game whose trumps are `trumps`
/// (high to low): the leading trumps it held, else the leading trumps it did not hold.
pub fn laufende(trumps: &[u8], cards: CardSet) -> u32 {
    let with = trumps.iter().take_while(|&&t| cards & bit(t) != 0).count();
    if with > 0 {
        return with as u32;
    }
    trumps.iter().take_while(|&&t| cards & bit(t) == 0).count() as u32
}

/// The seats of the player team: the declarer, and in a Sauspiel the seat dealt the called Ace.
pub fn player_team(contract: Contract, declarer: u8, dealt: &[CardSet; 4]) -> u8 {
    let mut team = 1u8 << declarer;
    if let Some(a) = contract.called_ace() {
        for (p, &h) in dealt.iter().enumerate() {
            if h & bit(a) != 0 {
                team |= 1 << p;
            }
        }
    }
    team
}

/// Settles a finished game: `contract` played by `declarer` from the hands `dealt`, with the
/// card points `scores` and tricks `tricks_won` each seat took, doubled `doublings` times (1 for
/// a contra, 2 for a contra and a retour).
pub fn settle(
    rules: &Rules,
    contract: Contract,
    declarer: u8,
    dealt: &[CardSet; 4],
    scores: &[u32; 4],
    tricks_won: &[u32; 4],
    doublings: u32,
) -> Settlement {
    let Some(kind) = contract.kind() else { return Settlement::NOTHING };
    let team = player_team(contract, declarer, dealt);
    let members = (0..4).filter(|p| team & (1 << p) != 0);
    let team_points: u32 = members.clone().map(|p| scores[p]).sum();
    let team_tricks: u32 = members.clone().map(|p| tricks_won[p]).sum();
    let cards: CardSet = members.map(|p| dealt[p]).fold(0, |a, h| a | h);
    let won = team_points >= 61;
    let schwarz = if rules.schwarz_by_tricks {
        team_tricks == 8 || team_tricks == 0
    } else {
        team_points == 120 || team_points == 0
    };
    let schneider = !schwarz && (team_points >= 91 || team_points <= 30);
    let l = laufende(contract.trumps_high_to_low(), cards);
    let laufende_paid = l >= if kind == Kind::Wenz { 2 } else { 3 };
    let mut v = if kind == Kind::Sauspiel { SAUSPIEL_BASE } else { SOLO_BASE };
    v += if schwarz {
        SCHWARZ
    } else if schneider {
        SCHNEIDER
    } else {
        0
    };
    if laufende_paid {
        v += PER_LAUFENDER * l as i32;
    }
    let doublings = doublings.min(2);
    v <<= doublings;
    if !won {
        v = -v;
    }
    let mut payments = [0; 4];
    for (p, pay) in payments.iter_mut().enumerate() {
        let member = team & (1 << p) != 0;
        *pay = match (contract.alone(), member) {
            (true, true) => 3 * v,
            (_, true) => v,
            (_, false) => -v,
        };
    }
    Settlement {
        contract: Some(contract),
        team,
        team_points,
        won,
        schneider,
        schwarz,
        laufende: l,
        laufende_paid,
        doublings,
        value: v,
        payments,
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{parse_hands, GRAS};
    use super::super::contract::WENZ_TRUMPS;
    use super::*;

    use super::super::deal::tests::DEAL_A;

    #[test]
    fn deal_a_settles_as_the_spec_says() {
        let dealt = parse_hands(&DEAL_A).unwrap();
        let c = Contract::Sauspiel(GRAS);
        let r = Rules::SCHAFKOPFRL;
        let s = settle(&r, c, 0, &dealt, &[77, 15, 28, 0], &[4, 1, 2, 1], 0);
        assert_eq!((s.team, s.team_points, s.won, s.schneider, s.laufende), (0b0011, 92, true, true, 3));
        assert_eq!(s.payments, [60, 60, -60, -60]);
        let s = settle(&r, c, 0, &dealt, &[77, 15, 28, 0], &[4, 1, 2, 1], 1);
        assert_eq!(s.payments, [120, 120, -120, -120]);
        let s = settle(&r, c, 0, &dealt, &[77, 15, 28, 0], &[4, 1, 2, 1], 2);
        assert_eq!(s.payments, [240, 240, -240, -240]);
        assert_eq!(settle(&r, Contract::Passed, 3, &dealt, &[59, 31, 30, 0], &[3, 2, 2, 1], 2).payments, [0; 4]);
    }

    #[test]
    fn schwarz_by_points_or_by_tricks() {
        let dealt = parse_hands(&DEAL_A).unwrap();
        let c = Contract::Solo(GRAS);
        // The soloist took every point but the opponents took a trick of no points.
        let (scores, tricks) = ([120, 0, 0, 0], [7, 1, 0, 0]);
        let s = settle(&Rules::SCHAFKOPFRL, c, 0, &dealt, &scores, &tricks, 0);
        assert!(s.schwarz && s.won);
        let t = settle(&Rules::STANDARD, c, 0, &dealt, &scores, &tricks, 0);
        assert!(!t.schwarz && t.schneider && t.won);
        assert_eq!(s.value - t.value, SCHWARZ - SCHNEIDER);
        // 60:60 is a defenders' win, Schneider-free.
        let s = settle(&Rules::SCHAFKOPFRL, c, 0, &dealt, &[60, 60, 0, 0], &[4, 4, 0, 0], 0);
        assert!(!s.won && !s.schneider);
        assert_eq!(s.payments.iter().sum::<i32>(), 0);
        assert_eq!(s.payments[0], -3 * s.payments[1]);
    }

    #[test]
    fn laufende_with_and_without() {
        assert_eq!(laufende(&WENZ_TRUMPS, 0), 4);
        assert_eq!(laufende(&WENZ_TRUMPS, bit(WENZ_TRUMPS[0]) | bit(WENZ_TRUMPS[1])), 2);
        assert_eq!(laufende(&WENZ_TRUMPS, bit(WENZ_TRUMPS[2])), 2);
        assert_eq!(laufende(&WENZ_TRUMPS, bit(WENZ_TRUMPS[0]) | bit(WENZ_TRUMPS[2])), 1);
    }
}

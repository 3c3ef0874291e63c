//! A record's moves replayed through the Skat engine under the ISS rules ([`Rules::Iss`]), the
//! server's result computed from the play, and the two compared (docs/iss.md).
//!
//! **How a game ends** besides its last trick or the early end of [`Rules::Iss`]: the
//! declarer resigns (lost); both defenders resign; a seat times out or leaves. When a defender
//! times out or leaves, or the defenders resign, the declarer gets every card point and trick
//! not yet taken (`p = 120 − the defenders' points`, `t = 10 − their tricks`; in null he has
//! won with what he has); when the
//! declarer does, the game is scored with what he has (a suit or grand game won only with 61
//! points or more). Before a contract was announced, a time-out or a leave ends the deal as a
//! `penalty` of the seat (after the auction: of the declarer, or of both defenders).
//!
//! **The result** (`R`): matadors over the declarer's ten dealt cards and the skat, or, when
//! card play was never reached, over the skat alone; card points with the skat or discard; the
//! game value counting Schneider and Schwarz when announced or reached — reached by the
//! declarer in a won game, against him in a lost one where not announced and at least one trick
//! was completed; overbid as the International Skat Order has it.
//!
//! **Server variants.** `ISS2` (2016–17) ended a game when one defender resigned.

use super::super::actions::{Action, Phase};
use super::super::cards::{bit, set_points};
use super::super::contract::{Contract, GameType};
use super::super::deal::Deal;
use super::super::game::{Game, Rules};
use super::super::scoring::matadors;
use super::record::{contract_of_word, IssResult, Move, Outcome, OutcomeKind, Record};
use crate::cards::CardSet;

/// How a replayed game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// All three passed.
    Passed,
    /// Played to the last trick, or to the early end of the ISS rules.
    Played,
    /// The declarer resigned.
    DeclarerResigned,
    /// The defenders resigned.
    DefendersResigned,
    /// A seat timed out.
    TimedOut(u8),
    /// A seat left the table.
    Left(u8),
}

impl End {
    /// `passed`, `played`, `declarer_resigned`, `defenders_resigned`, `timeout`, `left`.
    pub fn name(self) -> &'static str {
        match self {
            End::Passed => "passed",
            End::Played => "played",
            End::DeclarerResigned => "declarer_resigned",
            End::DefendersResigned => "defenders_resigned",
            End::TimedOut(_) => "timeout",
            End::Left(_) => "left",
        }
    }
}

/// A record replayed.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The record's line in its file (from 1; 0 when read alone).
    pub record_line: u64,
    /// The record as read.
    pub record: Record,
    /// The game as far as it was played (under [`Rules::Iss`]).
    pub game: Game,
    /// The contract, once the declarer named it (in the split form, possibly before the
    /// discard the game has not seen yet).
    pub contract: Option<Contract>,
    /// How the game ended.
    pub end: End,
    /// The result the replay gives (equal to the record's).
    pub result: IssResult,
    /// What the replay noticed but could replay around (an unknown card before the end).
    pub notes: Vec<String>,
}

/// A record's moves played through the engine: the game, the contract named, how it ended,
/// and what was replayed around.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game as far as it was played.
    pub game: Game,
    /// The contract once named.
    pub contract: Option<Contract>,
    /// How the game ended.
    pub end: End,
    /// What the replay noticed but could replay around.
    pub notes: Vec<String>,
}

/// Plays the moves of `record` through the engine under [`Rules::Iss`] (its result not
/// looked at); the error says why they do not replay.
pub fn play(record: &Record) -> Result<Played, String> {
    let mut moves = record.moves.iter().enumerate();
    let Some((_, Move::Deal { hands, skat })) = moves.next() else {
        return Err("the moves do not start with the deal".into());
    };
    let deal = Deal::new(*hands, *skat).map_err(|e| format!("the deal: {e}"))?;
    let mut game = Game::with_rules(&deal, Rules::Iss);
    let mut contract: Option<Contract> = None;
    let mut resigned = [false; 3];
    let mut notes = Vec::new();
    let mut unknown_card = false;
    let mut end: Option<End> = None;
    let one_defender_ends = record.place == "ISS2";
    for (i, m) in moves {
        let at = |why: String| format!("move {} ({}): {why}", i + 1, super::record::move_text(m));
        if let Some(e) = end {
            return Err(at(format!("a move after the game ended ({})", e.name())));
        }
        if game.finished() && !matches!(m, Move::ShowCards { .. } | Move::Resign { .. }) {
            return Err(at("a move after the game ended".into()));
        }
        let apply = |game: &mut Game, seat: u8, action: Action| -> Result<(), String> {
            if game.player() != Some(seat) {
                return Err(at(format!("seat {seat} moves out of turn ({:?} is to move)", game.player())));
            }
            game.apply(action).map_err(|e| at(e.to_string()))
        };
        if unknown_card && !matches!(m, Move::TimeOut { .. } | Move::Leave { .. } | Move::Resign { .. }) {
            return Err(at("a move after an unknown card cannot be replayed".into()));
        }
        match m {
            Move::Deal { .. } => return Err(at("a second deal".into())),
            Move::Call { seat, call } => apply(&mut game, *seat, Action::Call(*call))?,
            Move::Pickup { seat } => apply(&mut game, *seat, Action::Hand(false))?,
            Move::SkatShown { cards } => {
                if game.phase() != Phase::Discard || *cards != game.skat() {
                    return Err(at("the skat shown is not the skat dealt, or not after a pickup".into()));
                }
            }
            Move::Declare { seat, word, cards } => {
                let hand = game.phase() == Phase::Skat;
                let c = contract_of_word(word, hand).map_err(at)?;
                if contract.is_some() || !matches!(game.phase(), Phase::Skat | Phase::Discard) {
                    return Err(at("a contract outside the declaration".into()));
                }
                if hand {
                    apply(&mut game, *seat, Action::Hand(true))?;
                }
                let rest = if hand || cards.is_empty() {
                    &cards[..]
                } else if cards.len() >= 2 {
                    apply(&mut game, *seat, Action::Discard(bit(cards[0]) | bit(cards[1])))?;
                    &cards[2..]
                } else {
                    return Err(at("one discard joined to the contract".into()));
                };
                contract = Some(c);
                if game.phase() == Phase::Declare {
                    apply(&mut game, *seat, Action::Declare(c))?;
                }
                if !rest.is_empty() {
                    let shown = rest.iter().fold(0u64, |s, &c| s | bit(c));
                    if !c.ouvert || rest.len() != 10 || shown != game.hand(*seat) {
                        return Err(at("cards joined to the contract that are not the ouvert hand".into()));
                    }
                }
            }
            Move::Discard { seat, cards } => {
                let Some(c) = contract.filter(|_| game.phase() == Phase::Discard) else {
                    return Err(at("a discard without a contract named before it".into()));
                };
                apply(&mut game, *seat, Action::Discard(*cards))?;
                apply(&mut game, *seat, Action::Declare(c))?;
            }
            Move::Card { seat, card } => apply(&mut game, *seat, Action::Card(*card))?,
            Move::UnknownCard { seat } => {
                if game.phase() != Phase::Tricks || game.player() != Some(*seat) {
                    return Err(at("an unknown card outside the seat's turn".into()));
                }
                notes.push(at("an unknown card (??): the replay stops there".into()));
                unknown_card = true;
            }
            Move::ShowCards { seat } => {
                if game.declarer() != Some(*seat) || contract.is_none() {
                    return Err(at("show cards by a seat that is not the declarer".into()));
                }
            }
            // A resignation after the last trick changes nothing.
            Move::Resign { .. } if game.finished() => {}
            Move::Resign { seat } => {
                if contract.is_none() {
                    return Err(at("a resignation before the contract".into()));
                }
                if game.declarer() == Some(*seat) {
                    end = Some(End::DeclarerResigned);
                } else {
                    resigned[*seat as usize] = true;
                    let defenders = (0..3u8).filter(|&s| Some(s) != game.declarer());
                    if one_defender_ends || defenders.clone().all(|s| resigned[s as usize]) {
                        end = Some(End::DefendersResigned);
                    }
                }
            }
            Move::TimeOut { seat } => end = Some(End::TimedOut(*seat)),
            Move::Leave { seat } => end = Some(End::Left(*seat)),
        }
        if end.is_none() && game.thrown_in() {
            end = Some(End::Passed);
        }
    }
    let end = match end {
        Some(e) => e,
        None if game.finished() => End::Played,
        None => return Err("the record ends before the game does".into()),
    };
    Ok(Played { game, contract, end, notes })
}

/// Replays `record` and checks its result; the error says why it does not replay.
pub fn replay(record: Record) -> Result<Replayed, String> {
    let Played { game, contract, end, notes } = play(&record)?;
    let result = result_of(&game, contract, end);
    let written = record.result.ok_or("no result")?;
    if !same_result(&written, &result) {
        return Err(format!(
            "the result differs: the record says [{}], the replay gives [{}]",
            super::record::result_text(&written),
            super::record::result_text(&result)
        ));
    }
    Ok(Replayed { record_line: 0, record, game, contract, end, result, notes })
}

/// Whether the record's result is the replay's (`r:` compared where the record has it).
fn same_result(written: &IssResult, replayed: &IssResult) -> bool {
    match (written, replayed) {
        (IssResult::Game(w), IssResult::Game(r)) if w.resigned.is_none() => *w == Outcome { resigned: None, ..*r },
        _ => written == replayed,
    }
}

/// The game value of `contract` with `m` matadors, Schneider and Schwarz counted when reached
/// (`schneider`, `schwarz`) or announced.
fn game_value(contract: Contract, m: u32, schneider: bool, schwarz: bool) -> u32 {
    match contract.null_value() {
        Some(v) => v,
        None => {
            let s = (schneider || contract.schneider) as u32;
            let z = (schwarz || contract.schwarz) as u32;
            contract.game.base() * (m + contract.announced_levels() + s + z)
        }
    }
}

/// The server's result of the replayed `game`, which ended by `end`, with `contract` named.
pub fn result_of(game: &Game, contract: Option<Contract>, end: End) -> IssResult {
    let (left, timed_out) = match end {
        End::Left(s) => (s as i8, -1),
        End::TimedOut(s) => (-1, s as i8),
        _ => (-1, -1),
    };
    let (Some(d), Some(c)) = (game.declarer(), contract) else {
        if end == End::Passed {
            return IssResult::Passed;
        }
        let mut penalty = [false; 3];
        let culprit = left.max(timed_out).max(0) as u8;
        match game.declarer() {
            Some(d) if d != culprit => (0..3).filter(|&s| s != d as usize).for_each(|s| penalty[s] = true),
            _ => penalty[culprit as usize] = true,
        }
        return IssResult::Game(Outcome {
            declarer: -1,
            kind: OutcomeKind::Penalty,
            value: 0,
            matadors: 0,
            overbid: false,
            points: 0,
            tricks: 0,
            schneider: false,
            schwarz: false,
            penalty,
            left,
            timed_out,
            resigned: Some(false),
        });
    };
    let in_play = game.phase() == Phase::Tricks || game.finished();
    let completed = game.tricks_done() > 0;
    // Matadors over the dealt cards and the skat; over the skat alone when card play was never
    // reached (the server has not seen the declarer's hand in play).
    let counted: CardSet = if in_play { game.dealt(d) | game.skat() } else { game.skat() };
    let m = matadors(c.game, counted);
    let (mut points, mut tricks) = if in_play {
        (game.trick_points()[d as usize] + set_points(game.put_away()), game.tricks_won()[d as usize])
    } else {
        (set_points(game.skat()), 0)
    };
    let defenders_gave_up = match end {
        End::DefendersResigned => true,
        End::TimedOut(s) | End::Left(s) => s != d,
        _ => false,
    };
    // Suit and grand: the declarer gets what the defenders have not taken. Null: the
    // declarer has won with what he has (no trick).
    if defenders_gave_up && in_play && c.game != GameType::Null {
        let all_points: u32 = game.trick_points().iter().sum();
        let all_tricks: u32 = game.tricks_won().iter().sum();
        points = 120 - (all_points - game.trick_points()[d as usize]);
        tricks = 10 - (all_tricks - game.tricks_won()[d as usize]);
    }
    let criteria = match c.game {
        GameType::Null => tricks == 0,
        _ => points >= 61 && (!c.schneider || points >= 90) && (!c.schwarz || tricks == 10),
    };
    let won = match end {
        End::DeclarerResigned => false,
        End::TimedOut(s) | End::Left(s) if s == d => c.game != GameType::Null && points >= 61,
        _ => criteria,
    } && in_play;
    let (schneider, schwarz) = match c.game {
        GameType::Null => (false, false),
        _ if won => (points >= 90, tricks == 10),
        _ => (!c.schneider && completed && points <= 30, !c.schwarz && completed && tricks == 0),
    };
    let m_count = m.map_or(0, |x| x.0);
    let mut value = game_value(c, m_count, schneider, schwarz);
    let bid = game.bid() as u32;
    let overbid = value < bid;
    if overbid {
        let base = c.game.base();
        value = value.max(bid.div_ceil(base) * base);
    }
    let won = won && !overbid;
    IssResult::Game(Outcome {
        declarer: d as i8,
        kind: if won { OutcomeKind::Win } else { OutcomeKind::Loss },
        value: if won { value as i32 } else { -2 * value as i32 },
        matadors: m.map_or(0, |(n, with)| if with { n as i32 } else { -(n as i32) }),
        overbid,
        points,
        tricks,
        schneider,
        schwarz,
        penalty: [false; 3],
        left,
        timed_out,
        resigned: Some(matches!(end, End::DeclarerResigned | End::DefendersResigned)),
    })
}

/// The moves of `game` (finished or not) as a record writes them, up to where the ISS rules
/// end it: the deal, the calls, the pickup and the skat shown, the contract with its discard
/// joined, the cards. Returns the moves and the game as replayed under [`Rules::Iss`].
pub fn moves_of(game: &Game) -> (Vec<Move>, Game) {
    let deal = game.deal();
    let mut iss = Game::with_rules(&deal, Rules::Iss);
    let mut moves = vec![Move::Deal { hands: deal.hands, skat: deal.skat }];
    let mut discard: Option<CardSet> = None;
    for (seat, action) in game.history() {
        if iss.finished() || !iss.is_legal(action) {
            break;
        }
        match action {
            Action::Call(call) => moves.push(Move::Call { seat, call }),
            Action::Hand(true) => {}
            Action::Hand(false) => {
                moves.push(Move::Pickup { seat });
                moves.push(Move::SkatShown { cards: deal.skat });
            }
            Action::Discard(set) => discard = Some(set),
            Action::Declare(c) => {
                let cards = discard.map_or_else(Vec::new, |s| crate::cards::iter(s).collect());
                moves.push(Move::Declare { seat, word: super::record::word_of_contract(c), cards });
            }
            Action::Card(card) => moves.push(Move::Card { seat, card }),
        }
        iss.apply_legal(action);
    }
    (moves, iss)
}

//! The syntax of one ISS record: a line `(;GM[Skat]PC[..]SE[..]ID[..]DT[..]P0[..]..MV[..]R[..] ;)`
//! read into its properties, its moves and its result, and written back (docs/iss.md).
//!
//! Moves are pairs `<actor> <action>`, the actor `w` (the server) or a seat `0 1 2` (Vorhand,
//! Mittelhand, Hinterhand): the deal (`w` and 32 cards joined by `.`), bids, `y` (hold), `p`
//! (pass), `s` (pickup), the skat shown (`w` and two cards), a contract word with its discard
//! joined (`D.ST.H8`) or split (`D` then `ST.H8`), card plays, `SC` (show cards), `RE` (resign),
//! `w TI.n` (seat n timed out), `w LE.n` (seat n left), `??` (a card the record does not know).
//! The result is `passed` or `d:<declarer> <win|loss|penalty> v:<value> m:<matadors>
//! <bidok|overbid> p:<points> t:<tricks> s:<0|1> z:<0|1> p0:<0|1> p1:<0|1> p2:<0|1> l:<seat|-1>
//! to:<seat|-1> [r:<0|1>]`.

use super::super::bidding::Call;
use super::super::cards::{name as card_name, parse_card};
use super::super::contract::{Contract, GameType};
use crate::cards::{iter, Card, CardSet};

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// The deal: the three hands (Vorhand first) and the skat.
    Deal { hands: [CardSet; 3], skat: CardSet },
    /// A bid, a hold (`y`) or a pass (`p`).
    Call { seat: u8, call: Call },
    /// The declarer takes up the skat (`s`).
    Pickup { seat: u8 },
    /// The server shows the skat to the declarer after a pickup.
    SkatShown { cards: CardSet },
    /// A contract word (`G`, `CHS`, `NO`, …) with the cards joined to it: the two discards
    /// after a pickup (none in the split form), then the ten ouvert cards where written.
    Declare { seat: u8, word: String, cards: Vec<Card> },
    /// The two discards of the split form, after the contract word.
    Discard { seat: u8, cards: CardSet },
    /// A card played.
    Card { seat: u8, card: Card },
    /// A card the record does not know (`??`).
    UnknownCard { seat: u8 },
    /// The declarer shows his cards (`SC`); it does not end the game.
    ShowCards { seat: u8 },
    /// A seat resigns (`RE`).
    Resign { seat: u8 },
    /// The server: a seat ran out of time (`TI.n`).
    TimeOut { seat: u8 },
    /// The server: a seat left the table (`LE.n`).
    Leave { seat: u8 },
}

/// The result field of a game that was not passed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The declarer; -1 when the game ended before a contract was announced.
    pub declarer: i8,
    /// `win`, `loss` or `penalty`.
    pub kind: OutcomeKind,
    /// The signed game value: +value won, −2 × value lost, 0 for a penalty.
    pub value: i32,
    /// Matadors: + with, − without, 0 in null.
    pub matadors: i32,
    /// Lost for being overbid.
    pub overbid: bool,
    /// The declarer's card points, the skat included.
    pub points: u32,
    /// The declarer's tricks.
    pub tricks: u32,
    /// Schneider reached (`s:1`).
    pub schneider: bool,
    /// Schwarz reached (`z:1`).
    pub schwarz: bool,
    /// The seats penalised (a game ended before its contract).
    pub penalty: [bool; 3],
    /// The seat that left the table, -1 for none.
    pub left: i8,
    /// The seat that timed out, -1 for none.
    pub timed_out: i8,
    /// Whether the game ended by resignation (`r:`; absent in the oldest records).
    pub resigned: Option<bool>,
}

/// `win`, `loss` or `penalty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeKind {
    /// The declarer won.
    Win,
    /// The declarer lost.
    Loss,
    /// No game: the table ended before a contract (`d:-1`).
    Penalty,
}

/// A record's result: all passed, or a game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssResult {
    /// `passed`: the deal was thrown in.
    Passed,
    /// A game's outcome.
    Game(Outcome),
}

/// One record, read as written (its moves not yet replayed).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// `PC`: the server (`International Skat Server`, `ISS2`, …).
    pub place: String,
    /// `SE`: the series (table session).
    pub series: String,
    /// `ID`: the game's id on its server.
    pub id: String,
    /// `DT`: `YYYY-MM-DD/hh:mm:ss/UTC`.
    pub date: String,
    /// `P0 P1 P2`: the players in seat 0 (Vorhand), 1, 2.
    pub players: [String; 3],
    /// `R0 R1 R2`: their rating fields, as written.
    pub ratings: [String; 3],
    /// `MV`: the moves.
    pub moves: Vec<Move>,
    /// `R`: the result.
    pub result: Option<IssResult>,
}

/// The id of a line that does not parse far enough to read its `ID`: found by a plain search.
pub fn id_of_line(line: &str) -> String {
    line.find("ID[")
        .and_then(|i| line[i + 3..].split(']').next().filter(|s| s.len() <= 32).map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// Parses one record line.
pub fn parse(line: &str) -> Result<Record, String> {
    let line = line.trim();
    let body = line.strip_prefix("(;").ok_or("not an ISS record: it does not start with (;")?;
    let body = body.strip_suffix(";)").ok_or("a truncated record: it does not end with ;)")?;
    let mut r = Record::default();
    let (mut game, mut moves, mut result) = (None, None, None);
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let open = rest.find('[').ok_or_else(|| format!("a property without a value near {:?}", clip(rest)))?;
        let name = &rest[..open];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("a bad property name {:?}", clip(name)));
        }
        let close = rest[open..].find(']').ok_or_else(|| format!("property {name} has no closing ]"))? + open;
        let value = &rest[open + 1..close];
        match name {
            "GM" => game = Some(value),
            "PC" => r.place = value.into(),
            "SE" => r.series = value.into(),
            "ID" => r.id = value.into(),
            "DT" => r.date = value.into(),
            "P0" | "P1" | "P2" => r.players[seat_index(name)] = value.into(),
            "R0" | "R1" | "R2" => r.ratings[seat_index(name)] = value.into(),
            "MV" => moves = Some(value),
            "R" => result = Some(value),
            _ => {} // CO (comment), OW (owner view) and any later property: not needed to replay.
        }
        rest = rest[close + 1..].trim_start();
    }
    if game != Some("Skat") {
        return Err(format!("GM is {:?}, not Skat", game.unwrap_or("missing")));
    }
    if r.id.is_empty() {
        return Err("no ID".into());
    }
    r.moves = parse_moves(moves.ok_or("no MV (moves)")?)?;
    r.result = Some(parse_result(result.ok_or("no R (result)")?)?);
    Ok(r)
}

fn seat_index(prop: &str) -> usize {
    (prop.as_bytes()[1] - b'0') as usize
}

/// At most 40 characters of `s`, for messages.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parses `n` cards joined by `.`.
fn cards_joined(text: &str, n: usize) -> Result<Vec<Card>, String> {
    let cards: Vec<Card> = text
        .split('.')
        .map(|c| if c == "??" { Err("an unknown card ??".into()) } else { card(c) })
        .collect::<Result<_, String>>()?;
    if cards.len() != n {
        return Err(format!("{text:?} holds {} cards, not {n}", cards.len()));
    }
    Ok(cards)
}

fn card(text: &str) -> Result<Card, String> {
    // Card names are exactly two characters, upper case, in records.
    if text.len() != 2 || text.bytes().any(|b| b.is_ascii_lowercase()) {
        return Err(format!("a corrupt card {:?}", clip(text)));
    }
    parse_card(text).map_err(|_| format!("a corrupt card {:?}", clip(text)))
}

fn set_of(cards: &[Card]) -> Result<CardSet, String> {
    let set = cards.iter().fold(0u64, |s, &c| s | (1u64 << c));
    if set.count_ones() as usize != cards.len() {
        return Err("a card named twice".into());
    }
    Ok(set)
}

/// Whether `word` is a contract word: a game letter, then modifiers `O H S Z`.
fn is_contract_word(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some('D' | 'H' | 'S' | 'C' | 'G' | 'N')) && chars.all(|c| matches!(c, 'O' | 'H' | 'S' | 'Z'))
}

fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if !tokens.len().is_multiple_of(2) {
        return Err(format!("the moves end with a lone {:?}", clip(tokens[tokens.len() - 1])));
    }
    let mut moves = Vec::with_capacity(tokens.len() / 2);
    for (i, pair) in tokens.chunks(2).enumerate() {
        let (actor, action) = (pair[0], pair[1]);
        let at = |why: String| format!("move {} ({actor} {}): {why}", i + 1, clip(action));
        let m = match actor {
            "w" => world_move(action, i == 0).map_err(at)?,
            "0" | "1" | "2" => seat_move(actor.as_bytes()[0] - b'0', action).map_err(at)?,
            _ => return Err(format!("move {}: an unknown actor {:?} (w, 0, 1 or 2)", i + 1, clip(actor))),
        };
        moves.push(m);
    }
    Ok(moves)
}

fn world_move(action: &str, first: bool) -> Result<Move, String> {
    if let Some(n) = action.strip_prefix("TI.").or_else(|| action.strip_prefix("LE.")) {
        let seat = match n {
            "0" | "1" | "2" => n.as_bytes()[0] - b'0',
            _ => return Err(format!("seat {n:?} is not 0, 1 or 2")),
        };
        return Ok(if action.starts_with("TI") { Move::TimeOut { seat } } else { Move::Leave { seat } });
    }
    if first {
        if action.contains('|') || action.contains("??") {
            return Err("a player's view of the deal (hidden cards): only whole records replay".into());
        }
        let cards = cards_joined(action, 32)?;
        let mut hands = [0; 3];
        for (p, h) in hands.iter_mut().enumerate() {
            *h = set_of(&cards[10 * p..10 * p + 10])?;
        }
        return Ok(Move::Deal { hands, skat: set_of(&cards[30..])? });
    }
    Ok(Move::SkatShown { cards: set_of(&cards_joined(action, 2)?)? })
}

fn seat_move(seat: u8, action: &str) -> Result<Move, String> {
    Ok(match action {
        "y" => Move::Call { seat, call: Call::Hold },
        "p" => Move::Call { seat, call: Call::Pass },
        "s" => Move::Pickup { seat },
        "SC" => Move::ShowCards { seat },
        "RE" => Move::Resign { seat },
        "??" => Move::UnknownCard { seat },
        _ if action.starts_with("SC.") => Move::ShowCards { seat },
        _ if action.bytes().all(|b| b.is_ascii_digit()) => {
            Move::Call { seat, call: Call::Bid(action.parse().map_err(|_| format!("a bid {action} out of range"))?) }
        }
        _ if action.len() == 2 && !is_contract_word(action) => Move::Card { seat, card: card(action)? },
        _ => {
            let (word, cards) = action.split_once('.').unwrap_or((action, ""));
            if is_contract_word(word) {
                let cards = if cards.is_empty() { Vec::new() } else { cards_joined(cards, cards.split('.').count())? };
                set_of(&cards)?;
                Move::Declare { seat, word: word.into(), cards }
            } else if word.len() == 2 && cards.len() == 2 {
                Move::Discard { seat, cards: set_of(&cards_joined(action, 2)?)? }
            } else {
                return Err("neither a bid, a card, a contract nor a known move".into());
            }
        }
    })
}

/// The contract a word names, in a Hand game (`hand`) or after a pickup.
pub fn contract_of_word(word: &str, hand: bool) -> Result<Contract, String> {
    let bad = |why: &str| Err(format!("contract {word:?}: {why}"));
    let game = match word.as_bytes().first() {
        Some(b'D') => GameType::Suit(super::super::cards::DIAMONDS),
        Some(b'H') => GameType::Suit(super::super::cards::HEARTS),
        Some(b'S') => GameType::Suit(super::super::cards::SPADES),
        Some(b'C') => GameType::Suit(super::super::cards::CLUBS),
        Some(b'G') => GameType::Grand,
        Some(b'N') => GameType::Null,
        _ => return bad("no game letter"),
    };
    let has = |c: char| word[1..].contains(c);
    let (ouvert, schwarz) = (has('O'), has('Z'));
    let schneider = has('S') || schwarz;
    if !hand && (has('H') || schneider || (ouvert && game != GameType::Null)) {
        return bad("Hand, Schneider, Schwarz or an ouvert suit or grand game after a pickup");
    }
    let contract = match game {
        GameType::Null if schneider => return bad("Schneider or Schwarz in null"),
        GameType::Null => Contract { game, hand, schneider: false, schwarz: false, ouvert },
        _ if ouvert => Contract { game, hand: true, schneider: true, schwarz: true, ouvert: true },
        _ => Contract { game, hand, schneider, schwarz, ouvert: false },
    };
    Ok(contract)
}

/// The word of a contract: the game letter, then `O` (ouvert), `H` (Hand, not written in an
/// ouvert suit or grand game), `S` (Schneider announced) or `Z` (Schwarz announced).
pub fn word_of_contract(c: Contract) -> String {
    let mut w = String::from(match c.game {
        GameType::Suit(s) => ["D", "H", "S", "C"][s as usize & 3],
        GameType::Grand => "G",
        GameType::Null => "N",
    });
    if c.ouvert {
        w.push('O');
    }
    if c.hand && !(c.ouvert && c.game != GameType::Null) {
        w.push('H');
    }
    if !c.ouvert {
        if c.schwarz {
            w.push('Z');
        } else if c.schneider {
            w.push('S');
        }
    }
    w
}

fn flag(text: Option<&str>, key: &str) -> Result<bool, String> {
    match text {
        Some("0") => Ok(false),
        Some("1") => Ok(true),
        other => Err(format!("result field {key}: {:?} is not 0 or 1", other.unwrap_or("missing"))),
    }
}

/// Parses the result field.
pub fn parse_result(text: &str) -> Result<IssResult, String> {
    let text = text.trim();
    if text == "passed" {
        return Ok(IssResult::Passed);
    }
    let mut fields = std::collections::HashMap::new();
    let mut words = Vec::new();
    for part in text.split_whitespace() {
        match part.split_once(':') {
            Some((k, v)) => {
                fields.insert(k, v);
            }
            None => words.push(part),
        }
    }
    let number = |key: &str| -> Result<i64, String> {
        let v = fields.get(key).ok_or_else(|| format!("result field {key}: missing"))?;
        v.parse().map_err(|_| format!("result field {key}: {v:?} is not a number"))
    };
    let seat = |key: &str| -> Result<i8, String> {
        match number(key)? {
            s @ -1..=2 => Ok(s as i8),
            s => Err(format!("result field {key}: {s} is not a seat")),
        }
    };
    let kind = match (words.contains(&"win"), words.contains(&"loss"), words.contains(&"penalty")) {
        (true, false, false) => OutcomeKind::Win,
        (false, true, false) => OutcomeKind::Loss,
        (false, false, true) => OutcomeKind::Penalty,
        _ => return Err(format!("result {:?}: not one of win, loss and penalty", clip(text))),
    };
    let overbid = match (words.contains(&"bidok"), words.contains(&"overbid")) {
        (true, false) => false,
        (false, true) => true,
        _ => return Err(format!("result {:?}: not one of bidok and overbid", clip(text))),
    };
    let small = |key: &str| -> Result<u32, String> {
        u32::try_from(number(key)?).ok().filter(|&x| x <= 120).ok_or_else(|| format!("result field {key} out of range"))
    };
    Ok(IssResult::Game(Outcome {
        declarer: seat("d")?,
        kind,
        value: i32::try_from(number("v")?).map_err(|_| "result field v out of range")?,
        matadors: i32::try_from(number("m")?).ok().filter(|m| m.abs() <= 11).ok_or("result field m out of range")?,
        overbid,
        points: small("p")?,
        tricks: small("t")?,
        schneider: flag(fields.get("s").copied(), "s")?,
        schwarz: flag(fields.get("z").copied(), "z")?,
        penalty: [
            flag(fields.get("p0").copied(), "p0")?,
            flag(fields.get("p1").copied(), "p1")?,
            flag(fields.get("p2").copied(), "p2")?,
        ],
        left: seat("l")?,
        timed_out: seat("to")?,
        resigned: fields.get("r").map(|&r| flag(Some(r), "r")).transpose()?,
    }))
}

/// The result field's text.
pub fn result_text(r: &IssResult) -> String {
    let IssResult::Game(o) = r else { return "passed".into() };
    let kind = match o.kind {
        OutcomeKind::Win => "win",
        OutcomeKind::Loss => "loss",
        OutcomeKind::Penalty => "penalty",
    };
    let b = |x: bool| x as u8;
    let mut s = format!(
        "d:{} {kind} v:{} m:{} {} p:{} t:{} s:{} z:{} p0:{} p1:{} p2:{} l:{} to:{}",
        o.declarer,
        o.value,
        o.matadors,
        if o.overbid { "overbid" } else { "bidok" },
        o.points,
        o.tricks,
        b(o.schneider),
        b(o.schwarz),
        b(o.penalty[0]),
        b(o.penalty[1]),
        b(o.penalty[2]),
        o.left,
        o.timed_out
    );
    if let Some(r) = o.resigned {
        s.push_str(&format!(" r:{}", b(r)));
    }
    s
}

fn cards_text(set: CardSet) -> String {
    iter(set).map(card_name).collect::<Vec<_>>().join(".")
}

/// The text of one move (its actor and action, as a record writes them).
pub fn move_text(m: &Move) -> String {
    match m {
        Move::Deal { hands, skat } => {
            let all: Vec<String> = hands.iter().chain(std::iter::once(skat)).map(|&s| cards_text(s)).collect();
            format!("w {}", all.join("."))
        }
        Move::Call { seat, call: Call::Hold } => format!("{seat} y"),
        Move::Call { seat, call: Call::Pass } => format!("{seat} p"),
        Move::Call { seat, call: Call::Bid(v) } => format!("{seat} {v}"),
        Move::Pickup { seat } => format!("{seat} s"),
        Move::SkatShown { cards } => format!("w {}", cards_text(*cards)),
        Move::Declare { seat, word, cards } => {
            let mut t = format!("{seat} {word}");
            for &c in cards {
                t.push('.');
                t.push_str(&card_name(c));
            }
            t
        }
        Move::Discard { seat, cards } => format!("{seat} {}", cards_text(*cards)),
        Move::Card { seat, card } => format!("{seat} {}", card_name(*card)),
        Move::UnknownCard { seat } => format!("{seat} ??"),
        Move::ShowCards { seat } => format!("{seat} SC"),
        Move::Resign { seat } => format!("{seat} RE"),
        Move::TimeOut { seat } => format!("w TI.{seat}"),
        Move::Leave { seat } => format!("w LE.{seat}"),
    }
}

/// Whether a property value can be written as it is (no `]`, no line break).
fn clean(value: &str) -> String {
    value.chars().map(|c| if c == ']' || c == '[' || c.is_control() { '_' } else { c }).collect()
}

/// The record's line (no line break), as ISS writes it.
pub fn write(r: &Record) -> String {
    let moves: Vec<String> = r.moves.iter().map(move_text).collect();
    let mut s = format!(
        "(;GM[Skat]PC[{}]CO[]SE[{}]ID[{}]DT[{}]",
        clean(&r.place),
        clean(&r.series),
        clean(&r.id),
        clean(&r.date)
    );
    for (k, p) in r.players.iter().enumerate() {
        s.push_str(&format!("P{k}[{}]", clean(p)));
    }
    for (k, p) in r.ratings.iter().enumerate() {
        s.push_str(&format!("R{k}[{}]", clean(p)));
    }
    s.push_str(&format!("MV[{} ]R[{}] ;)", moves.join(" "), r.result.as_ref().map(result_text).unwrap_or_default()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_words_round_trip() {
        for c in Contract::ALL {
            let w = word_of_contract(c);
            assert_eq!(contract_of_word(&w, c.hand), Ok(c), "{w}");
        }
        assert_eq!(word_of_contract(contract_of_word("CHZ", true).unwrap()), "CHZ");
        assert!(contract_of_word("GH", false).is_err());
        assert!(contract_of_word("NS", true).is_err());
        // Legacy spellings of ouvert games.
        assert_eq!(contract_of_word("GHO", true), contract_of_word("GO", true));
    }

    #[test]
    fn results_round_trip() {
        for t in [
            "passed",
            "d:2 loss v:-96 m:2 bidok p:56 t:5 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0",
            "d:-1 penalty v:0 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:1 l:2 to:-1",
        ] {
            assert_eq!(result_text(&parse_result(t).unwrap()), t);
        }
        assert!(parse_result("d:0 win loss v:1").is_err());
        assert!(parse_result("d:7 win v:1 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1").is_err());
    }
}

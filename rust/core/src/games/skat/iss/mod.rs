//! Game records of the International Skat Server (ISS), the archive the Skat learning papers
//! train on (docs/iss.md): [`record`] reads and writes a record's line, [`replay`] replays it
//! through the engine under the server's rules and checks its result, [`files`] reads whole
//! files (plain or bzip2) on all cores; here, what the rest of cfrkit makes of a replayed
//! record — a line of a cfrkit game log, a record of a cfrkit game, the filters of a learning
//! run, and the statistics of a file.

pub mod files;
pub mod record;
pub mod replay;

pub use files::{read_file, read_line, Counts, LineResult, Rejected};
pub use record::{IssResult, Move, Outcome, OutcomeKind, Record};
pub use replay::{End, Replayed};

use super::agents::Skat;
use super::contract::{Contract, GameType};
use super::features::{action_id, action_of, legal_ids, NUM_ACTIONS};
use super::game::{Game, Rules};
use super::scoring::{DEFENDER_BONUS, WIN_BONUS};
use super::view::View;
use crate::arena::log::{Decision, GameRecord, Header, LogWriter, Reader};
use crate::error::{Error, Result};
use crate::trick::{MatchGame, TrickGame};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The settings of a cfrkit log converted from records: the games were played under the ISS
/// rules, each by the players its result names.
pub const LOG_SETTINGS: &str = "protocol=records,rules=iss";

/// The header of a cfrkit log of converted records (one agent, `iss`: the players are named
/// in each game's result).
pub fn log_header() -> Header {
    Header::new(Skat::NAME, vec!["iss".into()], 0, LOG_SETTINGS.into(), Skat::action_names())
}

/// The Seeger-Fabian points of each seat of an ISS result: the declarer's list value + 50 when
/// won, −2 × value − 50 when lost, each defender then 40; 0 for everyone without a game.
pub fn seeger_fabian(result: &IssResult) -> [i64; 3] {
    match result {
        IssResult::Game(o) if o.declarer >= 0 => {
            let won = o.kind == OutcomeKind::Win;
            let mut tp = [if won { 0 } else { DEFENDER_BONUS as i64 }; 3];
            tp[o.declarer as usize] = o.value as i64 + if won { WIN_BONUS } else { -WIN_BONUS } as i64;
            tp
        }
        _ => [0; 3],
    }
}

/// The decisions of the replayed game, each with its seat's legal action ids (under the ISS
/// rules) — a cfrkit log's decisions.
pub fn decisions(r: &Replayed) -> Vec<Decision> {
    let mut game = Game::with_rules(&r.game.deal(), Rules::Iss);
    let mut out = Vec::new();
    for (seat, action) in r.game.history() {
        let view = View::new(&game, seat);
        let legal = legal_ids(&view).into_iter().map(|x| x as u32);
        out.push(Decision::new(seat, legal, action_id(action).unwrap_or(NUM_ACTIONS) as u32, None));
        game.apply_legal(action);
    }
    out
}

/// The record's facts that are not the game: server, series, id, date, players, ratings, the
/// result as written and how the game ended.
fn facts(r: &Replayed) -> Value {
    json!({
        "place": r.record.place,
        "series": r.record.series,
        "id": r.record.id,
        "date": r.record.date,
        "players": r.record.players,
        "ratings": r.record.ratings,
        "result": record::result_text(&r.result),
        "end": r.end.name(),
    })
}

/// The cfrkit log line (game number `number`) of a replayed record: the deal, the decisions,
/// the result in cfrkit's Skat terms with the record's facts under `iss`, and the seats'
/// Seeger-Fabian points.
pub fn game_record(number: u64, r: &Replayed) -> GameRecord {
    let result = match &r.result {
        IssResult::Game(o) if o.declarer >= 0 => json!({
            "declarer": o.declarer,
            "contract": r.contract.map(Contract::name),
            "bid": r.game.bid(),
            "declarer_points": o.points,
            "declarer_tricks": o.tricks,
            "won": o.kind == OutcomeKind::Win,
            "value": o.value.unsigned_abs() / if o.kind == OutcomeKind::Win { 1 } else { 2 },
            "list_score": o.value,
            "iss": facts(r),
        }),
        _ => json!({ "iss": facts(r) }),
    };
    GameRecord {
        game: number,
        deal: number,
        seating: vec![0; 3],
        cards: Skat::log_cards(&r.game),
        decisions: decisions(r),
        result,
        returns: seeger_fabian(&r.result).to_vec(),
    }
}

/// The record of a cfrkit game, as ISS would have written it: play stops where the ISS rules
/// end the game, and the result is the server's for that play. `id` names the game, `players`
/// the agents in seats 0, 1, 2.
pub fn record_of_game(game: &Game, place: &str, id: &str, date: &str, players: [String; 3]) -> Record {
    let (moves, iss) = replay::moves_of(game);
    let contract = iss.contract();
    let end = if iss.thrown_in() { End::Passed } else { End::Played };
    Record {
        place: place.into(),
        series: String::new(),
        id: id.into(),
        date: date.into(),
        players,
        ratings: Default::default(),
        moves,
        result: Some(replay::result_of(&iss, contract, end)),
    }
}

/// What a conversion of a record file counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Lines, games replayed and lines rejected in the file.
    pub read: Counts,
    /// Games written (those the filter kept).
    pub written: u64,
}

/// Converts the records of `input` that replay and that `filter` keeps into a cfrkit game
/// log at `out` (written atomically: a stopped conversion leaves no file), on `threads`
/// threads; `each(rejected, counts so far)` hears of every batch and may stop the run.
pub fn convert_to_log(
    input: &Path,
    out: &Path,
    threads: usize,
    filter: &Filter,
    each: &mut dyn FnMut(&[Rejected], Counts) -> Result<()>,
) -> Result<Converted> {
    // Each record's log line is built and serialized on the pool (as game 0); only the
    // numbering and the writing are serial.
    enum Item {
        Kept(u64, String),
        Dropped(u64),
        Rejected(Rejected),
    }
    let map = |r: LineResult| match r {
        Ok(g) if filter.keeps(&g) => {
            let line = serde_json::to_string(&game_record(0, &g)).unwrap_or_default();
            Item::Kept(g.record_line, line)
        }
        Ok(g) => Item::Dropped(g.record_line),
        Err(e) => Item::Rejected(e),
    };
    let mut written = 0u64;
    let mut so_far = Counts::default();
    let mut read = Counts::default();
    crate::store::replace_atomic(out, |tmp| {
        let log = LogWriter::create(tmp, &log_header())?;
        read = files::read_file_with(input, threads, &map, &mut |batch| {
            let mut rejected = Vec::new();
            for item in batch {
                match item {
                    Item::Kept(line, json) => {
                        let numbered = GameRecord::renumbered(&json, written)
                            .ok_or_else(|| Error::invalid("game record", line, "a record serialized as game 0"))?;
                        log.add_line(written, numbered)?;
                        written += 1;
                        so_far.games += 1;
                        so_far.lines = so_far.lines.max(line);
                    }
                    Item::Dropped(line) => {
                        so_far.games += 1;
                        so_far.lines = so_far.lines.max(line);
                    }
                    Item::Rejected(e) => {
                        so_far.rejected += 1;
                        so_far.lines = so_far.lines.max(e.line);
                        rejected.push(e);
                    }
                }
            }
            each(&rejected, so_far)
        })?;
        log.finish().map(drop)
    })?;
    Ok(Converted { read, written })
}

/// The Skat game of a cfrkit log's record, replayed from its deal and decisions under `rules`.
pub fn game_of_log_record(rules: Rules, r: &GameRecord) -> std::result::Result<Game, String> {
    let mut game = Game::with_rules(&super::matches::deal_of_record(r)?, rules);
    for d in &r.decisions {
        let action = action_of(d.action as usize).filter(|&a| game.player() == Some(d.seat) && game.is_legal(a));
        let Some(action) = action else { return Err(format!("action {} is not legal there", d.action)) };
        game.apply_legal(action);
    }
    Ok(game)
}

/// The rules of a log's settings (`rules=iss` in logs of records; the ISkO otherwise).
pub fn rules_of_settings(settings: &str) -> Result<Rules> {
    settings.split(',').find_map(|kv| kv.trim().strip_prefix("rules=")).map_or(Ok(Rules::Isko), Rules::parse)
}

/// Writes the games of the cfrkit Skat log at `log` as ISS records to `out` (atomically), each
/// with the agents of its seats as players, `PC[place]`, and its game number as `ID`; returns
/// the number of records.
pub fn records_of_log(log: &Path, out: &Path, place: &str) -> Result<u64> {
    let mut reader = Reader::open(log)?;
    let header = reader.header().clone();
    if header.game != "skat" {
        return Err(Error::invalid("log", log.display(), format!("a Skat log, not one of {}", header.game)));
    }
    let rules = rules_of_settings(&header.settings)?;
    let mut n = 0u64;
    crate::store::replace_atomic(out, |tmp| {
        let mut w = std::io::BufWriter::new(std::fs::File::create(tmp).map_err(|e| Error::io(tmp, e))?);
        for r in reader.by_ref() {
            let r = r?;
            let game = game_of_log_record(rules, &r).map_err(|why| Error::BadFile {
                path: log.display().to_string(),
                reason: format!("game {}: {why}", r.game),
            })?;
            let players: [String; 3] = std::array::from_fn(|s| {
                header.agents[r.seating.get(s).copied().unwrap_or(0) as usize % header.agents.len()].clone()
            });
            let rec = record_of_game(&game, place, &r.game.to_string(), "", players);
            writeln!(w, "{}", record::write(&rec)).map_err(|e| Error::io(tmp, e))?;
            n += 1;
        }
        w.flush().map_err(|e| Error::io(tmp, e))
    })?;
    Ok(n)
}

/// Which replayed records a learning run or a conversion keeps, from a spec such as
/// `place=ISS2,since=2016-01-01,until=2017-12-31,players=humans,complete=1`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Only records of this server (`PC`), compared case-insensitively.
    pub place: Option<String>,
    /// Only records dated on or after this day (`YYYY-MM-DD`).
    pub since: Option<String>,
    /// Only records dated on or before this day.
    pub until: Option<String>,
    /// Who must sit at the table: every seat a human, every seat a program, or these names
    /// (any seat).
    pub players: Players,
    /// Only games played to their end (no resignation, time-out or leave).
    pub complete: bool,
    /// Only records whose every seat has a rating of at least this.
    pub min_rating: Option<f64>,
}

/// The players a [`Filter`] asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Players {
    /// Anyone.
    #[default]
    Any,
    /// Humans in every seat: a rating field that is not empty (server programs have none),
    /// no known program's name.
    Humans,
    /// Programs in every seat.
    Bots,
    /// One of these names in some seat (a bot's second instance `xskat:2` counts as `xskat`).
    Named(Vec<String>),
}

/// Programs that play on ISS from a logged-in account (a rating field like a human's).
/// Server-side programs have an empty rating field; these are the ISS programs the records
/// name (docs/iss.md).
const KNOWN_PROGRAMS: [&str; 7] = ["kermit", "xskat", "zoot", "bernie", "thecount", "skatai", "goskat"];

/// The grammar of [`Filter::parse`], for errors and help.
pub const FILTER_GRAMMAR: &str = "comma-separated key=value: place=NAME (e.g. ISS2), since=YYYY-MM-DD, \
     until=YYYY-MM-DD, players=any|humans|bots|NAME+NAME..., complete=0|1, min_rating=X";

fn is_program(name: &str, rating: &str) -> bool {
    let base = name.split(':').next().unwrap_or(name).to_ascii_lowercase();
    rating.is_empty() || KNOWN_PROGRAMS.contains(&base.as_str())
}

fn is_day(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

impl Filter {
    /// Parses a filter spec ([`FILTER_GRAMMAR`]); the empty spec keeps every record.
    pub fn parse(spec: &str) -> Result<Filter> {
        let mut f = Filter::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || Error::invalid("record filter", part, FILTER_GRAMMAR);
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            let v = v.trim();
            match k.trim().to_ascii_lowercase().as_str() {
                "place" if !v.is_empty() => f.place = Some(v.to_ascii_lowercase()),
                "since" if is_day(v) => f.since = Some(v.into()),
                "until" if is_day(v) => f.until = Some(v.into()),
                "players" => {
                    f.players = match v.to_ascii_lowercase().as_str() {
                        "any" => Players::Any,
                        "humans" => Players::Humans,
                        "bots" => Players::Bots,
                        "" => return Err(bad()),
                        names => Players::Named(names.split('+').map(str::to_owned).collect()),
                    }
                }
                "complete" if v == "0" || v == "1" => f.complete = v == "1",
                "min_rating" => f.min_rating = Some(v.parse().ok().filter(|x: &f64| x.is_finite()).ok_or_else(bad)?),
                _ => return Err(bad()),
            }
        }
        Ok(f)
    }

    /// Whether the filter keeps `r`.
    pub fn keeps(&self, r: &Replayed) -> bool {
        let rec = &r.record;
        let day = rec.date.get(..10).unwrap_or("");
        let seats = || rec.players.iter().zip(&rec.ratings);
        self.place.as_ref().is_none_or(|p| rec.place.eq_ignore_ascii_case(p))
            && self.since.as_ref().is_none_or(|s| day >= s.as_str())
            && self.until.as_ref().is_none_or(|u| day <= u.as_str())
            && (!self.complete || matches!(r.end, End::Played | End::Passed))
            && self.min_rating.is_none_or(|m| seats().all(|(_, x)| x.parse::<f64>().is_ok_and(|x| x >= m)))
            && match &self.players {
                Players::Any => true,
                Players::Humans => seats().all(|(p, x)| !is_program(p, x)),
                Players::Bots => seats().all(|(p, x)| is_program(p, x)),
                Players::Named(names) => rec.players.iter().any(|p| {
                    let base = p.split(':').next().unwrap_or(p);
                    names.iter().any(|n| n.eq_ignore_ascii_case(base) || n.eq_ignore_ascii_case(p))
                }),
            }
    }
}

/// Statistics of replayed games, the kind of table the Skat papers give for their data.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    games: u64,
    passed: u64,
    penalty: u64,
    /// Per game (`grand`, `clubs`, …, `null`), then per family and modifier (`suit hand`,
    /// `null ouvert`, …): games, declarer wins, card points summed.
    by_game: BTreeMap<String, [u64; 3]>,
    by_modifier: BTreeMap<String, [u64; 3]>,
    by_end: BTreeMap<String, u64>,
    bids: BTreeMap<u16, u64>,
}

impl Stats {
    /// Counts one replayed game.
    pub fn add(&mut self, r: &Replayed) {
        self.games += 1;
        *self.by_end.entry(r.end.name().into()).or_default() += 1;
        match (&r.result, r.contract) {
            (IssResult::Passed, _) => self.passed += 1,
            (IssResult::Game(o), Some(c)) if o.declarer >= 0 => {
                *self.bids.entry(r.game.bid()).or_default() += 1;
                let family = match c.game {
                    GameType::Suit(_) => "suit",
                    GameType::Grand => "grand",
                    GameType::Null => "null",
                };
                let modifier = match (c.ouvert, c.hand, c.schwarz, c.schneider) {
                    (true, true, ..) => "ouvert hand",
                    (true, false, ..) => "ouvert",
                    (false, true, true, _) => "hand schwarz",
                    (false, true, false, true) => "hand schneider",
                    (false, true, ..) => "hand",
                    _ => "pickup",
                };
                for (map, key) in [
                    (&mut self.by_game, c.game.name().to_string()),
                    (&mut self.by_modifier, format!("{family} {modifier}")),
                ] {
                    let e = map.entry(key).or_default();
                    e[0] += 1;
                    e[1] += (o.kind == OutcomeKind::Win) as u64;
                    e[2] += o.points as u64;
                }
            }
            _ => self.penalty += 1,
        }
    }

    /// The statistics as JSON: `games`, `declared`, `passed` (and `passed_share`) and
    /// `penalty` (ended before a contract); per game (`by_game`) and per family and modifier
    /// (`by_modifier`): games, share of the declared games, declarer win rate, mean declarer
    /// card points; how games ended (`ends`); the bids the games were played at (`bids`).
    pub fn to_json(&self) -> Value {
        let declared: u64 = self.games - self.passed - self.penalty;
        let share = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        let table = |m: &BTreeMap<String, [u64; 3]>| -> BTreeMap<String, Value> {
            m.iter()
                .map(|(k, &[n, won, points])| {
                    let row = json!({"games": n, "share": share(n, declared), "declarer_wins": share(won, n),
                                     "mean_points": share(points, n)});
                    (k.clone(), row)
                })
                .collect()
        };
        let bids: BTreeMap<String, u64> = self.bids.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        json!({
            "games": self.games,
            "declared": declared,
            "passed": self.passed,
            "passed_share": share(self.passed, self.games),
            "penalty": self.penalty,
            "by_game": table(&self.by_game),
            "by_modifier": table(&self.by_modifier),
            "ends": self.by_end,
            "bids": bids,
        })
    }
}

#[cfg(test)]
mod tests;

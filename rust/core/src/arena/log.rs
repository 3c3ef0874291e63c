//! Game logs: every game of a match or tournament as one line of JSON, in one versioned format
//! shared by the games (documented in `docs/logs.md`).
//!
//! The first line is the [`Header`]: the format tag and version, the game, the agents, the seed
//! and the game's action names (an action id is an index into them). Every further line is one
//! [`GameRecord`]: its number in the log (0, 1, 2, … with no gap), the deal and seating, the
//! agent in each seat, the cards dealt and the result (both in the game's own terms), each
//! seat's payoff, and every [`Decision`]: the seat, its legal action ids, the action taken and,
//! where the agent gives them, its values of the legal actions.
//!
//! [`LogWriter`] writes games in their numbers' order whatever order the threads finish them in,
//! so a log does not depend on the number of threads; [`LogWriter::resume`] keeps the first
//! games of an earlier log (a checkpointed match going on). [`Reader`] checks every line and
//! refuses a bad or foreign one with its line number.

use super::seating::Protocol;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The format tag of the header line.
pub const FORMAT: &str = "cfrkit-game-log";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// The first line of a log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The game: `skat`, `schafkopf`, `setback`.
    pub game: String,
    /// The agents of the match or tournament (their spec names).
    pub agents: Vec<String>,
    /// The seed of the deals and the agents' choices.
    pub seed: u64,
    /// How the agents are seated (e.g. `rotation`), and other settings that fix the games
    /// (e.g. Schafkopf's rule set), as `key=value` text.
    pub settings: String,
    /// The names of the game's action ids: action id `k` is `actions[k]`.
    pub actions: Vec<String>,
}

impl Header {
    /// The header of a log of `game`.
    pub fn new(game: &str, agents: Vec<String>, seed: u64, settings: String, actions: Vec<String>) -> Header {
        Header { format: FORMAT.into(), version: VERSION, game: game.into(), agents, seed, settings, actions }
    }
}

/// An agent's action and, where it gives them, its values of the legal actions.
pub type Valued<A> = (A, Option<Vec<(A, f64)>>);

/// One decision of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// The seat that acted.
    pub seat: u8,
    /// Its legal action ids, ascending.
    pub legal: Vec<u32>,
    /// The action id it took (one of `legal`).
    pub action: u32,
    /// Where the agent gives them: its value of each legal action, in `legal`'s order (e.g.
    /// PIMC's mean payoff over its worlds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
}

/// One game: a line of the log after the header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The game's number in the log: 0, 1, 2, … in line order.
    pub game: u64,
    /// The deal index (the deal is `for_game(seed, deal)` of the game's rules).
    pub deal: u64,
    /// The agent in each seat, as an index into the header's agents.
    pub seating: Vec<u8>,
    /// The cards dealt, in the game's own terms (e.g. Skat: `hands` and `skat`).
    pub cards: Value,
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// The result in the game's own terms (e.g. Skat: declarer, contract, points, …).
    pub result: Value,
    /// Each seat's payoff.
    pub returns: Vec<i64>,
}

impl GameRecord {
    /// The line of this record as game and deal `number`, from `line`, its serialization as
    /// game 0 of deal 0: records serialized in parallel, numbered in order (None if `line` is
    /// not such a serialization).
    pub fn renumbered(line: &str, number: u64) -> Option<String> {
        let rest = line.strip_prefix("{\"game\":0,\"deal\":0,")?;
        Some(format!("{{\"game\":{number},\"deal\":{number},{rest}"))
    }

    /// Checks what every game's record must satisfy against the header: agents and action ids
    /// in range, actions among the legal ones, values aligned with them.
    fn check(&self, header: &Header) -> std::result::Result<(), String> {
        if let Some(&k) = self.seating.iter().find(|&&k| k as usize >= header.agents.len()) {
            return Err(format!("seating names agent {k} of {}", header.agents.len()));
        }
        if self.returns.len() != self.seating.len() {
            return Err(format!("{} returns for {} seats", self.returns.len(), self.seating.len()));
        }
        for (i, d) in self.decisions.iter().enumerate() {
            let why = if d.seat as usize >= self.seating.len() {
                Some(format!("seat {}", d.seat))
            } else if d.legal.iter().any(|&a| a as usize >= header.actions.len()) {
                Some("a legal action id beyond the game's actions".into())
            } else if !d.legal.windows(2).all(|w| w[0] < w[1]) {
                Some("legal action ids not ascending".into())
            } else if !d.legal.contains(&d.action) {
                Some(format!("action {} not among the legal ones", d.action))
            } else if d.values.as_ref().is_some_and(|v| v.len() != d.legal.len() || v.iter().any(|x| !x.is_finite())) {
                Some("values that are not one finite number per legal action".into())
            } else {
                None
            };
            if let Some(why) = why {
                return Err(format!("decision {i}: {why}"));
            }
        }
        Ok(())
    }
}

/// The number in a log of the game of deal `deal` played with `seating` (see
/// [`Protocol::seatings`]) in the `pair`-th match of the log, its matches each playing `deals`
/// deals from deal 0: matches in order, then deals, then seatings. A match alone in its log
/// (`pair` 0) numbers its games `seatings × deal + seating` whatever `deals` is, so a match
/// played in parts (from a first deal on) writes one log.
pub fn game_number(protocol: Protocol, seats: usize, pair: u64, deals: u64, deal: u64, seating: &[u8]) -> Result<u64> {
    let all = protocol.seatings(seats)?;
    let k = all.iter().position(|s| s.as_slice() == seating).ok_or_else(|| {
        Error::invalid("seating", format!("{seating:?}"), format!("a seating of {protocol:?} with {seats} seats"))
    })? as u64;
    let per = all.len() as u64;
    Ok((pair * deals + deal) * per + k)
}

/// The number of the first game of deal `deal` in the `pair`-th match of a log (see
/// [`game_number`]): where a piece of the match starting at that deal begins.
pub fn first_game_of(protocol: Protocol, seats: usize, pair: u64, deals: u64, deal: u64) -> Result<u64> {
    let first = protocol.seatings(seats)?.into_iter().next().unwrap_or_default();
    game_number(protocol, seats, pair, deals, deal, &first)
}

impl Decision {
    /// The decision of `seat` among the `legal` action ids (any order) taking `action`, with the
    /// agent's `values` by action id where it gives them (kept only when every legal action
    /// has one).
    pub fn new(
        seat: u8,
        legal: impl IntoIterator<Item = u32>,
        action: u32,
        values: Option<Vec<(u32, f64)>>,
    ) -> Decision {
        let mut legal: Vec<u32> = legal.into_iter().collect();
        legal.sort_unstable();
        let values = values.and_then(|v| {
            legal.iter().map(|id| v.iter().find(|x| x.0 == *id).map(|x| x.1)).collect::<Option<Vec<f64>>>()
        });
        Decision { seat, legal, action, values }
    }
}

/// Where the games of one match go: a log, and the match's place among the log's matches.
#[derive(Clone, Copy)]
pub struct LogPlace<'a> {
    log: &'a LogWriter,
    protocol: Protocol,
    seats: usize,
    /// The match's index among the log's (a tournament's pairs in order; 0 for a match).
    pair: u64,
    /// Deals per match (for a tournament's later pairs).
    deals: u64,
    /// The log's agent indices of A and B.
    agents: [u8; 2],
}

impl<'a> LogPlace<'a> {
    /// A match alone in `log` (agents A = 0, B = 1 of its header) under `protocol` at `seats`
    /// seats.
    pub fn of_match(log: &'a LogWriter, protocol: Protocol, seats: usize) -> LogPlace<'a> {
        LogPlace { log, protocol, seats, pair: 0, deals: 0, agents: [0, 1] }
    }

    /// The match of agents `i < j` of a tournament of `agents` agents, `deals` deals each.
    pub fn of_pair(
        log: &'a LogWriter,
        protocol: Protocol,
        seats: usize,
        agents: usize,
        i: usize,
        j: usize,
        deals: u64,
    ) -> LogPlace<'a> {
        let (n, i64_, j64) = (agents as u64, i as u64, j as u64);
        let pair = i64_ * (2 * n - i64_ - 1) / 2 + (j64 - i64_ - 1);
        LogPlace { log, protocol, seats, pair, deals, agents: [i as u8, j as u8] }
    }

    /// Writes the game of deal `deal` played with `seating` (0 = A, 1 = B per seat):
    /// `record(number, seats)` makes its record from its number in the log and the agent of
    /// each seat.
    pub fn add(&self, deal: u64, seating: &[u8], record: impl FnOnce(u64, Vec<u8>) -> GameRecord) -> Result<()> {
        let number = game_number(self.protocol, self.seats, self.pair, self.deals, deal, seating)?;
        let seats = seating.iter().map(|&x| self.agents[x as usize & 1]).collect();
        self.log.add(&record(number, seats))
    }
}

/// The error of a bad line `line` (1-based) of the log at `path`.
fn bad_line(path: &Path, line: u64, why: impl std::fmt::Display) -> Error {
    Error::BadFile { path: path.display().to_string(), reason: format!("line {line}: {why}") }
}

/// Reads a log line by line, checking each (see the module documentation).
pub struct Reader {
    path: PathBuf,
    lines: std::io::Lines<BufReader<File>>,
    header: Header,
    /// Lines read so far.
    line: u64,
}

impl Reader {
    /// Opens the log at `path` and reads its header: a file that is not a cfrkit game log, or
    /// of another version, is refused.
    pub fn open(path: &Path) -> Result<Reader> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let mut lines = BufReader::new(file).lines();
        let first = match lines.next() {
            Some(line) => line.map_err(|e| bad_line(path, 1, e))?,
            None => return Err(bad_line(path, 1, "an empty file, not a cfrkit game log")),
        };
        let header = parse_header(&first).map_err(|why| bad_line(path, 1, why))?;
        Ok(Reader { path: path.to_path_buf(), lines, header, line: 1 })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }
}

/// The header in `line`, checked.
fn parse_header(line: &str) -> std::result::Result<Header, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!("no {FORMAT:?} header: not a cfrkit game log"));
    }
    match v.get("version").and_then(Value::as_u64) {
        Some(x) if x == VERSION as u64 => {}
        other => return Err(format!("version {other:?}; this cfrkit reads version {VERSION}")),
    }
    serde_json::from_value(v).map_err(|e| format!("a malformed header ({e})"))
}

impl Iterator for Reader {
    type Item = Result<GameRecord>;

    fn next(&mut self) -> Option<Result<GameRecord>> {
        let line = self.lines.next()?;
        self.line += 1;
        let n = self.line;
        let record = line.map_err(|e| bad_line(&self.path, n, e)).and_then(|text| {
            let r: GameRecord =
                serde_json::from_str(&text).map_err(|e| bad_line(&self.path, n, format!("not a game record ({e})")))?;
            if r.game != n - 2 {
                return Err(bad_line(&self.path, n, format!("game number {}, expected {}", r.game, n - 2)));
            }
            r.check(&self.header).map_err(|why| bad_line(&self.path, n, why))?;
            Ok(r)
        });
        Some(record)
    }
}

/// A whole log: its header and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    pub header: Header,
    pub games: Vec<GameRecord>,
}

/// Reads and checks the whole log at `path`.
pub fn read(path: &Path) -> Result<GameLog> {
    let mut reader = Reader::open(path)?;
    let header = reader.header.clone();
    let games = reader.by_ref().collect::<Result<Vec<_>>>()?;
    Ok(GameLog { header, games })
}

/// Writes a log; shared by the threads of a match (see the module documentation).
pub struct LogWriter {
    path: PathBuf,
    inner: Mutex<Pending>,
}

/// What the writer holds: the file, the next game number to write, and the games finished
/// ahead of it.
struct Pending {
    out: BufWriter<File>,
    next: u64,
    waiting: BTreeMap<u64, String>,
}

impl LogWriter {
    /// A new log at `path` with `header`. A file already there is refused, whatever it holds
    /// (an earlier run's log, or any file of the user's): only [`LogWriter::resume`] goes on
    /// with a log, and replacing one is the caller's explicit choice (`--force` removes it).
    pub fn create(path: &Path, header: &Header) -> Result<LogWriter> {
        LogWriter::open_new(path, header, 0, true)
    }

    /// A piece of a log at `path`: `header`, then the games numbered from `first_game` on (a
    /// piece of a match played elsewhere, e.g. on a cluster's worker; the pieces' games,
    /// joined in order under one header, make the log of the whole match). `path` is the
    /// piece's own scratch file, replaced if it exists.
    pub fn create_from(path: &Path, header: &Header, first_game: u64) -> Result<LogWriter> {
        LogWriter::open_new(path, header, first_game, false)
    }

    fn open_new(path: &Path, header: &Header, first_game: u64, refuse_existing: bool) -> Result<LogWriter> {
        if path.is_dir() {
            return Err(Error::invalid("log", path.display(), "a file path, not a directory"));
        }
        let file = if refuse_existing {
            File::options().write(true).create_new(true).open(path).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => Error::invalid(
                    "log",
                    path.display(),
                    "a new file: it exists (remove it or pass --force to replace it; --checkpoint resumes the run \
                     it belongs to)",
                ),
                _ => Error::io(path, e),
            })?
        } else {
            File::create(path).map_err(|e| Error::io(path, e))?
        };
        let mut out = BufWriter::new(file);
        let line = serde_json::to_string(header).map_err(|e| Error::invalid("log header", e, "JSON"))?;
        writeln!(out, "{line}").map_err(|e| Error::io(path, e))?;
        out.flush().map_err(|e| Error::io(path, e))?;
        Ok(LogWriter {
            path: path.to_path_buf(),
            inner: Mutex::new(Pending { out, next: first_game, waiting: BTreeMap::new() }),
        })
    }

    /// The log at `path` going on after its first `keep` games (a checkpointed match resumed):
    /// the file must be a log with `header` and at least `keep` games; games after them (of a
    /// part the checkpoint did not count) are cut off. `keep = 0` on a missing file creates it.
    pub fn resume(path: &Path, header: &Header, keep: u64) -> Result<LogWriter> {
        if keep == 0 && !path.exists() {
            return LogWriter::create(path, header);
        }
        let mut reader = Reader::open(path)?;
        if reader.header() != header {
            return Err(Error::invalid(
                "log",
                path.display(),
                "a log of the same match to go on with (its header names other agents, settings or game)",
            ));
        }
        for k in 0..keep {
            match reader.next() {
                Some(r) => drop(r?),
                None => {
                    return Err(Error::invalid(
                        "log",
                        path.display(),
                        format!("a log holding the {keep} games the checkpoint counts; it holds {k}"),
                    ))
                }
            }
        }
        // The length of the header and the kept lines.
        let mut length = 0u64;
        let mut lines = BufReader::new(File::open(path).map_err(|e| Error::io(path, e))?);
        let mut buf = Vec::new();
        for _ in 0..=keep {
            buf.clear();
            length += lines.read_until(b'\n', &mut buf).map_err(|e| Error::io(path, e))? as u64;
        }
        let mut file = OpenOptions::new().write(true).open(path).map_err(|e| Error::io(path, e))?;
        file.set_len(length).map_err(|e| Error::io(path, e))?;
        file.seek(SeekFrom::End(0)).map_err(|e| Error::io(path, e))?;
        Ok(LogWriter {
            path: path.to_path_buf(),
            inner: Mutex::new(Pending { out: BufWriter::new(file), next: keep, waiting: BTreeMap::new() }),
        })
    }

    /// The path written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of the next game the log waits for (games written so far).
    pub fn next_game(&self) -> u64 {
        self.inner.lock().map_or(0, |p| p.next)
    }

    /// Adds a finished game; it is written once every game numbered before it is.
    pub fn add(&self, record: &GameRecord) -> Result<()> {
        let line = serde_json::to_string(record).map_err(|e| Error::invalid("game record", e, "JSON"))?;
        self.add_line(record.game, line)
    }

    /// Adds game `number`, already serialized as its line (see [`GameRecord::renumbered`]).
    pub fn add_line(&self, number: u64, line: String) -> Result<()> {
        let mut guard = self.inner.lock().map_err(|_| Error::invalid("log", self.path.display(), "a log writer"))?;
        let p = &mut *guard;
        if number < p.next || p.waiting.contains_key(&number) {
            return Err(Error::invalid("game number", number, "a game not yet in the log"));
        }
        p.waiting.insert(number, line);
        while let Some(line) = p.waiting.remove(&{ p.next }) {
            writeln!(p.out, "{line}").map_err(|e| Error::io(&self.path, e))?;
            p.next += 1;
        }
        Ok(())
    }

    /// Writes what is buffered and syncs the file; returns the number of games in the log.
    /// Games finished after a missing one (a stopped match) are not written.
    pub fn finish(&self) -> Result<u64> {
        let mut p = self.inner.lock().map_err(|_| Error::invalid("log", self.path.display(), "a log writer"))?;
        p.waiting.clear();
        p.out.flush().map_err(|e| Error::io(&self.path, e))?;
        p.out.get_ref().sync_all().map_err(|e| Error::io(&self.path, e))?;
        Ok(p.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_serialized_as_game_0_is_renumbered() {
        let r = GameRecord {
            game: 0,
            deal: 0,
            seating: vec![0, 1],
            cards: json!({"hands": ["a"]}),
            decisions: vec![Decision::new(1, [3, 1], 3, None)],
            result: json!(null),
            returns: vec![1, -1],
        };
        let line = serde_json::to_string(&r).unwrap();
        let again = GameRecord { game: 17, deal: 17, ..r.clone() };
        assert_eq!(GameRecord::renumbered(&line, 17), Some(serde_json::to_string(&again).unwrap()));
        assert_eq!(GameRecord::renumbered(&serde_json::to_string(&again).unwrap(), 3), None);
    }

    fn header() -> Header {
        Header::new("toy", vec!["a".into(), "b".into()], 7, "protocol=rotation".into(), vec!["x".into(), "y".into()])
    }

    fn record(game: u64) -> GameRecord {
        GameRecord {
            game,
            deal: game / 2,
            seating: vec![0, 1],
            cards: json!({"hands": ["x", "y"]}),
            decisions: vec![
                Decision { seat: 0, legal: vec![0, 1], action: 1, values: Some(vec![0.5, -1.25]) },
                Decision { seat: 1, legal: vec![0], action: 0, values: None },
            ],
            result: json!({"winner": 0}),
            returns: vec![1, -1],
        }
    }

    /// A log's path in a scratch directory (removed with the directory when dropped).
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::Builder::new().prefix(&format!("cfrkit-log-{name}-")).tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        (dir, path)
    }

    /// Games added out of order are written in order; the log reads back equal; a resumed log
    /// keeps its first games and cuts the rest.
    #[test]
    fn round_trip_in_order_and_resume() {
        let (_dir, path) = temp("round");
        let w = LogWriter::create(&path, &header()).unwrap();
        for g in [2, 0, 3, 1] {
            w.add(&record(g)).unwrap();
        }
        assert!(w.add(&record(1)).is_err());
        assert_eq!(w.finish().unwrap(), 4);
        let log = read(&path).unwrap();
        assert_eq!(log.header, header());
        assert_eq!(log.games, (0..4).map(record).collect::<Vec<_>>());
        let w = LogWriter::resume(&path, &header(), 3).unwrap();
        assert_eq!(w.next_game(), 3);
        w.add(&record(3)).unwrap();
        w.add(&record(4)).unwrap();
        w.finish().unwrap();
        assert_eq!(read(&path).unwrap().games, (0..5).map(record).collect::<Vec<_>>());
        // Another match's header, or fewer games than the checkpoint counts, are refused.
        let mut other = header();
        other.seed = 8;
        let refused =
            |h: &Header, keep| LogWriter::resume(&path, h, keep).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused(&other, 1).contains("same match"));
        assert!(refused(&header(), 9).contains("holds 5"));
        // A new log never replaces a file: neither this log nor any other file.
        let e = LogWriter::create(&path, &header()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("a new file: it exists") && e.contains("--force"), "{e}");
        assert_eq!(read(&path).unwrap().games.len(), 5);
        let precious = path.with_file_name("notes.txt");
        std::fs::write(&precious, "mine").unwrap();
        assert!(LogWriter::create(&precious, &header()).is_err());
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "mine");
    }

    /// A piece of a log starts at its first game; pieces' game lines joined under one header
    /// make the whole log.
    #[test]
    fn pieces_of_a_log_join_into_the_whole() {
        let ((_w, whole), (_p0, first), (_p1, second)) = (temp("whole"), temp("piece0"), temp("piece1"));
        let w = LogWriter::create(&whole, &header()).unwrap();
        (0..5).for_each(|g| w.add(&record(g)).unwrap());
        w.finish().unwrap();
        let p0 = LogWriter::create_from(&first, &header(), 0).unwrap();
        let p1 = LogWriter::create_from(&second, &header(), 2).unwrap();
        assert!(p1.add(&record(1)).is_err(), "a game before the piece");
        for g in [4, 2, 3] {
            p1.add(&record(g)).unwrap();
        }
        (0..2).for_each(|g| p0.add(&record(g)).unwrap());
        assert_eq!((p0.finish().unwrap(), p1.finish().unwrap()), (2, 5));
        let text = |p: &Path| std::fs::read_to_string(p).unwrap();
        let games = |p: &Path| text(p).lines().skip(1).map(|l| format!("{l}\n")).collect::<String>();
        let head = text(&whole).lines().next().unwrap().to_string();
        assert_eq!(format!("{head}\n{}{}", games(&first), games(&second)), text(&whole));
        assert_eq!(first_game_of(Protocol::Rotation, 3, 0, 0, 7).unwrap(), 42);
        assert_eq!(first_game_of(Protocol::Halves, 4, 2, 10, 3).unwrap(), 46);
    }

    /// Bad or foreign lines are refused with their line number.
    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let (_dir, path) = temp("bad");
        let good = |g| serde_json::to_string(&record(g)).unwrap();
        let head = serde_json::to_string(&header()).unwrap();
        let mut wrong_action = record(1);
        wrong_action.decisions[0].action = 5;
        let mut short_values = record(1);
        short_values.decisions[0].values = Some(vec![1.0]);
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "line 1: an empty file"),
            ("{\"format\": \"something-else\"}".into(), "line 1: no \"cfrkit-game-log\" header"),
            (head.replace("\"version\":1", "\"version\":2"), "line 1: version Some(2)"),
            ("not json".into(), "line 1: not JSON"),
            (format!("{head}\n{}\n{{\"game\": 1}}", good(0)), "line 3: not a game record"),
            (format!("{head}\n{}\n{}", good(0), &good(1)[..20]), "line 3: not a game record"),
            (format!("{head}\n{}", good(1)), "line 2: game number 1, expected 0"),
            (format!("{head}\n{}\n{}", good(0), serde_json::to_string(&wrong_action).unwrap()), "line 3: decision 0"),
            (format!("{head}\n{}\n{}", good(0), serde_json::to_string(&short_values).unwrap()), "line 3: decision 0"),
        ];
        for (text, want) in cases {
            std::fs::write(&path, text).unwrap();
            let err = read(&path).unwrap_err().to_string();
            assert!(err.contains(want), "{err} lacks {want}");
        }
        assert!(read(Path::new("/nonexistent/games.jsonl")).is_err());
    }
}

//! Records of the real server (`../shared/data/iss`, when present) and of cfrkit's own games.

use super::super::agents::RandomAgent;
use super::super::agents::{Agent, Skat};
use super::super::deal::Deal;
use super::*;
use crate::streams::stream;
use crate::trick::matches::play_out;
use std::io::Write;
use std::path::PathBuf;

fn shared_records() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/iss/iss-games.sgf");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent (CI and developers have ../shared)", p.display());
        None
    }
}

fn read_all(path: &std::path::Path, threads: usize) -> (Vec<Replayed>, Vec<Rejected>, Counts) {
    let (mut games, mut rejected) = (Vec::new(), Vec::new());
    let counts = read_file(path, threads, &mut |batch| {
        for r in batch {
            match r {
                Ok(g) => games.push(g),
                Err(e) => rejected.push(e),
            }
        }
        Ok(())
    })
    .unwrap();
    (games, rejected, counts)
}

#[test]
fn every_real_record_replays_to_the_servers_result() {
    let Some(path) = shared_records() else { return };
    let (games, rejected, counts) = read_all(&path, 2);
    assert!(rejected.is_empty(), "{rejected:?}");
    assert_eq!((counts.games, games.len()), (37, 37));
    for g in &games {
        // The replay's result is the record's, field for field.
        assert_eq!(
            Some(g.result),
            g.record.result.map(|r| match (r, g.result) {
                (IssResult::Game(w), IssResult::Game(o)) if w.resigned.is_none() =>
                    IssResult::Game(Outcome { resigned: o.resigned, ..w }),
                _ => r,
            })
        );
    }
    let by_id = |id: &str| games.iter().find(|g| g.record.id == id).unwrap();
    // The 2008 record with an unknown card is reported, and its result still reproduced.
    let unknown = by_id("18358");
    assert_eq!(unknown.notes.len(), 1, "{:?}", unknown.notes);
    assert!(unknown.notes[0].contains("unknown card"));
    assert_eq!(unknown.end, End::Left(1));
    // A lost announced ouvert game counts its Schneider and Schwarz levels (2008).
    assert_eq!(record::result_text(&by_id("13577").result).split(' ').nth(2), Some("v:-192"));
    // On ISS2 one defender's resignation ended the game.
    assert_eq!(by_id("272095").end, End::DefendersResigned);
    // Every way a game ends but the declarer's resignation is among them.
    let ends: std::collections::BTreeSet<&str> = games.iter().map(|g| g.end.name()).collect();
    assert_eq!(ends.into_iter().collect::<Vec<_>>(), ["defenders_resigned", "left", "passed", "played", "timeout"]);
    // Without the ISS2 rule, 272095 does not replay (one resignation does not end the game).
    let line = std::fs::read_to_string(&path).unwrap();
    let iss2 =
        line.lines().find(|l| l.contains("ID[272095]")).unwrap().replace("PC[ISS2]", "PC[International Skat Server]");
    assert!(read_line(1, &iss2).unwrap_err().reason.contains("ends before the game does"));
}

#[test]
fn threads_do_not_change_what_is_read() {
    let Some(path) = shared_records() else { return };
    let one: Vec<String> = read_all(&path, 1).0.iter().map(|g| g.record.id.clone()).collect();
    let two: Vec<String> = read_all(&path, 2).0.iter().map(|g| g.record.id.clone()).collect();
    assert_eq!(one, two);
}

/// Games of random agents under the ISkO, written as records.
fn random_records(n: u64) -> Vec<(Game, Record)> {
    (0..n)
        .map(|i| {
            let mut game = Game::new(&Deal::for_game(7, i));
            let a: &dyn Agent<Skat> = &RandomAgent;
            play_out(&mut game, &[a, a, a], &mut stream(7, 1, i, 0)).unwrap();
            let players = ["random".to_string(), "random:2".into(), "random:3".into()];
            let r = record_of_game(&game, "cfrkit", &i.to_string(), "2026-12-01/00:00:00/UTC", players);
            (game, r)
        })
        .collect()
}

#[test]
fn records_cfrkit_writes_read_back_to_the_same_games() {
    let mut seen = std::collections::HashSet::new();
    for (game, r) in random_records(400) {
        let line = record::write(&r);
        assert_eq!(record::parse(&line).as_ref(), Ok(&r), "{line}");
        let back = read_line(1, &line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(back.game.deal(), game.deal());
        // The same decisions, up to where the server ends the game.
        let h = back.game.history();
        assert_eq!(&game.history()[..h.len()], &h[..]);
        if back.game.tricks_done() == 10 || game.thrown_in() {
            assert_eq!(h.len(), game.history().len());
            assert_eq!(back.game.result().map(|x| x.won()), game.result().map(|x| x.won()));
        }
        for m in &r.moves {
            seen.insert(std::mem::discriminant(m));
        }
    }
    // Deal, calls, pickup, skat shown, contract and card moves all written.
    assert_eq!(seen.len(), 6);
}

/// `r` with its moves replaced by `moves` (as a record writes them) and the result the server
/// gives that play.
fn rewritten(r: &Record, moves: &str) -> Record {
    let line = record::write(&Record { result: Some(IssResult::Passed), ..r.clone() });
    let head = &line[..line.find("MV[").unwrap()];
    let mut rec = record::parse(&format!("{head}MV[{moves} ]R[passed] ;)")).unwrap();
    let p = replay::play(&rec).unwrap();
    rec.result = Some(replay::result_of(&p.game, p.contract, p.end));
    rec
}

#[test]
fn every_token_kind_parses_and_replays() {
    // A pickup suit or grand game of random agents, then its moves rewritten into each form a
    // record may take.
    let (_, r) = random_records(60)
        .into_iter()
        .find(|(g, _)| g.hand_game() == Some(false) && g.contract().is_some_and(|c| c.game != GameType::Null))
        .unwrap();
    let texts: Vec<String> = r.moves.iter().map(record::move_text).collect();
    let whole = read_line(1, &record::write(&r)).unwrap();
    // The split form of the declaration: `G` then `ST.H8`.
    let split: Vec<String> = r
        .moves
        .iter()
        .map(|m| match m {
            Move::Declare { seat, word, cards } => {
                let [a, b] = [cards[0], cards[1]].map(super::super::cards::name);
                format!("{seat} {word} {seat} {a}.{b}")
            }
            m => record::move_text(m),
        })
        .collect();
    assert_eq!(replay::play(&rewritten(&r, &split.join(" "))).unwrap().game, whole.game);
    // Show cards changes nothing; the declarer resigning loses; both defenders resigning, or
    // one leaving, give the declarer every point and trick; the declarer timing out is scored
    // with what he has.
    let first_card = r.moves.iter().position(|m| matches!(m, Move::Card { .. })).unwrap();
    let head = texts[..first_card].join(" ");
    let d = whole.game.declarer().unwrap();
    let (x, y) = ((d + 1) % 3, (d + 2) % 3);
    for (tail, end) in [
        (format!("{d} SC {d} RE"), End::DeclarerResigned),
        (format!("{x} RE {y} RE"), End::DefendersResigned),
        (format!("w LE.{x}"), End::Left(x)),
        (format!("w TI.{d}"), End::TimedOut(d)),
    ] {
        let rec = rewritten(&r, &format!("{head} {tail}"));
        let back = read_line(1, &record::write(&rec)).unwrap();
        assert_eq!(back.end, end);
        let IssResult::Game(o) = back.result else { panic!("{:?}", back.result) };
        match end {
            End::DeclarerResigned => assert_eq!((o.kind, o.resigned), (OutcomeKind::Loss, Some(true))),
            End::DefendersResigned | End::Left(_) => {
                assert_eq!((o.points, o.tricks), (120, 10), "{rec:?}");
                assert_eq!(o.kind == OutcomeKind::Win, !o.overbid, "{rec:?}");
            }
            _ => assert_eq!((o.timed_out, o.points), (d as i8, super::super::cards::set_points(back.game.put_away()))),
        }
    }
    // A time-out and a leave during the auction are penalties of that seat.
    let rec = rewritten(&r, &format!("{} w TI.1", texts[0]));
    let IssResult::Game(o) = rec.result.unwrap() else { unreachable!() };
    assert_eq!((o.declarer, o.kind, o.penalty), (-1, OutcomeKind::Penalty, [false, true, false]));
    // An unknown card stops the replay; only the end of the game may follow it.
    let unknown = format!("{head} {} ?? w LE.{x}", 0);
    assert!(replay::play(&rewritten(&r, &unknown)).unwrap().notes[0].contains("unknown card"));
    let after = format!("{head} 0 ?? 1 CJ");
    assert!(record::parse(&format!("(;GM[Skat]ID[1]MV[{after} ]R[passed] ;)"))
        .map(|rec| replay::play(&rec).unwrap_err())
        .unwrap()
        .contains("after an unknown card"));
}

#[test]
fn corrupt_records_are_reported_one_line_each_and_the_rest_is_read() {
    let Some((_, rec)) = random_records(3).into_iter().find(|(g, _)| !g.thrown_in()) else { unreachable!() };
    let good = record::write(&rec);
    // An illegal move: the first card played is one the next seat holds.
    let mut illegal = rec.clone();
    let (k, seat) = rec
        .moves
        .iter()
        .enumerate()
        .find_map(|(k, m)| match m {
            Move::Card { seat, .. } => Some((k, *seat)),
            _ => None,
        })
        .unwrap();
    let Move::Deal { hands, .. } = rec.moves[0] else { unreachable!() };
    illegal.moves[k] = Move::Card { seat, card: crate::cards::lowest(hands[(seat as usize + 1) % 3]) };
    let end = good.find(" ]R[").unwrap();
    let cases: Vec<(String, &str)> = vec![
        (good[..good.len() - 20].to_string(), "truncated"),
        (good.replacen("MV[w ", "MV[w XX.", 1), "corrupt card"),
        (format!("{}XQ{}", &good[..end - 2], &good[end..]), "corrupt card"),
        (good.replace(" ]R[", " 1 CJ 1 CJ ]R["), "after the game ended"),
        (record::write(&illegal), "you do not hold"),
        (good.replacen(" r:0", " r:1", 1), "the result differs"),
        ("\u{1}\u{2}garbage\u{3}".to_string(), "not an ISS record"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.sgf");
    let mut f = std::fs::File::create(&path).unwrap();
    for (line, _) in &cases {
        writeln!(f, "{good}\n{line}").unwrap();
    }
    f.write_all(&[0xff, 0xfe, 0x00, b'\n']).unwrap();
    writeln!(f, "{good}").unwrap();
    drop(f);
    let (games, rejected, _) = read_all(&path, 2);
    assert_eq!(games.len(), cases.len() + 1);
    assert_eq!(rejected.len(), cases.len() + 1, "{rejected:?}");
    for (r, (_, why)) in rejected.iter().zip(&cases) {
        assert!(r.reason.contains(why), "{why}: {r}");
    }
    assert!(rejected.last().unwrap().reason.contains("not text"));
    assert_eq!(rejected[0].line, 2);

    // Files that cannot be read at all.
    let empty = dir.path().join("empty.sgf");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(read_all(&empty, 1).2, Counts::default());
    let not_bz2 = dir.path().join("x.sgf.bz2");
    std::fs::write(&not_bz2, &good).unwrap();
    let e = read_file(&not_bz2, 1, &mut |_| Ok(())).unwrap_err().to_string();
    assert!(e.contains("not bzip2"), "{e}");
    let e = read_file(dir.path(), 1, &mut |_| Ok(())).unwrap_err().to_string();
    assert!(e.contains("directory"), "{e}");
    // bzip2, and bzip2 that breaks off.
    let bz = dir.path().join("games.sgf.bz2");
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    for _ in 0..50 {
        writeln!(enc, "{good}").unwrap();
    }
    let bytes = enc.finish().unwrap();
    std::fs::write(&bz, &bytes).unwrap();
    assert_eq!(read_all(&bz, 2).0.len(), 50);
    std::fs::write(&bz, &bytes[..bytes.len() / 2]).unwrap();
    let e = read_file(&bz, 1, &mut |_| Ok(())).unwrap_err().to_string();
    assert!(e.contains("unreadable"), "{e}");
}

#[test]
fn converted_games_are_valid_log_lines_and_filters_choose_records() {
    let Some(path) = shared_records() else { return };
    let (games, _, _) = read_all(&path, 1);
    let header = log_header();
    for (i, g) in games.iter().enumerate() {
        let rec = game_record(i as u64, g);
        assert_eq!(rec.decisions.len(), g.game.history().len());
        // A game played out gives each seat its Seeger-Fabian points as the engine does.
        if g.end == End::Played && g.game.tricks_done() == 10 {
            assert_eq!(rec.returns, g.game.returns().iter().map(|&x| x as i64).collect::<Vec<_>>(), "{}", g.record.id);
        }
        assert!(serde_json::to_string(&rec).is_ok());
    }
    assert_eq!(header.settings, LOG_SETTINGS);
    let count = |spec: &str| games.iter().filter(|g| Filter::parse(spec).unwrap().keeps(g)).count();
    assert_eq!(count(""), 37);
    assert_eq!(count("place=iss2"), 5);
    assert_eq!(count("since=2026-01-01"), 2);
    assert_eq!(count("until=2007-12-31"), 5);
    assert_eq!(count("players=kermit"), count("players=KERMIT+kermit1+kermit2").min(count("players=kermit")));
    assert!(count("complete=1") < 37);
    assert!(count("players=bots") < count("players=any"));
    assert_eq!(count("min_rating=1000"), 0);
    for bad in ["since=2020", "players=", "colour=red", "complete=2", "min_rating=x"] {
        assert!(Filter::parse(bad).unwrap_err().to_string().contains("place="), "{bad}");
    }
    let mut stats = Stats::default();
    games.iter().for_each(|g| stats.add(g));
    let s = stats.to_json();
    assert_eq!(s["games"], 37);
    assert_eq!(s["passed"], 2);
    assert_eq!(s["penalty"], 2);
}

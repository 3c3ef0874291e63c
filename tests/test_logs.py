"""Game logs (``cfrkit.logs``, ``--log``): Skat and Schafkopf matches and tournaments write
them in order for any number of threads; every logged game replays from its cards and
decisions to its result; checkpointed matches carry their log on; bad or foreign lines are
refused with their line number; the CLI's errors are one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cfrkit import FileFormatError, InvalidArgumentError, schafkopf, skat
from cfrkit.logs import FORMAT, LogReader, read_log


def replay_skat(record: dict, header: dict) -> skat.Game:
    g = skat.Game(hands=record["cards"]["hands"], skat=record["cards"]["skat"])
    for d in record["decisions"]:
        assert g.player == d["seat"] and g.legal_action_ids() == d["legal"]
        g.step_id(d["action"])
        assert g.history[-1] == (d["seat"], header["actions"][d["action"]])
    return g


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "command",
    [
        ("skat", "selfplay", "--agent", "rules", "--deals", "2"),
        ("skat", "match", "--a", "rules", "--b", "random", "--deals", "2"),
        ("skat", "selfplay", "--agent", "rules", "--deals", "2", "--log-format", "iss"),
        ("schafkopf", "selfplay", "--agent", "rules", "--deals", "2"),
        ("schafkopf", "tournament", "--agents", "rules", "random", "--deals", "2"),
        ("setback", "match", "--a", "rules", "--b", "random", "--deals", "2"),
        ("setback", "tournament", "--agents", "rules", "random", "--deals", "2"),
    ],
)
def test_an_existing_file_is_never_replaced_by_a_log(tmp_path, command):
    """--log writes a new file: any file already there (here the user's notes) is refused in one
    line and left as it was; --force replaces it."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    refused = _cli(*command, "--log", str(notes))
    assert refused.returncode == 2 and "exists" in refused.stderr and "--force" in refused.stderr, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and notes.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    forced = _cli(*command, "--log", str(notes), "--force")
    assert forced.returncode == 0, forced.stderr
    assert notes.read_text() != "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_the_api_refuses_an_existing_log_file(tmp_path):
    path = tmp_path / "m.jsonl"
    skat.match("rules", "random", deals=2, seed=1, log=path)
    first = path.read_bytes()
    with pytest.raises(InvalidArgumentError, match="exists"):
        skat.match("rules", "random", deals=3, seed=1, log=path)
    with pytest.raises(InvalidArgumentError, match="exists"):
        schafkopf.match("rules", "random", deals=3, seed=1, log=path)
    assert path.read_bytes() == first


def test_skat_match_log_replays_and_is_the_same_on_any_threads(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    r1 = skat.match("rules", "random", deals=30, seed=4, threads=1, log=one)
    r2 = skat.match("rules", "random", deals=30, seed=4, threads=2, log=two)
    assert one.read_bytes() == two.read_bytes()
    assert r1.diff == r2.diff == skat.match("rules", "random", deals=30, seed=4).diff
    log = read_log(one)
    assert log.game == "skat" and log.header["agents"] == ["rules", "random"] and len(log.games) == 180
    assert log.header["actions"] == list(skat.ACTION_NAMES)
    tp = {0: [], 1: []}
    for record in log.games:
        g = replay_skat(record, log.header)
        assert g.finished and g.returns() == record["returns"]
        assert g.dealt_hands == skat.Game.random(seed=4, index=record["deal"]).dealt_hands
        if record["result"] is not None:
            assert record["result"]["list_score"] == g.result()["list_score"]
        for seat, agent in enumerate(record["seating"]):
            tp[agent].append(record["returns"][seat])
    # The log's games give the match's TP/G.
    assert sum(tp[0]) / len(tp[0]) == pytest.approx(r1.mean_a)
    assert sum(tp[1]) / len(tp[1]) == pytest.approx(r1.mean_b)


def test_pimc_logs_its_values_and_plays_the_best(tmp_path):
    path = tmp_path / "pimc.jsonl"
    plain = skat.match("pimc:worlds=4", "rules", deals=2, seed=1, threads=2)
    logged = skat.match("pimc:worlds=4", "rules", deals=2, seed=1, threads=2, log=path)
    assert plain.diff == logged.diff
    valued = [d for g in read_log(path).games for d in g["decisions"] if "values" in d]
    assert len(valued) > 20
    for d in valued:
        best = max(range(len(d["values"])), key=lambda k: (d["values"][k], -k))
        assert d["legal"][best] == d["action"]


def test_checkpointed_match_carries_its_log_on(tmp_path):
    path, cp, whole = tmp_path / "parts.jsonl", tmp_path / "m.json", tmp_path / "whole.jsonl"
    skat.match("rules", "random", deals=10, seed=2, checkpoint=cp, log=path)
    # A part the checkpoint did not count: games written after it are cut off on resuming.
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({**read_log(path).games[-1], "game": 60}) + "\n")
    skat.match("rules", "random", deals=25, seed=2, checkpoint=cp, log=path)
    skat.match("rules", "random", deals=25, seed=2, log=whole)
    assert path.read_bytes() == whole.read_bytes()
    # A resumed match refuses another match's log (a new match replaces the file).
    other = tmp_path / "other.json"
    skat.match("rules", "rules", deals=5, seed=2, checkpoint=other, log=tmp_path / "other.jsonl")
    with pytest.raises(InvalidArgumentError, match="same match"):
        skat.match("rules", "rules", deals=10, seed=2, checkpoint=other, log=path)


def test_tournament_logs_pairs_in_order(tmp_path):
    path = tmp_path / "t.jsonl"
    skat.tournament(["rules", "random", "pimc:worlds=2"], deals=3, seed=1, threads=2, log=path)
    log = read_log(path)
    assert log.header["agents"] == ["rules", "random", "pimc:worlds=2"] and len(log.games) == 3 * 3 * 6
    assert [g["seating"] for g in log.games[::18]] == [[0, 0, 1], [0, 0, 2], [1, 1, 2]]


def test_schafkopf_match_log(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    r = schafkopf.match("rules", "random", deals=20, seed=3, threads=1, log=one)
    schafkopf.match("rules", "random", deals=20, seed=3, threads=2, log=two)
    assert one.read_bytes() == two.read_bytes()
    log = read_log(one)
    assert log.game == "schafkopf" and len(log.games) == 40 and "rules=schafkopfrl" in log.header["settings"]
    for record in log.games:
        g = schafkopf.Game.random(seed=3, index=record["deal"])
        assert [" ".join(h) for h in g.dealt_hands] == record["cards"]["hands"]
        for d in record["decisions"]:
            assert g.player == d["seat"] and sorted(g.legal_action_ids()) == d["legal"]
            g.step_id(d["action"])
        assert g.finished and g.returns() == record["returns"]
    a = [ret for g in log.games for seat, ret in enumerate(g["returns"]) if g["seating"][seat] == 0]
    assert sum(a) / len(a) == pytest.approx(r.mean_a)
    pimc = tmp_path / "pimc.jsonl"
    plain = schafkopf.match("pimc:worlds=4", "rules", deals=2, seed=3, threads=2)
    logged = schafkopf.match("pimc:worlds=4", "rules", deals=2, seed=3, threads=2, log=pimc)
    assert (logged.mean_a, logged.mean_b) == (plain.mean_a, plain.mean_b)
    valued = [d for g in read_log(pimc).games for d in g["decisions"] if "values" in d]
    assert len(valued) > 10
    for d in valued:
        best = max(range(len(d["values"])), key=lambda k: (d["values"][k], -k))
        assert d["legal"][best] == d["action"]
    t = tmp_path / "t.jsonl"
    schafkopf.tournament(["rules", "random"], deals=5, seed=3, log=t)
    assert [g["game"] for g in read_log(t).games] == list(range(10))


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.fixture
def good_lines(tmp_path):
    path = tmp_path / "good.jsonl"
    skat.match("rules", "random", deals=1, seed=0, log=path)
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda ls: [], "line 1: an empty file"),
        (lambda ls: ['{"format": "other"}'] + ls[1:], "line 1: no 'cfrkit-game-log' header"),
        (lambda ls: [ls[0].replace('"version":1', '"version":9')] + ls[1:], "line 1: version 9"),
        (lambda ls: ["garbage"] + ls[1:], "line 1: not JSON"),
        (lambda ls: ls[:2] + ['{"game": 1}'] + ls[3:], "line 3: not a game record"),
        (lambda ls: ls[:2] + [ls[2][:40]], "line 3: not JSON"),
        (lambda ls: [ls[0]] + ls[2:], "line 2: game number 1, expected 0"),
        (lambda ls: ls[:2] + [ls[2].replace('"action":', '"action":999,"x":', 1)], "line 3"),
    ],
)
def test_bad_lines_are_refused_with_their_number(tmp_path, good_lines, edit, where):
    path = tmp_path / "bad.jsonl"
    write_lines(path, edit(list(good_lines)))
    with pytest.raises(FileFormatError, match=where.replace("(", r"\(")):
        read_log(path)


def test_a_decision_off_the_legal_ones_is_refused(tmp_path, good_lines):
    record = json.loads(good_lines[1])
    record["decisions"][0]["action"] = 623 if record["decisions"][0]["legal"][-1] != 623 else 0
    path = tmp_path / "bad.jsonl"
    write_lines(path, [good_lines[0], json.dumps(record)])
    with pytest.raises(FileFormatError, match="line 2: decision 0: action"):
        read_log(path)
    with LogReader(tmp_path / "bad.jsonl") as r:
        assert r.header["format"] == FORMAT


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_cli_log(tmp_path):
    path = tmp_path / "cli.jsonl"
    r = cli("skat", "match", "--a", "rules", "--b", "random", "--deals", "5", "--log", str(path), "--json")
    assert r.returncode == 0, r.stderr
    assert len(read_log(path).games) == 30
    r = cli("schafkopf", "match", "--a", "rules", "--b", "random", "--deals", "5", "--log", str(path))
    assert r.returncode == 2 and "exists" in r.stderr and read_log(path).game == "skat", r.stderr
    r = cli("schafkopf", "match", "--a", "rules", "--b", "random", "--deals", "5", "--log", str(path), "--force")
    assert r.returncode == 0, r.stderr
    assert read_log(path).game == "schafkopf"
    for args in (
        ("skat", "match", "--a", "rules", "--b", "random", "--deals", "5", "--log", str(tmp_path)),
        ("skat", "match", "--a", "rules", "--b", "random", "--deals", "5", "--log", "/nonexistent/dir/x.jsonl"),
        ("schafkopf", "tournament", "--agents", "rules", "random", "--deals", "5", "--log", str(tmp_path)),
    ):
        r = cli(*args)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr

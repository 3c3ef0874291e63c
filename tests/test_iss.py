"""ISS game records: the real records of ../shared/data/iss replayed to the server's results,
cfrkit's own games written as records and read back, corrupt input, the CLI and learning."""

import bz2
import json
import os
import pathlib
import subprocess
import sys
import warnings

import pytest

import cfrkit
from cfrkit import learn, skat
from cfrkit.logs import read_log

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "data" / "iss" / "iss-games.sgf"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason=f"{SHARED} absent (CI and developers have ../shared)")


def cli(*args, check=True):
    r = subprocess.run([sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True, timeout=300)
    if check:
        assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Records cfrkit writes: 60 deals of rules self-play, as a log and as records."""
    d = tmp_path_factory.mktemp("iss")
    skat.selfplay("rules", 60, seed=3, threads=1, log=d / "sp.jsonl")
    n = skat.records.log_to_iss(str(d / "sp.jsonl"), str(d / "sp.sgf"))
    assert n == 60
    return d


@needs_shared
def test_every_real_record_replays_to_the_servers_result():
    games = list(skat.read_iss(SHARED))
    assert len(games) == 37
    lines = [ln for ln in SHARED.read_text().splitlines() if ln.strip()]
    for g in games:
        recorded = lines[g["line"] - 1].split("R[")[-1].split("]")[0]
        # The replay's result field equals the record's (r: is absent in the oldest ones).
        assert g["result"].startswith(recorded) or recorded == g["result"], (g["id"], recorded, g["result"])
    by_id = {g["id"]: g for g in games}
    assert by_id["18358"]["notes"] and "unknown card" in by_id["18358"]["notes"][0]
    assert by_id["18358"]["end"] == "left"
    assert by_id["272095"]["end"] == "defenders_resigned"
    assert by_id["13577"]["result"].split()[2] == "v:-192"
    assert by_id["8"]["result"].startswith("d:-1 penalty")
    played = by_id["9"]
    assert played["game"].rules == "iss" and played["game"].tricks_done == 10
    assert played["contract"] == "clubs hand" and played["returns"] == [40, 40, -96 - 50]


@needs_shared
def test_filters_choose_records():
    count = lambda spec: len(list(skat.read_iss(SHARED, filter=spec)))  # noqa: E731
    assert count("place=ISS2") == 5
    assert count("since=2026-01-01") == 2
    assert count("players=humans") < count("players=any") == 37
    with pytest.raises(cfrkit.InvalidArgumentError, match="place="):
        count("colour=red")


def test_records_cfrkit_writes_read_back_to_the_same_games(written):
    log = read_log(written / "sp.jsonl")
    back = list(skat.read_iss(written / "sp.sgf", threads=2))
    assert len(back) == 60
    for g, rec in zip(log.games, back):
        assert rec["game"].dealt_hands == [h.split() for h in g["cards"]["hands"]]
        names = [log.header["actions"][d["action"]] for d in g["decisions"]]
        replayed = [a for _, a in rec["game"].history]
        assert [n.lower() for n in names[: len(replayed)]] == [a.lower() for a in replayed]
        if rec["game"].tricks_done == 10 or g["result"] is None:
            assert rec["returns"] == g["returns"]


def test_corrupt_records_one_line_each_and_the_rest_read(written, tmp_path):
    good = (written / "sp.sgf").read_text().splitlines()[:3]
    bad = [good[0][:-15], good[1].replace("MV[w ", "MV[w ZZ.", 1), good[2].replace(" r:0", " r:1", 1), "\x00\x01binary"]
    path = tmp_path / "mixed.sgf"
    path.write_text("\n".join(x for pair in zip(good, bad[:3]) for x in pair) + "\n" + bad[3] + "\n" + good[0] + "\n")
    errors = []
    games = list(skat.read_iss(path, on_error=lambda *e: errors.append(e)))
    assert len(games) == 4 and len(errors) == 4
    assert [e[0] for e in errors] == [2, 4, 6, 7]
    for (_, _, why), expect in zip(errors, ["truncated", "corrupt card", "result differs", "not an ISS record"]):
        assert expect in why
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert len(list(skat.read_iss(path))) == 4
    assert len(w) == 4 and issubclass(w[0].category, skat.IssRecordWarning)
    with pytest.raises(cfrkit.CfrkitError, match="directory"):
        list(skat.read_iss(tmp_path))
    (tmp_path / "x.sgf.bz2").write_text(good[0])
    with pytest.raises(cfrkit.CfrkitError, match="not bzip2"):
        list(skat.read_iss(tmp_path / "x.sgf.bz2"))
    with pytest.raises(cfrkit.CfrkitError):
        list(skat.read_iss(tmp_path / "missing.sgf"))


def test_cli_convert_and_stats(written, tmp_path):
    src = written / "sp.sgf"
    packed = tmp_path / "sp.sgf.bz2"
    packed.write_bytes(bz2.compress(src.read_bytes()))
    out = tmp_path / "games.jsonl"
    r = cli("logs", "convert", "--from", "iss", str(packed), "--out", str(out), "--json")
    counts = json.loads(r.stdout.splitlines()[-1])
    assert counts["games"] == counts["written"] == 60 and counts["rejected"] == 0
    log = read_log(out)
    assert log.header["settings"] == "protocol=records,rules=iss" and len(log.games) == 60
    # An existing output is refused without --force and kept as it was.
    before = out.read_bytes()
    r = cli("logs", "convert", "--from", "iss", str(src), "--out", str(out), check=False)
    assert r.returncode == 2 and "--force" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == before
    cli("logs", "convert", "--from", "iss", str(src), "--out", str(out), "--force")
    # Back to records: the same records.
    again = tmp_path / "again.sgf"
    cli("logs", "convert", "--from", "cfrkit", str(written / "sp.jsonl"), "--out", str(again))
    assert again.read_text() == src.read_text()
    r = cli("logs", "stats", str(src), "--json")
    stats = json.loads(r.stdout.splitlines()[-1])
    assert stats["games"] == 60 and stats["declared"] + stats["passed"] + stats["penalty"] == 60
    assert cli("logs", "stats", str(src)).stdout.count("\n") >= 4
    empty = tmp_path / "empty.sgf"
    empty.write_text("")
    for args in (["stats", str(empty)], ["convert", "--from", "iss", str(empty), "--out", str(tmp_path / "e.jsonl")],
                 ["stats", str(tmp_path)], ["stats", str(src), "--filter", "players="]):
        r = cli("logs", *args, check=False)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "e.jsonl").exists()


def test_a_policy_learned_from_records_plays(written, tmp_path):
    pol = tmp_path / "pol"
    r = learn.imitate("skat", [written / "sp.sgf"], pol, hidden=[16], epochs=2, seed=1, records="complete=1")
    assert "cards-suit-defender" in r.kinds and (pol / "records-0.jsonl").exists()
    m = skat.match(f"net:{pol}", "random", 4, seed=2, threads=1)
    assert m.deals == 4
    with pytest.raises(cfrkit.InvalidArgumentError, match="filter"):
        learn.imitate("skat", [written / "sp.sgf"], tmp_path / "p2", epochs=1, records="players=nobody")


def test_runs_write_iss_records(tmp_path):
    out = tmp_path / "m.sgf"
    cli("skat", "match", "--a", "rules", "--b", "random", "--deals", "3", "--threads", "1", "--log", str(out),
        "--log-format", "iss")
    games = list(skat.read_iss(out))
    assert len(games) == 18 and {g["place"] for g in games} == {"cfrkit"}
    assert {p for g in games for p in g["players"]} == {"rules", "random"}
    assert not [f for f in os.listdir(tmp_path) if f != "m.sgf"], "the temporary log is removed"
    sp = tmp_path / "sp.sgf"
    cli("skat", "selfplay", "--agent", "random", "--deals", "5", "--log", str(sp), "--log-format", "iss")
    assert len(list(skat.read_iss(sp))) == 5
    # An existing file is not written over; a checkpoint cannot go with records.
    before = sp.read_bytes()
    r = cli("skat", "selfplay", "--agent", "random", "--deals", "5", "--log", str(sp), "--log-format", "iss",
            check=False)
    assert r.returncode == 2 and "exists" in r.stderr and sp.read_bytes() == before
    r = cli("skat", "match", "--a", "rules", "--b", "random", "--deals", "1", "--log", str(tmp_path / "c.sgf"),
            "--log-format", "iss", "--checkpoint", str(tmp_path / "c.ckpt"), check=False)
    assert r.returncode == 2 and "checkpoint" in r.stderr
    assert not (tmp_path / "c.sgf").exists() and not (tmp_path / "c.ckpt").exists()

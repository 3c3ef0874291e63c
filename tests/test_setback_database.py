"""The Setback bootstrap stage and the strategy database from the command line and Python:
training and exact resume, the SQLite schema and selection rules, the database player."""

import json
import sqlite3
import subprocess
import sys

import numpy as np
import pytest
from cfrkit import setback
from cfrkit.errors import CfrkitError, InvalidArgumentError
from cfrkit.setback.matches import match as setback_match


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.setback", *args], capture_output=True, text=True, timeout=600)


def _json(r):
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A small baseline, and a bootstrap run played out by it."""
    d = tmp_path_factory.mktemp("runs")
    setback.train(d / "base", 20, algo="cs-cfr", seed=2, threads=2)
    boot = _json(
        _cli(
            "train",
            "--stage",
            "bootstrap",
            "--baseline",
            str(d / "base"),
            "--iterations",
            "3000",
            "--out",
            str(d / "boot"),
            "--seed",
            "4",
            "--json",
        )
    )
    assert (boot["stage"], boot["algo"], boot["iterations"]) == ("bootstrap", "cs-cfr", 3000)
    return d


def test_bootstrap_strategy_holds_score_aware_bids(runs):
    s = setback.load_strategy(runs / "boot" / setback.STRATEGY_FILE)
    assert (s.stage, s.iterations) == ("bootstrap", 3000)
    base = setback.load_strategy(runs / "base" / setback.STRATEGY_FILE)
    assert base.stage == "baseline"
    keys, offsets, probs = s.to_numpy()
    assert len(keys) > 1000
    strings = [setback.key_string(int(k)) for k in keys[:: max(1, len(keys) // 200)]]
    for k in strings:
        need, bid, bidder, num_bids, hand = k.split("/")
        assert need[0] in "1234x" and need[1] in "!." and bid in "0234" and len(hand) == 12
        assert int(bidder) in range(-1, 4) and int(num_bids) in range(4)
        dist = s.get(k)
        assert [c for c, _ in dist][0] == "0", "Pass is always legal and first"
        assert abs(sum(p for _, p in dist) - 1) < 1e-5
    shown = _json(_cli("show", str(runs / "boot" / setback.STRATEGY_FILE), "--json"))
    assert (shown["stage"], shown["infosets"]) == ("bootstrap", len(keys))


def test_bootstrap_resume_continues_exactly(runs, tmp_path):
    args = ["train", "--stage", "bootstrap", "--baseline", str(runs / "base"), "--seed", "4", "--json"]
    _json(_cli(*args, "--iterations", "1200", "--out", str(tmp_path / "b")))
    r = _json(_cli(*args, "--iterations", "3000", "--out", str(tmp_path / "b"), "--resume"))
    assert (r["iterations"], r["iterations_this_run"]) == (3000, 1800)
    # Two threads train the reference run: its tables may differ in the last bits, so compare
    # a one-thread split run against a one-thread whole run.
    setback.train(tmp_path / "w1", 3000, stage="bootstrap", baseline=runs / "base", seed=4, threads=1)
    setback.train(tmp_path / "s1", 1000, stage="bootstrap", baseline=runs / "base", seed=4, threads=1)
    setback.train(tmp_path / "s1", 3000, stage="bootstrap", baseline=runs / "base", seed=4, threads=1, resume=True)
    for x, y in zip(
        setback.load_strategy(tmp_path / "w1" / setback.STRATEGY_FILE).to_numpy(),
        setback.load_strategy(tmp_path / "s1" / setback.STRATEGY_FILE).to_numpy(),
    ):
        np.testing.assert_array_equal(x, y)
    # Resuming against another baseline is refused.
    setback.train(tmp_path / "other", 3, seed=9, threads=1)
    with pytest.raises(InvalidArgumentError, match="fingerprint"):
        setback.train(tmp_path / "s1", 4000, stage="bootstrap", baseline=tmp_path / "other", seed=4, resume=True)


def test_export_db_writes_the_original_schema_and_selection(runs, tmp_path):
    db = tmp_path / "setback.db"
    r = _json(
        _cli(
            "export-db", "--baseline", str(runs / "base"), "--bootstrap", str(runs / "boot"), "--out", str(db), "--json"
        )
    )
    # The database is a new file: writing it again is refused unless --force, the file kept.
    written = db.read_bytes()
    again = _cli("export-db", "--baseline", str(runs / "base"), "--bootstrap", str(runs / "boot"), "--out", str(db))
    assert again.returncode == 2 and "exists (--force replaces it)" in again.stderr and db.read_bytes() == written
    forced = _cli(
        *("export-db", "--baseline", str(runs / "base"), "--bootstrap", str(runs / "boot"), "--out", str(db)),
        "--force",
    )
    assert forced.returncode == 0, forced.stderr
    con = sqlite3.connect(db)
    schema = dict(con.execute("SELECT name, sql FROM sqlite_master").fetchall())
    assert schema["Strategy"] == "CREATE TABLE Strategy (Key TEXT NOT NULL, ActionIndex INTEGER NOT NULL)"
    assert schema["Strategy_Key_Idx"] == "CREATE UNIQUE INDEX Strategy_Key_Idx ON Strategy(Key)"
    rows = con.execute("SELECT Key, ActionIndex FROM Strategy").fetchall()
    assert len(rows) == r["baseline_rows"] + r["bootstrap_rows"] and r["bytes"] == db.stat().st_size
    base = setback.load_strategy(runs / "base" / setback.STRATEGY_FILE)
    boot = setback.load_strategy(runs / "boot" / setback.STRATEGY_FILE)
    firsts = {k[0] for k, _ in rows}
    assert firsts <= set(".EH1234x") and {"E", "H", "x"} <= firsts, firsts
    bootstrap_rows = [(k, i) for k, i in rows if "/" in k]
    assert len(bootstrap_rows) == len(boot) == r["bootstrap_rows"]
    base_strings = [setback.key_string(int(k)) for k in base.to_numpy()[0]]
    assert r["baseline_rows"] == sum(k[0] in ".EH" for k in base_strings) < len(base)
    for k, i in rows[:: max(1, len(rows) // 500)]:
        probs = [p for _, p in (boot if "/" in k else base).get(k)]
        assert i == int(np.argmax(probs)), k
    con.close()
    # The players agree: the database player plays as the table player with the same strategies.
    table = f"table:{runs / 'base'}+{runs / 'boot'}"
    a = setback_match(f"db:{db}", "rules", 30, seed=8).to_dict()
    b = setback_match(table, "rules", 30, seed=8).to_dict()
    for k in ("a_wins", "deals", "mean_points_a", "mean_points_b"):
        assert a[k] == b[k], k
    assert a["a"] == f"db:{db}"


def test_bad_stage_and_database_input_is_refused(runs, tmp_path):
    r = _cli("train", "--stage", "bootstrap", "--iterations", "5", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "invalid value for baseline" in r.stderr and "Traceback" not in r.stderr
    r = _cli("train", "--stage", "auction", "--iterations", "5", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "baseline, bootstrap" in r.stderr
    with pytest.raises(InvalidArgumentError, match="cs-cfr"):
        setback.train(tmp_path / "y", 5, stage="bootstrap", baseline=runs / "base", algo="es-mccfr")
    with pytest.raises(InvalidArgumentError, match="baseline strategy"):
        setback.train(tmp_path / "y", 5, stage="bootstrap", baseline=runs / "boot")
    r = _cli(
        "export-db", "--baseline", str(runs / "boot"), "--bootstrap", str(runs / "boot"), "--out", str(tmp_path / "d")
    )
    assert r.returncode == 2 and "baseline" in r.stderr and not (tmp_path / "d").exists()
    r = _cli("export-db", "--baseline", str(tmp_path / "none"), "--bootstrap", str(runs / "boot"), "--out", "x.db")
    assert r.returncode == 2 and "none" in r.stderr
    (tmp_path / "junk.db").write_bytes(b"not a database at all")
    with pytest.raises(CfrkitError, match="junk.db"):
        setback_match(f"db:{tmp_path / 'junk.db'}", "rules", 1)


def test_hybrid_bids_like_the_database_and_plays_like_pimc(runs, tmp_path):
    db = tmp_path / "setback.db"
    setback.export_db(runs / "base", runs / "boot", db)
    hybrid = setback.agent(f"hybrid:{db},worlds=4,threads=1,seed=3")
    database, pimc = setback.agent(f"db:{db}"), setback.agent("pimc:worlds=4,threads=1,seed=3")
    assert hybrid.name == f"hybrid:{db}(pimc:worlds=4,seed=3)"
    game = setback.Game(seed=5, first_dealer=3)
    rules = setback.agent("rules")
    phases = []
    for _ in range(80):
        if game.winner is not None:
            break
        if game.deal_over:
            game.next_deal()
            continue
        view = game.view(game.to_act)
        same_as = database if view.phase == "auction" else pimc
        assert hybrid.act(view, seed=7) == same_as.act(view, seed=7)
        phases.append(view.phase)
        game.agent_move(rules)
    assert {"auction", "playout"} <= set(phases), phases
    with pytest.raises(InvalidArgumentError, match="worlds"):
        setback.agent(f"hybrid:{db},worlds=0")

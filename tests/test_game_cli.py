"""The command shape every trick-taking game shares (``cfrkit._game_cli``): each sub-command of each
game runs, the shared flags are the same in every game, ``deal`` shows what the rules engine says,
the docs' table is the parsers', and the old spellings still work and say they are deprecated."""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import warnings

import pytest
from cfrkit import _game_cli, schafkopf, setback, skat
from cfrkit.schafkopf import cli as schafkopf_cli
from cfrkit.setback import cli as setback_cli
from cfrkit.skat import cli as skat_cli

GAMES = {"setback": setback_cli, "schafkopf": schafkopf_cli, "skat": skat_cli}
DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "commands.md"
#: The flags every game's command has.
SHARED = {
    "match": {"--a", "--b", "--deals", "--seed", "--threads", "--json", "--checkpoint", "--log", "--force", "--ray"},
    "tournament": {"--agents", "--deals", "--seed", "--threads", "--json", "--checkpoint", "--log", "--ray"},
    "selfplay": {"--agent", "--deals", "--seed", "--threads", "--json", "--checkpoint", "--log", "--force"},
    "play": {"--bots", "--seed"},
    "deal": {"--seed", "--json"},
}


def run(game: str, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = GAMES[game].main(list(argv))
    return status, out.getvalue(), err.getvalue()


def last_json(text: str) -> dict:
    return json.loads(text.strip().splitlines()[-1])


def without_times(x):
    """A JSON record without its timings (at any depth)."""
    if isinstance(x, dict):
        return {k: without_times(v) for k, v in x.items() if k not in ("seconds", "games_per_second")}
    if isinstance(x, list):
        return [without_times(v) for v in x]
    return x


def flags(game: str, command: str) -> set[str]:
    p = _game_cli.parser(GAMES[game].CLI)
    sub = next(a for a in p._actions if a.dest == "command")
    return {max(a.option_strings, key=len) for a in sub.choices[command]._actions if a.option_strings}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", SHARED)
def test_every_game_has_the_shared_flags(game, command):
    assert SHARED[command] <= flags(game, command), (game, command, SHARED[command] - flags(game, command))


@pytest.mark.parametrize("game", GAMES)
def test_match_and_tournament_run_with_the_same_flags_in_every_game(game, tmp_path):
    common = ("--deals", "2", "--seed", "3", "--threads", "1", "--json")
    status, out, err = run(game, "match", "--a", "rules", "--b", "random", *common, "--log", str(tmp_path / "m.jsonl"))
    assert status == 0, err
    assert (tmp_path / "m.jsonl").stat().st_size > 0
    status, out, err = run(game, "tournament", "--agents", "rules", "random", *common)
    assert status == 0, err
    assert "rules" in out and "random" in out


@pytest.mark.parametrize("game", GAMES)
def test_selfplay_runs_with_the_same_flags(game, tmp_path):
    log = tmp_path / "sp.jsonl"
    argv = ("selfplay", "--agent", "rules", "--deals", "3", "--threads", "1", "--log", str(log), "--json")
    status, out, err = run(game, *argv)
    assert status == 0, err
    assert len(log.read_text().splitlines()) == 1 + 3  # the header and one game per deal
    record = last_json(out)
    assert (record["command"], record["agent"], record["deals"], record["games"]) == ("selfplay", "rules", 3, 3)


def test_setback_selfplay_is_each_pairs_first_game_and_resumes(tmp_path):
    """Setback's self-play game ``i`` is the first game of duplicate pair ``i`` of the agent
    against itself; a stopped run resumes its log to the bytes of an unbroken one; the log
    trains a policy like a match's."""
    from cfrkit.learn import imitate
    from cfrkit.logs import read_log

    whole, match_log = tmp_path / "whole.jsonl", tmp_path / "match.jsonl"
    r = setback.selfplay("rules", 8, seed=4, log=whole, threads=2)
    assert (r.games, r.per_game) == (8, 0.0) and "self-play" in str(r)
    setback.match("rules", "rules", 8, seed=4, log=match_log, threads=1)
    own, pairs = read_log(whole), read_log(match_log)
    assert own.header["settings"] == "protocol=alone,play_out=0" and own.header["agents"] == ["rules"]
    for i, g in enumerate(own.games):
        first = pairs.games[2 * i]
        assert (g["game"], g["deal"], g["seating"]) == (i, i, [0, 0, 0, 0])
        assert (g["cards"], g["decisions"], g["result"]) == (first["cards"], first["decisions"], first["result"])
    parts, cp = tmp_path / "parts.jsonl", tmp_path / "cp.json"
    with pytest.raises(KeyboardInterrupt):
        setback.selfplay(
            "rules", 8, seed=4, log=parts, checkpoint=cp, threads=1,
            progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt) if done >= 3 else None,
        )  # fmt: skip
    setback.selfplay("rules", 8, seed=4, log=parts, checkpoint=cp, threads=2)
    assert parts.read_bytes() == whole.read_bytes()
    more = tmp_path / "more.jsonl"
    setback.selfplay("rules", 40, seed=5, log=more)
    trained = imitate("setback", [whole, more], tmp_path / "net", hidden=(8,), epochs=1, seed=1)
    assert trained


def test_deal_shows_what_the_rules_engine_says():
    status, out, err = run("skat", "deal", "--seed", "5", "--index", "2", "--json")
    d, g = last_json(out), skat.Game.random(seed=5, index=2)
    assert status == 0 and (d["hands"], d["skat"], d["player"]) == (g.hands, g.skat, g.player)
    assert d["legal_actions"] == ["pass", *map(str, skat.BID_VALUES)]
    status, out, err = run("schafkopf", "deal", "--seed", "5", "--index", "2", "--rules", "standard", "--json")
    d, g = last_json(out), schafkopf.Game.random(seed=5, index=2, rules="standard")
    assert status == 0 and (d["hands"], d["player"], d["legal_actions"]) == (g.hands, g.player, g.legal_actions())
    assert "pass" in d["legal_actions"]
    hands = ["2C 3C 4C 5C 6C 7C", "AS JS 4S KH 7H 9D", "QD TD 4D TS 9S 6S", "8C 9C TC JC QC KC"]
    status, out, err = run("setback", "deal", "--hands", *hands, "--json")
    d = last_json(out)
    assert status == 0 and (d["player"], d["legal_actions"], d["key"]) == (1, ["0", "2", "3", "4"], "0AJ4")
    # The same keys in every game.
    for game in GAMES:
        status, out, err = run(game, "deal", "--json")
        assert status == 0, err
        keys = set(last_json(out))
        assert {"command", "game", "seed", "index", "hands", "player", "legal_actions"} <= keys, (game, keys)
    # Text: one line per seat, then the seat to act.
    status, out, err = run("skat", "deal")
    assert out.splitlines()[0].startswith("0 Vorhand: ") and out.splitlines()[-1].startswith("to act: 1 Mittelhand")
    status, out, err = run("setback", "deal", "--hands", *hands, "--seed", "1")
    assert status == 2 and "not allowed with argument --hands" in err


@pytest.mark.parametrize(
    "game, old, argv",
    [
        ("setback", "--pairs", ("match", "--a", "rules", "--b", "random")),
        ("setback", "--pairs", ("tournament", "--agents", "rules", "random")),
        ("schafkopf", "--games", ("match", "--a", "rules", "--b", "random")),
        ("schafkopf", "--games", ("tournament", "--agents", "rules", "random")),
    ],
)
def test_old_spellings_still_work_and_say_so(game, old, argv):
    rest = ("--seed", "2", "--threads", "1", "--json")
    new_status, new_out, new_err = run(game, *argv, "--deals", "3", *rest)
    old_status, old_out, old_err = run(game, *argv, old, "3", *rest)
    assert new_status == old_status == 0, (new_err, old_err)
    assert without_times(last_json(old_out)) == without_times(last_json(new_out))
    assert old_err.count("deprecated") == 1 and f"{old} is deprecated; use --deals" in old_err
    assert "deprecated" not in new_err


def test_old_python_names_still_work_and_warn():
    new = setback.match("rules", "random", deals=3, seed=2, threads=1)
    with pytest.warns(DeprecationWarning) as said:
        old = setback.play_match("rules", "random", pairs=3, seed=2, threads=1)
    assert [str(w.message) for w in said] == [
        "cfrkit.setback.play_match is deprecated; use cfrkit.setback.matches.match",
        "setback.match: pairs= is deprecated; use deals=",
    ]
    assert (old.games, old.a_wins, old.margin) == (new.games, new.a_wins, new.margin)
    with pytest.warns(DeprecationWarning, match="pairs= is deprecated; use deals="):
        t = setback.tournament(["rules", "random"], pairs=2, seed=1, threads=1)
    u = setback.tournament(["rules", "random"], deals=2, seed=1, threads=1)
    assert without_times(t.to_dict()) == without_times(u.to_dict())
    a = schafkopf.match("rules", "random", deals=3, seed=2, threads=1)
    with pytest.warns(DeprecationWarning, match="games= is deprecated; use deals="):
        b = schafkopf.match("rules", "random", games=3, seed=2, threads=1)
    assert (a.games, a.mean_a, a.ci95_a) == (b.games, b.mean_a, b.ci95_a)
    with pytest.warns(DeprecationWarning, match="play_game is deprecated; use cfrkit.setback.play.play_terminal"):
        assert setback.play_game("rules", seed=1, read=lambda prompt: "quit", out=io.StringIO()) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        setback.match("rules", "random", 1, threads=1)  # the new names say nothing


def test_the_commands_table_in_the_docs_is_the_parsers():
    table = _game_cli.flags_table([setback_cli.CLI, schafkopf_cli.CLI, skat_cli.CLI])
    assert table in DOCS.read_text(), "docs/commands.md: regenerate the table with _game_cli.flags_table"

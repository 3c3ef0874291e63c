"""``cfrkit schafkopf``: match, tournament (--json), play in the terminal, errors."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest
from cfrkit import schafkopf
from conftest import scripted_play


def cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "schafkopf", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_match_json_last_line():
    r = cli("match", "--a", "rules", "--b", "random-coward", "--deals", "500", "--seed", "2", "--json")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert record["command"] == "match" and (record["a"], record["b"]) == ("rules", "random-coward")
    assert (record["games"], record["deals"]) == (1000, 500)
    assert set(record) >= {"mean_a", "ci95_a", "mean_b", "ci95_b", "diff", "ci95_diff", "breakdown_a"}
    direct = schafkopf.match("rules", "random-coward", deals=500, seed=2)
    assert record["mean_a"] == direct.mean_a and record["ci95_a"] == direct.ci95_a
    assert record["diff"] == direct.diff and record["breakdown_b"] == direct.breakdown_b
    assert "cents per game" in r.stdout and "sauspiel" in r.stdout


def test_match_checkpoint_resumes(tmp_path):
    path = tmp_path / "m.json"
    first = cli("match", "--a", "rules", "--b", "random", "--deals", "300", "--checkpoint", str(path), "--json")
    more = cli("match", "--a", "rules", "--b", "random", "--deals", "500", "--checkpoint", str(path), "--json")
    assert first.returncode == 0 and more.returncode == 0, first.stderr + more.stderr
    record = json.loads(more.stdout.strip().splitlines()[-1])
    direct = schafkopf.match("rules", "random", deals=500)
    assert record["games"] == 1000 and record["mean_a"] == pytest.approx(direct.mean_a)
    assert json.loads(path.read_text())["done"] == 500


def test_tournament_json_and_threads():
    args = ("tournament", "--agents", "rules", "random", "random-coward", "--deals", "300", "--seed", "4", "--json")
    one = cli(*args, "--threads", "1")
    two = cli(*args, "--threads", "2", "--protocol", "schafkopfrl")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a = json.loads(one.stdout.strip().splitlines()[-1])
    b = json.loads(two.stdout.strip().splitlines()[-1])
    assert [p["a"] + "/" + p["b"] for p in a["pairs"]] == [
        "rules/random",
        "rules/random-coward",
        "random/random-coward",
    ]
    for p, q in zip(a["pairs"], b["pairs"]):
        assert set(p) >= {"a", "b", "games", "mean_a", "ci95_a", "diff", "ci95_diff"}
        timing = ("seconds", "threads", "games_per_second")
        assert {k: v for k, v in p.items() if k not in timing} == {k: v for k, v in q.items() if k not in timing}
        assert p["games"] == 600
    assert a["agents"] == ["rules", "random", "random-coward"] and "rules" in one.stdout.splitlines()[1]
    rot = cli("tournament", "--agents", "random", "rules", "--deals", "50", "--protocol", "rotation", "--json")
    assert json.loads(rot.stdout.strip().splitlines()[-1])["pairs"][0]["games"] == 300


def test_selfplay_logs_one_game_per_deal_and_resumes(tmp_path):
    """``selfplay``: the agent in all four seats, one game per deal (game i = deal i), a
    checkpointed run resuming to the bytes of an unbroken one; the log trains a policy."""
    from cfrkit import learn
    from cfrkit.logs import read_log

    whole, parts, ck = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl", tmp_path / "c.json"
    r = cli("selfplay", "--agent", "rules", "--deals", "400", "--seed", "6", "--log", str(whole), "--json")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert (record["command"], record["agent"], record["games"], record["deals"]) == ("selfplay", "rules", 400, 400)
    assert record["unit"] == "cents per game" and record["per_game"] == pytest.approx(0.0, abs=1e-9)
    log = read_log(whole)
    assert log.header["settings"] == "rules=schafkopfrl,protocol=alone" and log.header["agents"] == ["rules"]
    assert [(g["game"], g["deal"], g["seating"]) for g in log.games] == [(i, i, [0, 0, 0, 0]) for i in range(400)]
    schafkopf.selfplay("rules", 150, seed=6, log=parts, checkpoint=ck, threads=1)
    again = schafkopf.selfplay("rules", 400, seed=6, log=parts, checkpoint=ck, threads=2)
    assert parts.read_bytes() == whole.read_bytes() and again.games == 400
    policy = learn.imitate("schafkopf", whole, tmp_path / "p", hidden=[32], epochs=2, seed=1)
    assert policy.kinds["cards-sauspiel-defender"]["train_samples"] > 1000


def test_tournament_checkpoint_resumes(tmp_path):
    """``tournament --checkpoint``: stopped and resumed, the figures and log of an unbroken one."""
    args = ("tournament", "--agents", "rules", "random", "random-coward", "--deals", "200", "--seed", "4", "--json")
    whole = cli(*args, "--log", str(tmp_path / "whole.jsonl"))
    path, log = tmp_path / "t.json", tmp_path / "parts.jsonl"
    with pytest.raises(KeyboardInterrupt):
        schafkopf.tournament(
            ["rules", "random", "random-coward"], deals=200, seed=4, log=log, checkpoint=path,
            progress=lambda done, total: (_ for _ in ()).throw(KeyboardInterrupt) if done > 500 else None,
        )  # fmt: skip
    again = cli(*args, "--log", str(log), "--checkpoint", str(path))
    assert whole.returncode == 0 and again.returncode == 0, whole.stderr + again.stderr
    a, b = (json.loads(r.stdout.strip().splitlines()[-1]) for r in (whole, again))
    timing = ("seconds", "threads", "games_per_second")
    pairs = [[{k: v for k, v in p.items() if k not in timing} for p in r["pairs"]] for r in (a, b)]
    assert pairs[0] == pairs[1] and (a["cells"], a["row_means"]) == (b["cells"], b["row_means"])
    assert log.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    ray_too = cli(*args, "--checkpoint", str(path), "--ray", "auto")
    assert ray_too.returncode == 2 and "checkpoint" in ray_too.stderr and "Traceback" not in ray_too.stderr, (
        ray_too.stderr
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (("match", "--a", "rules", "--b", "nobody"), "nobody"),
        (("match", "--a", "rules"), "--b"),
        (("match", "--a", "rules", "--b", "random", "--deals", "0"), "--deals"),
        (("match", "--a", "rules", "--b", "random", "--deals", "x"), "--deals"),
        (("match", "--a", "rules", "--b", "random", "--seed", "-2"), "--seed"),
        (("match", "--a", "rules", "--b", "random", "--protocol", "swiss"), "schafkopfrl or rotation"),
        (("match", "--a", "rules", "--b", "random", "--rules", "bavarian"), "schafkopfrl or standard"),
        (("tournament", "--agents", "rules", "--deals", "5"), "two or more"),
        (("match", "--a", "rules", "--b", "random", "--checkpoint", "/"), "is a directory"),
        (("match", "--a", "rules", "--b", "random", "--checkpoint", "/nonexistent/dir/m.json"), "cannot be written"),
        (("match", "--a", "rules", "--b", "random", "--checkpoint", sys.executable), "not a readable cfrkit match"),
        (("selfplay", "--agent", "rules", "--deals", "5"), "--log"),
        (("selfplay", "--agent", "rules", "--log", "/nonexistent/dir/x.jsonl"), "/nonexistent/dir/x.jsonl"),
        (("selfplay", "--agent", "pimc:values=all", "--log", "x.jsonl"), "exact|none"),
        (("play", "--bots", "nobody"), "nobody"),
        (("play", "--seat", "4"), "seat"),
        (("dance",), "invalid choice"),
        ((), "required"),
    ],
)
def test_errors_are_one_line_and_status_2(args, words):
    r = cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr


def test_play_a_whole_game_in_the_terminal():
    from cfrkit.schafkopf.play import card_order

    # Replay the game the CLI will play (same deal, bots' choices from the same seed) to find a
    # card the person may not play, then answer: a bad word, that card, and then legal moves.
    seed, seat = 1, 0
    bot = schafkopf.agent("rules")
    g = schafkopf.Game.random(seed=seed)
    answers, reasons = [], []
    while not g.finished:
        if g.player != seat:
            g.agent_move(bot, seed=seed)
            continue
        legal = g.legal_actions()
        if g.phase == "tricks":
            legal = sorted(legal, key=card_order(g.contract))  # the menu follows the hand's order
        if g.phase == "tricks" and not reasons:
            bad = next((c for c in g.view(seat).hand if c not in legal), None)
            if bad is not None:
                answers.append(bad)
                reasons.append(g.why_illegal(bad))
        elif g.phase == "bidding":
            answers.append("dance")
        answers.append("1")
        g.play(legal[0])
    assert reasons, "the person had to follow suit at least once in this deal"
    r = cli("play", "--bots", "rules", "--seed", str(seed), stdin="\n".join(answers) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert f"rejected: {reasons[0]}" in out and "dance" in out
    assert any(w in reasons[0] for w in ("must follow", "must play the called Ace", "may not"))
    assert "-- finished --" in out and f"payments in cents: {g.returns()}" in out


def test_play_stops_cleanly_when_input_ends():
    r = cli("play", "--bots", "random", "--seed", "2", stdin="")
    assert r.returncode == 2 and "input" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def play_scripted(answer, **kwargs) -> tuple[str, list[str]]:
    """Plays ``cfrkit schafkopf play`` in-process, ``answer(prompt)`` giving each line."""
    from cfrkit.schafkopf.play import play_terminal

    play = functools.partial(play_terminal, "rules")
    out, prompts, status = scripted_play(play, lambda p, _: answer(p), 100, **kwargs)
    assert status == 0
    return out, prompts


# The normal game's order, high to low, written from the rules (docs/rules/schafkopf.md §5).
NORMAL_ORDER = "EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7 EA E10 EK E9 E8 E7 GA G10 GK G9 G8 G7 SA S10 SK S9 S8 S7"


def test_schafkopf_hands_and_card_menus_are_in_trump_order():
    from cfrkit.schafkopf.play import card_order

    out, prompts = play_scripted(lambda p: "1", seed=1)
    first = out.splitlines()[1].split("Your hand: ")[1].split("  (")[0].split()
    order = NORMAL_ORDER.split()
    assert first == sorted(first, key=order.index) and first[0] == "SO", first
    hands = [line.split("your hand: ")[1] for line in out.splitlines() if "your hand: " in line]
    cards = [p for p in prompts if p.startswith("Your move") and "1) no" not in p and "1) pass" not in p]
    assert len(hands) == len(cards) == 8
    for hand, prompt in zip(hands, cards):
        menu = [e.split(") ")[1] for e in prompt.split("[")[1].split("]")[0].split("  ")]
        assert menu == [c for c in hand.split() if c in menu], (hand, prompt)
    hand = ["S7", "GA", "HU", "EO", "H10", "SO", "EK", "GU", "GO", "S10"]
    assert sorted(hand, key=card_order("sauspiel:E")) == ["EO", "GO", "SO", "GU", "HU", "H10", "EK", "GA", "S10", "S7"]
    assert sorted(hand, key=card_order("solo:S")) == ["EO", "GO", "SO", "GU", "HU", "S10", "S7", "EK", "GA", "H10"]
    assert sorted(hand, key=card_order("wenz")) == ["GU", "HU", "EK", "EO", "GA", "GO", "H10", "S10", "SO", "S7"]


@pytest.mark.parametrize("rules", ["schafkopfrl", "standard"])
def test_schafkopf_all_pass_asks_nothing_more(rules):
    """Seed 103: everyone passes. The person passes (``1``) and is asked nothing more: no contra
    round, no play-out; the deal is passed in and nobody pays."""
    out, prompts = play_scripted(lambda p: "1", seed=103, seat=1, rules=rules)
    assert len(prompts) == 1 and "contra" not in out, out
    assert "everyone passed: the deal is passed in and nobody pays." in out
    assert out.rstrip().endswith("payments in cents: [0, 0, 0, 0] (you: +0)")


def test_schafkopf_result_says_the_61_points_needed():
    out, _ = play_scripted(lambda p: "1", seed=1)
    assert "the player team (seat 1 and 3) won with 92 card points (61 needed); Schneider" in out

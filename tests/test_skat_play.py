"""Skat play: the environment, features and action ids, agents over many games, matches
(reproducible for 1 and 2 threads, six seatings, the breakdown), tournaments, and the
``cfrkit skat`` CLI (JSON shape, checkpoints, errors, a game in the terminal)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from cfrkit import InvalidArgumentError, schafkopf, skat
from conftest import aec_game, scripted_play


def cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "skat", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_action_ids_cover_every_action_once():
    names = skat.ACTION_NAMES
    assert len(names) == skat.NUM_ACTIONS == 624 and len(set(names)) == 624
    assert names[:3] == ("pass", "hold", "18") and names[64] == "264"
    assert names[65:67] == ("hand", "pickup")
    assert names[67] == "H7 D7" and names[562] == "CA SA"
    assert names[563:570] == skat.CONTRACTS[:7] and names[591] == "null ouvert hand"
    assert names[592] == "D7" and names[623] == "CA"
    layout = skat.FEATURE_LAYOUT
    assert layout[0][:2] == ("phase", 0) and layout[-1][1] + layout[-1][2] == skat.FEATURES


@pytest.mark.parametrize("seed", [0, 7])
def test_random_episodes_with_masks(seed):
    env = skat.Env()
    rng = np.random.default_rng(seed)
    for _ in range(40):
        obs, rewards, done = env.reset() if _ else env.reset(seed=seed)
        assert rewards == [0, 0, 0] and not done
        steps = 0
        while not done:
            mask, legal = obs["mask"], obs["legal_actions"]
            assert obs["features"].shape == (skat.FEATURES,) and obs["features"].dtype == np.float32
            assert mask.shape == (skat.NUM_ACTIONS,) and mask.dtype == np.bool_
            assert legal == np.flatnonzero(mask).tolist() and legal
            assert sorted(skat.ACTION_NAMES[i] for i in legal) == sorted(env.game.legal_actions())
            # Only the seat to act has a mask.
            other = (obs["player"] + 1) % 3
            assert not env.observe(other)["mask"].any()
            obs, rewards, done = env.step(int(rng.choice(legal)))
            steps += 1
        assert obs["player"] is None and rewards == env.game.returns()
        assert steps == len(env.game.history)


def test_reset_reproduces_deals_and_names_step():
    env = skat.Env(seed=3)
    first = env.reset()[0]["features"]
    env.reset()
    again = env.reset(seed=3)[0]["features"]
    assert np.array_equal(first, again)
    assert env.game.dealt_hands == skat.Game.random(seed=3, index=0).dealt_hands
    obs, _, _ = env.step("pass")
    assert env.game.history == [(1, "pass")] and obs["player"] == 2


def test_illegal_steps_and_unreset_env():
    with pytest.raises(InvalidArgumentError, match="reset"):
        skat.Env().step(0)
    env = skat.Env()
    env.reset(seed=1)
    before = env.game.copy()
    for bad in (1, 65, 623, 624, -1, "hand"):
        with pytest.raises(InvalidArgumentError):
            env.step(bad)
    assert env.game == before
    with pytest.raises(InvalidArgumentError, match="seed"):
        skat.Env(seed=-1)
    with pytest.raises(InvalidArgumentError, match="seat"):
        env.observe(3)


def test_features_of_the_first_position():
    g = skat.Game.random(seed=2)
    f = dict((name, (o, n)) for name, o, n in skat.FEATURE_LAYOUT)
    x = g.features(1)
    o, n = f["phase"]
    assert x[o : o + n].tolist() == [1, 0, 0, 0, 0, 0]
    o, n = f["seat"]
    assert x[o : o + n].tolist() == [0, 1, 0]
    o, n = f["hand"]
    hand = {skat.ACTION_NAMES[592 + i] for i in np.flatnonzero(x[o : o + n])}
    assert hand == set(g.hands[1])
    g.play(18)
    o, n = f["named"]
    # Seat 0's view: Mittelhand (relative seat 1) named 18.
    assert g.features(0)[o + 1] == pytest.approx(18 / 264)


def effective_suit(card: str, contract: str) -> int:
    """Suit slot of ``card`` in ``contract``, written from the rules: D H S C are 0-3 (the card
    ids' suit order); Jacks are trumps, slot 4 in a grand, the trump suit's slot in a suit game."""
    suits = {"D": 0, "H": 1, "S": 2, "C": 3}
    kind = contract.split()[0]
    if card[1] == "J" and kind != "null":
        return 4 if kind == "grand" else suits[{"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}[kind]]
    return suits[card[0]]


def test_trick_features_match_the_tricks_played():
    """The led, off-suit, void and legal blocks, computed here from the tricks, on every card
    decision of games of random play, five of each game type (suit, grand, null)."""
    layout = dict((name, (o, n)) for name, o, n in skat.FEATURE_LAYOUT)
    ids = {name: i for i, name in enumerate(skat.ACTION_NAMES[592:])}
    block = lambda x, name, width: x[layout[name][0] : sum(layout[name])].reshape(3, width)  # noqa: E731
    kinds = {"suit": 0, "grand": 0, "null": 0}
    for i in range(3000):
        if min(kinds.values()) == 5:
            break
        g = skat.play_game(("random",) * 3, seed=5, index=i)
        contract = g.contract or ""
        kind = contract.split()[0] if contract.split()[:1] in (["grand"], ["null"]) else "suit"
        if g.thrown_in or kinds[kind] == 5:
            continue
        kinds[kind] += 1
        replay = skat.Game(hands=[" ".join(h) for h in g.dealt_hands], skat=" ".join(g.skat))
        for _seat, action in g.history:
            if replay.phase == "tricks":
                me = replay.player
                x = replay.features(me)
                led, off, void = np.zeros((3, 32)), np.zeros((3, 32)), np.zeros((3, 5))
                for leader, trick in zip(replay.trick_leaders, replay.tricks):
                    suit = effective_suit(trick[0], contract) if trick else None
                    for j, card in enumerate(trick):
                        rel = (leader + j - me) % 3
                        if j == 0:
                            led[rel, ids[card]] = 1
                        elif effective_suit(card, contract) != suit:
                            off[rel, ids[card]] = 1
                            void[rel, suit] = 1
                assert np.array_equal(block(x, "led", 32), led)
                assert np.array_equal(block(x, "off_suit", 32), off)
                assert np.array_equal(block(x, "voids", 5), void)
                legal = {ids[c] for c in replay.legal_actions()}
                assert set(np.flatnonzero(x[layout["legal"][0] : sum(layout["legal"])])) == legal
                assert not replay.features((me + 1) % 3)[layout["legal"][0] : sum(layout["legal"])].any()
            replay.play(action)
    assert kinds == {"suit": 5, "grand": 5, "null": 5}, kinds


@pytest.mark.parametrize("agents", [("rules",) * 3, ("random",) * 3, ("rules", "random", "rules")])
def test_agents_play_whole_games_legally(agents):
    for i in range(60):
        g = skat.play_game(agents, seed=11, index=i)
        assert g.finished and sum(1 for _ in g.history) > 0
        r = g.result()
        assert g.returns() == r["tp"]


def test_agent_move_and_specs():
    g = skat.Game.random(seed=4)
    bot = skat.agent("rules")
    while not g.finished:
        seat, name = g.agent_move(bot, seed=4)
        assert g.history[-1] == (seat, name)
    for bad in ("nobody", "rules:x", "pimc9"):
        with pytest.raises(InvalidArgumentError, match=r"random, rules, pimc\[.*\], net:DIR.* or hybrid:net=DIR"):
            skat.agent(bad)
    with pytest.raises(InvalidArgumentError, match="worlds"):
        skat.agent("pimc:worlds=0")
    with pytest.raises(InvalidArgumentError):
        skat.agent(3)


def test_match_is_reproducible_for_1_and_2_threads_and_has_six_seatings():
    one = skat.match("rules", "random", deals=200, seed=5, threads=1)
    two = skat.match("rules", "random", deals=200, seed=5, threads=2)
    for k in ("mean_a", "mean_b", "diff", "ci95_diff", "breakdown_a", "breakdown_b"):
        assert getattr(one, k) == getattr(two, k), k
    assert (one.deals, one.games) == (200, 1200)
    assert set(one.breakdown_a) == set(skat.CATEGORIES) == {"grand", "suit", "null", "null_ouvert", "defender", "pass"}
    assert sum(one.breakdown_a.values()) == pytest.approx(100) == sum(one.breakdown_b.values())
    # rules beats random clearly (diff = A - B with its interval over deals).
    assert one.diff - one.ci95_diff > 100 and one.diff == pytest.approx(one.mean_a - one.mean_b)
    other = skat.match("rules", "random", deals=200, seed=6, threads=2)
    assert other.diff != one.diff
    # The same program on both sides gets the same TP/G.
    same = skat.match("rules", "rules", deals=50, seed=5)
    assert same.mean_a == pytest.approx(same.mean_b) and same.breakdown_a == same.breakdown_b
    # The breakdown table names each program by its whole spec, so long specs stay apart.
    long = dataclasses.replace(same, a="pimc:worlds=160,bidding=search", b="pimc:worlds=32")
    rows = long.table().splitlines()
    assert rows[1].startswith("pimc:worlds=160,bidding=search ") and rows[2].startswith("pimc:worlds=32 ")


def test_match_checkpoint_resumes(tmp_path):
    path = tmp_path / "m.json"
    part = skat.match("rules", "random", deals=100, seed=3, checkpoint=path)
    whole = skat.match("rules", "random", deals=300, seed=3, checkpoint=path)
    direct = skat.match("rules", "random", deals=300, seed=3)
    assert part.deals == 100 and whole.deals == 300 and whole.games == 1800
    for k in ("mean_a", "mean_b", "diff", "ci95_diff"):
        assert getattr(whole, k) == pytest.approx(getattr(direct, k)), k
    for k in skat.CATEGORIES:
        assert whole.breakdown_a[k] == pytest.approx(direct.breakdown_a[k])
    with pytest.raises(InvalidArgumentError, match="seed"):
        skat.match("rules", "random", deals=300, seed=4, checkpoint=path)


def test_shared_decisions_tie_a_program_with_itself_and_resume_only_shared(tmp_path):
    """With ``share_decisions`` a deal's games share their decisions: a random program against
    itself ties every deal (without, its games differ); the option is part of a checkpoint's
    settings; the CLI's ``--share-decisions`` plays the same match; a tournament shares too."""
    shared = skat.match("random", "random", deals=60, seed=2, share_decisions=True)
    assert shared.diff == 0 and shared.ci95_diff == 0 and shared.breakdown_a == shared.breakdown_b
    assert skat.match("random", "random", deals=60, seed=2).diff != 0
    path = tmp_path / "m.json"
    part = skat.match("rules", "random", deals=20, seed=2, share_decisions=True, checkpoint=path)
    assert json.loads(path.read_text())["settings"]["share_decisions"] is True
    with pytest.raises(InvalidArgumentError, match="share_decisions"):
        skat.match("rules", "random", deals=40, seed=2, checkpoint=path)
    out = cli("match", "--a", "rules", "--b", "random", "--deals", "40", "--seed", "2", "--share-decisions",
              "--checkpoint", str(path), "--json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    whole = skat.match("rules", "random", deals=40, seed=2, share_decisions=True)
    assert json.loads(out.stdout.splitlines()[-1])["diff"] == pytest.approx(whole.diff)
    assert part.deals == 20 and whole.diff != skat.match("rules", "random", deals=40, seed=2).diff
    assert skat.match("random", "random", deals=30, seed=2, share_decisions=True).diff == 0
    with pytest.raises(InvalidArgumentError, match="share_decisions"):
        skat.match("rules", "random", deals=5, share_decisions="yes")


def test_sigterm_stops_a_checkpointed_match_like_ctrl_c(tmp_path):
    """A background job ignores SIGINT; SIGTERM stops a match as Ctrl-C does: one line, exit
    130, the checkpoint of the parts done kept and resumable."""
    path = tmp_path / "m.json"
    p = subprocess.Popen(
        [sys.executable, "-m", "cfrkit.cli", "skat", "match", "--a", "pimc:worlds=2", "--b", "rules"]
        + ["--deals", "100000", "--threads", "1", "--checkpoint", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    # The file is written at the start (no deals) and after each part, atomically.
    while not path.exists() or json.loads(path.read_text())["done"] == 0:
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and err.strip().splitlines()[-1] == "cfrkit skat: interrupted", err
    done = json.loads(path.read_text())["done"]
    assert 8 <= done < 100000
    resumed = cli("match", "--a", "pimc:worlds=2", "--b", "rules", "--deals", str(done + 2), "--checkpoint", str(path))
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(path.read_text())["done"] == done + 2


def test_selfplay_plays_each_deal_once_and_logs_data_to_learn_from(tmp_path):
    """Self-play: the agent in every seat, one game per deal, game i of the log being deal i;
    a checkpointed run resumes to the bytes of an unbroken one; PIMC with ``values=none``
    plays the same cards as with its means logged, and logs none."""
    from cfrkit.logs import read_log

    whole = tmp_path / "whole.jsonl"
    r = skat.selfplay("rules", deals=120, seed=4, log=whole, threads=2)
    assert (r.agent, r.deals, r.games) == ("rules", 120, 120)
    assert sum(r.breakdown.values()) == pytest.approx(100.0) and r.ci95 > 0
    log = read_log(whole)
    assert log.header["agents"] == ["rules"] and log.header["settings"] == "protocol=alone"
    assert [(g["game"], g["deal"]) for g in log.games] == [(i, i) for i in range(120)]
    assert all(g["seating"] == [0, 0, 0] for g in log.games)
    # The same deal as the match plays, in the seat order of play_game.
    first = skat.play_game(["rules"] * 3, seed=4, index=7)
    assert log.games[7]["returns"] == list(first.returns())
    parts = tmp_path / "parts.jsonl"
    skat.selfplay("rules", deals=50, seed=4, log=parts, checkpoint=tmp_path / "c.json", threads=1)
    resumed = skat.selfplay("rules", deals=120, seed=4, log=parts, checkpoint=tmp_path / "c.json", threads=2)
    assert parts.read_bytes() == whole.read_bytes()
    assert (resumed.games, resumed.per_game, r.unit) == (120, pytest.approx(r.per_game), "TP per game")
    with pytest.raises(InvalidArgumentError, match="seed"):
        skat.selfplay("rules", deals=120, seed=5, log=parts, checkpoint=tmp_path / "c.json")
    exact, quiet = tmp_path / "exact.jsonl", tmp_path / "none.jsonl"
    skat.selfplay("pimc:worlds=3", deals=2, seed=1, log=exact, threads=1)
    skat.selfplay("pimc:worlds=3,values=none", deals=2, seed=1, log=quiet, threads=1)
    with_values, without = read_log(exact).games, read_log(quiet).games
    actions = [[d["action"] for d in g["decisions"]] for g in with_values]
    assert actions == [[d["action"] for d in g["decisions"]] for g in without]
    assert any(d.get("values") for g in with_values for d in g["decisions"])
    assert not any(d.get("values") for g in without for d in g["decisions"])
    assert read_log(quiet).header["agents"] == ["pimc:worlds=3,values=none"]


def test_tournament_checkpoint_resumes_to_the_unbroken_figures_and_log(tmp_path):
    """A checkpointed tournament stopped in its second pair (Ctrl-C: KeyboardInterrupt from the
    progress callback) resumes to the figures and the log bytes of an unbroken one."""
    agents = ["rules", "random", "pimc:worlds=2"]
    whole = skat.tournament(agents, deals=40, seed=3, threads=2, log=tmp_path / "whole.jsonl")
    path, log = tmp_path / "t.json", tmp_path / "parts.jsonl"

    def stop_in_pair_two(done: int, total: int) -> None:
        if done > 40 * 6 + 8 * 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        skat.tournament(agents, deals=40, seed=3, threads=1, log=log, checkpoint=path, progress=stop_in_pair_two)
    saved = json.loads(path.read_text())
    assert saved["format"] == "cfrkit-tournament-checkpoint" and [len(p[3]) for p in saved["pairs"]][0] == 40
    again = skat.tournament(agents, deals=40, seed=3, threads=2, log=log, checkpoint=path)
    assert (again.cells, again.row_means, again.table) == (whole.cells, whole.row_means, whole.table)
    assert [p.diff for p in again.pairs] == [p.diff for p in whole.pairs]
    assert log.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    with pytest.raises(InvalidArgumentError, match="deals=40"):
        skat.tournament(agents, deals=41, seed=3, checkpoint=path)
    with pytest.raises(InvalidArgumentError, match="not a readable cfrkit tournament"):
        skat.tournament(agents, deals=40, seed=3, checkpoint=log)
    saved = json.loads(path.read_text())
    saved["pairs"][0], saved["pairs"][1] = saved["pairs"][1], saved["pairs"][0]
    path.write_text(json.dumps(saved))
    with pytest.raises(InvalidArgumentError, match="pair 0 malformed or out of order"):
        skat.tournament(agents, deals=40, seed=3, checkpoint=path)


def test_tournament_cross_table():
    t = skat.tournament(["rules", "random", "pimc:worlds=2"], deals=40, seed=1, threads=2)
    assert t.names == ["rules", "random", "pimc:worlds=2"] and len(t.pairs) == 3
    m = skat.match("rules", "random", deals=40, seed=1)
    assert t.cells[0][1][0] == pytest.approx(m.mean_a)
    assert "TP per game" in t.table
    with pytest.raises(InvalidArgumentError, match="two or more"):
        skat.tournament(["rules"], deals=5)
    # An agent named twice would play itself and copy a row of the table: refused, in every game.
    with pytest.raises(InvalidArgumentError, match="rules named twice"):
        skat.tournament(["rules", "random", "Rules"], deals=5)
    with pytest.raises(InvalidArgumentError, match="rules named twice"):
        schafkopf.tournament(["rules", "rules"], deals=5)
    bad = cli("tournament", "--agents", "rules", "rules", "--deals", "5")
    assert bad.returncode == 2 and "named twice" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "kwargs, word",
    [({"deals": 0}, "deals"), ({"deals": -3}, "deals"), ({"seed": -1}, "seed"), ({"threads": -1}, "threads")],
)
def test_match_argument_errors(kwargs, word):
    with pytest.raises(InvalidArgumentError, match=word):
        skat.match("rules", "random", **kwargs)


def test_cli_match_json_last_line():
    r = cli("match", "--a", "rules", "--b", "random", "--deals", "150", "--seed", "2", "--json", "--threads", "2")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(record) >= {"deals", "mean_a", "mean_b", "diff", "ci95_diff", "breakdown_a", "breakdown_b"}
    direct = skat.match("rules", "random", deals=150, seed=2, threads=1)
    assert record["deals"] == 150 and record["diff"] == direct.diff and record["ci95_diff"] == direct.ci95_diff
    assert record["breakdown_a"] == direct.breakdown_a
    assert "defender" in r.stdout and "diff" in r.stdout


def test_cli_tournament_json():
    r = cli("tournament", "--agents", "rules", "random", "--deals", "30", "--json")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert record["agents"] == ["rules", "random"] and record["pairs"][0]["games"] == 180


@pytest.mark.parametrize(
    "args, words",
    [
        (("match", "--a", "rules", "--b", "nobody"), "nobody"),
        (("match", "--a", "rules"), "--b"),
        (("match", "--a", "rules", "--b", "random", "--deals", "0"), "--deals"),
        (("match", "--a", "rules", "--b", "random", "--deals", "-5"), "--deals"),
        (("match", "--a", "rules", "--b", "random", "--deals", "99999999999999999999999"), "--deals"),
        (("match", "--a", "rules", "--b", "random", "--deals", "2000000000000"), "deals"),
        (("match", "--a", "rules", "--b", "random", "--seed", "-2"), "--seed"),
        (("match", "--a", "rules", "--b", "random", "--threads", "-1"), "--threads"),
        (("match", "--a", "rules", "--b", "random", "--checkpoint", "/"), "is a directory"),
        (("tournament", "--agents", "rules", "--deals", "5"), "two or more"),
        (("tournament", "--agents", "rules", "random", "--checkpoint", "/"), "is a directory"),
        (("selfplay", "--agent", "rules", "--deals", "5"), "--log"),
        (("selfplay", "--agent", "pimc:values=some", "--log", "/tmp/x.jsonl"), "values"),
        (("selfplay", "--agent", "rules", "--deals", "0", "--log", "/tmp/x.jsonl"), "--deals"),
        (("selfplay", "--agent", "rules", "--log", "/nonexistent/dir/x.jsonl"), "/nonexistent/dir/x.jsonl"),
        (("play", "--bots", "nobody"), "nobody"),
        (("play", "--seat", "3"), "seat"),
        (("play", "--seat", "-1"), "seat"),
        (("dance",), "invalid choice"),
    ],
)
def test_cli_errors_are_one_line_and_status_2(args, words):
    r = cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_play_a_whole_game_in_the_terminal():
    # Replay the game the CLI plays (same deal, the bots' choices from the same seed), answering
    # a bad word first, then an illegal card once, then the first legal action.
    seed, seat = 3, 0
    bot = skat.agent("rules")
    g = skat.Game.random(seed=seed)
    answers, reasons = ["dance"], []
    while not g.finished:
        if g.player != seat:
            g.agent_move(bot, seed=seed)
            continue
        legal = g.legal_actions()
        if g.phase == "tricks" and not reasons:
            bad = next((c for c in g.hands[seat] if c not in legal), None)
            if bad is not None:
                answers.append(bad)
                reasons.append(g.why_illegal(bad))
        answers.append(legal[0])
        g.play(legal[0])
    r = cli("play", "--bots", "rules", "--seed", str(seed), stdin="\n".join(answers) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "rejected:" in out and "-- finished --" in out
    assert f"Seeger-Fabian points: {g.returns()}" in out
    if reasons:
        assert "must follow" in reasons[0] and "must follow" in out


def test_play_stops_cleanly_when_input_ends():
    r = cli("play", "--bots", "random", "--seed", "2", "--seat", "1", stdin="")
    assert r.returncode == 2 and "input" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from cfrkit.skat.pettingzoo import env, raw_env
    from pettingzoo.test import api_test

    api_test(env(), num_cycles=300)
    api_test(raw_env(), num_cycles=300)
    total, steps = aec_game(env(), 3, lambda legal: legal[-1])
    # The same game played directly: every seat's reward is its Seeger-Fabian points.
    game = skat.Game.random(seed=3)
    while not game.finished:
        game.step_id(game.legal_action_ids()[-1])
    assert steps == len(game.history)
    assert [total[f"player_{s}"] for s in range(3)] == game.returns()


def test_pimc_plays_whole_games_the_same_on_1_and_2_threads():
    one = skat.match("pimc:worlds=6", "rules", deals=3, seed=2, threads=1)
    two = skat.match("pimc:worlds=6", "rules", deals=3, seed=2, threads=2)
    assert (one.deals, one.games) == (3, 18)
    for k in ("mean_a", "mean_b", "diff", "breakdown_a"):
        assert getattr(one, k) == getattr(two, k), k


def test_checkpoint_parts_keep_every_thread_busy():
    """Parts double while quick and hold at least two deals a thread, so a match that plays a
    deal's games together (shared decisions) keeps many threads busy on slow deals."""
    from cfrkit._checkpoint import PART_SECONDS, _next_part

    assert _next_part(8, 1.0, 2) == 16 and _next_part(8, PART_SECONDS + 1, 2) == 8
    assert _next_part(8, PART_SECONDS + 1, 16) == 32 and _next_part(64, PART_SECONDS + 1, 16) == 64


# Terminal play (``cfrkit skat play``) as a person sees it, and what the three games share
# (cfrkit._terminal): numbers choose entries, quit, the end of input, Ctrl-C.


def menu_entries(prompt: str) -> list[str]:
    """The entries of the menu in a prompt ``… [1) a  2) b]: `` or ``… [pass, 18, 20]: ``."""
    body = re.search(r"\[(.*)\]: $", prompt).group(1)
    if re.match(r"1\) ", body):
        return [e.strip() for e in re.split(r"\s*\d+\) ", body)[1:]]
    return [e.strip() for e in body.split(" (?")[0].replace("…", "").split(",") if e.strip()]


def play_scripted(answer, **kwargs) -> tuple[str, list[str]]:
    """Plays ``cfrkit skat play`` in-process, ``answer(prompt)`` giving each line; returns what
    was said and the prompts."""
    from cfrkit.skat.play import play_terminal

    out, prompts, status = scripted_play(functools.partial(play_terminal, "rules"), lambda p, _: answer(p), **kwargs)
    assert status == 0
    return out, prompts


def declare_all_the_way(prompt: str) -> str:
    """Holds and bids on (by the menu's numbers and the bid values shown), picks up the skat,
    puts away cards 1 and 2 of the list, and plays the first entry of every menu."""
    entries = menu_entries(prompt)
    if prompt.startswith("Your bid"):
        return "2" if entries == ["pass", "hold"] else entries[1]
    if entries == ["hand", "pickup"]:
        return "2"
    if prompt.startswith("Put two cards away"):
        return "1 2"
    return "1"


def test_skat_menus_take_their_numbers_in_every_phase_and_show_every_discard():
    """The hearer's numbered ``1) pass 2) hold`` takes ``2``; the bidder's menu shows bid values
    (typing one bids it); the discard prompt lists the twelve cards (hand order) and takes two
    numbers; the contract and card menus take numbers; the result says what was needed."""
    out, prompts = play_scripted(declare_all_the_way, seat=0, seed=1, index=0)
    assert "rejected" not in out, out
    bids = [p for p in prompts if p.startswith("Your bid")]
    assert any(menu_entries(p) == ["pass", "hold"] for p in bids)
    assert all(menu_entries(p)[0] == "pass" for p in bids)
    discard = [p for p in prompts if p.startswith("Put two cards away")]
    assert len(discard) == 1 and "SA ST" in discard[0] and "3 7" in discard[0]
    twelve = menu_entries(discard[0])
    assert len(twelve) == 12 and len(set(twelve)) == 12
    assert f"put away: {twelve[0]} {twelve[1]}" in out or f"put away: {twelve[1]} {twelve[0]}" in out
    assert "seat 0 " in out and "card points needed" in out.split("-- finished --")[1]
    declare = [p for p in prompts if "grand" in p]
    assert declare and menu_entries(declare[0])[0] in skat.CONTRACTS


def test_skat_card_menus_follow_the_hand_shown():
    from cfrkit.skat.play import card_order

    out, prompts = play_scripted(lambda p: "pass" if p.startswith("Your bid") else "1", seat=1, seed=3)
    hands = [line.split("your hand: ")[1] for line in out.splitlines() if "your hand: " in line]
    card_prompts = [p for p in prompts if p.startswith("Your move")]
    assert len(hands) == len(card_prompts) > 3
    for hand, prompt in zip(hands, card_prompts):
        order = hand.split()
        menu = menu_entries(prompt)
        assert menu == [c for c in order if c in menu], (hand, prompt)
    # Hands in a suit game: Jacks, then the trump suit, then the other suits; null: no Jacks first.
    cards = ["D7", "CA", "HJ", "ST", "DA", "CJ", "H9", "DJ"]
    assert sorted(cards, key=card_order("diamonds")) == ["CJ", "HJ", "DJ", "DA", "D7", "CA", "ST", "H9"]
    assert sorted(cards, key=card_order("null")) == ["CA", "CJ", "ST", "HJ", "H9", "DA", "DJ", "D7"]
    assert sorted(cards, key=card_order(None)) == ["CJ", "HJ", "DJ", "CA", "ST", "H9", "DA", "D7"]


def test_skat_results_say_what_the_contract_needed():
    from cfrkit.skat.play import result_line

    base = {"declarer": 1, "bid": 18, "declarer_tricks": 4, "value": 36, "list_score": 36}
    won = result_line({**base, "contract": "clubs", "declarer_points": 61, "won": True})
    assert "won clubs with 61 card points and 4 tricks (61 card points needed)" in won
    lost = result_line({**base, "contract": "grand hand schneider", "declarer_points": 85, "won": False})
    assert "(90 card points needed)" in lost and "overbid" not in lost
    overbid = result_line({**base, "contract": "spades", "declarer_points": 70, "won": False, "bid": 48})
    assert "(61 card points needed), overbid: the game was worth less than the bid of 48" in overbid
    null = result_line({**base, "contract": "null", "declarer_points": 0, "declarer_tricks": 1, "won": False})
    assert "1 trick (null is won by taking no trick)" in null
    assert "all ten tricks needed" in result_line({**base, "contract": "clubs ouvert hand", "won": True,
                                                   "declarer_points": 120, "declarer_tricks": 10})  # fmt: skip


def test_terminal_menus_resolve_numbers_and_list_bid_values():
    from cfrkit._terminal import menu_text, resolve

    assert menu_text(["pass", "hold"]) == "1) pass  2) hold"
    assert resolve("2", ["pass", "hold"]) == ("hold", None)
    assert resolve("1 3", ["SA", "ST", "SK"]) == ("SA SK", None)
    assert "no entry 3" in resolve("3", ["pass", "hold"])[1]
    values = ["pass"] + [str(v) for v in (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 264)]
    assert resolve("18", values) == ("18", None) and "1)" not in menu_text(values)
    assert menu_text(values).endswith("… 264 (? lists all)") and menu_text(values, whole=True).endswith("40, 264")


PLAY_COMMANDS = {
    "skat": ["skat", "play", "--seed", "3", "--seat", "1"],
    "schafkopf": ["schafkopf", "play", "--seed", "1"],
    "setback": ["setback", "play", "--seed", "7"],
}


@pytest.mark.parametrize("game", sorted(PLAY_COMMANDS))
def test_quit_and_end_of_input_end_every_game_with_one_line(game):
    """``quit`` (after a first answer) ends the game: one line saying where, status 0; the end
    of input: one error line on stderr saying the game was abandoned, status 2."""

    def run(stdin: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "cfrkit.cli", *PLAY_COMMANDS[game]]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=300)

    first = "pass" if game != "schafkopf" else "1"
    quit_ = run(f"{first}\nquit\n")
    assert quit_.returncode == 0 and quit_.stderr == "", quit_.stderr
    # (piped input is not echoed: the line follows the prompt)
    last = quit_.stdout.strip().splitlines()[-1].split("]: ")[-1]
    assert last.startswith("game abandoned ") and last.endswith("."), quit_.stdout[-500:]
    ended = run(f"{first}\n")
    lines = ended.stderr.strip().splitlines()
    assert ended.returncode == 2 and len(lines) == 1, ended.stderr
    assert "input ended: game abandoned " in lines[0] and "Traceback" not in ended.stderr


@pytest.mark.parametrize("game", sorted(PLAY_COMMANDS))
def test_ctrl_c_at_a_prompt_ends_every_game_with_one_line_and_status_130(game):
    p = subprocess.Popen(
        [sys.executable, "-m", "cfrkit.cli", *PLAY_COMMANDS[game]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen, deadline = b"", time.monotonic() + 120
    while not seen.endswith(b": "):  # wait for the first prompt
        assert time.monotonic() < deadline and p.poll() is None, seen
        seen += os.read(p.stdout.fileno(), 4096)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.strip().splitlines()[-1] == f"cfrkit {game}: interrupted", err
    assert "Traceback" not in err
    assert out.startswith("\n"), "the prompt's line ends before the interrupt's"

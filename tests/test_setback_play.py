"""Setback play from Python: agents (spec strings, objects, callables), duplicate matches and
the ``match`` command."""

import json
import re
import subprocess
import sys

import pytest
from cfrkit import setback
from cfrkit.errors import InvalidArgumentError
from cfrkit.setback import agents
from cfrkit.setback.matches import match as setback_match


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.setback", *args], capture_output=True, text=True, timeout=600)


def _figures(r):
    d = r.to_dict()
    for k in ("seconds", "games_per_second", "threads"):
        d.pop(k)
    return d


def test_matches_are_reproducible_and_independent_of_threads():
    one = setback_match("rules", "random", 30, seed=4, threads=1)
    two = setback_match("rules", "random", 30, seed=4, threads=2)
    assert _figures(one) == _figures(two)
    assert (one.games, one.pairs, one.threads, two.threads) == (60, 30, 1, 2)
    assert _figures(setback_match("rules", "random", 30, seed=5)) != _figures(one)
    assert one.ci_low <= one.win_rate <= one.ci_high


def test_rules_beat_random_by_far():
    r = setback_match(agents.rules_agent(), agents.random_agent(), 200, seed=0)
    assert r.win_rate > 0.9 and r.ci_low > 0.85, str(r)
    assert r.mean_points_a > 1.0 > 0.0 > r.mean_points_b, str(r)
    assert "rules vs random" in str(r) and "95% CI" in str(r)


def test_a_python_callable_is_an_agent_and_sees_only_its_own_cards():
    seen = {"bids": 0, "cards": 0}

    def greedy(view):
        assert isinstance(view, agents.View) and view.to_act
        assert not hasattr(view, "hands")
        assert len(view.hand) <= 6 and set(view.hand) <= set(view.dealt_hand)
        if view.phase == "auction":
            seen["bids"] += 1
            assert re.fullmatch(r"[1-4x][!.]/[0234]/(-1|[0-3])/[0-3]/[2-9TJQKAx.]{12}", view.bootstrap_key())
            return max(view.legal_bids())
        seen["cards"] += 1
        assert view.legal_cards() and set(view.legal_cards()) <= set(view.hand)
        return view.legal_cards()[-1]

    r = setback_match(greedy, "rules", 5, seed=1, threads=2)
    assert r.a == "greedy" and r.games == 10
    assert seen["bids"] > 0 and seen["cards"] > 0
    # Reproducible with a callable too.
    assert _figures(setback_match(greedy, "rules", 5, seed=1, threads=1)) == _figures(r)


def test_agent_errors_are_clear():
    with pytest.raises(InvalidArgumentError, match='"bogus".*random, rules, table:DIR'):
        agents.agent("bogus")
    with pytest.raises(InvalidArgumentError, match="strategy.cfrkit"):
        agents.agent("table:/no/such/dir")
    with pytest.raises(InvalidArgumentError, match="a callable"):
        agents.agent(42)
    with pytest.raises(InvalidArgumentError, match=r"deals: 0 \(a positive"):
        setback_match("rules", "random", 0)

    def broken(view):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError, match="boom"):
        setback_match(broken, "rules", 2)

    def cheat(view):
        return 4 if view.phase == "auction" else "2C"

    with pytest.raises(InvalidArgumentError, match="agent cheat.*one of"):
        setback_match(cheat, "random", 3)

    def passer(view):
        return 0 if view.phase == "auction" else view.legal_cards()[0]

    with pytest.raises(InvalidArgumentError, match="no winner after 1000 deals"):
        setback_match(passer, passer, 1)


def test_a_game_driven_move_by_move():
    g = setback.Game(seed=2)
    bot = agents.rules_agent()
    moves = 0
    while g.winner is None:
        if g.deal_over:
            rec = g.next_deal()
            assert len(rec["hands"]) == 4 and all(len(h) == 6 for h in rec["hands"])
            continue
        seat, kind, value = g.agent_move(bot)
        assert seat in range(4) and kind in ("bid", "card")
        moves += 1
    assert max(g.scores) >= 11 and g.scores[g.winner] == max(g.scores) and moves > 20
    with pytest.raises(InvalidArgumentError, match="game is over"):
        g.bid(0)
    fresh = setback.Game(seed=2)
    with pytest.raises(InvalidArgumentError, match=r"one of \[0, 2, 3, 4\]"):
        fresh.bid(1)
    with pytest.raises(InvalidArgumentError, match="seat"):
        fresh.view(7)


def test_table_agent_from_a_trained_baseline(tmp_path):
    setback.train(tmp_path / "base", 4, algo="es-mccfr", seed=1, threads=1)
    spec = f"table:{tmp_path / 'base'}"
    a = agents.agent(spec)
    assert a.name == spec
    r1 = setback_match(spec, "random", 10, seed=3)
    r2 = setback_match(agents.table_agent(tmp_path / "base" / "strategy.cfrkit"), "random", 10, seed=3)
    assert _figures(r1) | {"a": None} == _figures(r2) | {"a": None}, "the directory or the file"
    sampled = setback_match(agents.table_agent(tmp_path / "base", sampled=True), "random", 10, seed=3)
    assert sampled.games == 20


def test_match_command_prints_json_and_refuses_bad_agents():
    r = _cli("match", "--a", "rules", "--b", "random", "--deals", "25", "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout.strip().splitlines()[-1])
    assert (d["games"], d["pairs"], d["a"], d["b"]) == (50, 25, "rules", "random")
    assert d["ci_low"] <= d["win_rate"] <= d["ci_high"]
    again = json.loads(
        _cli(
            "match", "--a", "rules", "--b", "random", "--deals", "25", "--seed", "3", "--json", "--threads", "1"
        ).stdout
    )
    assert {k: d[k] for k in ("a_wins", "deals", "mean_points_a")} == {
        k: again[k] for k in ("a_wins", "deals", "mean_points_a")
    }
    text = _cli("match", "--a", "rules", "--b", "random", "--deals", "10")
    assert "A wins" in text.stdout and "95% CI" in text.stdout
    bad = _cli("match", "--a", "nobody", "--b", "random", "--deals", "2")
    assert bad.returncode == 2
    assert bad.stdout == "" and "nobody" in bad.stderr
    assert "random, rules, table:DIR" in bad.stderr and "Traceback" not in bad.stderr


def test_margin_interval_holds_the_margin():
    r = setback_match("rules", "random", 40, seed=2)
    assert r.margin == pytest.approx(r.mean_points_a - r.mean_points_b)
    assert r.margin_ci_low < r.margin < r.margin_ci_high
    one = setback_match("rules", "random", 1, seed=2)
    assert one.margin_ci_low is None and "95% CI" in str(one)


def test_tournament_cross_table_matches_the_matches():
    t = setback.tournament(["rules", "random"], 15, seed=4)
    m = setback_match("rules", "random", 15, seed=4)
    assert t.win_rate("rules", "random") == m.win_rate
    assert t.win_rate("random", "rules") == pytest.approx(1 - m.win_rate)
    c = t.cell(1, 0)
    assert c["margin"] == pytest.approx(-m.margin) and c["margin_ci"][0] == pytest.approx(-m.margin_ci_high)
    assert "rules" in t.table() and "—" in t.table()
    with pytest.raises(InvalidArgumentError, match="named twice"):
        setback.tournament(["rules", "rules"], 2)
    with pytest.raises(InvalidArgumentError, match="two or more"):
        setback.tournament(["rules"], 2)
    r = _cli("tournament", "--agents", "rules", "random", "pimc:worlds=2,threads=1", "--deals", "2", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["agents"] == ["rules", "random", "pimc:worlds=2"] and len(d["matches"]) == 3
    assert all(x["games"] == 4 for x in d["matches"])
    bad = _cli("tournament", "--agents", "rules", "pimc:worlds=0", "--deals", "2")
    assert bad.returncode == 2 and "worlds" in bad.stderr and "Traceback" not in bad.stderr


def test_shown_voids_are_real_and_public():
    game = setback.Game(seed=3, first_dealer=0)
    rules = agents.agent("rules")
    seen = 0
    for _ in range(400):
        if game.winner is not None:
            break
        if game.deal_over:
            game.next_deal()
            continue
        views = [game.view(seat) for seat in range(4)]
        assert len({str(v.shown_voids) for v in views}) == 1, "every player sees the same voids"
        for v in views:
            for suit in views[0].shown_voids[v.player]:
                assert not any(c.endswith(suit) for c in v.hand), (v.player, suit, v.hand)
                seen += 1
        game.agent_move(rules)
    assert seen > 20


def test_a_checkpointed_match_resumes_to_the_figures_and_log_of_an_unbroken_one(tmp_path):
    cp, path, whole = tmp_path / "m.json", tmp_path / "parts.jsonl", tmp_path / "whole.jsonl"
    direct = setback_match("rules", "random", deals=90, seed=5, threads=2, log=whole)

    # Ctrl-C in the third part (pairs 24 to 56): the checkpoint keeps the first two parts.
    def interrupt(done, total):
        assert total == 180
        if done > 2 * 24:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        setback_match("rules", "random", deals=90, seed=5, threads=2, checkpoint=cp, log=path, progress=interrupt)
    saved = json.loads(cp.read_text())
    assert saved["done"] == 24 and len(saved["outcomes"]) == 24 and saved["settings"]["game"] == "setback"
    seen = []
    resumed = setback_match(
        "rules", "random", deals=90, seed=5, threads=1, checkpoint=cp, log=path, progress=lambda d, t: seen.append(d)
    )
    assert _figures(resumed) == _figures(direct)
    assert path.read_bytes() == whole.read_bytes()
    assert seen[0] == 2 * 24 and seen[-1] == 180
    # A finished match reads back as it is, or is extended.
    assert _figures(setback_match("rules", "random", deals=90, seed=5, checkpoint=cp)) == _figures(direct)
    longer = setback_match("rules", "random", deals=100, seed=5, checkpoint=cp)
    assert _figures(longer) == _figures(setback_match("rules", "random", deals=100, seed=5))
    # Another match's file, fewer pairs than done, a directory and a file of another kind are refused.
    with pytest.raises(InvalidArgumentError, match="seed=5, not 6"):
        setback_match("rules", "random", deals=100, seed=6, checkpoint=cp)
    with pytest.raises(InvalidArgumentError, match="deals: 10 .* 100 deals done"):
        setback_match("rules", "random", deals=10, seed=5, checkpoint=cp)
    with pytest.raises(InvalidArgumentError, match="is a directory"):
        setback_match("rules", "random", deals=10, checkpoint=tmp_path)
    with pytest.raises(InvalidArgumentError, match="not a readable cfrkit match checkpoint"):
        setback_match("rules", "random", deals=10, checkpoint=whole)
    # Outcome rows that do not match the deals done are refused.
    saved = json.loads(cp.read_text())
    saved["outcomes"] = saved["outcomes"][:-1]
    cp.write_text(json.dumps(saved))
    with pytest.raises(InvalidArgumentError, match="one row per deal"):
        setback_match("rules", "random", deals=100, seed=5, checkpoint=cp)


def test_a_checkpointed_tournament_resumes_to_the_unbroken_figures_and_log(tmp_path, monkeypatch):
    """Stopped in its second match (Ctrl-C in that match's second part), a checkpointed
    tournament resumes to the matches and log bytes of an unbroken one."""
    import importlib

    from cfrkit.setback.tournament import tournament

    # The package's `tournament` function hides the module of that name.
    tournament_module = importlib.import_module("cfrkit.setback.tournament")

    agents_ = ["rules", "random", "random"]
    with pytest.raises(InvalidArgumentError, match="named twice"):
        tournament(agents_, deals=40, seed=2)
    agents_ = ["rules", "random", "pimc:worlds=2"]
    whole = tournament(agents_, deals=40, seed=2, threads=2, log=tmp_path / "whole.jsonl")
    cp, log = tmp_path / "t.json", tmp_path / "parts.jsonl"
    real, calls = tournament_module.play_pairs, []

    def stop_in_the_second_match(aa, bb, first, n, *args, **kwargs):
        calls.append((bb.name, first, n))
        if [c[0] for c in calls].count("pimc:worlds=2") == 2:
            raise KeyboardInterrupt
        return real(aa, bb, first, n, *args, **kwargs)

    monkeypatch.setattr(tournament_module, "play_pairs", stop_in_the_second_match)
    with pytest.raises(KeyboardInterrupt):
        tournament(agents_, deals=40, seed=2, threads=1, log=log, checkpoint=cp)
    saved = json.loads(cp.read_text())
    assert [len(p[3]) for p in saved["pairs"]] == [40, 8], calls
    monkeypatch.setattr(tournament_module, "play_pairs", real)
    again = tournament(agents_, deals=40, seed=2, threads=2, log=log, checkpoint=cp)
    keep = ("a_wins", "win_rate", "ci_low", "ci_high", "margin", "deals", "games")
    for key, m in whole.matches.items():
        assert {k: getattr(again.matches[key], k) for k in keep} == {k: getattr(m, k) for k in keep}, key
    assert log.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    with pytest.raises(InvalidArgumentError, match="seed=2, not 3"):
        tournament(agents_, deals=40, seed=3, checkpoint=cp)


def test_match_command_resumes_from_its_checkpoint(tmp_path):
    cp = str(tmp_path / "m.json")
    first = _cli("match", "--a", "rules", "--b", "random", "--deals", "12", "--checkpoint", cp, "--json")
    assert first.returncode == 0, first.stderr
    more = _cli("match", "--a", "rules", "--b", "random", "--deals", "20", "--checkpoint", cp, "--json")
    assert more.returncode == 0, more.stderr
    direct = _cli("match", "--a", "rules", "--b", "random", "--deals", "20", "--json")
    keep = ("a_wins", "win_rate", "ci_low", "ci_high", "margin", "deals", "games")
    got, want = json.loads(more.stdout.splitlines()[-1]), json.loads(direct.stdout.splitlines()[-1])
    assert {k: got[k] for k in keep} == {k: want[k] for k in keep}
    fewer = _cli("match", "--a", "rules", "--b", "random", "--deals", "5", "--checkpoint", cp)
    assert fewer.returncode == 2 and fewer.stderr.strip().count("\n") == 0, fewer.stderr
    assert "20 deals done" in fewer.stderr

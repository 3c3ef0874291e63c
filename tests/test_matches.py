"""Every game's matches are one implementation (``cfrkit._matches`` on the core's
``trick::matches``): one result with the same fields in Skat and Schafkopf, the same options
(protocol, rules, shared decisions) in both, the earlier names of the figures still readable
with a deprecation warning, and clear errors for a wrong game, agent, protocol or rule set."""

from __future__ import annotations

import dataclasses
import json

import pytest
from cfrkit import _cfrkit, schafkopf, skat
from cfrkit._matches import MatchResult
from cfrkit.errors import InvalidArgumentError


@pytest.mark.parametrize("game", [skat, schafkopf])
def test_both_games_give_the_same_result(game):
    r = game.match("rules", "random", deals=40, seed=3, threads=2)
    assert isinstance(r, MatchResult) and r.game == game.__name__.split(".")[-1]
    assert r.diff == pytest.approx(r.mean_a - r.mean_b) and r.diff - r.ci95_diff > 0
    assert list(r.breakdown_a) == list(game.CATEGORIES) and sum(r.breakdown_a.values()) == pytest.approx(100)
    assert r.unit in str(r) and "A − B" in str(r)
    d = r.to_dict()
    assert set(d) >= {f.name for f in dataclasses.fields(MatchResult)} and json.dumps(d)
    # The same match through the one native function, by the game's name and spec strings.
    native = _cfrkit.trick_match(r.game, "rules", "random", 40, seed=3, threads=1)
    assert (native["mean_a"], native["diff"], native["ci95_diff"]) == (r.mean_a, r.diff, r.ci95_diff)


def test_the_old_names_of_the_figures_still_work_and_warn():
    s = skat.match("rules", "random", deals=10, seed=1)
    with pytest.warns(DeprecationWarning, match="tp_per_game_a is deprecated; use mean_a"):
        assert s.tp_per_game_a == s.mean_a
    with pytest.warns(DeprecationWarning, match="ci95 is deprecated; use ci95_diff"):
        assert s.ci95 == s.ci95_diff
    k = schafkopf.match("rules", "random", deals=10, seed=1)
    with pytest.warns(DeprecationWarning, match="a_cents_per_game is deprecated; use mean_a"):
        assert k.a_cents_per_game == k.mean_a
    with pytest.warns(DeprecationWarning, match="ci95 is deprecated; use ci95_a"):
        assert k.ci95 == k.ci95_a
    with pytest.warns(DeprecationWarning, match="b_ci95 is deprecated; use ci95_b"):
        assert k.b_ci95 == k.ci95_b
    with pytest.raises(AttributeError, match="no attribute 'a_cents_per_game'"):
        s.a_cents_per_game  # noqa: B018  (not a name Skat ever had)
    with pytest.warns(DeprecationWarning, match="record\\(\\) is deprecated; use to_dict"):
        assert s.record() == s.to_dict()


def test_every_game_takes_the_same_options():
    # Schafkopf shares decisions like Skat: random against itself ties every deal.
    tie = schafkopf.match("random", "random", deals=30, seed=2, share_decisions=True)
    assert tie.diff == 0 and tie.ci95_diff == 0
    assert schafkopf.match("random", "random", deals=30, seed=2).diff != 0
    # Skat plays under the ISS server's rules too, and names them in its log's header.
    iss = skat.match("rules", "random", deals=20, seed=2, rules="iss")
    assert iss.rules == "iss" and iss.games == 120
    t = skat.tournament(["rules", "random"], deals=5, seed=1, protocol="rotation")
    assert t.protocol == "rotation" and t.pairs[0].games == 30
    g = schafkopf.play_game(["rules"] * 4, seed=1, index=2)
    assert g.finished


def test_iss_rules_are_in_the_log_header(tmp_path):
    from cfrkit.logs import read_log

    path = tmp_path / "iss.jsonl"
    skat.match("rules", "random", deals=2, seed=2, rules="iss", log=path)
    assert read_log(path).header["settings"] == "protocol=rotation,rules=iss"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: _cfrkit.trick_match("bridge", "rules", "random", 1), 'invalid value for game: "bridge"'),
        (lambda: skat.match("rules", schafkopf.agent("rules"), deals=1), "agent: schafkopf.Agent"),
        (lambda: _cfrkit.trick_match("skat", "rules", schafkopf.agent("rules"), 1), "a skat agent"),
        (lambda: skat.match("rules", "random", deals=1, protocol="halves"), "protocol: 'halves' \\(rotation\\)"),
        (lambda: schafkopf.match("rules", "random", deals=1, rules="wild"), "rules"),
        (lambda: skat.match("rules", "random", deals=1, rules="wild"), "isko"),
        (lambda: skat.play_game(["rules"] * 4), "3 agents"),
    ],
)
def test_wrong_games_agents_and_options_are_refused(call, message):
    with pytest.raises((InvalidArgumentError, TypeError), match=message):
        call()


@pytest.mark.parametrize("game", [skat, schafkopf])
def test_a_run_stopped_before_its_first_part_was_saved_resumes_its_log(game, tmp_path):
    """Stopped before the checkpoint counted a deal, the run leaves a checkpoint and a log with
    its header; run again it goes on with both (it used to refuse the log as an existing file),
    ending with the bytes of an unbroken run. Without a checkpoint an existing log is refused."""
    whole, parts, cp = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl", tmp_path / "cp.json"
    game.match("rules", "random", deals=6, seed=1, log=whole, threads=1)

    def stop(done, total):
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        game.match("rules", "random", deals=6, seed=1, log=parts, checkpoint=cp, threads=1, progress=stop)
    assert cp.exists() and parts.exists()
    game.match("rules", "random", deals=6, seed=1, log=parts, checkpoint=cp, threads=1)
    assert parts.read_bytes() == whole.read_bytes()
    with pytest.raises(InvalidArgumentError, match="exists"):
        game.match("rules", "random", deals=6, seed=1, log=parts)


@pytest.mark.parametrize("game", [skat, schafkopf])
def test_a_python_callable_is_an_agent_of_every_game(game):
    """One callable agent for every game: it sees the view of the seat to act, answers with an
    action name; an illegal answer stops the match with the rule's reason, and an exception in
    the callable is raised as it was."""

    def first_legal(view):
        assert view.to_act and view.hand
        return view.legal_actions()[0]

    r = game.match(game.agent(first_legal), "random", deals=3, seed=1, threads=2)
    assert r.a == "first_legal" and r.games > 0

    def wrong(view):
        return "pass" if view.phase == "tricks" else view.legal_actions()[0]

    with pytest.raises(InvalidArgumentError, match="agent wrong"):
        game.match(game.agent(wrong), "random", deals=2, threads=1)

    def boom(view):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError, match="boom"):
        game.match(game.agent(boom), "random", deals=1, threads=1)
    with pytest.raises(InvalidArgumentError, match="invalid value for agent"):
        game.agent(42)


def test_a_skat_view_shows_one_seat_and_agents_act_on_it():
    g = skat.Game.random(seed=3, index=1)
    view = g.view(g.player)
    assert view.hand == g.hands[g.player] and view.skat is None and not hasattr(view, "hands")
    action = skat.agent("rules").act(view, seed=1)
    assert action in view.legal_actions() and view.why_illegal(action) is None
    assert view.why_illegal("grand") is not None
    other = g.view((g.player + 1) % 3)
    assert not other.to_act and other.legal_actions() == []
    with pytest.raises(InvalidArgumentError, match="seat to act"):
        skat.agent("rules").act(other)

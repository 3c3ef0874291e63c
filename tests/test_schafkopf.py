"""Schafkopf's Python API: games, views, agents, matches and tournaments (specs/schafkopf.md)."""

from __future__ import annotations

import copy
import json
import threading

import cfrkit
import pytest
from cfrkit import schafkopf
from cfrkit._checkpoint import FIRST_PART

DEAL_A = [
    "EO GO EU HA HK G7 G9 S7",
    "HO GU H9 GA EA E7 SK S8",
    "SO HU SU H10 H8 G10 GK E8",
    "H7 G8 E10 EK E9 SA S10 S9",
]
DEAL_B = [
    "SO EU GU E9 H7 H8 H9 HA",
    "HU SU E8 E7 H10 HK G10 GK",
    "EO GO HO EA E10 EK GA SA",
    "G9 G8 G7 S10 SK S9 S8 S7",
]
DEAL_C = [
    "EU E9 E8 E7 GK G9 G8 G7",
    "GU EO GO HO SO HA H10 HK",
    "H9 H8 H7 S10 SK S9 S8 S7",
    "HU SU EA E10 EK GA G10 SA",
]
CARD_IDS = {
    s + r: 4 * i + j for i, r in enumerate(["7", "8", "9", "U", "O", "K", "10", "A"]) for j, s in enumerate("SHGE")
}


def scripted(hands, dealer, declarations, contra=(), retour=(), policy=min, rules="schafkopfrl"):
    """Plays a game: declarations by seat, contra and retour by the seats listed, cards by
    ``policy`` over card ids (min: the lowest card)."""
    g = schafkopf.Game(hands=hands, dealer=dealer, rules=rules)
    while not g.finished:
        p = g.player
        if g.phase == "bidding":
            g.play(declarations[p])
        elif g.phase in ("contra", "retour"):
            g.play(g.phase if p in (contra if g.phase == "contra" else retour) else "no")
        else:
            g.play(policy(g.legal_actions(), key=CARD_IDS.__getitem__))
    return g


@pytest.mark.parametrize("rules", ["schafkopfrl", "standard"])
def test_regression_deals(rules):
    saus = ["sauspiel:G", "pass", "pass", "pass"]
    g = scripted(DEAL_A, 3, saus, rules=rules)
    assert g.tricks[0] == ["S7", "S8", "H8", "S9"] and g.trick_winners == [2, 3, 0, 1, 0, 0, 2, 0]
    assert g.scores == [77, 15, 28, 0] and g.returns() == [60, 60, -60, -60]
    s = g.settlement()
    assert (s["team"], s["team_points"], s["schneider"], s["laufende"]) == ([0, 1], 92, True, 3)
    assert scripted(DEAL_A, 3, saus, contra=[2], rules=rules).returns() == [120, 120, -120, -120]
    assert scripted(DEAL_A, 3, saus, contra=[2], retour=[1], rules=rules).returns() == [240, 240, -240, -240]
    g = scripted(DEAL_A, 3, saus, policy=max, rules=rules)
    assert g.trick_winners == [1, 0, 0, 0, 0, 1, 3, 2] and g.scores == [71, 45, 0, 4]
    assert g.returns() == [60, 60, -60, -60]
    g = scripted(DEAL_B, 1, ["wenz", "sauspiel:G", "solo:E", "pass"], contra=[0], rules=rules)
    assert (g.contract, g.declarer, g.scores) == ("solo:E", 2, [9, 0, 111, 0])
    assert g.returns() == [-180, -180, 540, -180]
    for policy, scores in ((min, [6, 0, 0, 114]), (max, [16, 4, 0, 100])):
        g = scripted(DEAL_C, 2, ["pass", "pass", "pass", "wenz"], policy=policy, rules=rules)
        assert g.scores == scores and g.returns() == [-80, -80, -80, 240]


def test_all_pass_is_played_out_or_ends():
    g = scripted(DEAL_A, 3, ["pass"] * 4, contra=[1])
    assert g.contract == "passed" and g.declarer == 3 and g.returns() == [0, 0, 0, 0]
    assert g.tricks[0] == ["S7", "S8", "SO", "S9"] and g.scores == [59, 31, 30, 0]
    assert len(g.history()) == 44
    g = scripted(DEAL_A, 3, ["pass"] * 4, rules="standard")
    assert (g.finished, g.contract, g.player, g.phase, len(g.history())) == (True, None, None, "finished", 4)


def test_the_issue_example_and_single_action_decisions():
    g = schafkopf.Game(hands=DEAL_A, dealer=3)
    assert (g.player, g.phase, g.rules) == (0, "bidding", "schafkopfrl")
    assert g.legal_actions() == ["pass", "sauspiel:S", "sauspiel:G", "wenz", "solo:S", "solo:H", "solo:G", "solo:E"]
    assert g.legal_action_ids() == [0, 1, 2, 4, 5, 6, 7, 8]
    g.play("sauspiel:G")
    for _ in range(3):
        g.play("pass")
    assert (g.phase, g.contract, g.declarer, g.bids) == (
        "contra",
        "sauspiel:G",
        0,
        ["sauspiel:G", "pass", "pass", "pass"],
    )
    assert g.legal_actions() == ["no"]  # the declarer
    g.play("no")
    assert g.legal_actions() == ["no"]  # holds the called Ace
    g.play("no")
    assert g.legal_actions() == ["no", "contra"]
    g.play(9)  # the id of doubling
    assert g.contra == [False, False, True, None]
    g.play("no")
    assert (g.phase, g.player, g.legal_actions()) == ("retour", 0, ["no", "retour"])
    assert not g.finished and g.returns() == [0, 0, 0, 0]


def test_illegal_actions_are_refused_with_reason_and_legal_ones():
    g = schafkopf.Game(hands=DEAL_A, dealer=3)
    before = g.copy()
    with pytest.raises(cfrkit.InvalidArgumentError) as e:
        g.play("sauspiel:E")
    msg = str(e.value)
    assert "sauspiel:E" in msg and "no Eichel card" in msg and "legal actions: pass, sauspiel:S" in msg
    assert g == before
    with pytest.raises(cfrkit.InvalidArgumentError, match="it is the bidding phase"):
        g.play("EO")
    with pytest.raises(cfrkit.InvalidArgumentError, match="bidding takes a declaration"):
        g.play("bogus")
    for bad in (43, -1, True, 2.5, None):
        with pytest.raises(cfrkit.InvalidArgumentError):
            g.play(bad)
    assert isinstance(e.value, ValueError) and g == before
    assert g.why_illegal("pass") is None and "you hold it" in schafkopf.Game(hands=DEAL_A, dealer=0).why_illegal(
        "sauspiel:G"
    )


def test_follow_and_called_ace_reasons():
    # Deal A, Gras-Sauspiel by seat 0. Trick 1: seat 0 leads S7; seat 1 holds SK S8.
    g = schafkopf.Game(hands=DEAL_A, dealer=3)
    for a in ["sauspiel:G", "pass", "pass", "pass", "no", "no", "no", "no"]:
        g.play(a)
    g.play("S7")
    assert g.why_illegal("GA") == "must follow Schellen"
    assert sorted(g.legal_actions()) == ["S8", "SK"]
    g.play("S8")
    g.play("H8")
    g.play("S9")
    # Seat 2 leads; it holds HU SU H10 G10 GK E8 SO after H8.
    g.play("SO")
    with pytest.raises(cfrkit.InvalidArgumentError, match="must follow trump"):
        g.play("S10")
    assert g.view(3).why_illegal("H7") is None and g.view(1).why_illegal("HO") == "seat 1 is not to act"
    # Play on until Gras is led: seat 1 must then play the called Ace.
    g = schafkopf.Game(hands=DEAL_A, dealer=3)
    for a in ["sauspiel:G", "pass", "pass", "pass", "no", "no", "no", "no", "G7"]:
        g.play(a)
    assert g.legal_actions() == ["GA"] and g.why_illegal("E7") == "must play the called Ace"


def test_views_show_only_what_a_seat_sees():
    g = schafkopf.Game.random(seed=4)
    p = g.player
    v = g.view(p)
    assert v.seat == p and v.to_act and v.hand == g.hands[p] and len(v.hand) == 8
    assert v.legal_actions() == g.legal_actions()
    other = g.view((p + 1) % 4)
    assert not other.to_act and other.legal_actions() == [] and not other.legal_mask().any()
    assert not hasattr(v, "hands")
    d = v.to_dict()
    for key in ("dealer", "first_player", "phase", "player", "bids", "contract", "declarer", "contra", "retour"):
        assert key in d
    assert d["hand"] == v.hand and d["legal_actions"] == g.legal_actions()
    with pytest.raises(cfrkit.InvalidArgumentError, match="seat"):
        g.view(4)
    assert v.features().shape == (schafkopf.FEATURES,)


def test_construction_errors():
    with pytest.raises(cfrkit.InvalidArgumentError, match="eight distinct cards"):
        schafkopf.Game(hands=["EO GO", *DEAL_A[1:]], dealer=0)
    with pytest.raises(cfrkit.InvalidArgumentError, match="dealt twice"):
        schafkopf.Game(hands=[DEAL_A[0], DEAL_A[0], DEAL_A[2], DEAL_A[3]], dealer=0)
    with pytest.raises(cfrkit.InvalidArgumentError, match="card"):
        schafkopf.Game(hands=["EO GO EU HA HK G7 G9 X7", *DEAL_A[1:]], dealer=0)
    with pytest.raises(cfrkit.InvalidArgumentError, match="dealer"):
        schafkopf.Game(hands=DEAL_A, dealer=4)
    with pytest.raises(cfrkit.InvalidArgumentError, match="schafkopfrl or standard"):
        schafkopf.Game(hands=DEAL_A, dealer=0, rules="bavarian")
    with pytest.raises(cfrkit.InvalidArgumentError, match="four hands"):
        schafkopf.Game(hands=DEAL_A[:3], dealer=0)


def test_random_deals_are_reproducible():
    a, b = schafkopf.Game.random(seed=1), schafkopf.Game.random(seed=1)
    assert a == b and a.dealt_hands == b.dealt_hands
    assert schafkopf.Game.random(seed=2).dealt_hands != a.dealt_hands
    assert schafkopf.Game.random(seed=1, index=1).dealt_hands != a.dealt_hands
    assert sorted(c for h in a.dealt_hands for c in h) == sorted(CARD_IDS)


def test_history_replays_and_copies_are_independent():
    for seed in range(30):
        g = schafkopf.play_game(["random", "rules", "random-coward", "random"], seed=seed)
        assert g.finished and sum(g.returns()) == 0
        replay = schafkopf.Game(hands=[" ".join(h) for h in g.dealt_hands], dealer=g.dealer)
        for seat, action in g.history():
            assert replay.player == seat
            replay.play(action)
        assert replay == g and replay.returns() == g.returns()
        if g.contract not in (None, "passed"):
            assert sum(g.scores) == 120
    g = schafkopf.Game.random(seed=3)
    h = copy.deepcopy(g)
    g.play("pass")
    assert h != g and h.phase == "bidding" and len(h.history()) == 0


def test_agents_specs_and_callables():
    rules = schafkopf.agent("rules")
    assert rules.name == "rules" and schafkopf.agent(rules) is rules
    with pytest.raises(cfrkit.InvalidArgumentError, match="random-coward"):
        schafkopf.agent("pimc9")
    with pytest.raises(cfrkit.InvalidArgumentError, match="callable"):
        schafkopf.agent(42)
    g = schafkopf.Game(hands=DEAL_A, dealer=3)
    # The rule-based player: 4 Sauspiel trumps (EO GO EU HA HK: 5) -> the last allowed Sauspiel (G).
    assert rules.act(g.view(0)) == "sauspiel:G"
    with pytest.raises(cfrkit.InvalidArgumentError, match="seat to act"):
        rules.act(g.view(1))
    seen = []

    def first_legal(view):
        seen.append(threading.get_ident())
        return view.legal_actions()[0]

    r = schafkopf.match(first_legal, "random", deals=50, threads=2, seed=3)
    assert r.a == "first_legal" and r.games == 100 and len(seen) > 0
    again = schafkopf.match(first_legal, "random", deals=50, threads=1, seed=3)
    assert (again.mean_a, again.ci95_a) == (r.mean_a, r.ci95_a)

    def broken(view):
        raise RuntimeError("agent bug")

    with pytest.raises(RuntimeError, match="agent bug"):
        schafkopf.match(broken, "random", deals=5)

    def illegal(view):
        return "EA" if view.phase == "tricks" else view.legal_actions()[0]

    with pytest.raises(cfrkit.InvalidArgumentError, match="action of agent illegal"):
        schafkopf.play_game([illegal, illegal, illegal, illegal], seed=0)
    g = schafkopf.Game.random(seed=5)
    seat, action = g.agent_move(schafkopf.agent(lambda v: 0, name="passer"))
    assert action == "pass" and g.bids[seat] == "pass"


def test_matches_are_reproducible_for_any_thread_count():
    one = schafkopf.tournament(["rules", "random", "random-coward"], deals=300, seed=9, threads=1)
    two = schafkopf.tournament(["rules", "random", "random-coward"], deals=300, seed=9, threads=2)
    assert [(p.a, p.b, p.mean_a, p.ci95_a) for p in one.pairs] == [(p.a, p.b, p.mean_a, p.ci95_a) for p in two.pairs]
    assert one.cells == two.cells and one.names == ["rules", "random", "random-coward"]
    for i in range(3):
        for j in range(3):
            if i != j:
                assert one.cells[i][j][0] == pytest.approx(-one.cells[j][i][0])
    rot = schafkopf.match("rules", "random", deals=100, protocol="rotation", seed=9, threads=2)
    assert (rot.games, rot.deals) == (600, 100)
    assert rot.mean_a == schafkopf.match("rules", "random", deals=100, protocol="rotation", seed=9, threads=1).mean_a
    m = schafkopf.match("rules", "random", deals=200, seed=1, rules="standard")
    assert m.rules == "standard" and m.mean_a > 0 and "cents per game" in str(m)
    for bad in ({"deals": 0}, {"deals": -3}, {"seed": -1}, {"threads": -1}, {"deals": 1.5}):
        with pytest.raises(cfrkit.InvalidArgumentError):
            schafkopf.match("rules", "random", **{"deals": 10, **bad})
    with pytest.raises(cfrkit.InvalidArgumentError, match="schafkopfrl or rotation"):
        schafkopf.match("rules", "random", deals=10, protocol="swiss")
    with pytest.raises(cfrkit.InvalidArgumentError, match="two or more"):
        schafkopf.tournament(["rules"], deals=10)


def test_matches_report_progress_and_stop_when_asked():
    seen = []
    r = schafkopf.match("rules", "random", deals=3000, seed=2, threads=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (6000, 6000) and all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    assert r.mean_a == schafkopf.match("rules", "random", deals=3000, seed=2, threads=1).mean_a
    seen.clear()
    schafkopf.tournament(["rules", "random", "random-coward"], deals=500, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3000, 3000)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(done)

    with pytest.raises(Stop):
        schafkopf.match("rules", "random", deals=10**9, threads=1, progress=stop)


def test_checkpointed_matches_resume_to_the_figures_of_an_unbroken_one(tmp_path):
    plain = schafkopf.match("rules", "random", deals=1500, seed=3, threads=2)
    path = tmp_path / "match.json"

    class Stop(Exception):
        pass

    three_parts = 7 * FIRST_PART  # parts double in size: 1 + 2 + 4 first parts

    def stop_in_the_fourth_part(done, total):
        assert total == 3000
        if done > 2 * three_parts:
            raise Stop

    with pytest.raises(Stop):
        schafkopf.match(
            "rules", "random", deals=1500, seed=3, threads=2, checkpoint=path, progress=stop_in_the_fourth_part
        )
    saved = json.loads(path.read_text())
    assert (saved["format"], saved["done"], saved["games"]) == ("cfrkit-match-checkpoint", three_parts, 2 * three_parts)
    seen = []
    resumed = schafkopf.match(
        "rules", "random", deals=1500, seed=3, threads=1, checkpoint=path, progress=lambda d, t: seen.append(d)
    )
    assert seen[0] == 2 * three_parts and seen[-1] == 3000
    assert (resumed.deals, resumed.games) == (plain.deals, plain.games)
    assert resumed.mean_a == pytest.approx(plain.mean_a, abs=1e-9)
    assert resumed.ci95_a == pytest.approx(plain.ci95_a, abs=1e-9)
    assert resumed.ci95_b == pytest.approx(plain.ci95_b, abs=1e-9)
    # A finished match is read back as it is, or extended.
    again = schafkopf.match("rules", "random", deals=1500, seed=3, checkpoint=path)
    assert again.mean_a == resumed.mean_a
    longer = schafkopf.match("rules", "random", deals=2000, seed=3, checkpoint=path)
    assert longer.mean_a == pytest.approx(schafkopf.match("rules", "random", deals=2000, seed=3).mean_a)
    # Another match's file, fewer deals than done, a directory, and files of the wrong kind are refused.
    with pytest.raises(cfrkit.InvalidArgumentError, match="seed=3, not 4"):
        schafkopf.match("rules", "random", deals=2000, seed=4, checkpoint=path)
    with pytest.raises(cfrkit.InvalidArgumentError, match="b='random', not 'random-coward'"):
        schafkopf.match("rules", "random-coward", deals=2000, seed=3, checkpoint=path)
    with pytest.raises(cfrkit.InvalidArgumentError, match="deals: 10 .* 2000 deals done"):
        schafkopf.match("rules", "random", deals=10, seed=3, checkpoint=path)
    with pytest.raises(cfrkit.InvalidArgumentError, match="is a directory"):
        schafkopf.match("rules", "random", deals=10, checkpoint=tmp_path)
    for text in [
        "not json",
        "[1, 2]",
        '{"format": "cfrkit-match-checkpoint", "version": 9}',
        path.read_text().replace('"done": 2000', '"done": -1'),
    ]:
        path.write_text(text)
        with pytest.raises(cfrkit.InvalidArgumentError, match="not a readable cfrkit match checkpoint"):
            schafkopf.match("rules", "random", deals=2000, seed=3, checkpoint=path)


def test_pimc_agents_by_spec():
    uct = schafkopf.agent("schafkopfrl-pimc:n=2,m=10")
    pimc = schafkopf.agent("pimc:worlds=2,seed=1")
    assert (uct.name, pimc.name) == ("schafkopfrl-pimc:n=2,m=10", "pimc:worlds=2,seed=1")
    r = schafkopf.match(uct, "random", deals=4, seed=1, threads=1)
    assert r.games == 8
    g = schafkopf.play_game([pimc, "rules", uct, "random"], seed=2)
    assert g.finished and sum(g.returns()) == 0
    for bad, says in [
        ("pimc:worlds=0", "worlds"),
        ("pimc:depth=3", "depth"),
        ("schafkopfrl-pimc:n=-1", "-1"),
        ("schafkopfrl-pimc:k=2", "k"),
    ]:
        with pytest.raises(cfrkit.InvalidArgumentError, match=says):
            schafkopf.agent(bad)

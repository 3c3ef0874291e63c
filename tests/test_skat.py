"""Skat's Python API (specs/skat.md): game shape, errors, scripted games with known results, and
invariants over random games."""

from __future__ import annotations

import copy
import random

import cfrkit
import pytest
from cfrkit import schafkopf, skat

RESULT_KEYS = {
    "declarer",
    "contract",
    "bid",
    "declarer_points",
    "declarer_tricks",
    "won",
    "value",
    "list_score",
    "tp",
}
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# Vorhand: four jacks, four aces, CT, ST: wins every trick of a grand, leading throughout.
GRAND_OUVERT = [
    "CJ SJ HJ DJ CA SA HA DA CT ST",
    "HT DT CK CQ C9 C8 C7 SK SQ S9",
    "S8 S7 HK HQ H9 H8 H7 DK DQ D9",
]
GRAND_OUVERT_SKAT = "D8 D7"
# Vorhand: the lowest cards of every suit he holds, the defenders every higher card of those
# suits: played out with the first legal card each time he takes no trick in null.
NULL_LOW = [
    "D7 D8 D9 H7 H8 H9 S7 S8 C7 C8",
    "DT DJ DQ DK DA HT HJ HQ HK HA",
    "S9 ST SJ SQ SK SA CJ CQ CK CA",
]
NULL_LOW_SKAT = "C9 CT"


def play_out(g: skat.Game, choose=lambda legal: legal[0]) -> None:
    while not g.finished:
        g.play(choose(g.legal_actions()))


def test_shape_and_first_actions():
    g = skat.Game(hands=GRAND_OUVERT, skat=GRAND_OUVERT_SKAT)
    assert (g.player, g.phase, g.finished, g.bid, g.declarer, g.contract) == (1, "bidding", False, 0, None, None)
    assert g.legal_actions() == ["pass"] + [str(v) for v in skat.BID_VALUES]
    assert len(skat.BID_VALUES) == 63 and skat.BID_VALUES[0] == 18 and skat.BID_VALUES[-1] == 264
    assert len(skat.CONTRACTS) == 29 and skat.CONTRACTS[:7] == (
        "diamonds",
        "hearts",
        "spades",
        "clubs",
        "grand",
        "null",
        "null ouvert",
    )
    assert sorted(g.hands[0]) == sorted(GRAND_OUVERT[0].split())
    assert sorted(g.skat) == ["D7", "D8"]
    assert g.result() is None and g.returns() == [0, 0, 0]
    g.play("18")
    assert (g.player, g.legal_actions()) == (0, ["pass", "hold"])
    g.play("hold")
    g.play(20)  # a bid value as an int
    assert g.bid == 20 and g.history == [(1, "18"), (0, "hold"), (1, "20")]
    assert "skat.Game" in repr(g)


def test_illegal_actions_raise_and_change_nothing():
    g = skat.Game.random(seed=1, index=0)
    g.play("30")
    before = g.copy()
    for bad in ["33", "hand", "CJ", "banana"]:
        with pytest.raises(cfrkit.InvalidArgumentError) as e:
            g.play(bad)
        assert bad in str(e.value) and "legal actions: pass, hold" in str(e.value)
        assert g == before
    with pytest.raises(cfrkit.InvalidArgumentError):
        g.play(True)
    with pytest.raises(cfrkit.InvalidArgumentError):
        g.play(None)
    assert g.why_illegal("hold") is None and "legal actions" in g.why_illegal("18")
    with pytest.raises(cfrkit.InvalidArgumentError):
        skat.Game(hands=GRAND_OUVERT[:2], skat="D8 D7")
    with pytest.raises(cfrkit.InvalidArgumentError, match="dealt twice"):
        skat.Game(hands=GRAND_OUVERT, skat="D8 CJ")
    # Random deals are reproducible and differ by index.
    assert skat.Game.random(seed=1, index=0) == skat.Game.random(seed=1, index=0)
    assert skat.Game.random(seed=1, index=0).hands != skat.Game.random(seed=1, index=1).hands


def test_grand_ouvert_all_tricks_scripted():
    g = skat.Game(hands=GRAND_OUVERT, skat=GRAND_OUVERT_SKAT)
    for a in ["pass", "pass"]:
        g.play(a)
    assert (g.player, g.legal_actions()) == (0, ["pass", "18"])
    g.play("18")
    assert (g.phase, g.declarer, g.bid, g.legal_actions()) == ("skat", 0, 18, ["hand", "pickup"])
    g.play("hand")
    assert g.phase == "declare" and g.hand_game is True and sorted(g.put_away) == ["D7", "D8"]
    legal = g.legal_actions()
    assert len(legal) == 22 and all("hand" in c for c in legal)
    g.play("grand ouvert hand")
    assert (g.phase, g.player, g.contract) == ("tricks", 0, "grand ouvert hand")
    assert sorted(g.open_hand) == sorted(GRAND_OUVERT[0].split())
    # The declarer leads his highest cards; the defenders follow with their first legal card.
    order = "CJ SJ HJ DJ CA SA HA DA CT ST".split()
    while not g.finished:
        if g.player == 0:
            g.play(order[g.tricks_done])
        else:
            g.play(g.legal_actions()[0])
    assert g.trick_winners == [0] * 10 and g.tricks_won == [10, 0, 0]
    r = g.result()
    assert set(r) == RESULT_KEYS
    assert r == {
        "declarer": 0,
        "contract": "grand ouvert hand",
        "bid": 18,
        "declarer_points": 120,
        "declarer_tricks": 10,
        "won": True,
        "value": 264,
        "list_score": 264,
        "tp": [314, 0, 0],
    }
    assert g.returns() == [314, 0, 0] and g.player is None and g.legal_actions() == []


def test_null_ouvert_hand_won_and_null_lost():
    g = skat.Game(hands=NULL_LOW, skat=NULL_LOW_SKAT)
    for a in ["pass", "pass", "18", "hand", "null ouvert hand"]:
        g.play(a)
    play_out(g)
    r = g.result()
    assert (r["won"], r["value"], r["list_score"], r["tp"], r["declarer_tricks"]) == (True, 59, 59, [109, 0, 0], 0)
    assert r["declarer_points"] == 10  # the skat's CT counts for him
    # Null after a pickup, Vorhand leading the Ace of diamonds he took up: he takes that trick.
    hands = [
        "DA D8 D9 H7 H8 H9 S7 S8 C7 C8",
        "DT DJ DQ DK D7 HT HJ HQ HK HA",
        "S9 ST SJ SQ SK SA CJ CQ CK CA",
    ]
    g = skat.Game(hands=hands, skat=NULL_LOW_SKAT)
    for a in ["pass", "pass", "18", "pickup", "CT C9", "null", "DA"]:
        g.play(a)
    play_out(g)
    r = g.result()
    assert (r["contract"], r["won"], r["value"], r["list_score"], r["tp"]) == ("null", False, 23, -46, [-96, 40, 40])
    assert r["declarer_tricks"] >= 1


def test_thrown_in():
    g = skat.Game.random(seed=3)
    for _ in range(3):
        g.play("pass")
    assert (g.phase, g.player, g.thrown_in, g.returns()) == ("finished", None, True, [0, 0, 0])
    r = g.result()
    assert r["declarer"] is None and r["contract"] is None and r["tp"] == [0, 0, 0] and r["won"] is False


def test_discard_and_declaration_rules():
    g = skat.Game.random(seed=5, index=1)
    for a in ["45", "pass", "pass", "pickup"]:
        g.play(a)
    assert g.phase == "discard" and len(g.hands[1]) == 12
    discards = g.legal_actions()
    assert len(discards) == 66 and len(set(discards)) == 66
    first, second = discards[0].split()
    g2 = g.copy()
    g2.play(f"{second.lower()} {first.lower()}")  # either order, any case
    g.play(discards[0])
    assert g == g2 and sorted(g.put_away) == sorted([first, second]) and len(g.hands[1]) == 10
    assert set(g.legal_actions()) <= set(skat.CONTRACTS[:7])
    with pytest.raises(cfrkit.InvalidArgumentError, match="Hand contract after a pickup|cannot reach"):
        g.play("grand hand")


def test_random_games_are_consistent():
    rng = random.Random(7)
    for i in range(300):
        g = skat.Game.random(seed=9, index=i)
        first = copy.deepcopy(g)
        while not g.finished:
            legal = g.legal_actions()
            assert legal, g
            if g.phase == "bidding" and rng.random() < 0.5:
                g.play(legal[min(1, len(legal) - 1)])
            else:
                g.play(rng.choice(legal))
        r = g.result()
        assert set(r) == RESULT_KEYS
        replay = first
        for seat, a in g.history:
            assert replay.player == seat
            replay.play(a)
        assert replay == g
        if r["declarer"] is None:
            assert r["tp"] == [0, 0, 0]
            continue
        d = r["declarer"]
        put_away = sum(POINTS[c[1]] for c in g.put_away)
        assert sum(g.trick_points) + put_away == 120
        assert r["declarer_points"] == g.trick_points[d] + put_away
        assert sum(g.tricks_won) == 10 and len(g.tricks) == 10
        v = r["value"]
        want = [0 if r["won"] else 40] * 3
        want[d] = v + 50 if r["won"] else -2 * v - 50
        assert r["tp"] == want == g.returns()
        assert r["list_score"] == (v if r["won"] else -2 * v)


@pytest.mark.parametrize("kwargs", [{"seed": -1}, {"seed": 2**64}, {"index": -3}, {"seed": True}, {"index": "1"}])
def test_random_deals_refuse_bad_seeds_and_indices(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(cfrkit.InvalidArgumentError, match=f"invalid value for {name}"):
        skat.Game.random(**kwargs)
    with pytest.raises(cfrkit.InvalidArgumentError, match=f"invalid value for {name}"):
        schafkopf.Game.random(**kwargs)

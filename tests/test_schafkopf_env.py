"""Schafkopf's environment for learning agents: reset/step, masks, features, PettingZoo."""

from __future__ import annotations

import cfrkit
import numpy as np
import pytest
from cfrkit import schafkopf
from conftest import aec_game


def layout(name: str) -> slice:
    for n, offset, length in schafkopf.FEATURE_LAYOUT:
        if n == name:
            return slice(offset, offset + length)
    raise KeyError(name)


def card_id(name: str) -> int:
    return schafkopf.ACTION_NAMES.index(name) - 11


def test_action_names_are_the_seeds_43_ids():
    names = schafkopf.ACTION_NAMES
    assert len(names) == schafkopf.NUM_ACTIONS == 43
    assert names[:11] == (
        "pass",
        "sauspiel:S",
        "sauspiel:G",
        "sauspiel:E",
        "wenz",
        "solo:S",
        "solo:H",
        "solo:G",
        "solo:E",
        "double",
        "no",
    )
    assert names[11] == "S7" and names[12] == "H7" and names[42] == "EA" and names[11 + 19] == "EO"
    assert sum(length for _, _, length in schafkopf.FEATURE_LAYOUT) == schafkopf.FEATURES == 674


@pytest.mark.parametrize("rules", ["schafkopfrl", "standard"])
def test_random_episodes(rules):
    env = schafkopf.Env(rules=rules)
    rng = np.random.default_rng(0)
    lengths = set()
    for episode in range(200):
        obs, rewards, done = env.reset(seed=episode) if episode % 2 else env.reset()
        assert rewards == [0, 0, 0, 0] and not done
        steps = 0
        while not done:
            p = obs["player"]
            g = env.game
            assert p == g.player and obs["phase"] == g.phase
            mask = obs["mask"]
            assert mask.dtype == np.bool_ and mask.shape == (43,)
            assert obs["legal_actions"] == sorted(g.legal_action_ids()) == np.flatnonzero(mask).tolist()
            named = ["double" if a in ("contra", "retour") else a for a in g.legal_actions()]
            assert [schafkopf.ACTION_NAMES[i] for i in g.legal_action_ids()] == named
            f = obs["features"]
            assert f.dtype == np.float32 and f.shape == (674,) and f.min() >= 0 and f.max() <= 1
            hand = [card_id(c) for c in g.view(p).hand]
            assert sorted(np.flatnonzero(f[layout("hand")]).tolist()) == sorted(hand)
            action = int(rng.choice(obs["legal_actions"]))
            obs, rewards, done = env.step(action)
            steps += 1
            if not done:
                assert rewards == [0, 0, 0, 0]
        assert sum(rewards) == 0 and rewards == env.game.returns()
        assert obs["player"] is None and obs["legal_actions"] == [] and not obs["mask"].any()
        lengths.add(steps)
    assert lengths <= {4, 40, 44} and {40, 44} <= lengths


def test_reset_with_a_seed_reproduces_deals():
    env = schafkopf.Env()
    a, _, _ = env.reset(seed=5)
    first = env.game.dealt_hands
    assert first == schafkopf.Game.random(seed=5).dealt_hands
    env.reset()
    assert env.game.dealt_hands == schafkopf.Game.random(seed=5, index=1).dealt_hands
    b, _, _ = env.reset(seed=5)
    assert env.game.dealt_hands == first and np.array_equal(a["features"], b["features"])


def test_features_of_a_known_position():
    g = schafkopf.Game(
        hands=[
            "EO GO EU HA HK G7 G9 S7",
            "HO GU H9 GA EA E7 SK S8",
            "SO HU SU H10 H8 G10 GK E8",
            "H7 G8 E10 EK E9 SA S10 S9",
        ],
        dealer=3,
    )
    for a in ["sauspiel:G", "pass", "pass", "pass", "no", "no", "contra", "no", "no", "no", "no", "no", "S7", "S8"]:
        g.play(a)
    f = g.features(2)  # seat 2 to act; relative seats: 0 = seat 2, 1 = seat 3, 2 = seat 0, 3 = seat 1
    assert f[layout("phase")].tolist() == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert f[layout("game_kind")].tolist() == [1, 0, 0] and f[layout("game_suit")].tolist() == [0, 0, 1, 0]
    assert f[layout("declarer")].tolist() == [0, 0, 1, 0]
    assert f[layout("contra")].tolist() == [1, 0, 0, 0] and f[layout("retour")].tolist() == [0, 0, 0, 0]
    assert f[layout("first_player")].tolist() == [0, 0, 1, 0]
    decl = f[layout("declarations")].reshape(4, 9)
    assert decl[2].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0] and decl[0].tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    trick = f[layout("trick")].reshape(4, 32)
    assert np.flatnonzero(trick[2]).tolist() == [card_id("S7")] and np.flatnonzero(trick[3]).tolist() == [card_id("S8")]
    assert not trick[0].any() and not trick[1].any()
    played = f[layout("played")].reshape(4, 32)
    assert np.array_equal(played, trick)
    assert np.array_equal(f[layout("led")].reshape(4, 32), np.eye(32)[[card_id("S7")]] * [[0], [0], [1], [0]])
    assert not f[layout("off_suit")].any() and not f[layout("voids")].any()
    # Seat 2 holds no plain Schellen (SO and SU are trumps): every card is legal.
    assert sorted(np.flatnonzero(f[layout("legal")])) == sorted(card_id(c) for c in "SO HU SU H10 H8 G10 GK E8".split())
    env = schafkopf.Env()
    env.reset(seed=0)
    env.game = g
    obs = env.observe(2)
    assert np.array_equal(obs["features"], f) and obs["mask"].any()
    assert not env.observe(1)["mask"].any()
    g.play("H8")  # a trump on a Schellen lead: seat 2 shows it holds no Schellen
    f3 = g.features(3)  # relative seats: 0 = seat 3, 1 = seat 0, 2 = seat 1, 3 = seat 2
    assert np.flatnonzero(f3[layout("led")].reshape(4, 32)[1]).tolist() == [card_id("S7")]
    off = f3[layout("off_suit")].reshape(4, 32)
    assert np.flatnonzero(off[3]).tolist() == [card_id("H8")] and not off[:3].any()
    assert f3[layout("voids")].reshape(4, 5).tolist() == [[0] * 5, [0] * 5, [0] * 5, [1, 0, 0, 0, 0]]
    assert sorted(np.flatnonzero(f3[layout("legal")])) == sorted(card_id(c) for c in ["SA", "S10", "S9"])
    assert not g.features(2)[layout("legal")].any()


def test_illegal_steps_and_unreset_env():
    env = schafkopf.Env()
    with pytest.raises(cfrkit.InvalidArgumentError, match="reset"):
        env.step(0)
    obs, _, _ = env.reset(seed=1)
    illegal = next(i for i in range(43) if i not in obs["legal_actions"])
    before = env.game.copy()
    with pytest.raises(cfrkit.InvalidArgumentError, match="legal actions"):
        env.step(illegal)
    for bad in (43, -1):
        with pytest.raises(cfrkit.InvalidArgumentError):
            env.step(bad)
    assert env.game == before
    obs, _, _ = env.step("pass")
    assert env.game.bids.count("pass") == 1
    with pytest.raises(cfrkit.InvalidArgumentError):
        schafkopf.Env(rules="nope")
    with pytest.raises(cfrkit.InvalidArgumentError):
        env.reset(seed=-1)


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from cfrkit.schafkopf.pettingzoo import env, raw_env
    from pettingzoo.test import api_test

    api_test(env(), num_cycles=300)
    api_test(raw_env(rules="standard"), num_cycles=300)
    total, _ = aec_game(env(), 3, lambda legal: legal[0])
    assert sum(total.values()) == 0

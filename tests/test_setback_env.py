"""Setback's environment for learning agents (the one every trick-taking game has, ``cfrkit._env``):
reset/step, masks, features, whole games to 11, PettingZoo."""

from __future__ import annotations

import cfrkit
import numpy as np
import pytest
from cfrkit import setback
from conftest import aec_game


def layout(name: str) -> slice:
    for n, offset, length in setback.FEATURE_LAYOUT:
        if n == name:
            return slice(offset, offset + length)
    raise KeyError(name)


#: The features that are not 0 or 1: the game points taken and the game score (per team).
COUNTS = np.r_[layout("game_points"), layout("score")]


def test_action_names_and_features():
    names = setback.ACTION_NAMES
    assert len(names) == setback.NUM_ACTIONS == 56
    assert names[:5] == ("pass", "2", "3", "4", "2C") and names[-1] == "AS"
    assert sum(length for _, _, length in setback.FEATURE_LAYOUT) == setback.FEATURES == 532


def test_games_to_eleven():
    """Random moves for West and East, the rules agent's for North and South (two random teams
    can go set deal after deal for ever: the engine refuses a game of over 1,000 deals)."""
    env = setback.Env()
    rng = np.random.default_rng(0)
    rules = setback.agent("rules")
    for episode in range(30):
        obs, rewards, done = env.reset(seed=episode) if episode % 2 else env.reset()
        assert rewards == [0, 0, 0, 0] and not done
        while not done:
            g, p = env.game, obs["player"]
            assert p == g.player == g.to_act and obs["phase"] == g.phase
            mask = obs["mask"]
            assert mask.dtype == np.bool_ and mask.shape == (56,)
            assert obs["legal_actions"] == g.legal_action_ids() == np.flatnonzero(mask).tolist()
            view = g.view(p)
            if g.phase == "auction":
                assert [setback.ACTION_NAMES[i] for i in obs["legal_actions"]] == [
                    "pass" if b == 0 else str(b) for b in view.legal_bids()
                ]
            else:
                assert [setback.ACTION_NAMES[i] for i in obs["legal_actions"]] == view.legal_cards()
            f = obs["features"]
            assert f.dtype == np.float32 and f.shape == (532,)
            assert set(np.unique(np.delete(f, COUNTS)).tolist()) <= {0.0, 1.0}  # all but points and scores
            mine = view.team  # the score block: the viewer's team, then the other
            assert np.allclose(f[layout("score")] * 11, [view.score[mine], view.score[1 - mine]])
            if p % 2:
                move = rules.act(view)
                obs, rewards, done = env.step("pass" if move == 0 else str(move))
            else:
                obs, rewards, done = env.step(int(rng.choice(obs["legal_actions"])))
            if not done:
                assert rewards == [0, 0, 0, 0]
        g = env.game
        assert g.finished and max(g.scores) >= 11 and rewards == g.returns()
        assert rewards == [1 if seat % 2 == g.winner else -1 for seat in range(4)]
        assert obs["player"] is None and obs["legal_actions"] == [] and not obs["mask"].any()


def test_an_episode_is_the_game_the_engine_plays():
    """The rules agent through the environment (names and ids) and through the game's own loop
    (``agent_move``, which scores each deal with ``next_deal``) end with the same scores."""
    rules = setback.agent("rules")
    for seed in range(6):
        env = setback.Env()
        obs, _, done = env.reset(seed=seed)
        steps = 0
        while not done:
            move = rules.act(env.game.view(obs["player"]))  # a bid (int) or a card's name
            name = "pass" if move == 0 else str(move)
            obs, rewards, done = env.step(name if steps % 2 else setback.ACTION_NAMES.index(name))
            steps += 1
        direct = setback.Game(seed=seed)
        while direct.winner is None:
            if direct.deal_over:
                direct.next_deal()
            else:
                direct.agent_move(rules)
        assert env.game.scores == direct.scores and env.game.winner == direct.winner, seed


def test_reset_seeds_illegal_steps_and_an_unreset_env():
    env = setback.Env()
    with pytest.raises(cfrkit.InvalidArgumentError, match="reset"):
        env.step(0)
    a, _, _ = env.reset(seed=5)
    first = env.game.view(a["player"]).hand
    env.reset()
    b, _, _ = env.reset(seed=5)
    assert env.game.view(b["player"]).hand == first and np.array_equal(a["features"], b["features"])
    illegal = next(i for i in range(56) if i not in b["legal_actions"])
    for bad in (illegal, 56, -1, "5", "ZZ"):
        with pytest.raises(cfrkit.InvalidArgumentError):
            env.step(bad)
    again = env.observe(b["player"])
    assert again["legal_actions"] == b["legal_actions"] and np.array_equal(again["features"], b["features"])
    with pytest.raises(cfrkit.InvalidArgumentError):
        env.reset(seed=-1)
    with pytest.raises(cfrkit.InvalidArgumentError):
        setback.Game.random(seed=1, index=-1)


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from cfrkit.setback.pettingzoo import env, raw_env
    from pettingzoo.test import api_test

    api_test(env(), num_cycles=300)
    api_test(raw_env(), num_cycles=300)
    total, _ = aec_game(env(), 3, lambda legal: legal[-1])
    # The highest id every time: every team bids 4 and goes set, deal after deal: a draw.
    assert list(total.values()) == [0, 0, 0, 0]
    g = setback.Game.random(seed=3)
    while not g.finished:
        g.step_id(g.legal_action_ids()[-1])
    assert g.winner is None and g.returns() == [0, 0, 0, 0] and min(g.scores) < -400

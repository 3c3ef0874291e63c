"""Step-by-step comparison with the seed's environment (SchafkopfRL, GPL; run from a checkout
outside this repository, nothing of it copied here).

Set ``SCHAFKOPFRL_DIR`` to a checkout of https://github.com/tobiasemrich/SchafkopfRL (the
directory holding ``schafkopfrl/``); the tests are skipped without one. Each game is dealt by
the seed's ``reset()``; at every step the seat asked, the phase and the legal actions must be
the same, the same action is played in both, and the final rewards, card points and the seat
that ran away must agree. The seed's rule-based declarations and doublings (deterministic
functions of the hand) must equal the ``rules`` agent's, and at every card decision the cards its
rule-based player can choose (its random choices enumerated) must be those the ``rules`` agent
chooses from.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from cfrkit import schafkopf

SEED_DIR = Path(os.environ.get("SCHAFKOPFRL_DIR", "/work/seed-schafkopfrl")) / "schafkopfrl"
pytestmark = pytest.mark.skipif(
    not (SEED_DIR / "schafkopf_env.py").exists(), reason="no SchafkopfRL checkout (set SCHAFKOPFRL_DIR)"
)

RANKS = ["7", "8", "9", "U", "O", "K", "10", "A"]
SUITS = "SHGE"
STAGES = {1: "bidding", 2: "contra", 3: "retour", 4: "tricks"}


@pytest.fixture(scope="module")
def seed_modules():
    sys.path.insert(0, str(SEED_DIR))
    try:
        import schafkopf_env
        from players.rule_based_player import RuleBasedPlayer
    finally:
        sys.path.remove(str(SEED_DIR))
    return schafkopf_env, RuleBasedPlayer


def card_name(c) -> str:
    return SUITS[c[0]] + RANKS[c[1]]


def action_name(a, stage: int) -> str:
    if stage == 1:
        color, kind = a
        if kind is None:
            return "pass"
        if kind == 1:
            return "wenz"
        return f"{'sauspiel' if kind == 0 else 'solo'}:{SUITS[color]}"
    if stage in (2, 3):
        return ("contra" if stage == 2 else "retour") if a else "no"
    return card_name(a)


def play_compared(env_module, rng: random.Random, seed: int, pass_bias: float, rules_player=None):
    env = env_module.SchafkopfEnv(seed=seed)
    state, _, done = env.reset()
    gs = state["game_state"]
    g = schafkopf.Game(hands=[" ".join(card_name(c) for c in h) for h in env.player_cards], dealer=gs.dealer)
    rules_agent = schafkopf.agent("rules")
    steps = 0
    rewards = [0, 0, 0, 0]
    while not done:
        gs = state["game_state"]
        stage = gs.game_stage
        assert g.player == gs.current_player, f"step {steps}"
        assert g.phase == STAGES[stage], f"step {steps}"
        allowed = state["allowed_actions"]
        names = [action_name(a, stage) for a in allowed]
        if stage == 4:
            assert sorted(names) == sorted(g.legal_actions()), f"step {steps}: {names} vs {g.legal_actions()}"
        else:
            assert names == g.legal_actions(), f"step {steps}"
        if rules_player is not None and stage in (1, 2, 3):
            # The seed's rule-based declaration and doubling are functions of the hand.
            if stage == 1:
                mine, _ = rules_player.call_game_type(state["current_player_cards"], allowed)
            else:
                mine, _ = rules_player.contra_retour(state["current_player_cards"], allowed)
            ours = rules_agent.act(g.view(g.player))
            assert action_name(mine, stage) == ours, f"step {steps}: seed {mine}, ours {ours}"
        if stage == 1 and rng.random() < pass_bias:
            action = allowed[0]
        else:
            action = rng.choice(allowed)
        g.play(action_name(action, stage))
        state, rewards, done = env.step(action)
        steps += 1
        assert g.davongelaufen == state["game_state"].davongelaufen
    assert g.finished and g.player is None
    assert g.returns() == rewards
    assert g.scores == state["game_state"].scores
    assert steps == len(g.history())
    return g


def test_random_games_match_the_seed_step_by_step(seed_modules):
    env_module, rule_based = seed_modules
    rng = random.Random(7)
    contracts = {}
    for i in range(4000):
        g = play_compared(env_module, rng, seed=i, pass_bias=[0.0, 0.6, 0.9][i % 3], rules_player=rule_based())
        kind = (g.contract or "").split(":")[0]
        contracts[kind] = contracts.get(kind, 0) + 1
    assert set(contracts) >= {"sauspiel", "wenz", "solo", "passed"}, contracts


class _Scripted:
    """Stands in for the ``random`` module of the seed's rule-based player: ``choice`` takes the
    elements a script names (then the first ones) and records how many there were to choose from."""

    def __init__(self, path):
        self.path, self.sizes = path, []

    def choice(self, seq):
        i = len(self.sizes)
        self.sizes.append(len(seq))
        return seq[self.path[i] if i < len(self.path) else 0]


def seed_support(module, player, state) -> set:
    """Every card the seed's rule-based player can play in ``state``: its random choices enumerated."""
    out, stack = set(), [[]]
    saved = module.random
    try:
        while stack:
            path = stack.pop()
            module.random = _Scripted(path)
            card, _ = player.act(state)
            out.add(card_name(card))
            sizes = module.random.sizes
            for j in range(len(path), len(sizes)):
                for k in range(1, sizes[j]):
                    stack.append(path + [0] * (j - len(path)) + [k])
    finally:
        module.random = saved
    return out


def test_rule_based_card_choices_match_the_seed(seed_modules):
    env_module, rule_based = seed_modules
    module = sys.modules[rule_based.__module__]
    ours = schafkopf.agent("rules")
    rng = random.Random(3)
    decisions = 0
    for i in range(150):
        env = env_module.SchafkopfEnv(seed=10_000 + i)
        state, _, done = env.reset()
        players = [rule_based() for _ in range(4)]  # one object per seat: one role per seat
        g = schafkopf.Game(
            hands=[" ".join(card_name(c) for c in h) for h in env.player_cards], dealer=state["game_state"].dealer
        )
        while not done:
            gs = state["game_state"]
            p = gs.current_player
            if gs.game_stage == 4:
                theirs = seed_support(module, players[p], state)
                mine = {ours.act(g.view(p), seed=s) for s in range(200)}
                assert mine == theirs, f"game {i}, {g.contract}, trick {g.tricks_done}: ours {mine}, seed {theirs}"
                name = rng.choice(sorted(theirs))
                action = next(a for a in state["allowed_actions"] if card_name(a) == name)
                decisions += 1
            else:
                action, _ = players[p].act(state)
            g.play(action_name(action, gs.game_stage))
            state, rewards, done = env.step(action)
        assert g.returns() == rewards
    assert decisions == 150 * 32

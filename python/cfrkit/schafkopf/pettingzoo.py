"""A PettingZoo AEC environment of Schafkopf (optional dependency: ``pip install cfrkit[pettingzoo]``).

>>> from cfrkit.schafkopf.pettingzoo import env
>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (366,))

Agents ``player_0`` … ``player_3`` are the seats. Observations are dicts of the seat's feature
vector (``observation``, float32 in [0, 1]) and its legal-action mask (``action_mask``, int8
over the 43 action ids); actions are ids (``Discrete(43)``). Every seat is asked at every step,
decisions with one legal action included. Rewards are 0 until the last card, then every seat's
payment in cents; all seats terminate together. ``reset(seed=s)`` deals
``schafkopf.Game.random(seed=s)``; later resets without a seed deal the following deals.
"""

from __future__ import annotations

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError(
        "cfrkit.schafkopf.pettingzoo needs PettingZoo: pip install 'cfrkit[pettingzoo]' (or pettingzoo)"
    ) from e

import numpy as np

from .. import schafkopf as _sk


def env(**kwargs):
    """The AEC environment wrapped in PettingZoo's usual order-enforcing wrappers."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """Schafkopf as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "schafkopf_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "schafkopfrl", render_mode: str | None = None) -> None:
        super().__init__()
        self._env = _sk.Env(rules=rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = list(self.possible_agents)
        features = gymnasium.spaces.Box(0.0, 1.0, (_sk.FEATURES,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (_sk.NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": features, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(_sk.NUM_ACTIONS) for a in self.possible_agents}
        self._seeded = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None and not self._seeded:
            seed = 0
        self._env.reset(seed)
        self._seeded = True
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._env.game.player]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        features, mask = self._env.game.observe(seat)
        return {"observation": features, "action_mask": mask.astype(np.int8)}

    def step(self, action) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0
        _, rewards, done = self._env.step(int(action))
        if done:
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(rewards[i])
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self._env.game.player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        g = self._env.game
        text = f"{g!r} tricks={g.tricks} returns={g.returns()}"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        pass


__all__ = ["env", "raw_env"]

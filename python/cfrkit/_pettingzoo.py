"""PettingZoo AEC environments of the card games, shared: one class over a game's ``Env``
(``reset(seed)``, ``step(id)`` returning ``(observation, rewards, done)``, ``game.player``,
``game.observe(seat)``). The games' modules (:mod:`cfrkit.schafkopf.pettingzoo`,
:mod:`cfrkit.skat.pettingzoo`, :mod:`cfrkit.setback.pettingzoo`) give it their environment,
seats and sizes; importing any of them without PettingZoo says which extra to install.
"""

from __future__ import annotations

import numpy as np

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError(
        "cfrkit's PettingZoo environments need PettingZoo: pip install 'cfrkit[pettingzoo]' (or pettingzoo)"
    ) from e


def wrapped(e: AECEnv) -> AECEnv:
    """``e`` in PettingZoo's usual order-enforcing wrappers (an illegal action ends the game
    with reward −1 for its player)."""
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class CardGameAEC(AECEnv):
    """A game's ``Env`` as an AEC environment: agents ``player_0`` … are the seats; observations
    are dicts of the seat's features (``observation``, float32 within ``bounds``) and legal-action mask
    (``action_mask``, int8); actions are ids (``Discrete``). Rewards are 0 until the game is
    over, then every seat's result; all seats terminate together. The first reset without a
    seed deals the deals of seed 0; later resets without a seed deal the following deals."""

    def __init__(
        self,
        inner,
        seats: int,
        features: int,
        actions: int,
        render_mode: str | None = None,
        bounds: tuple[float, float] = (0.0, 1.0),
    ) -> None:
        super().__init__()
        self._env = inner
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self.agents = list(self.possible_agents)
        box = gymnasium.spaces.Box(*bounds, (features,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(actions) for a in self.possible_agents}
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
        tricks = f" tricks={g.tricks}" if hasattr(g, "tricks") else ""
        text = f"{g!r}{tricks} returns={g.returns()}"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        pass

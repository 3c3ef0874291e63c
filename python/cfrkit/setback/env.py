"""An environment for learning agents: ``reset`` and ``step`` return ``(observation, rewards,
done)``; one step is one bid or one card, and an episode is a whole game to 11 points (a step
that ends a deal scores it and deals the next).

>>> from cfrkit import setback
>>> env = setback.Env()
>>> obs, rewards, done = env.reset(seed=1)
>>> obs["features"].shape, obs["mask"].shape, rewards, done
((532,), (56,), [0, 0, 0, 0], False)
>>> while not done:
...     obs, rewards, done = env.step(obs["legal_actions"][-1])
>>> sorted(rewards)
[-1, -1, 1, 1]

The observation is that of the seat to act (``obs["player"]``; seats West 0, North 1, East 2,
South 3, teams West+East and North+South): its ``features`` (float32,
:data:`~cfrkit.setback.FEATURES` long, layout :data:`~cfrkit.setback.FEATURE_LAYOUT`: the
features of the learned policies), the legal-action ``mask`` over the
:data:`~cfrkit.setback.NUM_ACTIONS` action ids (:data:`~cfrkit.setback.ACTION_NAMES`: pass, the
bids 2–4, the 52 cards), the legal ids ``legal_actions`` and the ``phase``. Rewards are 0 until
the game is over, then 1 for each seat of the winning team and -1 for the others (0 for all
after a game that no team won in 1,000 deals: policies that only ever go set). ``env.game``
is the :class:`~cfrkit.setback.Game` being played; ``env.observe(seat)`` gives any seat's
observation.
"""

from __future__ import annotations

from .._cfrkit import SETBACK_NUM_ACTIONS
from .._cfrkit import SetbackGame as Game
from .._env import TrickEnv


class Env(TrickEnv):
    """Setback games one after another, from a seed: game ``i`` after ``reset(seed=s)`` is
    ``Game.random(seed=s, index=i)``."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(lambda s, i: Game.random(seed=s, index=i), 4, SETBACK_NUM_ACTIONS, seed)


__all__ = ["Env"]

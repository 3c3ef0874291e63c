"""An environment for learning agents: ``reset`` and ``step`` return ``(observation, rewards,
done)``; one step is one action of the game (a call, Hand or pickup, a whole discard, the
contract, a card).

>>> from cfrkit import skat
>>> env = skat.Env()
>>> obs, rewards, done = env.reset(seed=1)
>>> obs["features"].shape, obs["mask"].shape, rewards, done
((561,), (624,), [0, 0, 0], False)
>>> while not done:
...     obs, rewards, done = env.step(obs["legal_actions"][-1])
>>> len(rewards)
3

The observation is that of the seat to act (``obs["player"]``): its ``features`` (float32,
:data:`~cfrkit.skat.FEATURES` long, layout :data:`~cfrkit.skat.FEATURE_LAYOUT`), the legal-action
``mask`` over the :data:`~cfrkit.skat.NUM_ACTIONS` action ids (:data:`~cfrkit.skat.ACTION_NAMES`)
and the legal ids ``legal_actions``, and the ``phase``. Rewards are 0 until the game is over,
then the Seeger-Fabian points per seat. ``env.game`` is the :class:`~cfrkit.skat.Game` being
played; ``env.observe(seat)`` gives any seat's observation.
"""

from __future__ import annotations

from .._cfrkit import SKAT_NUM_ACTIONS
from .._cfrkit import SkatGame as Game
from .._env import TrickEnv


class Env(TrickEnv):
    """Skat deals one after another, from a seed: deal ``i`` after ``reset(seed=s)`` is
    ``Game.random(seed=s, index=i)`` (the deals of matches with seed ``s``)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(lambda s, i: Game.random(seed=s, index=i), 3, SKAT_NUM_ACTIONS, seed)


__all__ = ["Env"]

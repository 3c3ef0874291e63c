"""An environment for learning agents in SchafkopfRL's form: ``reset`` and ``step`` return
``(observation, rewards, done)``.

>>> from cfrkit import schafkopf
>>> env = schafkopf.Env()
>>> obs, rewards, done = env.reset(seed=1)
>>> obs["features"].shape, obs["mask"].shape, rewards, done
((674,), (43,), [0, 0, 0, 0], False)
>>> while not done:
...     obs, rewards, done = env.step(obs["legal_actions"][0])
>>> sum(rewards)
0

The observation is that of the seat to act (``obs["player"]``): its ``features`` (float32,
:data:`~cfrkit.schafkopf.FEATURES` long, layout :data:`~cfrkit.schafkopf.FEATURE_LAYOUT`), the
legal-action ``mask`` over the 43 action ids and the legal ids ``legal_actions``, and the
``phase``. Every seat is asked at every step, decisions with one legal action included
(SchafkopfRL's protocol). Rewards are 0 until the last card, then the payments in cents per
seat. ``env.game`` is the :class:`~cfrkit.schafkopf.Game` being played; ``env.observe(seat)``
gives any seat's observation.
"""

from __future__ import annotations

from .._cfrkit import SCHAFKOPF_NUM_ACTIONS
from .._cfrkit import SchafkopfGame as Game
from .._env import TrickEnv


class Env(TrickEnv):
    """Schafkopf deals one after another, from a seed: deal ``i`` after ``reset(seed=s)`` is
    ``Game.random(seed=s, index=i)`` (the deals of matches with seed ``s``), under ``rules``."""

    def __init__(self, rules: str = "schafkopfrl", seed: int = 0) -> None:
        Game.random(seed=0, rules=rules)  # checks the rules' name
        self.rules = rules
        super().__init__(lambda s, i: Game.random(seed=s, rules=rules, index=i), 4, SCHAFKOPF_NUM_ACTIONS, seed)


__all__ = ["Env"]

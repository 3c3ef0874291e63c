"""A PettingZoo AEC environment of Schafkopf (optional dependency: ``pip install cfrkit[pettingzoo]``).

>>> from cfrkit.schafkopf.pettingzoo import env
>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (674,))

Agents ``player_0`` … ``player_3`` are the seats. Observations are dicts of the seat's feature
vector (``observation``, float32 in [0, 1]) and its legal-action mask (``action_mask``, int8
over the 43 action ids); actions are ids (``Discrete(43)``). Every seat is asked at every step,
decisions with one legal action included. Rewards are 0 until the last card, then every seat's
payment in cents; all seats terminate together. ``reset(seed=s)`` deals
``schafkopf.Game.random(seed=s)``; later resets without a seed deal the following deals.
"""

from __future__ import annotations

from .. import schafkopf as _sk
from .._pettingzoo import CardGameAEC, wrapped


def env(**kwargs):
    """The AEC environment wrapped in PettingZoo's usual order-enforcing wrappers."""
    return wrapped(raw_env(**kwargs))


class raw_env(CardGameAEC):
    """Schafkopf as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "schafkopf_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "schafkopfrl", render_mode: str | None = None) -> None:
        super().__init__(_sk.Env(rules=rules), 4, _sk.FEATURES, _sk.NUM_ACTIONS, render_mode)


__all__ = ["env", "raw_env"]

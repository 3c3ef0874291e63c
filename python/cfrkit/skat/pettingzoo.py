"""A PettingZoo AEC environment of Skat (optional dependency: ``pip install cfrkit[pettingzoo]``).

>>> from cfrkit.skat.pettingzoo import env
>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (561,))

Agents ``player_0`` … ``player_2`` are the seats (Vorhand, Mittelhand, Hinterhand).
Observations are dicts of the seat's feature vector (``observation``, float32 in [0, 1]) and its
legal-action mask (``action_mask``, int8 over the 624 action ids); actions are ids
(``Discrete(624)``): one id is one action of the game (a call, Hand or pickup, a whole discard,
the contract, a card). Rewards are 0 until the game is over, then every seat's Seeger-Fabian
points; all seats terminate together. ``reset(seed=s)`` deals ``skat.Game.random(seed=s)``;
later resets without a seed deal the following deals.
"""

from __future__ import annotations

from .. import skat as _skat
from .._pettingzoo import CardGameAEC, wrapped


def env(**kwargs):
    """The AEC environment wrapped in PettingZoo's usual order-enforcing wrappers."""
    return wrapped(raw_env(**kwargs))


class raw_env(CardGameAEC):
    """Skat as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "skat_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(_skat.Env(), 3, _skat.FEATURES, _skat.NUM_ACTIONS, render_mode)


__all__ = ["env", "raw_env"]

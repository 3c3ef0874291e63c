"""A PettingZoo AEC environment of Setback (optional dependency: ``pip install cfrkit[pettingzoo]``).

>>> from cfrkit.setback.pettingzoo import env
>>> e = env()
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (532,))

Agents ``player_0`` … ``player_3`` are the seats West, North, East, South (teams West+East and
North+South). Observations are dicts of the seat's feature vector (``observation``, float32: 0
or 1 but the game points and the scores) and its legal-action mask (``action_mask``, int8 over
the 56 action ids); actions are ids (``Discrete(56)``: pass, the bids 2–4, the 52 cards). An
episode is a whole game to 11 points; rewards are 0 until it is over, then 1 for the winning
team's seats and -1 for the others (0 after a game no team won in 1,000 deals); all seats
terminate together. ``reset(seed=s)`` starts ``setback.Game.random(seed=s)``; later resets
without a seed start the following games.
"""

from __future__ import annotations

from .. import setback as _setback
from .._pettingzoo import CardGameAEC, wrapped


def env(**kwargs):
    """The AEC environment wrapped in PettingZoo's usual order-enforcing wrappers."""
    return wrapped(raw_env(**kwargs))


class raw_env(CardGameAEC):
    """Setback as a PettingZoo AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "setback_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None) -> None:
        # The game points and the scores are counts, not 0 or 1 (a score may be below zero).
        bounds = (-float("inf"), float("inf"))
        super().__init__(_setback.Env(), 4, _setback.FEATURES, _setback.NUM_ACTIONS, render_mode, bounds)


__all__ = ["env", "raw_env"]

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

import numpy as np

from .._cfrkit import SKAT_NUM_ACTIONS
from .._cfrkit import SkatGame as Game
from ..errors import InvalidArgumentError


class Env:
    """Skat deals one after another, from a seed: deal ``i`` after ``reset(seed=s)`` is
    ``Game.random(seed=s, index=i)`` (the deals of matches with seed ``s``)."""

    def __init__(self, seed: int = 0) -> None:
        self._seed = self._check_seed(seed)
        self._index = 0
        self.game: Game | None = None

    @staticmethod
    def _check_seed(seed) -> int:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"invalid value for seed: {seed!r} (an integer from 0 to 2**64 - 1)")
        return int(seed)

    def reset(self, seed: int | None = None):
        """Deals the next deal (the first of ``seed`` when given); returns ``(observation,
        [0, 0, 0], False)``."""
        if seed is not None:
            self._seed, self._index = self._check_seed(seed), 0
        self.game = Game.random(seed=self._seed, index=self._index)
        self._index += 1
        return self._observation(self.game.player), [0, 0, 0], False

    def step(self, action):
        """Plays ``action`` (an id 0–623, or a name) for the seat to act; returns ``(observation,
        rewards, done)``. An illegal action raises ``InvalidArgumentError`` and changes nothing."""
        game = self._game()
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            if not 0 <= action < SKAT_NUM_ACTIONS:
                raise InvalidArgumentError(
                    f"invalid value for action: {action!r} (an action id 0..{SKAT_NUM_ACTIONS - 1} or a name)"
                )
            player, done, returns = game.step_id(int(action))
        else:
            game.play(action)
            player, done, returns = game.player, game.finished, game.returns()
        return self._observation(player), list(returns) if done else [0, 0, 0], done

    def observe(self, seat: int) -> dict:
        """The observation of ``seat`` (its mask is all false unless it is to act)."""
        return self._observation(seat, self._game())

    def legal_actions(self) -> list:
        """The legal action ids of the seat to act."""
        return self._game().legal_action_ids()

    def _game(self) -> Game:
        if self.game is None:
            raise InvalidArgumentError("invalid value for env: not reset (call reset() first)")
        return self.game

    def _observation(self, seat, game: Game | None = None) -> dict:
        game = game or self.game
        if seat is None:
            features, mask = game.observe(0)
            return {"player": None, "phase": game.phase, "features": features, "mask": mask, "legal_actions": []}
        features, mask = game.observe(seat)
        return {
            "player": seat,
            "phase": game.phase,
            "features": features,
            "mask": mask,
            "legal_actions": np.flatnonzero(mask).tolist(),
        }


__all__ = ["Env"]

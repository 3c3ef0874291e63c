"""The environment for learning agents of every trick-taking game, written once: ``reset`` and
``step`` return ``(observation, rewards, done)``; one step is one action of the game. A game gives
its ``Game`` class's constructor of deal ``index`` of a seed, its number of seats and of action ids;
the game object brings ``player``, ``phase``, ``finished``, ``returns()``, ``observe(seat)``
(features and legal-action mask), ``step_id(id)``, ``play(name)`` and ``legal_action_ids()``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .errors import InvalidArgumentError


class TrickEnv:
    """Deals one after another from a seed: deal ``i`` after ``reset(seed=s)`` is ``deal(s, i)``
    (the deals of matches with seed ``s``)."""

    def __init__(self, deal: Callable[[int, int], Any], seats: int, num_actions: int, seed: int = 0) -> None:
        self._deal, self._seats, self._num_actions = deal, seats, num_actions
        self._seed = self._check_seed(seed)
        self._index = 0
        self.game = None

    @staticmethod
    def _check_seed(seed) -> int:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"invalid value for seed: {seed!r} (an integer from 0 to 2**64 - 1)")
        return int(seed)

    def reset(self, seed: int | None = None):
        """Deals the next deal (the first of ``seed`` when given); returns ``(observation, zeros,
        False)``."""
        if seed is not None:
            self._seed, self._index = self._check_seed(seed), 0
        self.game = self._deal(self._seed, self._index)
        self._index += 1
        return self._observation(self.game.player), [0] * self._seats, False

    def step(self, action):
        """Plays ``action`` (an action id or a name) for the seat to act; returns ``(observation,
        rewards, done)``. An illegal action raises ``InvalidArgumentError`` and changes nothing."""
        game = self._game()
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            if not 0 <= action < self._num_actions:
                raise InvalidArgumentError(
                    f"invalid value for action: {action!r} (an action id 0..{self._num_actions - 1} or a name)"
                )
            player, done, returns = game.step_id(int(action))
        else:
            game.play(action)
            player, done, returns = game.player, game.finished, game.returns()
        return self._observation(player), list(returns) if done else [0] * self._seats, done

    def observe(self, seat: int) -> dict:
        """The observation of ``seat`` (its mask is all false unless it is to act)."""
        return self._observation(seat, self._game())

    def legal_actions(self) -> list:
        """The legal action ids of the seat to act."""
        return self._game().legal_action_ids()

    def _game(self):
        if self.game is None:
            raise InvalidArgumentError("invalid value for env: not reset (call reset() first)")
        return self.game

    def _observation(self, seat, game=None) -> dict:
        game = game or self.game
        features, mask = game.observe(0 if seat is None else seat)
        return {
            "player": seat,
            "phase": game.phase,
            "features": features,
            "mask": mask,
            "legal_actions": [] if seat is None else np.flatnonzero(mask).tolist(),
        }


__all__ = ["TrickEnv"]

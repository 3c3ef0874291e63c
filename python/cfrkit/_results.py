"""What the result records of matches share: speed and a dict for JSON."""

from __future__ import annotations

import dataclasses


class GamesResult:
    """Mixin for result dataclasses with ``games`` and ``seconds`` fields."""

    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["games_per_second"] = self.games_per_second
        return d

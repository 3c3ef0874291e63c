"""What the result records of matches share: speed and a dict for JSON."""

from __future__ import annotations

import dataclasses
import warnings


class GamesResult:
    """Mixin for result dataclasses with ``games`` and ``seconds`` fields."""

    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def speed(self) -> str:
        """Games per second for people: whole numbers from 100 up, three digits below."""
        g = self.games_per_second
        return f"{g:,.0f} games/s" if g >= 100 else f"{g:.3g} games/s"

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["games_per_second"] = self.games_per_second
        return d

    def record(self) -> dict:
        """Deprecated name of :meth:`to_dict`."""
        warnings.warn(f"{type(self).__name__}.record() is deprecated; use to_dict()", DeprecationWarning, stacklevel=2)
        return self.to_dict()

"""What every game's tournament checks of its agents."""

from __future__ import annotations

from typing import Sequence

from .errors import InvalidArgumentError


def check_entrants(names: Sequence[str]) -> None:
    """Refuses fewer than two agents, or one named twice: its matches against itself would
    fill the cross table with a copy of a row."""
    if len(names) < 2:
        raise InvalidArgumentError(f"invalid value for agents: {list(names)!r} (two or more agents)")
    twice = sorted({n for n in names if list(names).count(n) > 1})
    if twice:
        raise InvalidArgumentError(f"invalid value for agents: {', '.join(twice)} named twice (each agent once)")

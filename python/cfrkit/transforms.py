"""Final-strategy transforms: functions from a :class:`cfrkit.Policy` to a new one, for
``solver.average_policy(transform=...)``."""

from __future__ import annotations

from typing import Callable

from ._cfrkit import Policy


def _map(policy: Policy, fn: Callable[[dict[int, float]], dict[int, float]]) -> Policy:
    return Policy({key: fn(probs) for key, probs in policy.to_dict().items()}, game=policy.game)


def threshold(minimum: float = 0.001) -> Callable[[Policy], Policy]:
    """Zeroes probabilities below ``minimum`` and renormalises (the argmax survives when all
    would be zeroed)."""
    if not 0 <= minimum < 1:
        from .errors import InvalidArgumentError

        raise InvalidArgumentError(f"invalid value for minimum: {minimum!r} (a number in [0, 1))")

    def one(probs: dict[int, float]) -> dict[int, float]:
        kept = {a: p if p >= minimum else 0.0 for a, p in probs.items()}
        total = sum(kept.values())
        if total == 0:
            best = max(probs, key=probs.get)
            return {a: float(a == best) for a in probs}
        return {a: p / total for a, p in kept.items()}

    return lambda policy: _map(policy, one)


def purify(policy: Policy) -> Policy:
    """Plays the most probable action (the lowest action id among ties) with probability 1."""

    def one(probs: dict[int, float]) -> dict[int, float]:
        best = max(sorted(probs), key=lambda a: probs[a])
        return {a: float(a == best) for a in probs}

    return _map(policy, one)

"""Duplicate Setback matches (spec §5.1): agent A sits West+East, agent B North+South; each pair
of games uses the same decks with the dealer shifted one seat, so every hand goes to the other
team. Pairs run in parallel with the GIL released; results depend only on the seed.

>>> from cfrkit.setback.matches import play_match
>>> r = play_match("rules", "random", pairs=20, seed=1)
>>> r.games, r.win_rate > 0.8
(40, True)
"""

from __future__ import annotations

import dataclasses
import math
import os
import time

from .. import distributed
from .._cfrkit import setback_log_writer, setback_match, setback_match_summary
from .._results import GamesResult
from ..errors import InvalidArgumentError
from .agents import AgentLike, agent


@dataclasses.dataclass
class MatchResult(GamesResult):
    """A match's figures, from A's point of view."""

    a: str
    b: str
    pairs: int
    games: int
    a_wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    deals: int
    mean_points_a: float
    mean_points_b: float
    margin: float
    margin_ci_low: float | None
    margin_ci_high: float | None
    seed: int
    threads: int
    seconds: float

    def _margin_ci(self) -> str:
        if self.margin_ci_low is None:
            return ""
        return f", 95% CI {self.margin_ci_low:+.3f} to {self.margin_ci_high:+.3f}"

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b}: {self.games:,} games ({self.pairs:,} duplicate pairs), "
            f"A wins {self.a_wins:,} = {100 * self.win_rate:.2f}% "
            f"(95% CI {100 * self.ci_low:.2f}-{100 * self.ci_high:.2f}%); mean deal points per deal: "
            f"A {self.mean_points_a:+.3f}, B {self.mean_points_b:+.3f} over {self.deals:,} deals "
            f"(margin {self.margin:+.3f}{self._margin_ci()}); "
            f"{self.seconds:.2f} s, {self.speed}"
        )


def play_match(
    a: AgentLike,
    b: AgentLike,
    pairs: int = 1000,
    *,
    seed: int = 0,
    threads: int = 0,
    backend: distributed.BackendLike = "local",
    log: str | os.PathLike | None = None,
) -> MatchResult:
    """Plays ``pairs`` duplicate pairs (``2 * pairs`` games to 11) of ``a`` against ``b``.

    ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores; the result does not depend on it.
    The 95% intervals treat each pair as one observation (normal approximation): its share of
    wins for the win rate, its point difference and deal count for the margin per deal.

    With ``log`` (a file path) every game is written to a game log (:mod:`cfrkit.logs`), pair
    ``i``'s games as games ``2 i`` and ``2 i + 1``, in order whatever the threads; PIMC agents
    then also log their mean value of every legal bid and card (exact means: more search than
    the choice alone). Logging changes no figure.

    ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) plays the pairs in pieces on a Ray
    cluster (``threads`` then counts per piece; 0 means 1), with the figures (and the log) of a
    local run. Agents must then be spec strings.
    """
    ray = distributed.backend_of(backend, threads)
    aa, bb = agent(a), agent(b)
    if log is None:
        return play_logged(aa, bb, pairs, seed, threads, ray)
    writer = setback_log_writer(os.fspath(log), [aa.name, bb.name], seed)
    try:
        return play_logged(aa, bb, pairs, seed, threads, ray, (writer, None, [aa.name, bb.name]))
    finally:
        writer.finish()


def play_logged(aa, bb, pairs: int, seed: int, threads: int, ray, log: tuple | None = None) -> MatchResult:
    """:func:`play_match` of built agents on ``ray`` (None: locally), writing the games to
    ``log = (writer, slot, names)`` when given: an open log writer, the match's place in it
    (None for a match alone, else ``(match index, pairs per match, i, j)`` of a tournament) and
    the log's agent names."""
    writer, slot, names = log or (None, None, None)
    t0 = time.perf_counter()
    if ray is None:
        r = setback_match(aa, bb, pairs, seed, threads, log=writer, log_match=slot)
    else:
        r = _ray_match(aa, bb, pairs, seed, ray, writer, slot, names)
    seconds = time.perf_counter() - t0
    return MatchResult(
        a=aa.name,
        b=bb.name,
        pairs=r["pairs"],
        games=r["games"],
        a_wins=r["a_wins"],
        win_rate=r["win_rate"],
        ci_low=r["ci"][0],
        ci_high=r["ci"][1],
        deals=r["deals"],
        mean_points_a=r["mean_points"][0],
        mean_points_b=r["mean_points"][1],
        margin=r["margin"],
        # One pair gives no interval.
        margin_ci_low=r["margin_ci"][0] if math.isfinite(r["margin_ci"][0]) else None,
        margin_ci_high=r["margin_ci"][1] if math.isfinite(r["margin_ci"][1]) else None,
        seed=seed,
        threads=r["threads"],
        seconds=seconds,
    )


def _ray_match(aa, bb, pairs: int, seed: int, ray: distributed.Ray, writer, slot, names) -> dict:
    """The pairs on Ray, in pieces; with ``writer`` each piece's games come back as log lines
    appended to the log in piece order."""
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 1:
        raise InvalidArgumentError(f"invalid value for pairs: {pairs!r} (a positive number of duplicate pairs)")
    specs = (distributed.spec_of(aa, agent), distributed.spec_of(bb, agent))
    log_names = None
    if writer is not None:
        writer.finish()  # the header and the games before this match; the pieces' games follow
        log_names = names
    slot = slot or (0, pairs, 0, 1)
    args = [(*specs, seed, ray.threads, f, k, log_names, slot) for f, k in distributed.split(0, pairs, ray)]
    log = None if writer is None else writer.path
    results = distributed.run_pieces(_piece, args, ray, units=[2 * x[5] for x in args], log=log)
    r = setback_match_summary([o for x in results for o in x["outcomes"]])
    r["threads"] = ray.threads
    return r


def _piece(a: str, b: str, seed: int, threads: int, first: int, n: int, names=None, slot=(0, 0, 0, 1)) -> dict:
    """Pairs ``first .. first + n`` of ``a`` against ``b`` on a Ray worker: their outcomes, and
    with ``names`` (the log's agents) their games as log lines (the match at ``slot`` = (index,
    pairs per match, i, j) of the log)."""
    index, per, _, _ = slot
    first_game = 2 * (index * per + first)
    opener = None if names is None else lambda path: setback_log_writer(path, names, seed, first_game)

    def play(log) -> dict:
        aa, bb = agent(a), agent(b)
        d = setback_match(aa, bb, n, seed, threads, first_pair=first, outcomes=True, log=log, log_match=slot)
        return {"outcomes": d["outcomes"]}

    return distributed.with_log_piece(opener, play)


__all__ = ["MatchResult", "play_match"]

"""Duplicate Setback matches (spec §5.1): agent A sits West+East, agent B North+South; each pair
of games uses the same decks with the dealer shifted one seat, so every hand goes to the other
team. Pairs run in parallel with the GIL released; results depend only on the seed.

>>> from cfrkit import setback
>>> r = setback.match("rules", "random", deals=20, seed=1)
>>> r.games, r.win_rate > 0.8
(40, True)
"""

from __future__ import annotations

import dataclasses
import math
import os
import time

from .. import _deprecated, _selfplay, distributed
from .._cfrkit import setback_log_writer, setback_match, setback_match_summary, setback_selfplay
from .._checkpoint import play_in_parts, resuming
from .._progress import ProgressLike, games_bar
from .._results import GamesResult
from ..errors import InvalidArgumentError
from ..logs import MatchLog
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


def match(
    a: AgentLike,
    b: AgentLike,
    deals: int = 1000,
    *,
    seed: int = 0,
    threads: int = 0,
    backend: distributed.BackendLike = "local",
    log: str | os.PathLike | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: ProgressLike = False,
    pairs: int | None = None,
) -> MatchResult:
    """Plays ``deals`` deals of ``a`` against ``b``, each a duplicate pair (``2 * deals`` games to
    11, the second on the same decks with the hands going to the other team). ``pairs=`` is the
    deprecated name of ``deals=`` (and :func:`play_match` of this function).

    ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores; the result does not depend on it.
    The 95% intervals treat each pair as one observation (normal approximation): its share of
    wins for the win rate, its point difference and deal count for the margin per deal.
    ``progress=True`` shows a progress bar; a callable gets ``(games done, games in all)``
    between chunks of games. Ctrl-C stops the match (``KeyboardInterrupt``).

    With ``checkpoint`` (a file path) the match is played in parts and every pair's outcome so
    far is saved after each; called again with the same agents and seed it resumes from the
    file and ends with exactly the figures of an unbroken match (``seconds`` then counts every
    run). A finished match can be extended by asking for more pairs.

    With ``log`` (a file path) every game is written to a game log (:mod:`cfrkit.logs`), pair
    ``i``'s games as games ``2 i`` and ``2 i + 1``, in order whatever the threads; PIMC agents
    then also log their mean value of every legal bid and card (exact means: more search than
    the choice alone). Logging changes no figure. With a checkpoint the log goes on with the
    match: a resumed match first cuts the log back to the games the checkpoint counts.

    ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) plays the pairs in pieces on a Ray
    cluster (``threads`` then counts per piece; 0 means 1), with the figures (and the log) of a
    local run. Agents must then be spec strings.
    """
    pairs = _deprecated.renamed("setback.match", "pairs", pairs, "deals", deals)
    check_pairs(pairs)
    ray = distributed.backend_of(backend, threads)
    aa, bb = agent(a), agent(b)
    names = [aa.name, bb.name]
    resume = resuming(checkpoint)
    opener = (
        None
        if log is None
        else lambda done: setback_log_writer(os.fspath(log), names, seed, pairs_done=done, resume=resume)
    )
    started = time.perf_counter()
    with games_bar(progress, f"{aa.name} vs {bb.name}") as report, MatchLog(opener) as mlog:

        def play(n: int, first: int, progress) -> dict:
            writer = mlog.at(first)
            in_log = None if writer is None else (writer, None, names)
            return play_pairs(aa, bb, first, n, seed, threads, ray, in_log, progress)

        if checkpoint is None:
            r = play(pairs, 0, report)
            return result_of(aa, bb, r, seed, r["threads"], time.perf_counter() - started)
        settings = {"game": "setback", "a": aa.name, "b": bb.name, "seed": seed}
        cp = play_in_parts(checkpoint, settings, pairs, lambda n, f, pr: _as_part(play(n, f, pr)), report)
        return result_of(aa, bb, setback_match_summary([tuple(o) for o in cp.outcomes]), seed, cp.threads, cp.seconds)


def play_logged(aa, bb, pairs: int, seed: int, threads: int, ray, log: tuple | None = None) -> MatchResult:
    """:func:`play_match` of built agents on ``ray`` (None: locally), writing the games to
    ``log = (writer, slot, names)`` when given: an open log writer, the match's place in it
    (None for a match alone, else ``(match index, pairs per match, i, j)`` of a tournament) and
    the log's agent names."""
    t0 = time.perf_counter()
    r = play_pairs(aa, bb, 0, pairs, seed, threads, ray, log)
    return result_of(aa, bb, r, seed, r["threads"], time.perf_counter() - t0)


def check_pairs(pairs) -> None:
    """Refuses a number of pairs that is not a positive integer."""
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 1:
        raise InvalidArgumentError(
            f"invalid value for deals: {pairs!r} (a positive number of deals, each a duplicate pair)"
        )


def play_pairs(aa, bb, first: int, n: int, seed: int, threads: int, ray, log: tuple | None, progress=None) -> dict:
    """Pairs ``first .. first + n`` on ``ray`` (None: locally), with ``log`` as in
    :func:`play_logged`: the native figures, every pair's ``outcomes`` and the ``threads``."""
    writer, slot, names = log or (None, None, None)
    if ray is None:
        return setback_match(
            aa, bb, n, seed, threads, first_pair=first, outcomes=True, log=writer, log_match=slot, progress=progress
        )
    return _ray_match(aa, bb, first, n, seed, ray, writer, slot, names, progress)


def result_of(aa, bb, r: dict, seed: int, threads: int, seconds: float) -> MatchResult:
    """The result of native figures ``r``."""
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
        threads=threads,
        seconds=seconds,
    )


def _as_part(r: dict) -> dict:
    """A part's native figures as the checkpoint merges them: per pair, A's share of its two
    games won (and B's), and every pair's outcome."""
    shares = [wins / 2 for wins, _, _, _ in r["outcomes"]]
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (n - 1)) if n > 1 else 0.0
    return {
        "deals": n,
        "games": r["games"],
        "mean_a": mean,
        "sd_a": sd,
        "mean_b": 1 - mean,
        "sd_b": sd,
        "threads": r["threads"],
        "outcomes": [list(o) for o in r["outcomes"]],
    }


def _ray_match(aa, bb, first: int, pairs: int, seed: int, ray: distributed.Ray, writer, slot, names, progress) -> dict:
    """Pairs ``first .. first + pairs`` on Ray, in pieces; with ``writer`` each piece's games
    come back as log lines appended to the log in piece order."""
    specs = (distributed.spec_of(aa, agent), distributed.spec_of(bb, agent))
    log_names = None
    if writer is not None:
        writer.finish()  # the header and the games before these pairs; the pieces' games follow
        log_names = names
    slot = slot or (0, first + pairs, 0, 1)
    args = [(*specs, seed, ray.threads, f, k, log_names, slot) for f, k in distributed.split(first, pairs, ray)]
    log = None if writer is None else writer.path
    results = distributed.run_pieces(_piece, args, ray, units=[2 * x[5] for x in args], log=log, report=progress)
    outcomes = [o for x in results for o in x["outcomes"]]
    r = setback_match_summary(outcomes)
    r["threads"] = ray.threads
    r["outcomes"] = outcomes
    return r


def _piece(a: str, b: str, seed: int, threads: int, first: int, n: int, names=None, slot=(0, 0, 0, 1)) -> dict:
    """Pairs ``first .. first + n`` of ``a`` against ``b`` on a Ray worker: their outcomes, and
    with ``names`` (the log's agents) their games as log lines (the match at ``slot`` = (index,
    pairs per match, i, j) of the log)."""
    index, per, _, _ = slot
    first_game = 2 * (index * per + first)
    opener = None if names is None else lambda path: setback_log_writer(path, names, seed, first_game, piece=True)

    def play(log) -> dict:
        aa, bb = agent(a), agent(b)
        d = setback_match(aa, bb, n, seed, threads, first_pair=first, outcomes=True, log=log, log_match=slot)
        return {"outcomes": d["outcomes"]}

    return distributed.with_log_piece(opener, play)


def selfplay(
    a: AgentLike,
    deals: int = 1000,
    *,
    seed: int = 0,
    threads: int = 0,
    progress: ProgressLike = False,
    checkpoint: str | os.PathLike | None = None,
    log: str | os.PathLike | None = None,
) -> _selfplay.SelfPlayResult:
    """Plays ``deals`` games with ``a`` in all four seats, one per deal index — data for
    :func:`cfrkit.learn.imitate` (a :func:`match` plays every deal twice, the hands going to the
    other team). Game ``i`` is the first game of duplicate pair ``i`` of a match (its decks,
    first dealer and choices); with ``log`` (a file path) it is game ``i`` of the log. The
    result's ``per_game`` is each seat's mean return (+1 won, −1 lost: 0 in self-play).
    ``checkpoint``, ``threads`` and ``progress`` as in :func:`match`."""
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise InvalidArgumentError(f"invalid value for deals: {deals!r} (a positive number of games, one per index)")
    aa = agent(a)

    def play(n: int, first: int, progress, writer) -> dict:
        return setback_selfplay(aa, n, seed=seed, threads=threads, progress=progress, first_deal=first, log=writer)

    return _selfplay.run(
        aa.name,
        deals,
        seed=seed,
        unit="game wins per seat (+1/-1)",
        categories=(),
        settings={"game": "setback-selfplay"},
        play=play,
        open_log=lambda done, resume: setback_log_writer(
            os.fspath(log), [aa.name], seed, pairs_done=done, selfplay=True, resume=resume
        ),
        checkpoint=checkpoint,
        log=log,
        progress=progress,
    )


__all__ = ["MatchResult", "play_match", "selfplay"]


#: The deprecated name of :func:`match`.
play_match = _deprecated.alias("cfrkit.setback.play_match", match)

"""Reproducible Skat matches and tournaments, played in parallel in Rust.

Deal ``i`` of a match with seed ``s`` is ``Game.random(seed=s, index=i)``; each deal is played in
the six seatings of programs A and B at the three seats (AAB ABA ABB BAA BAB BBA), so a match of
``deals`` deals plays ``6 * deals`` games and each program ``9 * deals`` seat-games. A program's
figure is its TP/G: Seeger-Fabian points per seat-game; the difference A − B comes with its 95%
confidence interval over deals. The game-type breakdown says, per program, in what per cent of its
seat-games it declared a grand, a suit game, a null or a null ouvert, defended, or saw the deal
thrown in (``pass``). Results do not depend on the number of threads.

>>> from cfrkit import skat
>>> r = skat.match("rules", "random", deals=100, seed=1)
>>> r.games, r.diff > 0
(600, True)
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Callable, Sequence, Union

from .._cfrkit import SKAT_CATEGORIES, skat_log_writer, skat_match, skat_play_game, skat_tournament
from .._checkpoint import play_in_parts
from .._results import GamesResult
from ..errors import InvalidArgumentError
from ..logs import MatchLog
from .agents import AgentLike, agent

#: The categories of the game-type breakdown, in order.
CATEGORIES: tuple = tuple(SKAT_CATEGORIES)


def _check_int(name: str, v, low: int, allowed: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < low or v >= 2**64:
        raise InvalidArgumentError(f"invalid value for {name}: {v!r} ({allowed})")
    return v


def _check_common(deals: int, seed: int, threads: int) -> None:
    _check_int("deals", deals, 1, "a positive number of deals")
    _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
    _check_int("threads", threads, 0, "a non-negative integer; 0 = all cores")


def _percent(tallies: Sequence[int]) -> dict:
    n = max(sum(tallies), 1)
    return {c: 100.0 * x / n for c, x in zip(CATEGORIES, tallies)}


@dataclasses.dataclass
class MatchResult(GamesResult):
    """A match between programs A and B: TP/G of each, A − B with its 95% interval, and each
    program's game-type breakdown in per cent of its seat-games (:data:`CATEGORIES`)."""

    a: str
    b: str
    deals: int
    games: int
    tp_per_game_a: float
    tp_per_game_b: float
    diff: float
    ci95: float
    ci95_a: float
    ci95_b: float
    breakdown_a: dict
    breakdown_b: dict
    seed: int = 0
    threads: int = 1
    seconds: float = 0.0

    def record(self) -> dict:
        """The figures as a JSON-able dict (what ``cfrkit skat match --json`` prints)."""
        d = dataclasses.asdict(self)
        d["games_per_second"] = self.games_per_second
        return d

    def table(self) -> str:
        """The game-type breakdown as text: one row per program, per cent of its seat-games."""
        head = f"{'program':<12}" + "".join(f"{c:>12}" for c in CATEGORIES)
        rows = [
            f"{name[:12]:<12}" + "".join(f"{b[c]:>11.1f}%" for c in CATEGORIES)
            for name, b in ((self.a, self.breakdown_a), (self.b, self.breakdown_b))
        ]
        return "\n".join([head, *rows])

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b}: TP/G {self.tp_per_game_a:+.2f} vs {self.tp_per_game_b:+.2f}, "
            f"diff {self.diff:+.2f} ± {self.ci95:.2f} (95%); {self.games:,} games on {self.deals:,} deals "
            f"(six seatings, seed {self.seed})"
        )


def _result(d: dict, seed: int, seconds: float, threads: int) -> MatchResult:
    return MatchResult(
        a=d["a"],
        b=d["b"],
        deals=d["deals"],
        games=d["games"],
        tp_per_game_a=d["tp_per_game_a"],
        tp_per_game_b=d["tp_per_game_b"],
        diff=d["diff"],
        ci95=d["ci95"],
        ci95_a=d["ci95_a"],
        ci95_b=d["ci95_b"],
        breakdown_a=_percent(d.get("tallies_a", [])),
        breakdown_b=_percent(d.get("tallies_b", [])),
        seed=seed,
        threads=threads,
        seconds=seconds,
    )


ProgressLike = Union[bool, Callable[[int, int], object], None]


def _reporter(progress: ProgressLike, desc: str):
    """A ``(done, total)`` callback for the native loop: ``True`` shows a progress bar on stderr
    (when it is a terminal), a callable is called as is, anything else shows nothing. Returns the
    callback and a function that closes the bar."""
    if callable(progress):
        return progress, lambda: None
    if progress:
        from tqdm import tqdm

        bar = tqdm(unit=" games", desc=desc, disable=None, leave=False)

        def update(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        return update, bar.close
    return None, lambda: None


def match(
    a: AgentLike,
    b: AgentLike,
    deals: int = 1000,
    *,
    threads: int = 0,
    seed: int = 0,
    checkpoint: str | os.PathLike | None = None,
    log: str | os.PathLike | None = None,
    progress: ProgressLike = False,
) -> MatchResult:
    """Plays ``deals`` deals of ``a`` against ``b``, each in the six seatings.

    ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores; the result does not depend on it.
    ``progress=True`` shows a progress bar; a callable gets ``(games done, games in all)``
    between chunks of games. Ctrl-C stops the match (``KeyboardInterrupt``).

    With ``checkpoint`` (a file path) the match is played in parts and the figures so far are
    saved after each; called again with the same arguments it resumes from the file, and ends
    with the figures of an unbroken match (up to rounding). ``seconds`` then counts every run.

    With ``log`` (a file path) every game is written to a game log (:mod:`cfrkit.logs`), game
    ``6 * deal + seating``, in order whatever the threads; PIMC agents then also log their mean
    value of every legal card (exact means: more search than the choice alone). With a
    checkpoint the log goes on with the match: a resumed match first cuts the log back to the
    games the checkpoint counts.
    """
    _check_common(deals, seed, threads)
    aa, bb = agent(a), agent(b)
    report, close = _reporter(progress, f"{aa.name} vs {bb.name}")
    started = time.perf_counter()
    opener = None if log is None else lambda done: skat_log_writer(os.fspath(log), [aa.name, bb.name], seed, done)
    try:
        with MatchLog(opener) as mlog:
            if checkpoint is not None:
                return _match_in_parts(aa, bb, deals, seed, threads, report, checkpoint, mlog)
            d = skat_match(aa, bb, deals, seed=seed, threads=threads, progress=report, log=mlog.at(0))
    finally:
        close()
    return _result(d, seed, time.perf_counter() - started, d["threads"])


def _as_part(d: dict) -> dict:
    """A native match's figures under the names the checkpoint merges."""
    return {
        **d,
        "a_cents_per_game": d["tp_per_game_a"],
        "a_sd": d["sd_a"],
        "b_cents_per_game": d["tp_per_game_b"],
        "b_sd": d["sd_b"],
    }


def _match_in_parts(aa, bb, deals, seed, threads, report, path, mlog: MatchLog) -> MatchResult:
    settings = {"game": "skat", "a": aa.name, "b": bb.name, "seed": seed}

    def play_part(n: int, first: int, progress) -> dict:
        log = mlog.at(first)
        return _as_part(skat_match(aa, bb, n, seed=seed, threads=threads, progress=progress, first_deal=first, log=log))

    cp = play_in_parts(path, settings, deals, play_part, report)
    return MatchResult(
        a=aa.name,
        b=bb.name,
        deals=cp.done,
        games=cp.games,
        tp_per_game_a=cp.a.mean,
        tp_per_game_b=cp.b.mean,
        diff=cp.diff.mean,
        ci95=cp.diff.ci95,
        ci95_a=cp.a.ci95,
        ci95_b=cp.b.ci95,
        breakdown_a=_percent(cp.tallies.get("tallies_a", [])),
        breakdown_b=_percent(cp.tallies.get("tallies_b", [])),
        seed=seed,
        threads=cp.threads,
        seconds=cp.seconds,
    )


@dataclasses.dataclass
class TournamentResult:
    """Every pair's match and the cross table (row program's TP/G against the column's)."""

    names: list
    pairs: list
    cells: list
    row_means: list
    table: str
    deals: int
    seed: int
    threads: int
    seconds: float

    def record(self) -> dict:
        """The figures as a JSON-able dict."""
        d = dataclasses.asdict(self)
        d["pairs"] = [p.record() for p in self.pairs]
        return d

    def __str__(self) -> str:
        return self.table


def tournament(
    agents: Sequence[AgentLike],
    deals: int = 1000,
    *,
    threads: int = 0,
    seed: int = 0,
    log: str | os.PathLike | None = None,
    progress: ProgressLike = False,
) -> TournamentResult:
    """Every pair of ``agents`` plays :func:`match` on the same ``deals`` deals (``progress``
    as in :func:`match`, over all pairs). The pairs' breakdowns are not computed (empty). With
    ``log`` every game goes to a game log, the pairs one after the other."""
    _check_common(deals, seed, threads)
    if isinstance(agents, str) or len(agents) < 2:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (two or more agents)")
    aa = [agent(x) for x in agents]
    report, close = _reporter(progress, "tournament")
    started = time.perf_counter()
    opener = None if log is None else lambda done: skat_log_writer(os.fspath(log), [x.name for x in aa], seed, done)
    try:
        with MatchLog(opener) as mlog:
            d = skat_tournament(aa, deals, seed=seed, threads=threads, progress=report, log=mlog.at(0))
    finally:
        close()
    seconds = time.perf_counter() - started
    pairs = [_result(p, seed, seconds, d["threads"]) for p in d["pairs"]]
    return TournamentResult(
        names=d["names"],
        pairs=pairs,
        cells=d["cells"],
        row_means=d["row_means"],
        table=d["table"],
        deals=deals,
        seed=seed,
        threads=d["threads"],
        seconds=seconds,
    )


def play_game(agents: Sequence[AgentLike], *, seed: int = 0, index: int = 0):
    """Plays deal ``index`` of ``seed`` with ``agents[s]`` in seat ``s`` (0 Vorhand); returns the
    finished :class:`~cfrkit.skat.Game`."""
    _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
    _check_int("index", index, 0, "an integer from 0 to 2**64 - 1")
    if isinstance(agents, str) or len(agents) != 3:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (three agents, seat 0 first)")
    return skat_play_game([agent(x) for x in agents], seed=seed, index=index)


__all__ = ["CATEGORIES", "MatchResult", "TournamentResult", "match", "play_game", "tournament"]

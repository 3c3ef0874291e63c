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
from typing import Sequence

from .. import _selfplay, distributed
from .._cfrkit import (
    SKAT_CATEGORIES,
    skat_log_writer,
    skat_match,
    skat_match_summary,
    skat_play_game,
    skat_selfplay,
    skat_tournament,
    skat_tournament_summary,
)
from .._checkpoint import play_in_parts, play_tournament_in_parts
from .._progress import ProgressLike, games_bar
from .._results import GamesResult
from .._selfplay import SelfPlayResult
from .._tournament import check_entrants
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


def _check_share(share_decisions) -> dict:
    """The keyword for the native match when decisions are shared (none when not, so that
    checkpoints of matches without sharing keep their settings)."""
    if not isinstance(share_decisions, bool):
        raise InvalidArgumentError(f"invalid value for share_decisions: {share_decisions!r} (True or False)")
    return {"share_decisions": True} if share_decisions else {}


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
        width = max(len("program"), len(self.a), len(self.b)) + 2  # specs shown whole
        head = f"{'program':<{width}}" + "".join(f"{c:>12}" for c in CATEGORIES)
        rows = [
            f"{name:<{width}}" + "".join(f"{b[c]:>11.1f}%" for c in CATEGORIES)
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
    backend: distributed.BackendLike = "local",
    share_decisions: bool = False,
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

    ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) plays the deals in pieces on a
    Ray cluster (``threads`` then counts per piece; 0 means 1): the figures and the log are
    those of a local run. Agents must then be spec strings.

    ``share_decisions=True`` keys each decision's random stream by the game's history, so a
    program meeting the same history in two of a deal's games decides once for both: about
    twice as fast between two similar search programs (``pimc`` against ``pimc:worlds=32``),
    each game distributed as without sharing, but a deal's games tied together (for cheap or
    dissimilar programs, no gain). Figures differ (equivalently) from those without.
    """
    _check_common(deals, seed, threads)
    share = _check_share(share_decisions)
    ray = distributed.backend_of(backend, threads)
    aa, bb = agent(a), agent(b)
    started = time.perf_counter()
    opener = None if log is None else lambda done: skat_log_writer(os.fspath(log), [aa.name, bb.name], seed, done)
    with games_bar(progress, f"{aa.name} vs {bb.name}") as report, MatchLog(opener) as mlog:
        if ray is not None:
            play = _ray_player(aa, bb, seed, ray, mlog, log, share)
        else:

            def play(n: int, first: int, progress) -> dict:
                return skat_match(
                    aa, bb, n, seed=seed, threads=threads, progress=progress, first_deal=first, log=mlog.at(first),
                    **share,
                )  # fmt: skip

        if checkpoint is not None:
            return _match_in_parts(aa, bb, deals, seed, play, report, checkpoint, share)
        d = play(deals, 0, report)
    return _result(d, seed, time.perf_counter() - started, d["threads"])


def _ray_player(aa, bb, seed: int, ray: distributed.Ray, mlog: MatchLog, log, share: dict):
    """A ``play(n, first, progress)`` that plays deals ``first .. first + n`` on Ray and
    returns the figures of a native match (its games appended to the log)."""
    specs = (distributed.spec_of(aa, agent), distributed.spec_of(bb, agent))
    names = [aa.name, bb.name] if log is not None else None

    def play(n: int, first: int, progress) -> dict:
        writer = mlog.at(first)
        if writer is not None:
            writer.finish()  # the log's header and the games a checkpoint counts; pieces follow
        settings = {"seed": seed, "threads": ray.threads, **share}
        results = distributed.play_match(
            _piece, specs, settings, first, n, ray, per=6, report=progress, log=log, log_names=names
        )
        per_deal, games = distributed.joined(results)
        tallies = tuple([sum(col) for col in zip(*(r["tallies"][k] for r in results))] for k in (0, 1))
        d = skat_match_summary(aa.name, bb.name, per_deal, games, tallies)
        d["threads"] = ray.threads
        return d

    return play


def _piece(a: str, b: str, settings: dict, first: int, n: int, names, pair, index: int, per_pair: int) -> dict:
    """Deals ``first .. first + n`` of ``a`` against ``b`` on a Ray worker: their per-deal
    means, games and tallies, and with ``names`` (the log's agents) their games as log lines
    (of match ``index`` among the log's, ``per_pair`` deals each; ``pair = (agents, i, j,
    per_pair)`` for a tournament's pair)."""
    aa, bb, seed = agent(a), agent(b), settings["seed"]
    opener = None if names is None else lambda path: skat_log_writer(path, names, seed, piece=(index, per_pair, first))

    def play(log) -> dict:
        d = skat_match(aa, bb, n, first_deal=first, log=log, log_pair=pair, per_deal=True, **settings)
        return {"per_deal": d["per_deal"], "games": d["games"], "tallies": (d["tallies_a"], d["tallies_b"])}

    return distributed.with_log_piece(opener, play)


def _as_part(d: dict) -> dict:
    """A native match's figures under the names the checkpoint merges."""
    return {
        **d,
        "a_cents_per_game": d["tp_per_game_a"],
        "a_sd": d["sd_a"],
        "b_cents_per_game": d["tp_per_game_b"],
        "b_sd": d["sd_b"],
    }


def _match_in_parts(aa, bb, deals, seed, play, report, path, share: dict) -> MatchResult:
    settings = {"game": "skat", "a": aa.name, "b": bb.name, "seed": seed, **share}
    cp = play_in_parts(path, settings, deals, lambda n, first, progress: _as_part(play(n, first, progress)), report)
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


def selfplay(
    a: AgentLike,
    deals: int = 1000,
    *,
    threads: int = 0,
    seed: int = 0,
    checkpoint: str | os.PathLike | None = None,
    log: str | os.PathLike | None = None,
    progress: ProgressLike = False,
) -> SelfPlayResult:
    """Plays ``deals`` deals with ``a`` in all three seats, each deal once — data for
    :func:`cfrkit.learn.imitate`: a :func:`match` plays every deal in six seatings, and a
    program against itself repeats the same cards six times. The result holds the agent's TP/G
    (``per_game``) and game-type breakdown.

    With ``log`` (a file path) game ``i`` of the log is deal ``i``; ``checkpoint``,
    ``threads`` and ``progress`` as in :func:`match` (a resumed run's log goes on after the
    games the checkpoint counts). A PIMC agent logs its exact means unless its spec says
    ``values=none`` (less search: imitation needs only the actions).
    """
    _check_common(deals, seed, threads)
    aa = agent(a)

    def play(n: int, first: int, progress, writer) -> dict:
        d = skat_selfplay(aa, n, seed=seed, threads=threads, progress=progress, first_deal=first, log=writer)
        return _as_part(d)

    return _selfplay.run(
        aa.name,
        deals,
        seed=seed,
        unit="TP/G",
        categories=CATEGORIES,
        settings={"game": "skat-selfplay"},
        play=play,
        open_log=lambda done: skat_log_writer(os.fspath(log), [aa.name], seed, done, selfplay=True),
        checkpoint=checkpoint,
        log=log,
        progress=progress,
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
    backend: distributed.BackendLike = "local",
    checkpoint: str | os.PathLike | None = None,
    share_decisions: bool = False,
) -> TournamentResult:
    """Every pair of ``agents`` plays :func:`match` on the same ``deals`` deals (``progress``
    as in :func:`match`, over all pairs). The pairs' breakdowns are not computed (empty). With
    ``log`` every game goes to a game log, the pairs one after the other. ``backend`` as in
    :func:`match`: on Ray every pair's deals are played in pieces, all pairs at once.

    With ``checkpoint`` (a file path; not on Ray) the pairs are played one after the other in
    parts, every deal's means saved after each part; called again with the same arguments it
    resumes (the log too) and ends with the figures of an unbroken tournament.
    ``share_decisions`` as in :func:`match`."""
    _check_common(deals, seed, threads)
    share = _check_share(share_decisions)
    ray = distributed.backend_of(backend, threads)
    if isinstance(agents, str) or len(agents) < 2:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (two or more agents)")
    if ray is not None and checkpoint is not None:
        raise InvalidArgumentError("invalid value for checkpoint: a tournament on Ray has none (run it locally)")
    aa = [agent(x) for x in agents]
    names = [x.name for x in aa]
    check_entrants(names)
    started = time.perf_counter()
    opener = None if log is None else lambda done: skat_log_writer(os.fspath(log), names, seed, done)
    with games_bar(progress, "tournament") as report, MatchLog(opener) as mlog:
        if ray is not None:
            d = _ray_tournament(aa, deals, seed, ray, report, mlog, log, share)
        elif checkpoint is not None:

            def part(i: int, j: int, n: int, first: int, progress, done: int) -> dict:
                pair = (len(aa), i, j, deals)
                d = skat_match(
                    aa[i], aa[j], n, seed=seed, threads=threads, progress=progress, first_deal=first,
                    log=mlog.at(done), log_pair=pair, per_deal=True, **share,
                )  # fmt: skip
                return {"rows": d["per_deal"], "games": d["games"], "threads": d["threads"]}

            settings = {"game": "skat", "agents": names, "seed": seed, **share}
            pairs, used, spent = play_tournament_in_parts(checkpoint, settings, len(aa), deals, part, report)
            d = skat_tournament_summary(names, pairs, used)
        else:
            d = skat_tournament(aa, deals, seed=seed, threads=threads, progress=report, log=mlog.at(0), **share)
    # With a checkpoint, the seconds of every run's parts.
    seconds = spent if checkpoint is not None else time.perf_counter() - started
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


def _ray_tournament(aa, deals: int, seed: int, ray: distributed.Ray, report, mlog: MatchLog, log, share: dict) -> dict:
    """The native figures of a tournament whose pairs' deals are played in pieces on Ray."""
    specs = [distributed.spec_of(x, agent) for x in aa]
    names = [x.name for x in aa]
    if mlog.at(0) is not None:
        mlog.at(0).finish()  # the header; the pieces' games follow
    settings = {"seed": seed, "threads": ray.threads, **share}
    pairs = distributed.play_tournament(
        _piece, specs, settings, deals, ray, per=6, report=report, log=log, log_names=names if log else None
    )
    summaries = [(i, j, *distributed.joined(results)) for i, j, results in pairs]
    return skat_tournament_summary(names, summaries, ray.threads)


def play_game(agents: Sequence[AgentLike], *, seed: int = 0, index: int = 0):
    """Plays deal ``index`` of ``seed`` with ``agents[s]`` in seat ``s`` (0 Vorhand); returns the
    finished :class:`~cfrkit.skat.Game`."""
    _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
    _check_int("index", index, 0, "an integer from 0 to 2**64 - 1")
    if isinstance(agents, str) or len(agents) != 3:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (three agents, seat 0 first)")
    return skat_play_game([agent(x) for x in agents], seed=seed, index=index)


__all__ = [
    "CATEGORIES",
    "MatchResult",
    "SelfPlayResult",
    "TournamentResult",
    "match",
    "play_game",
    "selfplay",
    "tournament",
]

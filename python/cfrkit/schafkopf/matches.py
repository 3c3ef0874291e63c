"""Reproducible Schafkopf matches and tournaments (spec §10), played in parallel in Rust.

Deal ``i`` of a match with seed ``s`` is ``Game.random(seed=s, index=i)``: the same deals and
dealers in every seating, whatever the agents do. Each deal is played once in every seating of
the protocol — ``"schafkopfrl"``: seats ``[a, a, b, b]`` then ``[b, b, a, a]``; ``"rotation"``:
the six seatings that give each agent two seats — so a match of ``deals`` deals plays
``deals * 2`` (or ``* 6``) games. Results are cents per seat and game (SchafkopfRL's figure) with
95% confidence intervals over deals, and do not depend on the number of threads. ``games=`` is
the deprecated name of ``deals=``.

>>> from cfrkit import schafkopf
>>> r = schafkopf.match("rules", "random-coward", deals=2000, seed=1)
>>> r.games, r.a_cents_per_game > 0
(4000, True)
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Sequence

from .. import _deprecated, _selfplay, distributed
from .._cfrkit import (
    schafkopf_log_writer,
    schafkopf_match,
    schafkopf_match_summary,
    schafkopf_play_game,
    schafkopf_selfplay,
    schafkopf_tournament,
    schafkopf_tournament_summary,
)
from .._checkpoint import play_in_parts, play_tournament_in_parts
from .._progress import ProgressLike, games_bar
from .._results import GamesResult
from .._selfplay import SelfPlayResult
from .._tournament import check_entrants
from ..errors import InvalidArgumentError
from ..logs import MatchLog
from .agents import AgentLike, agent

#: Games per deal of each seat protocol: its seatings.
SEATINGS = {"schafkopfrl": 2, "rotation": 6}


def _check_int(name: str, v, low: int, allowed: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < low or v >= 2**64:
        raise InvalidArgumentError(f"invalid value for {name}: {v!r} ({allowed})")
    return v


def _check_common(deals: int, seed: int, threads: int) -> None:
    _check_int("deals", deals, 1, "a positive number of deals")
    _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
    _check_int("threads", threads, 0, "a non-negative integer; 0 = all cores")


@dataclasses.dataclass
class MatchResult(GamesResult):
    """A match between agents A and B: cents per seat and game with 95% intervals."""

    a: str
    b: str
    deals: int
    games: int
    a_cents_per_game: float
    ci95: float
    b_cents_per_game: float
    b_ci95: float
    protocol: str = "schafkopfrl"
    rules: str = "schafkopfrl"
    seed: int = 0
    threads: int = 1
    seconds: float = 0.0

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b}: {self.a_cents_per_game:+.2f} ± {self.ci95:.2f} cents per game for {self.a} "
            f"({self.b} {self.b_cents_per_game:+.2f} ± {self.b_ci95:.2f}); {self.games:,} games on {self.deals:,} "
            f"deals ({self.protocol} protocol, {self.rules} rules, seed {self.seed})"
        )


def _result(d: dict, protocol: str, rules: str, seed: int, seconds: float, threads: int) -> MatchResult:
    keys = ("a", "b", "deals", "games", "a_cents_per_game", "ci95", "b_cents_per_game", "b_ci95")
    return MatchResult(
        **{k: d[k] for k in keys}, protocol=protocol, rules=rules, seed=seed, threads=threads, seconds=seconds
    )


def match(
    a: AgentLike,
    b: AgentLike,
    deals: int = 1000,
    *,
    protocol: str = "schafkopfrl",
    rules: str = "schafkopfrl",
    seed: int = 0,
    threads: int = 0,
    progress: ProgressLike = False,
    checkpoint: str | os.PathLike | None = None,
    log: str | os.PathLike | None = None,
    backend: distributed.BackendLike = "local",
    games: int | None = None,
) -> MatchResult:
    """Plays ``deals`` deals of ``a`` against ``b``, each in every seating of ``protocol``.

    ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores; the result does not depend on it.
    ``progress=True`` shows a progress bar; a callable gets ``(games done, games in all)``
    between chunks of games. Ctrl-C stops the match (``KeyboardInterrupt``).

    With ``checkpoint`` (a file path) the match is played in parts and the figures so far are
    saved after each; called again with the same arguments it resumes from the file, and ends
    with the figures of an unbroken match (up to rounding). ``seconds`` then counts every run.

    With ``log`` (a file path) every game is written to a game log (:mod:`cfrkit.logs`) in
    order; PIMC agents also log their mean payment of every legal action. With a checkpoint the
    log goes on with the match (a resumed match first cuts it back to the games the checkpoint
    counts).

    ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) plays the deals in pieces on a
    Ray cluster (``threads`` then counts per piece; 0 means 1): the figures and the log are
    those of a local run. Agents must then be spec strings.
    """
    deals = _deprecated.renamed("schafkopf.match", "games", games, "deals", deals)
    _check_common(deals, seed, threads)
    ray = distributed.backend_of(backend, threads)
    if ray is not None:
        _check_protocol(protocol)
    aa, bb = agent(a), agent(b)
    started = time.perf_counter()
    opener = None if log is None else _log_opener(log, [aa.name, bb.name], protocol, rules, seed)
    with games_bar(progress, f"{aa.name} vs {bb.name}") as report, MatchLog(opener) as mlog:
        if ray is not None:
            play = _ray_player(aa, bb, protocol, rules, seed, ray, mlog, log)
        else:

            def play(n: int, first: int, progress) -> dict:
                return schafkopf_match(
                    aa,
                    bb,
                    n,
                    protocol=protocol,
                    rules=rules,
                    seed=seed,
                    threads=threads,
                    progress=progress,
                    first_deal=first,
                    log=mlog.at(first),
                )

        if checkpoint is not None:
            return _match_in_parts(aa, bb, deals, protocol, rules, seed, play, report, checkpoint)
        d = play(deals, 0, report)
    return _result(d, protocol, rules, seed, time.perf_counter() - started, d["threads"])


def selfplay(
    a: AgentLike,
    deals: int = 1000,
    *,
    rules: str = "schafkopfrl",
    seed: int = 0,
    threads: int = 0,
    progress: ProgressLike = False,
    checkpoint: str | os.PathLike | None = None,
    log: str | os.PathLike | None = None,
    games: int | None = None,
) -> SelfPlayResult:
    """Plays ``deals`` deals with ``a`` in all four seats, each deal once — data for
    :func:`cfrkit.learn.imitate` (a :func:`match` plays every deal in each seating of its
    protocol). The result holds the agent's cents per game (``per_game``, which is 0 in
    self-play: the payments sum to nothing) with its interval. ``log``, ``checkpoint``,
    ``threads`` and ``progress`` as in :func:`match`; game ``i`` of the log is deal ``i``. A
    PIMC agent logs its exact means unless its spec says ``values=none``.
    """
    deals = _deprecated.renamed("schafkopf.selfplay", "games", games, "deals", deals)
    _check_common(deals, seed, threads)
    aa = agent(a)

    def play(n: int, first: int, progress, writer) -> dict:
        return schafkopf_selfplay(
            aa, n, rules=rules, seed=seed, threads=threads, progress=progress, first_deal=first, log=writer
        )

    return _selfplay.run(
        aa.name,
        deals,
        seed=seed,
        unit="cents per game",
        categories=(),
        settings={"game": "schafkopf-selfplay", "rules": rules},
        play=play,
        open_log=lambda done: schafkopf_log_writer(
            os.fspath(log), [aa.name], rules=rules, seed=seed, deals_done=done, selfplay=True
        ),
        checkpoint=checkpoint,
        log=log,
        progress=progress,
    )


def _check_protocol(protocol: str) -> None:
    if protocol not in SEATINGS:
        raise InvalidArgumentError(f"invalid value for protocol: {protocol!r} ({' or '.join(SEATINGS)})")


def _log_opener(path, names, protocol, rules, seed):
    return lambda done: schafkopf_log_writer(os.fspath(path), names, protocol, rules, seed, done)


def _ray_player(aa, bb, protocol: str, rules: str, seed: int, ray: distributed.Ray, mlog: MatchLog, log):
    """A ``play(n, first, progress)`` that plays deals ``first .. first + n`` on Ray and
    returns the figures of a native match (its games appended to the log)."""
    specs = (distributed.spec_of(aa, agent), distributed.spec_of(bb, agent))
    names = [aa.name, bb.name] if log is not None else None

    def play(n: int, first: int, progress) -> dict:
        writer = mlog.at(first)
        if writer is not None:
            writer.finish()  # the log's header and the games a checkpoint counts; pieces follow
        settings = {"protocol": protocol, "rules": rules, "seed": seed, "threads": ray.threads}
        per = SEATINGS[protocol]
        results = distributed.play_match(
            _piece, specs, settings, first, n, ray, per=per, report=progress, log=log, log_names=names
        )
        d = schafkopf_match_summary(aa.name, bb.name, *distributed.joined(results))
        d["threads"] = ray.threads
        return d

    return play


def _piece(a: str, b: str, settings: dict, first: int, n: int, names, pair, index: int, per_pair: int) -> dict:
    """Deals ``first .. first + n`` of ``a`` against ``b`` on a Ray worker: their per-deal
    means and games, and with ``names`` (the log's agents) their games as log lines (see
    :func:`cfrkit.distributed.play_match`)."""
    aa, bb = agent(a), agent(b)
    opener = None
    if names is not None:
        head = (settings["protocol"], settings["rules"], settings["seed"])
        opener = lambda path: schafkopf_log_writer(path, names, *head, piece=(index, per_pair, first))  # noqa: E731

    def play(log) -> dict:
        d = schafkopf_match(aa, bb, n, first_deal=first, log=log, log_pair=pair, per_deal=True, **settings)
        return {"per_deal": d["per_deal"], "games": d["games"]}

    return distributed.with_log_piece(opener, play)


def _match_in_parts(aa, bb, deals, protocol, rules, seed, play, report, path) -> MatchResult:
    settings = {"game": "schafkopf", "a": aa.name, "b": bb.name, "protocol": protocol, "rules": rules, "seed": seed}
    cp = play_in_parts(path, settings, deals, play, report)
    return MatchResult(
        a=aa.name,
        b=bb.name,
        deals=cp.done,
        games=cp.games,
        a_cents_per_game=cp.a.mean,
        ci95=cp.a.ci95,
        b_cents_per_game=cp.b.mean,
        b_ci95=cp.b.ci95,
        protocol=protocol,
        rules=rules,
        seed=seed,
        threads=cp.threads,
        seconds=cp.seconds,
    )


@dataclasses.dataclass
class TournamentResult:
    """Every pair's match and the cross table (row agent's cents per game against the column's)."""

    names: list
    pairs: list
    cells: list
    row_means: list
    table: str
    deals: int
    protocol: str
    rules: str
    seed: int
    threads: int
    seconds: float

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["pairs"] = [p.to_dict() for p in self.pairs]
        return d

    def __str__(self) -> str:
        return self.table


def tournament(
    agents: Sequence[AgentLike],
    deals: int = 1000,
    *,
    protocol: str = "schafkopfrl",
    rules: str = "schafkopfrl",
    seed: int = 0,
    threads: int = 0,
    progress: ProgressLike = False,
    log: str | os.PathLike | None = None,
    backend: distributed.BackendLike = "local",
    checkpoint: str | os.PathLike | None = None,
    games: int | None = None,
) -> TournamentResult:
    """Every pair of ``agents`` plays :func:`match` on the same ``deals`` deals (``progress`` as
    in :func:`match`, over all pairs). With ``log`` every game goes to a game log, the pairs one
    after the other. ``backend`` as in :func:`match`: on Ray every pair's deals are played in
    pieces, all pairs at once.

    With ``checkpoint`` (a file path; not on Ray) the pairs are played one after the other in
    parts, every deal's means saved after each part; called again with the same arguments it
    resumes (the log too) and ends with the figures of an unbroken tournament."""
    deals = _deprecated.renamed("schafkopf.tournament", "games", games, "deals", deals)
    _check_common(deals, seed, threads)
    ray = distributed.backend_of(backend, threads)
    if ray is not None or checkpoint is not None:
        _check_protocol(protocol)
    if isinstance(agents, str) or len(agents) < 2:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (two or more agents)")
    if ray is not None and checkpoint is not None:
        raise InvalidArgumentError("invalid value for checkpoint: a tournament on Ray has none (run it locally)")
    aa = [agent(x) for x in agents]
    started = time.perf_counter()
    names = [x.name for x in aa]
    check_entrants(names)
    opener = None if log is None else _log_opener(log, names, protocol, rules, seed)
    with games_bar(progress, "tournament") as report, MatchLog(opener) as mlog:
        if ray is not None:
            if mlog.at(0) is not None:
                mlog.at(0).finish()  # the header; the pieces' games follow
            specs = [distributed.spec_of(x, agent) for x in aa]
            settings = {"protocol": protocol, "rules": rules, "seed": seed, "threads": ray.threads}
            pairs = distributed.play_tournament(
                _piece,
                specs,
                settings,
                deals,
                ray,
                per=SEATINGS[protocol],
                report=report,
                log=log,
                log_names=names if log is not None else None,
            )
            summaries = [(i, j, *distributed.joined(results)) for i, j, results in pairs]
            d = schafkopf_tournament_summary(names, summaries, ray.threads)
        elif checkpoint is not None:

            def part(i: int, j: int, n: int, first: int, progress, done: int) -> dict:
                d = schafkopf_match(
                    aa[i], aa[j], n, protocol=protocol, rules=rules, seed=seed, threads=threads, progress=progress,
                    first_deal=first, log=mlog.at(done), log_pair=(len(aa), i, j, deals), per_deal=True,
                )  # fmt: skip
                return {"rows": d["per_deal"], "games": d["games"], "threads": d["threads"]}

            settings = {"game": "schafkopf", "agents": names, "protocol": protocol, "rules": rules, "seed": seed}
            pairs, used, spent = play_tournament_in_parts(checkpoint, settings, len(aa), deals, part, report)
            d = schafkopf_tournament_summary(names, pairs, used)
        else:
            d = schafkopf_tournament(
                aa, deals, protocol=protocol, rules=rules, seed=seed, threads=threads, progress=report, log=mlog.at(0)
            )
    # With a checkpoint, the seconds of every run's parts.
    seconds = spent if checkpoint is not None else time.perf_counter() - started
    pairs = [_result(p, protocol, rules, seed, seconds, d["threads"]) for p in d["pairs"]]
    return TournamentResult(
        names=d["names"],
        pairs=pairs,
        cells=d["cells"],
        row_means=d["row_means"],
        table=d["table"],
        deals=deals,
        protocol=protocol,
        rules=rules,
        seed=seed,
        threads=d["threads"],
        seconds=seconds,
    )


def play_game(agents: Sequence[AgentLike], *, seed: int = 0, index: int = 0, rules: str = "schafkopfrl"):
    """Plays deal ``index`` of ``seed`` with ``agents[s]`` in seat ``s``; returns the finished
    :class:`~cfrkit.schafkopf.Game`."""
    _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
    _check_int("index", index, 0, "an integer from 0 to 2**64 - 1")
    if isinstance(agents, str) or len(agents) != 4:
        raise InvalidArgumentError(f"invalid value for agents: {agents!r} (four agents, seat 0 first)")
    return schafkopf_play_game([agent(x) for x in agents], seed=seed, index=index, rules=rules)


__all__ = ["MatchResult", "SelfPlayResult", "TournamentResult", "match", "play_game", "selfplay", "tournament"]

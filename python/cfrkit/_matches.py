"""Matches, tournaments and self-play of every trick-taking game, played natively and in
parallel (the core's ``trick::matches``); one :class:`Matches` per game gives its package
``match``, ``selfplay``, ``tournament`` and ``play_game``.

Deal ``i`` of a match with seed ``s`` is the game's ``Game.random(seed=s, index=i)``: the same
cards in every seating, whatever the agents do. Each deal is played once in every seating of
the protocol (Skat: the six seatings of two programs at three seats; Schafkopf: ``schafkopfrl``,
``[a, a, b, b]`` then ``[b, b, a, a]``, or ``rotation``, the six with two seats each). A
program's figure is its mean result per seat-game in the game's unit (Skat: Seeger-Fabian
points, TP/G; Schafkopf: cents) with its 95% interval over deals, and the difference A − B with
its interval; each seat-game also falls in one of the game's categories (the contract it played,
defender, …), tallied per program. Results do not depend on the number of threads; a match can
be checkpointed and resumed, logged, and played in pieces on Ray with the figures of one run.
"""

from __future__ import annotations

import dataclasses
import os
import time
import warnings
from typing import Any, Callable, Optional, Sequence

from . import distributed
from ._cfrkit import (
    trick_log_writer,
    trick_match,
    trick_match_game,
    trick_match_summary,
    trick_play_deal,
    trick_selfplay,
    trick_tournament,
    trick_tournament_summary,
)
from ._checkpoint import play_in_parts, play_tournament_in_parts, resuming
from ._progress import ProgressLike, games_bar
from ._results import GamesResult
from ._selfplay import SelfPlayResult
from ._selfplay import run as run_selfplay
from ._tournament import check_entrants
from .errors import InvalidArgumentError
from .logs import MatchLog

#: Earlier names of the figures, by game: ``old name -> field`` (they still work, with a
#: ``DeprecationWarning``).
_OLD_NAMES = {
    "skat": {"tp_per_game_a": "mean_a", "tp_per_game_b": "mean_b", "ci95": "ci95_diff"},
    "schafkopf": {"a_cents_per_game": "mean_a", "b_cents_per_game": "mean_b", "ci95": "ci95_a", "b_ci95": "ci95_b"},
}


def _percent(categories: Sequence[str], tallies: Sequence[int]) -> dict:
    n = max(sum(tallies), 1)
    return {c: 100.0 * x / n for c, x in zip(categories, tallies)}


@dataclasses.dataclass
class MatchResult(GamesResult):
    """A match between programs A and B, with the same fields in every game: each program's mean
    result per seat-game (``mean_a``, ``mean_b``, in ``unit``) with its 95% interval
    (``ci95_a``, ``ci95_b``), the difference A − B (``diff``, ``ci95_diff``), and each program's
    breakdown by the game's categories in per cent of its seat-games."""

    game: str
    a: str
    b: str
    deals: int
    games: int
    unit: str
    mean_a: float
    ci95_a: float
    mean_b: float
    ci95_b: float
    diff: float
    ci95_diff: float
    breakdown_a: dict
    breakdown_b: dict
    protocol: str
    rules: str
    seed: int = 0
    threads: int = 1
    seconds: float = 0.0

    def __getattr__(self, name: str) -> Any:
        new = _OLD_NAMES.get(self.__dict__.get("game", ""), {}).get(name)
        if new is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        warnings.warn(f"MatchResult.{name} is deprecated; use {new}", DeprecationWarning, stacklevel=2)
        return getattr(self, new)

    def table(self) -> str:
        """The breakdown as text: one row per program, per cent of its seat-games."""
        categories = list(self.breakdown_a)
        width = max(len("program"), len(self.a), len(self.b)) + 2  # specs shown whole
        head = f"{'program':<{width}}" + "".join(f"{c:>12}" for c in categories)
        rows = [
            f"{name:<{width}}" + "".join(f"{b.get(c, 0.0):>11.1f}%" for c in categories)
            for name, b in ((self.a, self.breakdown_a), (self.b, self.breakdown_b))
        ]
        return "\n".join([head, *rows])

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b}: {self.mean_a:+.2f} ± {self.ci95_a:.2f} vs {self.mean_b:+.2f} ± {self.ci95_b:.2f} "
            f"{self.unit}, A − B {self.diff:+.2f} ± {self.ci95_diff:.2f} (95%); {self.games:,} games on "
            f"{self.deals:,} deals ({self.protocol} protocol, {self.rules} rules, seed {self.seed})"
        )


@dataclasses.dataclass
class TournamentResult:
    """Every pair's match and the cross table (the row program's result against the column's)."""

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
        """The figures as a JSON-able dict (what ``tournament --json`` prints)."""
        d = dataclasses.asdict(self)
        d["pairs"] = [p.to_dict() for p in self.pairs]
        return d

    def record(self) -> dict:
        warnings.warn("TournamentResult.record() is deprecated; use to_dict()", DeprecationWarning, stacklevel=2)
        return self.to_dict()

    def __str__(self) -> str:
        return self.table


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


class Matches:
    """The matches of the game ``game``, whose agents ``agent(x)`` makes from a spec string (or
    returns as they are)."""

    def __init__(self, game: str, agent: Callable[[Any], Any]):
        info = trick_match_game(game)
        self.game: str = info["game"]
        self.agent = agent
        #: Seats at the table.
        self.seats: int = info["seats"]
        #: The categories of the breakdown, in order.
        self.categories: tuple = tuple(info["categories"])
        #: What a seat's result counts.
        self.unit: str = info["unit"]
        #: The seat protocols, the default first.
        self.protocols: tuple = tuple(info["protocols"])
        #: The default rule set.
        self.rules: str = info["rules"]
        #: Games per deal of each protocol.
        self.seatings: dict = dict(info["seatings"])

    # ---- settings ----

    def _options(self, protocol: Optional[str], rules: Optional[str]) -> tuple[str, str]:
        """The protocol and rules (defaults where None), checked."""
        protocol = self.protocols[0] if protocol is None else protocol
        rules = self.rules if rules is None else rules
        for name, v in (("protocol", protocol), ("rules", rules)):
            if not isinstance(v, str):
                raise InvalidArgumentError(f"invalid value for {name}: {v!r} (a name)")
        if protocol.lower() not in self.protocols:
            raise InvalidArgumentError(f"invalid value for protocol: {protocol!r} ({' or '.join(self.protocols)})")
        return protocol.lower(), rules.lower()

    def _settings(self, protocol: str, rules: str) -> dict:
        """The protocol and rules as a checkpoint records them: always where the game offers a
        choice of protocol, else only where they are not the default (so that the checkpoints of
        earlier versions stay valid)."""
        d = {}
        if len(self.protocols) > 1 or protocol != self.protocols[0]:
            d["protocol"] = protocol
        if len(self.protocols) > 1 or rules != self.rules:
            d["rules"] = rules
        return d

    def _result(self, d: dict, protocol: str, rules: str, seed: int, seconds: float, threads: int) -> MatchResult:
        categories = d.get("categories", self.categories)
        return MatchResult(
            game=self.game,
            a=d["a"],
            b=d["b"],
            deals=d["deals"],
            games=d["games"],
            unit=self.unit,
            mean_a=d["mean_a"],
            ci95_a=d["ci95_a"],
            mean_b=d["mean_b"],
            ci95_b=d["ci95_b"],
            diff=d["diff"],
            ci95_diff=d["ci95_diff"],
            breakdown_a=_percent(categories, d.get("tallies_a", [])),
            breakdown_b=_percent(categories, d.get("tallies_b", [])),
            protocol=protocol,
            rules=rules,
            seed=seed,
            threads=threads,
            seconds=seconds,
        )

    def _log_opener(self, path, names, protocol: str, rules: str, seed: int, checkpoint):
        resume = resuming(checkpoint)
        return lambda done: trick_log_writer(
            self.game, os.fspath(path), names, protocol, rules, seed, done, resume=resume
        )

    # ---- matches ----

    def match(
        self,
        a,
        b,
        deals: int = 1000,
        *,
        protocol: Optional[str] = None,
        rules: Optional[str] = None,
        seed: int = 0,
        threads: int = 0,
        progress: ProgressLike = False,
        checkpoint: str | os.PathLike | None = None,
        log: str | os.PathLike | None = None,
        backend: distributed.BackendLike = "local",
        share_decisions: bool = False,
    ) -> MatchResult:
        """Plays ``deals`` deals of ``a`` against ``b``, each in every seating of ``protocol``
        (the game's first by default) under ``rules`` (the game's default by default).

        ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores; the result does not depend on it.
        ``progress=True`` shows a progress bar; a callable gets ``(games done, games in all)``
        between chunks of games. Ctrl-C stops the match (``KeyboardInterrupt``).

        With ``checkpoint`` (a file path) the match is played in parts and the figures so far
        are saved after each; called again with the same arguments it resumes from the file,
        and ends with the figures of an unbroken match (up to rounding). ``seconds`` then counts
        every run.

        With ``log`` (a file path) every game is written to a game log (:mod:`cfrkit.logs`),
        game ``seatings * deal + seating``, in order whatever the threads; PIMC agents then also
        log their mean value of every legal action. With a checkpoint the log goes on with the
        match: a resumed match first cuts the log back to the games the checkpoint counts.

        ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) plays the deals in pieces on a
        Ray cluster (``threads`` then counts per piece; 0 means 1): the figures and the log are
        those of a local run. Agents must then be spec strings.

        ``share_decisions=True`` keys each decision's random stream by the game's history, so a
        program meeting the same history in two of a deal's games decides once for both: about
        twice as fast between two similar search programs, each game distributed as without
        sharing, but a deal's games tied together. Figures differ (equivalently) from those
        without.
        """
        _check_common(deals, seed, threads)
        share = _check_share(share_decisions)
        protocol, rules = self._options(protocol, rules)
        ray = distributed.backend_of(backend, threads)
        aa, bb = self.agent(a), self.agent(b)
        started = time.perf_counter()
        opener = None if log is None else self._log_opener(log, [aa.name, bb.name], protocol, rules, seed, checkpoint)
        native = {"protocol": protocol, "rules": rules, "seed": seed, **share}
        with games_bar(progress, f"{aa.name} vs {bb.name}") as report, MatchLog(opener) as mlog:
            if ray is not None:
                play = self._ray_player(aa, bb, native, ray, mlog, log)
            else:

                def play(n: int, first: int, progress) -> dict:
                    return trick_match(
                        self.game, aa, bb, n, threads=threads, progress=progress, first_deal=first,
                        log=mlog.at(first), **native,
                    )  # fmt: skip

            if checkpoint is not None:
                settings = {"game": self.game, "a": aa.name, "b": bb.name, **self._settings(protocol, rules)}
                cp = play_in_parts(checkpoint, {**settings, "seed": seed, **share}, deals, play, report)
                summary = {
                    "a": aa.name, "b": bb.name, "deals": cp.done, "games": cp.games,
                    "mean_a": cp.a.mean, "ci95_a": cp.a.ci95, "mean_b": cp.b.mean, "ci95_b": cp.b.ci95,
                    **cp.difference(), **cp.tallies,
                }  # fmt: skip
                return self._result(summary, protocol, rules, seed, cp.seconds, cp.threads)
            d = play(deals, 0, report)
        return self._result(d, protocol, rules, seed, time.perf_counter() - started, d["threads"])

    def _ray_player(self, aa, bb, native: dict, ray: distributed.Ray, mlog: MatchLog, log):
        """A ``play(n, first, progress)`` that plays deals ``first .. first + n`` on Ray and
        returns the figures of a native match (its games appended to the log)."""
        specs = (distributed.spec_of(aa, self.agent), distributed.spec_of(bb, self.agent))
        names = [aa.name, bb.name] if log is not None else None

        def play(n: int, first: int, progress) -> dict:
            writer = mlog.at(first)
            if writer is not None:
                writer.finish()  # the log's header and the games a checkpoint counts; pieces follow
            settings = {"game": self.game, **native, "threads": ray.threads}
            per = self.seatings[native["protocol"]]
            results = distributed.play_match(
                _piece, specs, settings, first, n, ray, per=per, report=progress, log=log, log_names=names
            )
            d = trick_match_summary(self.game, aa.name, bb.name, *distributed.joined(results), _tallies(results))
            d["threads"] = ray.threads
            return d

        return play

    def selfplay(
        self,
        a,
        deals: int = 1000,
        *,
        rules: Optional[str] = None,
        seed: int = 0,
        threads: int = 0,
        progress: ProgressLike = False,
        checkpoint: str | os.PathLike | None = None,
        log: str | os.PathLike | None = None,
    ) -> SelfPlayResult:
        """Plays ``deals`` deals with ``a`` in every seat, each deal once — data for
        :func:`cfrkit.learn.imitate`: a :func:`match` plays every deal in each seating of its
        protocol, and a program against itself would repeat the same cards. The result holds
        the agent's mean result per seat-game (``per_game``) and its breakdown.

        With ``log`` (a file path) game ``i`` of the log is deal ``i``; ``checkpoint``,
        ``threads`` and ``progress`` as in :func:`match` (a resumed run's log goes on after the
        games the checkpoint counts). A PIMC agent logs its exact means unless its spec says
        ``values=none`` (less search: imitation needs only the actions).
        """
        _check_common(deals, seed, threads)
        _, rules = self._options(None, rules)
        aa = self.agent(a)

        def play(n: int, first: int, progress, writer) -> dict:
            return trick_selfplay(
                self.game, aa, n, rules=rules, seed=seed, threads=threads, progress=progress, first_deal=first,
                log=writer,
            )  # fmt: skip

        own = {} if rules == self.rules and len(self.protocols) == 1 else {"rules": rules}
        return run_selfplay(
            aa.name,
            deals,
            seed=seed,
            unit=self.unit,
            categories=self.categories,
            settings={"game": f"{self.game}-selfplay", **own},
            play=play,
            open_log=lambda done, resume: trick_log_writer(
                self.game,
                os.fspath(log),
                [aa.name],
                rules=rules,
                seed=seed,
                deals_done=done,
                selfplay=True,
                resume=resume,
            ),
            checkpoint=checkpoint,
            log=log,
            progress=progress,
        )

    def tournament(
        self,
        agents: Sequence,
        deals: int = 1000,
        *,
        protocol: Optional[str] = None,
        rules: Optional[str] = None,
        seed: int = 0,
        threads: int = 0,
        progress: ProgressLike = False,
        log: str | os.PathLike | None = None,
        backend: distributed.BackendLike = "local",
        checkpoint: str | os.PathLike | None = None,
        share_decisions: bool = False,
    ) -> TournamentResult:
        """Every pair of ``agents`` plays :func:`match` on the same ``deals`` deals
        (``progress`` as in :func:`match`, over all pairs); the pairs' breakdowns are not
        computed (empty). With ``log`` every game goes to a game log, the pairs one after the
        other. ``backend`` as in :func:`match`: on Ray every pair's deals are played in pieces,
        all pairs at once.

        With ``checkpoint`` (a file path; not on Ray) the pairs are played one after the other
        in parts, every deal's means saved after each part; called again with the same
        arguments it resumes (the log too) and ends with the figures of an unbroken tournament.
        ``share_decisions`` as in :func:`match`."""
        _check_common(deals, seed, threads)
        share = _check_share(share_decisions)
        protocol, rules = self._options(protocol, rules)
        ray = distributed.backend_of(backend, threads)
        if isinstance(agents, str) or len(agents) < 2:
            raise InvalidArgumentError(f"invalid value for agents: {agents!r} (two or more agents)")
        if ray is not None and checkpoint is not None:
            raise InvalidArgumentError("invalid value for checkpoint: a tournament on Ray has none (run it locally)")
        aa = [self.agent(x) for x in agents]
        names = [x.name for x in aa]
        check_entrants(names)
        started = time.perf_counter()
        native = {"protocol": protocol, "rules": rules, "seed": seed, **share}
        opener = None if log is None else self._log_opener(log, names, protocol, rules, seed, checkpoint)
        with games_bar(progress, "tournament") as report, MatchLog(opener) as mlog:
            if ray is not None:
                if mlog.at(0) is not None:
                    mlog.at(0).finish()  # the header; the pieces' games follow
                specs = [distributed.spec_of(x, self.agent) for x in aa]
                pairs = distributed.play_tournament(
                    _piece,
                    specs,
                    {"game": self.game, **native, "threads": ray.threads},
                    deals,
                    ray,
                    per=self.seatings[protocol],
                    report=report,
                    log=log,
                    log_names=names if log is not None else None,
                )
                summaries = [(i, j, *distributed.joined(results)) for i, j, results in pairs]
                d = trick_tournament_summary(self.game, names, summaries, ray.threads)
            elif checkpoint is not None:

                def part(i: int, j: int, n: int, first: int, progress, done: int) -> dict:
                    d = trick_match(
                        self.game, aa[i], aa[j], n, threads=threads, progress=progress, first_deal=first,
                        log=mlog.at(done), log_pair=(len(aa), i, j, deals), per_deal=True, **native,
                    )  # fmt: skip
                    return {"rows": d["per_deal"], "games": d["games"], "threads": d["threads"]}

                settings = {
                    "game": self.game,
                    "agents": names,
                    **self._settings(protocol, rules),
                    "seed": seed,
                    **share,
                }
                pairs, used, spent = play_tournament_in_parts(checkpoint, settings, len(aa), deals, part, report)
                d = trick_tournament_summary(self.game, names, pairs, used)
            else:
                d = trick_tournament(
                    self.game, aa, deals, threads=threads, progress=report, log=mlog.at(0), **native
                )  # fmt: skip
        # With a checkpoint, the seconds of every run's parts.
        seconds = spent if checkpoint is not None else time.perf_counter() - started
        pairs = [self._result(p, protocol, rules, seed, seconds, d["threads"]) for p in d["pairs"]]
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

    def play_game(self, agents: Sequence, *, seed: int = 0, index: int = 0, rules: Optional[str] = None):
        """Plays deal ``index`` of ``seed`` with ``agents[s]`` in seat ``s``; returns the
        finished game."""
        _check_int("seed", seed, 0, "an integer from 0 to 2**64 - 1")
        _check_int("index", index, 0, "an integer from 0 to 2**64 - 1")
        if isinstance(agents, str) or len(agents) != self.seats:
            raise InvalidArgumentError(f"invalid value for agents: {agents!r} ({self.seats} agents, seat 0 first)")
        _, rules = self._options(None, rules)
        return trick_play_deal(self.game, [self.agent(x) for x in agents], seed=seed, index=index, rules=rules)


def _tallies(results: list) -> tuple:
    """The pieces' tallies summed, per program."""
    return tuple([sum(col) for col in zip(*(r["tallies"][k] for r in results))] for k in (0, 1))


def _piece(a: str, b: str, settings: dict, first: int, n: int, names, pair, index: int, per_pair: int) -> dict:
    """Deals ``first .. first + n`` of the agents of specs ``a`` and ``b`` of the game
    ``settings["game"]`` on a Ray worker: their per-deal means, games and tallies, and with
    ``names`` (the log's agents) their games as log lines (of match ``index`` among the log's,
    ``per_pair`` deals each; ``pair = (agents, i, j, per_pair)`` for a tournament's pair; see
    :func:`cfrkit.distributed.play_match`)."""
    native = dict(settings)
    game = native.pop("game")
    head = {k: native[k] for k in ("protocol", "rules", "seed")}
    opener = None
    if names is not None:
        opener = lambda path: trick_log_writer(game, path, names, piece=(index, per_pair, first), **head)  # noqa: E731

    def play(log) -> dict:
        d = trick_match(game, a, b, n, first_deal=first, log=log, log_pair=pair, per_deal=True, **native)
        return {"per_deal": d["per_deal"], "games": d["games"], "tallies": (d["tallies_a"], d["tallies_b"])}

    return distributed.with_log_piece(opener, play)


__all__ = ["MatchResult", "Matches", "SelfPlayResult", "TournamentResult"]

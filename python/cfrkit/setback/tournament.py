"""Setback tournaments: every pair of agents plays a duplicate match (spec §5.1) on the same
decks, in parallel; the result is a cross table of win rates and mean deal-point margins with
95% confidence intervals.

>>> from cfrkit.setback.tournament import tournament
>>> t = tournament(["rules", "random"], pairs=20, seed=1)
>>> t.win_rate("rules", "random") > 0.8, t.win_rate("random", "rules") < 0.2
(True, True)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence

from .. import _deprecated, distributed
from .._cfrkit import setback_log_writer, setback_match_summary
from .._checkpoint import play_tournament_in_parts, resuming
from .._tournament import check_entrants
from ..errors import InvalidArgumentError
from ..logs import MatchLog
from .agents import AgentLike, agent
from .matches import MatchResult, check_pairs, play_logged, play_pairs, result_of


@dataclasses.dataclass
class TournamentResult:
    """The matches of a tournament; ``matches[(i, j)]`` for ``i < j`` has agent ``i`` as A."""

    agents: list[str]
    pairs: int
    seed: int
    matches: dict[tuple[int, int], MatchResult]

    def _index(self, name: str | int) -> int:
        if isinstance(name, int):
            return name
        if name not in self.agents:
            raise InvalidArgumentError(f"invalid value for agent: {name!r} (one of {', '.join(self.agents)})")
        return self.agents.index(name)

    def cell(self, row: str | int, col: str | int) -> dict:
        """Row agent's win rate and margin per deal against the column agent, with 95% CIs."""
        i, j = self._index(row), self._index(col)
        if i == j:
            raise InvalidArgumentError(f"invalid value for col: {col!r} (an agent other than the row agent)")
        m = self.matches[(min(i, j), max(i, j))]
        if i < j:
            return {
                "win_rate": m.win_rate,
                "ci": (m.ci_low, m.ci_high),
                "margin": m.margin,
                "margin_ci": (m.margin_ci_low, m.margin_ci_high),
            }
        return {
            "win_rate": 1 - m.win_rate,
            "ci": (1 - m.ci_high, 1 - m.ci_low),
            "margin": -m.margin,
            "margin_ci": (_negated(m.margin_ci_high), _negated(m.margin_ci_low)),
        }

    def win_rate(self, row: str | int, col: str | int) -> float:
        return self.cell(row, col)["win_rate"]

    def table(self) -> str:
        """The cross table as text: each cell is the row agent's result against the column agent."""
        n = len(self.agents)
        cells = [["—" if i == j else _cell_text(self.cell(i, j)) for j in range(n)] for i in range(n)]
        width = max(len(x) for x in [*self.agents, *(c for row in cells for c in row)]) + 2
        head = (" " * width + "".join(f"{a:<{width}}" for a in self.agents)).rstrip()
        lines = [
            f"win rate of the row agent (95% CI) / mean deal-point margin per deal ± 95%; "
            f"{2 * self.pairs:,} games per match, seed {self.seed}",
            head,
        ]
        for a, row in zip(self.agents, cells):
            lines.append((f"{a:<{width}}" + "".join(f"{c:<{width}}" for c in row)).rstrip())
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "agents": self.agents,
            "pairs": self.pairs,
            "seed": self.seed,
            "matches": [m.to_dict() for _, m in sorted(self.matches.items())],
        }


def _negated(x: float | None) -> float | None:
    return None if x is None else -x


def _cell_text(c: dict) -> str:
    lo, hi = c["margin_ci"]
    spread = "" if lo is None else f"±{(hi - lo) / 2:.2f}"
    return f"{100 * c['win_rate']:.1f}% ({100 * c['ci'][0]:.1f}–{100 * c['ci'][1]:.1f}) {c['margin']:+.2f}{spread}"


def tournament(
    agents: Sequence[AgentLike],
    deals: int = 1000,
    *,
    seed: int = 0,
    threads: int = 0,
    progress: Callable[[MatchResult], None] | None = None,
    backend: distributed.BackendLike = "local",
    log: str | os.PathLike | None = None,
    checkpoint: str | os.PathLike | None = None,
    pairs: int | None = None,
) -> TournamentResult:
    """Plays every pair of ``agents`` on ``deals`` deals (each a duplicate pair of games), all on
    the decks of ``seed`` (``pairs=``: the deprecated name of ``deals=``); ``progress`` is called
    with each finished match. ``backend`` as in :func:`~cfrkit.setback.matches.match`: each match in
    pieces on Ray. With ``log`` every game goes to one game log naming all the agents, the matches
    one after the other (0–1, 0–2, …, 1–2, …). With ``checkpoint`` (a file path; not on Ray) every
    pair's outcome is saved after each part of a match; called again with the same arguments the
    tournament resumes (the log too) and ends with the figures of an unbroken one."""
    pairs = _deprecated.renamed("setback.tournament", "pairs", pairs, "deals", deals)
    built = [agent(a) for a in agents]
    names = [a.name for a in built]
    check_entrants(names)
    check_pairs(pairs)
    ray = distributed.backend_of(backend, threads)
    if checkpoint is not None:
        if ray is not None:
            raise InvalidArgumentError("invalid value for checkpoint: a tournament on Ray has none (run it locally)")
        return _in_parts(built, pairs, seed, threads, progress, log, checkpoint)
    matches = {}
    writer = None if log is None else setback_log_writer(os.fspath(log), names, seed)
    try:
        pairings = [(x, y) for x in range(len(built)) for y in range(x + 1, len(built))]
        for index, (i, j) in enumerate(pairings):
            in_log = None if writer is None else (writer, (index, pairs, i, j), names)
            m = play_logged(built[i], built[j], pairs, seed, threads, ray, in_log)
            matches[(i, j)] = m
            if progress is not None:
                progress(m)
    finally:
        if writer is not None:
            writer.finish()
    return TournamentResult(names, pairs, seed, matches)


def _in_parts(built, pairs: int, seed: int, threads: int, progress, log, checkpoint) -> TournamentResult:
    """:func:`tournament` with a checkpoint: the matches one after the other, in parts."""
    names = [a.name for a in built]
    resume = resuming(checkpoint)
    opener = (
        None
        if log is None
        else lambda done: setback_log_writer(os.fspath(log), names, seed, pairs_done=done, resume=resume)
    )
    slots = {(i, j): k for k, (i, j) in enumerate((i, j) for i in range(len(built)) for j in range(i + 1, len(built)))}
    with MatchLog(opener) as mlog:

        def part(i: int, j: int, n: int, first: int, _progress, done: int) -> dict:
            writer = mlog.at(done)
            in_log = None if writer is None else (writer, (slots[(i, j)], pairs, i, j), names)
            r = play_pairs(built[i], built[j], first, n, seed, threads, None, in_log)
            return {"rows": r["outcomes"], "games": r["games"], "threads": r["threads"]}

        settings = {"game": "setback", "agents": names, "seed": seed}
        played, used, seconds = play_tournament_in_parts(checkpoint, settings, len(built), pairs, part, None)
    matches = {}
    for i, j, outcomes, _ in played:
        m = result_of(built[i], built[j], setback_match_summary(outcomes), seed, used, seconds)
        matches[(i, j)] = m
        if progress is not None:
            progress(m)
    return TournamentResult(names, pairs, seed, matches)


__all__ = ["TournamentResult", "tournament"]

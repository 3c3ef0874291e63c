"""Self-play runs shared by the trick-taking games: one agent in every seat, each deal played
once, its games written to a game log — data sets for :func:`cfrkit.learn.imitate` (a match
plays every deal in each seating of its protocol, so a program against itself repeats the same
cards). The games' native loops do the playing; this module adds the checkpoint, the log that
goes on with it, the progress bar and the result (the command is every game's, ``cfrkit._game_cli``)."""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Callable, Sequence

from ._checkpoint import Running, play_in_parts, resuming
from ._progress import ProgressLike, games_bar
from ._results import GamesResult
from .logs import MatchLog


@dataclasses.dataclass
class SelfPlayResult(GamesResult):
    """Self-play of one program: its mean result per seat and game (in ``unit``) with the 95%
    interval over deals, and (where the game has one) its game-type breakdown in per cent of
    its seat-games."""

    agent: str
    deals: int
    games: int
    per_game: float
    ci95: float
    unit: str
    breakdown: dict
    seed: int = 0
    threads: int = 1
    seconds: float = 0.0

    def __str__(self) -> str:
        text = (
            f"{self.agent} self-play: {self.games:,} games, one per deal (seed {self.seed}); "
            f"{self.unit} {self.per_game:+.2f} ± {self.ci95:.2f}"
        )
        if self.breakdown:
            text += "; seat-games: " + ", ".join(f"{c} {x:.1f}%" for c, x in self.breakdown.items())
        return text


def run(
    name: str,
    deals: int,
    *,
    seed: int,
    unit: str,
    categories: Sequence[str],
    settings: dict,
    play: Callable[[int, int, object, object], dict],
    open_log: Callable[[int, bool], object],
    checkpoint: str | os.PathLike | None,
    log: str | os.PathLike | None,
    progress: ProgressLike,
) -> SelfPlayResult:
    """Plays ``deals`` deals of agent ``name``'s self-play. ``play(n, first_deal, progress,
    writer)`` plays deals ``first_deal ..`` natively and returns the part's figures as a
    checkpoint merges them (``mean_a``, ``sd_a``, ``deals``, ``games``, ``threads``,
    ``tallies_a``); ``open_log(deals_done, resume)`` opens the log after the games a checkpoint
    counts (``resume``: the checkpoint was there before this run);
    ``settings`` (JSON-able) identify the run in a checkpoint."""
    started = time.perf_counter()
    resume = resuming(checkpoint)
    opener = None if log is None else lambda done: open_log(done, resume)

    def percent(tallies: Sequence[int]) -> dict:
        n = max(sum(tallies), 1)
        return {c: 100.0 * x / n for c, x in zip(categories, tallies)}

    with games_bar(progress, f"{name} self-play") as report, MatchLog(opener) as mlog:

        def part(n: int, first: int, progress) -> dict:
            return play(n, first, progress, mlog.at(first))

        if checkpoint is None:
            d = part(deals, 0, report)
            r = Running()
            r.merge(d["deals"], d["mean_a"], d["sd_a"])
            tallies, threads, done, games = d.get("tallies_a", []), d["threads"], d["deals"], d["games"]
            seconds = time.perf_counter() - started
        else:
            settings = {**settings, "agent": name, "seed": seed}
            cp = play_in_parts(checkpoint, settings, deals, part, report)
            r, tallies, threads, done, games = cp.a, cp.tallies.get("tallies_a", []), cp.threads, cp.done, cp.games
            seconds = cp.seconds
    return SelfPlayResult(name, done, games, r.mean, r.ci95, unit, percent(tallies), seed, threads, seconds)


def report(r: SelfPlayResult, log: str, as_json: bool, emit_json: Callable[[dict], None]) -> int:
    """Prints a self-play run's figures (and with ``as_json`` its record); returns 0."""
    print(r)
    print(f"{r.seconds:.3f} s, {r.speed} on {r.threads} thread(s); log {log}")
    if as_json:
        emit_json({"command": "selfplay", **r.to_dict()})
    return 0


__all__ = ["SelfPlayResult", "report", "run"]

"""Checkpoints of long matches: a match is played in parts of consecutive deals, and after each
part the merged figures are saved (JSON, written atomically, checked when read), so a match
stopped by Ctrl-C or a crash resumes where it stopped and ends with the figures of an unbroken
run (equal up to rounding).

The file holds the match's settings, the deals done, and per agent the running count, mean and
sum of squared deviations of its per-deal results (merged part by part with Chan et al.'s
formula); matches whose figures are summarised from per-deal outcomes (Setback's duplicate
pairs) also keep every deal's outcome row. Resuming asks for the same settings; the number of
deals may grow (a finished match can be extended), not shrink below the deals done.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from pathlib import Path
from typing import Any, Callable, Optional

from .errors import InvalidArgumentError

FORMAT = "cfrkit-match-checkpoint"
#: The format tag of a tournament's checkpoint.
TOURNAMENT_FORMAT = "cfrkit-tournament-checkpoint"
#: A checkpointed match's first part, in deals (small: a PIMC deal can take seconds, and nothing
#: is saved before the first part ends); parts double while they take under PART_SECONDS.
FIRST_PART = 8
PART_SECONDS = 30.0
VERSION = 1


@dataclasses.dataclass
class Running:
    """Count, mean and sum of squared deviations of some observations, mergeable."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def merge(self, n: int, mean: float, sd: float) -> None:
        """Adds ``n`` observations with mean ``mean`` and sample deviation ``sd``."""
        if n == 0:
            return
        total = self.n + n
        delta = mean - self.mean
        self.m2 += sd * sd * (n - 1) + delta * delta * self.n * n / total
        self.mean += delta * n / total
        self.n = total

    @property
    def ci95(self) -> float:
        """Half-width of the mean's 95% interval (normal approximation), as the native matches
        give it; infinite for fewer than two observations."""
        if self.n < 2:
            return math.inf
        return 1.96 * math.sqrt(self.m2 / (self.n - 1)) / math.sqrt(self.n)


@dataclasses.dataclass
class MatchCheckpoint:
    """A match's progress: ``done`` of its deals played, ``games`` games, per agent the running
    figures, the seconds spent so far and the threads of the last part."""

    path: Path
    settings: dict
    done: int = 0
    games: int = 0
    a: Running = dataclasses.field(default_factory=Running)
    b: Running = dataclasses.field(default_factory=Running)
    seconds: float = 0.0
    threads: int = 0
    #: A − B per deal, for matches whose parts report it (``diff``, ``sd_diff``); else unused.
    diff: Running = dataclasses.field(default_factory=Running)
    #: Summed per-agent counts, for matches whose parts report them (``tallies_a``, ``tallies_b``).
    tallies: dict = dataclasses.field(default_factory=dict)
    #: Every deal's outcome row (a list of integers), for matches whose parts report them.
    outcomes: list = dataclasses.field(default_factory=list)

    @classmethod
    def open(cls, path: str | os.PathLike, settings: dict, deals: int) -> MatchCheckpoint:
        """The checkpoint at ``path`` of a match with ``settings`` (a JSON-able dict) and
        ``deals`` deals: read and checked
        when the file exists, else a new one (written at once, so a path that cannot be written
        is refused before any game is played)."""
        p = Path(path)
        if not _exists(p):
            cp = cls(p, settings)
            cp.save()
            return cp
        cp = cls._read(p)
        _check_settings(p, "match", cp.settings, settings)
        if deals < cp.done:
            raise InvalidArgumentError(
                f"invalid value for deals: {deals} (the checkpoint {str(p)!r} has {cp.done} deals done; "
                f"at least that many)"
            )
        return cp

    @classmethod
    def _read(cls, p: Path) -> MatchCheckpoint:
        bad = _bad_file(p, "match")
        d = _load(p, FORMAT, bad)
        try:
            done, games, seconds, threads = d["done"], d["games"], d["seconds"], d["threads"]
            sides = [Running(*d[k]) for k in ("a", "b")]
            settings = d["settings"]
        except (KeyError, TypeError) as e:
            raise bad(f"missing or malformed {e}") from None
        counts = [done, games, threads] + [s.n for s in sides]
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in counts):
            raise bad("counts that are not non-negative integers")
        if not isinstance(settings, dict) or any(s.n != done for s in sides) or games < done:
            raise bad("inconsistent counts")
        floats = [seconds] + [x for s in sides for x in (s.mean, s.m2)]
        if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in floats) or any(s.m2 < 0 for s in sides):
            raise bad("figures that are not finite numbers")
        cp = cls(p, settings, done, games, sides[0], sides[1], float(seconds), threads)
        try:
            if "diff" in d:
                cp.diff = Running(*d["diff"])
                if cp.diff.n != done or not all(math.isfinite(x) for x in (cp.diff.mean, cp.diff.m2)):
                    raise bad("an inconsistent difference")
            tallies = d.get("tallies", {})
            if not isinstance(tallies, dict) or not all(
                isinstance(v, list) and all(isinstance(x, int) and x >= 0 for x in v) for v in tallies.values()
            ):
                raise bad("malformed tallies")
            cp.tallies = tallies
            outcomes = d.get("outcomes", [])
            if not isinstance(outcomes, list) or (outcomes and len(outcomes) != done):
                raise bad("outcomes that are not one row per deal")
            if not all(isinstance(r, list) and all(isinstance(x, int) for x in r) for r in outcomes):
                raise bad("outcome rows that are not lists of integers")
            cp.outcomes = outcomes
        except TypeError as e:
            raise bad(f"malformed {e}") from None
        return cp

    def add(self, part: dict[str, Any], seconds: float) -> None:
        """Merges the figures of a part (a native match's dict: ``deals``, ``games``,
        ``mean_a``, ``sd_a``, ``mean_b``, ``sd_b``, ``threads``; ``diff`` and ``sd_diff``,
        ``tallies_a`` and ``tallies_b`` where it has them) played in ``seconds``. A difference
        or tallies that a checkpoint of an earlier version did not keep from its first deal are
        not begun half-way."""
        self.a.merge(part["deals"], part["mean_a"], part["sd_a"])
        self.b.merge(part["deals"], part["mean_b"], part["sd_b"])
        if "sd_diff" in part and self.diff.n == self.done:
            self.diff.merge(part["deals"], part["diff"], part["sd_diff"])
        for key in ("tallies_a", "tallies_b"):
            if key in part and (key in self.tallies or self.done == 0):
                old = self.tallies.get(key, [0] * len(part[key]))
                self.tallies[key] = [x + y for x, y in zip(old, part[key])]
        if "outcomes" in part:
            self.outcomes.extend(part["outcomes"])
        self.done += part["deals"]
        self.games += part["games"]
        self.seconds += seconds
        self.threads = part["threads"]

    def difference(self) -> dict:
        """A − B per deal (``diff``, ``ci95_diff``): kept from the first deal, or (a checkpoint
        of an earlier version that kept none) the difference of the means without an interval."""
        if self.diff.n == self.done and self.done:
            return {"diff": self.diff.mean, "ci95_diff": self.diff.ci95}
        return {"diff": self.a.mean - self.b.mean, "ci95_diff": math.nan}

    def save(self) -> None:
        """Writes the checkpoint atomically: a temporary file beside it, then renamed over it."""
        record = {
            "format": FORMAT,
            "version": VERSION,
            "settings": self.settings,
            "done": self.done,
            "games": self.games,
            "a": [self.a.n, self.a.mean, self.a.m2],
            "b": [self.b.n, self.b.mean, self.b.m2],
            "seconds": self.seconds,
            "threads": self.threads,
        }
        if self.diff.n:
            record["diff"] = [self.diff.n, self.diff.mean, self.diff.m2]
        if self.tallies:
            record["tallies"] = self.tallies
        if self.outcomes:
            record["outcomes"] = self.outcomes
        _write_atomically(self.path, record)


def _exists(p: Path) -> bool:
    """Whether the checkpoint file ``p`` exists; a directory is refused."""
    if p.is_dir():
        raise InvalidArgumentError(f"invalid value for checkpoint: {str(p)!r} is a directory (a file path)")
    return p.exists()


def _bad_file(p: Path, kind: str) -> Callable[[str], InvalidArgumentError]:
    """The error for a checkpoint file ``p`` of a ``kind`` (match, tournament) that cannot be read."""
    return lambda why: InvalidArgumentError(
        f"invalid value for checkpoint: {str(p)!r} is not a readable cfrkit {kind} checkpoint ({why})"
    )


def _load(p: Path, fmt: str, bad: Callable[[str], InvalidArgumentError]) -> dict:
    """The JSON record of the checkpoint ``p``, checked for the format tag ``fmt`` and the version."""
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise bad(e.strerror or str(e)) from None
    except (UnicodeDecodeError, ValueError):
        raise bad("not a JSON checkpoint: a file of another kind") from None
    if not isinstance(d, dict) or d.get("format") != fmt:
        raise bad(f"no {fmt!r} format tag")
    if d.get("version") != VERSION:
        raise bad(f"version {d.get('version')!r}, this cfrkit reads version {VERSION}")
    return d


def _check_settings(p: Path, kind: str, held: dict, settings: dict) -> None:
    """Refuses a checkpoint ``p`` whose settings ``held`` are not ``settings``, naming the first
    that differs."""
    for key in sorted(set(settings) | set(held)):
        if key not in settings or key not in held:
            raise InvalidArgumentError(
                f"invalid value for checkpoint: {str(p)!r} holds a checkpoint of another kind of run (its "
                f"settings and this run's differ in {key!r}); use another file"
            )
        if settings.get(key) != held.get(key):
            raise InvalidArgumentError(
                f"invalid value for checkpoint: {str(p)!r} holds a {kind} with {key}={held.get(key)!r}, "
                f"not {settings.get(key)!r} (use the same settings, or another file)"
            )


def _write_atomically(path: Path, record: dict) -> None:
    """Writes ``record`` as JSON to ``path``: a temporary file beside it, then renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        raise InvalidArgumentError(
            f"invalid value for checkpoint: {str(path)!r} cannot be written ({e.strerror or e})"
        ) from None


def resuming(path: str | os.PathLike | None) -> bool:
    """Whether a run with checkpoint ``path`` goes on from an earlier one (the file exists): its
    log is then kept and cut back to what the checkpoint counts, even when that is nothing."""
    return path is not None and os.path.exists(path)


def play_in_parts(
    path: str | os.PathLike,
    settings: dict,
    deals: int,
    play_part: Callable[..., dict],
    report: Optional[Callable[[int, int], object]],
) -> MatchCheckpoint:
    """Plays the match of ``settings`` to ``deals`` deals in parts, saving the checkpoint at
    ``path`` after each, and returns it. ``play_part(n, first_deal, progress)`` plays deals
    ``first_deal .. first_deal + n`` natively and returns their figures (the dict
    :meth:`MatchCheckpoint.add` merges); ``report(games done, games in all)`` sees the whole
    match's progress."""
    cp = MatchCheckpoint.open(path, settings, deals)
    part = FIRST_PART
    while cp.done < deals:
        n = min(part, deals - cp.done)
        done = cp.done

        def shifted(d: int, t: int, n: int = n, done: int = done) -> object:
            per_deal = t // n  # games per deal: the protocol's seatings
            return report(done * per_deal + d, deals * per_deal) if report else None

        began = time.perf_counter()
        figures = play_part(n, done, shifted)
        elapsed = time.perf_counter() - began
        cp.add(figures, elapsed)
        cp.save()
        part = _next_part(part, elapsed, figures["threads"])
    return cp


def _next_part(part: int, elapsed: float, threads: int) -> int:
    """The size of the part after one of ``part`` deals that took ``elapsed`` seconds on
    ``threads`` threads: twice as large while parts are quick, and at least two deals a thread
    (a match that plays a deal's games together keeps every thread busy)."""
    return max(part * 2 if elapsed < PART_SECONDS else part, 2 * threads)


def _tournament_pairs(p: Path, settings: dict, agents: int, deals: int) -> tuple[list, float, int]:
    """The pairs played so far, the seconds and threads of the tournament checkpoint at ``p``:
    read and checked when the file exists (same settings), else none (the file written at once)."""
    if not _exists(p):
        return [], 0.0, 0
    bad = _bad_file(p, "tournament")
    d = _load(p, TOURNAMENT_FORMAT, bad)
    _check_settings(p, "tournament", d.get("settings") if isinstance(d.get("settings"), dict) else {}, settings)
    order = [(i, j) for i in range(agents) for j in range(i + 1, agents)]
    pairs, seconds, threads = d.get("pairs"), d.get("seconds"), d.get("threads")
    if not isinstance(pairs, list) or len(pairs) > len(order):
        raise bad("malformed pairs")
    for k, pair in enumerate(pairs):
        try:
            i, j, games, rows = pair
            ok = (i, j) == order[k] and isinstance(games, int) and isinstance(rows, list) and len(rows) <= deals
            ok = ok and (k == len(pairs) - 1 or len(rows) == deals) and games >= len(rows)
            ok = ok and all(isinstance(r, list) and r and all(_finite(x) for x in r) for r in rows)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise bad(f"pair {k} malformed or out of order")
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and isinstance(threads, int)):
        raise bad("malformed seconds or threads")
    return pairs, float(seconds), threads


def _finite(x) -> bool:
    """Whether ``x`` is a finite number (not a bool)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def play_tournament_in_parts(
    path: str | os.PathLike,
    settings: dict,
    agents: int,
    deals: int,
    play_part: Callable[..., dict],
    report: Optional[Callable[[int, int], object]],
) -> tuple[list, int, float]:
    """Plays a tournament of ``agents`` agents pair after pair (0–1, 0–2, …, 1–2, …), each
    pair's ``deals`` deals in parts, saving the checkpoint at ``path`` (JSON, atomically: the
    settings, and per pair its games and every deal's row of numbers) after each part; a
    tournament stopped by Ctrl-C or a crash resumes where it stopped. ``play_part(i, j, n,
    first, progress, deals_done)`` plays deals ``first .. first + n`` of pair ``(i, j)``
    natively (``deals_done``: the deals of the whole tournament played before, where its log
    goes on) and returns ``rows`` (a row of numbers per deal: its two means, or Setback's
    outcome), ``games`` and ``threads``. Returns every pair's ``(i, j, rows, games)``, rows as
    tuples, from which the game's summary makes the figures of an unbroken tournament, the
    threads of the last part and the seconds of every run."""
    p = Path(path)
    settings = {**settings, "deals": deals}
    pairs, seconds, threads = _tournament_pairs(p, settings, agents, deals)
    order = [(i, j) for i in range(agents) for j in range(i + 1, agents)]

    def save() -> None:
        record = {"format": TOURNAMENT_FORMAT, "version": VERSION, "settings": settings}
        _write_atomically(p, {**record, "pairs": pairs, "seconds": seconds, "threads": threads})

    save()
    for k, (i, j) in enumerate(order):
        if k == len(pairs):
            pairs.append([i, j, 0, []])
        pair, part = pairs[k], FIRST_PART
        while len(pair[3]) < deals:
            first = len(pair[3])
            n, before = min(part, deals - first), k * deals + first

            def shifted(d: int, t: int, n: int = n, before: int = before) -> object:
                per_deal = t // n  # games per deal: the protocol's seatings
                return report(before * per_deal + d, len(order) * deals * per_deal) if report else None

            began = time.perf_counter()
            figures = play_part(i, j, n, first, shifted, before)
            elapsed = time.perf_counter() - began
            pair[3].extend(list(row) for row in figures["rows"])
            pair[2] += figures["games"]
            seconds, threads = seconds + elapsed, figures["threads"]
            save()
            part = _next_part(part, elapsed, threads)
    return [(i, j, [tuple(r) for r in rows], games) for i, j, games, rows in pairs], threads, seconds

"""Game logs: the games of matches and tournaments, one JSON line each (``docs/logs.md``).

Write one with ``cfrkit skat match ... --log games.jsonl`` (or ``log=`` in :func:`cfrkit.skat.match`,
:func:`cfrkit.schafkopf.match`, :func:`cfrkit.setback.match` and their tournaments); read it here:

>>> from cfrkit.logs import read_log
>>> log = read_log("games.jsonl")                        # doctest: +SKIP
>>> log.header["game"], len(log.games)                   # doctest: +SKIP
('skat', 600)
>>> d = log.games[0]["decisions"][0]                     # doctest: +SKIP
>>> log.header["actions"][d["action"]], d["seat"]        # doctest: +SKIP
('18', 1)

The first line is the header (``format`` ``"cfrkit-game-log"``, ``version``, ``game``,
``agents``, ``seed``, ``settings``, ``actions``: the names of the action ids); each further line
is a game: ``game`` (its number, 0, 1, 2, …), ``deal``, ``seating`` (the agent of each seat, an
index into the header's agents), ``cards`` and ``result`` (in the game's own terms),
``decisions`` (``seat``, ``legal`` action ids, ``action`` and, where the agent gives them,
``values`` aligned with ``legal``) and ``returns`` (each seat's payoff). Every line is checked as
it is read; a bad or foreign line raises :class:`cfrkit.FileFormatError` naming its number.
The Rust core reads the same files (``cfrkit_core::arena::log``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from typing import Any, Callable, Iterator, Optional

from .errors import CfrkitIOError, FileFormatError

FORMAT = "cfrkit-game-log"
VERSION = 1

_HEADER_KEYS = {"format", "version", "game", "agents", "seed", "settings", "actions"}
_GAME_KEYS = {"game", "deal", "seating", "cards", "decisions", "result", "returns"}
_DECISION_KEYS = {"seat", "legal", "action"}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _ints(xs) -> bool:
    return isinstance(xs, list) and all(_is_int(x) for x in xs)


def _check_header(h) -> str | None:
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        return f"no {FORMAT!r} header: not a cfrkit game log"
    if h.get("version") != VERSION:
        return f"version {h.get('version')!r}; this cfrkit reads version {VERSION}"
    if set(h) != _HEADER_KEYS:
        return f"a malformed header (keys {sorted(h)})"
    ok = (
        isinstance(h["game"], str)
        and isinstance(h["settings"], str)
        and _is_int(h["seed"])
        and all(isinstance(x, list) and all(isinstance(s, str) for s in x) for x in (h["agents"], h["actions"]))
    )
    return None if ok else "a malformed header (wrong types)"


def _check_game(g, number: int, header: dict) -> str | None:
    if not isinstance(g, dict) or set(g) != _GAME_KEYS:
        return f"not a game record (keys {sorted(g) if isinstance(g, dict) else type(g).__name__})"
    if g["game"] != number:
        return f"game number {g['game']!r}, expected {number}"
    if not (_is_int(g["deal"]) and _ints(g["seating"]) and isinstance(g["decisions"], list)):
        return "not a game record (deal, seating or decisions malformed)"
    if not isinstance(g["returns"], list) or not all(isinstance(x, int) for x in g["returns"]):
        return "not a game record (returns malformed)"
    agents, actions = len(header["agents"]), len(header["actions"])
    if any(k >= agents for k in g["seating"]):
        return f"seating names an agent beyond the {agents} of the header"
    if len(g["returns"]) != len(g["seating"]):
        return f"{len(g['returns'])} returns for {len(g['seating'])} seats"
    for i, d in enumerate(g["decisions"]):
        why = _check_decision(d, len(g["seating"]), actions)
        if why:
            return f"decision {i}: {why}"
    return None


def _check_decision(d, seats: int, actions: int) -> str | None:
    if not isinstance(d, dict) or not (_DECISION_KEYS <= set(d) <= _DECISION_KEYS | {"values"}):
        return "malformed"
    legal = d["legal"]
    if not (_is_int(d["seat"]) and d["seat"] < seats):
        return f"seat {d['seat']!r}"
    if not _ints(legal) or any(a >= actions for a in legal) or any(x >= y for x, y in zip(legal, legal[1:])):
        return "legal action ids that are not ascending ids of the game's actions"
    if d["action"] not in legal:
        return f"action {d['action']!r} not among the legal ones"
    values = d.get("values")
    if values is not None and (
        not isinstance(values, list)
        or len(values) != len(legal)
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values)
    ):
        return "values that are not one finite number per legal action"
    return None


class LogReader:
    """Reads a game log line by line: ``header`` (a dict), then iterate for the games (dicts),
    each checked as it is read. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        try:
            self._file = open(self.path, encoding="utf-8")
        except OSError as e:
            raise CfrkitIOError(f"I/O error on {self.path}: {e.strerror or e}") from None
        self._line = 0
        first = self._next_line()
        if first is None:
            self._line = 1  # the header's line, as the Rust reader names it
            self._bad("an empty file, not a cfrkit game log")
        header = self._parse(first)
        why = _check_header(header)
        if why:
            self._bad(why)
        self.header: dict = header

    def _bad(self, why: str):
        self.close()
        raise FileFormatError(f"bad file {self.path}: line {self._line}: {why}")

    def _next_line(self) -> str | None:
        try:
            line = self._file.readline()
        except (OSError, UnicodeDecodeError) as e:
            self._line += 1
            self._bad(f"unreadable ({type(e).__name__})")
        if not line:
            return None
        self._line += 1
        return line

    def _parse(self, line: str):
        try:
            return json.loads(line)
        except ValueError as e:
            self._bad(f"not JSON ({e})")

    def __iter__(self) -> Iterator[dict]:
        number = 0
        while True:
            line = self._next_line()
            if line is None:
                self.close()
                return
            game = self._parse(line)
            why = _check_game(game, number, self.header)
            if why:
                self._bad(why)
            number += 1
            yield game

    def close(self) -> None:
        """Closes the file."""
        self._file.close()

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclasses.dataclass
class GameLog:
    """A whole log: its header and its games."""

    header: dict
    games: list

    @property
    def game(self) -> str:
        """The game logged (``skat``, ``schafkopf``, ``setback``)."""
        return self.header["game"]

    def action_name(self, action_id: int) -> str:
        """The name of an action id of the logged game."""
        return self.header["actions"][action_id]


class MatchLog:
    """The log writer of a match played whole or in parts: ``open_at(deals_done)`` opens it
    (a native ``*_log_writer``) when the first part starts, after the deals a checkpoint
    counts; the log is finished on leaving the ``with`` block. ``open_at=None``: no log."""

    def __init__(self, open_at: Optional[Callable[[int], Any]]):
        self._open_at = open_at
        self.writer = None

    def at(self, first_deal: int):
        """The writer for a part starting at ``first_deal`` (None without a log)."""
        if self._open_at is not None and self.writer is None:
            self.writer = self._open_at(first_deal)
        return self.writer

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, *exc) -> None:
        if self.writer is not None:
            self.writer.finish()


def read_log(path: str | os.PathLike) -> GameLog:
    """Reads and checks the whole log at ``path``."""
    with LogReader(path) as r:
        return GameLog(r.header, list(r))


__all__ = ["FORMAT", "VERSION", "GameLog", "LogReader", "MatchLog", "read_log"]

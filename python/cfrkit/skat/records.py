"""Game records of the International Skat Server (ISS), read, replayed and written
(``docs/iss.md``).

>>> from cfrkit import skat
>>> for g in skat.read_iss("iss-games.sgf"):            # doctest: +SKIP
...     print(g["id"], g["players"], g["contract"], g["result"])
8 ['Montana', 'vaun', 'Ben'] None d:-1 penalty v:0 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:1 l:-1 to:2 r:0

Each record is parsed, replayed through the Skat engine under the server's rules
(``skat.Game`` with ``rules="iss"``: early ends, resignations, time-outs, leaving) and its
result checked against the record's own. :func:`read_iss` yields a dict per record that
replays: ``line``, ``place``, ``series``, ``id``, ``date``, ``players``, ``ratings``, ``moves``
(as written), ``result`` (the record's result field), ``end`` (``played``, ``passed``,
``declarer_resigned``, ``defenders_resigned``, ``timeout``, ``left``), ``contract``,
``returns`` (Seeger-Fabian points per seat), ``notes`` (what was replayed around, e.g. an
unknown card before a player left) and ``game`` (the :class:`cfrkit.skat.Game` as far as it
was played). A record that does not replay is reported — to ``on_error(line, id, reason)``, or
as an :class:`IssRecordWarning` — and skipped. Files may be bzip2-compressed; they are read on
all cores (``threads``) in line order. ``filter`` keeps some records only:
``place=ISS2,since=2016-01-01,until=2017-12-31,players=humans|bots|NAME+NAME,complete=1,
min_rating=1000``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from typing import Callable, Iterator, Optional

from .._cfrkit import IssReader, iss_stats, iss_to_log, log_to_iss
from ..errors import InvalidArgumentError

__all__ = ["IssRecordWarning", "read_iss", "iss_to_log", "log_to_iss", "iss_stats", "log_in_format"]

#: The formats a Skat run writes its games in (``--log-format``).
LOG_FORMATS = ("cfrkit", "iss")


class IssRecordWarning(UserWarning):
    """A record that does not replay (its line, id and reason in the message)."""


def read_iss(
    path: str | os.PathLike,
    *,
    threads: int = 0,
    filter: Optional[str] = None,
    on_error: Optional[Callable[[int, str, str], None]] = None,
) -> Iterator[dict]:
    """Yields the records of ``path`` that replay to their results (see the module)."""
    reader = IssReader(os.fspath(path), threads, filter)
    for kind, item in reader:
        if kind == "game":
            yield item
        elif on_error is not None:
            on_error(*item)
        else:
            line, id_, reason = item
            warnings.warn(f"{os.fspath(path)} line {line} (id {id_}): {reason}", IssRecordWarning, stacklevel=2)


@contextlib.contextmanager
def log_in_format(path: Optional[str], log_format: str, checkpoint: Optional[str] = None) -> Iterator[Optional[str]]:
    """Yields the cfrkit game log a run writes for ``--log path --log-format log_format``: ``path``
    itself for ``cfrkit``; for ``iss`` a temporary log beside it, written as ISS records to
    ``path`` when the run ends (and removed; a stopped run leaves neither)."""
    if log_format not in LOG_FORMATS:
        raise InvalidArgumentError(f"invalid value for log format: {log_format!r} (one of {', '.join(LOG_FORMATS)})")
    if path is None or log_format == "cfrkit":
        yield path
        return
    if checkpoint is not None:
        raise InvalidArgumentError(
            "--log-format iss does not resume from a --checkpoint: write a cfrkit log (the default) and convert it "
            "with cfrkit logs convert --from cfrkit"
        )
    if os.path.exists(path):
        raise InvalidArgumentError(f"invalid value for --log: {path!r} exists (--force replaces it)")
    fd, tmp = tempfile.mkstemp(prefix=".cfrkit-log-", suffix=".jsonl", dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    os.remove(tmp)  # a fresh name: the log writer makes the file and refuses one that exists
    try:
        yield tmp
        log_to_iss(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)

"""The Setback strategy database (spec §4.1): SQLite with the original's schema.

``export_db`` writes one table ``Strategy(Key TEXT NOT NULL, ActionIndex INTEGER NOT NULL)`` with
the unique index ``Strategy_Key_Idx`` built after the load: the baseline's establish-trump and
playout keys and the bootstrap's auction keys, as the original's strings, each with the argmax
of its average strategy. The file is written in one transaction into a temporary file that
replaces ``out`` at the end. The database player is the agent ``"db:PATH"``.
"""

from __future__ import annotations

import dataclasses
import os
import time

from .._cfrkit import setback_export_db
from ..errors import InvalidArgumentError


@dataclasses.dataclass
class ExportResult:
    """Rows written from each stage, the file's size and the time taken."""

    out: str
    baseline_rows: int
    bootstrap_rows: int
    bytes: int
    seconds: float

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def export_db(
    baseline: str | os.PathLike, bootstrap: str | os.PathLike, out: str | os.PathLike, force: bool = False
) -> ExportResult:
    """Writes the database of a baseline and a bootstrap run (training directories or strategy
    files) to ``out``, a new file (``force=True`` replaces an existing one, atomically)."""
    if os.path.exists(out) and not force:
        raise InvalidArgumentError(f"invalid value for out: {os.fspath(out)!r} exists (--force replaces it)")
    t0 = time.monotonic()
    rows = setback_export_db(baseline, bootstrap, out)
    seconds = time.monotonic() - t0
    return ExportResult(str(out), rows[0], rows[1], os.path.getsize(out), seconds)


__all__ = ["ExportResult", "export_db"]

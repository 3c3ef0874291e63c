"""Keeping what native code writes to stderr off the terminal, where cfrkit says in one line
what happened: OpenSpiel prints its errors there before raising them, Ray its connection
warnings."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silences file descriptor 2 for the block (Python's ``sys.stderr`` is flushed first)."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)

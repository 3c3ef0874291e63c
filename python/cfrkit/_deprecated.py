"""Old spellings that still work for now, each with a one-line deprecation notice."""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable


def renamed(function: str, old: str, old_value: Any, new: str, value: Any) -> Any:
    """``value`` of argument ``new``, or ``old_value`` when the caller used the old name ``old``
    (with a ``DeprecationWarning`` naming both)."""
    if old_value is None:
        return value
    warnings.warn(f"{function}: {old}= is deprecated; use {new}=", DeprecationWarning, stacklevel=3)
    return old_value


def alias(old: str, new: Callable) -> Callable:
    """``new`` under its old name ``old``, saying so (``DeprecationWarning``) when called."""

    @functools.wraps(new)
    def call(*args, **kwargs):
        warnings.warn(f"{old} is deprecated; use {new.__module__}.{new.__name__}", DeprecationWarning, stacklevel=2)
        return new(*args, **kwargs)

    call.__name__ = call.__qualname__ = old.rsplit(".", 1)[-1]
    return call

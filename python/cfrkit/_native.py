"""The native functions as the public API gives them: an argument of the wrong type or out of
range is refused with a :class:`~cfrkit.errors.CfrkitError` (pyo3's own ``TypeError`` and
``OverflowError`` become :class:`~cfrkit.errors.InvalidTypeError` and
:class:`~cfrkit.errors.OutOfRangeError`, which still are a ``TypeError`` and an
``OverflowError``)."""

from __future__ import annotations

import functools
import inspect
import re
from typing import Callable, TypeVar

from .errors import CfrkitError, InvalidTypeError, OutOfRangeError

F = TypeVar("F", bound=Callable)

# pyo3 names the argument it could not convert: "argument 'player': can't convert …".
_ARGUMENT = re.compile(r"^argument '(\w+)': (.*)$", re.S)


def _out_of_range(fn: Callable, args: tuple, kwargs: dict) -> str | None:
    """The first integer argument of a call of ``fn`` that no native integer holds (pyo3's
    ``OverflowError`` does not name it), as ``name: value``."""
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        bound = {f"argument {i + 1}": a for i, a in enumerate(args)} | kwargs
    for key, value in bound.items():
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 2**64:
            return f"{key}: {value}"
    return None


def user_error(name: str, error: BaseException, where: str | None = None) -> CfrkitError | None:
    """The cfrkit error for ``error`` raised by the native ``name`` while reading its arguments
    (``where``: the argument out of range, if known), or None where ``error`` is something else
    (an exception of a Python function it called)."""
    if type(error) not in (TypeError, OverflowError):
        return None
    tb = error.__traceback__
    if tb is not None and tb.tb_next is not None:
        return None  # raised by Python code the native function called, not by its arguments
    text = " ".join(str(error).split()).replace("'PyString'", "'str'")
    m = _ARGUMENT.match(text)
    if m:
        text = f"{m.group(1)}: {m.group(2)}"
    if isinstance(error, OverflowError) or "negative int to unsigned" in text:
        return OutOfRangeError(f"{name}: {where or text}: out of range ({text})")
    return InvalidTypeError(f"{name}: {text}")


def checked(fn: F) -> F:
    """``fn`` (a native function) raising cfrkit errors for arguments of the wrong type or range."""
    name = getattr(fn, "__name__", "function")

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, OverflowError) as e:
            where = _out_of_range(fn, args, kwargs) if isinstance(e, OverflowError) else None
            mapped = user_error(name, e, where)
            if mapped is None:
                raise
            raise mapped from None

    return call  # type: ignore[return-value]

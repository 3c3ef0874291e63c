"""The cfrkit exception hierarchy. Every error cfrkit raises is a :class:`CfrkitError`."""


class CfrkitError(Exception):
    """Base class of every cfrkit error."""


class InvalidArgumentError(CfrkitError, ValueError):
    """An argument has a bad value; the message names it and what is allowed."""


class InvalidTypeError(InvalidArgumentError, TypeError):
    """An argument is of the wrong type (a number where a name is wanted, None where a list is);
    also a ``TypeError``, so that existing ``except TypeError`` clauses keep working."""


class OutOfRangeError(InvalidArgumentError, OverflowError):
    """A number is outside what the argument allows (negative, or too large for it); also an
    ``OverflowError``."""


class UnknownGameError(InvalidArgumentError):
    """A game spec names no known game."""


class UnknownAlgorithmError(InvalidArgumentError):
    """An algorithm name is not known."""


class CompileError(CfrkitError, ValueError):
    """A game cannot be compiled into a tree (inconsistent or unsupported game)."""


class TooLargeError(CfrkitError, ValueError):
    """A computation would not fit in memory."""


class FileFormatError(CfrkitError, ValueError):
    """A file is not a cfrkit file, is of another kind or version, or is corrupt."""


class CfrkitIOError(CfrkitError, OSError):
    """An operating-system error while reading or writing a file."""


__all__ = [
    "CfrkitError",
    "InvalidArgumentError",
    "InvalidTypeError",
    "OutOfRangeError",
    "UnknownGameError",
    "UnknownAlgorithmError",
    "CompileError",
    "TooLargeError",
    "FileFormatError",
    "CfrkitIOError",
]

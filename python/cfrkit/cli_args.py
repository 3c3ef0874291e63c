"""Argument types and error handling shared by every ``cfrkit`` sub-command.

Each type turns the text of one argument into a value, or refuses it with a message naming the
bad value and what is allowed; :class:`Parser` raises such a refusal as :class:`UsageError`, and
:func:`run` prints every error as one line on stderr and returns exit status 2. Ranges the core
defines (the thread cap, algorithm names) are taken from it. Paths are checked when the command
line is read, before any long work starts.

>>> from cfrkit import cli_args
>>> cli_args.seed("7"), cli_args.threads("0"), cli_args.count(1)("12")
(7, 0, 12)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn

from . import _cfrkit
from .errors import CfrkitError, InvalidArgumentError

#: Largest value of a seed, an iteration or pair count: the core counts in unsigned 64 bits.
U64_MAX = 2**64 - 1

#: Exit status of a refused command line or a failed command.
USAGE_ERROR = 2
#: Exit status after Ctrl-C or SIGTERM.
INTERRUPTED = 130


class UsageError(InvalidArgumentError):
    """The command line was refused (a missing or malformed argument)."""


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that raises :class:`UsageError` instead of printing its usage and
    exiting, so that :func:`run` reports it like every other error: one line on stderr and exit
    status 2. Its sub-parsers are of the same kind."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def fail(prog: str, error: BaseException) -> int:
    """Prints ``error`` as one line for command ``prog``; returns exit status 2."""
    text = " ".join(str(error).split()) or type(error).__name__
    print(f"{prog}: error: {text}", file=sys.stderr)
    return USAGE_ERROR


# A stop that takes longer than this says "stopping…" at once, so that Ctrl-C is never met by
# silence (a checkpoint being saved, a cluster's pieces being cancelled).
STOPPING_NOTICE_S = 0.5


class _Stop:
    """Ctrl-C and SIGTERM while a command runs: both raise ``KeyboardInterrupt`` (SIGTERM is a job
    scheduler's stop, and the only polite stop for a background job, which ignores SIGINT), and a
    stop still under way after :data:`STOPPING_NOTICE_S` says so on stderr."""

    def __init__(self, prog: str):
        self.prog = prog
        self.notice: threading.Timer | None = None

    def _signal(self, signum, frame):
        if self.notice is None:
            self.notice = threading.Timer(STOPPING_NOTICE_S, self._say_stopping)
            self.notice.daemon = True
            self.notice.start()
        raise KeyboardInterrupt

    def _say_stopping(self) -> None:
        print(f"{self.prog}: stopping…", file=sys.stderr, flush=True)

    def stopped(self) -> None:
        """The stop is over: no notice from now on."""
        if self.notice is not None:
            self.notice.cancel()

    @contextlib.contextmanager
    def installed(self):
        """While the block runs in the main thread, the signals go to this stop (SIGINT only where
        it raises ``KeyboardInterrupt`` today: a background job keeps ignoring it)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, self._signal)}
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, self._signal)
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def run(prog: str, command: Callable[[], int]) -> int:
    """Runs ``command`` (which reads its command line with a :class:`Parser`) and turns what a
    user can cause into an exit status: refused arguments, cfrkit errors and operating-system
    errors (a full disk, a read-only directory) become one line on stderr and status 2; Ctrl-C
    and SIGTERM become status 130 (a stop that takes more than half a second says "stopping…"
    at once); ``--help`` and ``--version`` return 0."""
    stop = _Stop(prog)
    try:
        with stop.installed():
            return command()
    except (CfrkitError, OSError) as e:
        return fail(prog, e)
    except KeyboardInterrupt as e:
        stop.stopped()
        # A stop may say what it left behind (``KeyboardInterrupt("…")``), on the same line.
        said = " ".join(str(e).split())
        print(f"{prog}: interrupted" + (f": {said}" if said else ""), file=sys.stderr)
        return INTERRUPTED
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else USAGE_ERROR)
    finally:
        stop.stopped()


def report(as_json: bool, record: dict, text: Callable[[], str]) -> None:
    """Prints a command's result: ``record`` as one JSON line with ``--json``, else ``text()``."""
    print(json.dumps(record, sort_keys=True) if as_json else text())


def _integer(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"invalid value {text!r} ({what})")
    return value


def integer(low: int, high: int = U64_MAX, what: str | None = None) -> Callable[[str], int]:
    """The type of an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        return _integer(text, low, high, what or f"an integer from {low} to {high}")

    parse.__name__ = "integer"
    return parse


def count(low: int = 0) -> Callable[[str], int]:
    """The type of a count (iterations, pairs, deals): an integer from ``low`` to 2^64 - 1."""
    return integer(low, U64_MAX)


def seed(text: str) -> int:
    """The type of a seed: an integer from 0 to 2^64 - 1."""
    return _integer(text, 0, U64_MAX, f"an integer from 0 to {U64_MAX}")


def threads(text: str) -> int:
    """The type of a thread count: 0 (``CFRKIT_NUM_THREADS`` or all cores) up to the core's cap."""
    n = _integer(text, 0, U64_MAX, f"an integer from 0 to {_cfrkit.MAX_THREADS}; 0 = all cores")
    try:
        return _cfrkit.check_threads(n)
    except CfrkitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def number(
    low: float = -math.inf, *, above: bool = False, high: float = math.inf, below: bool = False
) -> Callable[[str], float]:
    """The type of a finite number at least ``low`` (greater than it with ``above=True``) and at
    most ``high`` (less than it with ``below=True``)."""
    parts = []
    if low > -math.inf:
        parts.append(f"{'>' if above else '>='} {low:g}")
    if high < math.inf:
        parts.append(f"{'<' if below else '<='} {high:g}")
    what = "a finite number" + (" " + " and ".join(parts) if parts else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if (
            not math.isfinite(value)
            or value < low
            or (above and value == low)
            or value > high
            or (below and value == high)
        ):
            raise argparse.ArgumentTypeError(f"invalid value {text!r} ({what})")
        return value

    parse.__name__ = "number"
    return parse


def _probe(directory: str) -> str | None:
    """Why no file can be created in the existing ``directory``, or None: a file is created and
    removed there (permissions alone do not tell, e.g. for root or on read-only mounts)."""
    try:
        fd, name = tempfile.mkstemp(prefix=".cfrkit-probe.", dir=directory)
    except OSError as e:
        return f"cannot write in {directory}: {e.strerror or e}"
    os.close(fd)
    os.remove(name)
    return None


def out_file(text: str) -> str:
    """The type of a file to write (replaced if it exists): not a directory, in an existing
    directory where files can be created."""
    if not text:
        raise argparse.ArgumentTypeError("invalid value '' (a file path)")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a file to write; this is a directory)")
    parent = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a file to write; {parent} is not a directory)")
    why = _probe(parent)
    if why:
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a file to write; {why})")
    return text


def out_dir(text: str) -> str:
    """The type of a directory to write into: an existing directory where files can be created,
    or a path below one (created later, by the command)."""
    if not text:
        raise argparse.ArgumentTypeError("invalid value '' (a directory path)")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a directory to write into; this is a file)")
    existing = os.path.abspath(text)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r} (a directory to write into; {existing} is a file, not a directory)"
        )
    why = _probe(existing)
    if why:
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a directory to write into; {why})")
    return text


def in_file(text: str) -> str:
    """The type of a file to read: it must exist and be readable."""
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (an existing file)")
    if not os.access(text, os.R_OK):
        raise argparse.ArgumentTypeError(f"invalid value {text!r} (a readable file)")
    return text


def add_log_options(p: argparse.ArgumentParser, required: bool = False, text: str | None = None) -> None:
    """``--log PATH`` (a new game log) and ``--force`` (replace an existing one)."""
    p.add_argument(
        "--log",
        metavar="PATH",
        required=required,
        help=text or "write every game to a game log at PATH (JSON lines, see docs/logs.md; a new file)",
    )
    p.add_argument("--force", action="store_true", help="replace an existing --log file")


def refuse_existing(args: argparse.Namespace, *dests: str) -> None:
    """Refuses, before any work, an output named by ``--DEST`` that exists (a file, or a
    directory that holds anything) unless ``--force`` says to replace it."""
    if getattr(args, "force", False):
        return
    for dest in dests:
        path = getattr(args, dest, None)
        if path and os.path.exists(path) and not (os.path.isdir(path) and not os.listdir(path)):
            flag = "--" + dest.replace("_", "-")
            raise InvalidArgumentError(f"invalid value for {flag}: {path!r} exists (--force replaces it)")


def replace_if_forced(args: argparse.Namespace) -> None:
    """With ``--force``, removes an existing ``--log`` file so that the run writes a new one; a
    log that an existing ``--checkpoint`` resumes is kept (it is the run's own). Without
    ``--force`` the log writer refuses an existing file."""
    path, checkpoint = getattr(args, "log", None), getattr(args, "checkpoint", None)
    if not (getattr(args, "force", False) and path and os.path.isfile(path)):
        return
    if checkpoint and os.path.exists(checkpoint):
        return
    os.remove(path)


def add_ray_options(p: argparse.ArgumentParser, piece: str = "deals per piece (default 0: chosen)") -> None:
    """``--ray [ADDRESS]``, ``--workers N`` and ``--piece N`` (what a piece holds: ``piece``):
    run on a Ray cluster (:mod:`cfrkit.distributed`)."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run in pieces on Ray: no ADDRESS starts a local Ray, 'auto' joins this machine's cluster, "
        "host:port joins that one (needs pip install 'cfrkit[ray]'); --threads then counts per piece",
    )
    p.add_argument(
        "--workers", type=count(0), default=0, help="with --ray: pieces at once (default 0: the cluster's CPUs)"
    )
    p.add_argument("--piece", type=count(0), default=0, help=f"with --ray: {piece}")


def backend(args: argparse.Namespace):
    """The ``backend=`` of the options of :func:`add_ray_options`: ``"local"`` without
    ``--ray``, else a :class:`cfrkit.distributed.Ray`."""
    if args.ray is None:
        if args.workers or args.piece:
            raise UsageError("--workers and --piece go with --ray")
        return "local"
    from .distributed import Ray, require_ray

    require_ray()
    address = None if args.ray == "local" else args.ray
    return Ray(address=address, workers=args.workers, threads=max(1, args.threads), piece=args.piece)


def argv_or_sys(argv: Sequence[str] | None) -> list[str]:
    """``argv``, or the process's arguments after the program name."""
    return list(sys.argv[1:] if argv is None else argv)


__all__ = [
    "INTERRUPTED",
    "Parser",
    "U64_MAX",
    "USAGE_ERROR",
    "UsageError",
    "argv_or_sys",
    "count",
    "fail",
    "in_file",
    "integer",
    "number",
    "out_dir",
    "out_file",
    "report",
    "run",
    "seed",
    "threads",
]

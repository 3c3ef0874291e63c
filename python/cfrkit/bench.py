"""Benchmarks users run: solvers side by side on one game, with OpenSpiel's own as peers.

:func:`bench` runs each solver on a game for the same budget (wall seconds or iterations) and
evaluates its average policy at log-spaced checkpoints; evaluation time is left out of the time
axis. The result holds every point, a table, and writers for CSV, JSON and a convergence plot::

    >>> import cfrkit
    >>> result = cfrkit.bench("kuhn", algos="cfr,cfr+", iterations=100, threads=1)
    >>> [(c.name, c.iterations) for c in result.curves]
    [('cfrkit cfr', 100), ('cfrkit cfr+', 100)]
    >>> result.metric
    'exploitability'

The measure is the exploitability (NashConv / 2, OpenSpiel's convention) of two-player
constant-sum games and NashConv otherwise, both of the average policy.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence, Union

from ._stderr import quiet_stderr
from . import _cfrkit
from .errors import CfrkitError, CfrkitIOError, InvalidArgumentError, UnknownAlgorithmError, UnknownGameError

#: Peers :func:`bench` can run beside cfrkit.
PEERS = ("openspiel",)

#: Exploitability (or NashConv) targets of the table's "time to" columns.
TARGETS = (1e-2, 1e-3, 1e-4)

#: Budget when neither ``seconds`` nor ``iterations`` is given: wall seconds per solver.
DEFAULT_SECONDS = 5.0

#: Checkpoints per decade of iterations when ``checkpoints`` is not given.
DEFAULT_CHECKPOINTS = 10

#: Plot formats :meth:`BenchResult.plot` writes, by file extension.
PLOT_FORMATS = (".png", ".svg")

#: cfrkit's built-in games that OpenSpiel has too: cfrkit name -> OpenSpiel name (same rules,
#: information-state strings and action ids; parameters carry over, e.g. ``kuhn(players=3)``).
OPENSPIEL_GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}

#: OpenSpiel's C++ solvers (in ``pyspiel``) by the cfrkit algorithm they implement.
OPENSPIEL_SOLVERS = {
    "cfr": "CFRSolver",
    "cfr+": "CFRPlusSolver",
    "es-mccfr": "ExternalSamplingMCCFRSolver",
    "os-mccfr": "OutcomeSamplingMCCFRSolver",
}

#: Outcome sampling's exploration, the default of both cfrkit and OpenSpiel.
OS_EPSILON = 0.6

#: Target wall time of one timed run between time checks.
CHUNK_SECONDS = 0.05

PLOT_EXTRA_HINT = "plotting needs matplotlib: pip install 'cfrkit[plot]'"


def algorithms() -> tuple[str, ...]:
    """cfrkit's algorithm names (from the native module once it exports them)."""
    names = getattr(_cfrkit, "ALGORITHMS", None)
    if names is None:
        import cfrkit

        names = cfrkit.ALGORITHMS
    return tuple(names)


@dataclass(frozen=True)
class Point:
    """One evaluation: ``value`` (the result's metric) after ``iteration`` iterations that took
    ``seconds`` of wall time (evaluations excluded)."""

    iteration: int
    seconds: float
    value: float


@dataclass
class Curve:
    """One solver's run: its points in iteration order."""

    #: Label, e.g. ``"cfrkit cfr+"`` or ``"OpenSpiel CFRPlusSolver"``.
    name: str
    #: cfrkit's name of the algorithm, e.g. ``"cfr+"`` (shared by a cfrkit solver and its peer).
    algorithm: str
    #: ``"cfrkit"`` or ``"openspiel"``.
    implementation: str
    #: Threads the solver ran on.
    threads: int
    points: list[Point] = field(default_factory=list)
    #: Wall seconds spent evaluating (not in the time axis).
    evaluation_seconds: float = 0.0

    @property
    def iterations(self) -> int:
        """Iterations done."""
        return self.points[-1].iteration if self.points else 0

    @property
    def seconds(self) -> float:
        """Wall seconds of the iterations (evaluations excluded)."""
        return self.points[-1].seconds if self.points else 0.0

    @property
    def iterations_per_second(self) -> Optional[float]:
        return self.iterations / self.seconds if self.seconds > 0 else None

    @property
    def final(self) -> Optional[float]:
        """The metric at the last point."""
        return self.points[-1].value if self.points else None

    @property
    def best(self) -> Optional[float]:
        """The lowest metric of any point (sampled solvers need not improve monotonically)."""
        return min(p.value for p in self.points) if self.points else None

    def time_to(self, target: float) -> Optional[float]:
        """Wall seconds to the first point at or below ``target``, interpolated log-log from the
        point before it; ``None`` if never reached."""
        return self._to(target, lambda p: p.seconds)

    def iterations_to(self, target: float) -> Optional[float]:
        """Iterations to the first point at or below ``target``, interpolated like
        :meth:`time_to`; ``None`` if never reached."""
        return self._to(target, lambda p: float(p.iteration))

    def _to(self, target: float, axis: Callable[[Point], float]) -> Optional[float]:
        for i, p in enumerate(self.points):
            if p.value <= target:
                if i == 0 or p.value <= 0 or target <= 0:
                    return axis(p)
                q = self.points[i - 1]
                x0, x1 = axis(q), axis(p)
                if x0 <= 0:
                    return x1
                share = (math.log(q.value) - math.log(target)) / (math.log(q.value) - math.log(p.value))
                return math.exp(math.log(x0) + share * (math.log(x1) - math.log(x0)))
        return None


@dataclass
class BenchResult:
    """What :func:`bench` measured: one :class:`Curve` per solver, and how they compare."""

    #: The game's spec.
    game: str
    #: ``"exploitability"`` (two-player constant-sum games) or ``"nash_conv"``.
    metric: str
    players: int
    #: The budget per solver: wall seconds or iterations (one of them is ``None``).
    budget_seconds: Optional[float]
    budget_iterations: Optional[int]
    threads: int
    seed: int
    curves: list[Curve] = field(default_factory=list)
    #: ``True`` when Ctrl-C stopped the run (the curves hold what was measured before).
    interrupted: bool = False
    #: Versions of the libraries that ran: ``{"cfrkit": ..., "openspiel": ...}``.
    versions: dict[str, str] = field(default_factory=lambda: {"cfrkit": _cfrkit.__version__})

    @property
    def metric_name(self) -> str:
        """The metric as the table names it."""
        return "exploitability" if self.metric == "exploitability" else "NashConv"

    @property
    def metric_label(self) -> str:
        """The metric as the plot's axes name it."""
        return "exploitability (NashConv / 2)" if self.metric == "exploitability" else "NashConv"

    @property
    def common_value(self) -> Optional[float]:
        """The lowest metric that every solver reached: the level at which :meth:`speedups`
        compares times."""
        bests = [c.best for c in self.curves if c.points]
        return max(bests) if bests else None

    def speedups(self) -> dict[str, Optional[float]]:
        """Per curve name: the time the slowest solver needs to reach :attr:`common_value`
        divided by this solver's time to reach it (the slowest is 1.0)."""
        level = self.common_value
        times = {c.name: (c.time_to(level) if c.points and level is not None else None) for c in self.curves}
        known = [t for t in times.values() if t is not None]
        slowest = max(known) if known else None
        return {
            name: (slowest / t if t is not None and slowest is not None and t > 0 else None)
            for name, t in times.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain data (every point; the table's figures)."""
        speedups = self.speedups()
        return {
            "game": self.game,
            "metric": self.metric,
            "players": self.players,
            "budget": {"seconds": self.budget_seconds, "iterations": self.budget_iterations},
            "threads": self.threads,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "versions": dict(self.versions),
            "targets": list(TARGETS),
            "common_value": self.common_value,
            "curves": [
                {
                    "name": c.name,
                    "algorithm": c.algorithm,
                    "implementation": c.implementation,
                    "threads": c.threads,
                    "iterations": c.iterations,
                    "seconds": c.seconds,
                    "iterations_per_second": c.iterations_per_second,
                    "evaluation_seconds": c.evaluation_seconds,
                    "final": c.final,
                    "time_to": {target_label(t): c.time_to(t) for t in TARGETS},
                    "speedup": speedups[c.name],
                    "points": [
                        {"iteration": p.iteration, "seconds": p.seconds, self.metric: p.value} for p in c.points
                    ],
                }
                for c in self.curves
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BenchResult:
        """The result :meth:`to_dict` (or ``--json``) described, e.g. to plot it again."""
        metric = data["metric"]
        curves = [
            Curve(
                c["name"],
                c["algorithm"],
                c["implementation"],
                c["threads"],
                [Point(p["iteration"], p["seconds"], p[metric]) for p in c["points"]],
                c.get("evaluation_seconds", 0.0),
            )
            for c in data["curves"]
        ]
        return cls(
            data["game"],
            metric,
            data["players"],
            data["budget"]["seconds"],
            data["budget"]["iterations"],
            data["threads"],
            data["seed"],
            curves,
            data.get("interrupted", False),
            dict(data.get("versions", {})),
        )

    @classmethod
    def from_json(cls, text_or_path: Union[str, os.PathLike]) -> BenchResult:
        """The result in a JSON text or file written by :meth:`to_json` or ``--json``."""
        text = os.fspath(text_or_path)
        if not text.lstrip().startswith("{"):
            try:
                with open(text, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise CfrkitIOError(f"cannot read {text!r}: {e.strerror or e}") from None
        try:
            return cls.from_dict(json.loads(text.strip().splitlines()[-1]))
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise InvalidArgumentError(
                f"invalid value for a benchmark result: not one written by cfrkit ({e})"
            ) from None

    def to_json(self, path: Union[str, os.PathLike, None] = None) -> str:
        """The result as one line of JSON; written to ``path`` if given."""
        text = json.dumps(self.to_dict(), sort_keys=True)
        if path is not None:
            _write(path, lambda f: f.write(text + "\n"))
        return text

    def to_csv(self, path: Union[str, os.PathLike, None] = None) -> str:
        """Every point, one row each: implementation, solver, algorithm, threads, iteration,
        seconds and the metric (named in the header); written to ``path`` if given."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["implementation", "solver", "algorithm", "threads", "iteration", "seconds", self.metric])
        for c in self.curves:
            for p in c.points:
                writer.writerow([c.implementation, c.name, c.algorithm, c.threads, p.iteration, p.seconds, p.value])
        text = buffer.getvalue()
        if path is not None:
            _write(path, lambda f: f.write(text))
        return text

    def table(self) -> str:
        """The comparison as text: per solver the threads, iterations, iterations per second,
        time to each target, final metric and speed-up (see :meth:`speedups`)."""
        speedups = self.speedups()
        if self.budget_seconds is not None:
            budget = f"{self.budget_seconds:g} s per solver"
        else:
            budget = f"{self.budget_iterations:,} iterations per solver"
        head = [
            f"{self.game}: {self.metric_label} of the average policy, {budget}"
            f"{' (interrupted)' if self.interrupted else ''}",
            "time: wall seconds of the iterations, evaluations excluded; "
            + ", ".join(f"{'OpenSpiel' if k == 'openspiel' else k} {v}" for k, v in self.versions.items()),
        ]
        columns = [
            "solver",
            "threads",
            "iterations",
            "it/s",
            *(f"to {target_label(t)}" for t in TARGETS),
            "final",
            "speed-up",
        ]
        rows = []
        for c in self.curves:
            ips = c.iterations_per_second
            s = speedups[c.name]
            rows.append(
                [
                    c.name,
                    str(c.threads),
                    f"{c.iterations:,}",
                    "—" if ips is None else _figure(ips),
                    *(_seconds(c.time_to(t)) for t in TARGETS),
                    "—" if c.final is None else f"{c.final:.3e}",
                    "—" if s is None else f"{s:.1f}x",
                ]
            )
        widths = [max(len(r[i]) for r in [columns, *rows]) for i in range(len(columns))]
        lines = head + [
            "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths)))
            for r in [columns, *rows]
        ]
        level = self.common_value
        if level is not None and len(self.curves) > 1:
            lines.append(
                f"speed-up: the slowest solver's time to {self.metric_name} {level:.3g} (the lowest that every solver\n"
                "reached) divided by this solver's time to it"
            )
        return "\n".join(lines)

    def plot(self, path: Union[str, os.PathLike]) -> None:
        """Draws the metric against wall time and against iterations on log-log axes, one line
        per solver (one colour per algorithm; cfrkit solid, OpenSpiel dashed with hollow
        squares), into a ``.png``
        or ``.svg`` file. Needs matplotlib (``pip install 'cfrkit[plot]'``)."""
        check_plot_path(path)
        import matplotlib
        from matplotlib.figure import Figure

        fig = Figure(figsize=(11, 4.4), dpi=100, layout="constrained")
        by_time, by_iterations = fig.subplots(1, 2)
        colours = {}
        palette = [f"C{i}" for i in range(10)]
        for c in self.curves:
            if not c.points:
                continue
            colour = colours.setdefault(c.algorithm, palette[len(colours) % len(palette)])
            ours = c.implementation == "cfrkit"
            style = {
                "color": colour,
                "linestyle": "-" if ours else "--",
                # A peer's hollow squares stay visible where its iterates equal cfrkit's.
                "marker": "o" if ours else "s",
                "markersize": 2.5 if ours else 4,
                "markerfacecolor": colour if ours else "white",
                "linewidth": 1.6,
                "zorder": 2 if ours else 3,
                "label": f"{c.name} ({c.threads} thread{'s' if c.threads != 1 else ''})",
            }
            seconds = [p.seconds for p in c.points]
            iterations = [p.iteration for p in c.points]
            values = [p.value for p in c.points]
            by_time.plot(seconds, values, **style)
            by_iterations.plot(iterations, values, **style)
        for ax, xlabel in ((by_time, "wall time (seconds, evaluations excluded)"), (by_iterations, "iterations")):
            ax.set_xscale("log")
            ax.set_yscale("log", nonpositive="mask")
            ax.set_xlabel(xlabel)
            ax.set_ylabel(self.metric_label)
            ax.grid(True, which="major", alpha=0.35)
            ax.grid(True, which="minor", alpha=0.12)
        by_time.set_title("against wall time")
        by_iterations.set_title("against iterations")
        if self.budget_seconds is not None:
            budget = f"{self.budget_seconds:g} s per solver"
        else:
            budget = f"{self.budget_iterations:,} iterations per solver"
        fig.suptitle(f"{self.game}: {self.metric_label} of the average policy ({budget})")
        handles, labels = by_time.get_legend_handles_labels()
        if handles:
            by_iterations.legend(handles, labels, loc="best", fontsize="small")
        svg = os.fspath(path).lower().endswith(".svg")
        try:
            # SVG: text stays text (searchable, small) and no date, so equal results give equal files.
            with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "cfrkit"} if svg else {}):
                fig.savefig(os.fspath(path), metadata={"Date": None} if svg else {})
        except OSError as e:
            raise CfrkitIOError(f"cannot write {os.fspath(path)!r}: {e.strerror or e}") from None


def bench(
    game: Any,
    algos: Union[str, Sequence[str], None] = None,
    peers: Union[str, Sequence[str]] = (),
    seconds: Optional[float] = None,
    iterations: Optional[int] = None,
    threads: int = 0,
    seed: int = 0,
    checkpoints: Union[int, Sequence[int]] = DEFAULT_CHECKPOINTS,
    progress: bool = False,
) -> BenchResult:
    """Runs each solver on ``game`` for the same budget and records its convergence.

    ``game``: a spec cfrkit loads (``"leduc"``), an OpenSpiel game name (``"liars_dice"``,
    imported with :func:`cfrkit.from_openspiel`), a compiled :class:`cfrkit.Game` or a
    ``pyspiel`` game. ``algos``: cfrkit algorithm names (a list or a comma-separated string;
    default: all of :data:`cfrkit.ALGORITHMS`). ``peers=("openspiel",)`` also runs OpenSpiel's
    C++ solvers of those algorithms that it has (``CFRSolver``, ``CFRPlusSolver``,
    ``ExternalSamplingMCCFRSolver``, ``OutcomeSamplingMCCFRSolver``; one thread) on the same game
    in this process — the game must then be one OpenSpiel loads (Kuhn, Leduc, or imported from
    OpenSpiel).

    The budget per solver is ``seconds`` of wall time (default 5) or ``iterations``, not both.
    ``threads`` is cfrkit's thread count (0: all cores); ``seed`` seeds the sampled solvers of
    both (OpenSpiel gets it modulo 2**31). ``checkpoints`` is the number of evaluations per
    decade of iterations (log-spaced), or a list of iteration counts; a last evaluation is made
    when the budget runs out. Evaluation time is excluded from the time axis. ``progress`` shows
    a bar per solver. Ctrl-C stops the benchmark; the result then holds what was measured and
    ``interrupted`` is true.
    """
    algos = _check_algos(algos)
    peers = _check_peers(peers)
    seconds, iterations = _check_budget(seconds, iterations)
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
        raise InvalidArgumentError(f"invalid value for threads: {threads!r} (an integer >= 0; 0 = all cores)")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidArgumentError(f"invalid value for seed: {seed!r} (an integer >= 0)")
    _check_checkpoints(checkpoints)
    compiled, os_game = _resolve_game(game, need_openspiel=bool(peers), progress=progress)
    if peers:
        missing = [a for a in algos if a not in OPENSPIEL_SOLVERS]
        if len(missing) == len(algos):
            raise InvalidArgumentError(
                f"invalid value for peers: 'openspiel' has none of the algorithms asked for"
                f" ({', '.join(algos)}); it has {', '.join(OPENSPIEL_SOLVERS)}"
            )
    players = compiled.num_players
    metric = "exploitability" if players == 2 and compiled.constant_sum else "nash_conv"
    result = BenchResult(
        game=compiled.spec,
        metric=metric,
        players=players,
        budget_seconds=seconds,
        budget_iterations=iterations,
        threads=threads,
        seed=seed,
    )
    if peers:
        result.versions["openspiel"] = _openspiel_version()
    runs = [("cfrkit", a) for a in algos] + [("openspiel", a) for a in algos if peers and a in OPENSPIEL_SOLVERS]
    for implementation, algo in runs:
        if implementation == "cfrkit":
            runner: _Runner = _CfrkitRunner(compiled, algo, threads, seed, metric)
        else:
            runner = _OpenSpielRunner(os_game, algo, seed, metric)
        curve = Curve(runner.name, runner.algorithm, runner.implementation, runner.threads)
        result.curves.append(curve)
        interrupted = _drive(runner, curve, seconds, iterations, checkpoints, progress, metric)
        del runner  # free a solver's tables before the next one is built
        if interrupted:
            result.interrupted = True
            break
    return result


def check_plot_path(path: Union[str, os.PathLike]) -> None:
    """Refuses a plot path of another format than PNG or SVG, or when matplotlib is missing."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in PLOT_FORMATS:
        raise InvalidArgumentError(
            f"invalid value for plot: {os.fspath(path)!r} (a file name ending in {' or '.join(PLOT_FORMATS)})"
        )
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise CfrkitError(PLOT_EXTRA_HINT)


# --- checks ---------------------------------------------------------------------------------


def _check_algos(algos: Union[str, Sequence[str], None]) -> list[str]:
    known = algorithms()
    if algos is None:
        return list(known)
    names = [a.strip() for a in algos.split(",")] if isinstance(algos, str) else list(algos)
    if not names or any(not isinstance(a, str) or not a for a in names):
        raise InvalidArgumentError(f"invalid value for algos: {algos!r} (names from {', '.join(known)})")
    out: list[str] = []
    for a in names:
        if a not in known:
            raise UnknownAlgorithmError(f'unknown algorithm "{a}"; known algorithms: {", ".join(known)}')
        if a not in out:
            out.append(a)
    return out


def _check_peers(peers: Union[str, Sequence[str], None]) -> list[str]:
    if peers is None:
        return []
    names = [p.strip() for p in peers.split(",") if p.strip()] if isinstance(peers, str) else list(peers)
    out: list[str] = []
    for p in names:
        if p not in PEERS:
            raise InvalidArgumentError(f"invalid value for peers: {p!r} (one of {', '.join(PEERS)})")
        if p not in out:
            out.append(p)
    if out:
        _pyspiel()
    return out


def _check_budget(seconds: Optional[float], iterations: Optional[int]) -> tuple[Optional[float], Optional[int]]:
    if seconds is not None and iterations is not None:
        raise InvalidArgumentError("give a budget in seconds or in iterations, not both")
    if iterations is not None:
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations <= 0:
            raise InvalidArgumentError(f"invalid value for iterations: {iterations!r} (an integer > 0)")
        return None, iterations
    if seconds is None:
        return DEFAULT_SECONDS, None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds <= 0:
        raise InvalidArgumentError(f"invalid value for seconds: {seconds!r} (a finite number > 0)")
    return float(seconds), None


def _check_checkpoints(checkpoints: Union[int, Sequence[int]]) -> None:
    if isinstance(checkpoints, int) and not isinstance(checkpoints, bool):
        if checkpoints < 1:
            raise InvalidArgumentError(f"invalid value for checkpoints: {checkpoints!r} (per decade: an integer >= 1)")
        return
    try:
        values = list(checkpoints)
    except TypeError:
        values = None
    if not values or any(not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in values):
        raise InvalidArgumentError(
            f"invalid value for checkpoints: {checkpoints!r} (evaluations per decade, or a list of iteration counts"
            " >= 1)"
        )


# --- games ----------------------------------------------------------------------------------


def _pyspiel():
    """The ``pyspiel`` module, or a clear error when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        raise InvalidArgumentError(
            "invalid value for peers: 'openspiel' is not installed (pip install 'cfrkit[openspiel]')"
        ) from None
    return pyspiel


def _openspiel_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return "unknown"


def _load_openspiel(name: str, unknown: str = ""):
    """``pyspiel.load_game(name)`` with its error as one line (``unknown``: cfrkit's error for
    the name, to which OpenSpiel's is added)."""
    pyspiel = _pyspiel()
    base = name.split("(", 1)[0]
    if base not in pyspiel.registered_names():
        raise UnknownGameError(f'{unknown or f"unknown game {name!r}"}; OpenSpiel has no game "{base}" either')
    try:
        with quiet_stderr():
            return pyspiel.load_game(name)
    except pyspiel.SpielError as e:
        detail = str(e).strip().splitlines()[0] if str(e).strip() else "refused"
        raise InvalidArgumentError(f"invalid value for game: {name!r} (OpenSpiel: {detail})") from None


def _is_pyspiel_game(game: Any) -> bool:
    return type(game).__module__ == "pyspiel" and hasattr(game, "new_initial_state")


def _resolve_game(game: Any, need_openspiel: bool, progress: bool):
    """The compiled game and, when peers run, the same game in OpenSpiel."""
    from .define import from_openspiel

    if _is_pyspiel_game(game):
        return from_openspiel(game, progress=progress), game
    if isinstance(game, str):
        try:
            compiled = _cfrkit.load_game(game)
        except UnknownGameError as e:
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                raise UnknownGameError(
                    f"{e}; OpenSpiel's games need OpenSpiel: pip install 'cfrkit[openspiel]'"
                ) from None
            os_game = _load_openspiel(game, unknown=str(e))
            return from_openspiel(os_game, progress=progress), os_game
    elif isinstance(game, _cfrkit.Game):
        compiled = game
    else:
        raise InvalidArgumentError(
            f"invalid value for game: {type(game).__name__} (a spec string, a cfrkit.Game or a pyspiel game)"
        )
    if not need_openspiel:
        return compiled, None
    return compiled, _openspiel_twin(compiled)


def _openspiel_twin(compiled: Any):
    """The OpenSpiel game that ``compiled`` is, or a clear error when there is none."""
    why = None
    spec = compiled.spec
    if compiled.is_rekeyed:
        why = "it is solved under coarser keys, which OpenSpiel's solvers do not know"
    else:
        name, paren, rest = spec.partition("(")
        if name in OPENSPIEL_GAMES:
            return _load_openspiel(OPENSPIEL_GAMES[name] + paren + rest)
        pyspiel = _pyspiel()
        if name in pyspiel.registered_names():
            # A game imported with cfrkit.from_openspiel is named by OpenSpiel's own spec.
            with contextlib.suppress(pyspiel.SpielError), quiet_stderr():
                os_game = pyspiel.load_game(spec)
                if str(os_game) == spec and os_game.num_players() == compiled.num_players:
                    return os_game
        why = "OpenSpiel has no such game"
    raise InvalidArgumentError(
        f"invalid value for peers: OpenSpiel cannot run {spec!r}: {why} (peers run on"
        f" {', '.join(OPENSPIEL_GAMES)} and games imported from OpenSpiel)"
    )


# --- runs -----------------------------------------------------------------------------------


class _Runner:
    """One solver as the benchmark drives it."""

    name: str
    algorithm: str
    implementation: str
    threads: int
    #: Iterations that run as one unit; checkpoints and chunks end on multiples of it.
    step: int = 1

    def run(self, n: int) -> None:
        raise NotImplementedError

    def value(self) -> float:
        raise NotImplementedError


class _CfrkitRunner(_Runner):
    implementation = "cfrkit"

    def __init__(self, game, algorithm: str, threads: int, seed: int, metric: str):
        from .solver import Solver

        self.solver = Solver(game, algorithm=algorithm, threads=threads, seed=seed)
        self.name = f"cfrkit {algorithm}"
        self.algorithm = algorithm
        self.threads = self.solver.threads
        self.step = max(1, int(getattr(self.solver, "round_size", 1)))
        self.value = self.solver.exploitability if metric == "exploitability" else self.solver.nash_conv

    def run(self, n: int) -> None:
        self.solver.run(n)


class _OpenSpielRunner(_Runner):
    implementation = "openspiel"
    threads = 1

    def __init__(self, game, algorithm: str, seed: int, metric: str):
        pyspiel = _pyspiel()
        cls_name = OPENSPIEL_SOLVERS[algorithm]
        cls = getattr(pyspiel, cls_name)
        os_seed = seed % 2**31
        if algorithm == "es-mccfr":
            self.solver = cls(game, seed=os_seed)
            self._iterate = self.solver.run_iteration
        elif algorithm == "os-mccfr":
            self.solver = cls(game, epsilon=OS_EPSILON, seed=os_seed)
            self._iterate = self.solver.run_iteration
        else:
            self.solver = cls(game)
            self._iterate = self.solver.evaluate_and_update_policy
        self.game = game
        self.name = f"OpenSpiel {cls_name}"
        self.algorithm = algorithm
        self._measure = pyspiel.exploitability if metric == "exploitability" else pyspiel.nash_conv

    def run(self, n: int) -> None:
        iterate = self._iterate
        for _ in range(n):
            iterate()

    def value(self) -> float:
        return float(self._measure(self.game, self.solver.average_policy()))


def _marks(checkpoints: Union[int, Sequence[int]], step: int) -> Iterator[int]:
    """Iteration counts to evaluate at, increasing, each a multiple of ``step``."""

    def up(n: int) -> int:
        return -(-n // step) * step

    if isinstance(checkpoints, int):
        marks: Iterator[int] = (up(max(1, round(10 ** (k / checkpoints)))) for k in itertools.count())
    else:
        marks = iter(sorted(up(c) for c in checkpoints))
    last = 0
    for mark in marks:
        if mark > last:
            last = mark
            yield mark


def _drive(
    runner: _Runner,
    curve: Curve,
    seconds: Optional[float],
    iterations: Optional[int],
    checkpoints: Union[int, Sequence[int]],
    progress: bool,
    metric: str,
) -> bool:
    """Runs ``runner`` for the budget, appending points to ``curve``; returns ``True`` when
    Ctrl-C stopped it."""
    bar = None
    if progress:
        from tqdm import tqdm

        if seconds is not None:  # seconds of solving, shown to a tenth
            bar = tqdm(
                total=seconds, desc=curve.name, leave=False, bar_format="{l_bar}{bar}| {n:.1f}/{total:g} s{postfix}"
            )
        else:
            bar = tqdm(total=iterations, unit="it", desc=curve.name, leave=False)
    marks = _marks(checkpoints, runner.step)
    mark = next(marks, None)
    done, spent, chunk = 0, 0.0, runner.step

    def finished() -> bool:
        return (iterations is not None and done >= iterations) or (seconds is not None and spent >= seconds)

    try:
        while not finished():
            target = math.inf if iterations is None else iterations
            if mark is not None:
                target = min(target, mark)
            while done < target and not finished():
                n = int(min(chunk, target - done))
                start = time.perf_counter()
                runner.run(n)
                elapsed = time.perf_counter() - start
                done += n
                spent += elapsed
                if bar is not None:
                    bar.update(min(elapsed, seconds - bar.n) if seconds is not None else n)
                chunk = _next_chunk(n, elapsed, runner.step)
            start = time.perf_counter()
            value = runner.value()
            curve.evaluation_seconds += time.perf_counter() - start
            curve.points.append(Point(done, spent, value))
            if bar is not None:
                bar.set_postfix_str(f"{done:,} it, {metric} {value:.3g}", refresh=False)
            while mark is not None and mark <= done:
                mark = next(marks, None)
    except KeyboardInterrupt:
        return True
    finally:
        if bar is not None:
            bar.close()
    return False


def _next_chunk(n: int, elapsed: float, step: int) -> int:
    """Iterations of the next timed run: about :data:`CHUNK_SECONDS`, at most four times the last
    run, a multiple of ``step``."""
    rate = n / max(elapsed, 1e-9)
    chunk = max(1, min(int(rate * CHUNK_SECONDS), 4 * n))
    return -(-chunk // step) * step


# --- output helpers -------------------------------------------------------------------------


def _write(path: Union[str, os.PathLike], write: Callable[[Any], Any]) -> None:
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            write(f)
    except OSError as e:
        raise CfrkitIOError(f"cannot write {os.fspath(path)!r}: {e.strerror or e}") from None


def _figure(x: float) -> str:
    """A rate: whole numbers with thousands separators from 100 up, else three significant digits."""
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _seconds(t: Optional[float]) -> str:
    """A duration with three significant digits in s, ms or µs."""
    if t is None:
        return "—"
    if t >= 1:
        return f"{t:.3g} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} µs"


def target_label(t: float) -> str:
    """``1e-3`` for 0.001; other numbers as ``%g``."""
    exponent = round(math.log10(t)) if t > 0 else 0
    return f"1e{exponent}" if t > 0 and math.isclose(t, 10.0**exponent) else f"{t:g}"


__all__ = [
    "PEERS",
    "TARGETS",
    "BenchResult",
    "Curve",
    "Point",
    "bench",
    "check_plot_path",
    "algorithms",
    "target_label",
]

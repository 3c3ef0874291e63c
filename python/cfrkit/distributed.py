"""Matches, tournaments and game logs on a Ray cluster (optional dependency: ``pip install
'cfrkit[ray]'``).

A match's deals (Setback: duplicate pairs) are split into *pieces* of consecutive indices; each
piece runs the native match code on a Ray worker with its own threads and returns its deals'
observations (per deal: each side's mean over the seatings; Setback: each pair's outcome) and,
with a log, its games as log lines. The driver joins the pieces in deal order and summarises
them natively, so the figures are bit for bit those of a local run with the same seed, whatever
the number of workers or the piece size. A piece whose worker dies is run again by Ray
(``max_retries``); its result is taken once, by its index, so nothing is counted twice.

``Ray(address=None)`` starts a local Ray with all cores, ``"auto"`` joins the cluster this
machine belongs to (``ray start --head`` / ``ray start --address=...``), any other address
joins that one. See ``docs/ray.md``.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from ._stderr import quiet_stderr
from .errors import CfrkitError, InvalidArgumentError

#: The error when Ray is not installed.
MISSING = "Ray is not installed: pip install 'cfrkit[ray]' (or pip install ray)"
#: How often Ray runs a piece again after its worker died.
MAX_RETRIES = 3


class RayMissingError(CfrkitError, ImportError):
    """The Ray backend was asked for, and Ray is not installed."""


def require_ray():
    """The ``ray`` module, or :class:`RayMissingError` naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise RayMissingError(MISSING) from None
    return ray


@dataclasses.dataclass(frozen=True)
class Ray:
    """How work runs on Ray: the cluster's ``address`` (None: start a local Ray; ``"auto"``:
    join the running cluster; or ``host:port`` / ``ray://host:port``), ``workers`` pieces in
    flight at once (0: as many as the cluster's CPUs allow), ``threads`` per piece (each piece
    asks Ray for that many CPUs) and ``piece`` deals per piece (0: chosen from the work's size
    so that every worker gets several pieces)."""

    address: Optional[str] = None
    workers: int = 0
    threads: int = 1
    piece: int = 0

    def __post_init__(self) -> None:
        for name, low in (("workers", 0), ("threads", 1), ("piece", 0)):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < low or v > 1 << 20:
                raise InvalidArgumentError(
                    f"invalid value for {name}: {v!r} (an integer from {low} to {1 << 20} for the Ray backend)"
                )
        if self.address is not None and (not isinstance(self.address, str) or not self.address.strip()):
            raise InvalidArgumentError(
                f"invalid value for ray address: {self.address!r} ('auto', host:port, ray://host:port, or none "
                "to start a local Ray)"
            )


#: What a ``backend=`` argument takes.
BackendLike = Union[str, Ray, None]


def backend_of(backend: BackendLike, threads: int = 0) -> Optional[Ray]:
    """The Ray settings a ``backend=`` argument names: ``"local"`` (None: play here), ``"ray"``
    (a local Ray, or the one this process is connected to, with ``threads`` per piece; 0 means
    1), or a :class:`Ray` as it is."""
    if backend is None or backend == "local":
        return None
    if backend == "ray":
        return Ray(threads=max(1, threads))
    if isinstance(backend, Ray):
        return backend
    raise InvalidArgumentError(f"invalid value for backend: {backend!r} ('local', 'ray' or a cfrkit.distributed.Ray)")


def connect(settings: Ray):
    """The ``ray`` module, connected: to the running Ray of this process if there is one, else
    to ``settings.address``, else to a new local Ray."""
    ray = require_ray()
    if not ray.is_initialized():
        _probe(settings.address)
        try:
            if settings.address is None:
                ray.init(include_dashboard=False, logging_level="ERROR", log_to_driver=False)
            else:
                # Something answers but may not be Ray: give up after a few tries (Ray's own loop
                # tries for minutes) and keep Ray's connection warnings off the terminal.
                os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(JOIN_TRIES))
                with quiet_stderr():
                    ray.init(address=settings.address, logging_level="ERROR", log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise InvalidArgumentError(
                f"invalid value for ray address: {settings.address!r} (no Ray cluster could be joined: {e})"
            ) from None
    return ray


#: Seconds to wait for a cluster's head to answer before giving up on its address.
PROBE_SECONDS = 10.0
#: Tries to reach a cluster's control service (tens of seconds each) before giving up.
JOIN_TRIES = 1
#: An HTTP/2 client's connection preface and an empty SETTINGS frame; the type of that frame.
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
HTTP2_SETTINGS = 4


def _probe(address: Optional[str]) -> None:
    """Refuses a ``host:port`` (or ``ray://host:port``) address no server answers at, before
    Ray's own connection loop (which retries for minutes) starts."""
    if address is None or address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise InvalidArgumentError(
            f"invalid value for ray address: {address!r} ('auto', host:port, ray://host:port, or none to start "
            "a local Ray)"
        )
    try:
        conn = socket.create_connection((host, int(port)), timeout=PROBE_SECONDS)
    except OSError as e:
        raise InvalidArgumentError(
            f"invalid value for ray address: {address!r} (nothing answers there: {e.strerror or e}; start the "
            "cluster with 'ray start --head', or use 'auto' on one of its nodes)"
        ) from None
    # Ray's services speak gRPC, i.e. HTTP/2, whose server answers a client's preface with its
    # SETTINGS frame at once: anything else is not a Ray cluster (and Ray would retry for minutes).
    try:
        with conn:
            conn.sendall(HTTP2_PREFACE)
            reply = conn.recv(9)
    except OSError:
        reply = b""
    if len(reply) < 4 or reply[3] != HTTP2_SETTINGS:
        raise InvalidArgumentError(
            f"invalid value for ray address: {address!r} (something answers there, but not a Ray cluster: no "
            "gRPC reply; give the address 'ray start --head' printed)"
        )


def spec_of(agent: Any, parse: Callable[[str], Any]) -> str:
    """The spec string that rebuilds ``agent`` on a worker: its name, which must parse back to
    an agent of that name (a Python callable agent cannot travel to another process)."""
    name = agent.name
    try:
        same = parse(name).name == name
    except CfrkitError:
        same = False
    if not same:
        raise InvalidArgumentError(
            f"invalid value for agent: {name!r} (on Ray agents are given by spec strings such as 'rules' or "
            "'pimc:worlds=64'; a Python callable agent cannot run on a worker)"
        )
    return name


def split(first: int, count: int, settings: Ray, pieces_of: int = 1) -> list:
    """``(first index, count)`` of the pieces of ``count`` indices from ``first`` on:
    ``settings.piece`` indices each, else sized so that the work (``pieces_of`` such ranges,
    e.g. a tournament's pairs) makes about four pieces per worker slot. The last may be
    shorter. The figures do not depend on the pieces."""
    size = settings.piece or max(1, -(-count * pieces_of // (4 * slots(connect(settings), settings))))
    return [(f, min(size, first + count - f)) for f in range(first, first + count, size)]


def slots(ray, settings: Ray) -> int:
    """Pieces in flight at once: ``settings.workers``, else the cluster's CPUs over the threads
    of a piece."""
    if settings.workers:
        return settings.workers
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, cpus // settings.threads)


def run_pieces(
    fn: Callable[..., dict],
    args: Sequence[tuple],
    settings: Ray,
    *,
    units: Sequence[int],
    report: Optional[Callable[[int, int], object]] = None,
    log: Optional[str | os.PathLike] = None,
    ray=None,
) -> list:
    """``fn(*args[i])`` for every piece ``i`` on Ray workers, at most ``slots`` at once;
    returns the results in piece order. ``report(units done, all units)`` hears of finished
    pieces (piece ``i`` is worth ``units[i]``). A result's ``"log"`` bytes (its games as log
    lines) are appended to the file ``log`` in piece order as soon as the pieces before it are
    in. Ctrl-C cancels the pieces under way (``KeyboardInterrupt``); a piece that fails raises
    its error here."""
    ray = ray or connect(settings)
    remote = ray.remote(num_cpus=settings.threads, max_retries=MAX_RETRIES, retry_exceptions=False)(fn)
    in_flight: dict = {}
    results: list = [None] * len(args)
    next_piece, next_log, done, total = 0, 0, 0, sum(units)
    out = open(log, "ab") if log is not None else None
    width = slots(ray, settings)
    try:
        if report:
            report(0, total)
        while next_piece < len(args) or in_flight:
            while next_piece < len(args) and len(in_flight) < width:
                in_flight[remote.remote(*args[next_piece])] = next_piece
                next_piece += 1
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=0.2)
            for ref in ready:
                i = in_flight.pop(ref)
                results[i] = _get(ray, ref, i)
                done += units[i]
                if report:
                    report(done, total)
            while out is not None and next_log < len(args) and results[next_log] is not None:
                out.write(results[next_log].pop("log", b""))
                next_log += 1
    except BaseException:
        for ref in in_flight:
            ray.cancel(ref, force=True)
        raise
    finally:
        if out is not None:
            out.flush()
            os.fsync(out.fileno())
            out.close()
    return results


def play_match(
    piece: Callable[..., dict],
    specs: tuple,
    settings: dict,
    first: int,
    count: int,
    ray: Ray,
    *,
    per: int,
    report=None,
    log=None,
    log_names=None,
) -> list:
    """The pieces' results of deals ``first .. first + count`` of a match of the agents
    ``specs = (a, b)`` (``per`` games per deal): ``piece(a, b, settings, first, n, log_names,
    pair, index, per_pair)`` plays a piece on a worker (:func:`with_log_piece` for its log)."""
    args = [(*specs, settings, f, k, log_names, None, 0, 0) for f, k in split(first, count, ray)]
    return run_pieces(piece, args, ray, units=[per * x[4] for x in args], report=report, log=log)


def play_tournament(
    piece: Callable[..., dict],
    specs: Sequence[str],
    settings: dict,
    deals: int,
    ray: Ray,
    *,
    per: int,
    report=None,
    log=None,
    log_names=None,
) -> list:
    """``(i, j, results)`` of every pair ``i < j`` of the agents ``specs``, each pair's ``deals``
    deals played in pieces as in :func:`play_match`, all pairs at once (the log's pairs in
    order)."""
    n = len(specs)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    pieces = split(0, deals, ray, pieces_of=len(pairs))
    args = [
        (specs[i], specs[j], settings, f, k, log_names, (n, i, j, deals), index, deals)
        for index, (i, j) in enumerate(pairs)
        for f, k in pieces
    ]
    results = run_pieces(piece, args, ray, units=[per * x[4] for x in args], report=report, log=log)
    m = len(pieces)
    return [(i, j, results[p * m : (p + 1) * m]) for p, (i, j) in enumerate(pairs)]


def joined(results: list) -> tuple:
    """The per-deal means (in deal order) and the games of a match's pieces."""
    return [x for r in results for x in r["per_deal"]], sum(r["games"] for r in results)


#: MCCFR iterations each worker runs per round when none is given.
PER_WORKER = 1024


def train(
    solver,
    iterations: int,
    backend: BackendLike = "ray",
    *,
    per_worker: Optional[int] = None,
    checkpoint: str | os.PathLike | None = None,
    checkpoint_every: float = 60.0,
    progress: bool = False,
    own_updates: bool = True,
) -> int:
    """Runs ``iterations`` more MCCFR iterations of ``solver`` (``es-mccfr`` or ``os-mccfr``
    over a game that ``cfrkit.load_game(solver.game.spec)`` rebuilds) on Ray, in synchronous
    rounds: every round each of the ``W`` workers runs ``per_worker`` iterations (default: the
    backend's ``piece``, else :data:`PER_WORKER`) with its own iteration indices (so its own
    samples), starting from the regrets as the round began, and sends back its updates to the
    regrets and to the cumulative policy; the driver adds them in worker order. With
    ``own_updates`` (the default) a worker sees its own updates as it goes (it runs the
    sequential algorithm from the round's snapshot); without, it plays against the snapshot
    alone, which is the solver's own multi-thread semantics: with ``own_updates=False`` and
    ``per_worker=64`` the result equals a local run with ``threads=W`` number for number. A
    piece whose worker dies is run again (it is a pure function of the round's regrets and its
    iterations).

    With ``checkpoint`` the solver's state is saved there (atomically, checksummed) every
    ``checkpoint_every`` seconds at a round's end, at the end and on Ctrl-C; a run resumed from
    a checkpoint taken at a round's end (``solver.load``) continues exactly. Returns the
    iterations run."""
    settings = backend_of(backend) or Ray()
    if per_worker is None:
        per_worker = settings.piece or PER_WORKER
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 0:
        raise InvalidArgumentError(f"invalid value for iterations: {iterations!r} (an integer >= 0)")
    if not isinstance(per_worker, int) or isinstance(per_worker, bool) or not 1 <= per_worker <= 1 << 30:
        raise InvalidArgumentError(f"invalid value for per_worker: {per_worker!r} (an integer from 1 to 2**30)")
    if solver.engine != "sampled":
        raise InvalidArgumentError(
            f"invalid value for algorithm: {solver.algorithm!r} (training on Ray runs es-mccfr or os-mccfr)"
        )
    spec = _rebuildable_spec(solver.game)
    ray = connect(settings)
    width = slots(ray, settings)
    remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_mccfr_piece)
    native, key = solver._native, (spec, solver.algorithm, solver.epsilon, solver.seed)
    start, target, size = solver.iteration, solver.iteration + iterations, per_worker * width
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=iterations, unit="it", desc=f"{solver.algorithm} {spec} on {width} Ray workers")
    last_save = time.monotonic()
    try:
        while solver.iteration < target:
            begin = solver.iteration
            end = min((begin // size + 1) * size, target)
            snapshot = ray.put(native.regrets)
            bounds = [begin + (end - begin) * j // width for j in range(width + 1)]
            refs = [remote.remote(key, snapshot, bounds[j], bounds[j + 1], own_updates) for j in range(width)]
            pieces = gather(ray, refs)
            native.merge_pieces(pieces, end)
            if bar is not None:
                bar.update(end - begin)
            if checkpoint is not None and time.monotonic() - last_save >= checkpoint_every:
                solver.save(checkpoint)
                last_save = time.monotonic()
    finally:
        if bar is not None:
            bar.close()
        if checkpoint is not None:
            solver.save(checkpoint)
    return solver.iteration - start


def _rebuildable_spec(game) -> str:
    """The spec from which a worker rebuilds ``game``."""
    from ._cfrkit import load_game

    spec = getattr(game, "spec", None)
    try:
        same = isinstance(spec, str) and load_game(spec).num_infosets == game.num_infosets
    except CfrkitError:
        same = False
    if not same:
        raise InvalidArgumentError(
            f"invalid value for game: {spec!r} (training on Ray needs a game that cfrkit.load_game rebuilds on the "
            "workers from its spec, such as 'leduc')"
        )
    return spec


#: The solvers of a worker process, by (spec, algorithm, epsilon, seed): a game is compiled once.
_WORKER_SOLVERS: dict = {}


def _mccfr_piece(key: tuple, regrets, begin: int, end: int, own_updates: bool):
    """MCCFR iterations ``begin .. end`` against ``regrets`` on a worker: the updates."""
    from ._cfrkit import load_game
    from .solver import Solver

    solver = _WORKER_SOLVERS.get(key)
    if solver is None:
        spec, algorithm, epsilon, seed = key
        solver = Solver(load_game(spec), algorithm=algorithm, threads=1, seed=seed, epsilon=epsilon)
        _WORKER_SOLVERS[key] = solver
    solver._native.set_regrets(regrets)
    return solver._native.round_piece(begin, end, own_updates)


def gather(ray, refs: Sequence) -> list:
    """The results of ``refs`` in order, each error re-raised as in :func:`run_pieces`."""
    return [_get(ray, ref, i) for i, ref in enumerate(refs)]


def _get(ray, ref, i: int):
    """The result of piece ``i``: its error re-raised as itself (a cfrkit error stays one), a
    worker that died more than ``MAX_RETRIES`` times as a :class:`CfrkitError`."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if isinstance(getattr(e, "cause", None), BaseException) else None
        if isinstance(cause, CfrkitError):
            raise cause from None
        raise CfrkitError(f"piece {i} failed on a Ray worker: {cause or e}") from None
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError, ray.exceptions.TaskCancelledError) as e:
        raise CfrkitError(
            f"piece {i}: its Ray worker died {MAX_RETRIES + 1} times ({type(e).__name__}); the run stopped"
        ) from None


def with_log_piece(open_writer: Optional[Callable[[str], Any]], play: Callable[[Any], dict]) -> dict:
    """Runs ``play(writer)`` on a worker: with ``open_writer`` (a native log writer of a piece,
    opened at a path) the piece's games are written to a temporary file and returned as the
    result's ``"log"`` bytes (the game lines, without the header); without, ``play(None)``."""
    if open_writer is None:
        return play(None)
    fd, path = tempfile.mkstemp(prefix="cfrkit-piece-", suffix=".jsonl")
    with os.fdopen(fd, "rb") as f:
        try:
            writer = open_writer(path)
        finally:
            # The writer and `f` keep the file open: with its name gone at once, a worker
            # killed mid-piece leaves no file behind.
            Path(path).unlink(missing_ok=True)
        result = play(writer)
        writer.finish()
        f.seek(0)
        f.readline()  # the header: the driver's log has its own
        result["log"] = f.read()
    return result


__all__ = [
    "MISSING",
    "BackendLike",
    "Ray",
    "RayMissingError",
    "backend_of",
    "connect",
    "require_ray",
    "gather",
    "joined",
    "play_match",
    "play_tournament",
    "run_pieces",
    "spec_of",
    "split",
    "train",
    "with_log_piece",
]

"""Driving a Setback training run — the baseline deal game, or the bootstrap (score-aware)
auction game played out by a trained baseline: chunks with the GIL released, progress, periodic
and Ctrl-C checkpoints (atomic, checksummed), exact resume, one run per directory.

Names (algorithms, stages, file names) and every check of the arguments come from the core
(``cfrkit_core::games::setback::registry``)."""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from .. import _cfrkit, distributed
from .._cfrkit import RunLock, SetbackTrainer
from .._cfrkit import SetbackTrainSpec as TrainSpec
from ..errors import InvalidArgumentError

#: Training algorithms.
ALGORITHMS: tuple[str, ...] = tuple(_cfrkit.SETBACK_ALGORITHMS)
#: Training stages, in the order they are trained.
STAGES: tuple[str, ...] = tuple(_cfrkit.SETBACK_STAGES)
#: The checkpoint's file name in a training directory.
CHECKPOINT_FILE: str = _cfrkit.SETBACK_CHECKPOINT_FILE
#: The strategy's file name in a training directory.
STRATEGY_FILE: str = _cfrkit.SETBACK_STRATEGY_FILE
#: Deals each Ray worker trains per round when the backend names none (``piece``).
RAY_ROUND_DEALS = 2000


@dataclasses.dataclass
class TrainResult:
    """Figures of a training run (``interrupted`` is True when Ctrl-C stopped it)."""

    stage: str
    algo: str
    seed: int
    threads: int
    iterations: int
    iterations_this_run: int
    seconds: float
    deals_per_second: float
    infosets: int
    table_bytes: int
    bytes_per_infoset: float
    root_value: float
    checkpoint: str
    strategy: str | None
    interrupted: bool

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def strategy_path(path: str | os.PathLike) -> Path:
    """The strategy file of a training directory (``DIR/strategy.cfrkit``), or ``path`` itself."""
    return Path(_cfrkit.setback_strategy_path(path))


def train(
    out: str | os.PathLike,
    iterations: int,
    *,
    stage: str = "baseline",
    baseline: str | os.PathLike | None = None,
    algo: str = "cs-cfr",
    seed: int = 0,
    threads: int = 0,
    resume: bool = False,
    checkpoint_seconds: float = 600.0,
    progress: Callable[[dict], None] | None = None,
    progress_seconds: float = 2.0,
    write_strategy: bool = True,
    log: Callable[[str], None] | None = None,
    backend: distributed.BackendLike = "local",
) -> TrainResult:
    """Trains until ``iterations`` deals are done in total: the baseline deal game, or with
    ``stage="bootstrap"`` the score-aware auction game (spec §2.9: a random game score per deal,
    the playout by the argmax of ``baseline`` — a baseline training directory or strategy file —
    and a ±5.5 game-win bonus; cs-cfr only).

    Writes ``out/checkpoint.cfrkit`` every ``checkpoint_seconds``, at the end and on Ctrl-C, and
    ``out/strategy.cfrkit`` at the end and on Ctrl-C (then raises :class:`TrainingInterrupted`
    after saving both). With ``resume=True`` the checkpoint in ``out`` is continued exactly
    (same algorithm and seed; deal ``i`` depends only on the seed and ``i``); it must exist.
    Without it, an existing checkpoint is refused rather than overwritten. While the run lasts
    it holds ``out`` (a lock on ``out/.lock``): a second run on the same directory is refused.
    Temporary files left in ``out`` by killed writes are removed first. ``progress`` is called
    with a dict of figures; ``log`` with one-line news (where a resume starts, files removed).

    ``backend="ray"`` (or a :class:`cfrkit.distributed.Ray`) trains in synchronous rounds on Ray
    workers (see :func:`_rounds_on_ray`); ``threads`` then counts per worker (0 means 1).
    """
    ray = distributed.backend_of(backend, threads)
    spec = TrainSpec(
        iterations, stage=stage, algo=algo, baseline=baseline, seed=seed, threads=threads if ray is None else 1
    )
    if not (isinstance(checkpoint_seconds, (int, float)) and checkpoint_seconds > 0):
        raise InvalidArgumentError(f"invalid value for checkpoint_seconds: {checkpoint_seconds!r} (a positive number)")
    out = Path(out)
    _refuse_foreign_directory(out)
    with RunLock(out):
        return _train_locked(
            spec, out, resume, checkpoint_seconds, progress, progress_seconds, write_strategy, log, ray
        )


def _refuse_foreign_directory(out: Path) -> None:
    """Refuses, before the run takes ``out`` (and writes its lock there), a directory that holds
    files other than a Setback run's: a strategy without its checkpoint, another program's files.
    Such files would be replaced or mixed with the run's; a run's own directory (its checkpoint,
    strategy, lock and temporary files of killed writes) is the core's to check."""
    if not out.is_dir():
        return
    names = [n for n in os.listdir(out) if n != ".lock" and not (n.startswith(".") and ".tmp" in n)]
    if not names or CHECKPOINT_FILE in names:
        return
    shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
    raise InvalidArgumentError(
        f"invalid value for out: {str(out)!r} holds files that are not a Setback run's ({shown}; no "
        f"{CHECKPOINT_FILE}); a new run needs a new or empty directory"
    )


def _train_locked(
    spec: TrainSpec,
    out: Path,
    resume: bool,
    checkpoint_seconds: float,
    progress: Callable[[dict], None] | None,
    progress_seconds: float,
    write_strategy: bool,
    log: Callable[[str], None] | None,
    ray: distributed.Ray | None = None,
) -> TrainResult:
    iterations = spec.iterations
    ckpt = out / CHECKPOINT_FILE
    trainer, resumed_from, removed = spec.start(out, resume)
    # A checkpoint past the target is kept as it is: the run says so and does nothing.
    past = resumed_from is not None and trainer.iterations > iterations
    if log is not None:
        for f in removed:
            log(f"removed {f}, a temporary file of an interrupted write")
        if past:
            log(
                f"resuming {resumed_from}: {trainer.iterations:,} deals done, past the target {iterations:,}: "
                "nothing to do (the checkpoint and strategy are kept)"
            )
        elif resumed_from is not None:
            log(
                f"resuming {resumed_from}: {trainer.iterations:,} deals done, "
                f"continuing to {iterations:,} ({trainer.stage}, {trainer.algo}, seed {trainer.seed})"
            )
    start_iterations = trainer.iterations
    t0 = time.monotonic()
    last_ckpt = t0
    report_iterations, report_time = start_iterations, t0
    rate = 0.0
    interrupted = False

    def figures() -> dict:
        n = trainer.infosets
        b = trainer.table_bytes
        return {
            "iterations": trainer.iterations,
            "target": iterations,
            "deals_per_second": rate,
            "infosets": n,
            "table_bytes": b,
            "bytes_per_infoset": b / n if n else 0.0,
            "rss_bytes": _rss_bytes(),
            "root_value": trainer.root_value,
            "seconds": time.monotonic() - t0,
        }

    def report() -> None:
        nonlocal rate, report_iterations, report_time
        now = time.monotonic()
        if now - report_time >= progress_seconds or trainer.iterations >= iterations:
            rate = (trainer.iterations - report_iterations) / max(now - report_time, 1e-9)
            report_iterations, report_time = trainer.iterations, now
            if progress is not None:
                progress(figures())

    try:
        if ray is not None and not past:
            _rounds_on_ray(trainer, spec, ckpt, iterations, ray, report)
        while trainer.iterations < iterations:
            trainer.run(iterations, 0.25)
            report()
            if time.monotonic() - last_ckpt >= checkpoint_seconds:
                trainer.save_checkpoint(ckpt)
                last_ckpt = time.monotonic()
    except KeyboardInterrupt:
        interrupted = True
    if not past:
        trainer.save_checkpoint(ckpt)
    strategy = None
    if write_strategy:
        # Also after Ctrl-C: the strategy of the deals done, the same as the checkpoint's (kept
        # as it is past the target, unless a killed run left none).
        strategy = out / STRATEGY_FILE
        if not (past and strategy.is_file()):
            trainer.save_strategy(strategy)
    seconds = time.monotonic() - t0
    done = trainer.iterations - start_iterations
    n = trainer.infosets
    result = TrainResult(
        stage=trainer.stage,
        algo=trainer.algo,
        seed=trainer.seed,
        threads=trainer.threads,
        iterations=trainer.iterations,
        iterations_this_run=done,
        seconds=seconds,
        deals_per_second=done / seconds if seconds > 0 else 0.0,
        infosets=n,
        table_bytes=trainer.table_bytes,
        bytes_per_infoset=trainer.table_bytes / n if n else 0.0,
        root_value=trainer.root_value,
        checkpoint=str(ckpt),
        strategy=str(strategy) if strategy else None,
        interrupted=interrupted,
    )
    if interrupted:
        raise TrainingInterrupted(result)
    return result


def _rounds_on_ray(trainer, spec: TrainSpec, ckpt: Path, target: int, ray: distributed.Ray, report) -> None:
    """Trains ``trainer`` to ``target`` deals in synchronous rounds on Ray. A round begins by
    saving the checkpoint (the run so far, atomically) and sending it to the ``W`` workers as
    the round's snapshot; worker ``j`` loads it and trains its own block of the round's deals
    (``piece`` each, default :data:`RAY_ROUND_DEALS`; deal ``i`` is the same deal as in a local
    run) on its copy, every update applied at once as locally, and sends back what changed
    (per infoset touched, its accumulator changes); the driver adds the pieces in worker order.
    Rounds start at multiples of their size, so a run resumed from its checkpoint continues
    exactly as the unbroken one (with one thread per worker). A worker that dies has its piece
    run again."""
    cluster = distributed.connect(ray)
    width = distributed.slots(cluster, ray)
    size = (ray.piece or RAY_ROUND_DEALS) * width
    remote = cluster.remote(num_cpus=ray.threads, max_retries=distributed.MAX_RETRIES, retry_exceptions=False)(
        _train_piece
    )
    baseline = None if spec.baseline is None else os.fspath(spec.baseline)
    while trainer.iterations < target:
        begin = trainer.iterations
        end = min((begin // size + 1) * size, target)
        trainer.save_checkpoint(ckpt)
        snapshot = cluster.put(ckpt.read_bytes())
        bounds = [begin + (end - begin) * j // width for j in range(width + 1)]
        refs = [remote.remote(snapshot, baseline, ray.threads, bounds[j], bounds[j + 1]) for j in range(width)]
        try:
            pieces = distributed.gather(cluster, refs)
        except BaseException:
            for ref in refs:
                cluster.cancel(ref, force=True)
            raise
        trainer.merge_pieces(pieces, end)
        report()


def _train_piece(snapshot: bytes, baseline: str | None, threads: int, begin: int, end: int):
    """Deals ``begin .. end`` on a Ray worker, trained on the round's snapshot (a checkpoint's
    bytes): the keys touched, their accumulator changes and the deals' summed root values."""
    fd, path = tempfile.mkstemp(prefix="cfrkit-snapshot-", suffix=".cfrkit")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(snapshot)
        trainer = SetbackTrainer.load(path, threads=threads, baseline=baseline)
    finally:
        Path(path).unlink(missing_ok=True)
    return trainer.train_piece(begin, end)


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped training; the checkpoint (and the strategy) were saved. ``result`` holds
    the figures."""

    def __init__(self, result: TrainResult):
        strategy = f"; strategy written to {result.strategy}" if result.strategy else ""
        super().__init__(
            f"training interrupted at iteration {result.iterations}; checkpoint saved to {result.checkpoint}{strategy}"
        )
        self.result = result

"""Driving a Setback training run — the baseline deal game, or the bootstrap (score-aware)
auction game played out by a trained baseline: chunks with the GIL released, progress, periodic
and Ctrl-C checkpoints (atomic, checksummed), exact resume."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path

from .._cfrkit import SetbackTrainer as Trainer
from ..errors import InvalidArgumentError

ALGORITHMS = ("cs-cfr", "cs-cfr-2x", "cs-cfr-merged", "es-mccfr")
STAGES = ("baseline", "bootstrap")
CHECKPOINT_FILE = "checkpoint.cfrkit"
STRATEGY_FILE = "strategy.cfrkit"


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
    p = Path(path)
    f = p / STRATEGY_FILE if p.is_dir() else p
    if not f.is_file():
        raise InvalidArgumentError(
            f"invalid value for strategy path: {str(path)!r} (a training directory holding {STRATEGY_FILE}, "
            "or a strategy file)"
        )
    return f


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
) -> TrainResult:
    """Trains until ``iterations`` deals are done in total: the baseline deal game, or with
    ``stage="bootstrap"`` the score-aware auction game (spec §2.9: a random game score per deal,
    the playout by the argmax of ``baseline`` — a baseline training directory or strategy file —
    and a ±5.5 game-win bonus; cs-cfr only).

    Writes ``out/checkpoint.cfrkit`` every ``checkpoint_seconds``, at the end and on Ctrl-C
    (then re-raises ``KeyboardInterrupt`` after saving), and ``out/strategy.cfrkit`` at the end.
    With ``resume=True`` an existing checkpoint in ``out`` is continued exactly (same algorithm
    and seed; deal ``i`` depends only on the seed and ``i``). Without it, an existing checkpoint
    is refused rather than overwritten. ``progress`` is called with a dict of figures.
    """
    if stage not in STAGES:
        raise InvalidArgumentError(f"invalid value for stage: {stage!r} (one of {', '.join(STAGES)})")
    if stage == "bootstrap":
        if baseline is None:
            raise InvalidArgumentError(
                "invalid value for baseline: None (the bootstrap stage needs a trained baseline directory)"
            )
        if algo != "cs-cfr":
            raise InvalidArgumentError(f"invalid value for algo: {algo!r} (the bootstrap stage trains with cs-cfr)")
        baseline = strategy_path(baseline)
    elif baseline is not None:
        raise InvalidArgumentError(
            f"invalid value for baseline: {str(baseline)!r} (only the bootstrap stage plays out with a baseline)"
        )
    if algo not in ALGORITHMS:
        raise InvalidArgumentError(f"invalid value for algo: {algo!r} (one of {', '.join(ALGORITHMS)})")
    if not isinstance(iterations, int) or iterations < 0:
        raise InvalidArgumentError(f"invalid value for iterations: {iterations!r} (a non-negative integer)")
    for name, value, limit in (("seed", seed, 2**64), ("threads", threads, 2**16)):
        if not isinstance(value, int) or not 0 <= value < limit:
            raise InvalidArgumentError(f"invalid value for {name}: {value!r} (an integer from 0 to {limit - 1})")
    if not checkpoint_seconds > 0:
        raise InvalidArgumentError(f"invalid value for checkpoint_seconds: {checkpoint_seconds!r} (a positive number)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / CHECKPOINT_FILE
    if ckpt.exists():
        if not resume:
            raise InvalidArgumentError(
                f"invalid value for out: {str(out)!r} (it already holds {CHECKPOINT_FILE}; "
                "resume it or choose another directory)"
            )
        trainer = Trainer.load(ckpt, threads, baseline)
        if trainer.stage != stage:
            raise InvalidArgumentError(
                f"invalid value for stage: {stage!r} (the checkpoint in {str(out)!r} is of the {trainer.stage} stage)"
            )
        if trainer.algo != algo or trainer.seed != seed:
            raise InvalidArgumentError(
                f"invalid value for algo/seed: {algo!r}/{seed} (the checkpoint in {str(out)!r} was made with "
                f"{trainer.algo!r}/{trainer.seed}; resume with those)"
            )
    else:
        trainer = Trainer(algo, seed, threads, baseline)

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

    try:
        while trainer.iterations < iterations:
            trainer.run(iterations, 0.25)
            now = time.monotonic()
            if now - report_time >= progress_seconds or trainer.iterations >= iterations:
                rate = (trainer.iterations - report_iterations) / max(now - report_time, 1e-9)
                report_iterations, report_time = trainer.iterations, now
                if progress is not None:
                    progress(figures())
            if now - last_ckpt >= checkpoint_seconds:
                trainer.save_checkpoint(ckpt)
                last_ckpt = time.monotonic()
    except KeyboardInterrupt:
        interrupted = True
    trainer.save_checkpoint(ckpt)
    strategy = None
    if write_strategy and not interrupted:
        strategy = out / STRATEGY_FILE
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


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped training; the checkpoint was saved. ``result`` holds the figures."""

    def __init__(self, result: TrainResult):
        super().__init__(
            f"training interrupted at iteration {result.iterations}; checkpoint saved to {result.checkpoint}"
        )
        self.result = result

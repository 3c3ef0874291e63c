"""The solver: runs the native CFR family (full-width and Monte-Carlo) in chunks with progress
and clean Ctrl-C."""

from __future__ import annotations

import time
from typing import Callable, Optional

from . import _cfrkit
from ._cfrkit import Game, Policy
from ._native import checked
from .errors import InvalidArgumentError, InvalidTypeError

#: Most iterations one run may ask for (the iteration counter is an unsigned 64-bit integer).
MAX_ITERATIONS = 2**64 - 1

#: Target wall time of one chunk of iterations run with the GIL released.
CHUNK_SECONDS = 0.1

#: Values of ``Solver(engine=...)``.
ENGINES = ("auto", "lanes")


class Solver:
    """A CFR-family solver over a compiled game (a :class:`cfrkit.Game`, or a game spec such as
    ``"kuhn"`` to load); ``algorithm`` is one of :data:`cfrkit.ALGORITHMS`.

    Full-width: ``cfr`` and ``cfr+`` (exactly OpenSpiel's ``CFRSolver`` and ``CFRPlusSolver``),
    ``lcfr``, ``dcfr`` (parameters ``alpha``, ``beta``, ``gamma``) and ``pcfr+``. They are
    deterministic and give identical results for any thread count; ``seed`` is only recorded.

    Monte-Carlo: ``es-mccfr`` and ``os-mccfr`` (OpenSpiel's ``ExternalSamplingMCCFRSolver`` and
    ``OutcomeSamplingMCCFRSolver``; ``epsilon`` is outcome sampling's exploration, default 0.6).
    Every sample is drawn from ``seed`` (an integer from 0 to 2**64 - 1): the same seed and
    thread count give identical results. With several threads, iterations run in rounds of
    :attr:`round_size` whose updates are merged in a fixed order; :meth:`run` splits its work
    at round boundaries, so a run's result does not depend on how long its chunks took.

    ``threads=0`` uses ``CFRKIT_NUM_THREADS`` or all cores.

    ``engine`` picks how traversals are computed: ``"auto"`` (the default) walks Blackjack++
    trees over per-player ranges (about 20× faster there) and every other game over deal
    lanes; ``"lanes"`` forces the lane walk, whose arithmetic is OpenSpiel's. Both give the
    same iterates up to rounding.
    """

    def __init__(
        self,
        game: Game | str,
        algorithm: str = "cfr+",
        threads: int = 0,
        seed: int = 0,
        alternating: bool = True,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        engine: str = "auto",
        epsilon: Optional[float] = None,
    ) -> None:
        if isinstance(game, str):
            game = checked(_cfrkit.load_game)(game)
        if not isinstance(game, Game):
            raise InvalidTypeError(
                f"invalid value for game: {game!r} (a cfrkit.Game, e.g. cfrkit.load_game('kuhn'))"
            )
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
            raise InvalidArgumentError(f"invalid value for threads: {threads!r} (an integer >= 0; 0 = all cores)")
        if engine not in ENGINES:
            raise InvalidArgumentError(f"invalid value for engine: {engine!r} (one of {', '.join(ENGINES)})")
        self.game = game
        self._native = checked(_cfrkit.Solver)(
            game, algorithm, threads, alternating, alpha, beta, gamma, seed=seed, epsilon=epsilon
        )
        if engine == "lanes":
            self._native.use_lanes()

    @property
    def algorithm(self) -> str:
        """Canonical algorithm name."""
        return self._native.algorithm

    @property
    def engine(self) -> str:
        """The traversal engine in use: ``"ranges"`` (Blackjack++), ``"lanes"`` or ``"sampled"``
        (MCCFR)."""
        return self._native.engine

    @property
    def seed(self) -> int:
        """The seed (MCCFR draws every sample from it; full-width solvers only record it)."""
        return self._native.seed

    @property
    def epsilon(self) -> Optional[float]:
        """Outcome sampling's exploration (``None`` for other algorithms)."""
        return self._native.epsilon

    @property
    def round_size(self) -> int:
        """Iterations that run as one unit (1 except for MCCFR on several threads); runs split
        at multiples of it give the results of the unsplit run."""
        return self._native.round_size

    @property
    def iteration(self) -> int:
        """Iterations done so far."""
        return self._native.iteration

    @property
    def threads(self) -> int:
        """Threads in use."""
        return self._native.threads

    def run(
        self,
        iterations: int,
        progress: bool = False,
        callback: Optional[Callable[[Solver], Optional[bool]]] = None,
        until_exploitability: Optional[float] = None,
    ) -> int:
        """Runs ``iterations`` iterations; returns how many ran.

        Work runs natively with the GIL released, in chunks of about 0.1 s; between chunks
        Ctrl-C is honoured (the solver stays consistent: only whole iterations count, and the
        ``KeyboardInterrupt`` propagates), ``progress`` updates a progress bar, and ``callback``
        is called with the solver (returning ``True`` stops the run early).
        ``until_exploitability`` stops as soon as the average policy's exploitability is at most
        that value (checked after every chunk; chunks are then kept short).
        """
        if not isinstance(iterations, int) or isinstance(iterations, bool) or not 0 <= iterations <= MAX_ITERATIONS:
            raise InvalidArgumentError(
                f"invalid value for iterations: {iterations!r} (an integer from 0 to {MAX_ITERATIONS})"
            )
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=iterations, unit="it", desc=f"{self.algorithm} {self.game.spec}")
        done, chunk = 0, 1
        step = self._native.round_size
        try:
            while done < iterations:
                n = min(chunk, iterations - done)
                if step > 1 and n < iterations - done:
                    # End the chunk on a round boundary (at least one round ahead).
                    end = self.iteration + n
                    end = max(end - end % step, self.iteration - self.iteration % step + step)
                    n = min(end - self.iteration, iterations - done)
                start = time.perf_counter()
                done += self._native.run(n)
                elapsed = time.perf_counter() - start
                if bar is not None:
                    bar.update(n)
                # Grow or shrink the chunk so that each takes about CHUNK_SECONDS.
                rate = n / max(elapsed, 1e-9)
                chunk = max(1, min(int(rate * CHUNK_SECONDS), 4 * n))
                if until_exploitability is not None:
                    chunk = min(chunk, 10)
                    if self.exploitability() <= until_exploitability:
                        break
                if callback is not None and callback(self):
                    break
        finally:
            if bar is not None:
                bar.close()
        return done

    def run_until(self, exploitability: float, max_iterations: int = 1_000_000) -> int:
        """Runs until the average policy's exploitability is at most ``exploitability``;
        returns the iterations done in all."""
        self.run(max(0, max_iterations - self.iteration), until_exploitability=exploitability)
        return self.iteration

    def save(self, path) -> None:
        """Writes a checkpoint of the solver's complete state (atomic, checksummed)."""
        self._native.save(path)

    def load(self, path) -> None:
        """Restores a checkpoint written by :meth:`save` for the same game, keys and algorithm
        (and for MCCFR the same seed and epsilon); the run then continues exactly as if it had
        never stopped (for MCCFR: with the same thread count)."""
        self._native.load(path)

    def average_policy(self, transform: Optional[Callable[[Policy], Policy]] = None) -> Policy:
        """The average policy, which converges to an equilibrium; ``transform`` (e.g.
        ``cfrkit.transforms.threshold(0.001)`` or ``cfrkit.transforms.purify``) post-processes it."""
        policy = self._native.average_policy()
        return transform(policy) if transform is not None else policy

    def current_policy(self) -> Policy:
        """The current (last-iterate) policy."""
        return self._native.current_policy()

    def exploitability(self) -> float:
        """Exploitability of the average policy: NashConv / players (OpenSpiel's convention);
        constant-sum games only."""
        return self._native.exploitability()

    def nash_conv(self) -> float:
        """NashConv of the average policy: the sum of the players' best-response gains."""
        return self._native.nash_conv()

    def values(self) -> list[float]:
        """Expected value of each player under the average policy."""
        return self._native.expected_values()

    def __repr__(self) -> str:
        return (
            f"Solver({self.game.spec!r}, algorithm={self.algorithm!r},"
            f" iteration={self.iteration}, threads={self.threads}, seed={self.seed}, engine={self.engine!r})"
        )

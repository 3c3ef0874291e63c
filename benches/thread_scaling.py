"""Speed-up of the full-width solvers from one thread to all cores, on games big enough to need it.

    python benches/thread_scaling.py [--games "blackjack(up=1-1-1,max_hits=3)" leduc] [--iterations 5] [--rounds 3]

For each game: seconds per CFR+ iteration on 1 thread and on all threads (median of interleaved
rounds), the speed-up, and a check that both runs produced the same average policy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import cfrkit
import numpy as np


def per_iteration(game, threads: int, iterations: int):
    solver = cfrkit.Solver(game, algorithm="cfr+", threads=threads)
    solver.run(1)  # warm up: first touch of the arrays
    start = time.perf_counter()
    solver.run(iterations)
    return (time.perf_counter() - start) / iterations, solver.average_policy().to_numpy()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", nargs="+", default=["blackjack(up=1-1-1,max_hits=3)", "leduc"])
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    print(f"{'game':34} {'1 thread':>12} {f'{cores} threads':>12} {'speed-up':>9}")
    for spec in args.games:
        game = cfrkit.load_game(spec)
        one, many = [], []
        for _ in range(args.rounds):
            t1, p1 = per_iteration(game, 1, args.iterations)
            tn, pn = per_iteration(game, cores, args.iterations)
            assert np.array_equal(p1, pn), "thread counts must give identical policies"
            one.append(t1)
            many.append(tn)
        a, b = statistics.median(one), statistics.median(many)
        print(f"{spec:34} {a * 1000:>9.2f} ms {b * 1000:>9.2f} ms {a / b:>8.2f}x")


if __name__ == "__main__":
    main()

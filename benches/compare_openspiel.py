"""cfrkit vs OpenSpiel's C++ CFRPlusSolver on Leduc, side by side in one run, one thread each.

For each solver: the first iteration at which the average policy's exploitability is at most
the target (checked after every iteration, untimed), then the wall time of that many iterations
from a fresh solver, as the median of interleaved rounds. Prints iterations per second, the time
to the target and the ratio. Usage:

    python benches/compare_openspiel.py [--target 1e-3] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import cfrkit
import pyspiel


def first_below_openspiel(game, target, limit=5000):
    solver = pyspiel.CFRPlusSolver(game)
    for i in range(1, limit + 1):
        solver.evaluate_and_update_policy()
        if pyspiel.exploitability(game, solver.average_policy()) <= target:
            return i
    raise RuntimeError(f"OpenSpiel did not reach {target} in {limit} iterations")


def first_below_cfrkit(game, algo, target, limit=5000):
    solver = cfrkit.Solver(game, algorithm=algo, threads=1)
    while solver.iteration < limit:
        solver.run(1)
        if solver.exploitability() <= target:
            return solver.iteration
    raise RuntimeError(f"cfrkit {algo} did not reach {target} in {limit} iterations")


def time_openspiel(game, iterations):
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return time.perf_counter() - start


def time_cfrkit(game, algo, iterations):
    solver = cfrkit.Solver(game, algorithm=algo, threads=1)
    start = time.perf_counter()
    solver.run(iterations)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=float, default=1e-3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--algos", default="cfr+,dcfr,pcfr+", help="cfrkit algorithms to time")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    os_game = pyspiel.load_game("leduc_poker")
    game = cfrkit.load_game("leduc")
    algos = args.algos.split(",")
    n_os = first_below_openspiel(os_game, args.target)
    n_ck = {a: first_below_cfrkit(game, a, args.target) for a in algos}
    os_times, ck_times = [], {a: [] for a in algos}
    for _ in range(args.rounds):  # interleaved, so that machine noise hits both alike
        os_times.append(time_openspiel(os_game, n_os))
        for a in algos:
            ck_times[a].append(time_cfrkit(game, a, n_ck[a]))
    os_med = statistics.median(os_times)
    result = {
        "game": "leduc",
        "target_exploitability": args.target,
        "rounds": args.rounds,
        "openspiel": {
            "algorithm": "CFRPlusSolver",
            "iterations": n_os,
            "seconds": os_med,
            "iterations_per_second": n_os / os_med,
        },
        "cfrkit": {},
    }
    print(f"Leduc, exploitability <= {args.target:g}, one thread, median of {args.rounds} interleaved rounds")
    print(f"{'solver':24} {'iterations':>10} {'seconds':>10} {'it/s':>12} {'speed-up':>9}")
    print(f"{'OpenSpiel CFRPlusSolver':24} {n_os:>10} {os_med:>10.4f} {n_os / os_med:>12.1f} {'1.0x':>9}")
    for a in algos:
        med = statistics.median(ck_times[a])
        ratio = os_med / med
        result["cfrkit"][a] = {
            "iterations": n_ck[a],
            "seconds": med,
            "iterations_per_second": n_ck[a] / med,
            "speedup_vs_openspiel": ratio,
        }
        print(f"{'cfrkit ' + a:24} {n_ck[a]:>10} {med:>10.4f} {n_ck[a] / med:>12.1f} {ratio:>8.0f}x")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()

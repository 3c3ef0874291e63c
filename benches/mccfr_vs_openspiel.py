"""MCCFR beside OpenSpiel's C++ solvers, in one run.

    python benches/mccfr_vs_openspiel.py [--games kuhn,leduc,liars_dice] [--seeds 5]
        [--checkpoints 10000,100000] [--speed-seconds 1.5] [--json]

For each game (Kuhn and Leduc native, Liar's Dice imported with ``cfrkit.from_openspiel``) and
each algorithm, ``es-mccfr`` beside ``pyspiel.ExternalSamplingMCCFRSolver`` (its default simple
averaging) and ``os-mccfr`` beside ``pyspiel.OutcomeSamplingMCCFRSolver`` (epsilon 0.6):

* iterations per second on one thread, from a fresh solver over the same number of iterations
  (as many as OpenSpiel runs in ``--speed-seconds``; OpenSpiel's ``run_iteration`` is called in a
  loop, cfrkit's whole run is one native call; cfrkit's figure is the median of 3 runs) and the
  ratio;
* cfrkit's iterations per second on all cores over 4 times as many iterations, and the speed-up
  over one thread on the same iterations;
* exploitability after each checkpoint (default 10k and 100k iterations): medians over
  ``--seeds`` seeds for OpenSpiel, cfrkit on one thread and cfrkit on all cores (whose rounds of
  deferred updates are another schedule). OpenSpiel's policies are evaluated by cfrkit, which
  gives OpenSpiel's own numbers (tests/test_mccfr.py) in a fraction of the time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import cfrkit
import pyspiel
from cfrkit.bench import quiet_stderr

OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker", "liars_dice": "liars_dice"}
ALGORITHMS = ("es-mccfr", "os-mccfr")


def load(name: str) -> tuple[cfrkit.Game, object]:
    os_game = pyspiel.load_game(OPENSPIEL_NAMES[name])
    game = cfrkit.from_openspiel(os_game) if name == "liars_dice" else cfrkit.load_game(name)
    return game, os_game


def openspiel_solver(os_game, algo: str, seed: int):
    if algo == "es-mccfr":
        return pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=seed)
    return pyspiel.OutcomeSamplingMCCFRSolver(os_game, epsilon=0.6, seed=seed)


def openspiel_exploitability(game: cfrkit.Game, os_policy) -> float:
    """Exploitability of OpenSpiel's average policy (unvisited information states: uniform, as
    OpenSpiel's default policy), evaluated by cfrkit."""
    table = game.uniform_policy().to_dict()
    with quiet_stderr():
        for key in table:
            try:
                table[key] = dict(os_policy.get_state_policy(key))
            except pyspiel.SpielError:
                pass
    return cfrkit.exploitability(game, cfrkit.Policy(table, game=game.spec))


def speed(game, os_game, algo: str, seconds: float) -> dict:
    os_solver = openspiel_solver(os_game, algo, 0)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            os_solver.run_iteration()
        n += 100
    os_rate = n / (time.perf_counter() - start)

    def rate(threads: int, iterations: int) -> float:
        times = []
        for _ in range(3):
            solver = cfrkit.Solver(game, algorithm=algo, seed=0, threads=threads)
            t = time.perf_counter()
            solver._native.run(iterations)
            times.append(time.perf_counter() - t)
        return iterations / statistics.median(times)

    one = rate(1, n)
    many_threads = cfrkit.Solver(game, algorithm=algo, threads=0).threads
    one_long, many = rate(1, 4 * n), rate(0, 4 * n)
    return {
        "iterations": n,
        "openspiel_per_second": os_rate,
        "cfrkit_per_second": one,
        "ratio": one / os_rate,
        "threads": many_threads,
        "cfrkit_all_threads_per_second": many,
        "thread_speedup": many / one_long,
    }


def exploitability(game, os_game, algo: str, seeds: int, checkpoints: list[int]) -> dict:
    runs = {"openspiel": [], "cfrkit_1_thread": [], "cfrkit_all_threads": []}
    for seed in range(seeds):
        os_solver = openspiel_solver(os_game, algo, seed)
        one = cfrkit.Solver(game, algorithm=algo, seed=seed, threads=1)
        many = cfrkit.Solver(game, algorithm=algo, seed=seed, threads=0)
        row = {key: [] for key in runs}
        for target in checkpoints:
            for _ in range(target - one.iteration):
                os_solver.run_iteration()
            row["openspiel"].append(openspiel_exploitability(game, os_solver.average_policy()))
            for key, solver in (("cfrkit_1_thread", one), ("cfrkit_all_threads", many)):
                solver.run(target - solver.iteration)
                row[key].append(solver.exploitability())
        for key in runs:
            runs[key].append(row[key])
    return {
        key: {str(c): statistics.median(r[i] for r in rows) for i, c in enumerate(checkpoints)}
        for key, rows in runs.items()
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="kuhn,leduc,liars_dice")
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--checkpoints", default="10000,100000")
    p.add_argument("--speed-seconds", type=float, default=1.5)
    p.add_argument("--json", action="store_true", help="print all figures as one JSON line at the end")
    a = p.parse_args()
    checkpoints = [int(c) for c in a.checkpoints.split(",")]
    results = {}
    for name in a.games.split(","):
        game, os_game = load(name)
        for algo in ALGORITHMS:
            s = speed(game, os_game, algo, a.speed_seconds)
            e = exploitability(game, os_game, algo, a.seeds, checkpoints)
            results[f"{name} {algo}"] = {"speed": s, "exploitability": e}
            print(
                f"{name:10} {algo}: 1 thread {s['cfrkit_per_second']:>12,.0f} it/s vs OpenSpiel"
                f" {s['openspiel_per_second']:>9,.0f} it/s = {s['ratio']:5.1f}x;"
                f" {s['threads']} threads {s['cfrkit_all_threads_per_second']:>12,.0f} it/s"
                f" ({s['thread_speedup']:.2f}x)",
                flush=True,
            )
            for c in checkpoints:
                c = str(c)
                print(
                    f"{'':10} exploitability after {int(c):>7,} (median of {a.seeds} seeds):"
                    f" OpenSpiel {e['openspiel'][c]:.5f}, cfrkit {e['cfrkit_1_thread'][c]:.5f}"
                    f" (all threads {e['cfrkit_all_threads'][c]:.5f})",
                    flush=True,
                )
    if a.json:
        print(json.dumps(results, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

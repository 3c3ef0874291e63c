"""Games from Python and OpenSpiel: compile throughput, and solve speed beside the native game.

    python benches/compare_compiled.py [--rounds 5] [--iterations 300]

Prints histories per second through the Python walker, and CFR+ time for Leduc compiled from
OpenSpiel beside the built-in Leduc (medians of interleaved rounds, one thread).
"""

from __future__ import annotations

import argparse
import pathlib
import re
import statistics
import time

import cfrkit


def python_kuhn():
    """Kuhn poker from the README's guide."""
    readme = (pathlib.Path(__file__).parents[1] / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", readme.split("## Your own game, in Python", 1)[1], re.S).group(1)
    namespace = {"__name__": "guide"}
    exec(code, namespace)
    return namespace["Kuhn"]()


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=300)
    args = ap.parse_args()
    import pyspiel

    sources = {
        "python kuhn": lambda: cfrkit.compile(python_kuhn()),
        "openspiel leduc": lambda: cfrkit.from_openspiel(pyspiel.load_game("leduc_poker")),
    }
    print("compile throughput (histories per second through Python):")
    for name, make in sources.items():
        times = []
        for _ in range(args.rounds):
            t, game = timed(make)
            times.append(t)
        med = statistics.median(times)
        print(
            f"  {name:18} {game.num_histories:>7} histories  {med * 1000:8.1f} ms"
            f"  {game.num_histories / med:>10.0f} histories/s"
        )

    imported = cfrkit.from_openspiel(pyspiel.load_game("leduc_poker"))
    native = cfrkit.load_game("leduc")
    runs = {"native leduc": [], "openspiel leduc": []}
    for _ in range(args.rounds):
        for name, game in (("native leduc", native), ("openspiel leduc", imported)):
            solver = cfrkit.Solver(game, algorithm="cfr+", threads=1)
            t, _ = timed(lambda s=solver: s.run(args.iterations))
            runs[name].append(t)
    print(f"CFR+ {args.iterations} iterations, one thread:")
    base = statistics.median(runs["native leduc"])
    for name, times in runs.items():
        med = statistics.median(times)
        print(f"  {name:18} {med * 1000:8.1f} ms  ({med / base:.2f}x native)")


if __name__ == "__main__":
    main()

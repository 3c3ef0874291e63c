"""Schafkopf speed: games per second of matches (``rules`` and ``random``) on one and all threads,
and environment steps per second through Python.

    python benches/schafkopf_speed.py [--deals N] [--steps N] [--json]

Each match plays ``--deals`` deals twice (the seed's protocol). Games per second are given by
wall time and, for one thread, by the process's CPU time too (on a shared machine the wall time
also counts time the process waited for a core). The seed (SchafkopfRL's Python environment)
plays about 4,000 rule-based games per second on one core of this kind of machine
(reference.md); the target is 100 times that.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from cfrkit import schafkopf

SEED_GAMES_PER_SECOND = 4000


def bench_match(a: str, b: str, deals: int, threads: int) -> dict:
    wall, cpu = time.perf_counter(), time.process_time()
    r = schafkopf.match(a, b, deals, seed=1, threads=threads)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "a": a,
        "b": b,
        "threads": r.threads,
        "games": r.games,
        "wall_seconds": wall,
        "games_per_second": r.games / wall,
        "games_per_cpu_second": r.games / cpu if threads == 1 else None,
        "mean_a": r.mean_a,
        "ci95_a": r.ci95_a,
    }


def bench_env(steps: int) -> dict:
    env = schafkopf.Env()
    rng = np.random.default_rng(0)
    obs, _, done = env.reset(seed=0)
    n, games = 0, 0
    wall, cpu = time.perf_counter(), time.process_time()
    while n < steps:
        if done:
            obs, _, done = env.reset()
            games += 1
        legal = obs["legal_actions"]
        obs, _, done = env.step(legal[int(rng.integers(len(legal)))])
        n += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"steps": n, "games": games, "steps_per_second": n / wall, "steps_per_cpu_second": n / cpu}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200_000, help="deals per match (default 200000)")
    p.add_argument("--steps", type=int, default=200_000, help="environment steps (default 200000)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")
    a = p.parse_args()
    cores = os.cpu_count() or 1
    rows = []
    for x, y in (("rules", "rules"), ("rules", "random-coward"), ("random", "random")):
        for threads in (1, 0):
            r = bench_match(x, y, a.deals, threads)
            rows.append(r)
            cpu = f", {r['games_per_cpu_second']:,.0f} per CPU second" if r["games_per_cpu_second"] else ""
            print(
                f"{x} vs {y}, {r['threads']} thread(s): {r['games']:,} games in {r['wall_seconds']:.2f} s = "
                f"{r['games_per_second']:,.0f} games/s{cpu} "
                f"({r['games_per_second'] / SEED_GAMES_PER_SECOND:,.0f}x the seed's 4,000/s)"
            )
    e = bench_env(a.steps)
    print(
        f"Env through Python: {e['steps']:,} steps ({e['games']:,} games) = {e['steps_per_second']:,.0f} steps/s, "
        f"{e['steps_per_cpu_second']:,.0f} per CPU second"
    )
    if a.json:
        print(json.dumps({"cores": cores, "matches": rows, "env": e}))


if __name__ == "__main__":
    main()

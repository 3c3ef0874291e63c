"""Skat match speed: games per second of matches between ``rules`` and ``random`` on one and two
threads, of PIMC (160 worlds; with ``rules`` and with search bidding) against ``rules`` on two
threads, of ``pimc`` against ``pimc:worlds=32`` with and without shared decisions (and
``rules`` against ``random`` shared, their cost for cheap programs), and environment steps per
second through Python.

    python benches/skat_matches.py [--deals N] [--pimc-deals N] [--steps N] [--json]

Each match plays ``--deals`` deals in the six seatings (6 games per deal). Games per second are
given by wall time and, for one thread, by the process's CPU time too (on a shared machine the
wall time also counts time the process waited for a core). Install the release build first
(``maturin develop --release``): the debug-ish build is several times slower.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from cfrkit import skat
from cfrkit.cli_args import integer


def bench_match(a: str, b: str, deals: int, threads: int, share: bool = False) -> dict:
    wall, cpu = time.perf_counter(), time.process_time()
    r = skat.match(a, b, deals, seed=1, threads=threads, share_decisions=share)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "a": a,
        "b": b,
        "threads": r.threads,
        "share_decisions": share,
        "games": r.games,
        "wall_seconds": wall,
        "games_per_second": r.games / wall,
        "games_per_cpu_second": r.games / cpu if threads == 1 else None,
        "mean_a": r.mean_a,
        "mean_b": r.mean_b,
        "diff": r.diff,
        "ci95_diff": r.ci95_diff,
    }


def bench_env(steps: int) -> dict:
    env = skat.Env()
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
    p.add_argument("--deals", type=integer(1, 10_000_000), default=20_000, help="deals per match (default 20000)")
    p.add_argument(
        "--pimc-deals", type=integer(0, 100_000), default=2, help="deals per PIMC match (default 2; 0: none)"
    )
    p.add_argument("--steps", type=integer(1, 100_000_000), default=50_000, help="environment steps (default 50000)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")
    a = p.parse_args()
    rows = []
    pairs = (("rules", "rules"), ("rules", "random"), ("random", "random"))
    plays = [(x, y, a.deals, t, False) for x, y in pairs for t in (1, 2)] + [("rules", "random", a.deals, 1, True)]
    if a.pimc_deals > 0:
        plays += [(x, "rules", a.pimc_deals, 2, False) for x in ("pimc", "pimc:bidding=search")]
        plays += [("pimc", "pimc:worlds=32", a.pimc_deals, 2, share) for share in (False, True)]
    for x, y, deals, threads, share in plays:
        r = bench_match(x, y, deals, threads, share)
        rows.append(r)
        cpu = f", {r['games_per_cpu_second']:,.0f} per CPU second" if r["games_per_cpu_second"] else ""
        speed = f"{r['games_per_second']:,.{0 if r['games_per_second'] > 100 else 2}f} games/s{cpu}"
        shared = ", shared decisions" if share else ""
        print(
            f"{x} vs {y}, {r['threads']} thread(s){shared}: {r['games']:,} games in {r['wall_seconds']:.2f} s = "
            f"{speed}; diff {r['diff']:+.2f} ± {r['ci95']:.2f} TP/G"
        )
    if a.pimc_deals > 0:
        alone, shared = rows[-2:]
        print(f"pimc vs pimc:worlds=32, shared decisions: {alone['wall_seconds'] / shared['wall_seconds']:.2f}x faster")
    e = bench_env(a.steps)
    print(
        f"Env through Python: {e['steps']:,} steps ({e['games']:,} games) = {e['steps_per_second']:,.0f} steps/s, "
        f"{e['steps_per_cpu_second']:,.0f} per CPU second"
    )
    if a.json:
        print(json.dumps({"cores": os.cpu_count(), "matches": rows, "env": e}))


if __name__ == "__main__":
    main()

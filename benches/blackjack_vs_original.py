"""Blackjack++ figures beside the original C++ solver's (from the spec, measured by its authors'
setup on a 2-core x86-64 machine): `python benches/blackjack_vs_original.py [--quick]`.

Every measurement runs in a fresh Python process so that its peak memory is its own; "peak"
is the process's peak resident memory, and "+tree" subtracts the interpreter with cfrkit loaded.
Per-iteration times are for alternating CFR+ with the down cards enumerated exactly (the
original samples one deal per iteration, with updates that do not converge): the median over
the run of the per-iteration times, after one warm-up iteration, with the first iterations
(no pruning yet: the slowest) shown separately. The solver walks Blackjack++ trees over
per-player ranges; the generic lane walk (`engine="lanes"`) is shown for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import cfrkit
from cfrkit import blackjack
up, max_hits, iterations, threads, engine = json.loads(sys.argv[1])
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = rss()
t = time.perf_counter()
game = blackjack.game(up, max_hits)
build = time.perf_counter() - t
after_build = rss()
out = {"build_s": build, "nodes": blackjack.original_node_count(game), "peak_build": after_build,
       "tree_bytes": after_build - base}
if iterations:
    solver = cfrkit.Solver(game, "cfr+", threads=threads, engine=engine)
    solver.run(1)
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        solver.run(1)
        times.append(time.perf_counter() - t)
    out["per_iter_s"] = sorted(times)[len(times) // 2]
    out["first_s"] = sorted(times[:5])[2] if len(times) >= 5 else out["per_iter_s"]
    out["threads"] = solver.threads
    out["engine"] = solver.engine
    out["peak_solve"] = rss()
print(json.dumps(out))
"""


def measure(up, max_hits, iterations=0, threads=0, engine="auto"):
    env = dict(os.environ)
    r = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([up, max_hits, iterations, threads, engine])],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def mb(b):
    return f"{b / 2**20:.0f} MB"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer iterations")
    args = ap.parse_args(argv)
    n3 = 10 if args.quick else 100
    rows = []
    b2 = measure((1, 1, 1), 2)
    rows.append(
        (
            "build (1,1) max_hits 2",
            f"{b2['nodes']:,} nodes: {b2['build_s'] * 1e3:.1f} ms, "
            f"peak {mb(b2['peak_build'])} (+tree {mb(b2['tree_bytes'])})",
            "1.5 s, 240 MB (unoptimised)",
        )
    )
    b3 = measure((1, 1, 1), 3)
    rows.append(
        (
            "build (1,1) max_hits 3",
            f"{b3['nodes']:,} nodes: {b3['build_s']:.3f} s, peak {mb(b3['peak_build'])} (+tree {mb(b3['tree_bytes'])})",
            "not runnable (> 15 GB)",
        )
    )
    b10 = measure((10, 10, 10), 3)
    rows.append(
        (
            "build (10,10) max_hits 3",
            f"{b10['nodes']:,} nodes: {b10['build_s']:.3f} s, peak {mb(b10['peak_build'])}",
            "45 s (-O0), 44 s (-O2)",
        )
    )
    t1 = measure((6, 6, 2), 1, 1000, 1)
    rows.append(
        ("CFR+ 1k iterations, max_hits 1, 1 thread", f"{t1['per_iter_s'] * 1000:.3f} s", "0.55 s (-O0, sampled deals)")
    )
    t2 = measure((6, 6, 2), 2, 200, 1)
    rows.append(
        (
            "CFR+ 1k iterations, max_hits 2, 1 thread",
            f"{t2['per_iter_s'] * 1000:.2f} s",
            "58 s (-O0), 7.9 s (-O2), sampled deals",
        )
    )
    for threads in (1, 0):
        t = measure((10, 10, 10), 3, n3, threads)
        rows.append(
            (
                f"CFR+ iteration, (10,10) max_hits 3, {t['threads']} thread(s)",
                f"{t['per_iter_s'] * 1e3:.2f} ms (first 5: {t['first_s'] * 1e3:.2f} ms), peak {mb(t['peak_solve'])}",
                "about 1.44 s, 5.9 GB peak",
            )
        )
    for threads, engine in ((1, "auto"), (0, "auto"), (0, "lanes")):
        t = measure((1, 1, 1), 3, n3 if engine == "auto" else 5, threads, engine)
        rows.append(
            (
                f"CFR+ iteration, (1,1) max_hits 3, {t['threads']} thread(s), {t['engine']}",
                f"{t['per_iter_s'] * 1e3:.1f} ms (first 5: {t['first_s'] * 1e3:.1f} ms), peak {mb(t['peak_solve'])}",
                "not runnable; target < 20 ms on 2 cores",
            )
        )
    w = max(len(r[0]) for r in rows)
    w2 = max(len(r[1]) for r in rows)
    print(f"| {'work'.ljust(w)} | {'cfrkit'.ljust(w2)} | original |")
    print(f"|{'-' * (w + 2)}|{'-' * (w2 + 2)}|---|")
    for a, b, c in rows:
        print(f"| {a.ljust(w)} | {b.ljust(w2)} | {c} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

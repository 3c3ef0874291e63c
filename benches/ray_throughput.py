"""Throughput of cfrkit on Ray against local runs in the same process, on a local Ray.

* matches: games per second of a Skat match (``rules`` vs ``rules``: cheap games, where the
  per-piece overhead shows) and of a Schafkopf match (``pimc:worlds=10`` vs ``rules``: games of
  milliseconds, the work clusters are for), locally on 1 thread and on Ray with 1 and with
  ``--workers`` workers of 1 thread each; the Ray results are checked equal to the local ones;
* training: ``es-mccfr`` on Leduc, iterations per second locally (1 thread) and on Ray, and the
  overhead of a synchronous round (snapshot out, updates back, merged) from runs with small and
  large rounds;
* memory: the resident set of each Ray worker process after the runs.

Each figure is the median of ``--rounds`` runs. Prints a table, and with ``--json`` one JSON
line.

    python benches/ray_throughput.py --rounds 3 --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time

import cfrkit
import psutil
import ray
from cfrkit import distributed, schafkopf, skat
from cfrkit.distributed import Ray


def _median_time(f, rounds: int) -> tuple:
    times, result = [], None
    for _ in range(rounds):
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def _figures(r) -> dict:
    d = dataclasses.asdict(r)
    d.pop("seconds")
    d.pop("threads")
    return d


def matches(rounds: int, workers: int) -> list:
    rows = []
    jobs = [
        (
            "skat rules vs rules",
            lambda backend, t: skat.match("rules", "rules", 4000, seed=1, threads=t, backend=backend),
        ),
        (
            "schafkopf pimc:worlds=10 vs rules",
            lambda backend, t: schafkopf.match("pimc:worlds=10", "rules", 30, seed=1, threads=t, backend=backend),
        ),
    ]
    for name, play in jobs:
        local_s, local = _median_time(lambda play=play: play("local", 1), rounds)
        row = {"job": name, "games": local.games, "local_1_thread": local.games / local_s}
        for w in sorted({1, workers}):
            s, r = _median_time(lambda w=w, play=play: play(Ray(workers=w), 1), rounds)
            assert _figures(r) == _figures(local), f"{name}: Ray differs from local"
            row[f"ray_{w}_workers"] = r.games / s
        rows.append(row)
    return rows


def training(rounds: int, workers: int) -> dict:
    game = cfrkit.load_game("leduc")
    n = 200_000

    def local():
        s = cfrkit.Solver(game, "es-mccfr", threads=1, seed=0)
        s.run(n)
        return s

    def on_ray(per_worker: int):
        s = cfrkit.Solver(game, "es-mccfr", threads=1, seed=0)
        distributed.train(s, n, Ray(workers=workers), per_worker=per_worker)
        return s

    local_s, ls = _median_time(local, rounds)
    big_s, bs = _median_time(lambda: on_ray(n // workers), rounds)  # one round
    small_per = 2_000
    small_s, _ = _median_time(lambda: on_ray(small_per), rounds)
    extra_rounds = n // (small_per * workers) - 1
    return {
        "iterations": n,
        "local_1_thread_it_per_s": n / local_s,
        f"ray_{workers}_workers_one_round_it_per_s": n / big_s,
        f"ray_{workers}_workers_rounds_of_{small_per}_it_per_s": n / small_s,
        "overhead_per_round_ms": 1000 * (small_s - big_s) / max(1, extra_rounds),
        "exploitability_local": ls.exploitability(),
        "exploitability_ray_one_round": bs.exploitability(),
    }


def worker_memory() -> list:
    mib = []
    for p in psutil.process_iter(["cmdline", "memory_info"]):
        cmd = " ".join(p.info["cmdline"] or [])
        if cmd.startswith("ray::") and p.info["memory_info"] is not None:
            mib.append(round(p.info["memory_info"].rss / 2**20, 1))
    return sorted(mib)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    ray.init(num_cpus=a.workers, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    record = {"matches": matches(a.rounds, a.workers), "training": training(a.rounds, a.workers)}
    record["worker_rss_mib"] = worker_memory()
    ray.shutdown()
    for row in record["matches"]:
        print(", ".join(f"{k} {v:,.0f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()))
    print(", ".join(f"{k} {v:,.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in record["training"].items()))
    print(f"Ray worker processes, resident MiB: {record['worker_rss_mib']}")
    if a.json:
        print(json.dumps(record, sort_keys=True))


if __name__ == "__main__":
    main()

"""Setback strategy database: export time and the database player's speed.

    python benches/bench_setback_db.py --baseline runs/base --bootstrap runs/boot [--rounds 3] [--pairs 2000]

Exports the database `--rounds` times (median and spread of the export time, rows, file size),
then plays the database player and the table player of the same strategies against `rules`
(games per second on 1 and on all threads; both must give the same results).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from cfrkit.setback import agents, export_db
from cfrkit.setback.matches import play_match


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True)
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--pairs", type=int, default=2000)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "setback.db"
        times = []
        for _ in range(a.rounds):
            r = export_db(a.baseline, a.bootstrap, out)
            times.append(r.seconds)
        print(
            f"export: {r.baseline_rows:,} + {r.bootstrap_rows:,} rows, {r.bytes / 2**20:.1f} MiB; "
            f"median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}) over {a.rounds}"
        )
        t0 = time.perf_counter()
        table = agents.agent(f"table:{a.baseline}+{a.bootstrap}")
        print(f"table player loaded in {time.perf_counter() - t0:.1f} s")
        db = agents.agent(f"db:{out}")
        cores = os.cpu_count() or 1
        print(f"{'player':<8} {'threads':>7} {'games':>8} {'seconds':>8} {'games/s':>10}  A win rate")
        for label, player in (("db", db), ("table", table)):
            for threads in (1, cores):
                m = play_match(player, "rules", a.pairs, seed=0, threads=threads)
                print(
                    f"{label:<8} {threads:>7} {m.games:>8,} {m.seconds:>8.2f} {m.games_per_second:>10,.0f}  "
                    f"{m.win_rate:.4f}"
                )


if __name__ == "__main__":
    main()

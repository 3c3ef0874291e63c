"""Setback training speed and memory beside the original (F#, Cfrm): `python benches/setback_vs_original.py`.

The original (specs/setback.md §3.4) runs 4–5 deals/s on one thread after warm-up (1.6 deals/s
in the first 100k batch) and needs at least 16 GB of RAM for ~35 M infosets.

Deals per second are measured at steady state (wall clock, and per CPU-second, which is the
per-core speed when the machine is shared): on a table warmed by `--warm` deals (or loaded
from `--checkpoint DIR/checkpoint.cfrkit`, e.g. one past 100k deals), the same table is loaded
once per thread count and trained for `--seconds` more, so 1 thread and all threads start from
the same point. Per core = deals/s ÷ threads. Memory is the table's bytes per infoset; the
1M-iteration time is 1,000,000 ÷ (deals/s on all threads) from the steady-state rate.

    python benches/setback_vs_original.py --checkpoint runs/cs/checkpoint.cfrkit --seconds 120 --json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from cfrkit import setback

ORIGINAL_DEALS_PER_SECOND = (4.0, 5.0)
ORIGINAL_RAM_BYTES = 16 * 2**30
ORIGINAL_INFOSETS_AT_64M = 34_576_468


def steady_rate(checkpoint: Path, threads: int, seconds: float) -> dict:
    t = setback.Trainer.load(checkpoint, threads)
    start = t.iterations
    t0 = time.monotonic()
    cpu0 = time.process_time()
    while time.monotonic() - t0 < seconds:
        t.run(start + 10**9, min(1.0, seconds))
    wall = time.monotonic() - t0
    cpu = time.process_time() - cpu0
    done = t.iterations - start
    return {
        "threads": t.threads,
        "from_iteration": start,
        "deals": done,
        "seconds": wall,
        "cpu_seconds": cpu,
        "deals_per_second": done / wall,
        "deals_per_second_per_core": done / wall / t.threads,
        "deals_per_cpu_second": done / cpu if cpu > 0 else 0.0,
        "cpu_share": cpu / (wall * t.threads),
        "infosets": t.infosets,
        "bytes_per_infoset": t.table_bytes / max(t.infosets, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", type=Path, help="start from this checkpoint (default: warm a fresh table)")
    ap.add_argument("--warm", type=int, default=3000, help="deals to warm a fresh table (default 3000)")
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds per measurement (default 60)")
    ap.add_argument("--algo", default="cs-cfr", choices=setback.ALGORITHMS)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        ckpt = a.checkpoint
        warm = None
        if ckpt is None:
            r = setback.train(tmp, a.warm, algo=a.algo, threads=0, write_strategy=False)
            ckpt = Path(r.checkpoint)
            warm = {"deals": r.iterations, "seconds": r.seconds, "infosets": r.infosets}
        one = steady_rate(ckpt, 1, a.seconds)
        every = steady_rate(ckpt, 0, a.seconds)
    original_per_core = sum(ORIGINAL_DEALS_PER_SECOND) / 2
    res = {
        "algo": a.algo,
        "warm_up": warm,
        "one_thread": one,
        "all_threads": every,
        "scaling": every["deals_per_second"] / one["deals_per_second"] if one["deals_per_second"] else 0.0,
        "speedup_per_core_vs_original": one["deals_per_second"] / original_per_core,
        # On a shared machine the wall-clock rates above reflect the CPU share the run got;
        # deals per CPU-second are the per-core speed, and their ratio the threading efficiency.
        "speedup_per_cpu_second_vs_original": one["deals_per_cpu_second"] / original_per_core,
        "threading_efficiency": every["deals_per_cpu_second"] / one["deals_per_cpu_second"]
        if one["deals_per_cpu_second"]
        else 0.0,
        "hours_for_1M_iterations": 1e6 / every["deals_per_second"] / 3600 if every["deals_per_second"] else None,
        "bytes_for_original_64M_infosets": every["bytes_per_infoset"] * ORIGINAL_INFOSETS_AT_64M,
        "cores": os.cpu_count(),
    }
    if a.json:
        print(json.dumps(res, sort_keys=True))
        return
    print(f"Setback {a.algo}, steady state from deal {one['from_iteration']:,} ({one['infosets']:,} infosets)")
    print(f"{'':28}{'cfrkit':>16}{'original':>16}")
    print(f"{'deals/s, 1 thread':28}{one['deals_per_second']:>16.1f}{'4-5':>16}")
    print(f"{'deals/s, ' + str(every['threads']) + ' threads':28}{every['deals_per_second']:>16.1f}{'-':>16}")
    print(f"{'deals per CPU-second':28}{one['deals_per_cpu_second']:>16.1f}{'4-5':>16}")
    print(f"{'bytes per infoset':28}{every['bytes_per_infoset']:>16.1f}{'~460 (16 GB/35 M)':>20}")
    print(f"{'RAM for 34.6 M infosets':28}{res['bytes_for_original_64M_infosets'] / 2**30:>14.1f} G{'>= 16 G':>16}")
    print(f"{'hours for 1M iterations':28}{res['hours_for_1M_iterations']:>16.1f}{'~62 (4.5/s)':>16}")
    print(
        f"CPU share of the runs: {one['cpu_share']:.0%} (1 thread), {every['cpu_share']:.0%} "
        f"({every['threads']} threads); deals per CPU-second vs the original: "
        f"{res['speedup_per_cpu_second_vs_original']:.0f}x; threading efficiency "
        f"{res['threading_efficiency']:.2f}"
    )
    print(
        f"speed-up per core vs the original: {res['speedup_per_core_vs_original']:.0f}x; "
        f"scaling 1 -> {every['threads']} threads: {res['scaling']:.2f}x"
    )


if __name__ == "__main__":
    main()

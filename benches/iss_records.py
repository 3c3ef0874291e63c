"""ISS record throughput: records per second read, replayed and checked, on one and two
threads, from a plain and a bzip2 file — and the time for the whole archive (about nine million
records) extrapolated.

    python benches/iss_records.py [--records N] [--distinct N] [--dir DIR] [--runs R] [--json]

The archive is synthetic and written by cfrkit itself: ``--distinct`` deals of ``rules``
self-play written as records (``cfrkit.skat.records.log_to_iss``), repeated with fresh ids up to
``--records`` lines (default one million), plain and bzip2 (level 9, as the ISS dumps). Each
configuration runs ``--runs`` times (default 3) and the median is reported, with the CPU time of
the process. Install the release build first (``pip install .``).
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import statistics
import tempfile
import time

from cfrkit import skat
from cfrkit.cli_args import integer
from cfrkit.skat.records import iss_stats, log_to_iss

NINE_MILLION = 9_000_000


def make_archive(directory: str, records: int, distinct: int) -> tuple[str, str]:
    log, base = os.path.join(directory, "sp.jsonl"), os.path.join(directory, "base.sgf")
    skat.selfplay("rules", distinct, seed=11, log=log)
    log_to_iss(log, base)
    lines = open(base).read().splitlines()
    plain, packed = os.path.join(directory, "archive.sgf"), os.path.join(directory, "archive.sgf.bz2")
    with open(plain, "w") as out, bz2.open(packed, "wt", compresslevel=9) as zipped:
        for k in range(records):
            line = lines[k % len(lines)].replace("ID[", f"ID[{k}-", 1) + "\n"
            out.write(line)
            zipped.write(line)
    return plain, packed


def bench(path: str, threads: int, runs: int) -> dict:
    walls, cpus, games = [], [], 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        _, counts, rejected = iss_stats(path, threads)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        games = counts["games"]
        assert not rejected and counts["rejected"] == 0
    wall = statistics.median(walls)
    return {
        "file": os.path.basename(path),
        "threads": threads,
        "records": games,
        "wall_seconds": wall,
        "records_per_second": games / wall,
        "cpu_seconds": statistics.median(cpus),
        "nine_million_seconds": NINE_MILLION / (games / wall),
        "runs": runs,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", type=integer(1, 10**9), default=1_000_000)
    p.add_argument("--distinct", type=integer(1, 10**7), default=20_000)
    p.add_argument("--runs", type=integer(1, 100), default=3)
    p.add_argument("--dir", help="where to write the archive (default: a temporary directory)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(dir=a.dir) as d:
        start = time.perf_counter()
        plain, packed = make_archive(d, a.records, a.distinct)
        sizes = {os.path.basename(f): os.path.getsize(f) for f in (plain, packed)}
        print(f"archive: {a.records:,} records ({sizes}) written in {time.perf_counter() - start:.0f} s")
        rows = [bench(f, t, a.runs) for f in (plain, packed) for t in (1, 2)]
    for r in rows:
        print(
            f"{r['file']:<18} {r['threads']} thread(s): {r['records_per_second']:>10,.0f} records/s "
            f"({r['wall_seconds']:.2f} s wall, {r['cpu_seconds']:.2f} s CPU); nine million in "
            f"{r['nine_million_seconds']:.0f} s"
        )
    if a.json:
        print(json.dumps({"sizes": sizes, "rows": rows}, sort_keys=True))


if __name__ == "__main__":
    main()

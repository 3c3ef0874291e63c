"""Skat open-hand solver, PIMC card play and search-based pre-cardplay: medians over several runs
of the native examples ``skat_pimc`` (whole-deal solves by game type; PIMC time per card decision
by trick) and ``skat_precardplay`` (time per bid, Hand-or-pickup, discard and declaration
decision of ``pimc:bidding=search``, 16 worlds).

    python benches/skat_solver.py [--runs 3] [--deals 400] [--games 2] [--worlds 160] [--precardplay-deals 30]

The peer is a published figure, not a program: open-hand solving of a typical Skat deal takes
about 10 ms in published solvers, and Kermit's PIMC about 650 ms a card (160 worlds, one
thread). Each run prints the example's own lines; the last lines give, per row, the median over
the runs of the run's median (and mean). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess

ROW = re.compile(r"^\s*(solve \w+|pimc worlds=\d+ threads=\d+|trick +\d+)\b.*?median ([\d.]+) ms, mean ([\d.]+) ms")
PRECARDPLAY_ROW = re.compile(
    r"^\s*(bid \(searched\)|bid \(prefilter\)|hand or pickup|discard|declare)\s.*?"
    r"median\s+([\d.]+) ms\s+mean\s+([\d.]+) ms"
)


def count(low: int):
    def parse(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= 100_000:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer from {low} to 100000")
        return int(text)

    return parse


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=count(1), default=3)
    p.add_argument("--deals", type=count(1), default=400)
    p.add_argument("--games", type=count(0), default=2)
    p.add_argument("--worlds", type=count(1), default=160)
    p.add_argument("--precardplay-deals", type=count(0), default=30, help="deals for pre-cardplay timing (0: none)")
    a = p.parse_args()
    example = ["cargo", "run", "--release", "-q", "-p", "cfrkit-core", "--example"]
    solver = [*example, "skat_pimc", "--", str(a.deals), str(a.games), "1", str(a.worlds)]
    precardplay = [*example, "skat_precardplay", "--", str(a.precardplay_deals), "16", "1"]
    rows: dict[str, list[tuple[float, float]]] = {}
    for run in range(a.runs):
        out = subprocess.run(solver, check=True, capture_output=True, text=True).stdout
        if a.precardplay_deals:
            out += subprocess.run(precardplay, check=True, capture_output=True, text=True).stdout
        print(f"--- run {run + 1}\n{out}", flush=True)
        section = ""
        for line in out.splitlines():
            if line.startswith(("pimc", "pre-cardplay")):
                section = line.split(":")[0].split(",")[0] + " "
            m = ROW.match(line)
            if m:
                key = m.group(1) if not m.group(1).startswith("trick") else section + m.group(1)
                rows.setdefault(key, []).append((float(m.group(2)), float(m.group(3))))
            m = PRECARDPLAY_ROW.match(line)
            if m:
                rows.setdefault(section + m.group(1), []).append((float(m.group(2)), float(m.group(3))))
    print(f"medians over {a.runs} runs (ms):")
    for key, values in rows.items():
        median = statistics.median(v[0] for v in values)
        mean = statistics.median(v[1] for v in values)
        print(f"  {key:40} median {median:9.3f}  mean {mean:9.3f}")


if __name__ == "__main__":
    main()

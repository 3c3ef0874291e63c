"""Schafkopf PIMC speed: time per decision by kind, and games per second, for cfrkit's
``pimc:worlds=N`` and the seed's ``schafkopfrl-pimc:n=10,m=40``.

    python benches/schafkopf_pimc.py [--deals N] [--worlds 10 40 160] [--threads 1 0] [--json]

Every seat of ``--deals`` deals (seed 0) is played by the agent; each decision with more than
one legal action is timed (declaration, contra/retour, the first trick, later tricks) and the
median, 90th percentile and mean are reported in milliseconds, per kind and over all decisions.
Then a match of the agent against ``rules`` on the same number of deals (one thread for the
match; the agent's own ``threads`` option solves its worlds in parallel) gives games per second.
The issue's target: 40 worlds under 20 ms at the median on this 2-core machine. The open-hand
solver alone has its own probe:
``cargo run --release -p cfrkit-bench --example schafkopf_solver -- 1000``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from cfrkit import schafkopf

KINDS = ("declaration", "contra/retour", "first trick", "later tricks")


def kind(g) -> str:
    if g.phase == "bidding":
        return KINDS[0]
    if g.phase in ("contra", "retour"):
        return KINDS[1]
    return KINDS[2] if g.tricks_done == 0 else KINDS[3]


def time_decisions(spec: str, deals: int) -> dict:
    agent = schafkopf.agent(spec)
    ms: dict[str, list[float]] = {k: [] for k in KINDS}
    for i in range(deals):
        g = schafkopf.Game.random(seed=0, index=i)
        while not g.finished:
            view = g.view(g.player)
            started = time.perf_counter()
            action = agent.act(view, seed=i)
            elapsed = 1e3 * (time.perf_counter() - started)
            if len(view.legal_actions()) > 1:
                ms[kind(g)].append(elapsed)
            g.play(action)
    ms["all decisions"] = [x for k in KINDS for x in ms[k]]
    out = {}
    for k, xs in ms.items():
        if xs:
            xs.sort()
            out[k] = {
                "decisions": len(xs),
                "median_ms": statistics.median(xs),
                "p90_ms": xs[int(0.9 * (len(xs) - 1))],
                "mean_ms": statistics.fmean(xs),
            }
    return out


def games_per_second(spec: str, deals: int) -> float:
    started = time.perf_counter()
    r = schafkopf.match(spec, "rules", games=deals, seed=0, threads=1)
    return r.games / (time.perf_counter() - started)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--worlds", type=int, nargs="+", default=[10, 40, 160])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 0], help="0 = all cores")
    p.add_argument("--no-uct", action="store_true", help="leave out schafkopfrl-pimc")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    specs = [f"pimc:worlds={w},threads={t}" for w in a.worlds for t in a.threads]
    if not a.no_uct:
        specs.append("schafkopfrl-pimc:n=10,m=40")
    rows = []
    for spec in specs:
        kinds = time_decisions(spec, a.deals)
        row = {"agent": spec, "kinds": kinds, "games_per_second": games_per_second(spec, a.deals)}
        rows.append(row)
        print(f"{spec}: {row['games_per_second']:.2f} games/s against rules (match on one thread)")
        for k, s in row["kinds"].items():
            print(
                f"  {k:14} {s['decisions']:5} decisions: median {s['median_ms']:8.2f} ms, "
                f"p90 {s['p90_ms']:8.2f} ms, mean {s['mean_ms']:8.2f} ms"
            )
    if a.json:
        print(json.dumps({"deals": a.deals, "rows": rows}))


if __name__ == "__main__":
    main()

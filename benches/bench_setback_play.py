"""Setback match throughput: `python -m pytest benches/bench_setback_play.py` (pytest-benchmark),
or `python benches/bench_setback_play.py [--pairs N] [--table DIR] [--tournament-pairs M]` for a
table of games per second on 1 and on all threads, and of a tournament with a PIMC agent.

Matches are duplicate pairs of full games to 11 (every deal stops as soon as its score is
decided). The table agent's figure includes no loading time: the agent is built once.
"""

from __future__ import annotations

import argparse
import os
import time

import pytest
from cfrkit.setback import agents
from cfrkit.setback.matches import play_match
from cfrkit.setback.tournament import tournament


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-threads"])
@pytest.mark.parametrize("pair", [("rules", "random"), ("rules", "rules")], ids=["rules-random", "rules-rules"])
def test_match_throughput(benchmark, pair, threads):
    a, b = (agents.agent(x) for x in pair)
    r = benchmark.pedantic(lambda: play_match(a, b, 500, seed=0, threads=threads), rounds=3, iterations=1)
    benchmark.extra_info["games_per_second"] = r.games / benchmark.stats.stats.mean
    assert r.games == 1000


def _table(pairs: int, table: str | None) -> None:
    matchups = [("rules", "random"), ("rules", "rules")]
    if table:
        t0 = time.perf_counter()
        t = agents.agent(f"table:{table}")
        print(f"loaded {table} in {time.perf_counter() - t0:.1f} s")
        matchups += [(t, "rules")]
    cores = os.cpu_count() or 1
    print(f"{'match':<40} {'threads':>7} {'games':>8} {'seconds':>8} {'games/s':>10}")
    for a, b in matchups:
        aa, bb = agents.agent(a), agents.agent(b)
        for threads in (1, cores):
            r = play_match(aa, bb, pairs, seed=0, threads=threads)
            label = f"{aa.name} vs {bb.name}"
            print(f"{label:<40} {threads:>7} {r.games:>8,} {r.seconds:>8.2f} {r.games_per_second:>10,.0f}")


def _tournament(pairs: int) -> None:
    field = ["rules", "random", "pimc:worlds=16,threads=1"]
    cores = os.cpu_count() or 1
    for threads in (1, cores):
        t0 = time.perf_counter()
        t = tournament(field, pairs, seed=0, threads=threads)
        seconds = time.perf_counter() - t0
        games = sum(m.games for m in t.matches.values())
        label = "tournament " + " / ".join(t.agents)
        print(f"{label:<40} {threads:>7} {games:>8,} {seconds:>8.2f} {games / seconds:>10,.1f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", type=int, default=5000)
    p.add_argument("--table", help="a training directory for a table-agent row")
    p.add_argument("--tournament-pairs", type=int, default=20, help="pairs per match of the PIMC tournament row")
    args = p.parse_args()
    _table(args.pairs, args.table)
    _tournament(args.tournament_pairs)

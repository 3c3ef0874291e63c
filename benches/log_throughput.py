"""Game-log generation speed: games per second of Skat, Schafkopf and Setback matches with and without
``log=`` (the same games either way), on one and on all threads, and the log's size per game.

    python benches/log_throughput.py [--deals N] [--pimc-deals N] [--threads T ...] [--json]

Self-play data for learned policies is made by ``cfrkit skat selfplay --agent
pimc:worlds=16,values=none --log games.jsonl`` (one game per deal; the ``self-play`` rows) or by
matches; rule-based rows show the logging overhead itself, the PIMC match rows (few worlds, so
that they finish quickly) what logging PIMC's values costs: a logged PIMC agent computes the
exact mean of every legal action, more search than the choice alone (``values=none`` logs
none). Install the release build first (``pip install .``).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from cfrkit import schafkopf, skat
from cfrkit.logs import read_log
from cfrkit.setback.matches import play_match as setback_match


def run(game: str, a: str, b: str | None, deals: int, threads: int, log: str | None) -> tuple[float, int]:
    """Seconds and games of one match, or of ``a``'s self-play when ``b`` is None."""
    began = time.perf_counter()
    if b is None:
        module = skat if game == "skat" else schafkopf
        r = module.selfplay(a, deals, seed=1, threads=threads, log=log)
    elif game == "skat":
        r = skat.match(a, b, deals, seed=1, threads=threads, log=log)
    elif game == "setback":  # a duplicate pair (two games to 11) for a deal
        r = setback_match(a, b, deals, seed=1, threads=threads, log=log)
    else:
        r = schafkopf.match(a, b, deals, seed=1, threads=threads, log=log)
    return time.perf_counter() - began, r.games


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=5000, help="deals of the rule-based matches (default 5000)")
    p.add_argument("--pimc-deals", type=int, default=4, help="deals of the PIMC matches (default 4)")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 0], help="thread counts (default 1 and 0 = all)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")
    a = p.parse_args()
    cases = [
        ("skat", "rules", "rules", a.deals),
        ("schafkopf", "rules", "rules", a.deals),
        ("skat", "pimc:worlds=16", "pimc:worlds=16", a.pimc_deals),
        ("schafkopf", "pimc:worlds=10", "pimc:worlds=10", a.pimc_deals),
        ("setback", "rules", "rules", a.deals // 10),
        ("setback", "pimc:worlds=16,threads=1,bidding=rules", "pimc:worlds=16,threads=1,bidding=rules", a.pimc_deals),
        ("skat", "pimc:worlds=16,values=none", None, 6 * a.pimc_deals),
        ("schafkopf", "pimc:worlds=10,values=none", None, 2 * a.pimc_deals),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        for game, x, y, deals in cases:
            for threads in a.threads:
                plain, games = run(game, x, y, deals, threads, None)
                logged, _ = run(game, x, y, deals, threads, path)
                size = os.path.getsize(path)
                decisions = sum(len(g["decisions"]) for g in read_log(path).games)
                row = {
                    "game": game,
                    "a": x,
                    "b": y or "self-play",
                    "threads": threads or os.cpu_count(),
                    "games": games,
                    "games_per_second": games / plain,
                    "logged_games_per_second": games / logged,
                    "bytes_per_game": size / games,
                    "decisions_per_game": decisions / games,
                }
                rows.append(row)
                print(
                    f"{game} {x} vs {row['b']}, {row['threads']} thread(s), {games:,} games: "
                    f"{row['games_per_second']:,.1f} games/s, logged {row['logged_games_per_second']:,.1f} "
                    f"({row['logged_games_per_second'] / row['games_per_second']:.2f}x); "
                    f"{row['bytes_per_game']:,.0f} bytes and {row['decisions_per_game']:.1f} decisions per game"
                )
    if a.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()

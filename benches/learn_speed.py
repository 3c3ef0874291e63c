"""Learned policies' speed: training samples per second and ``net:`` moves per second (µs per
decision, against the issue's 100 µs target and the Skat paper's 2.5 ms) for Skat, Schafkopf
and Setback, on one and on all threads.

    python benches/learn_speed.py [--deals N] [--epochs E] [--threads T ...] [--policy GAME=DIR ...] [--json]

Each game's policy is trained here on a ``rules`` self-play log of ``--deals`` deals (Setback:
duplicate pairs, each two games to 11) with ``--hidden 128 128``, unless ``--policy`` names a
trained one (e.g. ``skat=policies/skat``). Move speed is that of a whole ``net:`` against
``net:`` match (features, the network, the rules engine and the match machinery: the cost of a
move in play), its decisions counted from the same match's log; the pure network time per
decision is in ``cargo run --release -p cfrkit-bench --example skat_net_speed -- DIR 200``.
Install the release build first (``pip install .``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile

from cfrkit import learn
from cfrkit.errors import CfrkitError
from cfrkit.logs import read_log
from log_throughput import run  # the sibling bench's match runner (this directory is on sys.path)

GAMES = ("skat", "schafkopf", "setback")
PAPER_MS = 2.5  # the Skat paper's card-play network, per move
TARGET_US = 100.0


def play(game: str, a: str, b: str, deals: int, threads: int, log: str | None) -> float:
    """Seconds of one match of ``deals`` deals (Setback: duplicate pairs)."""
    return run(game, a, b, deals, threads, log)[0]


def train(game: str, tmp: str, deals: int, epochs: int) -> tuple[str, float, float]:
    """A policy trained on a ``rules`` log of ``deals`` deals: its directory, the median over
    decision kinds of the training's own samples per second, and samples seen per second of the
    whole call (reading the log and held-out evaluation included)."""
    log = os.path.join(tmp, f"{game}-rules.jsonl")
    play(game, "rules", "rules", deals, 0, log)
    out = os.path.join(tmp, f"{game}-policy")
    r = learn.imitate(game, log, out, hidden=(128, 128), epochs=epochs, patience=epochs, seed=0)
    median = statistics.median(k["samples_per_second"] for k in r.kinds.values())
    seen = sum(k["train_samples"] * k["epochs"] for k in r.kinds.values())
    return out, median, seen / r.seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=1000, help="deals of each match and training log (default 1000)")
    p.add_argument("--epochs", type=int, default=3, help="training epochs (default 3)")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 0], help="thread counts (default 1 and 0 = all)")
    p.add_argument("--policy", nargs="*", default=[], metavar="GAME=DIR", help="trained policies to time instead")
    p.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")
    a = p.parse_args()
    if a.deals < 1 or a.epochs < 1 or any(t < 0 for t in a.threads):
        p.error("--deals and --epochs must be at least 1, --threads at least 0")
    given = dict(x.split("=", 1) for x in a.policy if "=" in x)
    if len(given) != len(a.policy) or not set(given) <= set(GAMES):
        p.error(f"--policy takes GAME=DIR with GAME one of {', '.join(GAMES)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            rate = overall = None
            if game in given:
                policy = given[game]
            else:
                policy, rate, overall = train(game, tmp, a.deals, a.epochs)
                print(
                    f"{game}: training {rate:,.0f} samples/s (median over decision kinds; {overall:,.0f} for the "
                    f"whole call), hidden 128 128, {a.epochs} epochs"
                )
            net = f"net:{policy}"
            log = os.path.join(tmp, f"{game}-net.jsonl")
            try:
                play(game, net, net, a.deals, 1, log)
            except CfrkitError as e:  # e.g. a Setback policy of too few games that never bids
                print(f"{game} net vs net: not timed ({e}); train on more --deals")
                continue
            decisions = sum(len(g["decisions"]) for g in read_log(log).games)
            for threads in a.threads:
                seconds = play(game, net, net, a.deals, threads, None)
                us = 1e6 * seconds / decisions * (threads or os.cpu_count())
                row = {
                    "game": game,
                    "policy": policy if game in given else "trained here",
                    "threads": threads or os.cpu_count(),
                    "train_samples_per_second": rate,
                    "train_samples_per_second_overall": overall,
                    "decisions": decisions,
                    "moves_per_second": decisions / seconds,
                    "us_per_move_per_thread": us,
                }
                rows.append(row)
                print(
                    f"{game} net vs net, {row['threads']} thread(s), {decisions:,} decisions: "
                    f"{row['moves_per_second']:,.0f} moves/s, {us:.1f} µs per move per thread "
                    f"(target {TARGET_US:.0f} µs: {TARGET_US / us:.1f}x under; the paper's {PAPER_MS} ms: "
                    f"{PAPER_MS * 1000 / us:.0f}x faster)"
                )
    if a.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()

"""cfrkit's Schafkopf against the seed's environment (SchafkopfRL, run from a checkout outside this
repository): the rule-based player against random-coward, cents per game with 95% intervals,
and games per second on one core.

    SCHAFKOPFRL_DIR=/path/to/SchafkopfRL python benches/schafkopf_vs_seed.py [--games N]

The seed is played three ways: one rule-based instance per seat, and as its tournament does
(one instance for both of an agent's seats, sharing the "player side" flag it keeps between
calls); cfrkit's ``rules`` agent keeps no state (one role per seat). Deals differ between the two
programs, so agreement means agreement within the intervals.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path


def seed_match(games: int, shared: bool, seed: int) -> tuple[float, float, float]:
    """Rule-based (seats 0, 1, then 2, 3) against random-coward on the seed's environment: cents per
    seat and game for rule-based with its 95% interval, and games per second."""
    from players.random_coward_player import RandomCowardPlayer
    from players.rule_based_player import RuleBasedPlayer
    from schafkopf_env import SchafkopfEnv

    per_game = []
    started = time.process_time()
    for half in range(2):
        env = SchafkopfEnv(seed=seed + half)
        rb = [RuleBasedPlayer()] * 2 if shared else [RuleBasedPlayer(), RuleBasedPlayer()]
        rc = [RandomCowardPlayer(), RandomCowardPlayer()]
        players = rb + rc if half == 0 else rc + rb
        mine = (0, 1) if half == 0 else (2, 3)
        for _ in range(games):
            state, reward, done = env.reset()
            while not done:
                action, _ = players[state["game_state"].current_player].act(state)
                state, reward, done = env.step(action)
            per_game.append((reward[mine[0]] + reward[mine[1]]) / 2)
    seconds = time.process_time() - started
    n = len(per_game)
    mean = sum(per_game) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_game) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n), n / seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20000, help="seed games per half (default 20000)")
    p.add_argument("--cfrkit-deals", type=int, default=200000, help="cfrkit deals (default 200000)")
    a = p.parse_args()
    seed_dir = Path(os.environ.get("SCHAFKOPFRL_DIR", "/work/seed-schafkopfrl")) / "schafkopfrl"
    if not (seed_dir / "schafkopf_env.py").exists():
        sys.exit(f"no SchafkopfRL checkout at {seed_dir.parent} (set SCHAFKOPFRL_DIR)")
    sys.path.insert(0, str(seed_dir))
    random.seed(0)
    for shared in (False, True):
        m, ci, gps = seed_match(a.games, shared, seed=1)
        label = "seed, one instance per seat" if not shared else "seed, shared instance (its tournament)"
        print(f"{label:42s} rules vs random-coward {m:+7.2f} ± {ci:.2f} cents/game  ({gps:,.0f} games/s, one core)")
    from cfrkit import schafkopf

    started = time.process_time()
    r = schafkopf.match("rules", "random-coward", a.cfrkit_deals, seed=1, threads=1)
    cpu = time.process_time() - started
    print(
        f"{'cfrkit rules':42s} rules vs random-coward {r.mean_a:+7.2f} ± {r.ci95_a:.2f} cents/game  "
        f"({r.games / cpu:,.0f} games/s CPU time, one thread)"
    )


if __name__ == "__main__":
    main()

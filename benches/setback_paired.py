"""Paired comparison of two Setback matches played on the same deals: the difference, game by
game, of agent A's mean deal-point margin and of its wins, with 95% confidence intervals.

    python benches/setback_paired.py FIRST.jsonl SECOND.jsonl

Both logs come from ``cfrkit setback match … --seed S --log FILE`` with the same seed and
pairs, so game ``k`` of each is dealt the same cards; the difference of A's results on the same
deals varies less than either result, so it shows smaller effects than two separate intervals
(docs/learn.md, "PIMC with inference"). A game's margin is the mean over its deals of A's team's
deal points minus the other team's.
"""

from __future__ import annotations

import argparse
import math
import sys

from cfrkit import CfrkitError
from cfrkit.logs import read_log


def fail(why: str) -> None:
    """Ends with one line and exit status 2."""
    print(f"setback_paired: {why}", file=sys.stderr)
    sys.exit(2)


def per_game(path: str) -> dict[tuple[int, int], tuple[float, float]]:
    """A's margin per deal and win (1 or 0) in each game of a Setback log, by (game, deal) index."""
    try:
        log = read_log(path)
    except CfrkitError as e:
        fail(str(e))
    if log.header.get("game") != "setback":
        fail(f"{path} is a {log.header.get('game')} log; a Setback log is needed")
    out = {}
    for g in log.games:
        a_team = next(seat % 2 for seat in range(4) if g["seating"][seat] == 0)
        scores = g["result"]["deal_scores"]
        margin = sum(s[a_team] - s[1 - a_team] for s in scores) / len(scores)
        out[(g["game"], g["deal"])] = (margin, float(g["result"]["winner"] == a_team))
    return out


def paired(first: list[float], second: list[float]) -> tuple[float, float, float]:
    """The mean difference and its 95% interval."""
    d = [x - y for x, y in zip(first, second)]
    n = len(d)
    mean = sum(d) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    args = parser.parse_args()
    a, b = per_game(args.first), per_game(args.second)
    games = sorted(set(a) & set(b))
    if len(games) < 2 or len(games) != len(a) or len(games) != len(b):
        fail(f"the logs share {len(games)} games of {len(a)} and {len(b)}; play both with the same seed and pairs")
    for k, name in [(0, "margin, deal points per deal"), (1, "win rate")]:
        x, y = [a[g][k] for g in games], [b[g][k] for g in games]
        mean, low, high = paired(x, y)
        print(
            f"{name}: {sum(x) / len(x):.4f} vs {sum(y) / len(y):.4f}; "
            f"paired difference {mean:+.4f} (95% CI {low:+.4f} to {high:+.4f}), {len(games)} games"
        )


if __name__ == "__main__":
    main()

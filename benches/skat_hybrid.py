"""The hybrid agent against the PIMC it stands in for: games per second and TP/G of each against
``rules`` on the same deals, in one run, with their speed ratio.

    python benches/skat_hybrid.py --policy DIR [--deals N] [--worlds N] [--from K] [--rounds R] [--json]

``DIR`` is a Skat policy made by ``cfrkit learn imitate``. The hybrid is
``hybrid:net=DIR,from=K,precardplay=pimc,worlds=N`` (the policy before trick K, ``rules`` bidding
as PIMC's); the peer is ``pimc:worlds=N``. One thread each; speeds are medians over the rounds.
Install the release build first (``pip install .``).
"""

from __future__ import annotations

import argparse
import json
import statistics

from cfrkit import skat


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--policy", required=True, help="a Skat policy directory")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--worlds", type=int, default=16)
    p.add_argument("--from", dest="start", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    agents = {
        "pimc": f"pimc:worlds={a.worlds}",
        "hybrid": f"hybrid:net={a.policy},from={a.start},precardplay=pimc,worlds={a.worlds}",
    }
    rows = {}
    for name, spec in agents.items():
        runs = [skat.match(spec, "rules", a.deals, seed=3, threads=1) for _ in range(a.rounds)]
        rows[name] = {
            "agent": spec,
            "games_per_second": statistics.median(r.games / r.seconds for r in runs),
            "diff": runs[0].diff,
            "ci95": runs[0].ci95_diff,
        }
    ratio = rows["hybrid"]["games_per_second"] / rows["pimc"]["games_per_second"]
    for r in rows.values():
        print(f"{r['agent']}: {r['games_per_second']:.2f} games/s, vs rules {r['diff']:+.2f} ± {r['ci95']:.2f} TP/G")
    print(f"hybrid / pimc speed: {ratio:.1f}x")
    if a.json:
        print(json.dumps({"rows": rows, "speed_ratio": ratio, "deals": a.deals}))


if __name__ == "__main__":
    main()

"""``cfrkit bench``: solvers side by side on one game, with OpenSpiel's as peers (see
:mod:`cfrkit.bench`). Errors propagate as :class:`cfrkit.CfrkitError`, which ``cfrkit`` prints as
one line with exit status 2; Ctrl-C prints what was measured and returns 130."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from . import cli_args
from .bench import (
    DEFAULT_CHECKPOINTS,
    DEFAULT_SECONDS,
    OPENSPIEL_SOLVERS,
    PEERS,
    TARGETS,
    algorithms,
    bench,
    target_label,
)

EPILOG = f"""\
The table shows, per solver: threads, iterations done, iterations per second, the wall time to
reach exploitability {", ".join(target_label(t) for t in TARGETS)} ("—" if never reached), the final exploitability and
the speed-up. Exploitability is NashConv / 2 of the average policy in two-player constant-sum
games; other games report NashConv. Times are wall seconds of the iterations only: evaluations
at the log-spaced checkpoints are excluded, and times to a target are interpolated log-log
between checkpoints.

speed-up: how many times faster than the slowest solver in the table each solver reaches the
same exploitability, namely the lowest one that every solver reached (so it compares
convergence speed, not just iterations per second; the slowest solver shows 1.0x).

--peers openspiel runs OpenSpiel's C++ solvers for the algorithms in --algos that it has
({"; ".join(f"{k}: {v}" for k, v in OPENSPIEL_SOLVERS.items())}),
on one thread, in this process, with the same budget. They need the game in OpenSpiel: kuhn,
leduc, or an OpenSpiel game name (e.g. liars_dice).

examples:
  cfrkit bench leduc --algos cfr,cfr+,dcfr,pcfr+ --peers openspiel --seconds 20 --plot leduc.png
  cfrkit bench kuhn --iterations 10000 --csv kuhn.csv --json
"""


def _parser() -> argparse.ArgumentParser:
    known = algorithms()
    p = cli_args.Parser(
        prog="cfrkit bench",
        description="Compare solvers on a game: convergence against wall time and iterations, side by side"
        " with OpenSpiel.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "game", metavar="GAME", help="a cfrkit game spec (kuhn, leduc, ...) or an OpenSpiel game name (liars_dice, ...)"
    )
    p.add_argument(
        "--algos",
        metavar="LIST",
        default=",".join(known),
        help=f"comma-separated cfrkit algorithms (default: all of {','.join(known)})",
    )
    p.add_argument("--peers", metavar="NAME", default="", help=f"also run these libraries' solvers: {', '.join(PEERS)}")
    p.add_argument(
        "--seconds",
        metavar="S",
        type=cli_args.number(0.0, above=True),
        help=f"budget per solver in wall seconds, evaluations excluded (default: {DEFAULT_SECONDS:g})",
    )
    p.add_argument(
        "--iterations",
        metavar="N",
        type=cli_args.count(1),
        help="budget per solver in iterations (instead of --seconds)",
    )
    p.add_argument(
        "--threads",
        metavar="T",
        type=cli_args.threads,
        default=0,
        help="cfrkit's threads (default: CFRKIT_NUM_THREADS or all cores)",
    )
    p.add_argument(
        "--seed", metavar="S", type=cli_args.seed, default=0, help="seed of the sampled solvers (default: 0)"
    )
    p.add_argument(
        "--checkpoints",
        metavar="K",
        type=cli_args.count(1),
        default=DEFAULT_CHECKPOINTS,
        help=f"evaluations per decade of iterations, log-spaced (default: {DEFAULT_CHECKPOINTS})",
    )
    p.add_argument(
        "--plot",
        metavar="PATH",
        type=cli_args.out_file,
        help="draw the curves into a .png or .svg file (needs cfrkit[plot])",
    )
    p.add_argument("--csv", metavar="PATH", type=cli_args.out_file, help="write every point to a CSV file")
    p.add_argument("--force", action="store_true", help="replace an existing --plot or --csv file")
    p.add_argument("--json", action="store_true", help="print one JSON object with every point as the last line")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``cfrkit bench``: returns the exit status (errors propagate as CfrkitError)."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    cli_args.refuse_existing(args, "plot", "csv")
    if args.plot is not None:
        from .bench import check_plot_path

        check_plot_path(args.plot)
    result = bench(
        args.game,
        algos=args.algos,
        peers=args.peers,
        seconds=args.seconds,
        iterations=args.iterations,
        threads=args.threads,
        seed=args.seed,
        checkpoints=args.checkpoints,
        progress=sys.stderr.isatty(),
    )
    print(result.table())
    if args.csv:
        result.to_csv(args.csv)
        print(f"points written to {args.csv}")
    if args.plot:
        result.plot(args.plot)
        print(f"plot written to {args.plot}")
    if args.json:
        sys.stdout.flush()
        print(json.dumps(result.to_dict(), sort_keys=True))
    if result.interrupted:
        # Ctrl-C ends the run like every command's: one line on stderr, exit status 130.
        sys.stdout.flush()
        print("cfrkit bench: interrupted: the table holds what was measured before the stop", file=sys.stderr)
        return cli_args.INTERRUPTED
    return 0


if __name__ == "__main__":
    from .cli import main as cli_main

    sys.exit(cli_main(["bench", *sys.argv[1:]]))

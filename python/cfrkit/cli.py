"""The ``cfrkit`` command line.

``cfrkit solve GAME [--algo NAME] [--iterations N] [--threads T] [--seed S] [--out PATH] [--json]``
solves a game; ``cfrkit blackjack ...`` and ``cfrkit setback ...`` are the seed games' tools.
Errors print one line on stderr and exit with status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from typing import Optional, Sequence

from .errors import CfrkitError

#: Sub-commands handled by their own modules: name -> (module, help).
GAME_TOOLS = {
    "blackjack": (
        "cfrkit.blackjack",
        "Blackjack++: build, solve with exact chance, dump strategies",
    ),
    "setback": ("cfrkit.setback.cli", "Setback (Auction Pitch): train, inspect, play"),
}


def peak_memory_bytes() -> int:
    """Peak resident memory of this process, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def emit_json(record: dict) -> None:
    """Prints ``record`` as the last line of stdout."""
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def _solve_parser(sub) -> None:
    import cfrkit

    p = sub.add_parser("solve", help="solve a game with a CFR-family solver (full-width or Monte-Carlo)")
    p.add_argument(
        "game",
        nargs="?",
        default="leduc",
        help='game spec, e.g. kuhn, leduc, "blackjack(up=6-6-2,max_hits=1)" (default: leduc)',
    )
    p.add_argument("--algo", default="cfr+", help=f"one of {', '.join(cfrkit.ALGORITHMS)} (default: cfr+)")
    p.add_argument("--iterations", type=int, default=1000, help="iterations to run (default: 1000)")
    p.add_argument("--threads", type=int, default=0, help="threads (default: CFRKIT_NUM_THREADS or all cores)")
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of es-mccfr and os-mccfr's samples (full-width solvers are deterministic and record it)",
    )
    p.add_argument("--alpha", type=float, default=1.5, help="DCFR alpha (default 1.5)")
    p.add_argument("--beta", type=float, default=0.0, help="DCFR beta (default 0)")
    p.add_argument("--gamma", type=float, default=2.0, help="DCFR gamma (default 2)")
    p.add_argument(
        "--simultaneous",
        action="store_true",
        help="update all players at once instead of alternating",
    )
    p.add_argument("--out", help="write the average policy to this file")
    p.add_argument(
        "--checkpoint",
        help="save the solver's state to this file every --checkpoint-every seconds, at the end and on Ctrl-C",
    )
    p.add_argument(
        "--checkpoint-every",
        type=float,
        default=60.0,
        help="seconds between checkpoints (default 60)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue from --checkpoint if it exists; --iterations is the total",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object with the run's figures as the last line",
    )


def solve(args: argparse.Namespace) -> int:
    import cfrkit

    if args.iterations < 0:
        raise cfrkit.InvalidArgumentError(f"invalid value for --iterations: {args.iterations} (an integer >= 0)")
    started = time.perf_counter()
    game = cfrkit.load_game(args.game)
    build_seconds = time.perf_counter() - started
    solver = cfrkit.Solver(
        game,
        algorithm=args.algo,
        threads=args.threads,
        seed=args.seed,
        alternating=not args.simultaneous,
        alpha=args.alpha,
        beta=args.beta,
        gamma=args.gamma,
    )
    if args.resume and not args.checkpoint:
        raise cfrkit.InvalidArgumentError("--resume needs --checkpoint PATH")
    if args.resume and os.path.exists(args.checkpoint):
        solver.load(args.checkpoint)
    last_save = time.monotonic()

    def checkpoint(s) -> None:
        nonlocal last_save
        if args.checkpoint and time.monotonic() - last_save >= args.checkpoint_every:
            s.save(args.checkpoint)
            last_save = time.monotonic()

    started = time.perf_counter()
    interrupted = False
    try:
        solver.run(
            max(0, args.iterations - solver.iteration),
            progress=sys.stderr.isatty(),
            callback=checkpoint,
        )
    except KeyboardInterrupt:
        interrupted = True
    if args.checkpoint:
        solver.save(args.checkpoint)
    seconds = time.perf_counter() - started
    values = solver.values()
    nash_conv = solver.nash_conv()
    exploitability = nash_conv / game.num_players if game.constant_sum else None
    if args.out:
        solver.average_policy().save(args.out)
    record = {
        "game": game.spec,
        "algorithm": solver.algorithm,
        "iterations": solver.iteration,
        "interrupted": interrupted,
        "threads": solver.threads,
        "seed": args.seed,
        "seconds": seconds,
        "build_seconds": build_seconds,
        "iterations_per_second": solver.iteration / seconds if seconds > 0 else None,
        "exploitability": exploitability,
        "nash_conv": nash_conv,
        "values": values,
        "infosets": game.num_infosets,
        "public_nodes": game.num_public_nodes,
        "peak_memory_bytes": peak_memory_bytes(),
        "out": args.out,
        "checkpoint": args.checkpoint,
    }
    lines = [
        f"game            {game.spec} ({game.num_infosets} information sets, {game.num_public_nodes} public nodes)",
        f"algorithm       {solver.algorithm}, {solver.threads} thread(s)",
        f"iterations      {solver.iteration}{' (interrupted)' if interrupted else ''} in {seconds:.3f} s",
        f"values          {', '.join(f'P{i} {v:+.7f}' for i, v in enumerate(values))}",
        f"nash_conv       {nash_conv:.6g}",
    ]
    if exploitability is not None:
        lines.append(f"exploitability  {exploitability:.6g}")
    if args.out:
        lines.append(f"policy          written to {args.out}")
    print("\n".join(lines))
    if args.json:
        emit_json(record)
    return 130 if interrupted else 0


def build_parser() -> argparse.ArgumentParser:
    import cfrkit

    parser = argparse.ArgumentParser(prog="cfrkit", description="Solve and play imperfect-information card games.")
    parser.add_argument("--version", action="version", version=f"cfrkit {cfrkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _solve_parser(sub)
    for name, (_, help_text) in GAME_TOOLS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``cfrkit`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in GAME_TOOLS:
            import importlib

            module = importlib.import_module(GAME_TOOLS[argv[0]][0])
            return module.main(argv[1:])
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return solve(args)
    except CfrkitError as e:
        print(f"cfrkit: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cfrkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The ``cfrkit`` command line.

``cfrkit solve GAME [--algo NAME] [--iterations N] [--threads T] [--seed S] [--out PATH] [--json]``
solves a game (``--ray [ADDRESS]``: es-mccfr and os-mccfr in synchronous rounds on a Ray
cluster); ``cfrkit blackjack ...`` and ``cfrkit setback ...`` are the seed games' tools.
Errors print one line on stderr and exit with status 2 (:mod:`cfrkit.cli_args` holds the argument
types every sub-command shares); Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from typing import Optional, Sequence

from . import _cfrkit, cli_args
from .errors import InvalidArgumentError

#: Sub-commands handled by their own modules: name -> (module, help).
GAME_TOOLS = {
    "blackjack": (
        "cfrkit.blackjack",
        "Blackjack++: build, solve with exact chance, dump strategies",
    ),
    "setback": ("cfrkit.setback.cli", "Setback (Auction Pitch): train, inspect, play"),
    "schafkopf": ("cfrkit.schafkopf.cli", "Schafkopf: matches, tournaments, play in the terminal"),
    "skat": ("cfrkit.skat.cli", "Skat: matches, tournaments, play in the terminal"),
    "logs": ("cfrkit.logs_cli", "game logs and ISS game records: convert, statistics"),
    "learn": ("cfrkit.learn_cli", "learned policies: train networks on game logs (imitation)"),
    "bench": ("cfrkit.bench_cli", "compare solvers on a game, side by side with OpenSpiel, with convergence plots"),
}


def peak_memory_bytes() -> int:
    """Peak resident memory of this process, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def emit_json(record: dict) -> None:
    """Prints ``record`` as the last line of stdout."""
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def _solve_parser(sub) -> None:
    p = sub.add_parser("solve", help="solve a game with a CFR-family solver (full-width or Monte-Carlo)")
    p.add_argument(
        "game",
        nargs="?",
        default="leduc",
        help='game spec, e.g. kuhn, leduc, "blackjack(up=6-6-2,max_hits=1)" (default: leduc)',
    )
    p.add_argument("--algo", default="cfr+", help=f"one of {', '.join(_cfrkit.ALGORITHMS)} (default: cfr+)")
    p.add_argument(
        "--iterations", type=cli_args.count(0), default=1000, help="iterations to run in all (default: 1000)"
    )
    p.add_argument(
        "--threads", type=cli_args.threads, default=0, help="threads (default: CFRKIT_NUM_THREADS or all cores)"
    )
    p.add_argument(
        "--seed",
        type=cli_args.seed,
        default=0,
        help="seed of es-mccfr and os-mccfr's samples (full-width solvers are deterministic and record it)",
    )
    p.add_argument("--alpha", type=cli_args.number(), help="DCFR alpha (dcfr only; default 1.5)")
    p.add_argument("--beta", type=cli_args.number(), help="DCFR beta (dcfr only; default 0)")
    p.add_argument("--gamma", type=cli_args.number(), help="DCFR gamma (dcfr only; default 2)")
    p.add_argument(
        "--simultaneous",
        action="store_true",
        help="update all players at once instead of alternating",
    )
    p.add_argument("--out", type=cli_args.out_file, help="write the average policy to this file (a new one)")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument(
        "--checkpoint",
        type=cli_args.out_file,
        help="save the solver's state to this file every --checkpoint-every seconds, at the end and on Ctrl-C",
    )
    p.add_argument(
        "--checkpoint-every",
        type=cli_args.number(0, above=True),
        default=60.0,
        help="seconds between checkpoints (default 60)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue from --checkpoint (which must exist); --iterations is the total",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object with the run's figures as the last line",
    )
    cli_args.add_ray_options(
        p, piece="iterations each worker runs per synchronous round (es-mccfr and os-mccfr; default 0: 1024)"
    )


def _dcfr_parameters(a: argparse.Namespace) -> dict:
    """The DCFR parameters given on the command line, checked by the core against the algorithm:
    they apply to dcfr only."""
    given = {k: v for k in ("alpha", "beta", "gamma") if (v := getattr(a, k)) is not None}
    name = _cfrkit.algorithm_name(a.algo, **given)
    if given and not name.startswith("dcfr"):
        flags = ", ".join(f"--{k} {v:g}" for k, v in given.items())
        raise InvalidArgumentError(f"invalid value for {flags}: DCFR parameters apply to --algo dcfr only, not {name}")
    return given


def solve(args: argparse.Namespace) -> int:
    import cfrkit

    dcfr = _dcfr_parameters(args)
    if args.simultaneous and args.algo.strip().lower() in _cfrkit.SAMPLED_ALGORITHMS:
        raise InvalidArgumentError(
            f"invalid value for --simultaneous with --algo {args.algo}: Monte-Carlo CFR updates one player per "
            f"traversal; --simultaneous applies to the full-width algorithms only"
        )
    if args.resume and not args.checkpoint:
        raise InvalidArgumentError("invalid value for --resume: no --checkpoint PATH to resume from")
    if args.resume and not os.path.isfile(args.checkpoint):
        raise InvalidArgumentError(
            f"invalid value for --checkpoint: {args.checkpoint!r} (nothing to resume: no such file; "
            "start without --resume)"
        )
    # Nothing the user has is replaced unless the run continues it or they say so.
    if args.checkpoint and not args.resume and os.path.exists(args.checkpoint):
        raise InvalidArgumentError(
            f"invalid value for --checkpoint: {args.checkpoint!r} exists (--resume continues that run; "
            "another path starts a new one)"
        )
    cli_args.refuse_existing(args, "out")
    started = time.perf_counter()
    game = cfrkit.load_game(args.game)
    build_seconds = time.perf_counter() - started
    solver = cfrkit.Solver(
        game,
        algorithm=args.algo,
        threads=args.threads,
        seed=args.seed,
        alternating=not args.simultaneous,
        **dcfr,
    )
    if args.resume:
        solver.load(args.checkpoint)
        if solver.iteration > args.iterations:
            raise InvalidArgumentError(
                f"invalid value for --iterations: {args.iterations:,} (the total to reach; {args.checkpoint} is "
                f"already at iteration {solver.iteration:,})"
            )
        print(
            f"resuming {args.checkpoint} at iteration {solver.iteration:,} of {args.iterations:,}",
            file=sys.stderr,
        )
    last_save = time.monotonic()

    def checkpoint(s) -> None:
        nonlocal last_save
        if args.checkpoint and time.monotonic() - last_save >= args.checkpoint_every:
            s.save(args.checkpoint)
            last_save = time.monotonic()

    backend = cli_args.backend(args)
    started = time.perf_counter()
    interrupted = False
    try:
        if backend == "local":
            solver.run(
                max(0, args.iterations - solver.iteration),
                progress=sys.stderr.isatty(),
                callback=checkpoint,
            )
        else:
            from .distributed import train

            train(
                solver,
                max(0, args.iterations - solver.iteration),
                backend,
                checkpoint=args.checkpoint,
                checkpoint_every=args.checkpoint_every,
                progress=sys.stderr.isatty(),
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
        "ray": args.ray,
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
    if interrupted:
        kept = f"; {args.checkpoint} holds it" if args.checkpoint else ""
        print(f"cfrkit solve: interrupted at iteration {solver.iteration:,}{kept}", file=sys.stderr)
        return cli_args.INTERRUPTED
    return 0


def build_parser() -> argparse.ArgumentParser:
    import cfrkit

    parser = cli_args.Parser(prog="cfrkit", description="Solve and play imperfect-information card games.")
    parser.add_argument("--version", action="version", version=f"cfrkit {cfrkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _solve_parser(sub)
    for name, (_, help_text) in GAME_TOOLS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``cfrkit`` command; returns the exit status."""
    argv = cli_args.argv_or_sys(argv)

    def command() -> int:
        if argv and argv[0] in GAME_TOOLS:
            import importlib

            return importlib.import_module(GAME_TOOLS[argv[0]][0]).main(argv[1:])
        parser = build_parser()
        parsed = parser.parse_args(argv)
        if parsed.command is None:
            parser.print_help()
            return cli_args.USAGE_ERROR
        return solve(parsed)

    return cli_args.run("cfrkit", command)


if __name__ == "__main__":
    sys.exit(main())

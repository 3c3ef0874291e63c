"""``cfrkit schafkopf ...``: matches, tournaments, and a game in the terminal.

* ``match --a A --b B --games N [--protocol schafkopfrl|rotation] [--rules schafkopfrl|standard]
  [--seed S] [--threads T] [--json] [--checkpoint FILE] [--log PATH]`` — A against B on N deals,
  each in every seating of the protocol; A's cents per game with its 95% confidence interval.
  With ``--checkpoint`` the figures are saved after every part and a stopped match resumes; with
  ``--log`` every game goes to a game log (``cfrkit.logs``, ``docs/logs.md``); with ``--ray
  [ADDRESS] [--workers N] [--piece N]`` the deals are played in pieces on a Ray cluster, with
  the figures and log of a local run (``docs/ray.md``).
* ``tournament --agents A B C ... --games N [same options]`` — every pair, and the cross table;
  with ``--checkpoint`` a stopped tournament resumes.
  With ``--json`` the last line of stdout is one JSON object whose ``pairs`` hold, per pair,
  ``a``, ``b``, ``games``, ``deals``, ``a_cents_per_game``, ``ci95``, ``b_cents_per_game``.
* ``selfplay --agent A --games N --log PATH [--rules R] [--seed S] [--threads T] [--json]
  [--checkpoint FILE]`` — A in all four seats, one game per deal: a data set for ``cfrkit learn
  imitate``; PIMC with ``values=none`` logs no means, and plays faster.
* ``play --bots AGENT [--seat S] [--seed S] [--index I] [--rules R]`` — a person plays a whole
  game in the terminal against three bots; illegal input is refused with the reason.

Agents: any spec of ``cfrkit.schafkopf.SCHAFKOPF_AGENT_SPECS`` (``random``, ``random-coward``,
``rules``, the PIMC agents with their options). Errors print one line on stderr and exit with
status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .. import _selfplay, cli_args
from .._cfrkit import SCHAFKOPF_AGENT_SPECS


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games",
        type=cli_args.count(1),
        default=1000,
        help="deals per pair, each played in every seating of the protocol (default 1000)",
    )
    p.add_argument(
        "--protocol",
        default="schafkopfrl",
        help="schafkopfrl (seats [a,a,b,b] then [b,b,a,a], default) or rotation (the six seatings with two seats each)",
    )
    p.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")
    p.add_argument("--seed", type=cli_args.seed, default=0, help="seed of deals and choices (default 0)")
    p.add_argument(
        "--threads",
        type=cli_args.threads,
        default=0,
        help="threads (default 0: CFRKIT_NUM_THREADS or all cores); results do not depend on it",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object on the last line")
    cli_args.add_log_options(p)
    cli_args.add_ray_options(p)


def _parser() -> argparse.ArgumentParser:
    p = cli_args.Parser(prog="cfrkit schafkopf", description="Schafkopf: matches, tournaments, play in the terminal")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="agent A against agent B, cents per game with a 95%% interval")
    m.add_argument("--a", required=True, help=f"agent A: {SCHAFKOPF_AGENT_SPECS}")
    m.add_argument("--b", required=True, help="agent B")
    _common(m)
    m.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the figures to FILE after every part of the match, and resume from it when it exists",
    )
    s = _selfplay.add_command(sub, SCHAFKOPF_AGENT_SPECS, "--games")
    s.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")
    t = sub.add_parser("tournament", help="every pair of agents, and the cross table")
    t.add_argument("--agents", nargs="+", required=True, help=f"two or more agents: {SCHAFKOPF_AGENT_SPECS}")
    _common(t)
    t.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save every deal's result to FILE after every part, and resume from it (and the log) when it exists",
    )
    g = sub.add_parser("play", help="play a game in the terminal against three bots")
    g.add_argument("--bots", default="rules", help=f"the bots' agent (default rules): {SCHAFKOPF_AGENT_SPECS}")
    g.add_argument(
        "--seat", type=cli_args.integer(0, 3, "a seat 0, 1, 2 or 3"), default=0, help="your seat (default 0)"
    )
    g.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the deal and the bots (default 0)")
    g.add_argument("--index", type=cli_args.count(0), default=0, help="deal index under the seed (default 0)")
    g.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")
    return p


def _emit_json(record: dict) -> None:
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def _pair_record(r) -> dict:
    keys = ("a", "b", "games", "deals", "a_cents_per_game", "ci95", "b_cents_per_game", "b_ci95")
    return {k: getattr(r, k) for k in keys}


def _run_selfplay(a: argparse.Namespace) -> int:
    from .matches import selfplay

    r = selfplay(
        a.agent,
        a.games,
        rules=a.rules,
        seed=a.seed,
        threads=a.threads,
        progress=True,
        checkpoint=a.checkpoint,
        log=a.log,
    )
    return _selfplay.report(r, a.log, a.json, _emit_json)


def _match(a: argparse.Namespace) -> int:
    from .matches import match

    r = match(
        a.a,
        a.b,
        a.games,
        protocol=a.protocol,
        rules=a.rules,
        seed=a.seed,
        threads=a.threads,
        progress=True,
        checkpoint=a.checkpoint,
        log=a.log,
        backend=cli_args.backend(a),
    )
    print(r)
    print(f"{r.seconds:.3f} s, {r.speed} on {r.threads} thread(s)")
    if a.json:
        _emit_json(
            {
                "command": "match",
                **_pair_record(r),
                "pairs": [_pair_record(r)],
                "protocol": r.protocol,
                "rules": r.rules,
                "seed": r.seed,
                "threads": r.threads,
                "seconds": r.seconds,
            }
        )
    return 0


def _tournament(a: argparse.Namespace) -> int:
    from .matches import tournament

    t = tournament(
        a.agents,
        a.games,
        protocol=a.protocol,
        rules=a.rules,
        seed=a.seed,
        threads=a.threads,
        progress=True,
        log=a.log,
        backend=cli_args.backend(a),
        checkpoint=a.checkpoint,
    )
    print(t.table, end="")
    for r in t.pairs:
        print(r)
    print(f"{t.seconds:.3f} s on {t.threads} thread(s)")
    if a.json:
        _emit_json(
            {
                "command": "tournament",
                "agents": t.names,
                "pairs": [_pair_record(r) for r in t.pairs],
                "cells": t.cells,
                "row_means": t.row_means,
                "deals": t.deals,
                "protocol": t.protocol,
                "rules": t.rules,
                "seed": t.seed,
                "threads": t.threads,
                "seconds": t.seconds,
            }
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit schafkopf`` with ``argv`` (without the program and sub-command names);
    returns the exit status."""

    def command() -> int:
        args = _parser().parse_args(cli_args.argv_or_sys(argv))
        cli_args.replace_if_forced(args)
        if args.command == "match":
            return _match(args)
        if args.command == "tournament":
            return _tournament(args)
        if args.command == "selfplay":
            return _run_selfplay(args)
        from .play import play_terminal

        return play_terminal(args.bots, seat=args.seat, seed=args.seed, index=args.index, rules=args.rules)

    return cli_args.run("cfrkit schafkopf", command)


if __name__ == "__main__":
    sys.exit(main())

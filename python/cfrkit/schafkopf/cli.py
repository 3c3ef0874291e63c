"""``cfrkit schafkopf ...``: matches, tournaments, and a game in the terminal.

* ``match --a A --b B --games N [--protocol schafkopfrl|rotation] [--rules schafkopfrl|standard]
  [--seed S] [--threads T] [--json]`` — A against B on N deals, each in every seating of the
  protocol; A's cents per game with its 95% confidence interval.
* ``tournament --agents A B C ... --games N [same options]`` — every pair, and the cross table.
  With ``--json`` the last line of stdout is one JSON object whose ``pairs`` hold, per pair,
  ``a``, ``b``, ``games``, ``deals``, ``a_cents_per_game``, ``ci95``, ``b_cents_per_game``.
* ``play --bots AGENT [--seat S] [--seed S] [--index I] [--rules R]`` — a person plays a whole
  game in the terminal against three bots; illegal input is refused with the reason.

Agents: ``random``, ``random-coward``, ``rules``. Errors print one line on stderr and exit with
status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..errors import CfrkitError, InvalidArgumentError


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def _int(low: int, what: str):
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer ({what})") from None
        if v < low or v >= 2**64:
            raise argparse.ArgumentTypeError(f"{text!r} is out of range ({what})")
        return v

    return parse


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games",
        type=_int(1, "a positive number of deals"),
        default=1000,
        help="deals per pair, each played in every seating of the protocol (default 1000)",
    )
    p.add_argument(
        "--protocol",
        default="schafkopfrl",
        help="schafkopfrl (seats [a,a,b,b] then [b,b,a,a], default) or rotation (the six seatings with two seats each)",
    )
    p.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")
    p.add_argument("--seed", type=_int(0, "an integer >= 0"), default=0, help="seed of deals and choices (default 0)")
    p.add_argument(
        "--threads",
        type=_int(0, "an integer >= 0; 0 = all cores"),
        default=0,
        help="threads (default 0: CFRKIT_NUM_THREADS or all cores); results do not depend on it",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object on the last line")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cfrkit schafkopf", description="Schafkopf: matches, tournaments, play in the terminal")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    m = sub.add_parser("match", help="agent A against agent B, cents per game with a 95%% interval")
    m.add_argument("--a", required=True, help="agent A: random, random-coward or rules")
    m.add_argument("--b", required=True, help="agent B")
    _common(m)
    t = sub.add_parser("tournament", help="every pair of agents, and the cross table")
    t.add_argument("--agents", nargs="+", required=True, help="two or more agents")
    _common(t)
    g = sub.add_parser("play", help="play a game in the terminal against three bots")
    g.add_argument("--bots", default="rules", help="the bots' agent (default rules)")
    g.add_argument("--seat", type=_int(0, "a seat 0-3"), default=0, help="your seat, 0-3 (default 0)")
    g.add_argument("--seed", type=_int(0, "an integer >= 0"), default=0, help="seed of the deal and the bots")
    g.add_argument("--index", type=_int(0, "an integer >= 0"), default=0, help="deal index under the seed")
    g.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")
    return p


def _emit_json(record: dict) -> None:
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def _pair_record(r) -> dict:
    keys = ("a", "b", "games", "deals", "a_cents_per_game", "ci95", "b_cents_per_game", "b_ci95")
    return {k: getattr(r, k) for k in keys}


def _match(a: argparse.Namespace) -> int:
    from .matches import match

    r = match(a.a, a.b, a.games, protocol=a.protocol, rules=a.rules, seed=a.seed, threads=a.threads)
    print(r)
    print(f"{r.seconds:.3f} s, {r.games_per_second:,.0f} games/s on {r.threads} thread(s)")
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

    t = tournament(a.agents, a.games, protocol=a.protocol, rules=a.rules, seed=a.seed, threads=a.threads)
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
    """Entry point of ``cfrkit schafkopf``; returns the exit status."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "match":
            return _match(args)
        if args.command == "tournament":
            return _tournament(args)
        from .play import play_terminal

        if args.seat > 3:
            raise InvalidArgumentError(f"invalid value for --seat: {args.seat} (a seat 0, 1, 2 or 3)")
        return play_terminal(args.bots, seat=args.seat, seed=args.seed, index=args.index, rules=args.rules)
    except CfrkitError as e:
        print(f"cfrkit: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cfrkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""``cfrkit skat ...``: matches, tournaments, and a game in the terminal.

* ``match --a A --b B --deals N [--seed S] [--threads T] [--json] [--checkpoint FILE] [--log PATH]`` — A
  against B on N deals, each in the six seatings (AAB ABA ABB BAA BAB BBA); TP/G of both, the
  difference with its 95% confidence interval, and the game-type breakdown. With ``--json`` the
  last line of stdout is one JSON object with ``deals``, ``tp_per_game_a``, ``tp_per_game_b``,
  ``diff``, ``ci95``, ``breakdown_a`` and ``breakdown_b`` (per cent of seat-games by category),
  and more. With ``--checkpoint`` the figures are saved after every part and a stopped match
  resumes. With ``--log`` every game goes to a game log (``cfrkit.logs``, ``docs/logs.md``), or
  with ``--log-format iss`` to ISS game records (``docs/iss.md``; match, tournament and selfplay).
  With ``--ray [ADDRESS] [--workers N] [--piece N]`` the deals are played in pieces on a Ray
  cluster, with the figures and log of a local run (``docs/ray.md``).
* ``tournament --agents A B C ... --deals N [--seed S] [--threads T] [--json] [--log PATH]
  [--checkpoint FILE] [--ray ...]`` — every pair, and the cross table of TP/G; with
  ``--checkpoint`` a stopped tournament resumes.
* ``selfplay --agent A --deals N --log PATH [--seed S] [--threads T] [--json] [--checkpoint FILE]`` —
  A in all three seats, one game per deal: a data set for ``cfrkit learn imitate`` (a match
  repeats each deal in six seatings); PIMC with ``values=none`` logs no means, and plays faster.
* ``play --bots AGENT [--seat S] [--seed S] [--index I]`` — a person plays a whole game in the
  terminal against two bots; illegal input is refused with the reason.

Agents: ``random``, ``rules``, ``pimc[:OPTIONS]``, ``net:DIR`` or ``hybrid:…`` (``cfrkit.skat.AGENT_SPECS``).
Errors print one line on stderr and exit with status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .. import _selfplay, cli_args
from .._cfrkit import SKAT_AGENT_SPECS
from .records import LOG_FORMATS, log_in_format


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--deals", type=cli_args.count(1), default=1000, help="deals, each played in the six seatings (default 1000)"
    )
    p.add_argument("--seed", type=cli_args.seed, default=0, help="seed of deals and choices (default 0)")
    p.add_argument(
        "--threads",
        type=cli_args.threads,
        default=0,
        help="threads (default 0: CFRKIT_NUM_THREADS or all cores); results do not depend on it",
    )
    p.add_argument(
        "--share-decisions",
        action="store_true",
        help="a deal's games share their decisions (keyed by the history): about twice as fast between similar "
        "search programs",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object on the last line")
    cli_args.add_log_options(p)
    _log_format(p)
    cli_args.add_ray_options(p)


def _log_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="cfrkit",
        help="cfrkit (JSON lines, default) or iss (the International Skat Server's records, docs/iss.md)",
    )


def _parser() -> argparse.ArgumentParser:
    p = cli_args.Parser(prog="cfrkit skat", description="Skat: matches, tournaments, play in the terminal")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="program A against program B: TP/G, difference with a 95%% interval")
    m.add_argument("--a", required=True, help=f"agent A: {SKAT_AGENT_SPECS}")
    m.add_argument("--b", required=True, help="agent B")
    _common(m)
    m.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the figures to FILE after every part of the match, and resume from it when it exists",
    )
    _log_format(_selfplay.add_command(sub, SKAT_AGENT_SPECS, "--deals"))
    t = sub.add_parser("tournament", help="every pair of agents, and the cross table")
    t.add_argument("--agents", nargs="+", required=True, help=f"two or more agents: {SKAT_AGENT_SPECS}")
    _common(t)
    t.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save every deal's result to FILE after every part, and resume from it (and the log) when it exists",
    )
    g = sub.add_parser("play", help="play a game in the terminal against two bots")
    g.add_argument("--bots", default="rules", help=f"the bots' agent (default rules): {SKAT_AGENT_SPECS}")
    g.add_argument(
        "--seat",
        type=cli_args.integer(0, 2, "a seat 0 (Vorhand), 1 (Mittelhand) or 2 (Hinterhand)"),
        default=0,
        help="your seat (default 0, Vorhand)",
    )
    g.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the deal and the bots (default 0)")
    g.add_argument("--index", type=cli_args.count(0), default=0, help="deal index under the seed (default 0)")
    return p


def _emit_json(record: dict) -> None:
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def _match(a: argparse.Namespace) -> int:
    from .matches import match

    with log_in_format(a.log, a.log_format, a.checkpoint) as log:
        r = match(
            a.a,
            a.b,
            a.deals,
            seed=a.seed,
            threads=a.threads,
            progress=True,
            checkpoint=a.checkpoint,
            log=log,
            backend=cli_args.backend(a),
            share_decisions=a.share_decisions,
        )
    print(r)
    print(r.table())
    print(f"{r.seconds:.3f} s, {r.speed} on {r.threads} thread(s)")
    if a.json:
        _emit_json({"command": "match", **r.record()})
    return 0


def _run_selfplay(a: argparse.Namespace) -> int:
    from .matches import selfplay

    with log_in_format(a.log, a.log_format, a.checkpoint) as log:
        r = selfplay(a.agent, a.deals, seed=a.seed, threads=a.threads, progress=True, checkpoint=a.checkpoint, log=log)
    return _selfplay.report(r, a.log, a.json, _emit_json)


def _tournament(a: argparse.Namespace) -> int:
    from .matches import tournament

    with log_in_format(a.log, a.log_format, a.checkpoint) as log:
        t = tournament(
            a.agents,
            a.deals,
            seed=a.seed,
            threads=a.threads,
            progress=True,
            log=log,
            backend=cli_args.backend(a),
            checkpoint=a.checkpoint,
            share_decisions=a.share_decisions,
        )
    print(t.table, end="")
    for r in t.pairs:
        print(r)
    print(f"{t.seconds:.3f} s on {t.threads} thread(s)")
    if a.json:
        _emit_json({"command": "tournament", "agents": t.names, **t.record()})
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit skat`` with ``argv`` (without the program and sub-command names); returns
    the exit status."""

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

        return play_terminal(args.bots, seat=args.seat, seed=args.seed, index=args.index)

    return cli_args.run("cfrkit skat", command)


if __name__ == "__main__":
    sys.exit(main())

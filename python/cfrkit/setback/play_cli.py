"""The ``match`` and ``play`` sub-commands of ``cfrkit setback``.

* ``match --a AGENT --b AGENT --pairs N [--threads T] [--seed S] [--json] [--log PATH]
  [--checkpoint FILE]`` — duplicate game pairs (spec §5.1); prints games, A's win rate with a
  95% confidence interval and the mean deal points per team. With ``--checkpoint`` every pair's
  outcome is saved after every part and a stopped match resumes (its log cut back to match).
* ``tournament --agents A B C ... --pairs N [--threads T] [--seed S] [--json] [--log PATH] [--checkpoint FILE]`` —
  every pair of agents in duplicate games on the same decks; a cross table of win rates and
  mean deal-point margins with 95% confidence intervals.

With ``--log`` every game goes to a game log (``cfrkit.logs``, ``docs/logs.md``).
* ``play [--bots AGENT] [--seed S]`` — a whole game in the terminal: you sit South with a bot
  partner against two bots; ``quit`` stops it (status 0), the end of input too (status 2).

``match`` and ``tournament`` take ``--ray [ADDRESS] [--workers N] [--piece N]``: the pairs are
played in pieces on a Ray cluster, with the figures of a local run (``docs/ray.md``).

Agents: see :data:`cfrkit.setback.agents.SPECS`.
"""

from __future__ import annotations

import argparse
import sys

from .. import cli_args
from .agents import SPECS as AGENTS_HELP
from .matches import play_match
from .play import play_game
from .tournament import tournament

LOG_HELP = "write every game to a game log at PATH (JSON lines, see docs/logs.md; a new file)"


def add_commands(sub) -> None:
    """Adds ``match`` and ``play`` to an argparse sub-parser set."""
    m = sub.add_parser("match", help="duplicate-pair match between two agents (win rate with a 95%% CI)")
    m.add_argument("--a", required=True, metavar="AGENT", help=f"agent A, seated West-East: {AGENTS_HELP}")
    m.add_argument("--b", required=True, metavar="AGENT", help="agent B, seated North-South")
    m.add_argument("--pairs", type=cli_args.count(1), default=1000, help="duplicate pairs, 2 games each (default 1000)")
    m.add_argument(
        "--threads", type=cli_args.threads, default=0, help="threads (default 0: CFRKIT_NUM_THREADS or all cores)"
    )
    m.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the decks and random choices (default 0)")
    m.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    cli_args.add_log_options(m, text=LOG_HELP)
    m.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the pairs' outcomes to FILE after every part of the match, and resume from it when it exists",
    )
    cli_args.add_ray_options(m)

    t = sub.add_parser("tournament", help="every pair of agents in duplicate matches: a cross table with 95%% CIs")
    t.add_argument("--agents", nargs="+", required=True, metavar="AGENT", help=f"two or more agents: {AGENTS_HELP}")
    t.add_argument(
        "--pairs", type=cli_args.count(1), default=1000, help="duplicate pairs per match, 2 games each (default 1000)"
    )
    t.add_argument(
        "--threads", type=cli_args.threads, default=0, help="threads (default 0: CFRKIT_NUM_THREADS or all cores)"
    )
    t.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the decks and random choices (default 0)")
    t.add_argument("--json", action="store_true", help="print the matches as one JSON line")
    cli_args.add_log_options(t, text=LOG_HELP)
    t.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the pairs' outcomes to FILE after every part, and resume from it (and the log) when it exists",
    )
    cli_args.add_ray_options(t)

    p = sub.add_parser("play", help="play a game in the terminal with a bot partner against two bots")
    p.add_argument("--bots", default="rules", metavar="AGENT", help=f"the three bots (default rules): {AGENTS_HELP}")
    p.add_argument("--seed", type=cli_args.seed, default=None, help="seed of the decks (default: random)")


def _match(a: argparse.Namespace) -> int:
    r = play_match(
        a.a,
        a.b,
        a.pairs,
        seed=a.seed,
        threads=a.threads,
        backend=cli_args.backend(a),
        log=a.log,
        checkpoint=a.checkpoint,
        progress=True,
    )
    cli_args.report(a.json, r.to_dict(), lambda: str(r))
    return 0


def _tournament(a: argparse.Namespace) -> int:
    def progress(m) -> None:
        print(str(m), file=sys.stderr)

    r = tournament(
        a.agents,
        a.pairs,
        seed=a.seed,
        threads=a.threads,
        progress=None if a.json else progress,
        backend=cli_args.backend(a),
        log=a.log,
        checkpoint=a.checkpoint,
    )
    cli_args.report(a.json, r.to_dict(), r.table)
    return 0


def _play(a: argparse.Namespace) -> int:
    play_game(a.bots, seed=a.seed)  # quit: one line, status 0; end of input: an error, status 2
    return 0


COMMANDS = {"match": _match, "tournament": _tournament, "play": _play}

__all__ = ["COMMANDS", "add_commands"]

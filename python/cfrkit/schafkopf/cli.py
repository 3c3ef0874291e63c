"""``cfrkit schafkopf ...``: matches, tournaments, self-play, a game in the terminal, a deal — the
commands and flags of every game (``cfrkit._game_cli``, ``docs/commands.md``) and Schafkopf's own:

* ``match --a A --b B --deals N [--protocol schafkopfrl|rotation] [--rules schafkopfrl|standard]``
  — A against B on N deals, each in every seating of the protocol; A's cents per game with its
  95% confidence interval. With ``--json`` the last line of stdout is one JSON object whose
  ``pairs`` hold, per pair, ``a``, ``b``, ``games``, ``deals``, ``a_cents_per_game``, ``ci95``,
  ``b_cents_per_game``.
* ``tournament --agents A B C ... --deals N`` — every pair, and the cross table.
* ``selfplay --agent A --deals N --log PATH [--rules R]`` — A in all four seats, one game per
  deal: a data set for ``cfrkit learn imitate``; PIMC with ``values=none`` logs no means.
* ``play --bots AGENT [--seat S] [--seed S] [--index I] [--rules R]`` — a person plays a whole
  game in the terminal against three bots; illegal input is refused with the reason.
* ``deal [--seed S] [--index I] [--rules R] [--json]`` — the hands and the first seat's legal
  declarations.

``--games`` is the deprecated spelling of ``--deals``. Agents: any spec of
``cfrkit.schafkopf.SCHAFKOPF_AGENT_SPECS`` (``random``, ``random-coward``, ``rules``, the PIMC
agents with their options). Errors print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import _game_cli, _selfplay, cli_args
from .._cfrkit import SCHAFKOPF_AGENT_SPECS

SEATS = ("", "", "", "")


def _own(command: str, p: argparse.ArgumentParser) -> None:
    if command in ("match", "tournament"):
        p.add_argument(
            "--protocol",
            default="schafkopfrl",
            help="schafkopfrl (seats [a,a,b,b] then [b,b,a,a], default) or rotation (the six seatings with two "
            "seats each)",
        )
    p.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")


def _pair_record(r) -> dict:
    keys = ("a", "b", "games", "deals", "a_cents_per_game", "ci95", "b_cents_per_game", "b_ci95")
    return {k: getattr(r, k) for k in keys}


def _selfplay_run(a: argparse.Namespace) -> int:
    from .matches import selfplay

    r = selfplay(
        a.agent,
        a.deals,
        rules=a.rules,
        seed=a.seed,
        threads=a.threads,
        progress=True,
        checkpoint=a.checkpoint,
        log=a.log,
    )
    return _selfplay.report(r, a.log, a.json, _game_cli.emit_json)


def _match(a: argparse.Namespace) -> int:
    from .matches import match

    r = match(
        a.a,
        a.b,
        a.deals,
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
        _game_cli.emit_json(
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
        a.deals,
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
        _game_cli.emit_json(
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


def _play(a: argparse.Namespace) -> int:
    from .play import play_terminal

    return play_terminal(a.bots, seat=a.seat, seed=a.seed, index=a.index, rules=a.rules)


def _deal(a: argparse.Namespace) -> int:
    from .._cfrkit import SchafkopfGame

    g = SchafkopfGame.random(seed=a.seed, rules=a.rules, index=a.index)
    legal = g.legal_actions()
    if a.json:
        record = _game_cli.deal_record("schafkopf", a.seed, a.index, g.hands, g.player, legal, rules=a.rules)
        _game_cli.emit_json(record)
    else:
        _game_cli.print_deal([f"seat {i}" for i in range(4)], g.hands, g.player, legal, {"rules": a.rules})
    return 0


CLI = _game_cli.GameCli(
    name="schafkopf",
    description="Schafkopf: matches, tournaments, self-play, play in the terminal, deals",
    agents=SCHAFKOPF_AGENT_SPECS,
    seatings="in every seating of the protocol",
    runners={"match": _match, "tournament": _tournament, "selfplay": _selfplay_run, "play": _play, "deal": _deal},
    own=_own,
    old_deals="--games",
    seats=SEATS,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit schafkopf`` with ``argv`` (without the program and sub-command names);
    returns the exit status."""
    return _game_cli.main(CLI, argv)


if __name__ == "__main__":
    sys.exit(main())

"""``cfrkit skat ...``: matches, tournaments, self-play, a game in the terminal, a deal — the
commands and flags of every game (``cfrkit._game_cli``, ``docs/commands.md``) and Skat's own:

* ``match --a A --b B --deals N`` — A against B on N deals, each in the six seatings (AAB ABA ABB
  BAA BAB BBA); TP/G of both, the difference with its 95% confidence interval, and the game-type
  breakdown. With ``--json`` the last line of stdout is one JSON object with ``deals``,
  ``tp_per_game_a``, ``tp_per_game_b``, ``diff``, ``ci95``, ``breakdown_a`` and ``breakdown_b``
  (per cent of seat-games by category), and more. ``--share-decisions``: a deal's games share
  their decisions; ``--log-format iss``: the log as ISS game records (``docs/iss.md``).
* ``tournament --agents A B C ... --deals N`` — every pair, and the cross table of TP/G.
* ``selfplay --agent A --deals N --log PATH`` — A in all three seats, one game per deal: a data
  set for ``cfrkit learn imitate``; PIMC with ``values=none`` logs no means, and plays faster.
* ``play --bots AGENT [--seat S] [--seed S] [--index I]`` — a person plays a whole game in the
  terminal against two bots; illegal input is refused with the reason.
* ``deal [--seed S] [--index I] [--json]`` — the hands, the skat, and Vorhand's legal bids.

Agents: ``random``, ``rules``, ``pimc[:OPTIONS]``, ``net:DIR`` or ``hybrid:…`` (``cfrkit.skat.AGENT_SPECS``).
Errors print one line on stderr and exit with status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import _game_cli, _selfplay, cli_args
from .._cfrkit import SKAT_AGENT_SPECS
from .records import LOG_FORMATS, log_in_format

SEATS = ("Vorhand", "Mittelhand", "Hinterhand")


def _own(command: str, p: argparse.ArgumentParser) -> None:
    if command in ("match", "tournament"):
        p.add_argument(
            "--share-decisions",
            action="store_true",
            help="a deal's games share their decisions (keyed by the history): about twice as fast between "
            "similar search programs",
        )
    if command in ("match", "tournament", "selfplay"):
        p.add_argument(
            "--log-format",
            choices=LOG_FORMATS,
            default="cfrkit",
            help="cfrkit (JSON lines, default) or iss (the International Skat Server's records, docs/iss.md)",
        )


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
        _game_cli.emit_json({"command": "match", **r.record()})
    return 0


def _selfplay_run(a: argparse.Namespace) -> int:
    from .matches import selfplay

    with log_in_format(a.log, a.log_format, a.checkpoint) as log:
        r = selfplay(a.agent, a.deals, seed=a.seed, threads=a.threads, progress=True, checkpoint=a.checkpoint, log=log)
    return _selfplay.report(r, a.log, a.json, _game_cli.emit_json)


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
        _game_cli.emit_json({"command": "tournament", "agents": t.names, **t.record()})
    return 0


def _play(a: argparse.Namespace) -> int:
    from .play import play_terminal

    return play_terminal(a.bots, seat=a.seat, seed=a.seed, index=a.index)


def _deal(a: argparse.Namespace) -> int:
    from .._cfrkit import SkatGame

    g = SkatGame.random(seed=a.seed, index=a.index)
    legal = g.legal_actions()
    if a.json:
        _game_cli.emit_json(_game_cli.deal_record("skat", a.seed, a.index, g.hands, g.player, legal, skat=g.skat))
    else:
        seats = [f"{i} {name}" for i, name in enumerate(SEATS)]
        _game_cli.print_deal(seats, g.hands, g.player, legal, {"skat": " ".join(g.skat)})
    return 0


CLI = _game_cli.GameCli(
    name="skat",
    description="Skat: matches, tournaments, self-play, play in the terminal, deals",
    agents=SKAT_AGENT_SPECS,
    seatings="in the six seatings",
    runners={"match": _match, "tournament": _tournament, "selfplay": _selfplay_run, "play": _play, "deal": _deal},
    own=_own,
    seats=SEATS,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit skat`` with ``argv`` (without the program and sub-command names); returns
    the exit status."""
    return _game_cli.main(CLI, argv)


if __name__ == "__main__":
    sys.exit(main())

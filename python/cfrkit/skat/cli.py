"""``cfrkit skat ...``: matches, tournaments, self-play, a game in the terminal, a deal — the
commands and flags of every game (``cfrkit._game_cli``, ``docs/commands.md``) and Skat's own:

* ``match --a A --b B --deals N`` — A against B on N deals, each in the six seatings (AAB ABA ABB
  BAA BAB BBA); TP/G of both, the difference with its 95% confidence interval, and the game-type
  breakdown. With ``--json`` the last line of stdout is one JSON object with every game's keys
  (``deals``, ``mean_a``, ``mean_b``, ``diff``, ``ci95_diff``, ``breakdown_a``, …);
  ``--log-format iss``: the log as ISS game records (``docs/iss.md``).
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

from .. import _game_cli, _match_cli
from .._cfrkit import SKAT_AGENT_SPECS
from .matches import _MATCHES
from .records import LOG_FORMATS, log_in_format

SEATS = ("Vorhand", "Mittelhand", "Hinterhand")


def _own(command: str, p: argparse.ArgumentParser) -> None:
    _match_cli.add_flags(_MATCHES, command, p)
    if command in ("match", "tournament", "selfplay"):
        p.add_argument(
            "--log-format",
            choices=LOG_FORMATS,
            default="cfrkit",
            help="cfrkit (JSON lines, default) or iss (the International Skat Server's records, docs/iss.md)",
        )


def _log(a: argparse.Namespace):
    return log_in_format(a.log, a.log_format, a.checkpoint)


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
    runners={**_match_cli.runners(_MATCHES, _log), "play": _play, "deal": _deal},
    own=_own,
    seats=SEATS,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit skat`` with ``argv`` (without the program and sub-command names); returns
    the exit status."""
    return _game_cli.main(CLI, argv)


if __name__ == "__main__":
    sys.exit(main())

"""``cfrkit schafkopf ...``: matches, tournaments, self-play, a game in the terminal, a deal — the
commands and flags of every game (``cfrkit._game_cli``, ``docs/commands.md``) and Schafkopf's own:

* ``match --a A --b B --deals N [--protocol schafkopfrl|rotation] [--rules schafkopfrl|standard]``
  — A against B on N deals, each in every seating of the protocol; cents per game of both and
  the difference with 95% confidence intervals, and how often each declared what. With
  ``--json`` the last line of stdout is one JSON object with every game's keys (``deals``,
  ``mean_a``, ``mean_b``, ``diff``, ``ci95_diff``, ``breakdown_a``, …).
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

from .. import _game_cli, _match_cli
from .._cfrkit import SCHAFKOPF_AGENT_SPECS
from .matches import _MATCHES

SEATS = ("", "", "", "")


def _own(command: str, p: argparse.ArgumentParser) -> None:
    _match_cli.add_flags(_MATCHES, command, p)
    if command in ("play", "deal"):
        p.add_argument("--rules", default="schafkopfrl", help="schafkopfrl (default) or standard")


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
    runners={**_match_cli.runners(_MATCHES), "play": _play, "deal": _deal},
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

"""The command line every trick-taking game shares: ``cfrkit GAME match|tournament|selfplay|play|deal``
with one set of flags, each with one meaning in every game (``--deals``, ``--a``/``--b``,
``--agents``, ``--agent``, ``--bots``, ``--seed``, ``--threads``, ``--json``, ``--log``,
``--force``, ``--checkpoint``, ``--ray``). A game brings its runners and adds only the flags that
are its own (Skat's ``--share-decisions``, Schafkopf's ``--rules``); ``docs/commands.md`` has the
table. Old spellings of the deal count (Setback's ``--pairs``, Schafkopf's ``--games``) still
work and say that they are deprecated."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence

from . import cli_args

Runner = Callable[[argparse.Namespace], int]
#: The commands every game has, in the order ``--help`` lists them.
COMMANDS = ("match", "tournament", "selfplay", "play", "deal")


@dataclasses.dataclass(frozen=True)
class GameCli:
    """One game's command line: its name and description, the agent specs its help names, what a
    deal of a match is played in (``seatings``, for ``--deals``' help), its ``runners`` (one per
    command of :data:`COMMANDS` it has, plus any commands of its own that ``more`` adds),
    ``own(command, parser)`` adding the game's own flags to a command, the deprecated spelling of
    ``--deals`` (``old_deals``), the names of the seats a person may take in ``play`` (``seats``,
    empty names for numbers only; none: the game seats them; ``default_seat`` unless told) and
    whether deals are numbered under a seed (``indexed``: ``--index``)."""

    name: str
    description: str
    agents: str
    seatings: str
    runners: dict[str, Runner]
    own: Callable[[str, argparse.ArgumentParser], None] = lambda command, parser: None
    old_deals: str | None = None
    more: Callable[[argparse._SubParsersAction], None] | None = None
    seats: tuple[str, ...] = ()
    default_seat: int = 0
    indexed: bool = True

    @property
    def prog(self) -> str:
        return f"cfrkit {self.name}"


class _Deprecated(argparse.Action):
    """An old spelling of a flag: stores into the new flag's place and says, once, on stderr,
    that it is deprecated."""

    def __init__(self, option_strings, dest, new: str, prog: str, **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new, self.prog = new, prog

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{self.prog}: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_deals(p: argparse.ArgumentParser, g: GameCli, help_text: str, default: int = 1000) -> None:
    """``--deals N`` (and the game's deprecated spelling of it)."""
    p.add_argument("--deals", type=cli_args.count(1), default=default, help=f"{help_text} (default {default})")
    if g.old_deals:
        p.add_argument(
            g.old_deals,
            dest="deals",
            type=cli_args.count(1),
            action=_Deprecated,
            new="--deals",
            prog=g.prog,
            help="deprecated spelling of --deals",
        )


def _run_options(p: argparse.ArgumentParser, g: GameCli, deals_help: str, checkpoint_help: str) -> None:
    add_deals(p, g, deals_help)
    p.add_argument("--seed", type=cli_args.seed, default=0, help="seed of deals and choices (default 0)")
    p.add_argument(
        "--threads",
        type=cli_args.threads,
        default=0,
        help="threads (default 0: CFRKIT_NUM_THREADS or all cores); results do not depend on it",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object on the last line")
    p.add_argument("--checkpoint", metavar="FILE", help=checkpoint_help)


def _deal_options(p: argparse.ArgumentParser, g: GameCli) -> None:
    """``--seed S`` and, where deals are numbered, ``--index I``: which deal."""
    p.add_argument("--seed", type=cli_args.seed, default=None, help="seed of the deal and the bots (default 0)")
    if g.indexed:
        p.add_argument("--index", type=cli_args.count(0), default=0, help="deal index under the seed (default 0)")


def parser(g: GameCli) -> argparse.ArgumentParser:
    """The game's parser: the shared commands it has, with the shared flags and its own."""
    p = cli_args.Parser(prog=g.prog, description=g.description)
    sub = p.add_subparsers(dest="command", required=True)
    played = f"deals, each played {g.seatings}"
    if "match" in g.runners:
        m = sub.add_parser("match", help="agent A against agent B on the same deals, with 95%% intervals")
        m.add_argument("--a", required=True, metavar="AGENT", help=f"agent A: {g.agents}")
        m.add_argument("--b", required=True, metavar="AGENT", help="agent B")
        _run_options(m, g, played, "save the figures to FILE after every part, and resume from it when it exists")
        cli_args.add_log_options(m)
        cli_args.add_ray_options(m)
        g.own("match", m)
    if "tournament" in g.runners:
        t = sub.add_parser("tournament", help="every pair of agents, and the cross table")
        t.add_argument("--agents", nargs="+", required=True, metavar="AGENT", help=f"two or more agents: {g.agents}")
        _run_options(
            t, g, played, "save every deal's result to FILE after every part, and resume from it (and the log)"
        )
        cli_args.add_log_options(t)
        cli_args.add_ray_options(t)
        g.own("tournament", t)
    if "selfplay" in g.runners:
        s = sub.add_parser("selfplay", help="one agent in every seat, one game per deal: a game log to learn from")
        s.add_argument("--agent", required=True, metavar="AGENT", help=f"the agent: {g.agents}")
        _run_options(
            s,
            g,
            "deals, each played once",
            "save the progress to FILE after every part, and resume from it (and the log)",
        )
        cli_args.add_log_options(
            s, required=True, text="the game log to write (JSON lines, see docs/logs.md; a new file)"
        )
        g.own("selfplay", s)
    if "play" in g.runners:
        y = sub.add_parser("play", help="play a game in the terminal against the game's bots")
        y.add_argument("--bots", default="rules", metavar="AGENT", help=f"the bots' agent (default rules): {g.agents}")
        if g.seats:
            seats = ", ".join(f"{i} ({name})" if name else str(i) for i, name in enumerate(g.seats))
            y.add_argument(
                "--seat",
                type=cli_args.integer(0, len(g.seats) - 1, f"a seat {seats}"),
                default=g.default_seat,
                help=f"your seat: {seats} (default {g.default_seat})",
            )
        _deal_options(y, g)
        g.own("play", y)
    if "deal" in g.runners:
        d = sub.add_parser("deal", help="a deal: every seat's hand, the seat to act and its legal actions")
        _deal_options(d, g)
        d.add_argument("--json", action="store_true", help="print the deal as one JSON object")
        g.own("deal", d)
    if g.more is not None:
        g.more(sub)
    return p


def main(g: GameCli, argv: Sequence[str] | None) -> int:
    """Runs ``cfrkit GAME`` with ``argv`` (without the program and game names); returns the exit
    status."""

    def command() -> int:
        args = parser(g).parse_args(cli_args.argv_or_sys(argv))
        if getattr(args, "seed", 0) is None:  # play's and deal's: 0 unless given (Setback's --hands)
            args.seed, args.seed_given = 0, False
        cli_args.replace_if_forced(args)
        return g.runners[args.command](args)

    return cli_args.run(g.prog, command)


def emit_json(record: dict) -> None:
    """Prints ``record`` as the last line of stdout (after anything printed before it)."""
    sys.stdout.flush()
    print(json.dumps(record, sort_keys=True))


def print_deal(
    seats: Sequence[str], hands: Sequence[Sequence[str]], player: int | None, legal: Sequence[str], extra: dict
) -> None:
    """Prints a deal as ``deal`` shows it: one line per seat, ``extra`` lines (Skat's skat), and
    the seat to act with its legal actions."""
    for name, hand in zip(seats, hands):
        print(f"{name}: {' '.join(hand)}")
    for key, value in extra.items():
        print(f"{key}: {value}")
    if player is None:
        print("to act: nobody (the deal is over)")
    else:
        print(f"to act: {seats[player]}; legal: {' '.join(legal)}")


def deal_record(game: str, seed: int, index: int, hands, player, legal, **extra) -> dict:
    """The ``deal --json`` record of every game."""
    return {
        "command": "deal",
        "game": game,
        "seed": seed,
        "index": index,
        "hands": [list(h) for h in hands],
        "player": player,
        "legal_actions": list(legal),
        **extra,
    }


def flags_table(games: Sequence[GameCli]) -> str:
    """The markdown table of every command and flag of ``games`` (rows) by game (columns): ``x``
    where the game has it. ``docs/commands.md`` holds it; a test keeps the two equal."""
    rows: dict[tuple[str, str], set[str]] = {}
    for g in games:
        sub = next(a for a in parser(g)._actions if isinstance(a, argparse._SubParsersAction))
        for command, p in sub.choices.items():
            for action in p._actions:
                if action.option_strings and action.dest != "help":
                    flag = max(action.option_strings, key=len)
                    if isinstance(action, _Deprecated):
                        flag += " (deprecated)"
                    rows.setdefault((command, flag), set()).add(g.name)
    order = {c: i for i, c in enumerate(COMMANDS)}
    lines = ["| command | flag | " + " | ".join(g.name for g in games) + " |", "|---|---|" + "---|" * len(games)]
    for command, flag in sorted(rows, key=lambda k: (order.get(k[0], len(order)), k[0])):
        marks = " | ".join("x" if g.name in rows[(command, flag)] else "" for g in games)
        lines.append(f"| {command} | `{flag}` | {marks} |")
    return "\n".join(lines) + "\n"

"""A game of Schafkopf in the terminal: a person in one seat, bots in the others.

The person types an action's name (``pass``, ``sauspiel:G``, ``no``, ``contra``, ``EO``,
``H10``; any case) or its number in the menu shown; ``?`` shows the whole list again. Hands and
card menus are in trump order (Obers, Unters, then the trump suit; the contract's trumps once it
is known), then the plain suits. Illegal input is refused with the reason ("must follow trump",
"must play the called Ace", …) and asked again. When everyone passes the deal is passed in and
nothing more is asked. ``quit`` ends the game with one line; so does the end of input (an error
line from the CLI, exit status 2).
"""

from __future__ import annotations

from typing import Callable, Optional, TextIO

from .._background import interruptible
from .._cfrkit import SchafkopfGame as Game
from .._terminal import Console, say_tricks, where_in
from .agents import agent as make_agent

SUITS = {"S": "Schellen", "H": "Herz", "G": "Gras", "E": "Eichel"}
SUIT_ORDER = "EGHS"
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7")
#: What the player team needs to win, in every contract.
NEEDED = 61


def card_order(contract: Optional[str]) -> Callable[[str], tuple]:
    """The sort key of cards in trump order for ``contract`` (a Sauspiel's before one is known):
    trumps high to low (Obers E G H S, Unters E G H S, the trump suit A 10 K 9 8 7; in a Wenz and
    the play-out after four passes only the Unters), then the plain suits E G H S, high to low."""
    kind, _, suit = (contract or "sauspiel").partition(":")
    if kind in ("wenz", "passed"):
        trump_ranks, trump_suit = ("U",), None
    else:
        trump_ranks, trump_suit = ("O", "U"), suit if kind == "solo" else "H"

    def key(c: str) -> tuple:
        s, r = c[0], c[1:]
        if r in trump_ranks:
            return (0, trump_ranks.index(r), SUIT_ORDER.index(s))
        if s == trump_suit:
            return (1, 0, RANKS.index(r))
        return (2, SUIT_ORDER.index(s), RANKS.index(r))

    return key


def _sorted(cards, contract: Optional[str]) -> list[str]:
    return sorted(cards, key=card_order(contract))


def _describe_contract(g: Game) -> str:
    c = g.contract
    if c in (None, "passed"):
        return "everyone passed: the deal is passed in and nobody pays"
    kind, _, suit = c.partition(":")
    what = {"sauspiel": f"a Sauspiel calling the {SUITS.get(suit, suit)} Ace", "wenz": "a Wenz"}.get(
        kind, f"a {SUITS.get(suit, suit)} Solo"
    )
    return f"seat {g.declarer} plays {what}"


def _settlement_line(s: dict) -> str:
    result = "won" if s["won"] else "lost"
    extra = ", ".join(
        x
        for x, on in (
            ("Schwarz", s["schwarz"]),
            ("Schneider", s["schneider"]),
            (f"{s['laufende']} Laufende", s["laufende_paid"]),
            (f"doubled x{2 ** s['doublings']}", s["doublings"] > 0),
        )
        if on
    )
    team = " and ".join(str(x) for x in s["team"])
    return (
        f"the player team (seat {team}) {result} with {s['team_points']} card points ({NEEDED} needed)"
        + (f"; {extra}" if extra else "")
    )


def play_terminal(
    bots: str,
    *,
    seat: int = 0,
    seed: int = 0,
    index: int = 0,
    rules: str = "schafkopfrl",
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> int:
    """Plays one game with a person at ``seat`` (reading answers with ``read``) against ``bots``
    in the other seats; returns 0 when the game is over or the person typed ``quit``. End of
    input raises :class:`~cfrkit.InvalidArgumentError` (one line from the CLI)."""
    bot = make_agent(bots)
    g = Game.random(seed=seed, rules=rules, index=index)
    con = Console(read, out, lambda: where_in(g))
    say = con.say

    def hand() -> str:
        return " ".join(_sorted(g.view(seat).hand, g.contract))

    def passed_in() -> bool:
        return g.phase != "bidding" and g.contract in (None, "passed")

    def game() -> None:
        phase, tricks_seen = None, 0
        while not g.finished and not passed_in():
            if g.phase != phase:
                if g.phase == "contra":
                    say(_describe_contract(g) + f"; your hand in its order: {hand()}")
                phase = g.phase
                say(f"-- {phase} --")
            if g.player != seat:
                who, action = interruptible(lambda: g.agent_move(bot, seed=seed))
                say(f"seat {who} ({bot.name}): {action}")
            else:
                legal = g.legal_actions()
                if g.phase == "tricks":
                    trick = " ".join(g.current_trick) or "(you lead)"
                    say(f"Trick {g.tricks_done + 1}: {trick}   your hand: {hand()}")
                    legal = _sorted(legal, g.contract)
                con.choose("Your move", legal, lambda a: g.why_illegal(a) or g.play(a))
            tricks_seen = say_tricks(con, g, tricks_seen)
        say("-- finished --")
        if passed_in():
            say(_describe_contract(g) + ".")
        else:
            say(f"card points by seat: {g.scores}")
            s = g.settlement()
            if s and s["contract"]:
                say(_settlement_line(s))
        say(f"payments in cents: {g.returns()} (you: {g.returns()[seat]:+d})")

    say(f"Schafkopf ({g.rules} rules), deal {index} of seed {seed}. You are seat {seat}; seat {g.dealer} deals.")
    say(f"Your hand: {hand()}  (type quit to stop)")
    con.play(game)
    return 0


__all__ = ["card_order", "play_terminal"]

"""A game of Schafkopf in the terminal: a person in one seat, bots in the others.

The person types an action's name (``pass``, ``sauspiel:G``, ``no``, ``contra``, ``EO``,
``H10``; any case) or its number in the list shown; ``?`` shows the list again. Illegal input is
refused with the reason ("must follow trump", "must play the called Ace", …) and asked again.
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from .._cfrkit import SchafkopfGame as Game
from ..errors import InvalidArgumentError
from .agents import agent as make_agent

SUITS = {"S": "Schellen", "H": "Herz", "G": "Gras", "E": "Eichel"}


def _describe_contract(g: Game) -> str:
    c = g.contract
    if c is None:
        return "everyone passed: the deal is over"
    if c == "passed":
        return f"everyone passed: the hand is played out in Wenz order for nothing (dealer {g.declarer})"
    kind, _, suit = c.partition(":")
    what = {"sauspiel": f"a Sauspiel calling the {SUITS.get(suit, suit)} Ace", "wenz": "a Wenz"}.get(
        kind, f"a {SUITS.get(suit, suit)} Solo"
    )
    return f"seat {g.declarer} plays {what}"


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
    in the other seats; returns 0 when the game is over."""
    out = out or sys.stdout
    bot = make_agent(bots)
    g = Game.random(seed=seed, rules=rules, index=index)

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"Schafkopf ({g.rules} rules), deal {index} of seed {seed}. You are seat {seat}; seat {g.dealer} deals.")
    say(f"Your hand: {' '.join(g.view(seat).hand)}")
    phase, tricks_seen = None, 0
    while not g.finished:
        if g.phase != phase:
            if g.phase == "contra" and g.contract is not None:
                say(_describe_contract(g) + ".")
            phase = g.phase
            say(f"-- {phase} --")
        p = g.player
        if p != seat:
            who, action = g.agent_move(bot, seed=seed)
            say(f"seat {who} ({bot.name}): {action}")
        else:
            legal = g.legal_actions()
            view = g.view(seat)
            if g.phase == "tricks":
                trick = " ".join(view.current_trick) or "(you lead)"
                say(f"Trick {view.tricks_done + 1}: {trick}   your hand: {' '.join(view.hand)}")
            menu = "  ".join(f"{i + 1}) {a}" for i, a in enumerate(legal))
            while True:
                try:
                    text = read(f"Your move [{menu}]: ").strip()
                except EOFError:
                    raise InvalidArgumentError("invalid value for input: it ended before the game did") from None
                if text in ("?", "help", ""):
                    say(f"legal: {', '.join(legal)}")
                    continue
                if text.isdigit() and 1 <= int(text) <= len(legal):
                    text = legal[int(text) - 1]
                try:
                    why = g.why_illegal(text)
                except InvalidArgumentError as e:
                    why = str(e)
                if why is None:
                    g.play(text)
                    break
                say(f"rejected: {why}")
        if g.tricks_done > tricks_seen:
            t = tricks_seen
            winner = g.trick_winners[t]
            say(f"  trick {t + 1}: {' '.join(g.tricks[t])} (led by seat {g.trick_leaders[t]}) -> seat {winner}")
            tricks_seen = g.tricks_done
    say("-- finished --")
    if g.contract is None:
        say(_describe_contract(g) + ".")
    s = g.settlement()
    say(f"card points by seat: {g.scores}")
    if s and s["contract"] and s["contract"] != "passed":
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
        say(f"the player team (seat {team}) {result} with {s['team_points']} points" + (f" ({extra})" if extra else ""))
    say(f"payments in cents: {g.returns()} (you: {g.returns()[seat]:+d})")
    return 0


__all__ = ["play_terminal"]

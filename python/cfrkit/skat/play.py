"""A game of Skat in the terminal: a person in one seat, bots in the others.

The person types an action's name (``pass``, ``18``, ``hold``, ``hand``, ``pickup``, a discard
``SA ST``, a contract ``clubs``, a card ``CJ``; any case) or its number in the list shown; ``?``
shows the list again. Illegal input is refused with the reason ("must follow trump", "a bid must
be above the current value", …) and asked again. End of input or Ctrl-C ends the game with one
line.
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from .._cfrkit import SkatGame as Game
from ..errors import InvalidArgumentError
from .agents import agent as make_agent

SEATS = ("Vorhand", "Mittelhand", "Hinterhand")


def _shown(cards) -> str:
    """Cards for people: Jacks first (C S H D), then by suit C S H D and rank A T K Q 9 8 7."""

    def key(c: str) -> tuple:
        suit, rank = "CSHD".index(c[0]), c[1]
        return (0, suit, 0) if rank == "J" else (1, suit, "ATKQ987".index(rank))

    return " ".join(sorted(cards, key=key))


def play_terminal(
    bots: str,
    *,
    seat: int = 0,
    seed: int = 0,
    index: int = 0,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> int:
    """Plays one game with a person at ``seat`` (reading answers with ``read``) against ``bots``
    in the other seats; returns 0 when the game is over. End of input raises
    :class:`~cfrkit.InvalidArgumentError` (one line from the CLI)."""
    out = out or sys.stdout
    bot = make_agent(bots)
    g = Game.random(seed=seed, index=index)

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"Skat, deal {index} of seed {seed}. You are seat {seat} ({SEATS[seat]}); bots: {bot.name}.")
    say(f"Your hand: {_shown(g.hands[seat])}")
    phase, tricks_seen = None, 0
    while not g.finished:
        if g.phase != phase:
            phase = g.phase
            if phase == "skat":
                say(f"seat {g.declarer} ({SEATS[g.declarer]}) declares at {g.bid}.")
            if phase == "tricks":
                hand = "Hand" if g.hand_game else "after a pickup"
                say(f"seat {g.declarer} plays {g.contract} ({hand}) at a bid of {g.bid}.")
                if g.open_hand is not None and g.declarer != seat:
                    say(f"open hand of seat {g.declarer}: {_shown(g.open_hand)}")
            say(f"-- {phase} --")
        p = g.player
        if p != seat:
            who, action = g.agent_move(bot, seed=seed)
            say(f"seat {who} ({bot.name}): {'(puts two cards away)' if phase == 'discard' else action}")
        else:
            legal = g.legal_actions()
            if g.phase == "tricks":
                trick = " ".join(g.current_trick) or "(you lead)"
                say(f"Trick {g.tricks_done + 1}: {trick}   your hand: {_shown(g.hands[seat])}")
            elif g.phase in ("discard", "declare", "skat"):
                skat = f"; skat: {' '.join(g.skat)}" if phase == "discard" else ""
                say(f"your cards: {_shown(g.hands[seat])}{skat}")
            if len(legal) <= 30:
                menu = "  ".join(f"{i + 1}) {a}" for i, a in enumerate(legal))
            else:
                menu = ", ".join(legal[:4]) + ", … (? for the list)"
            while True:
                try:
                    text = read(f"Your move [{menu}]: ").strip()
                except EOFError:
                    raise InvalidArgumentError("invalid value for input: it ended before the game did") from None
                if text in ("?", "help", ""):
                    say(f"legal: {', '.join(legal)}")
                    continue
                if text.isdigit() and 1 <= int(text) <= len(legal) and g.phase != "bidding":
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
            cards, leader, winner = " ".join(g.tricks[t]), g.trick_leaders[t], g.trick_winners[t]
            say(f"  trick {t + 1}: {cards} (led by seat {leader}) -> seat {winner}")
            tricks_seen = g.tricks_done
    say("-- finished --")
    r = g.result()
    if r is None or r["declarer"] is None:
        say("everyone passed: the deal is thrown in.")
    else:
        say(f"skat: {' '.join(g.skat)}; put away: {' '.join(g.put_away)}")
        result = "won" if r["won"] else "lost"
        say(
            f"seat {r['declarer']} {result} {r['contract']} with {r['declarer_points']} card points and "
            f"{r['declarer_tricks']} tricks: value {r['value']}, list score {r['list_score']:+d}"
        )
    tp = g.returns()
    say(f"Seeger-Fabian points: {tp} (you: {tp[seat]:+d})")
    return 0


__all__ = ["play_terminal"]

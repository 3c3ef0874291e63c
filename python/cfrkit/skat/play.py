"""A game of Skat in the terminal: a person in one seat, bots in the others.

The person types an action's name (``pass``, ``18``, ``hold``, ``hand``, ``pickup``, a contract
``clubs``, a card ``CJ``; any case) or its number in the menu shown; a bid is typed as its value
(the bidding menu shows the values, not numbers), a discard as two cards (``SA ST``) or their
two numbers in the list of the twelve cards (``3 7``). ``?`` shows the whole list again. Illegal
input is refused with the reason ("must follow trump", "a bid must be above the current value",
…) and asked again. ``quit`` ends the game with one line; so does the end of input (an error
line from the CLI, exit status 2).
"""

from __future__ import annotations

from typing import Callable, Optional, TextIO

from .._background import interruptible
from .._cfrkit import SkatGame as Game
from .._terminal import Console, say_tricks, where_in
from .agents import agent as make_agent

SEATS = ("Vorhand", "Mittelhand", "Hinterhand")
SUIT_ORDER = "CSHD"
TRUMP_SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}


def card_order(contract: Optional[str]) -> Callable[[str], tuple]:
    """The sort key of cards as people hold them in ``contract`` (a grand's order before one is
    declared): Jacks C S H D, the trump suit, then the suits C S H D, each A T K Q 9 8 7; in a
    null game no Jacks first and each suit A K Q J T 9 8 7."""
    kind = (contract or "grand").split()[0]
    if kind == "null":
        return lambda c: (SUIT_ORDER.index(c[0]), "AKQJT987".index(c[1]))
    trump = TRUMP_SUITS.get(kind)

    def key(c: str) -> tuple:
        if c[1] == "J":
            return (0, SUIT_ORDER.index(c[0]), 0)
        return (1 if c[0] == trump else 2, SUIT_ORDER.index(c[0]), "ATKQ987".index(c[1]))

    return key


def _sorted(cards, contract: Optional[str]) -> list[str]:
    return sorted(cards, key=card_order(contract))


def _shown(cards, contract: Optional[str] = None) -> str:
    return " ".join(_sorted(cards, contract))


def _needed(contract: str) -> str:
    """What the declarer of ``contract`` needs to win."""
    words = contract.split()
    if words[0] == "null":
        return "null is won by taking no trick"
    if "schwarz" in words or "ouvert" in words:
        return "all ten tricks needed"
    return f"{90 if 'schneider' in words else 61} card points needed"


def _met(r: dict) -> bool:
    """Whether the declarer reached what the contract needs (a lost game that did is overbid)."""
    words = r["contract"].split()
    if words[0] == "null":
        return r["declarer_tricks"] == 0
    if "schwarz" in words or "ouvert" in words:
        return r["declarer_tricks"] == 10
    return r["declarer_points"] >= (90 if "schneider" in words else 61)


def result_line(r: dict) -> str:
    """The declarer's result in words, with what the contract needed."""
    result = "won" if r["won"] else "lost"
    line = (
        f"seat {r['declarer']} {result} {r['contract']} with {r['declarer_points']} card points and "
        f"{r['declarer_tricks']} trick{'' if r['declarer_tricks'] == 1 else 's'} ({_needed(r['contract'])})"
    )
    if not r["won"] and _met(r):
        line += f", overbid: the game was worth less than the bid of {r['bid']}"
    return line + f": value {r['value']}, list score {r['list_score']:+d}"


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
    in the other seats; returns 0 when the game is over or the person typed ``quit``. End of
    input raises :class:`~cfrkit.InvalidArgumentError` (one line from the CLI)."""
    bot = make_agent(bots)
    g = Game.random(seed=seed, index=index)
    con = Console(read, out, lambda: where_in(g))
    say = con.say

    def discard(answer: str) -> Optional[str]:
        cards = answer.upper().split()
        held = set(g.hands[seat])
        if len(cards) != 2 or cards[0] == cards[1]:
            return "put away two different cards of the twelve, e.g. SA ST, or their numbers, e.g. 3 7"
        missing = [c for c in cards if c not in held]
        if missing:
            return f"{missing[0]} is not one of your twelve cards"
        return g.why_illegal(answer) or g.play(answer)

    def game() -> None:
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
                        say(f"open hand of seat {g.declarer}: {_shown(g.open_hand, g.contract)}")
                say(f"-- {phase} --")
            if g.player != seat:
                who, action = interruptible(lambda: g.agent_move(bot, seed=seed))
                say(f"seat {who} ({bot.name}): {'(puts two cards away)' if phase == 'discard' else action}")
            elif phase == "discard":
                twelve = _sorted(g.hands[seat], None)  # the skat picked up included
                say(f"your cards: {' '.join(twelve)}; the skat held {' '.join(g.skat)}")
                prompt = "Put two cards away: type the two cards (e.g. SA ST) or their numbers (e.g. 3 7)"
                con.choose(prompt, twelve, discard)
            else:
                legal = g.legal_actions()
                if phase == "tricks":
                    trick = " ".join(g.current_trick) or "(you lead)"
                    say(f"Trick {g.tricks_done + 1}: {trick}   your hand: {_shown(g.hands[seat], g.contract)}")
                    legal = _sorted(legal, g.contract)
                elif phase in ("declare", "skat"):
                    say(f"your cards: {_shown(g.hands[seat])}")
                prompt = "Your bid" if phase == "bidding" else "Your move"
                con.choose(prompt, legal, lambda a: g.why_illegal(a) or g.play(a))
            tricks_seen = say_tricks(con, g, tricks_seen)
        say("-- finished --")
        r = g.result()
        if r is None or r["declarer"] is None:
            say("everyone passed: the deal is thrown in.")
        else:
            say(f"skat: {' '.join(g.skat)}; put away: {' '.join(g.put_away)}")
            say(result_line(r))
        tp = g.returns()
        say(f"Seeger-Fabian points: {tp} (you: {tp[seat]:+d})")

    say(f"Skat, deal {index} of seed {seed}. You are seat {seat} ({SEATS[seat]}); bots: {bot.name}.")
    say(f"Your hand: {_shown(g.hands[seat])}  (type quit to stop)")
    con.play(game)
    return 0


__all__ = ["card_order", "play_terminal", "result_line"]

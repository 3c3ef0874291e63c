"""Play a game of Setback in the terminal: you sit South with a bot partner (North) against two
bots (West and East). The game shows your hand, the auction, each trick, the points of each
deal and the score, and asks again (with the reason) when an input is not a legal move.

Run it with ``cfrkit setback play [--bots AGENT] [--seed S]``.
"""

from __future__ import annotations

import random
import sys
from typing import Callable, Optional, TextIO

from .._cfrkit import SetbackGame as Game
from ..errors import CfrkitError
from .agents import AgentLike, agent

SEATS = ("West", "North", "East", "South")
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
HUMAN = 3
TEAM_NAMES = ("West-East", "North-South")


class Quit(Exception):
    """The person typed ``quit`` or closed the input."""


def _bid_name(b: int) -> str:
    return "pass" if b == 0 else str(b)


def _hand_text(hand: list[str]) -> str:
    by_suit: dict[str, list[str]] = {s: [] for s in "SHDC"}
    order = "23456789TJQKA"
    for c in hand:
        by_suit[c[1]].append(c)
    parts = []
    for s in "SHDC":
        if by_suit[s]:
            parts.append(" ".join(sorted(by_suit[s], key=lambda c: -order.index(c[0]))))
    return "   ".join(parts)


def _parse_bid(text: str) -> Optional[int]:
    t = text.strip().lower()
    if t in ("p", "pass", "0"):
        return 0
    if t in ("2", "3", "4"):
        return int(t)
    return None


def play_game(
    bots: AgentLike = "rules",
    *,
    seed: Optional[int] = None,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    """Plays one game to 11 with a person at South; returns the winning team (1 = the person's).

    ``read(prompt)`` returns a line of input (``input`` by default); ``quit`` or end of input
    raises :class:`Quit`.
    """
    bot = agent(bots)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    game = Game(seed=seed)

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=out)
        out.flush()

    def ask(prompt: str) -> str:
        try:
            line = read(prompt)
        except EOFError:
            raise Quit from None
        if line.strip().lower() in ("q", "quit", "exit"):
            raise Quit
        return line

    say(
        f"Setback to 11. You are South, partnered with North ({bot.name}); West and East are {bot.name}.",
        f"Seed {seed}. Type a bid as pass, 2, 3 or 4, and a card as rank+suit, e.g. TD or AS; quit to stop.",
    )
    deal_no = 0
    while game.winner is None:
        deal_no += 1
        ns, we = game.scores[1], game.scores[0]
        say(
            "",
            f"=== Deal {deal_no}: {SEATS[game.dealer]} deals. Score: North-South {ns}, West-East {we} ===",
            f"Your hand: {_hand_text(game.view(HUMAN).hand)}",
        )
        trick: list[tuple[int, str]] = []
        trump_said = False
        while not game.deal_over:
            seat = game.to_act
            if game.phase == "auction":
                if seat == HUMAN:
                    view = game.view(HUMAN)
                    legal = ", ".join(_bid_name(b) for b in view.legal_bids())
                    while True:
                        text = ask(f"Your bid ({legal}): ")
                        b = _parse_bid(text)
                        if b is None:
                            say(f"  Not a bid: {text.strip()!r}. Type pass, 2, 3 or 4 (legal now: {legal}).")
                            continue
                        try:
                            game.bid(b)
                        except CfrkitError as e:
                            say(f"  Illegal bid: {e}")
                            continue
                        break
                    say(f"  You bid {_bid_name(b)}.")
                else:
                    _, _, b = game.agent_move(bot)
                    say(f"  {SEATS[seat]} bids {_bid_name(b)}.")
                if game.phase != "auction":
                    hb = game.high_bidder
                    if hb is None:
                        say("  Everybody passed: the deal is thrown in.")
                    else:
                        say(f"  {SEATS[hb]} wins the auction with {game.view(hb).high_bid} and leads.")
                continue
            if seat == HUMAN:
                view = game.view(HUMAN)
                if trick:
                    say("  Trick so far: " + ", ".join(f"{SEATS[s]} {c}" for s, c in trick))
                say(f"  Your hand: {_hand_text(view.hand)}")
                legal = view.legal_cards()
                while True:
                    text = ask(f"Your card ({' '.join(legal)}): ").strip().upper()
                    try:
                        game.play_card(text)
                    except CfrkitError as e:
                        say(f"  Illegal card: {e}")
                        continue
                    break
                card = text
                say(f"  You play {card}.")
            else:
                _, _, card = game.agent_move(bot)
                say(f"  {SEATS[seat]} plays {card}.")
            trick.append((seat, card))
            if not trump_said:
                trump_said = True
                say(f"  Trump is {SUITS[card[1]]}.")
            if len(trick) == 4:
                v = game.view(HUMAN)
                winner = (game.dealer + v.leader) % 4
                say(
                    f"  Trick {v.tricks_done}: "
                    + ", ".join(f"{SEATS[s]} {c}" for s, c in trick)
                    + f" -> {SEATS[winner]} takes it."
                )
                trick = []
        points = game.deal_points()
        bidder = game.high_bidder
        rec = game.next_deal()
        if bidder is not None:
            team = bidder % 2
            made = rec["score"][team] >= 0
            say(
                f"Deal {deal_no}: points taken North-South {points[1]}, West-East {points[0]}; "
                f"{SEATS[bidder]} bid {max(rec['bids'])} and " + ("made it." if made else "was set back."),
                f"Deal score: North-South {rec['score'][1]:+d}, West-East {rec['score'][0]:+d}.",
            )
    ns, we = game.scores[1], game.scores[0]
    w = game.winner
    say(
        "",
        f"Game over: {TEAM_NAMES[w]} win, North-South {ns} to West-East {we}."
        + (" You and North win!" if w == 1 else " West and East win."),
    )
    return w


__all__ = ["Game", "Quit", "SEATS", "play_game"]

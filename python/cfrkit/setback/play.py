"""Play a game of Setback in the terminal: you sit in one seat (South by default) with a bot
partner across the table against two bots. The game shows your hand, the auction, each trick, the points of each
deal (High, Low, Jack and Game, and which team won each) and the score, and asks again (with
the reason: must follow suit, a bid above the high bid, …) when an input is not a legal move.
A bid is typed as ``pass``, ``2``, ``3`` or ``4``; a card as its name (``TD``) or its number in
the menu shown; ``?`` shows the menu again. ``quit`` ends the game with one line; so does the
end of input (an error line from the CLI, exit status 2).

Run it with ``cfrkit setback play [--bots AGENT] [--seat S] [--seed S]``.
"""

from __future__ import annotations

import random
from typing import Callable, Optional, Sequence, TextIO

from .. import _deprecated
from .._background import interruptible
from .._cfrkit import SetbackGame as Game
from .._terminal import Console
from ..errors import InvalidArgumentError
from .agents import AgentLike, agent

SEATS = ("West", "North", "East", "South")
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: The person's seat unless told: South.
HUMAN = 3
TEAM_NAMES = ("West-East", "North-South")
RANKS = "23456789TJQKA"
GAME_POINTS = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}


def _bid_name(b: int) -> str:
    return "pass" if b == 0 else str(b)


def _card_key(c: str) -> tuple:
    """Cards as shown: by suit S H D C, high to low."""
    return ("SHDC".index(c[1]), -RANKS.index(c[0]))


def _hand_text(hand: Sequence[str]) -> str:
    parts: dict[str, list[str]] = {}
    for c in sorted(hand, key=_card_key):
        parts.setdefault(c[1], []).append(c)
    return "   ".join(" ".join(cards) for cards in parts.values())


def parse_bid(text: str) -> Optional[int]:
    """The bid typed (0 for ``pass`` or ``p``), or None when ``text`` is not a bid."""
    t = text.strip().lower()
    return 0 if t in ("p", "pass") else int(t) if t in ("2", "3", "4") else None


def bid_reason(legal: Sequence[int], high: int, text: str) -> Optional[str]:
    """Why ``text`` is not a legal bid when ``legal`` are and ``high`` is the high bid (None
    when it is legal)."""
    b = parse_bid(text)
    if b is None:
        return f"not a bid: {text.strip()!r}; type pass, 2, 3 or 4"
    if b in legal:
        return None
    if high == 4:
        return "a Four has been bid and only the dealer may take it: you may only pass"
    return f"a bid must be above the high bid of {high}, or pass"


def card_reason(hand: Sequence[str], trick: Sequence[str], trump: Optional[str], card: str) -> str:
    """Why ``card`` may not be played to ``trick`` (its cards so far) from ``hand``, a card that
    is not legal there."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        return f"not a card: {card!r}; type a rank 2-9, T, J, Q, K or A and a suit C, D, H or S, e.g. TD or AS"
    if card not in hand:
        return f"you do not hold {card}"
    led = trick[0][1] if trick else None
    if led is not None and led == trump:
        return f"must follow trump ({SUITS[trump]})"
    if led is not None:
        return f"must follow {SUITS[led]} (or play a trump)"
    return "not a legal card now"


def points_won(
    hands: Sequence[Sequence[str]], tricks: Sequence[tuple[int, Sequence[str]]], trump: str
) -> list[tuple[str, Optional[int]]]:
    """The deal's points, each in words with the team that won it (None: nobody): High (the
    highest trump dealt, to its holder's team), Low (the lowest trump dealt, to the team that
    took it), Jack (the Jack of trump, to the team that took it; not a point when not dealt)
    and Game (more game points taken, T 10 A 4 K 3 Q 2 J 1; nobody's on a tie). ``hands`` are
    the dealt hands by seat, ``tricks`` the (winning seat, cards) of every trick."""
    captor = {c: winner % 2 for winner, cards in tricks for c in cards}
    trumps = sorted((RANKS.index(c[0]), c, seat % 2) for seat, h in enumerate(hands) for c in h if c[1] == trump)
    (_, high, high_team), (_, low, _) = trumps[-1], trumps[0]
    won: list[tuple[str, Optional[int]]] = [(f"High {high}", high_team), (f"Low {low}", captor[low])]
    jack = "J" + trump
    if jack in captor:
        won.append((f"Jack {jack}", captor[jack]))
    game = [0, 0]
    for winner, cards in tricks:
        game[winner % 2] += sum(GAME_POINTS.get(c[0], 0) for c in cards)
    ns, we = game[1], game[0]
    won.append((f"Game (North-South {ns}, West-East {we})", None if ns == we else int(ns > we)))
    return won


def points_text(won: Sequence[tuple[str, Optional[int]]]) -> str:
    """``High AD: North-South; Low 3D: West-East; …`` (no Jack when it was not dealt)."""
    return "; ".join(f"{what}: {TEAM_NAMES[team] if team is not None else 'nobody'}" for what, team in won)


def play_terminal(
    bots: AgentLike = "rules",
    *,
    seat: int = HUMAN,
    seed: Optional[int] = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Optional[int]:
    """Plays one game to 11 with a person at ``seat`` (0 West, 1 North, 2 East, 3 South, the
    default); returns the winning team (0 West-East, 1 North-South; the person's is ``seat %
    2``), or ``None`` when the person typed ``quit`` (one line says where the game was left).

    ``read(prompt)`` returns a line of input (``input`` by default); the end of input raises
    :class:`~cfrkit.InvalidArgumentError`.
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise InvalidArgumentError(f"invalid value for seat: {seat!r} (0 West, 1 North, 2 East or 3 South)")
    me, partner = seat, (seat + 2) % 4
    bot = agent(bots)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    game = Game(seed=seed)
    deal_no = 0

    def where() -> str:
        if game.phase == "auction":
            return f"in the auction of deal {deal_no}"
        return f"in deal {deal_no}, at trick {game.view(me).tricks_done + 1}"

    con = Console(read, out, where)
    say = con.say

    def human_bid() -> None:
        view = game.view(me)
        legal = view.legal_bids()

        def act(text: str) -> Optional[str]:
            why = bid_reason(legal, view.high_bid, text)
            if why is None:
                game.bid(parse_bid(text))
            return why

        answer = con.choose("Your bid", [_bid_name(b) for b in legal], act)
        say(f"  You bid {_bid_name(parse_bid(answer))}.")

    def human_card() -> str:
        view = game.view(me)
        say(f"  Your hand: {_hand_text(view.hand)}")
        legal = sorted(view.legal_cards(), key=_card_key)

        def act(text: str) -> Optional[str]:
            card = text.upper()
            if card not in legal:
                return card_reason(view.hand, view.trick, view.trump, card)
            game.play_card(card)
            return None

        card = con.choose("Your card", legal, act).upper()
        say(f"  You play {card}.")
        return card

    def deal() -> None:
        trick: list[tuple[int, str]] = []
        tricks: list[tuple[int, list[str]]] = []
        trump: Optional[str] = None
        while not game.deal_over:
            seat = game.to_act
            if game.phase == "auction":
                if seat == me:
                    human_bid()
                else:
                    _, _, b = interruptible(lambda: game.agent_move(bot))
                    say(f"  {SEATS[seat]} bids {_bid_name(b)}.")
                if game.phase != "auction":
                    hb = game.high_bidder
                    if hb is None:
                        say("  Everybody passed: the deal is thrown in.")
                    else:
                        say(f"  {SEATS[hb]} wins the auction with {game.view(hb).high_bid} and leads.")
                continue
            if seat == me:
                if trick:
                    say("  Trick so far: " + ", ".join(f"{SEATS[s]} {c}" for s, c in trick))
                card = human_card()
            else:
                _, _, card = interruptible(lambda: game.agent_move(bot))
                say(f"  {SEATS[seat]} plays {card}.")
            trick.append((seat, card))
            if trump is None:
                trump = card[1]
                say(f"  Trump is {SUITS[trump]}.")
            if len(trick) == 4:
                v = game.view(me)
                winner = (game.dealer + v.leader) % 4
                say(
                    f"  Trick {v.tricks_done}: "
                    + ", ".join(f"{SEATS[s]} {c}" for s, c in trick)
                    + f" -> {SEATS[winner]} takes it."
                )
                tricks.append((winner, [c for _, c in trick]))
                trick = []
        points = game.deal_points()
        bidder = game.high_bidder
        rec = game.next_deal()
        if bidder is not None:
            team = bidder % 2
            made = rec["score"][team] >= 0
            won = points_won(rec["hands"], tricks, trump) if trump else []
            by_team = tuple(sum(t == team for _, t in won) for team in (0, 1))
            say(
                f"Deal {deal_no}: points taken North-South {points[1]}, West-East {points[0]}; "
                f"{SEATS[bidder]} bid {max(rec['bids'])} and " + ("made it." if made else "was set back.")
            )
            if won and by_team == tuple(points):
                say(f"  Points: {points_text(won)}.")
            say(f"Deal score: North-South {rec['score'][1]:+d}, West-East {rec['score'][0]:+d}.")

    def whole_game() -> int:
        nonlocal deal_no
        say(
            f"Setback to 11. You are {SEATS[me]}, partnered with {SEATS[partner]} ({bot.name}); "
            f"{SEATS[(me + 1) % 4]} and {SEATS[(me + 3) % 4]} are {bot.name}.",
            f"Seed {seed}. Type a bid as pass, 2, 3 or 4, and a card as rank+suit, e.g. TD or AS, "
            "or its number; ? lists the choices; quit stops.",
        )
        while game.winner is None:
            deal_no += 1
            ns, we = game.scores[1], game.scores[0]
            say(
                "",
                f"=== Deal {deal_no}: {SEATS[game.dealer]} deals. Score: North-South {ns}, West-East {we} ===",
                f"Your hand: {_hand_text(game.view(me).hand)}",
            )
            deal()
        ns, we = game.scores[1], game.scores[0]
        w = game.winner
        say(
            "",
            f"Game over: {TEAM_NAMES[w]} win, North-South {ns} to West-East {we}."
            + (f" You and {SEATS[partner]} win!" if w == me % 2 else f" {TEAM_NAMES[w].replace('-', ' and ')} win."),
        )
        return w

    return con.play(whole_game)


#: The deprecated name of :func:`play_terminal` (every game's terminal game has that name).
play_game = _deprecated.alias("cfrkit.setback.play_game", play_terminal)

__all__ = [
    "Game",
    "SEATS",
    "bid_reason",
    "card_reason",
    "parse_bid",
    "play_game",
    "play_terminal",
    "points_text",
    "points_won",
]

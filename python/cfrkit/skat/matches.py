"""Reproducible Skat matches and tournaments, played in parallel in Rust (every game's
:mod:`cfrkit._matches`).

Deal ``i`` of a match with seed ``s`` is ``Game.random(seed=s, index=i)``; each deal is played in
the six seatings of programs A and B at the three seats (AAB ABA ABB BAA BAB BBA), so a match of
``deals`` deals plays ``6 * deals`` games and each program ``9 * deals`` seat-games. A program's
figure is its TP/G: Seeger-Fabian points per seat-game (``mean_a``, ``mean_b``); the difference
A − B (``diff``) comes with its 95% confidence interval over deals (``ci95_diff``). The game-type
breakdown says, per program, in what per cent of its seat-games it declared a grand, a suit game,
a null or a null ouvert, defended, or saw the deal thrown in (``pass``). ``rules="iss"`` plays
under the ISS server's rules. Results do not depend on the number of threads.

>>> from cfrkit import skat
>>> r = skat.match("rules", "random", deals=100, seed=1)
>>> r.games, r.diff > 0
(600, True)
"""

from __future__ import annotations

from .._matches import Matches, MatchResult, SelfPlayResult, TournamentResult
from .agents import agent

_MATCHES = Matches("skat", agent)

#: The categories of the game-type breakdown, in order.
CATEGORIES: tuple = _MATCHES.categories

match = _MATCHES.match
selfplay = _MATCHES.selfplay
tournament = _MATCHES.tournament
play_game = _MATCHES.play_game

__all__ = [
    "CATEGORIES",
    "MatchResult",
    "SelfPlayResult",
    "TournamentResult",
    "match",
    "play_game",
    "selfplay",
    "tournament",
]

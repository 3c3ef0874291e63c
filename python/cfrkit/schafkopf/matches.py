"""Reproducible Schafkopf matches and tournaments (spec §10), played in parallel in Rust (every
game's :mod:`cfrkit._matches`).

Deal ``i`` of a match with seed ``s`` is ``Game.random(seed=s, index=i)``: the same deals and
dealers in every seating, whatever the agents do. Each deal is played once in every seating of
the protocol — ``"schafkopfrl"``: seats ``[a, a, b, b]`` then ``[b, b, a, a]``; ``"rotation"``:
the six seatings that give each agent two seats — so a match of ``deals`` deals plays
``deals * 2`` (or ``* 6``) games. Results are cents per seat and game (SchafkopfRL's figure;
``mean_a``, ``mean_b``, and A − B as ``diff``) with 95% confidence intervals over deals, and
do not depend on the number of threads; each seat-game is tallied as declarer of a Sauspiel, a
Wenz or a Solo, partner, defender or all passed. ``games=`` is the deprecated name of
``deals=``.

>>> from cfrkit import schafkopf
>>> r = schafkopf.match("rules", "random-coward", deals=2000, seed=1)
>>> r.games, r.mean_a > 0
(4000, True)
"""

from __future__ import annotations

import functools

from .. import _deprecated
from .._matches import Matches, MatchResult, SelfPlayResult, TournamentResult
from .agents import agent

_MATCHES = Matches("schafkopf", agent)

#: Games per deal of each seat protocol: its seatings.
SEATINGS: dict = _MATCHES.seatings
#: The categories of a match's tally, in order.
CATEGORIES: tuple = _MATCHES.categories


def _deals_or_games(name: str, method):
    """``method`` taking the deprecated ``games=`` for ``deals=``."""

    @functools.wraps(method)
    def call(*args, games: int | None = None, **kwargs):
        if games is not None:
            kwargs["deals"] = _deprecated.renamed(f"schafkopf.{name}", "games", games, "deals", kwargs.get("deals"))
        return method(*args, **kwargs)

    return call


match = _deals_or_games("match", _MATCHES.match)
selfplay = _deals_or_games("selfplay", _MATCHES.selfplay)
tournament = _deals_or_games("tournament", _MATCHES.tournament)
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

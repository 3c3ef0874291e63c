"""Schafkopf as SchafkopfRL plays it: the rules engine, agents, matches, and environments for
learning agents.

>>> from cfrkit import schafkopf
>>> g = schafkopf.Game(hands=["EO GO EU HA HK G7 G9 S7", "HO GU H9 GA EA E7 SK S8",
...                           "SO HU SU H10 H8 G10 GK E8", "H7 G8 E10 EK E9 SA S10 S9"], dealer=3)
>>> g.player, g.phase, g.legal_actions()
(0, 'bidding', ['pass', 'sauspiel:S', 'sauspiel:G', 'wenz', 'solo:S', 'solo:H', 'solo:G', 'solo:E'])
>>> g.play("sauspiel:G")
>>> for _ in range(3):
...     g.play("pass")
>>> g.phase, g.contract, g.declarer, g.legal_actions()
('contra', 'sauspiel:G', 0, ['no'])

``Game(hands, dealer, rules="schafkopfrl")`` or ``Game.random(seed)``; ``rules="standard"``
plays the standard rules (Schwarz by tricks, strict Rufsau, four passes end the deal). Seats
are 0–3, seat ``(dealer + 1) % 4`` declares first and leads. Actions are names — declarations
``pass``, ``sauspiel:S|G|E``, ``wenz``, ``solo:S|H|G|E``; ``no``, ``contra``, ``retour``; cards
``EO``, ``H10`` (suit E/G/H/S, rank 7 8 9 U O K 10 A) — or the seed's 43 action ids
(:data:`ACTION_NAMES`). ``g.returns()`` gives the payments in cents per seat.

:class:`Env` is the environment for learning agents (``reset``/``step``, legal-action masks,
numpy features); :mod:`cfrkit.schafkopf.pettingzoo` adapts it to PettingZoo's AEC API.
:func:`match` and :func:`tournament` play agents (``random``, ``random-coward``, ``rules``,
or Python callables) against each other on reproducible deals, in parallel.
"""

from .._cfrkit import (
    SCHAFKOPF_ACTION_NAMES,
    SCHAFKOPF_AGENT_SPECS,
    SCHAFKOPF_FEATURE_LAYOUT,
    SCHAFKOPF_FEATURES,
    SCHAFKOPF_NUM_ACTIONS,
)
from .._cfrkit import SchafkopfGame as Game
from .._cfrkit import SchafkopfView as View
from .agents import Agent, AgentLike, agent
from .env import Env
from .matches import CATEGORIES, MatchResult, SelfPlayResult, TournamentResult, match, play_game, selfplay, tournament

#: The 43 action ids' names (SchafkopfRL's action space): 0 ``pass``, 1–3 ``sauspiel:S|G|E``,
#: 4 ``wenz``, 5–8 ``solo:S|H|G|E``, 9 ``double`` (contra or retour), 10 ``no``, 11 + card id
#: the card (``S7`` = 11 … ``EA`` = 42).
ACTION_NAMES: tuple = tuple(SCHAFKOPF_ACTION_NAMES)
#: Number of action ids.
NUM_ACTIONS: int = SCHAFKOPF_NUM_ACTIONS
#: Length of the feature vector of a view (``View.features()``, ``Env`` observations).
FEATURES: int = SCHAFKOPF_FEATURES
#: The feature vector's blocks: ``(name, offset, length)``; see ``docs/schafkopf.md``.
FEATURE_LAYOUT: tuple = tuple(tuple(x) for x in SCHAFKOPF_FEATURE_LAYOUT)
#: The agent spec strings.
AGENT_SPECS: str = SCHAFKOPF_AGENT_SPECS
#: The rule sets.
RULES = ("schafkopfrl", "standard")
#: The seat protocols of matches.
PROTOCOLS = ("schafkopfrl", "rotation")

__all__ = [
    "ACTION_NAMES",
    "AGENT_SPECS",
    "CATEGORIES",
    "FEATURES",
    "FEATURE_LAYOUT",
    "NUM_ACTIONS",
    "PROTOCOLS",
    "RULES",
    "Agent",
    "AgentLike",
    "Env",
    "Game",
    "MatchResult",
    "SelfPlayResult",
    "TournamentResult",
    "View",
    "agent",
    "match",
    "selfplay",
    "play_game",
    "tournament",
]

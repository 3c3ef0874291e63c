"""Skat under the International Skat Order (ISkO): the rules engine, driven action by action.

>>> from cfrkit import skat
>>> g = skat.Game(hands=["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
...                      "HQ H9 H8 H7 DA DT DK DQ D9 D8"], skat="D7 C7")
>>> g.player, g.phase, g.legal_actions()[:4]
(1, 'bidding', ['pass', '18', '20', '22'])
>>> g.play("pass"); g.play("pass"); g.play("18")
>>> g.declarer, g.bid, g.legal_actions()
(0, 18, ['hand', 'pickup'])

``Game(hands, skat)`` takes three hands of ten cards — seat 0 Vorhand, 1 Mittelhand,
2 Hinterhand — and the two skat cards; ``Game.random(seed, index)`` deals deal ``index`` of
``seed``. Phases: ``bidding`` (Mittelhand bids to Vorhand, then Hinterhand to the survivor:
the bidder says ``pass`` or a value above the current one, the hearer ``hold`` or ``pass``;
when both pass without a bid, Vorhand may say ``18`` or ``pass``; three passes throw the deal
in), ``skat`` (``hand`` or ``pickup``), ``discard`` (two cards in one action, e.g. ``"SA ST"``),
``declare`` (``clubs``, ``grand hand schneider``, ``null ouvert hand``, …: only contracts that
can reach the bid), ``tricks`` (cards ``CJ``, ``HT``: suit C/S/H/D, rank 7 8 9 T J Q K A;
Vorhand leads first), ``finished``. ``g.play(name)`` raises
:class:`cfrkit.InvalidArgumentError` naming an illegal action and the legal ones, leaving the
game unchanged. ``g.result()`` is None until the game is over, then a dict with ``declarer``,
``contract``, ``bid``, ``declarer_points``, ``declarer_tricks``, ``won``, ``value``,
``list_score`` and ``tp``; ``g.returns()`` gives the Seeger-Fabian points per seat (zeros
before the end). See ``docs/skat.md`` and ``docs/rules/skat.md``.

:class:`Env` is the environment for learning agents (``reset``/``step``, one action id per game
action, legal-action masks, numpy features). :func:`match` and :func:`tournament` play agents
(``random``, ``rules``) against each other on identical deals in the six seatings, in parallel;
:func:`play_game` plays one deal. :func:`read_iss` reads game records of the International Skat
Server (``docs/iss.md``).
"""

from .._cfrkit import (
    SKAT_ACTION_NAMES,
    SKAT_AGENT_SPECS,
    SKAT_BID_VALUES,
    SKAT_CONTRACTS,
    SKAT_FEATURE_LAYOUT,
    SKAT_FEATURES,
    SKAT_NUM_ACTIONS,
)
from .._cfrkit import SkatGame as Game
from .agents import Agent, AgentLike, View, agent
from .env import Env
from .records import IssRecordWarning, read_iss
from .matches import CATEGORIES, MatchResult, SelfPlayResult, TournamentResult, match, play_game, selfplay, tournament

#: The 63 legal bid values, ascending (18 … 264).
BID_VALUES: tuple = tuple(SKAT_BID_VALUES)
#: Every contract name: the 7 of a pickup game, then the 22 Hand contracts.
CONTRACTS: tuple = tuple(SKAT_CONTRACTS)
#: The phases in order.
PHASES = ("bidding", "skat", "discard", "declare", "tricks", "finished")
#: The seat names by seat number.
SEATS = ("Vorhand", "Mittelhand", "Hinterhand")

#: The action ids' names: 0 ``pass``, 1 ``hold``, 2–64 the bids, 65 ``hand``, 66 ``pickup``,
#: 67–562 the discards (``"SA ST"``), 563–591 the contracts, 592–623 the cards (``D7`` … ``CA``).
ACTION_NAMES: tuple = tuple(SKAT_ACTION_NAMES)
#: Number of action ids.
NUM_ACTIONS: int = SKAT_NUM_ACTIONS
#: Length of the feature vector of a view (``Game.features(seat)``, ``Env`` observations).
FEATURES: int = SKAT_FEATURES
#: The feature vector's blocks: ``(name, offset, length)``; see ``docs/skat.md``.
FEATURE_LAYOUT: tuple = tuple(tuple(x) for x in SKAT_FEATURE_LAYOUT)
#: The agent spec strings.
AGENT_SPECS: str = SKAT_AGENT_SPECS

__all__ = [
    "ACTION_NAMES",
    "AGENT_SPECS",
    "BID_VALUES",
    "CATEGORIES",
    "CONTRACTS",
    "FEATURES",
    "FEATURE_LAYOUT",
    "NUM_ACTIONS",
    "PHASES",
    "SEATS",
    "Agent",
    "AgentLike",
    "Env",
    "Game",
    "IssRecordWarning",
    "MatchResult",
    "SelfPlayResult",
    "TournamentResult",
    "View",
    "agent",
    "match",
    "play_game",
    "read_iss",
    "selfplay",
    "tournament",
]

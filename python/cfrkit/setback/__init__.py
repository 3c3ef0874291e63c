"""Setback (Auction Pitch): the rules engine, the baseline abstraction and its training.

>>> from cfrkit import setback
>>> deal = setback.Deal(hands=["2C 3C 4C 5C 6C 7C", "AS JS 4S KH 7H 9D",
...                            "QD TD 4D TS 9S 6S", "8C 9C TC JC QC KC"])
>>> deal.player, deal.abstract_actions(), deal.key()
(1, ['0', '2', '3', '4'], '0AJ4')

Hands are dealer-relative: index 0 is the dealer, 1 the first bidder; team 0 is the dealer's
team. ``Trainer`` runs chance-sampled CFR (``cs-cfr``, the original's algorithm) or
external-sampling MCCFR (``es-mccfr``) on all cores; :func:`train` drives it with progress,
checkpoints and exact resume — the baseline deal game, then the score-aware bootstrap auction
(``stage="bootstrap"``); ``Strategy`` reads a trained average strategy; :func:`export_db` writes
the SQLite strategy database the ``db:PATH`` agent plays from.
"""

from .._cfrkit import SetbackDeal as Deal
from .._cfrkit import SetbackGameScore as GameScore
from .._cfrkit import SetbackStrategy as Strategy
from .._cfrkit import SetbackTrainer as Trainer
from .._cfrkit import setback_hand_sketch as hand_sketch
from .._cfrkit import setback_key_string as key_string
from .._cfrkit import setback_parse_key as parse_key
from .database import ExportResult, export_db
from .training import (
    ALGORITHMS,
    CHECKPOINT_FILE,
    STAGES,
    STRATEGY_FILE,
    TrainingInterrupted,
    TrainResult,
    train,
)


def load_strategy(path) -> Strategy:
    """Loads a strategy file written by :func:`train` (``DIR/strategy.cfrkit``)."""
    return Strategy.load(path)


__all__ = [
    "ALGORITHMS",
    "CHECKPOINT_FILE",
    "STAGES",
    "STRATEGY_FILE",
    "Deal",
    "ExportResult",
    "GameScore",
    "Strategy",
    "TrainResult",
    "Trainer",
    "TrainingInterrupted",
    "export_db",
    "hand_sketch",
    "key_string",
    "load_strategy",
    "parse_key",
    "train",
]

from .._cfrkit import (  # noqa: E402  (play: agents, matches, environments, a game in the terminal)
    SETBACK_ACTION_NAMES,
    SETBACK_FEATURE_LAYOUT,
    SETBACK_FEATURES,
    SETBACK_NUM_ACTIONS,
)
from .agents import Agent, View, agent  # noqa: E402
from .env import Env  # noqa: E402
from .matches import MatchResult, match, play_match, selfplay  # noqa: E402
from .play import Game, play_game, play_terminal  # noqa: E402
from .tournament import TournamentResult, tournament  # noqa: E402

#: The action ids' names: 0 ``pass``, 1–3 the bids ``2``–``4``, then the 52 cards (``2C`` … ``AS``).
ACTION_NAMES: tuple = tuple(SETBACK_ACTION_NAMES)
#: Number of action ids.
NUM_ACTIONS: int = SETBACK_NUM_ACTIONS
#: Length of the feature vector of a view (``Game.observe(seat)``, ``Env`` observations).
FEATURES: int = SETBACK_FEATURES
#: The feature vector's blocks: ``(name, offset, length)``.
FEATURE_LAYOUT: tuple = tuple(tuple(x) for x in SETBACK_FEATURE_LAYOUT)

__all__ += [
    "ACTION_NAMES",
    "FEATURES",
    "FEATURE_LAYOUT",
    "NUM_ACTIONS",
    "Env",
    "Agent",
    "Game",
    "MatchResult",
    "TournamentResult",
    "View",
    "agent",
    "match",
    "play_game",
    "play_match",
    "selfplay",
    "play_terminal",
    "tournament",
]

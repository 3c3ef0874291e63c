"""Setback agents: anything that bids and plays from one player's view.

Agents are named by spec strings — ``"random"``, ``"rules"`` (the hand-written yardstick),
``"table:DIR"`` (argmax of a trained strategy, ``DIR/strategy.cfrkit`` or the file itself;
``"table:DIR+DIR2"`` bids from the bootstrap strategy in ``DIR2``), ``"table-sampled:DIR[+DIR2]"``
(drawn from it), ``"db:PATH"`` (the strategy database, spec §4.2), ``"pimc:worlds=64"``
(Perfect Information Monte Carlo) and ``"hybrid:PATH,worlds=64"`` (the database's bids, PIMC's
card play) — or built from a Python callable ``func(view)`` that
returns a bid (``0`` = Pass, ``2``, ``3``, ``4``) in the auction and a card name such as ``"TD"``
afterwards. The view (:class:`View`) shows only what that player may see.

>>> from cfrkit.setback import agents
>>> agents.agent("rules").name
'rules'
>>> def lowest(view):
...     return view.legal_bids()[0] if view.phase == "auction" else view.legal_cards()[0]
>>> agents.agent(lowest).name
'lowest'
"""

from __future__ import annotations

import os
from typing import Callable, Union

from .. import _cfrkit
from .._cfrkit import SetbackAgent as Agent
from .._cfrkit import SetbackView as View
from ..errors import InvalidArgumentError

AgentLike = Union[str, Agent, Callable[[View], Union[int, str]]]

#: The agent spec strings the core accepts (``cfrkit_core::games::setback::registry``).
SPECS: str = _cfrkit.SETBACK_AGENT_SPECS


def agent(spec: AgentLike, name: str | None = None) -> Agent:
    """An :class:`Agent` from a spec string, an agent, or a callable ``func(view)``."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        return Agent.from_spec(spec)
    if callable(spec):
        return Agent.from_callable(spec, name)
    raise InvalidArgumentError(f"invalid value for agent: {spec!r} (one of {SPECS}, an Agent, or a callable)")


def random_agent() -> Agent:
    """Bids and plays uniformly at random among the legal moves."""
    return Agent.from_spec("random")


def rules_agent() -> Agent:
    """The hand-written player: bids from hand strength, leads and follows by simple heuristics."""
    return Agent.from_spec("rules")


def table_agent(path, sampled: bool = False, bootstrap=None) -> Agent:
    """Plays a trained baseline strategy (a training directory or a strategy file): the argmax
    action, or one drawn from the average strategy with ``sampled=True``; with ``bootstrap`` (a
    bootstrap run) its score-aware bids. Missing keys fall back to Three-else-Pass for bids and
    the first abstract action for plays."""
    tables = f"{path}+{bootstrap}" if bootstrap is not None else f"{path}"
    return Agent.from_spec(f"{'table-sampled' if sampled else 'table'}:{tables}")


def pimc_agent(worlds: int = 64, threads: int = 0, seed: int = 0, inference=None) -> Agent:
    """Perfect Information Monte Carlo: samples ``worlds`` deals consistent with the player's
    view (hand sizes, played cards, shown voids), solves each with all cards visible, and plays
    the card (or bid) with the best average value. ``threads=0`` uses all cores. With
    ``inference`` the worlds are drawn from a pool weighted by a model's probability of the other
    players' moves: a policy directory made by ``cfrkit learn imitate --game setback`` (a path,
    or a string naming an existing directory), or a model spec (``net:DIR``, ``table:DIR``,
    ``table-sampled:DIR``, ``db:PATH``, ``rules``, ``random``)."""
    spec = f"pimc:worlds={worlds},threads={threads},seed={seed}"
    if inference is None:
        return Agent.from_spec(spec)
    if isinstance(inference, os.PathLike) or os.path.isdir(inference):
        inference = f"net:{os.fspath(inference)}"
    return Agent.from_spec(f"{spec},inference={inference}")


def hybrid_agent(database, worlds: int = 64, threads: int = 0, seed: int = 0) -> Agent:
    """Bids from a strategy database (the CFR player's bids), card play by PIMC."""
    return Agent.from_spec(f"hybrid:{database},worlds={worlds},threads={threads},seed={seed}")


def database_agent(path) -> Agent:
    """The database player (spec §4.2): argmax actions looked up in a strategy database written
    by :func:`cfrkit.setback.export_db`, with the original's fallbacks."""
    return Agent.from_spec(f"db:{path}")


__all__ = [
    "Agent",
    "AgentLike",
    "SPECS",
    "View",
    "agent",
    "database_agent",
    "hybrid_agent",
    "pimc_agent",
    "random_agent",
    "rules_agent",
    "table_agent",
]

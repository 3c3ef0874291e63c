"""Schafkopf agents: spec strings (``SCHAFKOPF_AGENT_SPECS``: ``random``, ``random-coward``,
``rules``, and the PIMC agents with their options) or Python callables.

A callable agent is called with the :class:`~cfrkit.schafkopf.View` of the seat to act and
returns an action name (``"pass"``, ``"no"``, ``"EO"``) or id (0–42). Matches call it from
worker threads (with the GIL), so it must not rely on running in the main thread.

>>> from cfrkit import schafkopf
>>> schafkopf.agent("rules").name
'rules'
>>> schafkopf.agent(lambda view: view.legal_actions()[0], name="first").name
'first'
"""

from __future__ import annotations

from typing import Callable, Union

from .._cfrkit import SchafkopfAgent as Agent
from .._cfrkit import SchafkopfView

#: What :func:`agent` accepts: an agent, a spec string, or a callable ``view -> action``.
AgentLike = Union[Agent, str, Callable[[SchafkopfView], Union[str, int]]]


def agent(spec: AgentLike, name: str | None = None) -> Agent:
    """An agent from a spec string (see ``SCHAFKOPF_AGENT_SPECS``), a callable
    ``view -> action`` (labelled ``name`` or its ``__name__``), or an agent (returned as is)."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        return Agent.from_spec(spec)
    return Agent.from_callable(spec, name)


__all__ = ["Agent", "AgentLike", "agent"]

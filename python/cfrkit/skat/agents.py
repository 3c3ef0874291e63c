"""Skat agents from spec strings (:data:`~cfrkit.skat.AGENT_SPECS`: ``random``, ``rules``,
``pimc[:OPTIONS]``, ``net:DIR[,OPTIONS]`` or ``hybrid:net=DIR,from=K[,OPTIONS]``).

>>> from cfrkit import skat
>>> skat.agent("rules").name
'rules'
"""

from __future__ import annotations

from typing import Callable, Union

from .._cfrkit import SKAT_AGENT_SPECS
from .._cfrkit import SkatAgent as Agent
from .._cfrkit import SkatView as View

#: What :func:`agent` accepts: an agent, a spec string, or a callable ``view -> action``.
AgentLike = Union[Agent, str, Callable[[View], Union[str, int]]]


def agent(spec: AgentLike, name: str | None = None) -> Agent:
    """An agent from a spec string, a callable ``view -> action`` (a :class:`View` of the seat
    to act in, an action name or a bid value out; labelled ``name`` or its ``__name__``), or an
    agent (returned as is). An unknown spec, or anything else, raises
    :class:`cfrkit.InvalidArgumentError` naming it and what is allowed."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        return Agent.from_spec(spec)
    if not callable(spec):
        from ..errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"invalid value for agent: {spec!r} (an agent spec string: {SKAT_AGENT_SPECS}; or a callable)"
        )
    return Agent.from_callable(spec, name)


__all__ = ["Agent", "AgentLike", "View", "agent"]

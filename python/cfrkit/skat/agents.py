"""Skat agents from spec strings (:data:`~cfrkit.skat.AGENT_SPECS`: ``random``, ``rules``,
``pimc[:OPTIONS]``, ``net:DIR[,OPTIONS]`` or ``hybrid:net=DIR,from=K[,OPTIONS]``).

>>> from cfrkit import skat
>>> skat.agent("rules").name
'rules'
"""

from __future__ import annotations

from typing import Union

from .._cfrkit import SKAT_AGENT_SPECS
from .._cfrkit import SkatAgent as Agent

#: What :func:`agent` accepts: an agent or a spec string.
AgentLike = Union[Agent, str]


def agent(spec: AgentLike) -> Agent:
    """An agent from a spec string, or an agent (returned as is). An unknown spec raises
    :class:`cfrkit.InvalidArgumentError` naming it and the specs allowed."""
    if isinstance(spec, Agent):
        return spec
    if not isinstance(spec, str):
        from ..errors import InvalidArgumentError

        raise InvalidArgumentError(f"invalid value for agent: {spec!r} (an agent spec string: {SKAT_AGENT_SPECS})")
    return Agent.from_spec(spec)


__all__ = ["Agent", "AgentLike", "agent"]

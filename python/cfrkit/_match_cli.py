"""The ``match``, ``tournament`` and ``selfplay`` commands of every game on :mod:`cfrkit._matches`:
their flags beyond the shared ones (``--protocol``, ``--rules``, ``--share-decisions``) and their
runners, the same for every game; a game adds only what is its own (Skat's ``--log-format``)."""

from __future__ import annotations

import argparse
import contextlib
from typing import Callable, ContextManager, Optional

from . import _game_cli, _selfplay, cli_args
from ._matches import Matches

#: ``log(args)``: a context yielding the game log path a run writes (by default ``--log`` itself).
LogContext = Callable[[argparse.Namespace], ContextManager[Optional[str]]]


def add_flags(m: Matches, command: str, p: argparse.ArgumentParser) -> None:
    """The flags of ``command`` that every game on the layer has."""
    if command in ("match", "tournament"):
        protocols = " or ".join(m.protocols)
        p.add_argument(
            "--protocol",
            default=m.protocols[0],
            help=f"how a deal's games seat the agents: {protocols} (default {m.protocols[0]})",
        )
        p.add_argument(
            "--share-decisions",
            action="store_true",
            help="a deal's games share their decisions (keyed by the history): about twice as fast between "
            "similar search programs",
        )
    if command in ("match", "tournament", "selfplay"):
        p.add_argument("--rules", default=m.rules, help=f"the rule set (default {m.rules})")


def _plain_log(a: argparse.Namespace) -> ContextManager[Optional[str]]:
    return contextlib.nullcontext(a.log)


def runners(m: Matches, log: LogContext = _plain_log) -> dict:
    """The runners of ``match``, ``tournament`` and ``selfplay`` of the game of ``m``."""

    def match(a: argparse.Namespace) -> int:
        with log(a) as path:
            r = m.match(
                a.a, a.b, a.deals, protocol=a.protocol, rules=a.rules, seed=a.seed, threads=a.threads, progress=True,
                checkpoint=a.checkpoint, log=path, backend=cli_args.backend(a), share_decisions=a.share_decisions,
            )  # fmt: skip
        print(r)
        print(r.table())
        print(f"{r.seconds:.3f} s, {r.speed} on {r.threads} thread(s)")
        if a.json:
            _game_cli.emit_json({"command": "match", **r.to_dict()})
        return 0

    def tournament(a: argparse.Namespace) -> int:
        with log(a) as path:
            t = m.tournament(
                a.agents, a.deals, protocol=a.protocol, rules=a.rules, seed=a.seed, threads=a.threads, progress=True,
                log=path, backend=cli_args.backend(a), checkpoint=a.checkpoint, share_decisions=a.share_decisions,
            )  # fmt: skip
        print(t.table, end="")
        for r in t.pairs:
            print(r)
        print(f"{t.seconds:.3f} s on {t.threads} thread(s)")
        if a.json:
            _game_cli.emit_json({"command": "tournament", "agents": t.names, **t.to_dict()})
        return 0

    def selfplay(a: argparse.Namespace) -> int:
        with log(a) as path:
            r = m.selfplay(
                a.agent, a.deals, rules=a.rules, seed=a.seed, threads=a.threads, progress=True,
                checkpoint=a.checkpoint, log=path,
            )  # fmt: skip
        return _selfplay.report(r, a.log, a.json, _game_cli.emit_json)

    return {"match": match, "tournament": tournament, "selfplay": selfplay}


__all__ = ["add_flags", "runners"]

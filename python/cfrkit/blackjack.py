"""Blackjack++: two players and a dealer, solved exactly over the down cards.

>>> from cfrkit import blackjack
>>> sol = blackjack.solve(up=(6, 6, 2), max_hits=1, iterations=1000)
>>> [round(v, 3) for v in sol.values]
[1.452, 1.548, 0.0]
>>> sol.table.node("")[:, 1].round(2).tolist()   # P0's Hit probability by down card 1..10
[0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]

The command ``cfrkit blackjack --up 6,6,2 --max-hits 1 --iterations 1000 --dump DIR`` prints
the up cards, build time, node count, root values and the root strategy table, and writes the
strategy dump directory in the original Blackjack++ layout: ``DIR/strategy.txt`` for the root,
and one sub-directory per child key (``s`` for Stand, ``h1``..``h10`` for Hit and the card
drawn), recursively, holding the strategy of each decision node.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import _cfrkit
from ._cfrkit import Game, Policy
from .errors import InvalidArgumentError
from .solver import Solver

__all__ = [
    "Solution",
    "StrategyTable",
    "game",
    "main",
    "original_node_count",
    "solve",
    "strategy",
    "write_dump",
]

#: Total of the three participants' payoffs at every terminal (the antes are not subtracted).
PAYOFF_TOTAL = 3.0


def game(up: Sequence[int] = (6, 6, 2), max_hits: int = 1) -> Game:
    """Builds Blackjack++ with up cards ``up`` (P0, P1, dealer; each 1..10, 1 = ace) and at most
    ``max_hits`` hits per player (0 = no limit). Raises :class:`cfrkit.InvalidArgumentError`
    for bad values and :class:`cfrkit.TooLargeError` when the tree would not fit in memory."""
    return _cfrkit.blackjack_game([int(c) for c in up], int(max_hits))


def original_node_count(g: Game) -> int:
    """Node count the original's way: decision and terminal nodes, the root included, with a
    Hit and its card merged into one edge. The public tree also has one chance node per
    decision node (after Hit), and each decision node has 10 information sets."""
    return g.num_public_nodes - g.num_infosets // 10


@dataclass(frozen=True)
class StrategyTable:
    """A policy laid out per decision node: ``probs[i, d - 1]`` is (Stand, Hit) for down card
    ``d`` at the node whose dump path is ``paths[i]`` (``""`` is the root, ``"s"`` the node
    after P0 stands, ``"h3/s"`` after P0 hits a 3 and P1 stands), where ``players[i]`` acts."""

    paths: list[str]
    players: np.ndarray
    probs: np.ndarray

    def __len__(self) -> int:
        return len(self.paths)

    def node(self, path: str) -> np.ndarray:
        """The 10 × 2 table of the decision node at dump path ``path``."""
        try:
            return self.probs[self.paths.index(path)]
        except ValueError:
            raise InvalidArgumentError(
                f"invalid value for path: {path!r} (a decision node's path such as '', 's' or 'h3/s')"
            ) from None

    def player(self, path: str) -> int:
        """The player acting at dump path ``path``."""
        self.node(path)
        return int(self.players[self.paths.index(path)])


def strategy(g: Game, policy: Policy) -> StrategyTable:
    """The strategy tables of ``policy`` (e.g. ``solver.average_policy()``) on game ``g``."""
    paths, players, probs = _cfrkit.blackjack_strategy(g, policy)
    return StrategyTable(paths, players, probs)


def _table_text(player: int, probs: np.ndarray) -> str:
    lines = [f"Current Acting: {player}"]
    lines += [f"Down Card: {d} || Stand: {probs[d - 1, 0]:.6f}, Hit: {probs[d - 1, 1]:.6f}" for d in range(1, 11)]
    return "\n".join(lines) + "\n"


def write_dump(table: StrategyTable, directory: str) -> int:
    """Writes the strategy dump directory: ``strategy.txt`` of each decision node in the
    directory named by its path below ``directory``. Returns the number of files written."""
    for path, player, probs in zip(table.paths, table.players, table.probs):
        where = os.path.join(directory, *path.split("/")) if path else directory
        os.makedirs(where, exist_ok=True)
        with open(os.path.join(where, "strategy.txt"), "w") as f:
            f.write(_table_text(int(player), probs))
    return len(table)


@dataclass
class Solution:
    """A solved Blackjack++ configuration."""

    game: Game
    solver: Solver
    #: Expected values of the average strategy for P0, P1 and the dealer.
    values: list[float]
    #: NashConv of the average strategy (sum of both players' best-response gains).
    nash_conv: float
    #: The average strategy per decision node.
    table: StrategyTable
    build_seconds: float
    solve_seconds: float


def solve(
    up: Sequence[int] = (6, 6, 2),
    max_hits: int = 1,
    iterations: int = 1000,
    algorithm: str = "cfr+",
    threads: int = 0,
    progress: bool = False,
) -> Solution:
    """Builds and solves a configuration with exact enumeration of the down cards."""
    started = time.perf_counter()
    g = game(up, max_hits)
    build_seconds = time.perf_counter() - started
    solver = Solver(g, algorithm=algorithm, threads=threads)
    started = time.perf_counter()
    solver.run(iterations, progress=progress)
    solve_seconds = time.perf_counter() - started
    return _solution(g, solver, build_seconds, solve_seconds)


def _solution(g: Game, solver: Solver, build_seconds: float, solve_seconds: float) -> Solution:
    p0, p1 = solver.values()
    values = [p0, p1, PAYOFF_TOTAL - p0 - p1]
    table = strategy(g, solver.average_policy())
    return Solution(g, solver, values, solver.nash_conv(), table, build_seconds, solve_seconds)


def _parse_up(text: str) -> list[int]:
    """The type of ``--up``: integers separated by commas (the core checks the values)."""
    try:
        up = [int(x) for x in text.split(",")]
    except ValueError:
        up = None
    if up is None or not all(abs(c) < 2**63 for c in up):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r} (3 card values in 1..10 separated by commas, e.g. 6,6,2)"
        )
    return up


def _parser() -> argparse.ArgumentParser:
    from . import cli_args

    p = cli_args.Parser(
        prog="cfrkit blackjack",
        description="Build Blackjack++, solve it with exact enumeration of the down cards, print the "
        "root values and strategy, and optionally write the strategy dump directory.",
    )
    p.add_argument(
        "--up", type=_parse_up, default=[6, 6, 2], help="up cards of P0, P1 and the dealer, 1..10 (default: 6,6,2)"
    )
    p.add_argument(
        "--max-hits",
        type=cli_args.integer(0, 255, "an integer from 0 to 255; 0 = no limit"),
        default=1,
        help="most hits per player, 0 = no limit (default: 1)",
    )
    p.add_argument("--iterations", type=cli_args.count(0), default=1000, help="iterations (default: 1000)")
    p.add_argument("--algo", default="cfr+", help=f"{', '.join(_cfrkit.ALGORITHMS)} (default: cfr+)")
    p.add_argument(
        "--threads", type=cli_args.threads, default=0, help="threads (default: CFRKIT_NUM_THREADS or all cores)"
    )
    p.add_argument("--dump", metavar="DIR", type=cli_args.out_dir, help="write the strategy dump directory here")
    p.add_argument("--force", action="store_true", help="write into a --dump directory that holds files")
    p.add_argument("--json", action="store_true", help="print one JSON object with the run's figures as the last line")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``cfrkit blackjack``: returns the exit status; bad arguments exit with status 2 and one
    line on stderr (errors of the run propagate as CfrkitError or OSError)."""
    from .cli import emit_json, peak_memory_bytes
    from .cli_args import argv_or_sys, refuse_existing

    args = _parser().parse_args(argv_or_sys(argv))
    refuse_existing(args, "dump")
    up = args.up
    _cfrkit.algorithm_name(args.algo)
    started = time.perf_counter()
    g = game(up, args.max_hits)
    build_seconds = time.perf_counter() - started
    solver = Solver(g, algorithm=args.algo, threads=args.threads)
    interrupted = False
    started = time.perf_counter()
    try:
        solver.run(args.iterations, progress=sys.stderr.isatty())
    except KeyboardInterrupt:
        interrupted = True
    sol = _solution(g, solver, build_seconds, time.perf_counter() - started)
    nodes = original_node_count(g)
    decisions = len(sol.table)
    root = sol.table.node("")

    out = [
        f"Up cards: P0 {up[0]}, P1 {up[1]}, dealer {up[2]}; max hits {args.max_hits or 'unlimited'}",
        (
            f"Tree built in {build_seconds:.3f} s. Num nodes: {nodes} ({decisions} decision nodes, "
            f"{g.num_infosets} information sets, {g.num_public_nodes} public nodes with chance)"
        ),
        (
            f"Trained {solver.algorithm} for {solver.iteration} iterations"
            f"{' (interrupted)' if interrupted else ''} on {solver.threads} thread(s) in {sol.solve_seconds:.3f} s"
            f" ({solver.engine} engine)"
        ),
        "ROOT PAYOFFS (average strategy, exact): "
        + ", ".join(f"{who} {v:.7f}" for who, v in zip(("P0", "P1", "dealer"), sol.values)),
        f"NashConv: {sol.nash_conv:.3g}",
        "Root strategy (P0 acting):",
    ]
    out += [f"Down Card: {d} || Stand: {root[d - 1, 0]:.6f}, Hit: {root[d - 1, 1]:.6f}" for d in range(1, 11)]
    files = 0
    if args.dump:
        files = write_dump(sol.table, args.dump)
        out.append(f"Strategy dump: {files} strategy.txt files under {args.dump}")
    print("\n".join(out))
    if args.json:
        emit_json(
            {
                "game": g.spec,
                "up": up,
                "max_hits": args.max_hits,
                "algorithm": solver.algorithm,
                "iterations": solver.iteration,
                "interrupted": interrupted,
                "threads": solver.threads,
                "engine": solver.engine,
                "build_seconds": build_seconds,
                "seconds": sol.solve_seconds,
                "nodes": nodes,
                "decision_nodes": decisions,
                "public_nodes": g.num_public_nodes,
                "infosets": g.num_infosets,
                "values": sol.values,
                "nash_conv": sol.nash_conv,
                "root_strategy": root.tolist(),
                "dump": args.dump,
                "dump_files": files,
                "peak_memory_bytes": peak_memory_bytes(),
            }
        )
    if interrupted:
        print(f"cfrkit blackjack: interrupted at iteration {solver.iteration:,}", file=sys.stderr)
        return 130
    return 0

"""cfrkit: Rust-accelerated solvers for imperfect-information card games.

>>> import cfrkit
>>> game = cfrkit.load_game("kuhn")
>>> solver = cfrkit.Solver(game, algorithm="cfr+")
>>> solver.run(1000)
1000
>>> round(solver.values()[0], 3)
-0.056
"""

from . import transforms
from . import _cfrkit
from ._cfrkit import ALGORITHMS, SAMPLED_ALGORITHMS, Game, Policy, __version__
from ._native import checked
from .bench import bench
from .define import CHANCE, TERMINAL, GameDefinition, compile, from_openspiel, rekey, to_openspiel
from .errors import (
    CfrkitError,
    CfrkitIOError,
    CompileError,
    FileFormatError,
    InvalidArgumentError,
    InvalidTypeError,
    OutOfRangeError,
    TooLargeError,
    UnknownAlgorithmError,
    UnknownGameError,
)
from .pimc import pimc_policy
from .solver import Solver

# Wrong argument types and ranges raise cfrkit errors (see _native).
best_response = checked(_cfrkit.best_response)
expected_values = checked(_cfrkit.expected_values)
exploitability = checked(_cfrkit.exploitability)
load_game = checked(_cfrkit.load_game)
load_policy = checked(_cfrkit.load_policy)
nash_conv = checked(_cfrkit.nash_conv)

__all__ = [
    "ALGORITHMS",
    "CHANCE",
    "GameDefinition",
    "TERMINAL",
    "compile",
    "from_openspiel",
    "rekey",
    "schafkopf",
    "setback",
    "skat",
    "to_openspiel",
    "transforms",
    "CfrkitError",
    "CfrkitIOError",
    "CompileError",
    "FileFormatError",
    "Game",
    "InvalidArgumentError",
    "InvalidTypeError",
    "OutOfRangeError",
    "Policy",
    "SAMPLED_ALGORITHMS",
    "Solver",
    "TooLargeError",
    "UnknownAlgorithmError",
    "UnknownGameError",
    "__version__",
    "bench",
    "best_response",
    "blackjack",
    "expected_values",
    "exploitability",
    "load_game",
    "load_policy",
    "nash_conv",
    "pimc_policy",
]

# The seed games' tools: ``cfrkit.blackjack``, ``cfrkit.schafkopf``, ``cfrkit.setback`` and
# ``cfrkit.skat``.
from . import blackjack, schafkopf, setback, skat  # noqa: E402  (after the names they use)

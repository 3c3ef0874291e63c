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
from ._cfrkit import (
    ALGORITHMS,
    SAMPLED_ALGORITHMS,
    Game,
    Policy,
    __version__,
    best_response,
    expected_values,
    exploitability,
    load_game,
    load_policy,
    nash_conv,
)
from .bench import bench
from .define import CHANCE, TERMINAL, GameDefinition, compile, from_openspiel, rekey, to_openspiel
from .errors import (
    CfrkitError,
    CfrkitIOError,
    CompileError,
    FileFormatError,
    InvalidArgumentError,
    TooLargeError,
    UnknownAlgorithmError,
    UnknownGameError,
)
from .pimc import pimc_policy
from .solver import Solver

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

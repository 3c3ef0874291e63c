"""PIMC (Perfect Information Monte Carlo) policies of compiled games.

PIMC is how the strongest trick-taking programs play: sample the worlds consistent with what the
player has seen, solve each as if every card were visible, and play the action that does best on
average. :func:`pimc_policy` applies it exactly to every information set of a compiled game, so
the result can be measured like any other policy (``cfrkit.exploitability``).
"""

from __future__ import annotations

from . import _cfrkit

#: Accepted values of ``chance``.
CHANCE_MODES = ("expectation", "fixed")
#: Accepted values of ``ties``.
TIE_RULES = ("lowest", "uniform")


def pimc_policy(game: _cfrkit.Game, *, chance: str = "expectation", ties: str = "lowest") -> _cfrkit.Policy:
    """The PIMC policy of ``game`` (a compiled :class:`cfrkit.Game`), under the game's keys.

    For each information set of each player, the *worlds* are the histories in it, each weighted
    by the chance probability of reaching it. Only chance is weighted: the opponents' earlier
    actions do not make a world more or less likely (PIMC samples deals, not beliefs). Each world
    is solved with perfect information, every player maximising its own value (minimax in
    two-player zero-sum games). The policy plays the action with the largest weighted average
    value; exact enumeration, no sampling.

    ``chance`` says how chance events after the decision are solved: ``"expectation"`` averages
    each chance node; ``"fixed"`` lets the world fix every later outcome (as a shuffled deck does)
    and the solver know them in advance (every sequence of later outcomes is enumerated per world:
    milliseconds for Leduc, seconds for ``blackjack(up=6-6-2,max_hits=2)``). ``ties`` picks among
    equal values: ``"lowest"`` (the lowest action id; a pure policy) or ``"uniform"`` (the tied
    actions mixed equally). Other values raise :class:`cfrkit.InvalidArgumentError`.

    Reference values: Kuhn's PIMC policy has exploitability 1/6 in every mode; Leduc's has 13/30
    (expectation, lowest), 1/2 (expectation, uniform) and 3/5 (fixed, either tie rule).

    Known limit — **strategy fusion**. A world's solver may play differently in each world at a
    later decision where the real player cannot tell the worlds apart, so PIMC overrates actions
    that lead to such decisions. The textbook case: two equally likely worlds; A pays 0.6 in
    both; B leads to one information set where x pays 1 in world 1 and y pays 1 in world 2.
    PIMC values B at 1.0 and picks it, though B is worth only 0.5 to a player who cannot tell the
    worlds apart (``tests/test_pimc.py`` plays it). Its other known limit, *non-locality*, comes
    from ignoring what the opponents' actions reveal; both make PIMC exploitable.
    """
    # Non-strings reach the native check as text, so every bad value gets the same error.
    return _cfrkit.pimc_policy(game, chance=str(chance), ties=str(ties))

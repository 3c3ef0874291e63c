"""Games defined in Python (or imported from OpenSpiel), compiled once into native trees.

A finite game is any object with these members (subclass :class:`GameDefinition` for the
documentation and defaults)::

    num_players: int
    initial_state() -> state
    current_player(state) -> int          # a player 0..n-1, or CHANCE, or TERMINAL
    chance_outcomes(state) -> [(action, probability), ...]
    legal_actions(state) -> [action, ...]  # action ids: ints >= 0
    apply(state, action) -> state          # the next state; must not change `state`
    returns(state) -> [float] * num_players
    information_state(state, player) -> str

:func:`compile` walks the game once and hands the tree to the native compiler; every solver and
evaluator then runs at native speed. Private information must be dealt by chance before the
first decision (poker hole cards, Blackjack down cards); everything after must be public.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

from . import _cfrkit
from .errors import CompileError, InvalidArgumentError

#: `current_player` value of chance nodes.
CHANCE = -1
#: `current_player` value of terminal states.
TERMINAL = -4


class GameDefinition:
    """Base class documenting the protocol of a finite game for :func:`compile`."""

    num_players: int = 2
    #: Name reported as the game's spec.
    name: str = "python-game"

    def initial_state(self) -> Any:
        raise NotImplementedError

    def current_player(self, state: Any) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def chance_outcomes(self, state: Any) -> Sequence[tuple[int, float]]:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> Sequence[int]:
        raise NotImplementedError

    def apply(self, state: Any, action: int) -> Any:
        raise NotImplementedError

    def returns(self, state: Any) -> Sequence[float]:
        raise NotImplementedError

    def information_state(self, state: Any, player: int) -> str:
        raise NotImplementedError


class _Recorder:
    """Walks a game depth-first into flat arrays (children after their parent)."""

    def __init__(self, game: Any, keyer: Optional[Callable[[Any, int], Any]], progress: bool):
        self.game = game
        self.keyer = keyer
        self.n = int(game.num_players)
        if self.n < 1:
            raise CompileError(f"num_players must be at least 1, got {game.num_players!r}")
        self.kind: list[int] = []  # -1 chance, -4 terminal, else player
        self.first: list[int] = []
        self.count: list[int] = []
        self.children: list[int] = []
        self.actions: list[int] = []
        self.probs: list[float] = []
        self.returns: list[float] = []
        self.keys: list[str] = []
        self.coarse: list[str] = []
        self.bar = None
        if progress:
            from tqdm import tqdm

            self.bar = tqdm(unit=" states", desc="compiling")

    def where(self, path: list[int]) -> str:
        return f"after actions {path}" if path else "at the initial state"

    def walk(self, state: Any, path: list[int]) -> int:
        g = self.game
        node = len(self.kind)
        player = g.current_player(state)
        self.kind.append(player)
        self.first.append(0)
        self.count.append(0)
        self.returns.extend([0.0] * self.n)
        self.keys.append("")
        self.coarse.append("")
        if self.bar is not None and node % 1000 == 0:
            self.bar.update(1000)
        if player == TERMINAL:
            r = list(g.returns(state))
            if len(r) != self.n:
                raise CompileError(
                    f"returns {self.where(path)} have {len(r)} entries, expected {self.n} (one per player)"
                )
            if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in r):
                raise CompileError(f"returns {self.where(path)} must be finite numbers, got {r!r}")
            self.returns[node * self.n : (node + 1) * self.n] = [float(x) for x in r]
            return node
        if player == CHANCE:
            outcomes = [(a, p) for a, p in g.chance_outcomes(state)]
            total = sum(p for _, p in outcomes)
            if not outcomes:
                raise CompileError(f"chance node {self.where(path)} has no outcomes")
            if abs(total - 1.0) > 1e-9 or any(not (0 < p <= 1) for _, p in outcomes):
                raise CompileError(
                    f"chance probabilities {self.where(path)} must be in (0, 1] and sum to 1;"
                    f" got {[p for _, p in outcomes]} (sum {total})"
                )
            edges = outcomes
        elif isinstance(player, int) and 0 <= player < self.n:
            acts = list(g.legal_actions(state))
            if not acts:
                raise CompileError(f"player {player} has no legal actions {self.where(path)}")
            edges = [(a, 0.0) for a in acts]
            self.keys[node] = str(g.information_state(state, player))
            if self.keyer is not None:
                self.coarse[node] = str(self.keyer(state, player))
        else:
            raise CompileError(
                f"current_player {self.where(path)} is {player!r}; expected 0..{self.n - 1}, CHANCE or TERMINAL"
            )
        seen = set()
        for a, _ in edges:
            if not isinstance(a, int) or isinstance(a, bool) or a < 0 or a in seen:
                raise CompileError(
                    f"actions {self.where(path)} must be distinct ints >= 0; got {[a for a, _ in edges]!r}"
                )
            seen.add(a)
        child_ids = [self.walk(g.apply(state, a), path + [a]) for a, _ in edges]
        self.first[node] = len(self.children)
        self.count[node] = len(edges)
        self.children.extend(child_ids)
        self.actions.extend(a for a, _ in edges)
        self.probs.extend(float(p) for _, p in edges)
        return node

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.close()


def compile(
    game: Any,
    keyer: Optional[Callable[[Any, int], Any]] = None,
    progress: bool = False,
    name: Optional[str] = None,
) -> _cfrkit.Game:
    """Walks ``game`` once and compiles it into a native :class:`cfrkit.Game`.

    ``keyer(state, player)``, if given, maps a player's view to the key of its information set
    (an abstraction: states with equal keys share one strategy); solvers then use those keys,
    and best responses are still computed in the game's own information sets.
    """
    rec = _Recorder(game, keyer, progress)
    try:
        rec.walk(game.initial_state(), [])
    finally:
        rec.finish()
    spec = name or getattr(game, "name", None) or type(game).__name__
    compiled = _cfrkit.compile_recorded(
        spec,
        rec.n,
        rec.kind,
        rec.first,
        rec.count,
        rec.children,
        rec.actions,
        rec.probs,
        rec.returns,
        rec.keys,
    )
    if keyer is not None:
        compiled = compiled.with_keys(_coarse_keys(compiled, rec))
    return compiled


def _coarse_keys(compiled: _cfrkit.Game, rec: _Recorder) -> list[str]:
    """The keyer's key for each of the compiled game's information sets."""
    by_key: dict[str, str] = {}
    for own, coarse in zip(rec.keys, rec.coarse):
        if own:
            previous = by_key.setdefault(own, coarse)
            if previous != coarse:
                raise CompileError(
                    f"the keyer gives two keys ({previous!r}, {coarse!r}) to states of one information set {own!r}"
                )
    return [by_key[k] for k in compiled.infoset_keys()]


def rekey(game: _cfrkit.Game, keyer: Callable[[str, int], Any]) -> _cfrkit.Game:
    """The compiled ``game`` under coarser keys: ``keyer(key, player)`` maps each information
    set's own key to the key of the group it joins (states with equal keys share a strategy)."""
    players = game.infoset_players()
    return game.with_keys([str(keyer(k, p)) for k, p in zip(game.infoset_keys(), players)])


class OpenSpielGame(GameDefinition):
    """Adapter presenting a finite turn-based ``pyspiel`` game through the protocol."""

    def __init__(self, pyspiel_game: Any):
        import pyspiel

        t = pyspiel_game.get_type()
        if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise CompileError(f"{pyspiel_game} is not turn-based; convert it with pyspiel.convert_to_turn_based first")
        self.pyspiel_game = pyspiel_game
        self.num_players = pyspiel_game.num_players()
        self.name = str(pyspiel_game)

    def initial_state(self):
        return self.pyspiel_game.new_initial_state()

    def current_player(self, state):
        if state.is_terminal():
            return TERMINAL
        if state.is_chance_node():
            return CHANCE
        return state.current_player()

    def chance_outcomes(self, state):
        return state.chance_outcomes()

    def legal_actions(self, state):
        return state.legal_actions()

    def apply(self, state, action):
        return state.child(action)

    def returns(self, state):
        return state.returns()

    def information_state(self, state, player):
        return state.information_state_string(player)


def from_openspiel(
    pyspiel_game: Any, keyer: Optional[Callable[[Any, int], Any]] = None, progress: bool = False
) -> _cfrkit.Game:
    """Compiles a finite turn-based OpenSpiel game (information states and action ids are
    OpenSpiel's, so policies convert both ways). ``keyer(pyspiel_state, player)`` as in
    :func:`compile`."""
    return compile(OpenSpielGame(pyspiel_game), keyer=keyer, progress=progress)


def to_openspiel(policy: _cfrkit.Policy, pyspiel_game: Any, game: Optional[_cfrkit.Game] = None):
    """An OpenSpiel ``TabularPolicy`` (``open_spiel.python.policy``) holding ``policy``.

    For a policy under coarse keys, pass the keyed ``game`` so each OpenSpiel information state
    gets its group's probabilities."""
    from open_spiel.python import policy as os_policy

    table = os_policy.TabularPolicy(pyspiel_game)
    lookup = policy if game is None else game.expand_policy(policy)
    for key, row in table.state_lookup.items():
        if key not in lookup:
            raise InvalidArgumentError(
                f"invalid value for policy: no entry for OpenSpiel information state {key!r}"
                " (a policy covering every information state of the game)"
            )
        probs = lookup[key]
        table.action_probability_array[row, :] = 0.0
        for a, p in probs.items():
            table.action_probability_array[row, a] = p
    return table

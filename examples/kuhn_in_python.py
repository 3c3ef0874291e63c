"""Kuhn poker written in Python, compiled once, solved natively, exported to OpenSpiel."""

import cfrkit
from cfrkit.define import CHANCE, TERMINAL, GameDefinition


class Kuhn(GameDefinition):
    """Three cards (0 < 1 < 2), ante 1, one bet of 1; actions 0 = pass, 1 = bet."""

    num_players = 2
    name = "python-kuhn"

    def initial_state(self):
        return ((), "")  # (cards dealt, betting history)

    def current_player(self, state):
        cards, history = state
        if len(cards) < 2:
            return CHANCE
        if history in ("pp", "bp", "bb", "pbp", "pbb"):
            return TERMINAL
        return len(history) % 2

    def chance_outcomes(self, state):
        left = [c for c in range(3) if c not in state[0]]
        return [(c, 1 / len(left)) for c in left]

    def legal_actions(self, state):
        return [0, 1]

    def apply(self, state, action):
        cards, history = state
        if len(cards) < 2:
            return (cards + (action,), history)
        return (cards, history + "pb"[action])

    def returns(self, state):
        cards, history = state
        if history in ("bp", "pbp"):  # the last player folded
            winner = len(history) % 2
            return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        stake = 2.0 if "b" in history else 1.0
        return [stake, -stake] if cards[0] > cards[1] else [-stake, stake]

    def information_state(self, state, player):
        cards, history = state
        return f"{cards[player]}{history}"


if __name__ == "__main__":
    game = cfrkit.compile(Kuhn())
    solver = cfrkit.Solver(game, algorithm="cfr+")
    solver.run(1000)
    print(f"exploitability {solver.exploitability():.6g}, value for player 0 {solver.values()[0]:+.6f}")
    try:
        import pyspiel
    except ImportError:
        raise SystemExit(0)
    os_game = pyspiel.load_game("kuhn_poker")
    tabular = cfrkit.to_openspiel(solver.average_policy(), os_game)
    from open_spiel.python.algorithms import exploitability

    print(f"OpenSpiel's exploitability of the exported policy: {exploitability.exploitability(os_game, tabular):.6g}")

"""Games defined in Python and imported from OpenSpiel; keyers; hooks; policy transforms."""

import pathlib
import re

import cfrkit
import pytest
from cfrkit.define import CHANCE, TERMINAL, GameDefinition

README = pathlib.Path(__file__).parents[1] / "README.md"


def readme_guide():
    """The README's Python guide (the code block under "Your own game, in Python")."""
    section = README.read_text().split("## Your own game, in Python", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def python_kuhn():
    namespace = {"__name__": "readme_guide"}
    exec(readme_guide(), namespace)
    return namespace["Kuhn"]()


def test_readme_guide_runs_end_to_end(pyspiel, capsys):
    exec(readme_guide(), {"__name__": "__main__"})
    out = capsys.readouterr().out
    ours = float(re.search(r"exploitability ([0-9.e-]+)", out).group(1))
    theirs = float(re.search(r"exported policy: ([0-9.e-]+)", out).group(1))
    assert ours == pytest.approx(theirs, rel=1e-5) and ours < 1e-3


def trajectory(game, algo, checkpoints=(1, 10, 100, 500)):
    solver = cfrkit.Solver(game, algorithm=algo, threads=1)
    out = []
    for n in checkpoints:
        solver.run(n - solver.iteration)
        out.append(solver.exploitability())
    return out


@pytest.mark.parametrize("algo", ["cfr", "cfr+", "dcfr"])
def test_python_kuhn_equals_native_kuhn_exactly(algo):
    game = cfrkit.compile(python_kuhn())
    native = cfrkit.load_game("kuhn")
    assert (game.num_infosets, game.num_histories) == (12, 58)
    assert trajectory(game, algo) == trajectory(native, algo)


def test_openspiel_leduc_equals_native_leduc_exactly(pyspiel):
    game = cfrkit.from_openspiel(pyspiel.load_game("leduc_poker"))
    assert (game.num_infosets, game.num_histories) == (936, 9457)
    assert trajectory(game, "cfr+", (10, 100)) == trajectory(cfrkit.load_game("leduc"), "cfr+", (10, 100))


def test_exported_policy_has_openspiel_exploitability(pyspiel):
    from open_spiel.python.algorithms import exploitability

    os_game = pyspiel.load_game("leduc_poker")
    game = cfrkit.from_openspiel(os_game)
    solver = cfrkit.Solver(game, algorithm="dcfr")
    solver.run(200)
    tabular = solver.average_policy().to_openspiel(os_game)
    assert exploitability.exploitability(os_game, tabular) == pytest.approx(solver.exploitability(), rel=1e-9)


def merge_suits(key, player):
    """Leduc keys name cards 0..5; rank = card // 2. Replace every card by its rank."""
    import re

    key = re.sub(r"\[Private: (\d)\]", lambda m: f"[Private: {int(m.group(1)) // 2}]", key)
    return re.sub(r"\[Public: (\d)\]", lambda m: f"[Public: {int(m.group(1)) // 2}]", key)


def test_coalescing_keyer_on_leduc_gives_288_keys_evaluated_in_full_game():
    full = cfrkit.load_game("leduc")
    coarse = cfrkit.rekey(full, merge_suits)
    assert coarse.num_keys == 288 and coarse.num_infosets == 936 and coarse.is_rekeyed
    solver = cfrkit.Solver(coarse, algorithm="cfr+")
    solver.run(300)
    policy = solver.average_policy()
    assert len(policy) == 288
    # Evaluated in the full game: the expanded policy gives every one of the 936 information sets
    # its group's probabilities, and the exploitability is the full game's.
    expanded = coarse.expand_policy(policy)
    assert len(expanded) == 936
    assert solver.exploitability() == pytest.approx(cfrkit.exploitability(full, expanded), rel=1e-12)
    # Suits do not matter in Leduc, so the abstraction loses nothing: it converges like the full game.
    assert solver.exploitability() < 0.01


def test_keyer_at_compile_time_sees_states():
    def rank_only(state, player):  # a coarse key that forgets the history: imperfect recall
        return f"{state[0][player]}:{len(state[1])}"

    game = cfrkit.compile(python_kuhn(), keyer=rank_only)
    assert game.num_infosets == 12 and game.num_keys == 9
    solver = cfrkit.Solver(game, algorithm="cfr")
    solver.run(200)
    assert set(solver.average_policy().keys()) == {f"{c}:{n}" for c in range(3) for n in range(3)}
    assert solver.exploitability() > 0.01  # forgetting the history costs something


class Broken(GameDefinition):
    num_players = 2

    def __init__(self, fault):
        self.fault = fault

    def initial_state(self):
        return 0

    def current_player(self, s):
        return CHANCE if s == 0 else (TERMINAL if s >= 2 else 0)

    def chance_outcomes(self, s):
        return [(0, 0.5), (1, 0.4)] if self.fault == "probs" else [(0, 0.5), (1, 0.5)]

    def legal_actions(self, s):
        return [] if self.fault == "no actions" else ([0, 0] if self.fault == "duplicate" else [0, 1])

    def apply(self, s, a):
        return s + 1

    def returns(self, s):
        return [1.0] if self.fault == "returns" else [1.0, -1.0]

    def information_state(self, s, p):
        return str(s)


@pytest.mark.parametrize(
    "fault,message",
    [
        ("probs", "sum to 1"),
        ("no actions", "no legal actions"),
        ("returns", "1 entries, expected 2"),
        ("duplicate", "distinct"),
    ],
)
def test_inconsistent_games_are_refused_clearly(fault, message):
    with pytest.raises(cfrkit.CompileError, match=message):
        cfrkit.compile(Broken(fault))


def test_hooks_until_exploitability_and_transforms():
    solver = cfrkit.Solver(cfrkit.load_game("kuhn"), algorithm="cfr+")
    seen = []
    solver.run(10_000, until_exploitability=1e-3, callback=lambda s: seen.append(s.iteration))
    assert solver.exploitability() <= 1e-3 and solver.iteration < 10_000 and seen
    thresholded = solver.average_policy(transform=cfrkit.transforms.threshold(0.001))
    for probs in thresholded.to_dict().values():
        assert all(p == 0 or p >= 0.001 for p in probs.values())
        assert sum(probs.values()) == pytest.approx(1.0)
    pure = solver.average_policy(transform=cfrkit.transforms.purify)
    assert all(sorted(p.values()) == [0.0, 1.0] for p in pure.to_dict().values())


def test_hidden_moves_compile_and_match_openspiel(pyspiel):
    """Turn-based Goofspiel hides each bid from the other player: information states span
    histories that differ in hidden moves. cfrkit groups them by key and best-responds across
    them; CFR's NashConv follows OpenSpiel's."""
    os_game = pyspiel.convert_to_turn_based(
        pyspiel.load_game("goofspiel(num_cards=3,imp_info=True,points_order=descending)")
    )
    game = cfrkit.from_openspiel(os_game)
    os_solver = pyspiel.CFRSolver(os_game)
    solver = cfrkit.Solver(game, algorithm="cfr", threads=2)
    uniform = game.uniform_policy()
    assert cfrkit.nash_conv(game, uniform) == pytest.approx(
        pyspiel.nash_conv(os_game, {k: sorted(v.items()) for k, v in uniform.to_dict().items()}),
        rel=1e-9,
    )
    for n in (1, 10, 50):
        while solver.iteration < n:
            os_solver.evaluate_and_update_policy()
            solver.run(1)
        theirs = pyspiel.nash_conv(os_game, os_solver.average_policy())
        assert solver.nash_conv() == pytest.approx(theirs, rel=1e-6, abs=1e-12)
    exported = {k: sorted(v.items()) for k, v in solver.average_policy().to_dict().items()}
    assert pyspiel.nash_conv(os_game, exported) == pytest.approx(solver.nash_conv(), rel=1e-9, abs=1e-12)


def test_export_of_an_incomplete_policy_names_the_missing_state(pyspiel):
    partial = cfrkit.Policy({"0": {0: 0.5, 1: 0.5}})
    with pytest.raises(cfrkit.InvalidArgumentError, match="no entry for OpenSpiel information state"):
        partial.to_openspiel(pyspiel.load_game("kuhn_poker"))

"""Cross-checks against OpenSpiel itself: trajectories, exploitability of handed-over policies."""

import cfrkit
import pytest

pytestmark = pytest.mark.openspiel

OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
SOLVERS = {"cfr": "CFRSolver", "cfr+": "CFRPlusSolver"}


def to_openspiel(policy):
    """cfrkit Policy -> the {info_state: [(action, prob), ...]} mapping pyspiel accepts."""
    return {key: sorted(probs.items()) for key, probs in policy.to_dict().items()}


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("algo", ["cfr", "cfr+"])
def test_trajectory_equals_openspiel(pyspiel, game_name, algo):
    os_game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])
    os_solver = getattr(pyspiel, SOLVERS[algo])(os_game)
    solver = cfrkit.Solver(cfrkit.load_game(game_name), algorithm=algo, threads=1)
    done = 0
    for n in (1, 10, 100, 300):
        for _ in range(n - done):
            os_solver.evaluate_and_update_policy()
        solver.run(n - done)
        done = n
        theirs = pyspiel.exploitability(os_game, os_solver.average_policy())
        ours = solver.exploitability()
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-15), (n, ours, theirs)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_openspiel_agrees_on_our_policy(pyspiel, game_name):
    os_game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])
    game = cfrkit.load_game(game_name)
    for policy in (game.uniform_policy(), _solved(game, "dcfr", 200)):
        theirs = pyspiel.exploitability(os_game, to_openspiel(policy))
        assert cfrkit.exploitability(game, policy) == pytest.approx(theirs, rel=1e-9, abs=1e-15)
        assert cfrkit.nash_conv(game, policy) == pytest.approx(
            pyspiel.nash_conv(os_game, to_openspiel(policy)), rel=1e-9, abs=1e-15
        )


def test_openspiel_policy_imports(pyspiel):
    os_game = pyspiel.load_game("leduc_poker")
    os_solver = pyspiel.CFRPlusSolver(os_game)
    for _ in range(50):
        os_solver.evaluate_and_update_policy()
    table = os_solver.tabular_average_policy().policy_table()
    policy = cfrkit.Policy({k: dict(v) for k, v in table.items()}, game="leduc")
    game = cfrkit.load_game("leduc")
    assert cfrkit.exploitability(game, policy) == pytest.approx(
        pyspiel.exploitability(os_game, os_solver.average_policy()), rel=1e-9
    )


def test_information_states_and_actions_match(pyspiel):
    for name, os_name in OPENSPIEL_NAMES.items():
        os_game = pyspiel.load_game(os_name)
        keys = openspiel_information_states(os_game)
        policy = cfrkit.load_game(name).uniform_policy()
        assert set(policy.keys()) == set(keys)
        for key, actions in keys.items():
            assert sorted(policy[key]) == actions


def openspiel_information_states(os_game):
    """{information state string: legal actions} over all decision states of an OpenSpiel game."""
    keys = {}
    stack = [os_game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        keys[state.information_state_string()] = state.legal_actions()
        stack.extend(state.child(a) for a in state.legal_actions())
    return keys


def _solved(game, algo, iterations):
    solver = cfrkit.Solver(game, algorithm=algo, threads=1)
    solver.run(iterations)
    return solver.average_policy()


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_kuhn_cfr_equals_openspiel(pyspiel, players):
    os_game = pyspiel.load_game(f"kuhn_poker(players={players})")
    os_solver = pyspiel.CFRSolver(os_game)
    game = cfrkit.load_game(f"kuhn(players={players})")
    solver = cfrkit.Solver(game, algorithm="cfr", threads=2)
    for _ in range(30):
        os_solver.evaluate_and_update_policy()
    solver.run(30)
    theirs = pyspiel.nash_conv(os_game, os_solver.average_policy())
    assert solver.nash_conv() == pytest.approx(theirs, rel=1e-9)
    assert pyspiel.nash_conv(os_game, to_openspiel(solver.average_policy())) == pytest.approx(theirs, rel=1e-9)

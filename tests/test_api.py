"""The Python API: games, solvers, policies, files, errors."""

import cfrkit
import numpy as np
import pytest

REFERENCE = {  # shared/reference.md: OpenSpiel 2.0.2 exploitability after N iterations
    ("kuhn", "cfr"): {10: 0.0686988, 100: 0.00822598, 1000: 0.000937617},
    ("kuhn", "cfr+"): {10: 0.0326871, 100: 0.00119440, 1000: 8.73653e-05},
    ("leduc", "cfr"): {10: 0.888579, 100: 0.0957164, 1000: 0.0118178},
    ("leduc", "cfr+"): {10: 0.610439, 100: 0.0134160, 1000: 0.000257152},
}


def six_digits(x):
    return f"{x:.5e}"


@pytest.mark.parametrize("game_name,algo", sorted(REFERENCE))
def test_reference_trajectories(game_name, algo):
    solver = cfrkit.Solver(cfrkit.load_game(game_name), algorithm=algo)
    for n, expected in REFERENCE[(game_name, algo)].items():
        solver.run(n - solver.iteration)
        assert six_digits(solver.exploitability()) == six_digits(expected)


def test_game_sizes_and_uniform_exploitability():
    kuhn, leduc = cfrkit.load_game("kuhn"), cfrkit.load_game("leduc")
    assert (kuhn.num_infosets, kuhn.num_histories) == (12, 58)
    assert (leduc.num_infosets, leduc.num_histories) == (936, 9457)
    assert cfrkit.exploitability(kuhn, kuhn.uniform_policy()) == pytest.approx(0.458333, abs=1e-6)
    assert cfrkit.exploitability(leduc, leduc.uniform_policy()) == pytest.approx(2.37361, abs=1e-5)


def test_solved_values():
    for name, value in (("kuhn", -1 / 18), ("leduc", -0.0856064)):
        solver = cfrkit.Solver(cfrkit.load_game(name), algorithm="dcfr")
        solver.run(2000)
        v = solver.values()
        assert v[0] == pytest.approx(value, abs=1e-4)
        assert v[0] + v[1] == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("algo", ["dcfr", "pcfr+"])
def test_fast_algorithms_converge(algo):
    solver = cfrkit.Solver(cfrkit.load_game("leduc"), algorithm=algo)
    solver.run(1000)
    assert solver.exploitability() < 1e-3


def test_thread_counts_give_identical_results():
    game = cfrkit.load_game("leduc")
    runs = []
    for threads in (1, 2):
        s = cfrkit.Solver(game, algorithm="cfr+", threads=threads)
        s.run(50)
        runs.append(s.average_policy().to_numpy())
    assert np.array_equal(runs[0], runs[1])


def test_policy_lookup_and_numpy():
    game = cfrkit.load_game("kuhn")
    solver = cfrkit.Solver(game)
    solver.run(500, callback=lambda s: None)
    policy = solver.average_policy()
    assert len(policy) == 12 and "0" in policy and "nope" not in policy
    assert set(policy["0"]) == {0, 1} and sum(policy["0"].values()) == pytest.approx(1)
    assert policy.get("nope") is None
    with pytest.raises(KeyError, match="nope"):
        policy["nope"]
    probs, actions = policy.to_numpy(), policy.action_ids()
    assert probs.shape == (12, 2) and actions.shape == (12, 2)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0)
    # Jack (card 0) facing a bet always folds at equilibrium.
    assert policy["0pb"][0] == pytest.approx(1.0, abs=1e-2)


def test_policy_file_round_trip(tmp_path):
    game = cfrkit.load_game("leduc")
    solver = cfrkit.Solver(game)
    solver.run(100)
    policy = solver.average_policy()
    path = tmp_path / "leduc.cfrkit"
    policy.save(path)
    loaded = cfrkit.load_policy(path)
    assert loaded.game == "leduc" and loaded.to_dict() == policy.to_dict()
    assert cfrkit.exploitability(game, loaded) == solver.exploitability()
    assert not list(tmp_path.glob(".*tmp*")), "temporary file left behind"


def test_corrupt_and_foreign_files_are_refused(tmp_path):
    game = cfrkit.load_game("kuhn")
    path = tmp_path / "kuhn.cfrkit"
    game.uniform_policy().save(path)
    data = bytearray(path.read_bytes())
    data[40] ^= 0xFF
    bad = tmp_path / "corrupt.cfrkit"
    bad.write_bytes(bytes(data))
    with pytest.raises(cfrkit.FileFormatError, match="checksum"):
        cfrkit.load_policy(bad)
    foreign = tmp_path / "foreign.cfrkit"
    foreign.write_text("hello world, this is not a policy file at all")
    with pytest.raises(cfrkit.FileFormatError, match="magic"):
        cfrkit.load_policy(foreign)
    truncated = tmp_path / "short.cfrkit"
    truncated.write_bytes(path.read_bytes()[:-7])
    with pytest.raises(cfrkit.FileFormatError):
        cfrkit.load_policy(truncated)
    with pytest.raises(cfrkit.CfrkitIOError) as info:
        cfrkit.load_policy(tmp_path / "missing.cfrkit")
    assert isinstance(info.value, OSError)


def test_errors_name_the_bad_value():
    with pytest.raises(cfrkit.UnknownGameError, match="'chess'|\"chess\"") as info:
        cfrkit.load_game("chess")
    assert isinstance(info.value, ValueError) and "leduc" in str(info.value)
    with pytest.raises(cfrkit.UnknownAlgorithmError, match="cfr\\+\\+"):
        cfrkit.Solver(cfrkit.load_game("kuhn"), algorithm="cfr++")
    with pytest.raises(cfrkit.InvalidArgumentError, match="cards"):
        cfrkit.load_game("kuhn(cards=5)")
    with pytest.raises(cfrkit.InvalidArgumentError, match="game spec"):
        cfrkit.load_game("leduc(")
    with pytest.raises(cfrkit.InvalidArgumentError, match="iterations"):
        cfrkit.Solver(cfrkit.load_game("kuhn")).run(-5)
    with pytest.raises(cfrkit.InvalidArgumentError, match="threads"):
        cfrkit.Solver(cfrkit.load_game("kuhn"), threads=-1)
    with pytest.raises(cfrkit.InvalidArgumentError, match="probability"):
        cfrkit.Policy({"0": {0: -1.0, 1: 2.0}})
    with pytest.raises(cfrkit.InvalidArgumentError, match="missing information state"):
        cfrkit.exploitability(cfrkit.load_game("kuhn"), cfrkit.Policy({"0": {0: 1.0, 1: 0.0}}))


def test_missing_keys_can_fall_back_to_uniform():
    game = cfrkit.load_game("kuhn")
    partial = cfrkit.Policy({"0": {0: 0.5, 1: 0.5}})
    assert cfrkit.exploitability(game, partial, missing_uniform=True) == pytest.approx(0.458333, abs=1e-6)


def test_best_response_is_pure_and_gains():
    game = cfrkit.load_game("kuhn")
    value, br = cfrkit.best_response(game, game.uniform_policy(), 0)
    assert len(br) == 6 and all(sorted(p.values()) == [0.0, 1.0] for p in br.to_dict().values())
    assert value > cfrkit.expected_values(game, game.uniform_policy())[0]


def test_run_until_and_callback_stop():
    solver = cfrkit.Solver(cfrkit.load_game("kuhn"), algorithm="cfr+")
    solver.run_until(exploitability=1e-3)
    assert solver.exploitability() <= 1e-3 and solver.iteration < 1000
    calls = []
    solver = cfrkit.Solver(cfrkit.load_game("kuhn"))
    done = solver.run(10_000, callback=lambda s: calls.append(s.iteration) or True)
    assert done == solver.iteration == calls[0] < 10_000


def test_kuhn_players_parameter():
    assert cfrkit.load_game("kuhn(players=3)").num_players == 3
    with pytest.raises(cfrkit.InvalidArgumentError, match="players"):
        cfrkit.load_game("kuhn(players=1)")


def test_solver_player_limit_is_a_clear_error():
    game = cfrkit.load_game("kuhn(players=5)")
    assert cfrkit.nash_conv(game, game.uniform_policy()) > 0  # evaluation works for any count
    with pytest.raises(cfrkit.InvalidArgumentError, match="number of players.*5"):
        cfrkit.Solver(game)

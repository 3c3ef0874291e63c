"""Monte-Carlo CFR (``es-mccfr``, ``os-mccfr``): OpenSpiel's C++ solvers side by side, seeds,
threads, checkpoints, files, the CLI and bad parameters."""

import json
import math
import statistics

import cfrkit
import pytest
from cfrkit.cli import main as cli_main

MCCFR = ("es-mccfr", "os-mccfr")

#: cfrkit spec -> (OpenSpiel name, iterations, seeds) of the side-by-side comparison.
GAMES = {
    "kuhn": ("kuhn_poker", 10_000, range(8)),
    "leduc": ("leduc_poker", 10_000, range(6)),
    "liars_dice": ("liars_dice", 10_000, range(4)),
}

#: How many combined standard errors the two means may differ by. Both sides are seeded, so
#: the test is deterministic; 4 standard errors is what honest samples of one distribution
#: exceed about once in a few hundred comparisons, while a different algorithm (another
#: average, no importance weights, a wrong epsilon) is many standard errors away.
K = 4.0


@pytest.fixture(scope="module")
def games(pyspiel):
    """The cfrkit game of each spec: native Kuhn and Leduc, Liar's Dice imported from OpenSpiel."""
    return {
        "kuhn": cfrkit.load_game("kuhn"),
        "leduc": cfrkit.load_game("leduc"),
        "liars_dice": cfrkit.from_openspiel(pyspiel.load_game("liars_dice")),
    }


def openspiel_solver(pyspiel, os_game, algo, seed):
    if algo == "es-mccfr":
        return pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=seed)
    return pyspiel.OutcomeSamplingMCCFRSolver(os_game, epsilon=0.6, seed=seed)


def openspiel_exploitability(pyspiel, game, os_policy):
    """Exploitability of an OpenSpiel average policy, computed by cfrkit (which equals OpenSpiel's
    own, see test_openspiel.py and test_openspiel_policies_evaluate_alike below, and takes a
    fraction of the time on Liar's Dice)."""
    table = game.uniform_policy().to_dict()
    for key in table:
        try:
            table[key] = dict(os_policy.get_state_policy(key))
        except pyspiel.SpielError:
            pass  # never visited: OpenSpiel's default policy, uniform
    return cfrkit.exploitability(game, cfrkit.Policy(table, game=game.spec))


@pytest.mark.openspiel
@pytest.mark.parametrize("algo", MCCFR)
@pytest.mark.parametrize("name", list(GAMES))
def test_exploitability_matches_openspiel_over_seeds(pyspiel, games, name, algo):
    os_name, iterations, seeds = GAMES[name]
    game, os_game = games[name], pyspiel.load_game(os_name)
    ours, theirs = [], []
    for seed in seeds:
        solver = cfrkit.Solver(game, algorithm=algo, seed=seed, threads=1)
        solver.run(iterations)
        ours.append(solver.exploitability())
        os_solver = openspiel_solver(pyspiel, os_game, algo, seed)
        for _ in range(iterations):
            os_solver.run_iteration()
        theirs.append(openspiel_exploitability(pyspiel, game, os_solver.average_policy()))
    n = len(ours)
    spread = math.sqrt(statistics.variance(ours) / n + statistics.variance(theirs) / n)
    gap = abs(statistics.mean(ours) - statistics.mean(theirs))
    report = f"{name} {algo}: cfrkit {ours}, OpenSpiel {theirs}"
    assert gap <= K * spread, report
    assert len(set(ours)) == n, f"every seed gives its own run: {report}"


@pytest.mark.openspiel
def test_openspiel_policies_evaluate_alike(pyspiel, games):
    os_game = pyspiel.load_game("leduc_poker")
    os_solver = pyspiel.OutcomeSamplingMCCFRSolver(os_game, epsilon=0.6, seed=1)
    for _ in range(2000):
        os_solver.run_iteration()
    theirs = pyspiel.exploitability(os_game, os_solver.average_policy())
    assert openspiel_exploitability(pyspiel, games["leduc"], os_solver.average_policy()) == pytest.approx(
        theirs, rel=1e-9
    )


@pytest.mark.openspiel
def test_three_players(pyspiel):
    """Any loadable game: three-player Kuhn from OpenSpiel, where es-mccfr averages for the
    player after the traverser as OpenSpiel's simple averaging does."""
    os_game = pyspiel.load_game("kuhn_poker(players=3)")
    game = cfrkit.from_openspiel(os_game)
    uniform = cfrkit.nash_conv(game, game.uniform_policy())
    for algo in MCCFR:
        ours = cfrkit.Solver(game, algorithm=algo, seed=0, threads=1)
        ours.run(20_000)
        theirs = openspiel_solver(pyspiel, os_game, algo, 0)
        for _ in range(20_000):
            theirs.run_iteration()
        theirs = pyspiel.nash_conv(os_game, theirs.average_policy())
        assert ours.nash_conv() < uniform / 20
        assert 0.25 < ours.nash_conv() / theirs < 4, (algo, ours.nash_conv(), theirs)


def run_policy(game, **kw):
    solver = cfrkit.Solver(game, **kw)
    solver.run(3000)
    return solver.average_policy().to_dict()


@pytest.mark.parametrize("algo", MCCFR)
def test_same_seed_same_result_other_seed_another(algo):
    leduc = cfrkit.load_game("leduc")
    for threads in (1, 2):
        first = run_policy(leduc, algorithm=algo, seed=5, threads=threads)
        assert run_policy(leduc, algorithm=algo, seed=5, threads=threads) == first
        assert run_policy(leduc, algorithm=algo, seed=6, threads=threads) != first


@pytest.mark.parametrize("algo", MCCFR)
def test_chunked_runs_equal_one_native_call(algo):
    """`Solver.run` splits work into timed chunks; they end on round boundaries, so the result
    is that of one uninterrupted run."""
    kuhn = cfrkit.load_game("kuhn")
    for threads in (1, 2):
        chunked = cfrkit.Solver(kuhn, algorithm=algo, seed=3, threads=threads)
        calls = []
        chunked.run(5000, callback=lambda s, seen=calls: seen.append(s.iteration))
        assert len(calls) > 1 and all(i % chunked.round_size == 0 for i in calls[:-1])
        whole = cfrkit.Solver(kuhn, algorithm=algo, seed=3, threads=threads)
        assert whole._native.run(5000) == 5000
        assert chunked.average_policy().to_dict() == whole.average_policy().to_dict()


def test_checkpoints_resume_exactly_and_policies_save(tmp_path):
    leduc = cfrkit.load_game("leduc")
    whole = cfrkit.Solver(leduc, algorithm="os-mccfr", seed=2, threads=2, epsilon=0.5)
    whole.run(4 * whole.round_size)
    first = cfrkit.Solver(leduc, algorithm="os-mccfr", seed=2, threads=2, epsilon=0.5)
    first.run(2 * first.round_size)
    first.save(tmp_path / "ck.cfrkit")
    resumed = cfrkit.Solver(leduc, algorithm="os-mccfr", seed=2, threads=2, epsilon=0.5)
    resumed.load(tmp_path / "ck.cfrkit")
    assert resumed.iteration == 2 * resumed.round_size
    resumed.run(2 * resumed.round_size)
    assert resumed.average_policy().to_dict() == whole.average_policy().to_dict()
    assert resumed.exploitability() == whole.exploitability()
    with pytest.raises(cfrkit.FileFormatError, match="seed 2.*seed 3"):
        cfrkit.Solver(leduc, algorithm="os-mccfr", seed=3, epsilon=0.5).load(tmp_path / "ck.cfrkit")
    # The algorithm is named, not the file's internal kind.
    with pytest.raises(cfrkit.FileFormatError, match=r"Monte-Carlo CFR solver \(es-mccfr, os-mccfr\), not .*full-width"):
        cfrkit.Solver(leduc, algorithm="cfr+").load(tmp_path / "ck.cfrkit")
    whole.average_policy().save(tmp_path / "policy.cfrkit")
    back = cfrkit.load_policy(tmp_path / "policy.cfrkit")
    assert cfrkit.exploitability(leduc, back) == pytest.approx(whole.exploitability(), rel=1e-12)
    assert sum(whole.values()) == pytest.approx(0.0, abs=1e-12)
    assert whole.nash_conv() == pytest.approx(2 * whole.exploitability(), rel=1e-12)


def test_coarse_keys_and_current_policy():
    leduc = cfrkit.load_game("leduc")
    # Imperfect recall: the board card's suit forgotten where it shows in a key.
    coarse = leduc.with_keys([k.replace("[Public: 1]", "[Public: 0]") for k in leduc.infoset_keys()])
    assert coarse.num_keys < leduc.num_infosets
    solver = cfrkit.Solver(coarse, algorithm="es-mccfr", seed=0, threads=1)
    solver.run(2000)
    assert len(solver.average_policy().to_dict()) == coarse.num_keys
    assert 0.0 < solver.exploitability() < cfrkit.exploitability(leduc, leduc.uniform_policy())
    current = solver.current_policy().to_dict()
    assert all(abs(sum(p.values()) - 1.0) < 1e-12 for p in current.values())


def test_names_come_from_the_core_and_bad_parameters_say_what_is_allowed():
    assert set(MCCFR) == set(cfrkit.SAMPLED_ALGORITHMS) and set(MCCFR) < set(cfrkit.ALGORITHMS)
    assert "cfr+" in cfrkit.ALGORITHMS
    kuhn = cfrkit.load_game("kuhn")
    solver = cfrkit.Solver(kuhn, algorithm="os-mccfr", seed=7)
    assert (solver.algorithm, solver.seed, solver.epsilon, solver.engine) == ("os-mccfr", 7, 0.6, "sampled")
    with pytest.raises(cfrkit.UnknownAlgorithmError, match='"mccfr".*es-mccfr, os-mccfr'):
        cfrkit.Solver(kuhn, algorithm="mccfr")
    for eps in (0.0, 1.5, -1.0, float("nan")):
        with pytest.raises(cfrkit.InvalidArgumentError, match=r"epsilon.*\(0, 1\]"):
            cfrkit.Solver(kuhn, algorithm="os-mccfr", epsilon=eps)
    with pytest.raises(cfrkit.InvalidArgumentError, match="epsilon.*none for es-mccfr"):
        cfrkit.Solver(kuhn, algorithm="es-mccfr", epsilon=0.5)
    with pytest.raises(cfrkit.InvalidArgumentError, match="epsilon.*os-mccfr"):
        cfrkit.Solver(kuhn, algorithm="cfr+", epsilon=0.5)
    for seed in (-1, 2**64, "3"):
        with pytest.raises(cfrkit.InvalidArgumentError, match="seed.*2\\*\\*64"):
            cfrkit.Solver(kuhn, algorithm="es-mccfr", seed=seed)
    with pytest.raises(cfrkit.InvalidArgumentError, match="alternating"):
        cfrkit.Solver(kuhn, algorithm="es-mccfr", alternating=False)
    with pytest.raises(cfrkit.InvalidArgumentError, match="engine.*auto"):
        cfrkit.Solver(kuhn, algorithm="es-mccfr", engine="lanes")


def test_cli_solves_with_mccfr(tmp_path, capsys):
    out = tmp_path / "kuhn.cfrkit"
    args = ["solve", "kuhn", "--algo", "es-mccfr", "--seed", "4", "--iterations", "20000", "--threads", "1"]
    assert cli_main(args + ["--out", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (record["algorithm"], record["seed"], record["iterations"]) == ("es-mccfr", 4, 20000)
    assert record["exploitability"] < 0.02
    again = cfrkit.Solver(cfrkit.load_game("kuhn"), algorithm="es-mccfr", seed=4, threads=1)
    again.run(20000)
    assert record["exploitability"] == again.exploitability()
    assert cfrkit.load_policy(out).to_dict() == again.average_policy().to_dict()
    assert cli_main(["solve", "kuhn", "--algo", "os-mcfr"]) == 2
    assert "os-mccfr" in capsys.readouterr().err

"""pytest-benchmark suite of the full-width solvers: `python -m pytest benches/bench_solvers.py`."""

import cfrkit
import pytest


@pytest.mark.parametrize("algo", ["cfr", "cfr+", "dcfr", "pcfr+"])
def test_leduc_100_iterations_one_thread(benchmark, algo):
    game = cfrkit.load_game("leduc")

    def run():
        solver = cfrkit.Solver(game, algorithm=algo, threads=1)
        solver.run(100)
        return solver

    solver = benchmark(run)
    assert solver.iteration == 100


def test_kuhn_1000_iterations(benchmark):
    game = cfrkit.load_game("kuhn")
    benchmark(lambda: cfrkit.Solver(game, threads=1).run(1000))


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_compile(benchmark, name):
    game = benchmark(cfrkit.load_game, name)
    assert game.num_infosets > 0


def test_leduc_exploitability(benchmark):
    game = cfrkit.load_game("leduc")
    policy = game.uniform_policy()
    value = benchmark(cfrkit.exploitability, game, policy)
    assert value == pytest.approx(2.37361, abs=1e-5)

"""pytest-benchmark suite of Blackjack++: `python -m pytest benches/bench_blackjack.py`.

Targets (issue 3): building (1,1) with max_hits 3 (1,285,417 nodes in the original's count) in
under 0.5 s and 150 MB; one CFR+ iteration there in under 20 ms on 2 cores. The side-by-side
table with the original's figures comes from `python benches/blackjack_vs_original.py`.
"""

import cfrkit
import pytest
from cfrkit import blackjack


@pytest.mark.parametrize("max_hits", [2, 3])
def test_build_aces_up(benchmark, max_hits):
    game = benchmark.pedantic(blackjack.game, args=((1, 1, 1), max_hits), rounds=3, iterations=1)
    assert blackjack.original_node_count(game) == {2: 13_553, 3: 1_285_417}[max_hits]


@pytest.mark.parametrize("max_hits, iterations", [(1, 1000), (2, 100)])
def test_cfr_plus_iterations(benchmark, max_hits, iterations):
    game = blackjack.game((6, 6, 2), max_hits)

    def run():
        solver = cfrkit.Solver(game, "cfr+", threads=0)
        solver.run(iterations)
        return solver

    solver = benchmark.pedantic(run, rounds=1, iterations=1)
    assert solver.iteration == iterations


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-threads"])
@pytest.mark.parametrize("engine", ["auto", "lanes"])
def test_cfr_plus_iteration_aces_up_max_hits_3(benchmark, threads, engine):
    game = blackjack.game((1, 1, 1), 3)
    solver = cfrkit.Solver(game, "cfr+", threads=threads, engine=engine)
    solver.run(1)  # warm up
    rounds = 50 if engine == "auto" else 5
    benchmark.pedantic(solver.run, args=(1,), rounds=rounds, iterations=1)
    assert solver.iteration == rounds + 1

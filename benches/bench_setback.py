"""pytest-benchmark suite of Setback: `python -m pytest benches/bench_setback.py`.

Micro-benchmarks of the rules engine and of a short training chunk. The steady-state
comparison with the original (deals/s per core on 1 and all threads, bytes per infoset, time
for 1M iterations) is `python benches/setback_vs_original.py`.
"""

import random

import pytest
from cfrkit import setback


def test_random_abstract_playouts(benchmark):
    rng = random.Random(0)

    def play(n=200):
        cards = 0
        for seed in range(n):
            d = setback.Deal.random(seed)
            while not d.finished:
                if d.play(rng.choice(d.abstract_actions())) is not None:
                    cards += 1
        return cards

    cards = benchmark(play)
    assert cards % 24 == 0 and cards > 0


@pytest.mark.parametrize("threads", [1, 0], ids=["1-thread", "all-threads"])
@pytest.mark.parametrize("algo", setback.ALGORITHMS)
def test_first_deals(benchmark, algo, threads):
    def run():
        t = setback.Trainer(algo, 0, threads)
        while t.iterations < 20:
            t.run(20, 1.0)
        return t

    t = benchmark.pedantic(run, rounds=1, iterations=1)
    assert t.iterations == 20 and t.table_bytes < 64 * t.infosets

"""`cfrkit bench` and `cfrkit.bench`: points, files, plots, reproducibility, OpenSpiel peers, errors."""

import csv
import importlib
import importlib.util
import io
import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET

import cfrkit
import pytest
from cfrkit.bench import BenchResult, Curve, Point

FULL_WIDTH = [a for a in ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+") if a in cfrkit.ALGORITHMS]
SAMPLED = [a for a in ("es-mccfr", "os-mccfr") if a in cfrkit.ALGORITHMS]
needs_sampled = pytest.mark.skipif(not SAMPLED, reason="this build has no MCCFR solvers")
needs_openspiel = pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel is not installed")


def cfrkit_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "bench", *args], capture_output=True, text=True, timeout=300
    )


def solver_values(game, algo, iterations, seed=0):
    """The exploitability a fresh solver reports after each of ``iterations`` (increasing)."""
    solver = cfrkit.Solver(game, algorithm=algo, threads=1, seed=seed)
    out = []
    for n in iterations:
        solver.run(n - solver.iteration)
        assert solver.iteration == n
        out.append(solver.exploitability())
    return out


def check_curves(points_by_curve, game, iterations, seed=0):
    """Each curve: iteration counts strictly increasing up to the budget, time non-decreasing,
    values equal to what the solver reports at those iterations."""
    for algo, points in points_by_curve.items():
        its = [p[0] for p in points]
        assert its == sorted(set(its)) and its[0] >= 1 and its[-1] == iterations, (algo, its)
        assert len(its) >= 10, its  # log-spaced: 1, 2, 3, ... up to the budget
        secs = [p[1] for p in points]
        assert all(b >= a for a, b in zip(secs, secs[1:])) and secs[0] > 0
        assert [p[2] for p in points] == solver_values(game, algo, its, seed), algo


def test_json_and_csv_hold_the_solvers_own_values(tmp_path):
    game = cfrkit.load_game("kuhn")
    result = cfrkit.bench(game, algos=FULL_WIDTH, iterations=300, threads=1)
    assert result.metric == "exploitability" and [c.algorithm for c in result.curves] == FULL_WIDTH
    data = json.loads(result.to_json(tmp_path / "r.json"))
    assert json.loads((tmp_path / "r.json").read_text()) == data
    from_json = {
        c["algorithm"]: [(p["iteration"], p["seconds"], p["exploitability"]) for p in c["points"]]
        for c in data["curves"]
    }
    check_curves(from_json, game, 300)
    result.to_csv(tmp_path / "r.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert set(rows[0]) == {
        "implementation",
        "solver",
        "algorithm",
        "threads",
        "iteration",
        "seconds",
        "exploitability",
    }
    from_csv = {}
    for r in rows:
        assert r["implementation"] == "cfrkit" and r["threads"] == "1"
        from_csv.setdefault(r["algorithm"], []).append(
            (int(r["iteration"]), float(r["seconds"]), float(r["exploitability"]))
        )
    assert from_csv == from_json
    for c in data["curves"]:
        assert c["iterations"] == 300 and c["final"] == c["points"][-1]["exploitability"]
        assert c["iterations_per_second"] == pytest.approx(300 / c["seconds"])


def test_result_reads_back_from_its_json(tmp_path):
    result = cfrkit.bench("kuhn", algos="cfr+,dcfr", iterations=50, threads=1)
    result.to_json(tmp_path / "r.json")
    again = BenchResult.from_json(tmp_path / "r.json")
    assert again == result and BenchResult.from_json(result.to_json()).to_dict() == result.to_dict()
    assert again.table() == result.table()
    with pytest.raises(cfrkit.InvalidArgumentError, match="not one written by cfrkit"):
        BenchResult.from_json('{"game": "kuhn"}')


def test_same_seed_gives_the_same_curves():
    def curves(seed):
        result = cfrkit.bench("leduc", algos=FULL_WIDTH, iterations=40, threads=1, seed=seed)
        return [(c.name, [(p.iteration, p.value) for p in c.points]) for c in result.curves]

    first = curves(3)
    assert first == curves(3)
    assert first == curves(4)  # full-width solvers do not depend on the seed


@needs_sampled
@pytest.mark.parametrize("algo", SAMPLED)
def test_sampled_solvers_points_and_seeds(algo):
    game = cfrkit.load_game("kuhn")

    def curve(seed):
        result = cfrkit.bench(game, algos=[algo], iterations=2000, threads=1, seed=seed)
        return [(p.iteration, p.seconds, p.value) for p in result.curves[0].points]

    first = curve(5)
    check_curves({algo: first}, game, 2000, seed=5)
    assert [(i, v) for i, _, v in first] == [(i, v) for i, _, v in curve(5)]
    assert [v for _, _, v in first] != [v for _, _, v in curve(6)]
    # On several threads iterations run in rounds: the benchmark stops on round boundaries only,
    # so the curve does not depend on timing.
    runs = [cfrkit.bench(game, algos=[algo], iterations=3000, threads=2, seed=5).curves[0] for _ in range(2)]
    assert [(p.iteration, p.value) for p in runs[0].points] == [(p.iteration, p.value) for p in runs[1].points]
    assert runs[0].iterations == 3000


def test_time_budget_and_explicit_checkpoints():
    result = cfrkit.bench("kuhn", algos="cfr+", seconds=0.3, threads=1)
    curve = result.curves[0]
    assert result.budget_seconds == 0.3 and result.budget_iterations is None
    assert 0.3 <= curve.seconds < 0.3 + 1.0 and curve.iterations > 100
    its = [p.iteration for p in curve.points]
    assert its == sorted(set(its))
    result = cfrkit.bench("kuhn", algos="cfr", iterations=100, checkpoints=[10, 1, 30], threads=1)
    assert [p.iteration for p in result.curves[0].points] == [1, 10, 30, 100]


def test_time_to_and_speedups_on_known_points():
    fast = Curve("fast", "cfr+", "cfrkit", 1, [Point(1, 1.0, 1e-1), Point(10, 10.0, 1e-3)])
    slow = Curve("slow", "cfr", "openspiel", 1, [Point(1, 10.0, 1e-1), Point(10, 100.0, 1e-2)])
    assert fast.time_to(1e-2) == pytest.approx(math.sqrt(10))  # log-log halfway
    assert fast.iterations_to(1e-2) == pytest.approx(math.sqrt(10))
    assert fast.time_to(1e-1) == 1.0 and fast.time_to(1e-4) is None
    result = BenchResult("kuhn", "exploitability", 2, None, 10, 1, 0, [fast, slow])
    assert result.common_value == 1e-2
    assert result.speedups() == {"fast": pytest.approx(100 / math.sqrt(10)), "slow": 1.0}
    table = result.table()
    assert "31.6x" in table and "1.0x" in table and "—" in table


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_is_a_valid_file(tmp_path, suffix):
    pytest.importorskip("matplotlib")
    result = cfrkit.bench("kuhn", algos="cfr,cfr+", iterations=50, threads=1)
    path = tmp_path / f"plot{suffix}"
    result.plot(path)
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    else:
        root = ET.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        text = "".join(root.itertext())
        assert "cfrkit cfr+" in text and "iterations" in text


def test_plot_without_matplotlib_names_the_extra(monkeypatch, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = cfrkit.bench("kuhn", algos="cfr", iterations=5, threads=1)
    with pytest.raises(cfrkit.CfrkitError, match=r"cfrkit\[plot\]"):
        result.plot(tmp_path / "x.png")


def test_peer_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel then raises ImportError
    with pytest.raises(cfrkit.InvalidArgumentError, match=r"not installed \(pip install 'cfrkit\[openspiel\]'\)"):
        cfrkit.bench("kuhn", algos="cfr", peers="openspiel", iterations=5)


@pytest.mark.openspiel
def test_openspiel_peers_match_cfrkit(pyspiel):
    algos = ["cfr", "cfr+", *SAMPLED]
    result = cfrkit.bench("kuhn", algos=algos, peers=["openspiel"], iterations=200, threads=1)
    names = [c.name for c in result.curves]
    assert names[: len(algos)] == [f"cfrkit {a}" for a in algos]
    assert names[len(algos) :][:2] == ["OpenSpiel CFRSolver", "OpenSpiel CFRPlusSolver"]
    ours = {c.algorithm: c for c in result.curves if c.implementation == "cfrkit"}
    for theirs in result.curves[len(algos) :]:
        assert theirs.implementation == "openspiel" and theirs.threads == 1 and theirs.iterations == 200
        if theirs.algorithm in ("cfr", "cfr+"):  # the same algorithm, number for number
            mine = ours[theirs.algorithm]
            assert [p.iteration for p in theirs.points] == [p.iteration for p in mine.points]
            for a, b in zip(theirs.points, mine.points):
                assert a.value == pytest.approx(b.value, rel=1e-9, abs=1e-15)


@pytest.mark.openspiel
def test_games_imported_from_openspiel(pyspiel):
    imported = cfrkit.from_openspiel(pyspiel.load_game("kuhn_poker"))
    result = cfrkit.bench(imported, algos="cfr", peers="openspiel", iterations=30, threads=1)
    assert result.game == "kuhn_poker()" and [c.final for c in result.curves][0] == pytest.approx(
        result.curves[1].final, rel=1e-9
    )
    # A name only OpenSpiel knows is imported; a cooperative game reports NashConv.
    result = cfrkit.bench("tiny_hanabi", algos="cfr", peers="openspiel", iterations=20, threads=1)
    assert result.game == "tiny_hanabi()" and result.metric == "nash_conv"
    assert result.curves[0].final == pytest.approx(result.curves[1].final, rel=1e-9, abs=1e-12)
    assert "NashConv" in result.table()


@pytest.mark.openspiel
def test_cli_outputs(tmp_path, pyspiel):
    pytest.importorskip("matplotlib")
    csv_path, plot = tmp_path / "k.csv", tmp_path / "k.svg"
    args = ["kuhn", "--algos", "cfr,cfr+", "--peers", "openspiel", "--iterations", "100", "--threads", "1"]
    r = cfrkit_cli(*args, "--plot", str(plot), "--csv", str(csv_path), "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    record = json.loads(lines[-1])
    assert [c["name"] for c in record["curves"]] == [
        "cfrkit cfr",
        "cfrkit cfr+",
        "OpenSpiel CFRSolver",
        "OpenSpiel CFRPlusSolver",
    ]
    header = next(i for i, line in enumerate(lines) if line.startswith("solver"))
    assert lines[header].split()[:4] == ["solver", "threads", "iterations", "it/s"]
    assert lines[header + 1].startswith("cfrkit cfr ") and "speed-up" in lines[header]
    points = sum(len(c["points"]) for c in record["curves"])
    assert len(csv_path.read_text().strip().splitlines()) == points + 1
    assert ET.parse(plot).getroot().tag.endswith("svg")


@pytest.mark.parametrize(
    "args, message",
    [
        (["kuhn", "--algos", "cfr,nope"], 'unknown algorithm "nope"'),
        (["kuhn", "--peers", "pokerstars"], "invalid value for peers: 'pokerstars'"),
        (["kuhn", "--seconds", "0"], "argument --seconds: invalid value '0' (a finite number > 0)"),
        (["kuhn", "--seconds", "-2"], "argument --seconds: invalid value '-2'"),
        (["kuhn", "--iterations", "0"], "argument --iterations: invalid value '0'"),
        (["kuhn", "--iterations", "-5"], "argument --iterations: invalid value '-5'"),
        (["kuhn", "--threads", "100000"], "argument --threads: invalid value"),
        (["kuhn", "--seconds", "1", "--iterations", "10"], "not both"),
        (["kuhn", "--plot", "out.jpg"], "invalid value for plot: 'out.jpg'"),
        (["kuhn", "--seconds", "soon"], "argument --seconds"),
        (["kuhn", "--csv", "/no/such/folder/x.csv"], "argument --csv: invalid value '/no/such/folder/x.csv'"),
        (["no_such_game"], 'unknown game "no_such_game"'),
        pytest.param(
            ["blackjack(up=6-6-2,max_hits=1)", "--algos", "cfr", "--peers", "openspiel"],
            "OpenSpiel cannot run",
            marks=needs_openspiel,
        ),
        pytest.param(
            ["kuhn", "--algos", "dcfr", "--peers", "openspiel"],
            "none of the algorithms asked for",
            marks=needs_openspiel,
        ),
        ([], "required: GAME"),
    ],
)
def test_cli_errors_are_one_line(args, message):
    r = cfrkit_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith("cfrkit: error: ") and message in r.stderr, r.stderr
    assert r.stdout == ""


def test_runs_and_checkpoints_end_on_round_boundaries():
    """A solver whose iterations run in rounds (MCCFR on several threads) is only stopped on a
    round boundary, except at the end of an iteration budget, so its results do not depend on
    timing."""
    bench_module = importlib.import_module("cfrkit.bench")  # the module (cfrkit.bench is the function)

    class Rounds(bench_module._Runner):
        name, algorithm, implementation, threads, step = "rounds", "x", "cfrkit", 2, 8

        def __init__(self):
            self.done, self.calls = 0, []

        def run(self, n):
            self.calls.append(n)
            self.done += n

        def value(self):
            return 1.0 / self.done

    runner = Rounds()
    curve = Curve("rounds", "x", "cfrkit", 2)
    assert not bench_module._drive(runner, curve, None, 1001, 10, False, "exploitability")
    its = [p.iteration for p in curve.points]
    assert its[-1] == 1001 and its == sorted(set(its)) and all(i % 8 == 0 for i in its[:-1])
    assert all(n % 8 == 0 for n in runner.calls[:-1]) and sum(runner.calls) == 1001
    assert its[:4] == [8, 16, 24, 32]

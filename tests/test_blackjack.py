"""Blackjack++ from Python: exact values and equilibrium, strategy tables, the dump directory,
the ``cfrkit blackjack`` command, node counts and errors."""

import json
import os

import cfrkit
import numpy as np
import pytest
from cfrkit import blackjack
from cfrkit.cli import main as cli_main

# The spec's correct values: alternating CFR+, exact down cards, 10k iterations.
CORRECT = {
    (6, 6, 2): (1.4518574, 1.5481426),
    (1, 1, 1): (1.4929274, 1.5070726),
}


@pytest.mark.parametrize("up", sorted(CORRECT))
def test_cfr_plus_values_match_the_spec(up):
    sol = blackjack.solve(up=up, max_hits=1, iterations=10_000, algorithm="cfr+")
    p0, p1, dealer = sol.values
    assert abs(p0 - CORRECT[up][0]) < 1e-6
    assert abs(p1 - CORRECT[up][1]) < 1e-6
    assert abs(dealer) < 1e-6
    assert abs(p0 + p1 + dealer - 3.0) < 1e-12
    assert 0.0 <= sol.nash_conv < 1e-6


def test_the_6_6_2_equilibrium_is_pure():
    sol = blackjack.solve(up=(6, 6, 2), max_hits=1, iterations=10_000)
    table = sol.table
    assert table.probs.shape == (12, 10, 2)
    assert np.allclose(table.probs.sum(axis=2), 1.0)
    hit_p0 = table.node("")[:, 1]
    assert table.player("") == 0
    np.testing.assert_allclose(hit_p0, [0, 1, 1, 1, 1, 1, 1, 0, 0, 0], atol=1e-3)
    hit_p1 = table.node("s")[:, 1]
    assert table.player("s") == 1
    np.testing.assert_allclose(hit_p1, [0, 1, 1, 1, 1, 1, 1, 1, 1, 0], atol=1e-3)


def test_blackjack_runs_on_the_range_engine_and_agrees_with_the_lane_engine(tmp_path):
    game = blackjack.game((1, 1, 1), 2)
    ranges = cfrkit.Solver(game, "cfr+", threads=2)
    lanes = cfrkit.Solver(game, "cfr+", threads=1, engine="lanes")
    assert (ranges.engine, lanes.engine) == ("ranges", "lanes")
    assert cfrkit.Solver(cfrkit.load_game("leduc"), engine="auto").engine == "lanes"
    ranges.run(200)
    lanes.run(200)
    np.testing.assert_allclose(ranges.values(), lanes.values(), atol=1e-4)
    assert abs(ranges.nash_conv() - lanes.nash_conv()) < 1e-4
    # A range-engine checkpoint resumes exactly.
    path = tmp_path / "bj.ckpt"
    ranges.save(path)
    resumed = cfrkit.Solver(game, "cfr+", threads=1)
    resumed.load(path)
    ranges.run(20)
    resumed.run(20)
    assert resumed.average_policy().to_numpy().tolist() == ranges.average_policy().to_numpy().tolist()
    with pytest.raises(cfrkit.InvalidArgumentError, match="engine.*'fast'.*auto, lanes"):
        cfrkit.Solver(game, engine="fast")


def test_spec_string_and_python_builder_give_the_same_game():
    a = cfrkit.load_game("blackjack(up=1-10-4,max_hits=2)")
    b = blackjack.game((1, 10, 4), 2)
    assert a.spec == b.spec == "blackjack(up=1-10-4,max_hits=2)"
    assert a.infoset_keys() == b.infoset_keys()
    assert not a.constant_sum and a.num_players == 2 and a.num_deals == 100
    pa = cfrkit.Solver(a, "dcfr")
    pb = cfrkit.Solver(b, "dcfr")
    pa.run(50)
    pb.run(50)
    assert pa.values() == pb.values()
    with pytest.raises(cfrkit.InvalidArgumentError):
        cfrkit.Solver(a).exploitability()  # general-sum: NashConv only


@pytest.mark.parametrize(
    "up, max_hits, nodes, decisions",
    [
        ((1, 1, 1), 1, 133, 12),
        ((1, 1, 1), 2, 13_553, 1_232),
        ((6, 6, 2), 2, 13_553, 1_232),
        ((1, 1, 1), 3, 1_285_417, 116_856),
    ],
)
def test_node_counts_equal_the_originals(up, max_hits, nodes, decisions):
    g = blackjack.game(up, max_hits)
    assert blackjack.original_node_count(g) == nodes
    assert g.num_infosets == 10 * decisions


def test_strategy_tables_follow_the_policy():
    g = blackjack.game((2, 9, 5), 2)
    solver = cfrkit.Solver(g, "cfr+")
    solver.run(30)
    policy = solver.average_policy()
    table = blackjack.strategy(g, policy)
    assert table.probs.shape == (g.num_infosets // 10, 10, 2)
    assert set(table.players.tolist()) == {0, 1}
    assert len(set(table.paths)) == len(table)
    for i in [0, len(table) // 2, len(table) - 1]:
        path = table.paths[i]
        for d in range(1, 11):
            key = f"{d}|{path.replace('/', '')}"
            assert table.probs[i, d - 1].tolist() == [policy[key][0], policy[key][1]]
    other = cfrkit.Solver(blackjack.game((6, 6, 2), 1))
    with pytest.raises(cfrkit.CfrkitError):
        blackjack.strategy(g, other.average_policy())
    with pytest.raises(cfrkit.InvalidArgumentError, match="h11"):
        table.node("h11")


def test_cli_prints_the_readme_figures_and_writes_the_dump(tmp_path, capsys):
    out_dir = tmp_path / "sol"
    rc = blackjack.main(
        ["--up", "6,6,2", "--max-hits", "1", "--iterations", "1000", "--threads", "1", "--dump", str(out_dir), "--json"]
    )
    assert rc == 0
    text = capsys.readouterr().out
    lines = text.strip().splitlines()
    record = json.loads(lines[-1])
    assert "Up cards: P0 6, P1 6, dealer 2" in text
    assert "Num nodes: 133" in text
    assert "ROOT PAYOFFS" in text and "Down Card: 10 || Stand:" in text
    assert record["nodes"] == 133 and record["decision_nodes"] == 12 and record["iterations"] == 1000
    assert abs(record["values"][0] - 1.4518574) < 1e-4 and record["nash_conv"] < 1e-5
    assert record["dump_files"] == 12
    # The dump: the root, P1 after P0 stands, P1 after P0 hits each card.
    dirs = sorted(os.path.relpath(d, out_dir) for d, _, files in os.walk(out_dir) if "strategy.txt" in files)
    assert dirs == sorted(["."] + ["s"] + [f"h{c}" for c in range(1, 11)])
    root = (out_dir / "strategy.txt").read_text().splitlines()
    assert root[0] == "Current Acting: 0" and len(root) == 11
    assert root[2].startswith("Down Card: 2 || Stand: 0.0000") and ", Hit: 0.9999" in root[2]
    after_stand = (out_dir / "s" / "strategy.txt").read_text().splitlines()
    assert after_stand[0] == "Current Acting: 1"
    stand, hit = (float(x.split(": ")[1]) for x in after_stand[9].split("|| ")[1].split(", "))
    assert abs(stand + hit - 1) < 1e-5 and hit > 0.99  # down card 9: hit


def test_cli_runs_every_algorithm_through_the_main_command(capsys):
    for algo in cfrkit.ALGORITHMS:
        assert cli_main(["blackjack", "--algo", algo, "--iterations", "300", "--json"]) == 0
        record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        # Sampled solvers need far more than 300 iterations.
        assert record["nash_conv"] < (1.0 if algo in cfrkit.SAMPLED_ALGORITHMS else 0.05), algo


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--up", "6,11,2"], "11"),
        (["--up", "0,6,2"], "P0"),
        (["--up", "6,6"], "exactly 3"),
        (["--up", "6,x,2"], "6,x,2"),
        (["--max-hits", "-1"], "-1"),
        (["--iterations", "-5"], "-5"),
    ],
)
def test_cli_reports_bad_input(args, needle, capsys):
    assert cli_main(["blackjack", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cfrkit: error:") and needle in err


def test_bad_configurations_raise_clear_errors():
    with pytest.raises(cfrkit.InvalidArgumentError, match="P1.*11.*1..=10"):
        blackjack.game((6, 11, 2), 1)
    with pytest.raises(cfrkit.InvalidArgumentError, match="exactly 3"):
        blackjack.game((6, 6, 2, 2), 1)
    with pytest.raises(cfrkit.InvalidArgumentError, match="max_hits.*-2"):
        blackjack.game((6, 6, 2), -2)
    with pytest.raises(cfrkit.InvalidArgumentError, match="blackjack.up"):
        cfrkit.load_game("blackjack(up=6-x-2)")
    # No hit limit with two aces up: trillions of nodes, refused before anything is allocated.
    with pytest.raises(cfrkit.TooLargeError, match=r"blackjack\(up=1-1-1,max_hits=0\).*max_hits"):
        blackjack.game((1, 1, 1), 0)
    with pytest.raises(cfrkit.TooLargeError):
        cfrkit.load_game("blackjack(up=1-1-1,max_hits=0)")


def test_generic_solve_command_takes_the_spec_string(capsys):
    spec = "blackjack(up=6-6-2,max_hits=1)"
    assert cli_main(["solve", spec, "--algo", "pcfr+", "--iterations", "1000", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["game"] == spec and record["exploitability"] is None
    assert abs(record["values"][0] - 1.4518574) < 1e-6 and record["nash_conv"] < 1e-6

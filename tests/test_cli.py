"""The command line: output, --json, --out, errors."""

import json
import subprocess
import sys

import cfrkit


def cfrkit_cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True, timeout=300)


def test_solve_json_last_line(tmp_path):
    out = tmp_path / "kuhn.cfrkit"
    r = cfrkit_cli("solve", "kuhn", "--algo", "cfr", "--iterations", "1000", "--threads", "1", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert record["game"] == "kuhn" and record["algorithm"] == "cfr" and record["iterations"] == 1000
    assert f"{record['exploitability']:.5e}" == f"{0.000937617:.5e}"
    assert record["nash_conv"] == 2 * record["exploitability"]
    assert abs(record["values"][0] + 1 / 18) < 2e-3 and record["infosets"] == 12
    assert record["seconds"] > 0
    policy = cfrkit.load_policy(out)
    assert cfrkit.exploitability(cfrkit.load_game("kuhn"), policy) == record["exploitability"]


def test_default_game_is_leduc():
    r = cfrkit_cli("solve", "--iterations", "10", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["game"] == "leduc"
    assert "exploitability" in r.stdout


def test_errors_are_one_line_and_nonzero():
    for args, needle in (
        (("solve", "chess"), "unknown game"),
        (("solve", "kuhn", "--algo", "magic"), "unknown algorithm"),
        (("solve", "kuhn", "--iterations", "-3"), "--iterations"),
        (("solve", "kuhn", "--threads", "-2"), "threads"),
    ):
        r = cfrkit_cli(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert needle in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1

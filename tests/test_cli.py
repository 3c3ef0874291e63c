"""The command line: output, --json, --out, errors."""

import json
import subprocess
import sys

import cfrkit


def cfrkit_cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True, timeout=300)


def test_solve_json_last_line(tmp_path):
    out = tmp_path / "kuhn.cfrkit"
    r = cfrkit_cli(
        "solve",
        "kuhn",
        "--algo",
        "cfr",
        "--iterations",
        "1000",
        "--threads",
        "1",
        "--out",
        str(out),
        "--json",
    )
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert record["game"] == "kuhn" and record["algorithm"] == "cfr" and record["iterations"] == 1000
    assert f"{record['exploitability']:.5e}" == f"{0.000937617:.5e}"
    assert record["nash_conv"] == 2 * record["exploitability"]
    assert abs(record["values"][0] + 1 / 18) < 2e-3 and record["infosets"] == 12
    assert record["seconds"] > 0
    policy = cfrkit.load_policy(out)
    assert cfrkit.exploitability(cfrkit.load_game("kuhn"), policy) == record["exploitability"]
    # An existing policy is replaced only with --force.
    again = cfrkit_cli("solve", "kuhn", "--iterations", "10", "--out", str(out))
    assert again.returncode == 2 and "exists (--force replaces it)" in again.stderr, again.stderr
    assert cfrkit.exploitability(cfrkit.load_game("kuhn"), cfrkit.load_policy(out)) == record["exploitability"]
    forced = cfrkit_cli("solve", "kuhn", "--iterations", "10", "--out", str(out), "--force")
    assert forced.returncode == 0 and cfrkit.load_policy(out) != policy, forced.stderr


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


def _spawn_solve(*args):
    import signal
    import subprocess as sp

    # A shell that starts jobs in the background makes them ignore SIGINT; restore the default so
    # that the child gets Python's KeyboardInterrupt like a command started from a terminal.
    return sp.Popen(
        [sys.executable, "-m", "cfrkit.cli", "solve", *args],
        stdout=sp.PIPE,
        stderr=sp.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for(path, seconds=60):
    import time

    deadline = time.time() + seconds
    while not path.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert path.exists()


def test_ctrl_c_saves_and_resume_continues_exactly(tmp_path):
    import signal

    ckpt = tmp_path / "leduc.solver"
    proc = _spawn_solve(
        "leduc",
        "--iterations",
        "10000000",
        "--threads",
        "1",
        "--checkpoint",
        str(ckpt),
        "--checkpoint-every",
        "0.2",
        "--json",
    )
    _wait_for(ckpt)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    stopped = json.loads(out.strip().splitlines()[-1])
    assert stopped["interrupted"] and stopped["iterations"] > 0
    total = stopped["iterations"] + 37
    resumed = cfrkit_cli(
        "solve",
        "leduc",
        "--iterations",
        str(total),
        "--checkpoint",
        str(ckpt),
        "--resume",
        "--json",
    )
    straight = cfrkit_cli("solve", "leduc", "--iterations", str(total), "--json")
    a, b = (json.loads(r.stdout.strip().splitlines()[-1]) for r in (resumed, straight))
    assert a["iterations"] == b["iterations"] == total
    assert a["exploitability"] == b["exploitability"] and a["values"] == b["values"]
    # The checkpoint is the run's own: a new run without --resume does not replace it, and a
    # resume that asks for fewer iterations than done is refused, the checkpoint untouched.
    kept = ckpt.read_bytes()
    fresh = cfrkit_cli("solve", "leduc", "--iterations", "10", "--checkpoint", str(ckpt))
    assert fresh.returncode == 2 and "exists (--resume continues that run" in fresh.stderr, fresh.stderr
    fewer = cfrkit_cli("solve", "leduc", "--iterations", "10", "--checkpoint", str(ckpt), "--resume")
    assert fewer.returncode == 2 and f"already at iteration {total:,}" in fewer.stderr, fewer.stderr
    assert len(fewer.stderr.strip().splitlines()) == 1 and ckpt.read_bytes() == kept


def test_sigkill_leaves_a_loadable_checkpoint(tmp_path):
    import time

    ckpt = tmp_path / "leduc.solver"
    proc = _spawn_solve("leduc", "--iterations", "10000000", "--checkpoint", str(ckpt), "--checkpoint-every", "0.05")
    _wait_for(ckpt)
    time.sleep(0.5)
    proc.kill()
    proc.communicate(timeout=60)
    solver = cfrkit.Solver(cfrkit.load_game("leduc"))
    solver.load(ckpt)
    assert solver.iteration > 0
    (tmp_path / "other.solver").write_bytes(b"CFRKIT\0\0" + b"\0" * 40)
    import pytest

    with pytest.raises(cfrkit.FileFormatError):
        solver.load(tmp_path / "other.solver")
    r = cfrkit_cli("solve", "kuhn", "--checkpoint", str(ckpt), "--resume")
    assert r.returncode == 2 and "leduc" in r.stderr and "Traceback" not in r.stderr

"""Bad command lines end in one clear line on stderr and exit status 2, never a traceback or a hang;
a run directory is held by one live run; killed runs leave nothing that blocks or lingers;
interrupted and resumed Setback runs say what they did."""

import os
import signal
import subprocess
import sys
import time

import pytest
from cfrkit import _cfrkit, cli_args, setback
from cfrkit.errors import CfrkitIOError, InvalidArgumentError
from cfrkit.setback.matches import match as setback_match

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
HAS_PROC = os.path.isdir("/proc/self")


def cfrkit(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "cfrkit.cli", *args], capture_output=True, text=True, timeout=timeout)


def assert_one_line(r, *needles):
    """Exit status 2 and exactly one line on stderr that names every needle."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def spawn(*args, **popen):
    """A cfrkit child that gets SIGINT as from a terminal (a shell that starts jobs in the
    background makes them ignore it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cfrkit.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **popen,
    )


def spawn_train(out, *args):
    """A ``setback train`` child that gets SIGINT as from a terminal."""
    return spawn("setback", "train", "--out", str(out), *args)


def ctrl_c(proc, after: float):
    """Sends SIGINT to ``proc`` (still running) ``after`` seconds from now; returns its stdout,
    stderr and the seconds it took to end."""
    time.sleep(after)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return out, err, time.monotonic() - sent


def first_progress(proc):
    """Waits for the child's first progress line on stderr and returns it."""
    line = proc.stderr.readline()
    assert "deals/s" in line, (line, proc.poll())
    return line


def dead_pid():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ---------------------------------------------------------------------------------------------
# One line and exit status 2 for each bad input


def test_outputs_that_exist_are_refused_unless_forced(tmp_path):
    notes = tmp_path / "notes.csv"
    notes.write_text("mine")
    assert_one_line(cfrkit("bench", "kuhn", "--iterations", "10", "--csv", str(notes)), "--csv", "exists", "--force")
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "keep.txt").write_text("mine")
    args = ("blackjack", "--iterations", "5", "--threads", "1", "--dump", str(dump))
    assert_one_line(cfrkit(*args), "--dump", "exists", "--force")
    assert notes.read_text() == "mine" and sorted(p.name for p in dump.iterdir()) == ["keep.txt"]
    assert cfrkit(*args, "--force").returncode == 0 and (dump / "strategy.txt").exists()


def test_a_refused_train_leaves_no_directory_behind(tmp_path):
    out = tmp_path / "new-run"
    r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", str(out), "--resume")
    assert_one_line(r, "nothing to resume")
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_train_out_onto_an_existing_file(tmp_path):
    f = tmp_path / "taken"
    f.write_text("not a directory")
    r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", str(f))
    assert_one_line(r, "--out", str(f), "this is a file")
    assert f.read_text() == "not a directory"


def test_train_out_under_a_file(tmp_path):
    f = tmp_path / "taken"
    f.write_text("x")
    r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", str(f / "run"))
    assert_one_line(r, "--out", str(f / "run"))


@pytest.mark.skipif(ROOT, reason="root may write into any directory")
def test_train_out_under_an_unwritable_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", str(locked / "run"))
        assert_one_line(r, "--out", str(locked / "run"))
        assert not (locked / "run").exists()
    finally:
        locked.chmod(0o700)


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc, where nothing can be created")
def test_train_out_where_nothing_can_be_created():
    r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", "/proc/cfrkit-run")
    assert_one_line(r, "--out", "/proc/cfrkit-run", "cannot write in /proc")


def test_blackjack_dump_onto_an_existing_file(tmp_path):
    f = tmp_path / "dump"
    f.write_text("x")
    r = cfrkit("blackjack", "--iterations", "5", "--threads", "1", "--dump", str(f))
    assert_one_line(r, "--dump", str(f), "this is a file")


@pytest.mark.skipif(ROOT, reason="root may write into any directory")
def test_blackjack_dump_into_a_read_only_directory(tmp_path):
    d = tmp_path / "dump"
    d.mkdir()
    d.chmod(0o500)
    try:
        r = cfrkit("blackjack", "--iterations", "5", "--threads", "1", "--dump", str(d))
        assert_one_line(r, "--dump", str(d))
    finally:
        d.chmod(0o700)


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc, an existing directory where no file can be created")
def test_blackjack_dump_into_a_directory_that_cannot_be_written():
    r = cfrkit("blackjack", "--iterations", "5", "--threads", "1", "--dump", "/proc/self")
    assert_one_line(r, "--dump", "/proc/self", "cannot write")


@pytest.mark.parametrize("seed", ["-1", str(2**70)])
def test_deal_seed_out_of_range(seed):
    assert_one_line(cfrkit("setback", "deal", "--seed", seed), "--seed", seed, "from 0 to 18446744073709551615")


def test_match_pairs_out_of_range():
    pairs = str(10**30)
    r = cfrkit("setback", "match", "--a", "rules", "--b", "random", "--deals", pairs)
    assert_one_line(r, "--deals", pairs)


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "kuhn", "--iterations", "10"],
        ["blackjack", "--iterations", "5"],
        ["setback", "match", "--a", "rules", "--b", "random", "--deals", "2"],
        ["setback", "tournament", "--agents", "rules", "random", "--deals", "2"],
        ["setback", "train", "--iterations", "2"],
    ],
    ids=["solve", "blackjack", "match", "tournament", "train"],
)
def test_threads_above_the_cap_are_refused_at_once(command, tmp_path):
    if command[:2] == ["setback", "train"]:
        command = [*command, "--out", str(tmp_path / "run")]
    t0 = time.monotonic()
    r = cfrkit(*command, "--threads", "100000", timeout=60)
    assert_one_line(r, "--threads", "100000", str(_cfrkit.MAX_THREADS))
    assert time.monotonic() - t0 < 30, "refused before any thread is spawned"


@pytest.mark.parametrize(
    "args, needles",
    [
        (["--algo", "dcfr", "--alpha", "-1"], ["alpha", "-1", ">= 0"]),
        (["--algo", "dcfr", "--gamma", "-2"], ["gamma", "-2"]),
        (["--algo", "cfr+", "--alpha", "2"], ["--alpha", "dcfr only", "cfr+"]),
        (["--algo", "lcfr", "--beta", "0.5"], ["--beta", "dcfr only", "lcfr"]),
        (["--alpha", "nan", "--algo", "dcfr"], ["--alpha", "nan"]),
        (["--seed", "-1"], ["--seed", "-1"]),
        (["--seed", str(2**64)], ["--seed", str(2**64)]),
        (["--iterations", str(2**64)], ["--iterations", str(2**64)]),
        (["--iterations", "1e3"], ["--iterations", "1e3"]),
        (["--checkpoint-every", "0"], ["--checkpoint-every", "0"]),
    ],
)
def test_solve_numbers_that_passed_silently(args, needles):
    assert_one_line(cfrkit("solve", "kuhn", *args), *needles)


def test_resume_with_nothing_to_resume(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = cfrkit("setback", "train", "--iterations", "2", "--threads", "1", "--out", str(empty), "--resume")
    assert_one_line(r, str(empty), "nothing to resume", "checkpoint.cfrkit")
    assert os.listdir(empty) in ([], [".lock"])
    missing = tmp_path / "none.solver"
    r = cfrkit("solve", "kuhn", "--checkpoint", str(missing), "--resume")
    assert_one_line(r, str(missing), "nothing to resume")
    assert_one_line(cfrkit("solve", "kuhn", "--resume"), "--resume", "--checkpoint")


def test_out_files_are_checked_before_the_work(tmp_path):
    t0 = time.monotonic()
    r = cfrkit("solve", "leduc", "--iterations", "100000000", "--out", str(tmp_path / "no" / "such" / "p.cfrkit"))
    assert_one_line(r, "--out", "is not a directory")
    r = cfrkit("solve", "leduc", "--iterations", "100000000", "--checkpoint", str(tmp_path))
    assert_one_line(r, "--checkpoint", "this is a directory")
    r = cfrkit("setback", "export-db", "--baseline", "a", "--bootstrap", "b", "--out", str(tmp_path))
    assert_one_line(r, "--out", "this is a directory")
    assert time.monotonic() - t0 < 60


def test_argument_errors_are_one_line_too():
    assert_one_line(cfrkit("setback", "train"), "--iterations", "--out")
    assert_one_line(cfrkit("solve", "kuhn", "--bogus"), "--bogus")
    assert_one_line(cfrkit("setback", "deal", "--seed", "x"), "--seed", "'x'")
    assert_one_line(cfrkit("setback", "show", "/no/such/strategy.cfrkit"), "/no/such/strategy.cfrkit")
    assert cfrkit("setback", "--help").returncode == 0


def test_the_python_api_names_bad_numbers_too():
    with pytest.raises(InvalidArgumentError, match=r'pairs: "1000000000000000000000000000000"'):
        setback_match("rules", "random", 10**30)
    with pytest.raises(InvalidArgumentError, match=r'seed: "-1"'):
        setback_match("rules", "random", 1, seed=-1)
    with pytest.raises(InvalidArgumentError, match=r'threads: "100000".*from 0 to 1024'):
        setback_match("rules", "random", 1, threads=100000)
    with pytest.raises(InvalidArgumentError, match=r'threads: "True"'):
        setback_match("rules", "random", 1, threads=True)
    with pytest.raises(InvalidArgumentError, match=r'seed: "-1"'):
        setback.Deal.random(-1)
    with pytest.raises(InvalidArgumentError, match="iterations"):
        setback.train("/nonexistent/never-created", 2**64)
    assert not os.path.exists("/nonexistent/never-created")
    with pytest.raises(InvalidArgumentError, match="threads"):
        _cfrkit.check_threads(_cfrkit.MAX_THREADS + 1)
    assert _cfrkit.check_threads(_cfrkit.MAX_THREADS) == _cfrkit.MAX_THREADS


def test_shared_argument_types():
    import argparse

    assert cli_args.seed(str(2**64 - 1)) == 2**64 - 1
    assert cli_args.count(1)("5") == 5
    assert cli_args.number(0, above=True)("0.5") == 0.5
    for parse, text in (
        (cli_args.seed, "-1"),
        (cli_args.count(1), "0"),
        (cli_args.threads, "-1"),
        (cli_args.threads, "1025"),
        (cli_args.number(), "inf"),
        (cli_args.number(0, above=True), "0"),
    ):
        with pytest.raises(argparse.ArgumentTypeError, match=text):
            parse(text)


def test_names_come_from_the_core():
    assert setback.ALGORITHMS == ("cs-cfr", "cs-cfr-2x", "cs-cfr-merged", "es-mccfr")
    assert setback.STAGES == ("baseline", "bootstrap")
    assert (setback.CHECKPOINT_FILE, setback.STRATEGY_FILE) == ("checkpoint.cfrkit", "strategy.cfrkit")
    assert setback.agents.SPECS == _cfrkit.SETBACK_AGENT_SPECS and "pimc[:worlds=N" in setback.agents.SPECS
    import cfrkit

    assert set(cfrkit.ALGORITHMS) >= {"cfr", "cfr+", "lcfr", "dcfr", "pcfr+"}
    assert list(cfrkit.ALGORITHMS) == list(_cfrkit.ALGORITHMS)


# ---------------------------------------------------------------------------------------------
# Run directories: one live run, killed runs leave nothing stuck, stale temporary files removed


def test_a_second_run_on_a_directory_in_use_is_refused(tmp_path):
    run = tmp_path / "run"
    first = spawn_train(run, "--iterations", "1000000", "--threads", "1", "--checkpoint-seconds", "3600")
    try:
        first_progress(first)
        r = cfrkit("setback", "train", "--iterations", "5", "--threads", "1", "--out", str(run), "--resume")
        assert_one_line(r, str(run), "in use by another run", f"process {first.pid}")
        with pytest.raises(CfrkitIOError, match="in use by another run"):
            setback.train(run, 5, threads=1, resume=True)
    finally:
        first.kill()
        first.communicate(timeout=60)
    # SIGKILL leaves the lock file behind, but not the lock: a resume goes ahead.
    assert (run / ".lock").exists()
    if (run / "checkpoint.cfrkit").exists():
        r = cfrkit("setback", "train", "--iterations", "3", "--threads", "1", "--out", str(run), "--resume")
        assert r.returncode == 0, r.stderr
    else:
        r = cfrkit("setback", "train", "--iterations", "3", "--threads", "1", "--out", str(run))
        assert r.returncode == 0, r.stderr


def test_a_lock_left_by_a_killed_process_does_not_block(tmp_path):
    run = tmp_path / "run"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from cfrkit import _cfrkit; lock = _cfrkit.RunLock(sys.argv[1]); "
            "print('held', flush=True); time.sleep(600)",
            str(run),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(CfrkitIOError, match=f"process {holder.pid}"):
            _cfrkit.RunLock(run)
    finally:
        holder.kill()
        holder.wait()
    assert (run / ".lock").read_text().strip() == str(holder.pid)
    with _cfrkit.RunLock(run) as lock:
        assert lock.held and (run / ".lock").read_text().strip() == str(os.getpid())
    assert not lock.held
    r = setback.train(run, 2, threads=1)
    assert r.iterations == 2


@pytest.mark.skipif(not HAS_PROC, reason="whether a writer still runs is read from /proc")
def test_temporary_files_of_killed_writes_are_removed_by_the_next_run(tmp_path):
    run = tmp_path / "run"
    setback.train(run, 2, threads=1)
    gone = dead_pid()
    stale = [run / f".checkpoint.cfrkit.tmp.{gone}", run / f".strategy.cfrkit.tmp{gone}"]
    live = run / f".checkpoint.cfrkit.tmp.{os.getppid()}"  # a live writer's file is kept
    for f in [*stale, live]:
        f.write_bytes(b"\0" * 4096)
    r = cfrkit("setback", "train", "--iterations", "3", "--threads", "1", "--out", str(run), "--resume")
    assert r.returncode == 0, r.stderr
    assert not any(f.exists() for f in stale) and live.exists()
    for f in stale:
        assert f"removed {f}" in r.stderr
    live.unlink()
    assert sorted(os.listdir(run)) == [".lock", "checkpoint.cfrkit", "strategy.cfrkit"]
    # The Python function and any atomic write clean up the same way.
    stale[0].write_bytes(b"x")
    assert [str(p) for p in _cfrkit.remove_stale_temps(run)] == [str(stale[0])]


def test_a_run_killed_while_checkpointing_leaves_nothing_after_the_next_run(tmp_path):
    run = tmp_path / "run"
    p = spawn_train(run, "--iterations", "1000000", "--threads", "1", "--checkpoint-seconds", "0.01")
    deadline = time.monotonic() + 120
    while not (run / "checkpoint.cfrkit").exists():
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.02)
    time.sleep(0.3)
    p.kill()
    p.communicate(timeout=60)
    r = cfrkit("setback", "train", "--iterations", "1", "--threads", "1", "--out", str(run), "--resume")
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(run)) == [".lock", "checkpoint.cfrkit", "strategy.cfrkit"]


# ---------------------------------------------------------------------------------------------
# Interrupted and resumed runs


def test_an_interrupted_run_writes_its_strategy_and_a_resume_says_where_it_starts(tmp_path):
    run = tmp_path / "run"
    p = spawn_train(run, "--iterations", "1000000", "--threads", "1", "--seed", "5", "--checkpoint-seconds", "3600")
    first_progress(p)
    p.send_signal(signal.SIGINT)
    _out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "checkpoint saved" in err and f"strategy written to {run / 'strategy.cfrkit'}" in err
    done = setback.Trainer.load(run / "checkpoint.cfrkit", 1).iterations
    s = setback.load_strategy(run / "strategy.cfrkit")
    assert 1 <= done < 1000000 and s.iterations == done and s.seed == 5 and len(s) > 1000
    # The strategy is the checkpoint's.
    t = setback.Trainer.load(run / "checkpoint.cfrkit", 1)
    t.save_strategy(tmp_path / "again.cfrkit")
    for x, y in zip(s.to_numpy(), setback.load_strategy(tmp_path / "again.cfrkit").to_numpy()):
        assert (x == y).all()
    r = cfrkit(
        "setback",
        "train",
        "--iterations",
        str(done + 2),
        "--threads",
        "1",
        "--seed",
        "5",
        "--out",
        str(run),
        "--resume",
    )
    assert r.returncode == 0, r.stderr
    assert f"resuming {run / 'checkpoint.cfrkit'}: {done:,} deals done, continuing to {done + 2:,}" in r.stderr


def test_the_api_reports_a_resume_through_log(tmp_path):
    setback.train(tmp_path, 2, threads=1, seed=1)
    said = []
    r = setback.train(tmp_path, 3, threads=1, seed=1, resume=True, log=said.append)
    assert r.iterations == 3 and r.iterations_this_run == 1
    assert said == [
        f"resuming {tmp_path / 'checkpoint.cfrkit'}: 2 deals done, continuing to 3 (baseline, cs-cfr, seed 1)"
    ]


def test_solve_resume_says_where_it_starts(tmp_path):
    ckpt = tmp_path / "kuhn.solver"
    assert cfrkit("solve", "kuhn", "--iterations", "10", "--checkpoint", str(ckpt)).returncode == 0
    r = cfrkit("solve", "kuhn", "--iterations", "15", "--checkpoint", str(ckpt), "--resume")
    assert r.returncode == 0, r.stderr
    assert f"resuming {ckpt} at iteration 10 of 15" in r.stderr


@pytest.mark.parametrize("finished", [True, False])
def test_a_stopped_export_says_whether_the_database_is_complete(tmp_path, monkeypatch, capsys, finished):
    """The native export writes the database whole or not at all and runs to its end before
    Python sees Ctrl-C: the one line says which it was (exit 130)."""
    from cfrkit.setback import cli as setback_cli

    out = tmp_path / "s.db"

    def export(baseline, bootstrap, path, force=False):
        if finished:
            out.write_bytes(b"SQLite format 3\x00")
        raise KeyboardInterrupt

    monkeypatch.setattr(setback_cli, "export_db", export)
    code = setback_cli.main(["export-db", "--baseline", "a", "--bootstrap", "b", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 130 and len(err) == 1, err
    want = f"{out} is complete" if finished else f"nothing written to {out}"
    assert err[0] == "cfrkit setback: interrupted: " + (
        f"the export had finished before the stop; {want}" if finished else want
    )



# ---------------------------------------------------------------------------------------------
# Ctrl-C within a second


# A single decision of these agents takes seconds, so a stop that waited for the game under way
# (as before) took many seconds; the searches now stop between worlds.
SLOW_GAMES = {
    "skat": ("skat", "selfplay", "--agent", "pimc:worlds=5000", "--deals", "3", "--threads", "1", "--log"),
    "schafkopf": ("schafkopf", "selfplay", "--agent", "pimc:worlds=5000", "--deals", "3", "--threads", "1", "--log"),
    "setback": ("setback", "match", "--a", "pimc:worlds=5000", "--b", "rules", "--deals", "2", "--threads", "1")
    + ("--log",),
}


@pytest.mark.parametrize("game", sorted(SLOW_GAMES))
def test_ctrl_c_stops_a_pimc_match_at_once(tmp_path, game):
    log = tmp_path / "games.jsonl"
    proc = spawn(*SLOW_GAMES[game], str(log))
    _, err, took = ctrl_c(proc, after=4)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == f"cfrkit {game}: interrupted", err
    assert took < 2.5, f"stopped {took:.1f} s after Ctrl-C"


def _interrupted(stop_takes: float):
    """``cli_args.run`` of a command that gets Ctrl-C and needs ``stop_takes`` seconds to stop."""

    def command():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(10)
        except KeyboardInterrupt:
            time.sleep(stop_takes)
            raise
        return 0

    return cli_args.run("cfrkit demo", command)


def test_a_slow_stop_says_stopping_at_once_and_a_quick_one_does_not(capsys):
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's Ctrl-C handler in this process")
    assert _interrupted(1.2) == 130
    assert capsys.readouterr().err.splitlines() == ["cfrkit demo: stopping…", "cfrkit demo: interrupted"]
    assert _interrupted(0.0) == 130
    time.sleep(cli_args.STOPPING_NOTICE_S + 0.2)
    assert capsys.readouterr().err.splitlines() == ["cfrkit demo: interrupted"]


# ---------------------------------------------------------------------------------------------
# Every error of the Python API is a cfrkit error


def test_wrong_types_and_ranges_are_cfrkit_errors_that_still_match_the_builtin_ones():
    import cfrkit
    from cfrkit import skat
    from cfrkit.errors import InvalidTypeError, OutOfRangeError

    kuhn = cfrkit.load_game("kuhn")
    policy = cfrkit.Solver(kuhn).average_policy()
    with pytest.raises(InvalidTypeError, match="spec"):
        cfrkit.load_game(123)
    with pytest.raises(InvalidTypeError, match="policy"):
        cfrkit.exploitability(kuhn, {"a": 1})
    with pytest.raises(TypeError):  # also a TypeError, for except clauses written before
        cfrkit.exploitability(kuhn, None)
    with pytest.raises(OutOfRangeError, match="player"):
        cfrkit.best_response(kuhn, policy, player=-1)
    with pytest.raises(InvalidArgumentError, match="player"):
        cfrkit.best_response(kuhn, policy, player=5)
    with pytest.raises(InvalidTypeError, match="hands"):
        skat.Game(hands=None, skat="D7 D8")
    with pytest.raises(InvalidArgumentError, match=r"iterations: 1180591620717411303424 \(an integer from 0 to"):
        cfrkit.Solver(kuhn).run(iterations=2**70)
    with pytest.raises(InvalidTypeError, match="game: 12"):
        cfrkit.Solver(12)
    # A spec names the game to solve.
    assert cfrkit.Solver("kuhn").game.spec == kuhn.spec


def test_an_exception_of_the_users_own_code_is_not_renamed():
    import cfrkit
    from cfrkit import _native

    def raises_type_error():
        raise TypeError("mine")

    with pytest.raises(TypeError, match="^mine$") as caught:
        _native.checked(lambda: raises_type_error())()
    assert not isinstance(caught.value, cfrkit.CfrkitError)


def test_messages_use_the_users_words(tmp_path):
    ck = tmp_path / "s.ckpt"
    assert_one_line(
        cfrkit("solve", "kuhn", "--algo", "es-mccfr", "--simultaneous", "--iterations", "10"),
        "--simultaneous",
        "full-width",
    )
    assert cfrkit("solve", "kuhn", "--algo", "es-mccfr", "--iterations", "10", "--checkpoint", str(ck)).returncode == 0
    line = assert_one_line(
        cfrkit("solve", "kuhn", "--algo", "cfr", "--iterations", "20", "--checkpoint", str(ck), "--resume"),
        "es-mccfr",
        "the algorithm that wrote it",
    )
    assert "SOLVER" not in line and "MCCFR" not in line
    for hits in ("99999999999999999999", "-1"):
        assert_one_line(cfrkit("blackjack", "--max-hits", hits), "--max-hits", "from 0 to 255")


def test_ctrl_c_during_a_bots_long_decision_in_a_terminal_game(tmp_path):
    # Deal 1: Vorhand (a bot, bidding by rules) declares; then the bots search 5,000 worlds a card.
    bots = ("--bots", "pimc:worlds=5000,threads=1")
    proc = spawn("skat", "play", *bots, "--seat", "2", "--index", "1", stdin=subprocess.PIPE)
    proc.stdin.write("pass\n" * 3)
    proc.stdin.flush()
    out, err, took = ctrl_c(proc, after=5)
    assert proc.returncode == 130, (out[-2000:], err)
    assert err.strip().splitlines()[-1] == "cfrkit skat: interrupted", err
    assert took < 2.5, f"stopped {took:.1f} s after Ctrl-C"

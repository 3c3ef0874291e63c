"""Setback training: strategy files, exact resume, SIGKILL and Ctrl-C, refused files, CLI errors."""

import json
import os
import signal
import time

import numpy as np
import pytest
from cfrkit import errors, setback
from cfrkit.setback.cli import main
from test_cli_errors import spawn


def arrays(out):
    return setback.load_strategy(out / setback.STRATEGY_FILE).to_numpy()


def assert_same_strategy(a, b):
    for x, y in zip(arrays(a), arrays(b)):
        np.testing.assert_array_equal(x, y)


def cli(*args):
    """A ``cfrkit setback`` child that gets SIGINT as from a terminal."""
    return spawn("setback", *args)


def wait_for_checkpoint(path, at_least, proc, timeout=300):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if path.exists():
            n = setback.Trainer.load(path, 1).iterations
            if n >= at_least:
                return n
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("no checkpoint in time")


def test_train_writes_a_queryable_strategy(tmp_path, capsys):
    assert (
        main(
            [
                "train",
                "--iterations",
                "4",
                "--threads",
                "1",
                "--seed",
                "1",
                "--out",
                str(tmp_path),
                "--json",
            ]
        )
        == 0
    )
    rec = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rec["iterations"] == 4 and rec["algo"] == "cs-cfr" and rec["threads"] == 1
    assert rec["infosets"] > 1000
    assert 0 < rec["bytes_per_infoset"] < 64
    assert -8 <= rec["root_value"] <= 8
    s = setback.load_strategy(tmp_path / "strategy.cfrkit")
    assert (len(s), s.iterations, s.seed, s.algo) == (rec["infosets"], 4, 1, "cs-cfr")
    keys, offsets, probs = s.to_numpy()
    assert keys.dtype == np.uint64 and probs.dtype == np.float32
    assert len(offsets) == len(keys) + 1 and offsets[-1] == len(probs)
    assert np.all(np.diff(keys.astype(np.float64)) >= 0)
    widths = np.diff(offsets)
    assert widths.min() >= 2 and widths.max() <= 6
    sums = np.add.reduceat(probs, offsets[:-1].astype(np.int64))
    np.testing.assert_allclose(sums, 1.0, atol=1e-5)
    assert np.all((probs == 0) | (probs >= 0.001)), "average strategy thresholded at 0.001"
    # Query by the original's key strings.
    for i in (0, len(keys) // 2, len(keys) - 1):
        k = setback.key_string(int(keys[i]))
        got = s.get(k)
        assert got is not None and k in s
        assert [p for _, p in got] == pytest.approx(probs[offsets[i] : offsets[i + 1]].tolist())
        assert setback.parse_key(k) == int(keys[i])
    assert s.get("0AKQJT") is None or len(s.get("0AKQJT")) == 4
    # `show` prints the summary and key queries.
    k0 = setback.key_string(int(keys[0]))
    assert main(["show", str(tmp_path / "strategy.cfrkit"), "--key", k0, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert list(shown) == [k0] and sum(shown[k0].values()) == pytest.approx(1.0, abs=1e-5)


def test_resume_continues_exactly(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ra = setback.train(a, 6, seed=3, threads=1)
    setback.train(b, 3, seed=3, threads=1)
    rb = setback.train(b, 6, seed=3, threads=1, resume=True)
    assert (ra.iterations, rb.iterations, rb.iterations_this_run) == (6, 6, 3)
    assert rb.root_value == ra.root_value
    assert rb.infosets == ra.infosets
    assert_same_strategy(a, b)
    # A different seed is a different deal stream.
    c = tmp_path / "c"
    setback.train(c, 6, seed=4, threads=1)
    assert setback.load_strategy(c / "strategy.cfrkit").root_value != ra.root_value


def test_sigkill_then_resume_loses_nothing(tmp_path):
    target = 30
    killed, ref = tmp_path / "killed", tmp_path / "ref"
    args = [
        "--iterations",
        str(target),
        "--threads",
        "1",
        "--seed",
        "9",
        "--checkpoint-seconds",
        "0.2",
    ]
    p = cli("train", "--out", str(killed), *args)
    wait_for_checkpoint(killed / "checkpoint.cfrkit", 2, p)
    p.send_signal(signal.SIGKILL)
    p.wait()
    k = setback.Trainer.load(killed / "checkpoint.cfrkit", 1).iterations
    assert 2 <= k < target
    assert not (killed / "strategy.cfrkit").exists()
    leftovers = [f for f in os.listdir(killed) if f not in ("checkpoint.cfrkit", ".lock")]
    for f in leftovers:  # at most a temporary file of an interrupted write, never a half-written checkpoint
        assert f.startswith(".checkpoint.cfrkit.tmp")
    p = cli("train", "--out", str(killed), "--resume", *args)
    _out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    setback.train(ref, target, seed=9, threads=1)
    assert_same_strategy(killed, ref)
    assert (
        setback.load_strategy(killed / "strategy.cfrkit").root_value
        == setback.load_strategy(ref / "strategy.cfrkit").root_value
    )


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_saves_a_checkpoint(tmp_path, sig):
    p = cli(
        "train",
        "--out",
        str(tmp_path),
        "--iterations",
        "100000",
        "--threads",
        "2",
        "--checkpoint-seconds",
        "0.3",
    )
    wait_for_checkpoint(tmp_path / "checkpoint.cfrkit", 1, p)
    p.send_signal(sig)
    _out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "interrupted at" in err and "checkpoint saved" in err
    t = setback.Trainer.load(tmp_path / "checkpoint.cfrkit", 2)
    assert 1 <= t.iterations < 100000 and t.infosets > 0


def test_corrupt_and_foreign_files_are_refused(tmp_path):
    setback.train(tmp_path, 2, threads=1)
    ckpt = tmp_path / "checkpoint.cfrkit"
    good = ckpt.read_bytes()
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0xFF
    ckpt.write_bytes(bytes(bad))
    with pytest.raises(errors.FileFormatError, match="checksum mismatch"):
        setback.Trainer.load(ckpt)
    ckpt.write_bytes(good[: len(good) - 10])
    with pytest.raises(errors.FileFormatError, match="truncated"):
        setback.Trainer.load(ckpt)
    ckpt.write_bytes(b"not a cfrkit checkpoint at all, just text" * 4)
    with pytest.raises(errors.FileFormatError, match="bad magic"):
        setback.Trainer.load(ckpt)
    with pytest.raises(errors.FileFormatError, match=r"a Setback strategy, not a Setback training checkpoint"):
        setback.Trainer.load(tmp_path / "strategy.cfrkit")
    with pytest.raises(errors.FileFormatError, match=r"a Setback training checkpoint, not a Setback strategy"):
        setback.load_strategy(_as(tmp_path, good))
    with pytest.raises(errors.CfrkitIOError):
        setback.load_strategy(tmp_path / "missing.cfrkit")
    # The CLI refuses to resume a corrupt checkpoint with a one-line error.
    ckpt.write_bytes(bytes(bad))
    p = cli("train", "--out", str(tmp_path), "--iterations", "3", "--resume")
    _out, err = p.communicate(timeout=120)
    assert p.returncode == 2 and "checksum mismatch" in err and "Traceback" not in err


def _as(tmp_path, checkpoint_bytes):
    path = tmp_path / "renamed.cfrkit"
    path.write_bytes(checkpoint_bytes)
    return path


def test_cli_and_api_errors(tmp_path, capsys):
    assert main(["train", "--iterations", "2", "--out", str(tmp_path), "--algo", "vanilla"]) == 2
    assert "vanilla" in capsys.readouterr().err
    with pytest.raises(errors.UnknownAlgorithmError, match="cs-cfr, cs-cfr-2x, cs-cfr-merged, es-mccfr"):
        setback.Trainer("vanilla")
    with pytest.raises(errors.InvalidArgumentError, match="iterations"):
        setback.train(tmp_path, -1)
    with pytest.raises(errors.InvalidArgumentError, match=r'threads: "-2" \(an integer from 0'):
        setback.train(tmp_path, 1, threads=-2)
    with pytest.raises(errors.InvalidArgumentError, match=r'seed: "-1" \(an integer from 0'):
        setback.train(tmp_path, 1, seed=-1)
    setback.train(tmp_path, 1, threads=1)
    assert main(["train", "--iterations", "2", "--out", str(tmp_path)]) == 2
    assert "already holds checkpoint.cfrkit" in capsys.readouterr().err
    assert main(["train", "--iterations", "2", "--out", str(tmp_path), "--resume", "--seed", "5"]) == 2
    assert "made with 'cs-cfr'/0" in capsys.readouterr().err
    with pytest.raises(errors.InvalidArgumentError, match="seconds"):
        setback.Trainer().run(1, 0.0)


def test_es_mccfr_trains_in_parallel_and_reproducibly(tmp_path):
    r2 = setback.train(tmp_path / "p", 40, algo="es-mccfr", threads=2)
    assert r2.iterations == 40 and r2.threads == 2 and r2.infosets > 1000
    assert 0 < r2.bytes_per_infoset < 64
    setback.train(tmp_path / "a", 20, algo="es-mccfr", threads=1, seed=2)
    setback.train(tmp_path / "b", 20, algo="es-mccfr", threads=1, seed=2)
    assert_same_strategy(tmp_path / "a", tmp_path / "b")


def test_parallel_cs_cfr_counts_every_deal_once(tmp_path):
    t = setback.Trainer("cs-cfr", 0, 2)
    done = 0
    while t.iterations < 8:
        done += t.run(8, 0.2)
    assert done == t.iterations == 8
    assert t.threads == 2 and t.infosets > 1000
    v = t.average("0AJ4")
    assert v is None or (len(v) == 4 and sum(v) == pytest.approx(1.0, abs=1e-5))

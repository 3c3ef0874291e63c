"""Learned policies (``cfrkit.learn``, ``cfrkit learn imitate``, the ``net:DIR`` agent):
imitation of ``rules`` from its self-play log beats the most-taken-action baseline, training
is reproducible for a seed, the policy plays whole matches, the networks load in plain
safetensors form, and bad input is refused with one clear line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cfrkit import CfrkitIOError, FileFormatError, InvalidArgumentError, learn, skat


@pytest.fixture(scope="module")
def rules_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "rules.jsonl"
    skat.match("rules", "rules", deals=300, seed=5, log=path)
    return path


def test_imitation_learns_and_plays(rules_log, tmp_path):
    out = tmp_path / "policy"
    r = learn.imitate("skat", [rules_log], out, hidden=[64, 64], epochs=6, batch=128, seed=2)
    model = json.loads((out / "model.json").read_text())
    assert model["format"] == "cfrkit-policy-net" and model["game"] == "skat" and model["features"] == 561
    assert {n["kind"] for n in model["nets"]} == set(r.kinds)
    cards = {k: v for k, v in r.kinds.items() if k.startswith("cards-") and v["heldout_samples"] > 300}
    assert cards, r.kinds
    # `rules` plays a deal alike in its six seatings and the split holds out whole deals: 300
    # distinct games to learn from.
    for kind, v in cards.items():
        assert v["heldout_accuracy"] > v["baseline_accuracy"] + 0.1 and v["heldout_accuracy"] > 0.55, (kind, v)
    assert "top-1" in str(r)
    m = skat.match(f"net:{out}", "rules", deals=20, seed=9)
    assert m.a == f"net:{out}" and m.games == 120
    # The paper's A-percentile bidding, with the max-bid network trained beside the others.
    assert "max-bid" in r.kinds
    bold = skat.match(f"net:{out},percentile=0.9", f"net:{out}", deals=10, seed=9)
    assert bold.a == f"net:{out},percentile=0.9" and bold.games == 60
    # Maximum likely value: the declare-value network is a value network.
    assert "declare-value" in r.kinds and "sign" in str(r)
    assert next(n for n in model["nets"] if n["kind"] == "declare-value")["value"] is True
    mlv = skat.match(f"net:{out},likely_value=1", "rules", deals=5, seed=9)
    assert mlv.a == f"net:{out},likely_value=1" and mlv.games == 30
    bad = subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "skat", "match", "--a", f"net:{out},percentile=1.5", "--b", "rules"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "above 0 and below 1" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    # Safetensors with PyTorch's layer names and shapes.
    from safetensors.numpy import load_file

    net = next(n for n in model["nets"] if n["kind"] == "cards-suit-defender")
    tensors = load_file(out / net["file"])
    assert tensors["l0.weight"].shape == (64, 561) and tensors["l2.weight"].shape == (32, 64)


def test_inference_and_hybrid_agents_play_from_python_and_the_cli(rules_log, tmp_path):
    out = tmp_path / "policy"
    learn.imitate("skat", [rules_log], out, hidden=[32], epochs=2, seed=1)
    inference = f"pimc:worlds=4,inference=net:{out},pool=8"
    hybrid = f"hybrid:net={out},from=8,worlds=4"
    assert skat.agent(inference).name == inference
    assert skat.agent(hybrid).name == hybrid
    m = skat.match(inference, hybrid, deals=2, seed=3)
    assert m.games == 12 and m.a == inference and m.b == hybrid
    with pytest.raises(InvalidArgumentError, match="only with inference"):
        skat.agent("pimc:pool=8")
    with pytest.raises(CfrkitIOError, match="model.json"):
        skat.agent(f"hybrid:net={tmp_path / 'missing'}")
    bad = subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "skat", "match", "--a", "pimc:inference=pimc", "--b", "rules"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "net:DIR" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_relabelled_suits(rules_log, tmp_path):
    """``augment``: the named card kinds train on relabelled suits (recorded in model.json,
    reproducible, other kinds' networks unchanged); kinds without symmetries are refused."""
    kinds = ["cards-suit-declarer", "cards-suit-defender"]
    plain = learn.imitate("skat", rules_log, tmp_path / "p", hidden=[32], epochs=3, seed=1, kinds=kinds)
    aug = dict(hidden=[32], epochs=3, seed=1, kinds=kinds, augment=["cards-suit-declarer"])
    once = learn.imitate("skat", rules_log, tmp_path / "a", **aug)
    again = learn.imitate("skat", rules_log, tmp_path / "b", **aug)
    model = json.loads((tmp_path / "a" / "model.json").read_text())
    assert model["settings"]["augment"] == ["cards-suit-declarer"]
    read = lambda d, k: (tmp_path / d / f"{k}.safetensors").read_bytes()  # noqa: E731
    assert read("a", "cards-suit-declarer") == read("b", "cards-suit-declarer")
    assert read("a", "cards-suit-declarer") != read("p", "cards-suit-declarer")
    assert read("a", "cards-suit-defender") == read("p", "cards-suit-defender")
    figures = lambda r, k: (r.kinds[k]["heldout_accuracy"], r.kinds[k]["heldout_loss"])  # noqa: E731
    assert figures(once, "cards-suit-declarer") == figures(again, "cards-suit-declarer")
    assert figures(plain, "cards-suit-defender") == figures(once, "cards-suit-defender")
    with pytest.raises(InvalidArgumentError, match=r'augment: "bid" .*with symmetries: cards-grand-declarer'):
        learn.imitate("skat", rules_log, tmp_path / "c", augment=["bid"])
    bad = subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "learn", "imitate", "--game", "setback", "--logs", str(rules_log)]
        + ["--out", str(tmp_path / "d"), "--augment", "cards-bidder"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "with symmetries: none" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_soft_targets_learn_the_pimc_values(tmp_path):
    """``soft``: decisions whose log gives PIMC's values train towards their softmax (the
    networks differ from the action-only ones, and the setting is recorded); bad shares and
    temperatures are refused on the command line with one line."""
    from cfrkit import schafkopf
    from cfrkit.logs import read_log

    log = tmp_path / "pimc.jsonl"
    schafkopf.selfplay("pimc:worlds=2", deals=24, seed=4, threads=1, log=log)
    valued = [d for g in read_log(log).games for d in g["decisions"] if "values" in d]
    assert len(valued) > 300 and all(len(d["values"]) == len(d["legal"]) for d in valued)
    kinds = ["cards-sauspiel-defender"]
    common = dict(hidden=[16], epochs=2, seed=1, kinds=kinds, holdout=0.3)
    plain = learn.imitate("schafkopf", log, tmp_path / "p", **common)
    soft = learn.imitate("schafkopf", log, tmp_path / "s", soft=0.5, temperature=20, **common)
    model = json.loads((tmp_path / "s" / "model.json").read_text())
    assert (model["settings"]["soft"], model["settings"]["temperature"]) == (0.5, 20)
    read = lambda d: (tmp_path / d / "cards-sauspiel-defender.safetensors").read_bytes()  # noqa: E731
    assert read("p") != read("s")
    assert plain.kinds[kinds[0]]["heldout_samples"] == soft.kinds[kinds[0]]["heldout_samples"] > 0
    # Every held-out decision of a PIMC log has values: the share of best-valued choices is known.
    best = soft.kinds[kinds[0]]["heldout_best_accuracy"]
    assert 0 < best <= 1 and "best-valued action" in str(soft)
    schafkopf.match("rules", "rules", deals=20, seed=1, log=tmp_path / "rules.jsonl")
    with pytest.raises(InvalidArgumentError, match="soft: .0.5. .*without the agents' values"):
        learn.imitate("schafkopf", tmp_path / "rules.jsonl", tmp_path / "r", soft=0.5)
    for flag, value in [("--soft", "-0.5"), ("--soft", "2"), ("--temperature", "0")]:
        bad = subprocess.run(
            [sys.executable, "-m", "cfrkit.cli", "learn", "imitate", "--game", "schafkopf", "--logs", str(log)]
            + ["--out", str(tmp_path / "d"), flag, value],
            capture_output=True,
            text=True,
        )
        assert bad.returncode == 2 and flag.strip("-") in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_schafkopf_imitation_and_play(tmp_path):
    from cfrkit import schafkopf

    log = tmp_path / "sk.jsonl"
    schafkopf.match("rules", "rules", deals=600, seed=3, log=log)
    r = learn.imitate("schafkopf", log, tmp_path / "p", hidden=[64], epochs=4, seed=1)
    v = r.kinds["cards-sauspiel-defender"]
    assert v["heldout_accuracy"] > v["baseline_accuracy"] + 0.05, v
    m = schafkopf.match(f"net:{tmp_path / 'p'}", "rules", deals=10, seed=2)
    assert m.games == 20
    with pytest.raises(FileFormatError, match="not of skat"):
        skat.agent(f"net:{tmp_path / 'p'}")
    # A policy trained on an earlier version of the features (366 before the order of play).
    model = tmp_path / "p" / "model.json"
    model.write_text(model.read_text().replace(f'"features": {schafkopf.FEATURES}', '"features": 366'))
    with pytest.raises(FileFormatError, match="with 366 features, not 674: .*train it again"):
        schafkopf.agent(f"net:{tmp_path / 'p'}")


def test_setback_logs_imitation_and_play(tmp_path):
    from cfrkit.logs import read_log
    from cfrkit.setback import agents as setback_agents
    from cfrkit.setback.matches import match as setback_match
    from cfrkit.setback.tournament import tournament

    log = tmp_path / "sb.jsonl"
    plain = setback_match("rules", "rules", deals=200, seed=3)
    logged = setback_match("rules", "rules", deals=200, seed=3, log=log)
    assert (logged.a_wins, logged.deals, logged.margin) == (plain.a_wins, plain.deals, plain.margin)
    games = read_log(log)
    assert games.header["game"] == "setback" and len(games.games) == 400
    assert games.header["actions"][:5] == ["pass", "2", "3", "4", "2C"]
    r = learn.imitate("setback", log, tmp_path / "p", hidden=[64], epochs=4, seed=1)
    assert set(r.kinds) == {"bid", "pitch", "cards-bidder", "cards-partner", "cards-defender", "bid-value"}
    v = r.kinds["cards-defender"]
    assert v["heldout_accuracy"] > max(0.8, v["baseline_accuracy"] + 0.1), v
    m = setback_match(f"net:{tmp_path / 'p'}", "random", deals=10, seed=2)
    assert m.games == 20 and m.win_rate > 0.5
    inferring = setback_agents.pimc_agent(worlds=4, threads=1, inference=tmp_path / "p")
    assert inferring.name == f"pimc:worlds=4,inference=net:{tmp_path / 'p'}"
    assert setback_match(inferring, "rules", deals=2, seed=2).games == 4
    # Any agent that gives the probabilities of its moves is a model: here the rules player.
    by_rules = setback_agents.pimc_agent(worlds=4, threads=1, inference="rules")
    assert by_rules.name == "pimc:worlds=4,inference=rules"
    assert setback_match(by_rules, "rules", deals=2, seed=2).games == 4
    with pytest.raises(InvalidArgumentError, match="table-sampled"):
        setback_agents.pimc_agent(inference="pimc")
    with pytest.raises(CfrkitIOError, match="model.json"):
        setback_agents.pimc_agent(inference=tmp_path / "nowhere")
    with pytest.raises(FileFormatError, match="not of skat"):
        skat.agent(f"net:{tmp_path / 'p'}")
    with pytest.raises(InvalidArgumentError, match="a setback log"):
        learn.imitate("setback", [_skat_log(tmp_path)], tmp_path / "q")
    t = tournament(["rules", "random", "pimc:worlds=2,threads=1"], deals=2, seed=1, log=tmp_path / "t.jsonl")
    assert len(t.matches) == 3 and len(read_log(tmp_path / "t.jsonl").games) == 12
    pimc = [d for g in read_log(tmp_path / "t.jsonl").games[8:] for d in g["decisions"] if "values" in d]
    assert pimc and all(len(d["values"]) == len(d["legal"]) for d in pimc)
    cli = subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "setback", "match", "--a", "rules", "--b", "random"]
        + ["--deals", "3", "--log", str(tmp_path / "cli.jsonl"), "--json"],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0 and len(read_log(tmp_path / "cli.jsonl").games) == 6, cli.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "cfrkit.cli", "setback", "match", "--a", "rules", "--b", "random"]
        + ["--deals", "3", "--log", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "not a directory" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def _skat_log(tmp_path):
    path = tmp_path / "sk.jsonl"
    skat.match("rules", "rules", deals=2, log=path)
    return path


def test_training_is_reproducible_for_a_seed(rules_log, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        learn.imitate("skat", rules_log, out, hidden=[32], epochs=2, seed=7)
    for f in sorted(p.name for p in a.glob("*.safetensors")):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"game": "chess"}, "game"),
        ({"logs": []}, "logs"),
        ({"logs": ["/nonexistent.jsonl"]}, "logs"),
        ({"hidden": [0]}, "hidden"),
        ({"epochs": 0}, "epochs"),
        ({"holdout": 1.0}, "holdout"),
        ({"learning_rate": -1}, "learning_rate"),
        ({"seed": -1}, "seed"),
        ({"soft": 1.5}, "soft"),
        ({"soft": float("nan")}, "soft"),
        ({"temperature": 0}, "temperature"),
    ],
)
def test_bad_arguments(rules_log, tmp_path, kwargs, word):
    args = {"game": "skat", "logs": [rules_log], "out": tmp_path / "p", **kwargs}
    with pytest.raises(InvalidArgumentError, match=word):
        learn.imitate(args.pop("game"), args.pop("logs"), args.pop("out"), **args)


def test_foreign_logs_and_policies_are_refused(tmp_path):
    sk = tmp_path / "sk.jsonl"
    from cfrkit import schafkopf

    schafkopf.match("rules", "random", deals=3, log=sk)
    with pytest.raises(InvalidArgumentError, match="a skat log"):
        learn.imitate("skat", [sk], tmp_path / "p")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "model.json").write_text("[]")
    with pytest.raises(FileFormatError, match="not a cfrkit policy"):
        skat.agent(f"net:{tmp_path / 'bad'}")
    with pytest.raises(Exception, match="model.json"):
        skat.agent(f"net:{tmp_path / 'missing'}")


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cfrkit.cli", "learn", *args], capture_output=True, text=True)


def test_the_check_warns_when_the_policy_loses_to_random(rules_log):
    def versus(result):
        return {"result": result, "ci95": 3.0, "unit": "TP/G (A − B)", "games": 120}

    losing = {"agent": "net:p", "deals": 20, "random": versus(-40.0), "loses_to_random": True}
    text = "\n".join(learn.check_lines({**losing, "teacher": None, "teacher_note": "no teacher"}))
    assert "vs random: -40.00 ± 3.00 TP/G" in text and "(no teacher)" in text
    assert "warning: the policy loses to random" in text
    # The teacher is the one agent the logs name; search agents are not checked (minutes).
    assert learn.teacher_of([rules_log]) == "rules"
    with pytest.raises(InvalidArgumentError, match="deals"):
        learn.check("skat", "p", deals=0)
    with pytest.raises(CfrkitIOError, match="model.json"):
        learn.check("skat", "/nonexistent/policy", deals=1)


def test_cli_imitate(rules_log, tmp_path):
    out = tmp_path / "cli"
    r = cli(
        "imitate",
        "--game",
        "skat",
        "--logs",
        str(rules_log),
        "--out",
        str(out),
        "--hidden",
        "32",
        "--epochs",
        "2",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout.strip().splitlines()[-1])
    assert record["game"] == "skat" and "cards-suit-defender" in record["kinds"]
    assert "held-out top-1" in r.stderr
    # The check after training: the default agent against random and against its teacher, the
    # agent of the logs.
    check = record["check"]
    assert check["agent"] == f"net:{out}" and check["deals"] == 200 and check["random"]["games"] == 1200
    assert check["teacher"]["agent"] == "rules" and check["random"]["unit"] == "TP per game (A − B)"
    assert check["random"]["result"] - check["random"]["ci95"] > 0 and not check["loses_to_random"], check
    assert "vs random: +" in r.stdout and "vs its teacher rules:" in r.stdout and "warning" not in r.stdout
    slow = learn.check("skat", out, teacher="pimc:worlds=8", deals=2)
    assert slow["teacher"] is None and "searches every decision" in slow["teacher_note"]
    unknown = learn.check("skat", out, teacher="oracle", deals=2)
    assert unknown["teacher"] is None and "cannot play here" in unknown["teacher_note"], unknown
    # Resuming a finished run trains nothing and reports the same figures; other settings are refused.
    resumed = cli(
        *("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(out), "--hidden", "32", "--epochs", "2"),
        *("--resume", "--json"),
    )
    assert resumed.returncode == 0 and "held-out top-1" not in resumed.stderr, resumed.stderr
    kinds = json.loads(resumed.stdout.strip().splitlines()[-1])["kinds"]
    assert {k: v["heldout_accuracy"] for k, v in kinds.items()} == {
        k: v["heldout_accuracy"] for k, v in record["kinds"].items()
    }
    some = cli(
        *("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(tmp_path / "bids"), "--hidden", "8"),
        *("--epochs", "1", "--kinds", "bid", "declare", "--check", "0", "--json"),
    )
    some_record = json.loads(some.stdout.strip().splitlines()[-1])
    assert sorted(some_record["kinds"]) == ["bid", "declare"] and some_record["check"] is None, some.stderr
    wrong = cli("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(tmp_path / "w"), "--kinds", "cards")
    assert wrong.returncode == 2 and "cards-suit-defender" in wrong.stderr and "Traceback" not in wrong.stderr
    # Exit 0 means a policy was written: nothing to resume, or logs too small to train anything,
    # is one line and exit 2, and leaves no directory behind.
    nothing = cli("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(tmp_path / "n"), "--resume")
    assert nothing.returncode == 2 and "nothing to keep" in nothing.stderr and not (tmp_path / "n").exists()
    tiny_log = tmp_path / "tiny.jsonl"
    skat.match("rules", "rules", deals=1, seed=5, log=tiny_log)
    tiny = cli("imitate", "--game", "skat", "--logs", str(tiny_log), "--out", str(tmp_path / "t"), "--check", "0")
    assert tiny.returncode == 2 and "enough games" in tiny.stderr and len(tiny.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists(), tiny.stderr
    # A directory holding a policy is continued (--resume) or replaced (--force), never trained over.
    taken = (out / "model.json").read_bytes()
    over = cli("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(out), "--hidden", "8", "--epochs", "1")
    assert over.returncode == 2 and "holds a policy (--resume continues it, --force replaces it)" in over.stderr
    assert (out / "model.json").read_bytes() == taken
    replaced = tmp_path / "replaced"
    first = cli("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(replaced), "--check", "0")
    second = cli(
        *("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(replaced), "--kinds", "bid"),
        *("--hidden", "8", "--epochs", "1", "--check", "0", "--force"),
    )
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert sorted(p.name for p in replaced.iterdir()) == ["bid.safetensors", "model.json"]
    other = cli("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(out), "--resume")
    assert other.returncode == 2 and "same settings" in other.stderr and "Traceback" not in other.stderr
    for args in (
        ("imitate", "--game", "skat", "--logs", "/nonexistent.jsonl", "--out", str(out)),
        ("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(out), "--epochs", "-3"),
        ("imitate", "--game", "skat", "--logs", str(rules_log), "--out", str(out), "--holdout", "2"),
        ("imitate", "--game", "go", "--logs", str(rules_log), "--out", str(out)),
        ("imitate", "--game", "skat", "--logs", str(out / "model.json"), "--out", str(out)),
    ):
        r = cli(*args)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, (args, r.stderr)

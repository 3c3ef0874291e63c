"""Every command of ``cfrkit``, every flag, every kind of bad input: one table.

``COMMANDS`` lists each sub-command (as the real parsers define them) with a command line that
runs in a moment and the kind of every flag; each kind of flag is crossed with the bad-input
classes that apply to it (``CLASSES``): a missing file, a directory where a file is expected, a
file of the wrong kind, another game's (or another command's) file, an existing output, a
negative, zero, huge or non-number value, an unknown spec, a bad agent option — and Ctrl-C
(``INTERRUPTS``). Each case asserts one line on stderr, no traceback, exit status 2 (130 after
Ctrl-C), and that no file in the run's directory was created or changed. The few inputs that are
legitimately accepted are named in ``ACCEPTED`` with the files the run writes, and asserted to exit
0 and write just those. ``test_every_command_and_flag_has_its_rows`` reads the sub-commands and
flags from the real parsers: a new command or flag cannot be added without its row.

Cases run the CLI in this process (``cfrkit.cli.main``); Ctrl-C runs a child process.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import hashlib
import importlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback

import pytest
from test_cli_errors import assert_one_line

from cfrkit import _game_cli, cli

NEGATIVE = "-1"
HUGE = "99999999999999999999"
NON_NUMBER = "abc"
UNKNOWN = "nosuch"
BAD_OPTION = "pimc:wrolds=3"
#: Seconds from SIGINT to the exit of an interrupted command.
INTERRUPT_LIMIT = 2.5

# ---------------------------------------------------------------------------------------------
# The table: every command, a quick command line, and the kind of each flag


@dataclasses.dataclass(frozen=True)
class Flag:
    """A flag's kind (what bad inputs apply, see ``CLASSES``); ``other``: another game's or
    command's fixture for file flags; ``unknown``/``bad``: the values of an unknown spec and a
    bad option where the defaults do not fit; ``also``/``drop``: flags added to or removed from
    the command line for this flag's rows."""

    kind: str
    other: str | None = None
    unknown: str | tuple | None = UNKNOWN
    bad: str | tuple | None = None
    also: tuple = ()
    drop: tuple = ()


F = Flag
COUNT1, COUNT0, SEED, THREADS, POSITIVE = (F(k) for k in ("count1", "count0", "seed", "threads", "positive"))
SWITCH, NAME, AGENT = F("switch"), F("name"), F("agent", bad=BAD_OPTION)
AGENTS = F("agents", unknown=("rules", UNKNOWN), bad=("rules", BAD_OPTION))
RAY = F("ray", unknown="no-such-host:1")
RAY_COUNT = F("int")
LOG = F("log")


@dataclasses.dataclass(frozen=True)
class Command:
    base: tuple  # a command line that runs in a moment (placeholders: see ``resolve``)
    flags: dict  # flag (or positional dest) -> Flag


MATCH_FLAGS = {
    "--seed": SEED,
    "--threads": THREADS,
    "--json": SWITCH,
    "--log": LOG,
    "--force": SWITCH,
    "--ray": RAY,
    "--workers": RAY_COUNT,
    "--piece": RAY_COUNT,
}

COMMANDS = {
    ("solve",): Command(
        ("kuhn", "--iterations", "2", "--threads", "1"),
        {
            "game": F("name", unknown="nosuch", bad="leduc(wrolds=3)"),
            "--algo": NAME,
            "--iterations": COUNT0,
            "--threads": THREADS,
            "--seed": SEED,
            "--alpha": F("number", also=("--algo", "dcfr")),
            "--beta": F("number", also=("--algo", "dcfr")),
            "--gamma": F("number", also=("--algo", "dcfr")),
            "--simultaneous": SWITCH,
            "--out": F("out"),
            "--force": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            "--checkpoint-every": POSITIVE,
            "--resume": SWITCH,
            "--json": SWITCH,
            "--ray": F("ray", unknown="no-such-host:1", also=("--algo", "es-mccfr")),
            "--workers": RAY_COUNT,
            "--piece": RAY_COUNT,
        },
    ),
    ("blackjack",): Command(
        ("--iterations", "2", "--threads", "1"),
        {
            "--up": F("name", unknown="1,2", bad="11,6,2"),
            "--max-hits": F("int"),
            "--iterations": COUNT0,
            "--algo": NAME,
            "--threads": THREADS,
            "--dump": F("outdir"),
            "--force": SWITCH,
            "--json": SWITCH,
        },
    ),
    ("bench",): Command(
        ("kuhn", "--algos", "cfr", "--iterations", "2", "--threads", "1", "--checkpoints", "1"),
        {
            "game": F("name", bad="leduc(wrolds=3)"),
            "--algos": F("name", bad="cfr,,cfr+"),
            "--peers": NAME,
            "--seconds": F("positive", drop=("--iterations",)),
            "--iterations": COUNT1,
            "--threads": THREADS,
            "--seed": SEED,
            "--checkpoints": COUNT1,
            "--plot": F("out", unknown="{new:plot.txt}"),
            "--csv": F("out"),
            "--force": SWITCH,
            "--json": SWITCH,
        },
    ),
    ("learn", "imitate"): Command(
        ("--game", "skat", "--logs", "{fx:skat.jsonl}", "--out", "{new:pol}", "--hidden", "4", "--epochs", "1",
         "--check", "0"),
        {
            "--game": NAME,
            "--logs": F("in", other="schafkopf.jsonl"),
            "--records": F("name", unknown="players=nobody"),
            "--out": F("outdir"),
            "--hidden": F("int"),
            "--epochs": COUNT1,
            "--batch": COUNT1,
            "--lr": POSITIVE,
            "--holdout": POSITIVE,
            "--patience": COUNT1,
            "--seed": SEED,
            "--kinds": NAME,
            "--resume": SWITCH,
            "--force": SWITCH,
            "--augment": NAME,
            "--soft": F("nonnegative"),
            "--temperature": POSITIVE,
            "--check": COUNT0,
            "--json": SWITCH,
        },
    ),
    ("logs", "convert"): Command(
        ("--from", "cfrkit", "{fx:skat.jsonl}", "--out", "{new:out.sgf}", "--threads", "1"),
        {
            "--from": NAME,
            "input": F("in", other="schafkopf.jsonl"),
            "--out": F("out"),
            "--force": SWITCH,
            "--filter": F("name", unknown="bogus=1", also=("--from", "iss")),
            "--threads": THREADS,
            "--json": SWITCH,
        },
    ),
    ("logs", "stats"): Command(
        ("{fx:games.sgf}", "--threads", "1"),
        {
            "input": F("in", other="skat.jsonl"),
            "--filter": F("name", unknown="bogus=1"),
            "--threads": THREADS,
            "--json": SWITCH,
        },
    ),
    ("setback", "train"): Command(
        ("--iterations", "2", "--threads", "1", "--out", "{new:run}"),
        {
            "--iterations": COUNT0,
            "--out": F("outdir"),
            "--stage": NAME,
            "--baseline": F("in", other="kuhn.policy", also=("--stage", "bootstrap")),
            "--threads": THREADS,
            "--algo": NAME,
            "--seed": SEED,
            "--resume": SWITCH,
            "--checkpoint-seconds": POSITIVE,
            "--json": SWITCH,
            "--ray": RAY,
            "--workers": RAY_COUNT,
            "--piece": RAY_COUNT,
        },
    ),
    ("setback", "export-db"): Command(
        ("--baseline", "{fx:baseline}", "--bootstrap", "{fx:bootstrap}", "--out", "{new:setback.db}"),
        {
            "--baseline": F("in", other="kuhn.checkpoint"),
            "--bootstrap": F("in", other="skat.jsonl"),
            "--out": F("out"),
            "--force": SWITCH,
            "--json": SWITCH,
        },
    ),
    ("setback", "show"): Command(
        ("{fx:baseline/strategy.cfrkit}",),
        {"file": F("in", other="kuhn.policy"), "--key": F("name", unknown="zzz"), "--json": SWITCH},
    ),
    ("setback", "deal"): Command(
        ("--seed", "1"),
        {"--hands": F("name", unknown=("XX", "AS", "KS", "QS"), drop=("--seed",)), "--seed": SEED, "--json": SWITCH},
    ),
    ("setback", "match"): Command(
        ("--a", "rules", "--b", "random", "--deals", "1", "--threads", "1"),
        {
            "--a": AGENT,
            "--b": AGENT,
            "--deals": COUNT1,
            "--pairs": COUNT1,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("setback", "tournament"): Command(
        ("--agents", "rules", "random", "--deals", "1", "--threads", "1"),
        {
            "--agents": AGENTS,
            "--deals": COUNT1,
            "--pairs": COUNT1,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("setback", "play"): Command(("--seed", "1"), {"--bots": AGENT, "--seat": F("int"), "--seed": SEED}),
    ("setback", "selfplay"): Command(
        ("--agent", "rules", "--deals", "1", "--threads", "1", "--log", "{new:games.jsonl}"),
        {
            "--agent": AGENT,
            "--deals": COUNT1,
            "--pairs": COUNT1,
            "--seed": SEED,
            "--threads": THREADS,
            "--json": SWITCH,
            "--log": LOG,
            "--force": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
        },
    ),
    ("skat", "match"): Command(
        ("--a", "rules", "--b", "random", "--deals", "1", "--threads", "1"),
        {
            "--a": AGENT,
            "--b": AGENT,
            "--deals": COUNT1,
            "--share-decisions": SWITCH,
            "--protocol": NAME,
            "--rules": NAME,
            "--log-format": NAME,
            "--checkpoint": F("checkpoint", other="schafkopf.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("skat", "selfplay"): Command(
        ("--agent", "rules", "--deals", "1", "--threads", "1", "--log", "{new:games.jsonl}"),
        {
            "--agent": AGENT,
            "--deals": COUNT1,
            "--seed": SEED,
            "--threads": THREADS,
            "--json": SWITCH,
            "--log": LOG,
            "--force": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            "--log-format": NAME,
            "--rules": NAME,
        },
    ),
    ("skat", "tournament"): Command(
        ("--agents", "rules", "random", "--deals", "1", "--threads", "1"),
        {
            "--agents": AGENTS,
            "--deals": COUNT1,
            "--share-decisions": SWITCH,
            "--protocol": NAME,
            "--rules": NAME,
            "--log-format": NAME,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("skat", "play"): Command(
        (),
        {"--bots": AGENT, "--seat": F("int"), "--seed": SEED, "--index": F("int")},
    ),
    ("skat", "deal"): Command((), {"--seed": SEED, "--index": F("int"), "--json": SWITCH}),
    ("schafkopf", "match"): Command(
        ("--a", "rules", "--b", "random", "--deals", "1", "--threads", "1"),
        {
            "--a": AGENT,
            "--b": AGENT,
            "--deals": COUNT1,
            "--games": COUNT1,
            "--protocol": NAME,
            "--rules": NAME,
            "--share-decisions": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("schafkopf", "selfplay"): Command(
        ("--agent", "rules", "--deals", "1", "--threads", "1", "--log", "{new:games.jsonl}"),
        {
            "--agent": AGENT,
            "--deals": COUNT1,
            "--games": COUNT1,
            "--seed": SEED,
            "--threads": THREADS,
            "--json": SWITCH,
            "--log": LOG,
            "--force": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            "--rules": NAME,
        },
    ),
    ("schafkopf", "tournament"): Command(
        ("--agents", "rules", "random", "--deals", "1", "--threads", "1"),
        {
            "--agents": AGENTS,
            "--deals": COUNT1,
            "--games": COUNT1,
            "--protocol": NAME,
            "--rules": NAME,
            "--share-decisions": SWITCH,
            "--checkpoint": F("checkpoint", other="skat.ckpt"),
            **MATCH_FLAGS,
        },
    ),
    ("schafkopf", "play"): Command(
        (),
        {"--bots": AGENT, "--seat": F("int"), "--seed": SEED, "--index": F("int"), "--rules": NAME},
    ),
    ("schafkopf", "deal"): Command((), {"--seed": SEED, "--index": F("int"), "--rules": NAME, "--json": SWITCH}),
}

#: Bad-input classes of each kind of flag: class -> the value given (placeholders resolved per case).
CLASSES = {
    "count1": {"negative": NEGATIVE, "zero": "0", "huge": HUGE, "non-number": NON_NUMBER},
    "count0": {"negative": NEGATIVE, "zero": "0", "huge": HUGE, "non-number": NON_NUMBER},
    "int": {"negative": NEGATIVE, "huge": HUGE, "non-number": NON_NUMBER},
    "seed": {"negative": NEGATIVE, "huge": HUGE, "non-number": NON_NUMBER},
    "threads": {"negative": NEGATIVE, "zero": "0", "huge": HUGE, "non-number": NON_NUMBER},
    "positive": {"negative": NEGATIVE, "zero": "0", "huge": HUGE, "non-number": NON_NUMBER},
    "nonnegative": {"negative": NEGATIVE, "huge": HUGE, "non-number": NON_NUMBER},
    "number": {"negative": NEGATIVE, "huge": HUGE, "non-number": NON_NUMBER},
    "name": {"unknown-spec": None, "bad-option": None},
    "agent": {"unknown-spec": None, "bad-option": None},
    "agents": {"unknown-spec": None, "bad-option": None, "duplicate": ("rules", "rules")},
    "ray": {"unknown-spec": None},
    "in": {
        "missing": "{missing}",
        "directory": "{dir}",
        "wrong-kind:text": "{text}",
        "wrong-kind:binary": "{binary}",
        "other-game": None,
    },
    "checkpoint": {
        "directory": "{dir}",
        "wrong-kind:text": "{text}",
        "wrong-kind:binary": "{binary}",
        "other-game": None,
        "missing": "{nodir}",
    },
    "log": {"directory": "{dir}", "existing:text": "{text}", "existing:binary": "{binary}", "missing": "{nodir}"},
    "out": {"directory": "{dir}", "existing:text": "{text}", "existing:binary": "{binary}", "missing": "{nodir}"},
    "outdir": {"wrong-kind:text": "{text}", "existing": "{full}", "missing": "{nodir}"},
    "switch": {},
}

#: Bad inputs that are legitimately accepted: (command, flag, class) -> (why, files the run writes[,
#: what it says on stderr]).
ACCEPTED = {
    (("solve",), "--iterations", "zero"): ("0 iterations: the uniform policy's figures", ()),
    (("solve",), "--threads", "zero"): ("0 threads: all cores", ()),
    (("solve",), "--checkpoint-every", "huge"): ("a checkpoint at the end only", ()),
    (("solve",), "--alpha", "huge"): ("DCFR's discount at its limit: positive regrets kept whole", ()),
    (("solve",), "--beta", "huge"): ("DCFR's discount at its limit: negative regrets kept whole", ()),
    (("solve",), "--beta", "negative"): ("DCFR allows beta < 0 (negative regrets discounted faster)", ()),
    (("solve",), "--gamma", "huge"): ("DCFR's average weights at their limit: the last iterations", ()),
    (("blackjack",), "--dump", "missing"): ("the dump directory is created with its parents", ("no",)),
    (("solve",), "--checkpoint", "missing-file"): ("a new checkpoint", ("match.ckpt",)),
    (("blackjack",), "--iterations", "zero"): ("0 iterations: the uniform policy's figures", ()),
    (("blackjack",), "--threads", "zero"): ("0 threads: all cores", ()),
    (("bench",), "--threads", "zero"): ("0 threads: all cores", ()),
    (("learn", "imitate"), "--check", "zero"): ("0: no check after training", ("pol",)),
    (("learn", "imitate"), "--out", "missing"): ("the policy directory is created with its parents", ("no",)),
    (("logs", "convert"), "--threads", "zero"): ("0 threads: all cores", ("out.sgf",)),
    (("logs", "stats"), "--threads", "zero"): ("0 threads: all cores", ()),
    (("setback", "train"), "--iterations", "zero"): ("a run of 0 deals: an empty strategy", ("run",)),
    (("setback", "train"), "--threads", "zero"): ("0 threads: all cores", ("run",)),
    (("setback", "train"), "--checkpoint-seconds", "huge"): ("a checkpoint at the end only", ("run",)),
    (("setback", "train"), "--out", "missing"): ("the run directory is created with its parents", ("no",)),
    (("setback", "train"), "--iterations", "below-done"): (
        "a checkpoint past the target: the run says so and does nothing",
        (),
        "past the target 1: nothing to do",
    ),
}
for _cmd in (("setback", "match"), ("setback", "tournament"), ("skat", "match"), ("skat", "tournament"),
             ("schafkopf", "match"), ("schafkopf", "tournament")):
    ACCEPTED[(_cmd, "--threads", "zero")] = ("0 threads: all cores", ())
    ACCEPTED[(_cmd, "--checkpoint", "missing-file")] = ("a new checkpoint", ("match.ckpt",))
for _cmd in (("skat", "selfplay"), ("schafkopf", "selfplay"), ("setback", "selfplay")):
    ACCEPTED[(_cmd, "--threads", "zero")] = ("0 threads: all cores", ("games.jsonl",))
    ACCEPTED[(_cmd, "--checkpoint", "missing-file")] = ("a new checkpoint", ("games.jsonl", "match.ckpt"))

#: Rows that fail today for reasons outside the files this test's author may change.
XFAIL = {}
#: Words the error line of a row must hold besides (or, in EXACT_NEEDLES, instead of) the usual
#: ones: the bad value or the flag.
NEEDLES = {
    (("solve",), "--simultaneous", "bad-option"): ["--simultaneous"],
}
EXACT_NEEDLES = {
    (("blackjack",), "--max-hits", "huge"): ["255"],
}

#: Rows that need no run: (command, flag, class) -> why.
SEE_ELSEWHERE = {
    (("bench",), "--seconds", "huge"): "a budget never reached runs until Ctrl-C: the bench ctrl-c row uses it",
}


# ---------------------------------------------------------------------------------------------
# Extra rows that the kinds do not generate: (command, flag, class, changes to the base line)

R = "--resume"  # a switch: no value
EXTRA = [
    # --resume with nothing to resume, or another game's or command's file
    (("solve",), "--resume", "missing", ((R, None), ("--checkpoint", "{missing}"))),
    (("solve",), "--resume", "other-game", ((R, None), ("--checkpoint", "{fx:skat.ckpt}"))),
    (("solve",), "--resume", "wrong-kind:text", ((R, None), ("--checkpoint", "{text}"))),
    (("solve",), "--checkpoint", "existing", (("--checkpoint", "{fx:kuhn.checkpoint}"),)),
    # a total below what the checkpoint has done (2 iterations, 2 deals)
    (("solve",), "--iterations", "below-done",
     (("--iterations", "1"), (R, None), ("--checkpoint", "{fx:kuhn.checkpoint}"))),
    (("setback", "train"), "--iterations", "below-done",
     (("--iterations", "1"), (R, None), ("--out", "{fx:baseline}"))),
    (("solve",), "--simultaneous", "bad-option", (("--simultaneous", None), ("--algo", "es-mccfr"))),
    (("solve",), "--alpha", "bad-option", (("--alpha", "2"),)),  # not dcfr
    (("setback", "train"), "--resume", "missing", ((R, None),)),
    (("setback", "train"), "--out", "other-game", (("--out", "{fx:pol}"),)),
    (("setback", "train"), "--resume", "other-game", ((R, None), ("--out", "{fx:bootstrap}"))),
    (("learn", "imitate"), "--resume", "missing", ((R, None),)),
    (("learn", "imitate"), "--out", "other-game", (("--out", "{fx:baseline}"),)),
    (("learn", "imitate"), "--logs", "other-game:checkpoint", (("--logs", "{fx:kuhn.checkpoint}"),)),
    (("learn", "imitate"), "--game", "other-game", (("--game", "setback"),)),
    (("learn", "imitate"), "--logs", "wrong-kind:too-small", (("--logs", "{fx:tiny.jsonl}"),)),
    (("logs", "convert"), "input", "other-game:iss", (("--from", "iss"), ("input", "{fx:skat.jsonl}"))),
    (("logs", "convert"), "input", "other-game:records", (("--from", "cfrkit"), ("input", "{fx:games.sgf}"))),
    (("logs", "convert"), "--out", "same-as-input", (("--out", "{fx:skat.jsonl}"), ("--force", None))),
    (
        ("setback", "export-db"),
        "--bootstrap",
        "other-game:stage",
        (("--baseline", "{fx:bootstrap}"), ("--bootstrap", "{fx:baseline}")),
    ),
    (("bench",), "--seconds", "bad-option", (("--seconds", "1"),)),  # with --iterations: one budget only
    (("setback", "match"), "--workers", "bad-option", (("--workers", "2"),)),  # without --ray
]
for _cmd in (("skat", "match"), ("skat", "tournament"), ("skat", "selfplay")):
    EXTRA.append((_cmd, "--log-format", "existing", (("--log-format", "iss"), ("--log", "{binary}"))))


# ---------------------------------------------------------------------------------------------
# Cases


@dataclasses.dataclass
class Case:
    command: tuple
    flag: str
    klass: str
    argv: list
    accepted: tuple | None = None  # (why, files written)
    xfail: str | None = None
    stdin: str = ""
    value: object = None  # the bad value, whose text (or the flag) the error line names

    @property
    def id(self) -> str:
        return f"{' '.join(self.command)} {self.flag} {self.klass}"


def _replace(base: list, flag: str, value, flags: dict) -> list:
    """``base`` with ``flag`` given ``value`` (a string or a tuple of strings)."""
    values = list(value) if isinstance(value, tuple) else [value]
    argv = list(base)
    if not flag.startswith("-"):  # a positional: the first placeholder-free positional of its rank
        positionals = [i for i, t in enumerate(argv) if not t.startswith("--") and not _is_option_value(argv, i, flags)]
        rank = [f for f in flags if not f.startswith("-")].index(flag)
        i = positionals[rank]
        return argv[:i] + values + argv[i + 1 :]
    if flag in argv:
        i = argv.index(flag)
        j = i + 1
        while j < len(argv) and not argv[j].startswith("--") and _is_option_value(argv, j, flags):
            j += 1
        return argv[: i + 1] + values + argv[j:]
    return argv + [flag, *values]


def _is_option_value(argv: list, i: int, flags: dict) -> bool:
    """Whether ``argv[i]`` is a value of the option before it (multi-valued options take all
    that follow up to the next option)."""
    j = i
    while j > 0 and not argv[j - 1].startswith("--"):
        j -= 1
    if j == 0:
        return False
    option = argv[j - 1]
    if flags.get(option, SWITCH).kind == "switch":
        return False
    many = option in ("--agents", "--logs", "--hidden", "--kinds", "--augment", "--hands")
    return many or j == i


def _drop(argv: list, flag: str, flags: dict) -> list:
    if flag not in argv:
        return argv
    i = argv.index(flag)
    j = i + 1
    while j < len(argv) and _is_option_value(argv, j, flags):
        j += 1
    return argv[:i] + argv[j:]


def _apply(base: list, changes: tuple, flags: dict) -> list:
    """``base`` with ``changes``, pairs of a flag (or positional) and its value (None: a switch)."""
    argv = list(base)
    for flag, value in changes:
        if value is None:
            argv = argv if flag in argv else [*argv, flag]
        else:
            argv = _replace(argv, flag, value, flags)
    return argv


def cases() -> list:
    out = []
    for command, spec in COMMANDS.items():
        for flag, f in spec.flags.items():
            for klass, value in CLASSES[f.kind].items():
                key = (command, flag, klass)
                if key in SEE_ELSEWHERE:
                    continue
                if klass == "unknown-spec":
                    value = f.unknown
                elif klass == "bad-option":
                    if f.bad is None:
                        continue
                    value = f.bad
                elif klass == "other-game":
                    value = "{fx:" + f.other + "}"
                elif klass == "missing" and f.kind == "checkpoint":
                    # A checkpoint that does not exist is a new one: refused only under a missing directory.
                    out.append(_case(command, spec, flag, "missing-file", "{new:match.ckpt}", f))
                if value is None:
                    continue
                out.append(_case(command, spec, flag, klass, value, f))
    for command, flag, klass, changes in EXTRA:
        spec = COMMANDS[command]
        argv = _apply(list(spec.base), changes, spec.flags)
        out.append(_finish(Case(command, flag, klass, [*command, *argv])))
    return out


def _case(command, spec, flag, klass, value, f: Flag) -> Case:
    argv = list(spec.base)
    for d in f.drop:
        argv = _drop(argv, d, spec.flags)
    argv = _apply(argv, tuple(zip(f.also[::2], f.also[1::2])), spec.flags)
    argv = _replace(argv, flag, value, spec.flags)
    return _finish(Case(command, flag, klass, [*command, *argv], value=value))


def _finish(c: Case) -> Case:
    key = (c.command, c.flag, c.klass)
    c.accepted = ACCEPTED.get(key)
    c.xfail = XFAIL.get(key)
    return c


CASES = cases()


# ---------------------------------------------------------------------------------------------
# Fixtures: files of every kind, made once


def _make_fixtures(d) -> None:
    from cfrkit import schafkopf, setback, skat

    def run(*argv):
        code = cli.main(list(argv))
        assert code == 0, argv

    skat.selfplay("rules", 60, seed=3, threads=1, log=d / "skat.jsonl")
    skat.records.log_to_iss(str(d / "skat.jsonl"), str(d / "games.sgf"))
    schafkopf.selfplay("rules", 20, seed=3, threads=1, log=str(d / "schafkopf.jsonl"))
    with open(d / "skat.jsonl") as src, open(d / "tiny.jsonl", "w") as dst:
        dst.write(src.readline())  # the header alone
    setback.train(d / "baseline", 2, threads=1)
    setback.train(d / "bootstrap", 2, threads=1, stage="bootstrap", baseline=d / "baseline")
    os.remove(d / "baseline" / ".lock") if (d / "baseline" / ".lock").exists() else None
    os.remove(d / "bootstrap" / ".lock") if (d / "bootstrap" / ".lock").exists() else None
    run("solve", "kuhn", "--iterations", "2", "--threads", "1", "--checkpoint", str(d / "kuhn.checkpoint"),
        "--out", str(d / "kuhn.policy"))
    run("skat", "match", "--a", "rules", "--b", "random", "--deals", "1", "--threads", "1",
        "--checkpoint", str(d / "skat.ckpt"))
    run("schafkopf", "match", "--a", "rules", "--b", "random", "--deals", "1", "--threads", "1",
        "--checkpoint", str(d / "schafkopf.ckpt"))
    run("learn", "imitate", "--game", "skat", "--logs", str(d / "skat.jsonl"), "--out", str(d / "pol"),
        "--hidden", "4", "--epochs", "1", "--check", "0")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    d = tmp_path_factory.mktemp("fixtures")
    _make_fixtures(d)
    return d


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def resolve(argv: list, fx, work) -> list:
    """Placeholders: {missing} a file that does not exist, {nodir} a file under a directory that
    does not exist, {dir} a directory (holding a file), {text} a text file, {binary} a PNG-like
    file, {full} a directory holding a file, {new:NAME} a new path in the run's directory,
    {fx:NAME} a copy of fixture NAME in the run's directory."""

    def one(token: str) -> str:
        m = re.fullmatch(r"\{(\w+)(?::(.+))?\}", token)
        if not m:
            return token
        what, name = m.groups()
        if what == "missing":
            return str(work / "missing.file")
        if what == "nodir":
            return str(work / "no" / "such" / "file")
        if what in ("dir", "full"):
            p = work / ("a-directory" if what == "dir" else "full")
            p.mkdir(exist_ok=True)
            (p / "keep.txt").write_text("mine\n")
            return str(p)
        if what == "text":
            p = work / "notes.txt"
            p.write_text("my notes\n")
            return str(p)
        if what == "binary":
            p = work / "picture.png"
            p.write_bytes(PNG)
            return str(p)
        if what == "new":
            return str(work / name)
        if what == "fx":
            src, dst = fx / name, work / os.path.basename(name)
            if not dst.exists():
                shutil.copytree(src, dst) if src.is_dir() else shutil.copy2(src, dst)
            return str(dst)
        raise AssertionError(token)

    return [one(t) for t in argv]


def snapshot(root) -> dict:
    """Every file and directory under ``root``: files by size, mtime and content."""
    seen = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames:
            seen[os.path.relpath(os.path.join(dirpath, n), root) + "/"] = "dir"
        for n in filenames:
            p = os.path.join(dirpath, n)
            st = os.stat(p)
            with open(p, "rb") as f:
                digest = hashlib.sha1(f.read()).hexdigest()
            seen[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns, digest)
    return seen


def changed(before: dict, after: dict) -> list:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


@dataclasses.dataclass
class Result:
    returncode: object
    stdout: str
    stderr: str


def run_in_process(argv: list, capfd, stdin: str = "") -> Result:
    """``cfrkit ARGV`` in this process: its exit status and what it wrote (Python and native
    writes alike); an exception that escapes ``main`` is reported as a traceback."""
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    escaped = ""
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code
        escaped = f"SystemExit({e.code!r}) escaped main"
    except BaseException:  # noqa: BLE001 - what escapes is the failure under test
        code = "escaped"
        escaped = traceback.format_exc()
    finally:
        sys.stdin = saved
    out, err = capfd.readouterr()
    return Result(code, out, err + escaped)


def _params():
    for c in CASES:
        marks = [pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else []
        yield pytest.param(c, id=c.id, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_bad_input(case: Case, fixtures, tmp_path, capfd, monkeypatch):
    work = tmp_path / "run"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("CFRKIT_NUM_THREADS", "1")
    argv = resolve(case.argv, fixtures, work)
    needles = []
    if case.value is not None:
        values = case.value if isinstance(case.value, tuple) else (case.value,)
        bad = resolve(list(values), fixtures, work)
        name = case.flag.lstrip("-")
        parts = [p for v in bad for p in re.split(r"[:,=]", v) if len(p) > 1]  # pimc:wrolds=3 names wrolds
        needles = [*bad, *parts, case.flag, name, name.replace("-", "_")]
    needles += NEEDLES.get((case.command, case.flag, case.klass), [])
    needles = EXACT_NEEDLES.get((case.command, case.flag, case.klass), needles)
    before, fixtures_before = snapshot(tmp_path), snapshot(fixtures)
    r = run_in_process(argv, capfd, case.stdin)
    after = snapshot(tmp_path)
    assert snapshot(fixtures) == fixtures_before
    diff = changed(before, after)
    if case.command == ("setback", "train"):
        # The lock of a run directory that existed is the runs' own (a refused resume takes it).
        diff = [k for k in diff if not (os.path.basename(k) == ".lock" and os.path.dirname(k) + "/" in before)]
    if case.accepted:
        why, writes, *said = case.accepted
        assert r.returncode == 0, (why, r.stderr)
        assert all(text in r.stderr for text in said), (said, r.stderr)
        assert "Traceback" not in r.stderr
        own = [k for k in diff if k.split(os.sep)[1].rstrip("/") in writes]
        assert diff == own, f"accepted ({why}) but changed {[k for k in diff if k not in own]}"
        written = {k.split(os.sep)[1].rstrip("/") for k in own}
        assert set(writes) <= written, f"accepted ({why}) but did not write {set(writes) - written}"
        return
    line = assert_one_line(r)
    if needles:
        assert any(n in line for n in needles), f"the line names none of {needles}: {line}"
    assert diff == [], f"refused, yet changed {diff}"


# ---------------------------------------------------------------------------------------------
# Ctrl-C: a child process gets SIGINT while it runs; it ends within a moment, exit 130, one line

BIG = "1000000000"
INTERRUPTS = {
    ("solve",): [("solve", "leduc", "--iterations", BIG, "--threads", "1")],
    ("blackjack",): [("blackjack", "--iterations", BIG, "--threads", "1")],
    ("bench",): [("bench", "leduc", "--algos", "cfr", "--seconds", HUGE, "--threads", "1")],
    ("learn", "imitate"): [
        ("learn", "imitate", "--game", "skat", "--logs", "{fx:skat.jsonl}", "--out", "{new:pol}", "--hidden", "64",
         "--epochs", "1000000", "--patience", "1000000", "--check", "0")
    ],
    ("setback", "train"): [("setback", "train", "--iterations", BIG, "--threads", "1", "--out", "{new:run}")],
    ("setback", "match"): [("setback", "match", "--a", "rules", "--b", "random", "--deals", BIG, "--threads", "1")],
    ("setback", "tournament"): [
        ("setback", "tournament", "--agents", "rules", "random", "--deals", BIG, "--threads", "1")
    ],
    ("setback", "play"): [("setback", "play", "--seed", "1")],
    ("setback", "selfplay"): [
        ("setback", "selfplay", "--agent", "rules", "--deals", BIG, "--threads", "1", "--log", "{new:g.jsonl}"),
    ],
    ("skat", "match"): [
        ("skat", "match", "--a", "rules", "--b", "random", "--deals", BIG, "--threads", "1"),
        ("skat", "match", "--a", "pimc", "--b", "rules", "--deals", BIG, "--threads", "1"),
    ],
    ("skat", "selfplay"): [
        ("skat", "selfplay", "--agent", "rules", "--deals", BIG, "--threads", "1", "--log", "{new:g.jsonl}"),
        ("skat", "selfplay", "--agent", "pimc", "--deals", BIG, "--threads", "1", "--log", "{new:g.jsonl}"),
    ],
    ("skat", "tournament"): [("skat", "tournament", "--agents", "rules", "random", "--deals", BIG, "--threads", "1")],
    ("skat", "play"): [("skat", "play",)],
    ("schafkopf", "match"): [
        ("schafkopf", "match", "--a", "rules", "--b", "random", "--deals", BIG, "--threads", "1"),
        ("schafkopf", "match", "--a", "pimc", "--b", "rules", "--deals", BIG, "--threads", "1"),
    ],
    ("schafkopf", "selfplay"): [
        ("schafkopf", "selfplay", "--agent", "rules", "--deals", BIG, "--threads", "1", "--log", "{new:g.jsonl}"),
        ("schafkopf", "selfplay", "--agent", "pimc", "--deals", BIG, "--threads", "1", "--log", "{new:g.jsonl}"),
    ],
    ("schafkopf", "tournament"): [
        ("schafkopf", "tournament", "--agents", "rules", "random", "--deals", BIG, "--threads", "1")
    ],
    ("schafkopf", "play"): [("schafkopf", "play")],
}
#: Commands with no long phase to interrupt (they end before a signal could reach them).
NOT_LONG = {
    ("setback", "show"): "reads one strategy file",
    ("setback", "deal"): "prints one deal",
    ("skat", "deal"): "prints one deal",
    ("schafkopf", "deal"): "prints one deal",
    ("setback", "export-db"): "the stopped export is tested in test_cli_errors (the native export runs to its end)",
    ("logs", "convert"): "converts the given records at once; a stop leaves no output (test_iss)",
    ("logs", "stats"): "reads the given records at once",
}
#: Lines a command prints while it runs (progress) or at once on a stop that takes a moment
#: ("stopping…"), not counted: the one line is the one that says what the stop left.
PROGRESS = re.compile(r"deals/s|epoch \d+, best held-out|: stopping…$")
#: What each interrupted run may leave: its own outputs.
INTERRUPT_OUTPUTS = {"pol", "run", "g.jsonl"}
INTERRUPT_XFAIL: dict = {}


def _interrupt_cases():
    for command, argvs in INTERRUPTS.items():
        for argv in argvs:
            label = " ".join(a for a in argv if not a.startswith("{"))
            xfail = INTERRUPT_XFAIL.get(label)
            marks = [pytest.mark.xfail(reason=xfail, strict=False)] if xfail else []
            yield pytest.param(argv, id=label, marks=marks)


READY = "import sys, cfrkit.cli as c; print('ready', flush=True); sys.exit(c.main(sys.argv[1:]))"


@pytest.mark.parametrize("argv", list(_interrupt_cases()))
def test_ctrl_c(argv, fixtures, tmp_path):
    work = tmp_path / "run"
    work.mkdir()
    args = resolve(list(argv), fixtures, work)
    before = snapshot(tmp_path)
    env = dict(os.environ, CFRKIT_NUM_THREADS="1")
    p = subprocess.Popen(
        [sys.executable, "-c", READY, *args],
        cwd=work,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(p.stderr), daemon=True)
    reader.start()
    try:
        assert p.stdout.readline().strip() == "ready"
        threading.Thread(target=p.stdout.read, daemon=True).start()
        time.sleep(1.5)  # into the long work
        assert p.poll() is None, ("ended before the signal", p.returncode, lines)
        p.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 30 s after Ctrl-C: {lines}")
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    reader.join(5)
    text = "".join(lines)
    said = [x for x in text.strip().splitlines() if not PROGRESS.search(x)]
    assert "Traceback" not in text and "panicked" not in text, text
    assert p.returncode == 130, (p.returncode, text)
    assert len(said) == 1 and "interrupted" in said[0], text
    assert took < INTERRUPT_LIMIT, f"{took:.1f} s from Ctrl-C to the exit"
    diff = [k for k in changed(before, snapshot(tmp_path)) if k.split(os.sep)[1].rstrip("/") not in INTERRUPT_OUTPUTS]
    assert diff == [], diff


# ---------------------------------------------------------------------------------------------
# The table covers every command and flag of the real parsers


def leaf_parsers() -> dict:
    """Every command of ``cfrkit`` (the sub-commands of the sub-commands, as the modules that
    run them define them) -> its parser."""

    def walk(path, parser):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield path, parser
            return
        for name, sub in subs[0].choices.items():
            if not path and name in cli.GAME_TOOLS:  # a placeholder: the module has the parser
                tool = importlib.import_module(cli.GAME_TOOLS[name][0])
                sub = _game_cli.parser(tool.CLI) if hasattr(tool, "CLI") else tool._parser()
            yield from walk((*path, name), sub)

    return dict(walk((), cli.build_parser()))


def parser_flags(parser) -> set:
    flags = set()
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        long = [o for o in a.option_strings if o.startswith("--")]
        flags.add(long[0] if long else a.dest)
    return flags


def test_every_command_and_flag_has_its_rows():
    leaves = leaf_parsers()
    assert set(leaves) == set(COMMANDS), (
        f"commands without rows: {sorted(set(leaves) - set(COMMANDS))}; "
        f"rows of no command: {sorted(set(COMMANDS) - set(leaves))}"
    )
    for command, parser in leaves.items():
        declared = set(COMMANDS[command].flags)
        assert parser_flags(parser) == declared, (command, parser_flags(parser) ^ declared)
        assert (command in INTERRUPTS) != (command in NOT_LONG), f"{command}: a ctrl-c row or a reason"
        rows = [c for c in CASES if c.command == command]
        for flag, f in COMMANDS[command].flags.items():
            if f.kind != "switch":
                assert any(c.flag == flag for c in rows), (command, flag)
    keys = {(c.command, c.flag, c.klass) for c in CASES}
    for key in [*ACCEPTED, *XFAIL]:
        assert key in keys, f"{key} names no row"


def test_the_base_command_lines_run(fixtures, tmp_path, capfd, monkeypatch):
    """Each command's base line is good: the rows' refusals come from the one bad input."""
    monkeypatch.setenv("CFRKIT_NUM_THREADS", "1")
    for command, spec in COMMANDS.items():
        if command[-1] == "play":
            continue  # waits for a person; its bad inputs are refused before the game starts
        work = tmp_path / "-".join(command)
        work.mkdir()
        monkeypatch.chdir(work)
        r = run_in_process(resolve([*command, *spec.base], fixtures, work), capfd)
        assert r.returncode == 0, (command, r.stderr)


def row_counts() -> str:
    """The table's rows per command and per bad-input class (printed with ``-s``)."""
    by_command = collections.Counter(" ".join(c.command) for c in CASES)
    by_class = collections.Counter(c.klass.split(":")[0] for c in CASES)
    for argvs in INTERRUPTS.values():
        for argv in argvs:
            command = next(c for c in COMMANDS if tuple(argv[: len(c)]) == c)
            by_command[" ".join(command)] += 1
            by_class["ctrl-c"] += 1
    width = max(map(len, by_command))
    lines = [f"{k:<{width}} {v:>4}" for k, v in sorted(by_command.items())]
    lines += [f"{k:<{width}} {v:>4}" for k, v in sorted(by_class.items())]
    return "\n".join(lines)


if __name__ == "__main__":
    print(row_counts())

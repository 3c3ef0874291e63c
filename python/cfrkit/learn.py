"""Learned policies: networks trained on game logs (:mod:`cfrkit.logs`) to imitate the agents
that played them, one network per decision kind, played natively by the ``net:DIR`` agent.

>>> from cfrkit import learn, skat
>>> skat.match("pimc:worlds=32", "pimc:worlds=32", deals=500, log="selfplay.jsonl")  # doctest: +SKIP
>>> r = learn.imitate("skat", ["selfplay.jsonl"], "policies/skat", epochs=20)        # doctest: +SKIP
>>> r.kinds["cards-suit-defender"]["heldout_accuracy"]                               # doctest: +SKIP
0.78
>>> skat.match("net:policies/skat", "rules", deals=1000)                             # doctest: +SKIP

Training runs in the Rust core (candle, on the CPU): minibatch AdamW on the cross-entropy of
the legal actions, a held-out share of the deals, early stopping on the held-out loss. The
policy directory holds one safetensors file per network (``l0.weight``, ``l0.bias``, … — loads
into PyTorch ``nn.Linear`` layers) and ``model.json`` describing them. See ``docs/learn.md``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from typing import Callable, Optional, Sequence, Union

from .errors import CfrkitError, InvalidArgumentError

#: Games with learned policies.
GAMES = ("skat", "schafkopf", "setback")


@dataclasses.dataclass
class ImitationResult:
    """What :func:`imitate` trained: per decision kind its figures (``train_samples``,
    ``heldout_samples``, ``heldout_accuracy``, ``baseline_accuracy`` — always the action most
    taken in training —, ``heldout_best_accuracy`` — where the logs give the teacher's values,
    the share of those held-out decisions whose top-1 the teacher valued highest, else None —,
    ``heldout_loss``, ``train_loss``, ``epochs``, ``best_epoch``, ``samples_per_second``,
    ``heldout_accuracy_by_stage`` — Skat's card play by trick, as the Skat paper reports it: a
    list of ``(trick, held-out decisions, accuracy)`` —), the directory and the seconds taken."""

    game: str
    out: str
    kinds: dict
    seconds: float
    #: What :func:`check` found, where the run checked the policy (``cfrkit learn imitate`` does).
    check: Optional[dict] = None

    def record(self) -> dict:
        """The figures as a JSON-able dict."""
        return dataclasses.asdict(self)

    def __str__(self) -> str:
        lines = [f"{self.game} policy in {self.out} ({self.seconds:.1f} s):"]
        for kind, r in self.kinds.items():
            # A value network (its kind ends in -value) is scored by the sign of its predictions.
            what, floor = ("sign", "majority-sign") if kind.endswith("-value") else ("top-1", "most-taken")
            lines.append(
                f"  {kind:22} {what} {100 * r['heldout_accuracy']:5.1f}% held out ({floor} baseline "
                f"{100 * r['baseline_accuracy']:5.1f}%), {r['train_samples']:,} / {r['heldout_samples']:,} "
                f"decisions, epoch {r['best_epoch']} of {r['epochs']}"
                + (
                    ""
                    if r.get("heldout_best_accuracy") is None
                    else f", a best-valued action {100 * r['heldout_best_accuracy']:.1f}%"
                )
            )
        staged = {
            k: r["heldout_accuracy_by_stage"] for k, r in self.kinds.items() if r.get("heldout_accuracy_by_stage")
        }
        if staged:
            tricks = sorted({t for rows in staged.values() for t, _, _ in rows})
            lines.append("  held-out top-1 by trick: " + " ".join(f"{t:>5}" for t in tricks))
            for kind, rows in staged.items():
                by = {t: a for t, _, a in rows}
                cells = " ".join(f"{100 * by[t]:4.0f}%" if t in by else "    -" for t in tricks)
                lines.append(f"  {kind:22}  {cells}")
        if self.check:
            lines.extend(check_lines(self.check))
        return "\n".join(lines)


def _check(name: str, v, ok: bool, allowed: str):
    if not ok:
        raise InvalidArgumentError(f"invalid value for {name}: {v!r} ({allowed})")
    return v


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def imitate(
    game: str,
    logs: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
    out: Union[str, os.PathLike],
    *,
    hidden: Sequence[int] = (256, 256, 256),
    epochs: int = 30,
    batch: int = 256,
    learning_rate: float = 1e-3,
    holdout: float = 0.1,
    patience: int = 3,
    seed: int = 0,
    kinds: Optional[Sequence[str]] = None,
    resume: bool = False,
    force: bool = False,
    progress: Union[bool, Callable[[str, int, float, float], object]] = False,
    augment: Optional[Sequence[str]] = None,
    soft: float = 0.0,
    temperature: float = 1.0,
    records: Optional[str] = None,
) -> ImitationResult:
    """Trains a policy for ``game`` on the game logs ``logs`` and writes it to the directory
    ``out``: one network per decision kind found in the logs (``hidden`` ReLU layers), trained
    for at most ``epochs`` epochs and stopped once ``patience`` epochs bring no better held-out
    loss (``holdout`` of the deals are held out, each with all its games). The same logs, settings and seed give the
    same networks. ``progress=True`` prints after each epoch the best held-out figures so far
    on stderr; a callable gets ``(kind, epoch, heldout_accuracy, heldout_loss)`` of the best
    network so far. Ctrl-C stops training
    (``KeyboardInterrupt``); the networks saved by then stay in ``out``. ``resume=True`` keeps
    the decision kinds ``out`` already finished (trained on the same logs with the same
    settings) and trains the rest: the result is the uninterrupted run's, byte for byte; an
    ``out`` that holds a policy is otherwise refused, unless ``force=True`` replaces it. Logs too
    small to train any decision kind are refused (no empty policy is written).
    ``kinds`` trains only the named decision kinds (e.g. ``["bid", "skat", "discard", "declare"]``:
    a model of the bidding for PIMC's inference); an unknown kind is refused naming the game's.
    ``augment`` names decision kinds whose training decisions are shown, each epoch, under a
    random relabelling of the suits that play alike in them (the card-play kinds of Skat and Schafkopf;
    docs/learn.md); a kind without symmetries is refused naming the ones with. ``soft`` (0 to 1)
    is the share of the loss that learns the teacher's logged values of the legal actions (their
    softmax at ``temperature``, in the game's payoff units) rather than the action it took, in
    decisions whose log gives values (PIMC's means); the held-out loss is the same mix, the
    held-out accuracy stays on the action.

    Skat also learns from game records of the International Skat Server (``.sgf`` files, plain
    or ``.bz2``; ``docs/iss.md``): each is replayed and checked, and the records that replay and
    that the filter ``records`` keeps (e.g. ``"players=humans,complete=1"``) are converted into a
    cfrkit game log in ``out`` (``records-K.jsonl``) that the training reads."""
    from . import _cfrkit

    _check("game", game, game in GAMES, f"one of {', '.join(GAMES)}")
    paths = [logs] if isinstance(logs, (str, os.PathLike)) else list(logs)
    _check("logs", logs, len(paths) > 0, "one or more game log files")
    for p in paths:
        _check("logs", os.fspath(p), os.path.isfile(p), "existing game log files")
    _replace_if_forced(out, resume, force, remove=False)  # refused before any work
    paths = _records_as_logs(game, paths, out, records)
    hidden = list(hidden)
    _check("hidden", hidden, all(_is_int(h) and 1 <= h <= 65536 for h in hidden), "layer sizes from 1 to 65536")
    _check("epochs", epochs, _is_int(epochs) and 1 <= epochs <= 1_000_000, "from 1 to 1000000")
    _check("batch", batch, _is_int(batch) and 1 <= batch <= 1 << 20, "from 1 to 1048576")
    lr_ok = isinstance(learning_rate, (int, float)) and math.isfinite(learning_rate) and 0 < learning_rate <= 1
    _check("learning_rate", learning_rate, lr_ok, "a number in (0, 1]")
    _check("holdout", holdout, isinstance(holdout, (int, float)) and 0 < holdout < 1, "a share in (0, 1)")
    _check("patience", patience, _is_int(patience) and 1 <= patience <= 1_000_000, "from 1 to 1000000")
    _check("seed", seed, _is_int(seed) and 0 <= seed < 2**64, "an integer from 0 to 2**64 - 1")
    _check("kinds", kinds, kinds is None or not isinstance(kinds, str), "a list of decision kinds")
    _check("augment", augment, augment is None or not isinstance(augment, str), "a list of decision kinds")
    _check("soft", soft, _is_number(soft) and 0 <= soft <= 1, "a share of the loss from 0 to 1")
    _check("temperature", temperature, _is_number(temperature) and 0 < temperature <= 1e6, "a number in (0, 1000000]")
    report: Optional[Callable] = None
    if callable(progress):
        report = progress
    elif progress:
        import sys

        def report(kind: str, epoch: int, accuracy: float, loss: float) -> None:
            print(f"{kind}: epoch {epoch}, best held-out top-1 {100 * accuracy:.1f}%, loss {loss:.4f}", file=sys.stderr)

    _replace_if_forced(out, resume, force, remove=True)
    started = time.perf_counter()
    rows = _cfrkit.imitate_policy(
        game,
        [os.fspath(p) for p in paths],
        os.fspath(out),
        hidden,
        epochs,
        batch,
        float(learning_rate),
        float(holdout),
        patience,
        seed,
        kinds=[] if kinds is None else [str(k) for k in kinds],
        resume=bool(resume),
        progress=report,
        augment=[] if augment is None else [str(k) for k in augment],
        soft=float(soft),
        temperature=float(temperature),
    )
    by_kind = {r.pop("kind"): r for r in rows}
    return ImitationResult(game=game, out=os.fspath(out), kinds=by_kind, seconds=time.perf_counter() - started)


def _replace_if_forced(out, resume: bool, force: bool, remove: bool) -> None:
    """A directory that holds a policy is continued (``resume``) or replaced (``force``: with
    ``remove``, its description and networks are removed), never trained over unasked."""
    description = os.path.join(os.fspath(out), "model.json")
    if resume or not os.path.exists(description):
        return
    if not force:
        raise InvalidArgumentError(
            f"invalid value for out: {os.fspath(out)!r} holds a policy (--resume continues it, --force replaces it)"
        )
    if not remove:
        return
    import json

    try:
        with open(description, encoding="utf-8") as f:
            files = [n["file"] for n in json.load(f).get("nets", []) if "/" not in n["file"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        files = []
    for name in [*files, "model.json"]:
        path = os.path.join(os.fspath(out), name)
        if os.path.isfile(path):
            os.remove(path)


def is_records(path) -> bool:
    name = os.fspath(path).lower()
    return name.endswith((".sgf", ".sgf.bz2", ".bz2"))


def _records_as_logs(game: str, paths: list, out, records: Optional[str]) -> list:
    """The logs to train on: ISS record files converted into cfrkit logs in ``out``."""
    if not any(is_records(p) for p in paths):
        _check("records", records, records is None, "a filter of ISS record files; these logs are not records")
        return paths
    _check("game", game, game == "skat", "skat: ISS records (.sgf) hold Skat games")
    from .skat.records import iss_to_log

    os.makedirs(out, exist_ok=True)
    converted = []
    for k, p in enumerate(paths):
        if not is_records(p):
            converted.append(p)
            continue
        target = os.path.join(os.fspath(out), f"records-{k}.jsonl")
        counts = iss_to_log(os.fspath(p), target, 0, records)
        if counts["written"] == 0:
            raise InvalidArgumentError(
                f"no record of {os.fspath(p)} replays and passes the filter {records!r} "
                f"({counts['games']} replayed, {counts['rejected']} rejected)"
            )
        converted.append(target)
    return converted


#: Agents too slow for the check after training (a search per decision): checked by hand.
_SLOW_TEACHERS = ("pimc", "hybrid", "schafkopfrl-pimc")


def teacher_of(logs: Sequence[Union[str, os.PathLike]]) -> Optional[str]:
    """The agent that played every seat of the game logs ``logs`` (their headers name one agent,
    or the same one for A and B), or None where they name several or none (ISS records)."""
    from .logs import LogReader

    names = set()
    for p in logs:
        with LogReader(p) as r:
            names.update(r.header.get("agents", []))
    return next(iter(names)) if len(names) == 1 and names != {"iss"} else None


def _versus(game: str, a: str, b: str, deals: int, seed: int) -> dict:
    """A against B over ``deals`` deals: the game's headline figure of a match for A (above 0: A
    won), its 95% half-width, and its unit."""
    if game in ("skat", "schafkopf"):
        import importlib

        r = importlib.import_module(f"cfrkit.{game}").match(a, b, deals=deals, seed=seed)
        return {"result": r.diff, "ci95": r.ci95_diff, "unit": f"{r.unit} (A − B)", "games": r.games}
    from . import setback

    r = setback.match(a, b, deals, seed=seed)
    half = (r.margin_ci_high - r.margin_ci_low) / 2 if r.margin_ci_low is not None else 0.0
    return {"result": r.margin, "ci95": half, "unit": "deal points per deal (A − B)", "games": r.games}


def check(
    game: str,
    policy: Union[str, os.PathLike],
    teacher: Optional[str] = None,
    deals: int = 200,
    seed: int = 0,
) -> dict:
    """A short check of the policy in the directory ``policy`` as the default agent ``net:DIR``:
    a match of ``deals`` deals (Setback: duplicate pairs of games) against ``random`` and, where ``teacher`` names a fast agent
    (not a search such as ``pimc``), against the teacher. Returns ``{"agent", "deals",
    "random": {"result", "ci95", "unit", "games"}, "teacher": {... , "agent"} or None,
    "teacher_note", "loses_to_random"}`` (``result``: the game's headline figure of a match for
    the policy as A, above 0 when it wins; ``loses_to_random`` when it is below 0 against random)."""
    _check("game", game, game in GAMES, f"one of {', '.join(GAMES)}")
    _check("deals", deals, _is_int(deals) and 1 <= deals <= 1_000_000, "from 1 to 1000000")
    agent = f"net:{os.fspath(policy)}"
    out: dict = {"agent": agent, "deals": deals, "random": _versus(game, agent, "random", deals, seed)}
    out["loses_to_random"] = out["random"]["result"] < 0
    out["teacher"], out["teacher_note"] = None, None
    if teacher is None:
        out["teacher_note"] = "the logs were played by several agents or by people: no teacher to check against"
    elif teacher.split(":")[0] in _SLOW_TEACHERS:
        out["teacher_note"] = f"the teacher {teacher} searches every decision: check it by hand with a match"
    elif teacher != "random":
        try:
            out["teacher"] = {"agent": teacher, **_versus(game, agent, teacher, deals, seed)}
        except CfrkitError as e:  # e.g. a log of an agent this version does not know
            out["teacher_note"] = f"the teacher {teacher} cannot play here: {e}"
    return out


def check_lines(c: dict) -> list:
    """The check's figures as lines for people (see :func:`check`)."""
    lines = [f"  check of the default agent {c['agent']}:"]
    for label, r in (("random", c["random"]), ("teacher", c["teacher"])):
        if r is not None:
            name = "random" if label == "random" else f"its teacher {r['agent']}"
            lines.append(f"    vs {name}: {r['result']:+.2f} ± {r['ci95']:.2f} {r['unit']} (95%, {r['games']:,} games)")
    if c["teacher_note"]:
        lines.append(f"    ({c['teacher_note']})")
    if c["loses_to_random"]:
        lines.append("  warning: the policy loses to random; train on more or other games before playing it")
    return lines


__all__ = ["GAMES", "ImitationResult", "check", "imitate", "teacher_of"]

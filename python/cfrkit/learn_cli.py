"""``cfrkit learn ...``: learned policies.

* ``imitate --game skat|schafkopf|setback --logs FILE [FILE ...] --out DIR [--hidden H ...] [--epochs N] [--batch B]
  [--lr X] [--holdout X] [--patience N] [--seed S] [--augment KIND ...] [--soft W] [--temperature T]
  [--records SPEC] [--check DEALS] [--json]`` — trains one network per decision kind on the game logs (``--log`` of matches) to
  imitate the agents that played them, writes them and ``model.json`` to DIR, and prints each
  kind's held-out top-1 accuracy; play the policy with the agent ``net:DIR``. With ``--json``
  the last line of stdout is one JSON object with ``game``, ``out``, ``kinds`` (per kind
  ``heldout_accuracy``, ``baseline_accuracy``, ``train_samples``, ``heldout_samples``,
  ``epochs``, …) and ``seconds``.

Errors print one line on stderr and exit with status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from . import cli_args
from .errors import InvalidArgumentError
from .learn import GAMES, is_records


def _parser() -> argparse.ArgumentParser:
    p = cli_args.Parser(prog="cfrkit learn", description="learned policies from game logs")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("imitate", help="train networks that imitate the agents of game logs")
    m.add_argument("--game", required=True, choices=list(GAMES), help="the game of the logs")
    m.add_argument(
        "--logs",
        nargs="+",
        required=True,
        metavar="FILE",
        help="game logs (JSON lines, --log of matches) or, for skat, ISS records (.sgf, .sgf.bz2)",
    )
    m.add_argument(
        "--records",
        metavar="SPEC",
        help="which ISS records to learn from, e.g. players=humans,complete=1,since=2016-01-01 (docs/iss.md)",
    )
    m.add_argument("--out", required=True, metavar="DIR", help="the policy directory to write")
    m.add_argument(
        "--hidden",
        nargs="+",
        type=cli_args.integer(1, 65536, "a layer size from 1 to 65536"),
        default=[256, 256, 256],
        help="hidden layer sizes (default 256 256 256)",
    )
    m.add_argument("--epochs", type=cli_args.integer(1, 1_000_000), default=30, help="most epochs (default 30)")
    m.add_argument("--batch", type=cli_args.integer(1, 1 << 20), default=256, help="minibatch size (default 256)")
    m.add_argument(
        "--lr", type=cli_args.number(0, above=True, high=1), default=1e-3, help="learning rate (default 0.001)"
    )
    m.add_argument(
        "--holdout",
        type=cli_args.number(0, above=True, high=1, below=True),
        default=0.1,
        help="share of deals held out, each with all its games (default 0.1)",
    )
    m.add_argument(
        "--patience", type=cli_args.integer(1, 1_000_000), default=3, help="epochs without progress (default 3)"
    )
    m.add_argument("--seed", type=cli_args.seed, default=0, help="seed of weights, split and shuffles (default 0)")
    m.add_argument(
        "--kinds", nargs="+", metavar="KIND", help="train only these decision kinds (default: every kind in the logs)"
    )
    m.add_argument(
        "--resume",
        action="store_true",
        help="keep the decision kinds DIR already finished (same logs and settings) and train the rest",
    )
    m.add_argument("--force", action="store_true", help="replace the policy DIR holds (without it, one is refused)")
    m.add_argument(
        "--augment",
        nargs="+",
        metavar="KIND",
        help="show these kinds' training decisions under random relabellings of the suits that play alike "
        "(the card kinds of Skat and Schafkopf, e.g. cards-suit-declarer cards-grand-declarer)",
    )
    m.add_argument(
        "--soft",
        type=cli_args.number(0, high=1),
        default=0.0,
        metavar="W",
        help="share of the loss that learns the teacher's logged values (softmax at --temperature) instead of its "
        "action, where the logs have values (PIMC's means; default 0: the action alone)",
    )
    m.add_argument(
        "--temperature",
        type=cli_args.number(0, above=True, high=1e6),
        default=1.0,
        metavar="T",
        help="temperature of the teacher's values, in the game's payoff units (default 1)",
    )
    m.add_argument(
        "--check",
        type=cli_args.integer(0, 1_000_000),
        default=200,
        metavar="DEALS",
        help="after training, play the policy against random and its teacher for DEALS deals each (Setback: "
        "duplicate pairs) and warn if it loses to random (default 200, seconds; 0: no check)",
    )
    m.add_argument("--json", action="store_true", help="print the figures as one JSON object on the last line")
    return p


def _refuse_foreign_out(a: argparse.Namespace) -> None:
    """Refuses, before any work, an ``--out`` that is a file, or a directory that holds files but
    no policy (``model.json``) unless ``--force`` (write the policy into it) or ``--resume`` (a
    stopped run's networks): the networks would be mixed with, or replace, files that are not
    the run's. A directory that holds a policy is :func:`cfrkit.learn.imitate`'s to check."""
    if os.path.exists(a.out) and not os.path.isdir(a.out):
        raise InvalidArgumentError(
            f"invalid value for --out: {a.out!r} (a directory to write the policy into; this is a file)"
        )
    if a.force or a.resume or not os.path.isdir(a.out) or os.path.exists(os.path.join(a.out, "model.json")):
        return
    names = sorted(os.listdir(a.out))
    if names:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        raise InvalidArgumentError(
            f"invalid value for --out: {a.out!r} holds files but no policy ({shown}; --force writes the policy "
            "into it; a new or empty directory keeps them apart)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit learn`` with ``argv``; returns the exit status."""

    def command() -> int:
        from .learn import check, imitate, teacher_of

        a = _parser().parse_args(cli_args.argv_or_sys(argv))
        _refuse_foreign_out(a)
        r = imitate(
            a.game,
            a.logs,
            a.out,
            hidden=a.hidden,
            epochs=a.epochs,
            batch=a.batch,
            learning_rate=a.lr,
            holdout=a.holdout,
            patience=a.patience,
            seed=a.seed,
            kinds=a.kinds,
            resume=a.resume,
            force=a.force,
            progress=True,
            augment=a.augment,
            soft=a.soft,
            temperature=a.temperature,
            records=a.records,
        )
        if a.check > 0:
            logs = [os.path.join(a.out, f"records-{k}.jsonl") if is_records(p) else p for k, p in enumerate(a.logs)]
            print(f"checking {a.game} policy {a.out} against random and its teacher ...", file=sys.stderr)
            r.check = check(a.game, a.out, teacher=teacher_of(logs), deals=a.check, seed=a.seed)
        print(r)
        if a.json:
            sys.stdout.flush()
            print(json.dumps(r.record(), sort_keys=True))
        return 0

    return cli_args.run("cfrkit learn", command)


if __name__ == "__main__":
    sys.exit(main())

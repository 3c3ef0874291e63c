"""``cfrkit setback ...``: the commands and flags of every game (``match``, ``tournament``, ``play``,
``deal``: ``cfrkit._game_cli``, ``docs/commands.md``) and Setback's own: train the abstraction,
export the database, inspect strategies.

* ``match --a A --b B --deals N`` — duplicate game pairs (spec §5.1: each deal played twice, the
  hands going to the other team the second time); games, A's win rate with a 95% confidence
  interval and the mean deal points per team. ``tournament --agents A B C ... --deals N``: every
  pair, a cross table of win rates and margins. ``--pairs`` is the deprecated spelling of
  ``--deals``.
* ``play [--bots AGENT] [--seed S]`` — a whole game in the terminal: you sit South with a bot
  partner against two bots; ``quit`` stops it (status 0), the end of input too (status 2).

* ``train --iterations N --out DIR [--stage baseline|bootstrap --baseline DIR0] [--threads T]
  [--algo cs-cfr|cs-cfr-2x|cs-cfr-merged|es-mccfr] [--seed S] [--resume] [--checkpoint-seconds X] [--json]``
  — trains the baseline deal game, or the bootstrap auction game played out by the baseline in
  DIR0; shows progress (iterations, deals/s, infosets, memory, root value of the non-dealer
  team); checkpoints atomically every X seconds, and on Ctrl-C or SIGTERM writes the checkpoint
  and the strategy of the deals done; ``--resume`` continues a checkpoint exactly and says
  where. One run at a time may use DIR (a second is refused while the first lives); temporary
  files of killed writes are removed when the next run starts. With ``--ray [ADDRESS] [--workers N]
  [--piece DEALS]`` training runs in synchronous rounds on a Ray cluster (``docs/ray.md``).
* ``export-db --baseline DIR --bootstrap DIR2 --out setback.db [--json]`` — the SQLite strategy
  database (spec §4.1).
* ``show FILE [--key KEY ...] [--json]`` — summary of a strategy file, or the average strategy
  of keys (the original's key strings, e.g. ``0AJ4``).
* ``deal [--hands "H0" "H1" "H2" "H3" | --seed S] [--json]`` — the hands, the player to act and
  its legal bids, and the abstraction's actions and key.

Errors print one line on stderr and exit with status 2; Ctrl-C or SIGTERM saves and exits with 130.
Names (algorithms, stages, agents, file names) come from the core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from .. import _game_cli, _selfplay, cli_args
from . import CHECKPOINT_FILE, STRATEGY_FILE, Deal, Strategy, TrainingInterrupted, export_db, train
from .agents import SPECS as AGENTS_HELP


def _own(command: str, p: argparse.ArgumentParser) -> None:
    if command == "deal":
        p.add_argument("--hands", nargs=4, metavar="HAND", help='four hands, dealer first, e.g. "AS JS 4S KH 7H 9D"')


def _training_commands(sub) -> None:
    t = sub.add_parser(
        "train", help="train the baseline deal game or the bootstrap auction game (CFR over sampled deals, all cores)"
    )
    t.add_argument(
        "--iterations",
        type=cli_args.count(0),
        required=True,
        help="total deals to reach (a resumed run continues to it)",
    )
    t.add_argument(
        "--out",
        type=cli_args.out_dir,
        required=True,
        help=f"directory for {CHECKPOINT_FILE} and {STRATEGY_FILE} (one run at a time)",
    )
    t.add_argument(
        "--stage",
        default="baseline",
        help="baseline (the deal game, default) or bootstrap (the score-aware auction game; needs --baseline)",
    )
    t.add_argument("--baseline", help="the baseline training directory whose argmax plays out bootstrap deals")
    t.add_argument(
        "--threads",
        type=cli_args.threads,
        default=0,
        help="worker threads (default 0: CFRKIT_NUM_THREADS or all cores)",
    )
    t.add_argument(
        "--algo",
        default="cs-cfr",
        help="cs-cfr (the original's chance-sampled CFR, every update kept as in Cfrm 3.0), "
        "cs-cfr-2x (Cfrm 2.x's write-back, which loses same-key updates inside a subtree; "
        "the original's published numbers), cs-cfr-merged (faster: one walk per post-auction "
        "state, different dynamics) or es-mccfr",
    )
    t.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the deal stream (default 0)")
    t.add_argument("--resume", action="store_true", help="continue the checkpoint in --out (which must hold one)")
    t.add_argument(
        "--checkpoint-seconds",
        type=cli_args.number(0, above=True),
        default=600.0,
        help="seconds between checkpoints (default 600)",
    )
    t.add_argument("--json", action="store_true", help="print the run's figures as one JSON line at the end")
    cli_args.add_ray_options(t, piece="deals each worker trains per synchronous round (default 0: 2000)")

    e = sub.add_parser("export-db", help="write the SQLite strategy database of a baseline and a bootstrap run")
    e.add_argument("--baseline", required=True, help="baseline training directory (or strategy file)")
    e.add_argument("--bootstrap", required=True, help="bootstrap training directory (or strategy file)")
    e.add_argument(
        "--out",
        type=cli_args.out_file,
        required=True,
        help="the database file to write (a new file; written atomically)",
    )
    e.add_argument("--force", action="store_true", help="replace an existing --out database")
    e.add_argument("--json", action="store_true", help="print the figures as JSON")

    s = sub.add_parser("show", help="summarise a strategy file or print the strategy of keys")
    s.add_argument("file", type=cli_args.in_file, help=f"a strategy file (DIR/{STRATEGY_FILE})")
    s.add_argument("--key", action="append", default=[], help="a key string, e.g. 0AJ4 (repeatable)")
    s.add_argument("--json", action="store_true", help="print JSON")


class _Progress:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, f: dict) -> None:
        line = (
            f"{f['iterations']:>10,}/{f['target']:,} deals  {f['deals_per_second']:8.1f} deals/s  "
            f"{f['infosets']:>12,} infosets  {f['bytes_per_infoset']:5.1f} B/infoset  "
            f"rss {f['rss_bytes'] / 2**20:8.1f} MiB  root value (non-dealer) {f['root_value']:+.4f}"
        )
        if self.tty:
            self.stream.write("\r" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\n")

    def say(self, message: str) -> None:
        """One line of news about the run (a resume, files cleaned up)."""
        self.stream.write(message + "\n")
        self.stream.flush()


def _train(a: argparse.Namespace) -> int:
    prog = _Progress(sys.stderr)
    try:
        r = train(
            a.out,
            a.iterations,
            stage=a.stage,
            baseline=a.baseline,
            algo=a.algo,
            seed=a.seed,
            threads=a.threads,
            resume=a.resume,
            checkpoint_seconds=a.checkpoint_seconds,
            progress=prog,
            log=prog.say,
            backend=cli_args.backend(a),
        )
    except TrainingInterrupted as e:
        prog.done()
        print(
            f"interrupted at {e.result.iterations:,} deals; checkpoint saved to {e.result.checkpoint}"
            + (f"; strategy written to {e.result.strategy}" if e.result.strategy else ""),
            file=sys.stderr,
        )
        if a.json:
            print(json.dumps(e.result.to_dict(), sort_keys=True))
        return 130
    prog.done()
    cli_args.report(
        a.json,
        r.to_dict(),
        lambda: (
            f"{r.iterations:,} deals ({r.iterations_this_run:,} in {r.seconds:.1f} s, "
            f"{r.deals_per_second:.1f} deals/s on {r.threads} threads); {r.infosets:,} infosets, "
            f"{r.bytes_per_infoset:.1f} bytes/infoset; root value of the non-dealer team {r.root_value:+.4f}; "
            f"strategy in {r.strategy}"
        ),
    )
    return 0


def _export_db(a: argparse.Namespace) -> int:
    started = time.time()
    try:
        r = export_db(a.baseline, a.bootstrap, a.out, force=a.force)
    except KeyboardInterrupt:
        # The database is written whole or not at all, and the native export runs to its end
        # before Python sees a Ctrl-C: say which of the two it was.
        if os.path.isfile(a.out) and os.path.getmtime(a.out) >= started - 1:
            raise KeyboardInterrupt(f"the export had finished before the stop; {a.out} is complete") from None
        raise KeyboardInterrupt(f"nothing written to {a.out}") from None
    cli_args.report(
        a.json,
        r.to_dict(),
        lambda: (
            f"{a.out}: {r.baseline_rows:,} establish/playout rows + {r.bootstrap_rows:,} auction rows, "
            f"{r.bytes / 2**20:.1f} MiB in {r.seconds:.1f} s"
        ),
    )
    return 0


def _show(a: argparse.Namespace) -> int:
    s = Strategy.load(a.file)
    if a.key:
        res = {k: s.get(k) for k in a.key}
        if a.json:
            print(json.dumps({k: (dict(v) if v is not None else None) for k, v in res.items()}))
        else:
            for k, v in res.items():
                body = "not trained" if v is None else "  ".join(f"{c} {p:.4f}" for c, p in v)
                print(f"{k}: {body}")
        return 0
    info = {
        "file": a.file,
        "stage": s.stage,
        "algo": s.algo,
        "seed": s.seed,
        "iterations": s.iterations,
        "infosets": len(s),
        "root_value": s.root_value,
    }
    cli_args.report(a.json, info, lambda: "\n".join(f"{k}: {v}" for k, v in info.items()))
    return 0


def _deal(a: argparse.Namespace) -> int:
    if a.hands and getattr(a, "seed_given", True):
        raise cli_args.UsageError("argument --seed: not allowed with argument --hands")
    d = Deal(hands=a.hands) if a.hands else Deal.random(a.seed)
    legal, abstract, key = [str(b) for b in d.legal_bids()], d.abstract_actions(), d.key()
    if a.json:
        record = _game_cli.deal_record(
            "setback", a.seed, 0, d.hands, d.player, legal, abstract_actions=abstract, key=key
        )
        _game_cli.emit_json(record)
    else:
        seats = [f"player {i}" + (" (dealer)" if i == 0 else "") for i in range(4)]
        _game_cli.print_deal(seats, d.hands, d.player, legal, {"abstract actions": " ".join(abstract), "key": key})
    return 0


def _match(a: argparse.Namespace) -> int:
    from .matches import match

    r = match(
        a.a,
        a.b,
        a.deals,
        seed=a.seed,
        threads=a.threads,
        backend=cli_args.backend(a),
        log=a.log,
        checkpoint=a.checkpoint,
        progress=True,
    )
    cli_args.report(a.json, r.to_dict(), lambda: str(r))
    return 0


def _selfplay_run(a: argparse.Namespace) -> int:
    from .matches import selfplay

    r = selfplay(a.agent, a.deals, seed=a.seed, threads=a.threads, progress=True, checkpoint=a.checkpoint, log=a.log)
    return _selfplay.report(r, a.log, a.json, _game_cli.emit_json)


def _tournament(a: argparse.Namespace) -> int:
    from .tournament import tournament

    def progress(m) -> None:
        print(str(m), file=sys.stderr)

    r = tournament(
        a.agents,
        a.deals,
        seed=a.seed,
        threads=a.threads,
        progress=None if a.json else progress,
        backend=cli_args.backend(a),
        log=a.log,
        checkpoint=a.checkpoint,
    )
    cli_args.report(a.json, r.to_dict(), r.table)
    return 0


def _play(a: argparse.Namespace) -> int:
    from .play import play_terminal

    play_terminal(a.bots, seat=a.seat, seed=a.seed)  # quit: one line, status 0; end of input: an error, status 2
    return 0


CLI = _game_cli.GameCli(
    name="setback",
    description="Setback (Auction Pitch): matches, tournaments, play in the terminal, deals; train, export, inspect",
    agents=AGENTS_HELP,
    seatings="twice, the hands going to the other team the second time",
    runners={
        "match": _match,
        "tournament": _tournament,
        "selfplay": _selfplay_run,
        "play": _play,
        "deal": _deal,
        "train": _train,
        "export-db": _export_db,
        "show": _show,
    },
    own=_own,
    old_deals="--pairs",
    more=_training_commands,
    seats=("West", "North", "East", "South"),
    default_seat=3,
    indexed=False,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit setback`` with ``argv`` (without the program and sub-command names);
    returns the exit status."""
    return _game_cli.main(CLI, argv)


if __name__ == "__main__":
    sys.exit(main())

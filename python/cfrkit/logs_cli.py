"""``cfrkit logs ...``: game logs and game records.

* ``convert --from iss FILE --out LOG.jsonl [--filter SPEC] [--threads T] [--force] [--json]`` —
  reads the ISS records of FILE (plain or ``.bz2``), replays each under the server's rules,
  checks its result, and writes the games that replay as a cfrkit game log (``docs/logs.md``);
  every record that does not is named on stderr (line, id, reason) and skipped.
* ``convert --from cfrkit LOG.jsonl --out FILE.sgf [--force]`` — writes the games of a cfrkit
  Skat log as ISS records.
* ``stats FILE [--filter SPEC] [--threads T] [--json]`` — games by type and modifier, declarer
  win rates, bids, passed-in share and how games ended, for ISS records.

Errors print one line on stderr and exit with status 2; Ctrl-C exits with 130 and leaves no
output file.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence

from . import cli_args
from .errors import InvalidArgumentError


def _parser() -> cli_args.Parser:
    p = cli_args.Parser(prog="cfrkit logs", description="game logs and ISS game records")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="convert ISS records to a cfrkit game log, or a cfrkit Skat log to records")
    c.add_argument("--from", dest="source", required=True, choices=["iss", "cfrkit"], help="the input's format")
    c.add_argument("input", type=cli_args.in_file, metavar="FILE", help="the file to convert")
    c.add_argument("--out", required=True, type=cli_args.out_file, help="the file to write")
    c.add_argument("--force", action="store_true", help="replace --out if it exists")
    c.add_argument("--filter", default=None, metavar="SPEC", help="keep some records only (iss; see docs/iss.md)")
    c.add_argument("--threads", type=cli_args.threads, default=0, help="threads (default: all cores)")
    c.add_argument("--json", action="store_true", help="print the counts as one JSON object on the last line")
    s = sub.add_parser("stats", help="statistics of a file of ISS records")
    s.add_argument("input", type=cli_args.in_file, metavar="FILE", help="ISS records (plain or .bz2)")
    s.add_argument("--filter", default=None, metavar="SPEC", help="keep some records only (see docs/iss.md)")
    s.add_argument("--threads", type=cli_args.threads, default=0, help="threads (default: all cores)")
    s.add_argument("--json", action="store_true", help="print the statistics as one JSON object")
    return p


def _refuse_existing(path: str, force: bool) -> None:
    if os.path.exists(path) and not force:
        raise InvalidArgumentError(f"--out {path} exists; pass --force to replace it")


def _rejected_line(path: str, line: int, id_: str, reason: str) -> str:
    return f"{path} line {line} (id {id_}): {reason}; skipped"


def _convert(a) -> int:
    from .skat.records import iss_to_log, log_to_iss

    _refuse_existing(a.out, a.force)
    if os.path.abspath(a.out) == os.path.abspath(a.input):
        raise InvalidArgumentError(f"--out {a.out} is the input file")
    start = time.perf_counter()
    if a.source == "cfrkit":
        if a.filter:
            raise InvalidArgumentError("--filter applies to --from iss only")
        n = log_to_iss(a.input, a.out)
        record = {"written": n, "out": a.out, "seconds": round(time.perf_counter() - start, 3)}
        cli_args.report(a.json, record, lambda: f"{n} games written as ISS records to {a.out}")
        return 0

    # Rejected lines are named once the file has shown a record that replays; a file with none
    # (of another kind, or empty) is one error line.
    held: list = []

    def on_batch(rejected, counts):
        held.extend(rejected)
        if counts["games"] > 0:
            for line, id_, reason in held:
                print(_rejected_line(a.input, line, id_, reason), file=sys.stderr)
            held.clear()

    c = iss_to_log(a.input, a.out, a.threads, a.filter, on_batch)
    seconds = time.perf_counter() - start
    if c["written"] == 0:
        os.remove(a.out)
        raise InvalidArgumentError(_nothing(a.input, c, held, a.filter) + "; nothing written")
    record = dict(c, out=a.out, seconds=round(seconds, 3))
    cli_args.report(
        a.json,
        record,
        lambda: f"{c['games']:,} records replayed and checked, {c['rejected']:,} rejected, {c['written']:,} written "
        f"to {a.out} ({seconds:.1f} s, {c['games'] / max(seconds, 1e-9):,.0f} records/s)",
    )
    return 0


def _nothing(path: str, counts: dict, rejected: list, spec) -> str:
    """Why a file gave no game: no record replays (the first reason), or the filter kept none."""
    if counts["games"] == 0:
        first = f"; line {rejected[0][0]}: {rejected[0][2]}" if rejected else ""
        return f"{path} holds no ISS record that replays ({counts['rejected']:,} lines rejected{first})"
    return f"no record of {path} passes the filter {spec!r} ({counts['games']:,} replayed)"


def _table(stats: dict) -> str:
    out = [
        f"{stats['games']:,} games: {stats['declared']:,} declared, {stats['passed']:,} passed in "
        f"({100 * stats['passed_share']:.1f}%), {stats['penalty']:,} ended before a contract",
    ]
    for title, key in (("game", "by_game"), ("kind", "by_modifier")):
        out.append(f"{title:<24}{'games':>9}{'share':>8}{'won':>8}{'points':>8}")
        for k, v in stats[key].items():
            out.append(
                f"{k:<24}{v['games']:>9,}{100 * v['share']:>7.1f}%{100 * v['declarer_wins']:>7.1f}%"
                f"{v['mean_points']:>8.1f}"
            )
    out.append("ended: " + ", ".join(f"{k} {v:,}" for k, v in stats["ends"].items()))
    bids = sorted(((int(k), v) for k, v in stats["bids"].items()), key=lambda kv: -kv[1])[:8]
    out.append("most frequent bids: " + ", ".join(f"{k} ({v:,})" for k, v in bids))
    return "\n".join(out)


def _stats(a) -> int:
    from .skat.records import iss_stats

    text, counts, rejected = iss_stats(a.input, a.threads, a.filter)
    stats = json.loads(text)
    if stats["games"] == 0:
        raise InvalidArgumentError(_nothing(a.input, counts, rejected, a.filter))
    for line, id_, reason in rejected:
        print(_rejected_line(a.input, line, id_, reason), file=sys.stderr)
    stats["rejected"] = counts["rejected"]
    cli_args.report(a.json, stats, lambda: _table(stats))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``cfrkit logs`` with ``argv``; returns the exit status."""

    def command() -> int:
        a = _parser().parse_args(cli_args.argv_or_sys(argv))
        return _convert(a) if a.command == "convert" else _stats(a)

    return cli_args.run("cfrkit logs", command)


if __name__ == "__main__":
    sys.exit(main())

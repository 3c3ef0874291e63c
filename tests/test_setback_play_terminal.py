"""``cfrkit setback play`` driven through a pseudo-terminal: a whole game to 11, with bad input
rejected (with a reason) and asked again."""

import os
import re
import select
import subprocess
import sys
import time

import pytest

PROMPT = re.compile(r"Your (bid|card) \(([^)]*)\): $")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_person_plays_a_whole_game_in_the_terminal():
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cfrkit.setback", "play", "--bots", "rules", "--seed", "7"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    out = ""
    seen = 0  # output up to here has been answered
    sent_bad_bid = sent_bad_card = False
    bids = cards = 0
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(master, 65536).decode()
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk.replace("\r\n", "\n")
            m = PROMPT.search(out[seen:])
            if not m:
                if proc.poll() is not None and not ready:
                    break
                continue
            seen = len(out)
            kind, legal = m.group(1), m.group(2).replace(",", " ").split()
            if kind == "bid":
                if not sent_bad_bid:
                    answer, sent_bad_bid = "banana", True
                else:
                    answer, bids = "pass", bids + 1
            else:
                if not sent_bad_card:
                    answer, sent_bad_card = next(c for c in ("2C", "3D", "4H", "5S", "6C") if c not in legal), True
                else:
                    answer, cards = legal[0], cards + 1
            os.write(master, (answer + "\n").encode())
        assert proc.wait(timeout=30) == 0, out[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert "Not a bid: 'banana'" in out
    assert "Illegal card: invalid value for card" in out and "(one of " in out
    assert "Your hand:" in out and "bids" in out and "Trump is" in out and "takes it." in out
    assert "Deal score: North-South" in out
    final = re.search(r"Game over: (\S+) win, North-South (-?\d+) to West-East (-?\d+)\.", out)
    assert final, out[-3000:]
    ns, we = int(final.group(2)), int(final.group(3))
    assert max(ns, we) >= 11 and ns != we
    assert (final.group(1) == "North-South") == (ns > we)
    assert bids > 0 and cards > 0

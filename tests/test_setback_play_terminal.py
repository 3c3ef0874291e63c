"""``cfrkit setback play`` driven through a pseudo-terminal: a whole game to 11, with bad input
rejected (with a reason) and asked again; scripted games: card numbers, the reasons for illegal
cards and bids, the points of each deal by team."""

import functools
import os
import re
import select
import subprocess
import sys
import time

import pytest
from conftest import scripted_play

PROMPT = re.compile(r"Your (bid|card) \[([^\]]*)\]: $")


def menu(text: str) -> list[str]:
    """The entries of a menu: ``pass, 3, 4`` or ``1) KC  2) 6H``."""
    return [e for e in re.split(r"[ ,]+", text) if e and not e.endswith(")")]


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
            kind, legal = m.group(1), menu(m.group(2))
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
    assert "rejected: not a bid: 'banana'; type pass, 2, 3 or 4" in out
    assert "rejected: you do not hold " in out
    assert "Your hand:" in out and "bids" in out and "Trump is" in out and "takes it." in out
    assert "Deal score: North-South" in out
    final = re.search(r"Game over: (\S+) win, North-South (-?\d+) to West-East (-?\d+)\.", out)
    assert final, out[-3000:]
    ns, we = int(final.group(2)), int(final.group(3))
    assert max(ns, we) >= 11 and ns != we
    assert (final.group(1) == "North-South") == (ns > we)
    assert bids > 0 and cards > 0


def play_scripted(answer, seed: int = 7) -> tuple[str, list[str]]:
    """Plays ``cfrkit setback play`` in-process, ``answer(prompt, said)`` giving each line."""
    from cfrkit.setback.play import play_terminal

    out, prompts, _ = scripted_play(functools.partial(play_terminal, "rules"), answer, 2000, seed=seed)
    return out, prompts


def test_cards_by_number_and_the_reason_for_an_illegal_card():
    """Card menus take numbers and follow the hand shown; a held card that may not be played is
    refused with the rule (must follow), every held card off the menu once."""
    tried: set[str] = set()

    def answer(prompt: str, said: str) -> str:
        if prompt.startswith("Your bid"):
            return "pass"
        hand = said.rsplit("Your hand: ", 1)[1].splitlines()[0].split()
        legal = menu(PROMPT.search(prompt).group(2))
        assert legal == [c for c in hand if c in legal], (hand, prompt)
        off = [c for c in hand if c not in legal and c not in tried]
        if off:
            tried.add(off[0])
            return off[0].lower()
        return "1"

    out, _ = play_scripted(answer)
    assert re.search(r"rejected: must follow trump \((clubs|diamonds|hearts|spades)\)", out)
    assert re.search(r"rejected: must follow (clubs|diamonds|hearts|spades) \(or play a trump\)", out)
    assert "Game over:" in out and "invalid value" not in out


def test_an_illegal_bid_is_refused_in_words_without_the_internal_0():
    def answer(prompt: str, said: str) -> str:
        if not prompt.startswith("Your bid"):
            return "1"
        return "pass" if said.rstrip().splitlines()[-1].startswith("rejected") else "2"

    out, prompts = play_scripted(answer)
    bids = [p for p in prompts if p.startswith("Your bid")]
    assert all(menu(PROMPT.search(p).group(2))[0] == "pass" and "0" not in p.split("[")[1] for p in bids)
    assert "rejected: a bid must be above the high bid of " in out and ", or pass" in out
    assert "[0" not in out and "one of" not in out


def test_each_deal_says_which_team_won_high_low_jack_and_game():
    from cfrkit.setback.play import points_text, points_won

    out, _ = play_scripted(lambda prompt, said: "pass" if prompt.startswith("Your bid") else "1")
    results = out.count("made it.") + out.count("was set back.")
    lines = [line for line in out.splitlines() if line.startswith("  Points: High ")]
    assert results > 3 and len(lines) == results, out
    shape = r"Low \w\w: (North-South|West-East); .*Game \(North-South \d+, West-East \d+\): "
    assert all(re.search(shape, line) for line in lines)
    # Spec §1.5: High to the holder's team, Low and Jack to the captors', Game on more game
    # points (T 10, A 4, K 3, Q 2, J 1), none on a tie; no Jack point when it was not dealt.
    hands = [["AH", "2D"], ["KH", "TC"], ["3H", "QS"], ["5H", "JC"]]
    tricks = [(0, ["AH", "KH", "3H", "5H"]), (3, ["2D", "TC", "QS", "JC"])]
    game = ("Game (North-South 13, West-East 7)", 1)
    assert points_won(hands, tricks, "H") == [("High AH", 0), ("Low 3H", 0), game]
    assert points_won(hands, tricks, "C") == [("High JC", 1), ("Low TC", 1), ("Jack JC", 1), game]
    hands = [["TH", "TD"], ["2C", "3C"], ["2H", "3H"], ["2S", "3S"]]
    tied = [(0, ["TH", "2C", "2H", "2S"]), (1, ["TD", "3C", "3H", "3S"])]
    assert points_won(hands, tied, "H")[-1] == ("Game (North-South 10, West-East 10)", None)
    assert "Game (North-South 10, West-East 10): nobody" in points_text(points_won(hands, tied, "H"))


def test_a_person_may_take_any_seat():
    """``seat=`` (``--seat``) seats the person anywhere, the partner across the table; the game
    ends with its winning team, the person's being ``seat % 2``; a seat off the table is refused."""
    from cfrkit.errors import InvalidArgumentError
    from cfrkit.setback.play import play_terminal

    def answer(prompt: str, said: str) -> str:
        return "pass" if prompt.startswith("Your bid") else "1"

    out, prompts, winner = scripted_play(functools.partial(play_terminal, "rules", seat=0), answer, 2000, seed=3)
    assert "You are West, partnered with East (rules); North and South are rules." in out
    assert prompts and winner in (0, 1)
    assert ("You and East win!" in out) == (winner == 0)
    with pytest.raises(InvalidArgumentError, match="invalid value for seat: 4"):
        play_terminal("rules", seat=4, read=lambda prompt: "quit")

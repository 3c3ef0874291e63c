"""What the games played in the terminal share (``cfrkit skat|schafkopf|setback play``).

A :class:`Console` shows a menu of the legal answers and reads one: the number of an entry in a
numbered menu, or a name (any case); ``?`` (or an empty line) shows the whole list again. A menu
whose entries are themselves numbers (bid values) is not numbered: the value shown is what one
types. An answer the game refuses is asked again with the reason (``rejected: must follow
trump``). ``quit`` ends the game with one line (:class:`Quit`, exit status 0 from the CLI); the
end of input (Ctrl-D) ends it with one line too (:class:`InputEnded`, a cfrkit error: exit
status 2). Ctrl-C is left to the CLI (one line, exit status 130).
"""

from __future__ import annotations

import sys
from typing import Callable, Optional, Sequence, TextIO, TypeVar

from .errors import CfrkitError, InvalidArgumentError

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help", "")
#: An unnumbered menu (bid values) longer than this shows its first entries and its last.
SHORT_MENU = 12

T = TypeVar("T")


class Quit(Exception):
    """The person typed ``quit``; the message says where the game was left."""


class InputEnded(InvalidArgumentError):
    """The input ended (Ctrl-D, or the end of a script) before the game did."""


def is_numbered(options: Sequence[str]) -> bool:
    """Whether a menu of ``options`` is numbered: not when an option is itself a number."""
    return not any(o.isdigit() for o in options)


def menu_text(options: Sequence[str], whole: bool = False) -> str:
    """The menu as shown in a prompt (``whole``: every entry, as ``?`` shows it)."""
    if is_numbered(options):
        return "  ".join(f"{i + 1}) {o}" for i, o in enumerate(options))
    if whole or len(options) <= SHORT_MENU:
        return ", ".join(options)
    return ", ".join(options[: SHORT_MENU - 2]) + f", … {options[-1]} (? lists all)"


def resolve(text: str, options: Sequence[str]) -> tuple[str, Optional[str]]:
    """``text`` with every number of a numbered menu replaced by its entry (``3 7`` names two
    cards of a discard menu); returns it and the reason when a number is not in the menu."""
    if not is_numbered(options):
        return text, None
    words = []
    for word in text.split():
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(options):
                return text, f"there is no entry {n}: type a number from 1 to {len(options)}, or a name"
            word = options[n - 1]
        words.append(word)
    return " ".join(words), None


class Console:
    """A person at the terminal: ``read(prompt)`` gives a line (``input`` by default), ``out``
    takes what is said, and ``where()`` says where the game is (``at trick 3``) when it is left."""

    def __init__(
        self,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        where: Callable[[], str] = lambda: "",
    ) -> None:
        self.read, self.out, self.where = read, out or sys.stdout, where

    def say(self, *lines: str) -> None:
        for line in lines or ("",):
            print(line, file=self.out)
        self.out.flush()

    def line(self, prompt: str) -> str:
        """A line of input, stripped; raises :class:`Quit` on ``quit`` and :class:`InputEnded`
        at the end of input."""
        try:
            text = self.read(prompt)
        except EOFError:
            self.say()  # the prompt's line ends before the one line of the CLI
            raise InputEnded(f"input ended: game abandoned {self.where()}") from None
        except KeyboardInterrupt:
            self.say()
            raise
        text = text.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit(f"game abandoned {self.where()}.")
        return text

    def choose(self, prompt: str, options: Sequence[str], act: Callable[[str], Optional[str]]) -> str:
        """Shows ``options`` after ``prompt`` and reads answers until ``act(answer)`` takes one
        (returns ``None``); a reason it returns, or the message of a cfrkit error it raises, is
        said and the question asked again. Returns the answer taken (numbers replaced)."""
        menu = menu_text(options)
        while True:
            text = self.line(f"{prompt} [{menu}]: ")
            if text.lower() in HELP_WORDS:
                self.say(f"legal: {menu_text(options, whole=True)}")
                continue
            answer, why = resolve(text, options)
            if why is None:
                try:
                    why = act(answer)
                except CfrkitError as e:
                    why = str(e)
            if why is None:
                return answer
            self.say(f"rejected: {why}")

    def play(self, game: Callable[[], T]) -> Optional[T]:
        """Runs ``game()``; when the person quits, says where the game was left and returns
        ``None``."""
        try:
            return game()
        except Quit as q:
            self.say(str(q))
            return None


def where_in(game) -> str:
    """Where a Skat or Schafkopf game is, for the line that says it was left: ``at trick 3``
    or ``in the bidding phase``."""
    return f"at trick {game.tricks_done + 1}" if game.phase == "tricks" else f"in the {game.phase} phase"


def say_tricks(console: Console, game, seen: int) -> int:
    """Says each trick of a Skat or Schafkopf game completed after the first ``seen``
    (``  trick 3: … (led by seat 1) -> seat 2``); returns how many are complete."""
    for t in range(seen, game.tricks_done):
        cards, leader, winner = " ".join(game.tricks[t]), game.trick_leaders[t], game.trick_winners[t]
        console.say(f"  trick {t + 1}: {cards} (led by seat {leader}) -> seat {winner}")
    return game.tricks_done


__all__ = ["Console", "InputEnded", "Quit", "is_numbered", "menu_text", "resolve", "say_tricks", "where_in"]

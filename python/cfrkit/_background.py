"""Native work that Ctrl-C can leave at once: a bot's decision in a terminal game may search for
seconds with the GIL released, and Python hears Ctrl-C only between bytecodes of the main thread.
The work runs on a daemon thread while the main thread waits, so Ctrl-C ends the wait at once
(the abandoned work ends with the process)."""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

T = TypeVar("T")

#: How often the waiting main thread wakes to hear signals (seconds).
WAKE_S = 0.05


def interruptible(work: Callable[[], T]) -> T:
    """``work()``, its result or its exception; ``KeyboardInterrupt`` at once on Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        return work()
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as e:  # handed to the caller as it is
            box["error"] = e

    worker = threading.Thread(target=run, name="cfrkit-decision", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(WAKE_S)
    if "error" in box:
        raise box["error"]
    return box["value"]

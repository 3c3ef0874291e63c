"""Progress of long native loops (matches, tournaments): a ``(done, total)`` callback that shows
a progress bar, calls the user's function, or does nothing."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator, Optional, Union

#: What the ``progress=`` argument of matches accepts: ``True`` for a bar, a callable getting
#: ``(games done, games in all)``, or ``False``/``None`` for nothing.
ProgressLike = Union[bool, Callable[[int, int], object], None]


@contextlib.contextmanager
def games_bar(progress: ProgressLike, desc: str) -> Iterator[Optional[Callable[[int, int], object]]]:
    """A ``(done, total)`` callback for the native loop: ``True`` shows a progress bar on stderr
    (when it is a terminal) for the ``with`` block, a callable is called as is, anything else
    gives None (no callback)."""
    if callable(progress):
        yield progress
    elif progress:
        from tqdm import tqdm

        with tqdm(unit=" games", desc=desc, disable=None, leave=False) as bar:

            def update(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            yield update
    else:
        yield None

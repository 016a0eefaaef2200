"""Progress of long work on stderr: a live bar on a terminal (tqdm), and on a pipe or a file a plain line every
few percent, so that a log holds a readable record instead of one long line of carriage returns.

>>> import io
>>> log = io.StringIO()
>>> with progress_bar(40, desc="games", stream=log) as bar:
...     for _ in range(40):
...         bar.update(1)
>>> log.getvalue().splitlines()[:2], log.getvalue().splitlines()[-1]
(['games: 2/40 (5%)', 'games: 4/40 (10%)'], 'games: 40/40 (100%)')
"""

from __future__ import annotations

import math
import sys
from typing import IO, Any, Protocol

__all__ = ["LineProgress", "Progress", "progress_bar"]

LINE_STEP = 0.05
"""A line on a pipe or file each time this share more of the work is done."""


class Progress(Protocol):
    """What a progress display offers: tqdm's bar and :class:`LineProgress` alike."""

    def update(self, n: int = 1) -> Any: ...

    def set_postfix_str(self, text: str) -> Any: ...

    def clear(self) -> Any: ...

    def refresh(self) -> Any: ...

    def close(self) -> Any: ...


class LineProgress:
    """Progress as lines (``games: 35/140 (25%), LOS 0.973``): one each :data:`LINE_STEP` of the work, and one
    at the end; nothing when ``enabled`` is false."""

    def __init__(self, total: int, *, desc: str, stream: IO[str], initial: int = 0, enabled: bool = True) -> None:
        self.total = max(0, total)
        self.desc = desc
        self.stream = stream
        self.n = initial
        self.enabled = enabled and total > 0
        self.postfix = ""
        self._next = self._threshold_after(initial)

    def _threshold_after(self, done: int) -> int:
        steps = math.floor(done / self.total / LINE_STEP + 1e-9) + 1 if self.total else 1
        return min(self.total, math.ceil(steps * LINE_STEP * self.total - 1e-9))

    def update(self, n: int = 1) -> None:
        self.n += n
        if self.enabled and self.n >= self._next:
            percent = 100 * self.n / self.total
            extra = f", {self.postfix}" if self.postfix else ""
            print(f"{self.desc}: {self.n}/{self.total} ({percent:.0f}%){extra}", file=self.stream, flush=True)
            self._next = self._threshold_after(self.n) if self.n < self.total else self.total + 1

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def clear(self) -> None:
        """(A line display has nothing on screen to clear before other output.)"""

    def refresh(self) -> None:
        """(Nor anything to draw again.)"""

    def close(self) -> None:
        """(Nor anything to take away.)"""

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def progress_bar(total: int, *, desc: str, unit: str = "game", initial: int = 0, enabled: bool = True,
                 stream: IO[str] | None = None) -> Any:
    """A live tqdm bar when ``stream`` (stderr) is a terminal, else a :class:`LineProgress`; silent when not
    ``enabled`` (``--quiet``).  Either is a context manager with ``update``, ``set_postfix_str``, ``clear`` and
    ``refresh``."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if enabled and isatty is not None and isatty():
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, unit=unit, desc=desc, file=stream, dynamic_ncols=True, leave=False)
    return LineProgress(total, desc=desc, stream=stream, initial=initial, enabled=enabled)

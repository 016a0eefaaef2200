"""Log lines for repeated errors, rate-limited: a flood of one error writes one line per interval, with a count.

A server under attack can be made to fail the same way thousands of times a second (asyncio's accept loop logs
every ``Too many open files``, uvicorn every malformed request); written out whole, each with its traceback,
those failures fill the disk.  :class:`RepeatFilter` lets the first occurrence of an error through, drops the
ones that follow for :data:`INTERVAL` seconds, then lets one through without its traceback and with the count of
those dropped; :func:`limit_repeats` installs one filter on the loggers that matter and on their handlers.

Two records are "the same error" when they come from the same logger, at the same level, from the same line of
code, with the same exception type: the message's text is not compared, since it often carries a detail that
changes each time (a peer's address, a file descriptor's number).  Records below WARNING pass untouched.

>>> import io
>>> clock = iter([0.0, 1.0, 2.0, 12.0]).__next__
>>> stream = io.StringIO()
>>> log = logging.getLogger("mjarena.logs.example")
>>> handler = logging.StreamHandler(stream)
>>> log.addHandler(handler)
>>> log.propagate = False
>>> log.addFilter(RepeatFilter(clock=clock))
>>> for _ in range(4):
...     log.error("accept failed: %s", "Too many open files")
>>> print(stream.getvalue(), end="")
accept failed: Too many open files
accept failed: Too many open files (repeated 2 times in the last 12 s)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

__all__ = ["INTERVAL", "LOGGERS", "RepeatFilter", "limit_repeats"]

INTERVAL = 10.0
"""Seconds between two lines of one repeated error."""
LOGGERS = ("", "asyncio", "uvicorn", "uvicorn.error", "mjarena.contest")
"""The loggers :func:`limit_repeats` filters by default (``""`` is the root logger)."""
_VERDICT = "_mjarena_repeat_verdict"
"""The record attribute holding a filter's verdict, so that a record filtered at its logger and again at a
handler is counted once."""

Key = tuple[str, int, str, int, str]


class RepeatFilter(logging.Filter):
    """Lets the first record of each error through, then at most one every ``interval`` seconds with a count.

    The line let through after a silence carries no traceback when it stands for records that were dropped (the
    first one showed it); records below ``level`` always pass.
    """

    def __init__(self, interval: float = INTERVAL, *, level: int = logging.WARNING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.level = level
        self.clock = clock
        self._lock = threading.Lock()
        self._last: dict[Key, float] = {}  # when each error's last line was let through
        self._dropped: dict[Key, int] = {}  # how many records of each error were dropped since

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written (it may be shortened and given a count)."""
        if record.levelno < self.level:
            return True
        verdict = getattr(record, _VERDICT, None)
        if verdict is None:
            verdict = self._judge(record)
            setattr(record, _VERDICT, verdict)
        return verdict

    def _judge(self, record: logging.LogRecord) -> bool:
        key = _key(record)
        now = self.clock()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.interval:
                self._dropped[key] = self._dropped.get(key, 0) + 1
                return False
            self._last[key] = now
            dropped = self._dropped.pop(key, 0)
        if dropped and last is not None:
            _summarise(record, dropped, now - last)
        return True


def _key(record: logging.LogRecord) -> Key:
    """Logger, level, line of code and exception type: what makes two records the same error."""
    error = record.exc_info[0] if record.exc_info else None
    return record.name, record.levelno, record.pathname, record.lineno, error.__name__ if error else ""


def _summarise(record: logging.LogRecord, dropped: int, seconds: float) -> None:
    """Turn ``record`` into one line standing for itself and the ``dropped`` records before it."""
    record.msg = f"{record.getMessage()} (repeated {dropped:,} times in the last {seconds:.0f} s)"
    record.args = None
    record.exc_info = None
    record.exc_text = None
    record.stack_info = None


def limit_repeats(names: Iterable[str] = LOGGERS, *, interval: float = INTERVAL) -> RepeatFilter:
    """Install one :class:`RepeatFilter` on the loggers ``names`` and on each of their handlers (a handler also
    sees the records its logger's children pass up, which the logger's own filters never see); returns it."""
    repeat = RepeatFilter(interval)
    for name in names:
        logger = logging.getLogger(name)
        _add_once(logger, repeat)
        for handler in logger.handlers:
            _add_once(handler, repeat)
    if logging.lastResort is not None:
        _add_once(logging.lastResort, repeat)  # where a logger with no handler anywhere writes
    return repeat


def _add_once(target: logging.Filterer, repeat: RepeatFilter) -> None:
    """Add ``repeat`` to ``target`` unless a :class:`RepeatFilter` is there already (a second serve in one
    process, as in tests)."""
    if not any(isinstance(existing, RepeatFilter) for existing in target.filters):
        target.addFilter(repeat)

"""The free-disk watch: the contest pauses itself before its disk fills, and says why.

Every game adds its replay to ``contest.db`` (at most :func:`mjarena.contest.replay_budget.game_bound` each),
every upload its source and build.  A full disk would stop the contest in the middle of a write.  So while the
server runs, :class:`DiskWatch` looks at the free space of the contest's file system every few seconds; below
``min_free`` bytes it pauses the window (as the console's *Pause* does: running games finish, no game starts)
and leaves a notice that the standings page, ``/api/standings`` and the console show.  The organiser makes room
and presses *Resume*; the watch pauses again if there still is not enough.

>>> import tempfile, pathlib
>>> from mjarena.contest.model import Contest, Settings
>>> contest, _ = Contest.create(pathlib.Path(tempfile.mkdtemp()) / "c", ["red"], Settings(start=0.0))
>>> watch = DiskWatch(contest, min_free=1 << 30, free=lambda path: 100 << 20)
>>> watch.check(now=10.0) is not None, contest.state(now=11.0), disk_notice(contest)[:38]
(True, 'paused', 'Paused: the disk has 100 MiB free, les')
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from mjarena.contest.model import Contest

__all__ = ["CHECK_SECONDS", "MIN_FREE_MIB", "DiskWatch", "disk_notice"]

log = logging.getLogger("mjarena.contest")
MIN_FREE_MIB = 1024
"""The free space below which the contest pauses (``mjarena contest serve --min-free-mib``)."""
CHECK_SECONDS = 5.0
_META = "disk_pause"


def _free(path: Path) -> int:
    return shutil.disk_usage(path).free


def disk_notice(contest: Contest) -> str | None:
    """Why the contest is paused, when the watch paused it (and it has not been resumed since)."""
    found = contest.db.meta(_META)
    since = contest.paused_since()
    if not isinstance(found, dict) or since is None or found.get("at") != since:
        return None
    return str(found.get("message", ""))


class DiskWatch:
    """Pauses ``contest`` when its folder's file system has less than ``min_free`` bytes free (``free(path)``:
    the free bytes, :func:`shutil.disk_usage` by default), checked every ``every`` seconds by :meth:`start`'s
    thread."""

    def __init__(self, contest: Contest, *, min_free: int = MIN_FREE_MIB << 20, every: float = CHECK_SECONDS,
                 free: Callable[[Path], int] = _free, clock: Callable[[], float] = time.time) -> None:
        self.contest = contest
        self.min_free = min_free
        self.every = every
        self.free = free
        self.clock = clock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="contest-disk-watch", daemon=True)

    def check(self, now: float | None = None) -> str | None:
        """Pause the contest if the disk is short (and it runs); the notice when it did."""
        now = self.clock() if now is None else now
        free = self.free(self.contest.root)
        if free >= self.min_free or self.contest.state(now) != "running":
            return None
        message = (f"Paused: the disk has {free >> 20} MiB free, less than the {self.min_free >> 20} MiB the "
                   "contest keeps free. Running games finish; no game starts until the organiser makes room and "
                   "resumes the contest in the console.")
        if not self.contest.pause(now, f"the disk watch: {free >> 20} MiB free"):
            return None
        with self.contest.db.transaction() as tx:
            tx.set_meta(_META, {"at": now, "message": message})
        log.warning("%s", message)
        return message

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while True:
            try:
                self.check()
            except Exception:  # the watch must not die of one failed look
                log.exception("the free-disk watch failed")
            if self._stop.wait(self.every):
                return

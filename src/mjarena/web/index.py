"""The index of the replays a server shows: read once, then kept up to date by folder, never by reading every
file again.

``/`` read every file under the folder on every request (a walk, a ``stat`` and a ``resolve`` of each): at 2,000
games every ``/`` took 0.67 to 1.25 s, at 10,000 none answered in 120 s.  :class:`Index` lists each folder once
and summarizes each file once; after that a request costs one ``stat`` per folder: a folder whose time changed
(a file added, removed or replaced: replays are written by renaming, which changes their folder's time) is
listed again, and only its new or changed files are read.  The server's own writes (uploads, games played on
the page) are added as they are made (:meth:`Index.add`, :meth:`Index.remove`).  The order (by folder, the
root's first, newest first in each) is kept until something changes; a page of it is a slice.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> (root / "a.json").write_text("{}")
2
>>> index = Index(root, lambda path: {"name": path.name, "modified": 1.0})
>>> index.page(1, 10)
([{'name': 'a.json', 'modified': 1.0}], 1)
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["SKIPPED", "Index"]

SKIPPED = frozenset({"tournament.json", "standings.json"})

RACY_NS = 100_000_000
"""A folder whose time is this close to the moment it was listed (0.1 s: far more than the kernel's coarse clock,
a jiffy, by which file times move) may change again without its time changing; it is listed again at the next
refresh rather than trusted (as git treats an index entry as racy when it is as new as the index)."""
"""Files of a tournament's folder that are not replays."""

Summary = dict[str, Any]


def _trusted(stamp: int) -> int:
    """A folder's time as the index keeps it: ``stamp``, or -1 (list it again at the next refresh) when it is as
    new as now (:data:`RACY_NS`): a file created in the same tick would leave it unchanged."""
    return stamp if time.time_ns() - stamp >= RACY_NS else -1


class Index:
    """The replays under ``root`` (``*.json`` files, hidden folders and files skipped, links only to files under
    the root), each summarized once by ``summarize(path)`` (None: not a replay) and kept by folder."""

    def __init__(self, root: Path, summarize: Callable[[Path], Summary | None]) -> None:
        self.root = root
        self.summarize = summarize
        self._lock = threading.RLock()
        self._listed: dict[Path, int] = {}  # folder -> its st_mtime_ns when last listed
        self._folders: dict[Path, set[Path]] = {}  # folder -> its subfolders
        self._files: dict[Path, dict[Path, tuple[tuple[int, int], Summary | None]]] = {}  # folder -> file -> ...
        self._tournaments: dict[Path, bool] = {}  # folder -> whether it holds a tournament.json
        self._order: list[Summary] | None = None

    # -- keeping it up to date ----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """List again every folder whose time changed since it was listed (one ``stat`` per folder)."""
        with self._lock:
            if not self._listed:
                self._list(self.root)
                return
            for folder in list(self._listed):
                if folder not in self._listed:
                    continue  # dropped with its parent just now
                try:
                    stamp = os.stat(folder).st_mtime_ns
                except OSError:
                    self._drop(folder)
                    continue
                if stamp != self._listed[folder]:
                    self._list(folder)

    def _list(self, folder: Path) -> None:
        """(Re)list ``folder``: its new and changed files summarized, its gone ones dropped, new subfolders listed."""
        try:
            stamp = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except OSError:
            self._drop(folder)
            return
        self._listed[folder] = _trusted(stamp)
        old_files = self._files.get(folder, {})
        files: dict[Path, tuple[tuple[int, int], Summary | None]] = {}
        subfolders: set[Path] = set()
        self._tournaments[folder] = False
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    subfolders.add(path)
                    continue
                if entry.name == "tournament.json":
                    self._tournaments[folder] = True
                if not entry.name.endswith(".json") or entry.name in SKIPPED:
                    continue
                stat = entry.stat()  # a link: its target's
                if entry.is_symlink() and not path.resolve().is_relative_to(self.root):
                    continue
            except OSError:
                continue
            key = (stat.st_mtime_ns, stat.st_size)
            known = old_files.get(path)
            files[path] = known if known is not None and known[0] == key else (key, self.summarize(path))
        self._files[folder] = files
        for gone in self._folders.get(folder, set()) - subfolders:
            self._drop(gone)
        for new in subfolders - set(self._folders.get(folder, set())):
            self._list(new)
        self._folders[folder] = subfolders
        self._order = None

    def _drop(self, folder: Path) -> None:
        for sub in self._folders.pop(folder, set()):
            self._drop(sub)
        self._listed.pop(folder, None)
        self._files.pop(folder, None)
        self._tournaments.pop(folder, None)
        self._order = None

    def add(self, path: Path, summary: Summary) -> None:
        """A replay the server wrote (its folder's listing stands: the next :meth:`refresh` does not read it)."""
        with self._lock:
            stat = path.stat()
            folder = path.parent
            if folder not in self._listed:
                self.refresh()
                if folder not in self._listed:
                    self._list(folder)
                    parent = self._folders.setdefault(folder.parent, set())
                    parent.add(folder)
            self._files.setdefault(folder, {})[path] = ((stat.st_mtime_ns, stat.st_size), summary)
            self._listed[folder] = _trusted(os.stat(folder).st_mtime_ns)
            self._order = None

    def remove(self, path: Path) -> None:
        """A replay the server removed."""
        with self._lock:
            if self._files.get(path.parent, {}).pop(path, None) is not None:
                self._order = None
            if path.parent in self._listed:
                with contextlib.suppress(OSError):
                    self._listed[path.parent] = _trusted(os.stat(path.parent).st_mtime_ns)

    # -- reading it -----------------------------------------------------------------------------------------

    def replays(self) -> list[Summary]:
        """Every replay's summary, by folder (the root's first), newest first in each (kept until a change)."""
        with self._lock:
            self.refresh()
            if self._order is None:
                found = [summary for files in self._files.values() for _, summary in files.values()
                         if summary is not None]
                found.sort(key=lambda s: (s["name"].count("/") > 0, s["name"].rpartition("/")[0], -s["modified"],
                                          s["name"]))
                self._order = found
            return self._order

    def page(self, number: int, size: int) -> tuple[list[Summary], int]:
        """Page ``number`` (from 1) of :meth:`replays`, ``size`` a page, and how many there are in all."""
        found = self.replays()
        return found[(number - 1) * size: number * size], len(found)

    def tournament_folders(self) -> list[Path]:
        """The folders holding a ``tournament.json`` (as last listed), in order."""
        with self._lock:
            self.refresh()
            return sorted(folder for folder, holds in self._tournaments.items() if holds)

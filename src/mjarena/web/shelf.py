"""A folder the server writes to (``uploads/``, ``played/``) within a quota of bytes and files, and a share of it
for each client.

``played/`` grew about 20 KiB a finished game with no bound (one client: 36 to 143 MiB an hour), and three
addresses filled the 256 MiB of ``uploads/`` in under a minute, after which everyone's upload got 413.  A
:class:`Shelf` knows its files, oldest first, with their sizes and (for the files written since the server
started) the client that wrote each.  :meth:`Shelf.make_room` either refuses a new file (413: the uploads) or makes
room for it by removing the oldest (the games played: a record of play, not a library): first the client's own
oldest beyond its share, then the oldest of all.

>>> import tempfile, pathlib
>>> shelf = Shelf(pathlib.Path(tempfile.mkdtemp()), total=100, files=10, share=0.7, evict=True)
>>> for name in "abc":
...     path = shelf.folder / name
...     _ = path.write_bytes(b"x" * 30)
...     shelf.make_room(30, "10.0.0.1"); shelf.add(path, 30, "10.0.0.1")
[]
[]
['a']
>>> shelf.used("10.0.0.1"), shelf.used()
(60, 60)
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import OrderedDict
from pathlib import Path

__all__ = ["QuotaError", "Shelf"]


class QuotaError(ValueError):
    """A file the shelf has no room for (413) or that comes too soon after the client's last (429)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Shelf:
    """The ``*.json`` files of ``folder``: at most ``total`` bytes and ``files`` files, each client (an IPv4
    address, an IPv6 /64) at most ``share`` of both; ``evict``: make room by removing the oldest files (else
    refuse).  Files there before the server started belong to no client (they count in the total only)."""

    def __init__(self, folder: Path, *, total: int, files: int, share: float, evict: bool,
                 what: str = "files") -> None:
        self.folder, self.what = folder, what
        self.total, self.files, self.share, self.evict = total, files, share, evict
        self._held: OrderedDict[Path, tuple[int, str]] = OrderedDict()  # oldest first: size, client
        self._lock = threading.Lock()
        self._scan()

    def _scan(self) -> None:
        """What the folder holds (read once, at start), oldest first."""
        try:
            entries = [entry for entry in os.scandir(self.folder)
                       if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False)]
            found = sorted((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path,
                            entry.stat(follow_symlinks=False).st_size) for entry in entries)
        except OSError:
            return
        for _, path, size in found:
            self._held[Path(path)] = (size, "")

    def __contains__(self, path: Path) -> bool:
        return path in self._held

    def used(self, client: str | None = None) -> int:
        """Bytes held, in all or by ``client``."""
        with self._lock:
            return sum(size for size, who in self._held.values() if client is None or who == client)

    def count(self, client: str | None = None) -> int:
        """Files held, in all or by ``client``."""
        with self._lock:
            return sum(1 for _, who in self._held.values() if client is None or who == client)

    def client_limits(self) -> tuple[int, int]:
        """(bytes, files) one client may hold."""
        return max(1, int(self.total * self.share)), max(1, int(self.files * self.share))

    def make_room(self, size: int, client: str) -> list[str]:
        """Room for a file of ``size`` bytes from ``client``: the names of the files removed for it (``evict``),
        or :class:`QuotaError` 413 saying which bound it passes."""
        most_bytes, most_files = self.client_limits()
        with self._lock:
            mine = [(path, held) for path, (held, who) in self._held.items() if who == client]
            mine_bytes = sum(held for _, held in mine)
            if not self.evict:
                used = sum(held for held, _ in self._held.values())
                if len(self._held) >= self.files:
                    raise QuotaError(413, f"the server keeps at most {self.files} {self.what}, and has no room "
                                          "for more")
                if used + size > self.total:
                    raise QuotaError(413, f"the server keeps at most {self.total >> 20} MiB of {self.what}, and "
                                          f"has {max(0, self.total - used) >> 10} KiB left")
                if mine_bytes + size > most_bytes or len(mine) + 1 > most_files:
                    raise QuotaError(413, f"your address holds {mine_bytes >> 10} KiB in {len(mine)} {self.what}: "
                                          f"its share of the server's room is {most_bytes >> 10} KiB and "
                                          f"{most_files} {self.what} (the rest is the other visitors')")
                return []
            victims: list[Path] = []
            for path, held in mine:  # the client's own oldest, beyond its share
                if mine_bytes + size <= most_bytes and len(mine) - len(victims) + 1 <= most_files:
                    break
                victims.append(path)
                mine_bytes -= held
            used = sum(held for held, _ in self._held.values()) - sum(self._held[path][0] for path in victims)
            count = len(self._held) - len(victims)
            for path, (held, _) in self._held.items():  # then the oldest of all
                if used + size <= self.total and count + 1 <= self.files:
                    break
                if path not in victims:
                    victims.append(path)
                    used, count = used - held, count - 1
            for path in victims:
                del self._held[path]
        for path in victims:
            with contextlib.suppress(OSError):
                path.unlink()
        return [path.name for path in victims]

    def add(self, path: Path, size: int, client: str) -> None:
        """Count ``path`` (just written, the newest) for ``client``."""
        with self._lock:
            self._held.pop(path, None)
            self._held[path] = (size, client)

"""The live view of a game played on a cluster's node: the node's worker hands each batch of live lines
(:class:`~mjarena.contest.live_file.LiveWriter`, the same bytes a worker on this machine writes) to a relay on the
server's machine, which appends them to the game's live file there (no file system is shared with the nodes).

The relay (:class:`LiveRelay`) is a Ray actor the judge makes on its own node
(:meth:`mjarena.arena.ray_executor.RayExecutor.actor_here`) at its first game on the cluster; it ends with the
judge.  A node's worker calls it without waiting for an answer (:class:`RelaySink`: one actor call a batch, at
most every :data:`~mjarena.contest.live_file.FLUSH_SECONDS`), so a game never waits for the relay, nor fails by it.

The node chooses no path: the relay builds it from the game's number (an int, checked) under the contest folder
it was made with, with the live files' rules (``live/`` ``0700``, a file ``0600``, at most
:data:`~mjarena.contest.live_file.MAX_LIVE_BYTES`: :class:`~mjarena.contest.live_file.FileSink`), and writes at
most :data:`MAX_RELAYED` games' files at once: a broken node cannot write elsewhere, nor fill the disk.  Each play
of a game has a number of the judge's (a game played again gets a new one), and a relay appends only the
newest play's lines, until the judge says that play is over (:meth:`LiveRelay.done`: its result committed, or
the judge failed it); a batch that comes later (the calls of a node and the judge's are not ordered between them)
is dropped, never making the file again.

>>> import tempfile
>>> from pathlib import Path
>>> root = Path(tempfile.mkdtemp())
>>> relay = LiveRelay(str(root))
>>> relay.append(7, 1, b'{"rules": "noi2014"}\\n'), relay.append(7, 1, b"\\n"), relay.append("../7", 1, b"\\n")
(True, True, False)
>>> relay.done(7, 1), relay.append(7, 1, b"late\\n"), (root / "live" / "7.jsonl").exists()
(None, False, False)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from mjarena.contest.live_file import MAX_LIVE_BYTES, FileSink, live_path

__all__ = ["MAX_RELAYED", "LiveRelay", "RelaySink"]

log = logging.getLogger("mjarena.contest")

MAX_RELAYED = 256
"""The most games a relay writes the live files of at once (a contest plays as many at once as its slots)."""


def _number(value: object) -> bool:
    """Whether ``value`` is a game's or a play's number: an int (not a bool), positive, within 63 bits.

    >>> [_number(value) for value in (3, 0, True, "3", 2 ** 63)]
    [True, False, False, False, False]
    """
    return type(value) is int and 0 < value < 2 ** 63


class LiveRelay:
    """The live files of the games played on a cluster's nodes, written on the server's machine (see the module
    docstring); ``root``: the contest's folder.  A Ray actor's methods run one at a time: no lock."""

    def __init__(self, root: str, limit: int = MAX_LIVE_BYTES, games: int = MAX_RELAYED) -> None:
        self.root = str(root)
        self.limit = limit
        self.games = games
        self._writing: dict[int, tuple[int, FileSink, bool]] = {}  # game -> (newest play, its file, still written)
        self._ended: dict[int, int] = {}  # game -> the last play the judge said was over

    def append(self, game_id: int, play: int, data: bytes) -> bool:
        """Append ``data`` (whole lines) to game ``game_id``'s live file for play ``play`` (a newer play starts
        the file again); whether it was written.  Refused: a bad number, data that is not bytes of whole lines,
        a play ended or older than the one written, a file past its bound (the play's file then stops there), a
        new game beyond :data:`MAX_RELAYED`."""
        if not (_number(game_id) and _number(play) and type(data) is bytes and data.endswith(b"\n")):
            log.warning("the live relay refused a batch: not a game's number, play's number and whole lines")
            return False
        writing = self._writing.get(game_id)
        if play <= self._ended.get(game_id, 0) or (writing is not None and play < writing[0]):
            return False  # (a late batch of a play that is over)
        if writing is None or play > writing[0]:
            if writing is None and len(self._writing) >= self.games:
                log.warning("the live relay refused game %d: %d games' files written already", game_id, self.games)
                return False
            if writing is not None:
                writing[1].close()
            writing = self._writing[game_id] = (play, FileSink(live_path(self.root, game_id), self.limit), True)
        _, sink, open_ = writing
        if not open_:
            return False
        try:
            sink(data)
        except OSError as error:  # past its bound, or the disk full: the file stops at its last whole batch
            log.warning("the live relay stopped game %d's live file: %s", game_id, error)
            sink.close()
            self._writing[game_id] = (play, sink, False)
            return False
        return True

    def done(self, game_id: int, play: int) -> None:
        """Play ``play`` of game ``game_id`` is over (committed, or failed by the judge): its file is closed and
        removed, and its batches that come later are dropped."""
        if not (_number(game_id) and _number(play)):
            return
        writing = self._writing.get(game_id)
        if writing is not None and writing[0] <= play:
            del self._writing[game_id]
            writing[1].close()
            writing[1].path.unlink(missing_ok=True)
        self._ended[game_id] = max(play, self._ended.get(game_id, 0))


@dataclass(frozen=True)
class RelaySink:
    """The sink of a :class:`~mjarena.contest.live_file.LiveWriter` on a node: each batch sent to the relay
    (``relay``: its Ray actor handle) for play ``play`` of game ``game_id``, without waiting; a call Ray refuses
    (the judge gone) raises :class:`OSError`, and the writer gives up."""

    relay: Any
    game_id: int
    play: int

    def __call__(self, data: bytes) -> None:
        try:
            self.relay.append.remote(self.game_id, self.play, data)
        except Exception as error:
            raise OSError(f"the live relay cannot be reached: {error}") from None


"""A game in progress as it is played, written by the worker that plays it: its live file (the pages read it:
:mod:`mjarena.contest.live`).

A worker that plays a contest game on this machine appends each turn to ``CONTEST/live/GAME.jsonl``
(:class:`LiveFile`, the judge loop's ``watch``: :func:`mjarena.arena.match.run_match`): one JSON line first, the
game's rule set, wall and players, then one line a turn, the events it made and the decisions asked in it.  The
file is the judge's alone (``live/`` is ``0700``, the file ``0600``, like the database; a bot's box shows only its
own build folder, and the file's descriptor is not inherited).  It costs the worker the file's making, the
encoding of each turn and one ``write`` at most every :data:`FLUSH_SECONDS`; the server's judge thread does
nothing a turn.  The file is removed when the game's result is committed or the judge fails it (a game played
again starts a new one), and the next ``serve`` removes what a killed server left.  A game played on a Ray node
hands the same lines, batched the same way (:class:`LiveWriter`), to a relay on the server's machine that appends
them to the same file (no file system is shared with the nodes: :mod:`mjarena.contest.live_relay`).

>>> import tempfile
>>> from mjarena.arena.match import run_match
>>> path = Path(tempfile.mkdtemp()) / "live" / "7.jsonl"
>>> writer = LiveFile(path, "noi2014", ["red v1", "house", "house", "house"])
>>> result = run_match(["builtin:greedy"] * 4, seed=7, watch=writer)
>>> writer.flush(), writer.close()
(None, None)
>>> lines = path.read_text().splitlines()
>>> sorted(json.loads(lines[0])), sum(len(json.loads(line)["events"]) for line in lines[1:]) == len(result.events)
(['players', 'rules', 'wall'], True)
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FLUSH_SECONDS", "LIVE", "MAX_LIVE_BYTES", "FileSink", "LiveFile", "LiveWriter", "clear_live", "live_path",
           "live_writer", "remove_live"]

LIVE = "live"
"""The contest folder's folder of live files."""
FLUSH_SECONDS = 0.2
"""The most a turn played waits to be written while the next ones are played (a bot's own answer aside)."""
MAX_LIVE_BYTES = 4 << 20
"""The most a live file holds, and the most of one a page reads (a whole game's is some 40 KB)."""
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def live_path(root: str | Path, game_id: int) -> Path:
    """Where game ``game_id``'s live file is.

    >>> live_path("/c", 12).as_posix()
    '/c/live/12.jsonl'
    """
    return Path(root) / LIVE / f"{game_id}.jsonl"


def remove_live(root: str | Path, game_id: int) -> None:
    """Remove game ``game_id``'s live file, if any (its result is committed, or the judge failed it)."""
    with contextlib.suppress(OSError):
        live_path(root, game_id).unlink()


def clear_live(root: str | Path) -> None:
    """Remove every live file (a server starting: the games left running are played again from their start)."""
    shutil.rmtree(Path(root) / LIVE, ignore_errors=True)


class FileSink:
    """The bytes of one live file, appended as they come: the file is made at the first write (``live/`` ``0700``,
    the file ``0600``, emptied if a play before left one; its descriptor not inherited), and holds at most
    ``limit`` bytes (a write past that raises :class:`OSError`: a broken writer cannot fill the disk).

    >>> import tempfile
    >>> sink = FileSink(Path(tempfile.mkdtemp()) / "live" / "3.jsonl", limit=8)
    >>> sink(b"1234\\n"), oct(sink.path.stat().st_mode & 0o777), oct(sink.path.parent.stat().st_mode & 0o777)
    (None, '0o600', '0o700')
    >>> sink(b"5678\\n")
    Traceback (most recent call last):
    OSError: [Errno 27] the live file would pass its bound of 8 bytes
    """

    def __init__(self, path: str | Path, limit: int = MAX_LIVE_BYTES) -> None:
        self.path = Path(path)
        self.limit = limit
        self.written = 0
        self._fd: int | None = None

    def __call__(self, data: bytes) -> None:
        if self.written + len(data) > self.limit:
            raise OSError(errno.EFBIG, f"the live file would pass its bound of {self.limit} bytes")
        if self._fd is None:
            os.makedirs(self.path.parent, mode=0o700, exist_ok=True)
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
            self._fd = os.open(self.path, flags, 0o600)
        os.write(self._fd, data)
        self.written += len(data)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class LiveWriter:
    """One game's live lines as the judge loop plays it (its ``watch``), handed to ``sink`` (a callable given
    bytes: :class:`FileSink` on this machine, a relay to the server from a cluster's node,
    :class:`mjarena.contest.live_relay.RelaySink`): its first line and the deal at the first call, then the turns
    played, one line each, handed over together at the first call :data:`FLUSH_SECONDS` after the last (or at
    :meth:`flush`): a game's fast turns cost one hand-over between them, and a reader never waits more than that
    for a move, but for the turn being played.  Never fails the game: a sink that raises :class:`OSError` is given
    up (the live view then shows the moves handed over)."""

    def __init__(self, rules: str, players: Sequence[str], sink: Callable[[bytes], None]) -> None:
        from mjarena.formats import event_dict
        from mjarena.rulesets import judge_rules

        self.event_dict = event_dict
        self.sink = sink
        self.rules = rules
        self.players = list(players)
        self.notation = judge_rules(rules).notation
        self.events = 0
        self.decisions = 0
        """The events and decisions handed over."""
        self._head: str | None = None  # the first line, until it is handed over
        self._started = False
        self._turns: list[tuple[int, int]] = []  # the events and decisions after each turn not handed over yet
        self._game: tuple[Sequence[Any], Sequence[Mapping[str, Any]]] = ((), ())
        self._written = -float("inf")
        self._broken = False

    def __call__(self, wall: Sequence[int], events: Sequence[Any], decisions: Sequence[Mapping[str, Any]]) -> None:
        if self._broken:
            return
        if not self._started:
            from mjarena.tiles import format_tile

            self._started = True
            self._head = _ENCODE({"rules": self.rules, "wall": [format_tile(kind, self.notation) for kind in wall],
                                  "players": self.players}) + "\n"
        self._game = (events, decisions)
        self._turns.append((len(events), len(decisions)))
        if time.monotonic() - self._written >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Hand over the lines not handed over yet (nothing once the sink is given up)."""
        events, decisions = self._game
        notation, event_dict = self.notation, self.event_dict
        lines = [] if self._head is None else [self._head]
        for played, asked in self._turns:
            if played == self.events and asked == self.decisions:
                continue
            lines.append(_ENCODE({"events": [event_dict(event, notation=notation)
                                             for event in events[self.events:played]],
                                  "decisions": decisions[self.decisions:asked]}) + "\n")
            self.events, self.decisions = played, asked
        self._head = None
        self._turns.clear()
        self._written = time.monotonic()
        if lines and not self._broken:
            try:
                self.sink("".join(lines).encode())
            except OSError:  # the disk full, say: the game goes on without its live view
                self._broken = True

    def close(self) -> None:
        """Close the sink (the game is over: its last turns would be read by no one, its replay is about to be
        committed and the live file removed)."""
        close = getattr(self.sink, "close", None)
        if callable(close):
            close()


class LiveFile(LiveWriter):
    """The live file of one game, written on this machine by the worker that plays it: a :class:`LiveWriter` to a
    :class:`FileSink` at ``path``."""

    def __init__(self, path: str | Path, rules: str, players: Sequence[str]) -> None:
        super().__init__(rules, players, FileSink(path))
        self.path = Path(path)


def live_writer(live: str | Callable[[bytes], None], rules: str, players: Sequence[str]) -> LiveWriter:
    """The writer of a game's live lines to ``live``: a path on this machine (:class:`LiveFile`), or a sink (a
    relay to the server from a cluster's node: :class:`mjarena.contest.live_relay.RelaySink`)."""
    return LiveFile(live, rules, players) if isinstance(live, str) else LiveWriter(rules, players, live)

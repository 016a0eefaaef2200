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
writes nothing (no file system is shared with the nodes).

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
import json
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FLUSH_SECONDS", "LIVE", "LiveFile", "clear_live", "live_path", "remove_live"]

LIVE = "live"
"""The contest folder's folder of live files."""
FLUSH_SECONDS = 0.2
"""The most a turn played waits to be written while the next ones are played (a bot's own answer aside)."""
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


class LiveFile:
    """The live file of one game, written by the worker as the judge loop calls it (``watch``): its first line and
    the deal at the first call, then the turns played, one line each, written together at the first call
    :data:`FLUSH_SECONDS` after the last write (or at :meth:`flush`): a game's fast turns cost one ``write``
    between them, and a reader never waits more than that for a move, but for the turn being played.  Never fails
    the game: a file that cannot be made or written is given up (the live view then shows the moves written)."""

    def __init__(self, path: str | Path, rules: str, players: Sequence[str]) -> None:
        from mjarena.formats import event_dict
        from mjarena.rulesets import judge_rules

        self.event_dict = event_dict
        self.path = Path(path)
        self.rules = rules
        self.players = list(players)
        self.notation = judge_rules(rules).notation
        self.events = 0
        self.decisions = 0
        """The events and decisions written."""
        self._turns: list[tuple[int, int]] = []  # the events and decisions after each turn not written yet
        self._game: tuple[Sequence[Any], Sequence[Mapping[str, Any]]] = ((), ())
        self._written = -float("inf")
        self._fd: int | None = None
        self._broken = False

    def _open(self, wall: Sequence[int]) -> None:
        from mjarena.tiles import format_tile

        os.makedirs(self.path.parent, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(self.path, flags, 0o600)
        os.write(self._fd, (_ENCODE({"rules": self.rules, "wall": [format_tile(kind, self.notation) for kind in wall],
                                     "players": self.players}) + "\n").encode())

    def __call__(self, wall: Sequence[int], events: Sequence[Any], decisions: Sequence[Mapping[str, Any]]) -> None:
        if self._broken:
            return
        try:
            if self._fd is None:
                self._open(wall)
            self._game = (events, decisions)
            self._turns.append((len(events), len(decisions)))
            if time.monotonic() - self._written >= FLUSH_SECONDS:
                self.flush()
        except OSError:  # the disk full, say: the game goes on without its live view
            self._broken = True

    def flush(self) -> None:
        """Write the turns not written yet (:class:`OSError` as writing raised it)."""
        events, decisions = self._game
        notation, event_dict = self.notation, self.event_dict
        lines = []
        for played, asked in self._turns:
            if played == self.events and asked == self.decisions:
                continue
            lines.append(_ENCODE({"events": [event_dict(event, notation=notation)
                                             for event in events[self.events:played]],
                                  "decisions": decisions[self.decisions:asked]}) + "\n")
            self.events, self.decisions = played, asked
        self._turns.clear()
        self._written = time.monotonic()
        if lines and self._fd is not None:
            os.write(self._fd, "".join(lines).encode())

    def close(self) -> None:
        """Close the file (the game is over: its last turns would be read by no one, its replay is about to be
        committed and the file removed)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

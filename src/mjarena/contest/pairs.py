"""The console's report of pairs (:func:`mjarena.contest.export.pairs_report`), kept between requests and brought
up to date game by game.

The report reads every finished game's replay: at 200 games, some 90 ms of parsing JSON for each new result, and
the console's page asks for it as results come in.  :class:`KeptPairs` keeps each game's pair counts
(:func:`~mjarena.arena.collusion.count_pairs`: a few numbers per pair of teams at the table) under the mark of its
replay (:meth:`~mjarena.contest.db.Database.replay_mark`: it moves when the game is played again), and the
report under the results' mark (:meth:`~mjarena.contest.db.Database.results_mark`).  When the results change, only
the replays of the games finished or played again since are read; the others' counts are added up again
(:func:`~mjarena.arena.collusion.merge_counts`), which gives the same report as reading them all.

    python benchmarks/web_pages.py --games 200   # /admin/pairs after a result changed, as a ratio to a bare route
"""

from __future__ import annotations

import json
import threading
from typing import Any

from mjarena.arena.collusion import (
    CollusionError,
    PairCounts,
    count_pairs,
    game_from_replay,
    merge_counts,
    report_of_counts,
)

__all__ = ["KeptPairs"]

Counts = dict[tuple[str, str], PairCounts]


class KeptPairs:
    """The report of pairs of one contest, kept; ``read``: how many replays were read for it (a test counts the
    work with it)."""

    def __init__(self) -> None:
        self.read = 0
        self._games: dict[int, tuple[float, Counts | None]] = {}  # game id -> (its replay's mark, counts or None)
        self._mark: Any = None
        self._report: dict[str, Any] = {}
        self._lock = threading.Lock()

    def report(self, contest: Any) -> dict[str, Any]:
        """The report of ``contest``'s finished games, as :func:`mjarena.contest.export.pairs_report` makes it
        (``unreadable``: the ids of the games whose replay could not be read)."""
        db = contest.db
        with self._lock:
            mark = db.results_mark()  # read before the games: a result recorded meanwhile is read next time
            if mark == self._mark:
                return self._report
            marks = db.replay_marks()
            for gone in set(self._games) - set(marks):
                del self._games[gone]
            changed = sorted(game_id for game_id, at in marks.items() if self._games.get(game_id, (None,))[0] != at)
            for game_id in changed:
                self._games[game_id] = (marks[game_id], self._counts(db, game_id))
            ordered = [self._games[game_id][1] for game_id in sorted(self._games)]
            counted = [counts for counts in ordered if counts is not None]
            unreadable = [game_id for game_id in sorted(self._games) if self._games[game_id][1] is None]
            self._report = {**report_of_counts(merge_counts(counted), len(counted)), "unreadable": unreadable}
            self._mark = mark
            return self._report

    def _counts(self, db: Any, game_id: int) -> Counts | None:
        """One game's pair counts from its replay and its seats; None when its replay cannot be read."""
        self.read += 1
        game, replay = db.game(game_id), db.replay(game_id)
        if game is None or replay is None:
            return None
        try:
            return count_pairs([game_from_replay(json.loads(replay), [seat.team for seat in game.seats],
                                                 f"game {game_id}")])
        except (ValueError, CollusionError):
            return None

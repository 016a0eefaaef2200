"""The results file of a tournament, ``DIR/games.jsonl``: one line per finished game, read back and checked
against the tournament's schedule (:func:`read_records`, :func:`check_records`, :func:`read_tournament`), and
appended a batch at a time, each line after its replay is on disk (:class:`GroupCommit`).
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from mjarena.arena.schedules import HOUSE_PREFIX, TABLE, game_id, round_robin_schedule, table_games
from mjarena.arena.tournament_settings import Settings, TournamentError, read_settings, round_tables
from mjarena.files import complete_lines, sync_files
from mjarena.untrusted import excerpt, parse_json

__all__ = ["GROUP_SECONDS", "GroupCommit", "check_records", "has_games", "load_records", "read_records",
           "read_tournament"]


def has_games(path: Path) -> bool:
    """Whether ``games.jsonl`` at ``path`` holds anything but white space."""
    try:
        with open(path, "rb") as games:
            return any(line.strip() for line in games)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise TournamentError(f"{path}: cannot read: {error.strerror or error}") from None


_RESULT_KEYS: dict[str, tuple[type, ...]] = {
    "seat": (int,), "bot": (str,), "house": (bool,), "status": (str,), "reason": (str, type(None)),
    "rank": (int,), "points": (int, float),
}
_RECORD_KEYS: dict[str, tuple[type, ...]] = {
    "game": (str,), "round": (int,), "table": (int,), "number": (int,), "wall_seed": (int,),
    "rotation": (int, type(None)), "bots": (list,), "results": (list,),
}
_GAME_ID = re.compile(r"r(\d{3})-t(\d{3})-g(\d{3})")


def _record_problem(record: Any) -> str | None:
    """What is wrong with one parsed line of ``games.jsonl`` as a game record, or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for key, types in _RECORD_KEYS.items():
        if type(record.get(key)) not in types:
            return f"{key!r} is missing or {excerpt(json.dumps(record.get(key)), 30)}"
    match = _GAME_ID.fullmatch(record["game"])
    if match is None or tuple(map(int, match.groups())) != (record["round"], record["table"], record["number"]):
        return f"game id {excerpt(record['game'], 30)} does not match its round, table and number"
    bots = record["bots"]
    if len(bots) != TABLE or not all(type(name) is str for name in bots):
        return f"{len(bots)} bots, not {TABLE} names"
    results = record["results"]
    if len(results) != TABLE or not all(isinstance(seat, dict) for seat in results):
        return f"{len(results)} results, not one object per seat"
    for index, seat in enumerate(results):
        for key, types in _RESULT_KEYS.items():
            value = seat.get(key)
            if type(value) not in types or (type(value) is float and not math.isfinite(value)):
                return f"seat {index}: {key!r} is missing or {excerpt(json.dumps(value), 30)}"
        if seat["seat"] != index or seat["bot"] != bots[index] or seat["house"] != bots[index].startswith(HOUSE_PREFIX):
            return f"seat {index}: its seat, bot or house flag does not match \"bots\""
        if seat["status"] not in ("won", "in", "error") or not 1 <= seat["rank"] <= TABLE:
            return f"seat {index}: status {excerpt(seat['status'], 20)}, rank {seat['rank']}"
    return None


def read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The finished games in ``games.jsonl``, each with its line number, in file order.

    A last line cut short by a crash is dropped from the file (it was never acknowledged), so that the next line
    appended starts on a line of its own.  Any other line that is not a game record (not UTF-8, not JSON, a key
    missing or of the wrong type), and a game id seen before, are refused: :class:`TournamentError`
    ``"FILE:LINE: what"``; the file was changed by something else than the tournament.
    """
    try:
        lines = complete_lines(path)
    except OSError as error:
        raise TournamentError(f"{path}: cannot read: {error.strerror or error}") from None
    numbered: list[tuple[int, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for number, line in lines:
        try:
            record = parse_json(line.decode("utf-8"))
        except UnicodeDecodeError:
            raise TournamentError(f"{path}:{number}: not UTF-8 text") from None
        except ValueError as error:
            raise TournamentError(f"{path}:{number}: not a game record ({error})") from None
        problem = _record_problem(record)
        if problem is not None:
            raise TournamentError(f"{path}:{number}: not a game record: {problem}")
        first = seen.setdefault(record["game"], number)
        if first != number:
            raise TournamentError(f"{path}:{number}: game {record['game']} again (first on line {first})")
        numbered.append((number, record))
    return numbered


def load_records(path: Path) -> dict[str, dict[str, Any]]:
    """The finished games in ``games.jsonl``, by game id (see :func:`read_records`)."""
    return {record["game"]: record for _, record in read_records(path)}


def check_records(settings: Settings, numbered: Sequence[tuple[int, dict[str, Any]]], path: Path,
                  round_robin: Sequence[Sequence[tuple[str, ...]]] | None = None) -> dict[str, dict[str, Any]]:
    """The records by game id, once each is shown to be a game of this tournament's schedule: its id, seats
    (which entrant sat where), wall and rotation as the seed and the earlier rounds give them, and for Swiss,
    every game of the rounds before it present.  :class:`TournamentError` ``"FILE:LINE: what"`` otherwise."""
    by_round: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for number, record in numbered:
        if not 1 <= record["round"] <= settings.rounds:
            raise TournamentError(f"{path}:{number}: game {record['game']} of round {record['round']}; this "
                                  f"tournament has {settings.rounds} round(s)")
        by_round.setdefault(record["round"], []).append((number, record))
    if by_round and settings.format == "round-robin" and round_robin is None:
        round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
    records: dict[str, dict[str, Any]] = {}
    for round_no in sorted(by_round):
        first = by_round[round_no][0][0]
        before = (round_no - 1) * settings.tables * settings.games_at_table
        if settings.format == "swiss" and len(records) != before:
            raise TournamentError(f"{path}:{first}: a game of round {round_no}, but only {len(records)} of the "
                                  f"{before} games before it are here")
        scheduled = {
            game_id(round_no, table, game.number): game
            for table, players in enumerate(round_tables(settings, round_no, records, round_robin), 1)
            for game in table_games(players, seed=settings.draws, round_no=round_no, table=table,
                                    games_per_table=settings.games_per_table, duplicate=settings.duplicate)
        }
        for number, record in by_round[round_no]:
            game = scheduled.get(record["game"])
            if game is None:
                raise TournamentError(f"{path}:{number}: game {record['game']} is not in this tournament's schedule")
            if (tuple(record["bots"]), record["wall_seed"], record["rotation"]) != (
                game.seats, game.wall_seed, game.rotation
            ):
                raise TournamentError(
                    f"{path}:{number}: game {record['game']} has seats {', '.join(record['bots'])}; this "
                    f"tournament's schedule seats {', '.join(game.seats)} (or its wall differs)"
                )
            records[record["game"]] = record
    return records


def read_tournament(out_dir: str | Path) -> tuple[Settings, dict[str, dict[str, Any]]]:
    """The settings and finished games of the tournament in ``out_dir``, both checked
    (:func:`~mjarena.arena.tournament_settings.read_settings`, :func:`read_records`, :func:`check_records`)."""
    out_dir = Path(out_dir)
    settings = read_settings(out_dir)
    path = out_dir / "games.jsonl"
    return settings, check_records(settings, read_records(path), path)


GROUP_SECONDS = 0.5
"""How long the games put since the last commit wait for others to join them in one commit, at most (a group's
commit costs the judge about 0.2 ms of CPU, several times that on a loaded machine, whose slower games make more
groups of a given length: at 50 ms a group, 2,000 games taking 25 s under load paid for 500 of them; a crash
loses at most this much of the games played, which the next run plays again)."""


class GroupCommit:
    """Appends finished games to ``games.jsonl`` from a thread of its own, a group at a time (a group commit):
    the replays of the group not on disk yet are put there (:func:`~mjarena.files.sync_files`: one ``syncfs`` on
    Linux), then its lines are written and the file is fsync'ed once.

    One fsync per game in the main loop capped two workers at about 1.4 times one (the main process waited on
    the disk while results queued up); here the main loop hands games over and goes on.  A group is every game
    handed over within ``linger`` seconds (:data:`GROUP_SECONDS`) of the first one waiting, so the disk's cost
    is one ``syncfs`` and one fsync a group, whatever the number of games in it (each costs about 0.2 ms of CPU
    on ext4: one a game was a fifth of the judge's time).  Every game handed over is on disk when :meth:`wait`
    returns (before each round's standings: it commits at once) and when the ``with`` block ends, however it
    ends.  A line is never on disk before its replay.
    """

    def __init__(self, out: IO[str], linger: float = GROUP_SECONDS) -> None:
        self._out = out
        self._linger = linger
        self._queue: list[tuple[str, str | Path | None]] = []
        self._busy = False
        self._closed = False
        self._hurried = 0  # threads in wait(): commit at once
        self._error: BaseException | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name="mjarena-games-jsonl", daemon=True)
        self._thread.start()

    def __enter__(self) -> GroupCommit:
        return self

    def __exit__(self, *exc_info: object) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join()
        if exc_info[0] is None:
            self._raise()

    def put(self, games: Sequence[tuple[str, str | Path | None]]) -> None:
        """Commit games' lines, in this order, each after its replay (a path: that replay is put on disk first;
        None: it is there already)."""
        if not games:
            return
        with self._changed:
            self._raise()
            first = not self._queue
            self._queue.extend(games)
            if first:  # the commit thread's wait for a group starts (later games join it unannounced)
                self._changed.notify_all()

    def wait(self) -> None:
        """Return once every game put so far is written and fsync'ed; raise the error that stopped that."""
        with self._changed:
            self._hurried += 1
            self._changed.notify_all()
            try:
                while (self._queue or self._busy) and self._error is None:
                    self._changed.wait()
            finally:
                self._hurried -= 1
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _loop(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    self._changed.wait()
                deadline = time.monotonic() + self._linger
                while not self._closed and not self._hurried and (left := deadline - time.monotonic()) > 0:
                    self._changed.wait(left)  # the group gathers
                if not self._queue or self._error is not None:
                    return
                batch, self._queue, self._busy = self._queue, [], True
            try:
                self._commit(batch)
            except BaseException as error:  # handed to the main thread: put, wait and the with block raise it
                with self._changed:
                    self._error = error
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def _commit(self, batch: list[tuple[str, str | Path | None]]) -> None:
        replays = [replay for _line, replay in batch if replay is not None]
        if replays:
            sync_files(replays)
        self._out.write("".join(line for line, _replay in batch))
        self._out.flush()
        os.fsync(self._out.fileno())

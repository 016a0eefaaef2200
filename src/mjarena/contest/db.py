"""The contest's database: the connection, its transactions, every write and every query, in plain SQL.

The tables, the values their columns take and how a replay is stored are :mod:`mjarena.contest.schema`'s; the
rows the queries give back (:class:`~mjarena.contest.rows.Team`, :class:`~mjarena.contest.rows.GameRow`, ...)
are :mod:`mjarena.contest.rows`'.

SQLite (the standard library's :mod:`sqlite3`) in the contest's folder, in WAL mode so that the web server's
readers never wait for the scheduler's writes.  The SQL keeps to what PostgreSQL runs too: standard types
(``INTEGER``, ``BIGINT``, ``DOUBLE PRECISION``, ``VARCHAR``, ``TEXT``), ids chosen by the application (no
``AUTOINCREMENT``, no ``rowid``), no ``INSERT OR REPLACE`` or other SQLite-only forms; ``?`` placeholders are the
one thing a PostgreSQL driver would translate (:data:`~mjarena.contest.schema.PLACEHOLDER`).

Writes happen in :meth:`Database.transaction` (one ``BEGIN`` … ``COMMIT``), serialised inside the process by a
lock, so that a finished game is one transaction: its seats' results, its state and its replay, or nothing.

>>> import tempfile, pathlib
>>> db = Database(pathlib.Path(tempfile.mkdtemp()) / "contest.db")
>>> db.create_schema()
>>> with db.transaction() as tx:
...     tx.add_team("red", "0" * 64, now=1.0)
1
>>> [team.name for team in db.teams()]
['red']
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from mjarena.contest.db_sessions import SessionReads, SessionWrites
from mjarena.contest.rows import GameRow, JudgeErrorRow, Message, SeatRow, Submission, Team
from mjarena.contest.schema import ADDED_COLUMNS, GAME_STATES, SCHEMA, TEAM_FLAGS, pack, unpack

__all__ = ["MAX_JUDGE_ERRORS", "Database", "Transaction"]

MAX_JUDGE_ERRORS = 3
"""Judge errors after which a game is no longer played again by itself (see :meth:`Transaction.judge_error`)."""


_SUBMISSION_COLUMNS = ("s.id, s.team_id, t.name, s.version, s.language, s.filename, s.path, s.sha256, s.status, "
                       "s.message, s.created")


_NO_HOUSE = "AND NOT EXISTS (SELECT 1 FROM seats h WHERE h.game_id = g.id AND h.team_id IS NULL) "
"""SQL: game ``g`` has no house bot at its table."""

_ANSWERED = "EXISTS (SELECT 1 FROM announcements a WHERE a.question_id = q.id)"
"""SQL: whether question ``q`` has an answer."""


class Transaction(SessionWrites):
    """The writes, each inside one open transaction (see :meth:`Database.transaction`)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._c = connection

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self._c.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def create_tables(self) -> None:
        """The tables of :data:`SCHEMA` that do not exist yet."""
        for statement in SCHEMA:
            self._c.execute(statement)
        for table, column, kind in ADDED_COLUMNS:  # a database made by an older version
            present = [item[0] for item in self._c.execute(f"SELECT * FROM {table} LIMIT 0").description]
            if column not in present:
                self._c.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                if (table, column) == ("games", "node"):
                    self._fill_nodes()

    def _fill_nodes(self) -> None:
        """``games.node`` of the games finished before it existed, from their replays (once, when it is added)."""
        rows = self._c.execute("SELECT game_id, body FROM replays").fetchall()
        for game_id, body in rows:
            try:
                node = json.loads(unpack(body)).get("contest", {}).get("node")
            except (ValueError, AttributeError, zlib.error):
                node = None
            if isinstance(node, str):
                self._c.execute("UPDATE games SET node = ? WHERE id = ?", (node, game_id))

    def set_meta(self, key: str, value: Any) -> None:
        """Store ``value`` (as JSON) under ``key``."""
        text = json.dumps(value)
        if self._one("SELECT COUNT(*) FROM meta WHERE key = ?", (key,)):
            self._c.execute("UPDATE meta SET value = ? WHERE key = ?", (text, key))
        else:
            self._c.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, text))

    def add_team(self, name: str, token_hash: str, *, now: float) -> int:
        """A new team; its id."""
        team_id = self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM teams")
        self._c.execute("INSERT INTO teams (id, name, token_hash, created) VALUES (?, ?, ?, ?)",
                        (team_id, name, token_hash, now))
        return int(team_id)

    def set_token(self, team_id: int, token_hash: str) -> None:
        """A team's new token (the old one stops working, and so do its sessions)."""
        self._c.execute("UPDATE teams SET token_hash = ? WHERE id = ?", (token_hash, team_id))
        self._c.execute("DELETE FROM sessions WHERE team_id = ?", (team_id,))

    def add_submission(self, team_id: int, language: str, filename: str, path: str, sha256: str, *,
                       now: float) -> tuple[int, int]:
        """A pending submission: ``(id, version)``; versions count from 1 per team."""
        submission_id = self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM submissions")
        version = self._one("SELECT COALESCE(MAX(version), 0) + 1 FROM submissions WHERE team_id = ?", (team_id,))
        self._c.execute(
            "INSERT INTO submissions (id, team_id, version, language, filename, path, sha256, status, message, "
            "created) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', '', ?)",
            (submission_id, team_id, version, language, filename, path, sha256, now))
        return int(submission_id), int(version)

    def set_source_path(self, submission_id: int, path: str) -> None:
        self._c.execute("UPDATE submissions SET path = ? WHERE id = ?", (path, submission_id))

    def record_build(self, submission_id: int, cache_key: str, now: float) -> None:
        """Note that ``submission_id`` built into the folder ``cache_key`` of ``DIR/builds/`` at ``now`` (empty:
        nothing was cached), replacing a former note (:mod:`mjarena.contest.building` evicts by these)."""
        self._c.execute("DELETE FROM builds WHERE submission_id = ?", (submission_id,))
        self._c.execute("INSERT INTO builds (submission_id, cache_key, built) VALUES (?, ?, ?)",
                        (submission_id, cache_key, now))

    def set_verdict(self, submission_id: int, status: str, message: str) -> None:
        self._c.execute("UPDATE submissions SET status = ?, message = ? WHERE id = ?",
                        (status, message, submission_id))

    def add_round(self, number: int, now: float, tables: Sequence[Sequence[tuple[int, int, Sequence[int | None]]]],
                  pairing: dict[str, Any] | None = None) -> list[int]:
        """Round ``number`` with its games planned: ``tables[t]`` lists ``(number, wall_seed, team ids by seat)``
        (None: a house bot); ``pairing``: what its Swiss pairing was drawn from (kept as JSON, for the export).
        Game ids follow the last one; returns them."""
        self._c.execute("INSERT INTO rounds (number, started, finished) VALUES (?, ?, NULL)", (number, now))
        if pairing is not None:
            self._c.execute("INSERT INTO pairings (round, body) VALUES (?, ?)", (number, json.dumps(pairing)))
        next_id = int(self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM games"))
        ids = []
        for table_no, games in enumerate(tables, 1):
            for game_number, wall_seed, team_ids in games:
                self._c.execute(
                    "INSERT INTO games (id, round, table_no, number, wall_seed, state, started, finished) "
                    "VALUES (?, ?, ?, ?, ?, 'planned', NULL, NULL)", (next_id, number, table_no, game_number,
                                                                      wall_seed))
                for seat, team_id in enumerate(team_ids):
                    self._c.execute("INSERT INTO seats (game_id, seat, team_id) VALUES (?, ?, ?)",
                                    (next_id, seat, team_id))
                ids.append(next_id)
                next_id += 1
        return ids

    def start_game(self, game_id: int, now: float, submissions: dict[int, int]) -> None:
        """Game ``game_id`` starts with these submissions (seat -> submission id) pinned."""
        self._c.execute("UPDATE games SET state = 'running', started = ? WHERE id = ?", (now, game_id))
        for seat, submission_id in submissions.items():
            self._c.execute("UPDATE seats SET submission_id = ? WHERE game_id = ? AND seat = ?",
                            (submission_id, game_id, seat))

    def finish_game(self, game_id: int, now: float, results: Sequence[dict[str, Any]], replay: str,
                    node: str | None = None) -> bool:
        """Record a finished game once: its seats' results, its replay and the ``node`` that played it.  False
        (and nothing written) when it was finished already."""
        if self._one("SELECT state FROM games WHERE id = ?", (game_id,)) != "running":
            return False
        self._write_results(game_id, results)
        self._c.execute("DELETE FROM replays WHERE game_id = ?", (game_id,))
        self._c.execute("INSERT INTO replays (game_id, body) VALUES (?, ?)", (game_id, pack(replay)))
        self._c.execute("UPDATE games SET state = 'finished', finished = ?, node = ? WHERE id = ?",
                        (now, node, game_id))
        return True

    def play_without(self, game_id: int, seat: int) -> None:
        """A planned game's ``seat`` played by a house bot: its team (disabled) kept as the one planned there."""
        self._c.execute("UPDATE seats SET planned_team_id = team_id, team_id = NULL "
                        "WHERE game_id = ? AND seat = ? AND team_id IS NOT NULL", (game_id, seat))

    def judge_error(self, game_id: int, now: float, what: str, *, seat: int | None = None,
                    after_seat: int | None = None) -> bool:
        """Note that the judge failed game ``game_id`` (its result, if any, stands; no seat is blamed), with the
        seat whose box failed and the seat whose box ran last before it, when known (for the organiser, who
        looks for one team behind repeated errors).  A game not finished stays ``running`` with its pinned
        versions, to be played again from its start; after :data:`MAX_JUDGE_ERRORS` judge errors (since the
        organiser last released it) it is ``held`` for the organiser instead (True)."""
        entry_id = self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM judge_errors")
        self._c.execute("INSERT INTO judge_errors (id, game_id, at, what, counted) VALUES (?, ?, ?, ?, 1)",
                        (entry_id, game_id, now, what[:2000]))
        if seat is not None or after_seat is not None:
            self._c.execute("INSERT INTO judge_error_boxes (judge_error_id, seat, after_seat) VALUES (?, ?, ?)",
                            (entry_id, seat, after_seat))
        count = self._one("SELECT COALESCE(SUM(counted), 0) FROM judge_errors WHERE game_id = ?", (game_id,))
        if count < MAX_JUDGE_ERRORS:
            return False
        self._c.execute("UPDATE games SET state = 'held' WHERE id = ? AND state IN ('planned', 'running')",
                        (game_id,))
        return True

    def release_game(self, game_id: int) -> bool:
        """A game held after judge errors goes back to be played (``running``, its pinned versions kept), with its
        judge errors no longer counted; False (and nothing written) unless it was held."""
        if self._one("SELECT state FROM games WHERE id = ?", (game_id,)) != "held":
            return False
        self._c.execute("UPDATE games SET state = 'running' WHERE id = ?", (game_id,))
        self._c.execute("UPDATE judge_errors SET counted = 0 WHERE game_id = ?", (game_id,))
        return True

    def set_replaying(self, game_id: int, since: float | None) -> None:
        """Mark a finished game as being played again since ``since`` (None: no longer); its pinned builds are
        kept meanwhile (:meth:`Database.pinned_submissions`)."""
        self._c.execute("DELETE FROM replaying WHERE game_id = ?", (game_id,))
        if since is not None:
            self._c.execute("INSERT INTO replaying (game_id, since) VALUES (?, ?)", (game_id, since))

    def clear_replaying(self) -> None:
        """No game is being played again (a judge starting: the replays of the last one were dropped)."""
        self._c.execute("DELETE FROM replaying")

    def finish_round(self, number: int, now: float) -> None:
        self._c.execute("UPDATE rounds SET finished = ? WHERE number = ? AND finished IS NULL", (now, number))

    def set_team_flag(self, team_id: int, flag: str, on: bool) -> bool:
        """Set or clear one of :data:`TEAM_FLAGS` on a team; whether it changed."""
        if flag not in TEAM_FLAGS:
            raise ValueError(f"no team flag {flag!r}")
        was = bool(self._one("SELECT COUNT(*) FROM team_flags WHERE team_id = ? AND flag = ?", (team_id, flag)))
        if was and not on:
            self._c.execute("DELETE FROM team_flags WHERE team_id = ? AND flag = ?", (team_id, flag))
        elif on and not was:
            self._c.execute("INSERT INTO team_flags (team_id, flag) VALUES (?, ?)", (team_id, flag))
        return was != on

    def add_question(self, team_id: int, now: float, text: str) -> int:
        """A team's question to the organiser; its id."""
        question_id = int(self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM questions"))
        self._c.execute("INSERT INTO questions (id, team_id, at, text) VALUES (?, ?, ?, ?)",
                        (question_id, team_id, now, text))
        return question_id

    def question_load(self, team_id: int) -> tuple[int, float | None]:
        """Team ``team_id``'s questions not answered yet, and when it last asked one (None: never)."""
        row = self._c.execute(f"SELECT COALESCE(SUM(NOT {_ANSWERED}), 0), MAX(q.at) FROM questions q "
                              "WHERE q.team_id = ?", (team_id,)).fetchone()
        return int(row[0]), None if row[1] is None else float(row[1])

    def add_announcement(self, now: float, text: str, *, team_id: int | None = None,
                         question_id: int | None = None) -> int:
        """The organiser's message to every team (``team_id`` None) or to one, perhaps answering a question;
        its id."""
        message_id = int(self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM announcements"))
        self._c.execute("INSERT INTO announcements (id, at, team_id, question_id, text) VALUES (?, ?, ?, ?, ?)",
                        (message_id, now, team_id, question_id, text))
        return message_id

    def log_admin(self, now: float, action: str, detail: str) -> None:
        """Note one of the organiser's actions (the console lists them)."""
        entry_id = self._one("SELECT COALESCE(MAX(id), 0) + 1 FROM admin_log")
        self._c.execute("INSERT INTO admin_log (id, at, action, detail) VALUES (?, ?, ?, ?)",
                        (entry_id, now, action, detail))

    def replace_result(self, game_id: int, now: float, results: Sequence[dict[str, Any]], replay: str,
                       node: str | None = None) -> bool:
        """A finished game's results and replay replaced by those of playing it again (its walls and pinned
        versions), ``replayed`` at ``now``; False (and nothing written) unless it is finished.  Its ``finished``
        stays when it first finished: its place in time, for the freeze (a game finished before the freeze and
        played again during it stays public)."""
        if self._one("SELECT state FROM games WHERE id = ?", (game_id,)) != "finished":
            return False
        self._write_results(game_id, results)
        self._c.execute("UPDATE replays SET body = ? WHERE game_id = ?", (pack(replay), game_id))
        self._c.execute("UPDATE games SET replayed = ?, node = COALESCE(?, node) WHERE id = ?", (now, node, game_id))
        return True

    def _write_results(self, game_id: int, results: Sequence[dict[str, Any]]) -> None:
        for result in results:
            self._c.execute(
                "UPDATE seats SET status = ?, reason = ?, detail = ?, rank = ?, points = ? "
                "WHERE game_id = ? AND seat = ?",
                (result["status"], result["reason"], result["detail"], result["rank"], result["points"], game_id,
                 result["seat"]))
        self._c.execute("DELETE FROM thinking WHERE game_id = ?", (game_id,))
        for result in results:
            if result.get("thinking") is not None:
                self._c.execute("INSERT INTO thinking (game_id, seat, seconds, answers) VALUES (?, ?, ?, ?)",
                                (game_id, result["seat"], result["thinking"], result.get("answers", 0)))


class Database(SessionReads):
    """The contest's SQLite file: one connection per thread, WAL mode, writes serialised by a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._write_lock = threading.Lock()

    # -- connections ---------------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            self._local.connection = connection
        return connection

    def close(self) -> None:
        """Close this thread's connection."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with self._write_lock:
            connection = self._connection()
            connection.execute("BEGIN")
            try:
                yield Transaction(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def create_schema(self) -> None:
        with self.transaction() as tx:
            tx.create_tables()

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._connection().execute(sql, params).fetchall()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._rows(sql, params)
        return rows[0][0] if rows else None

    # -- reads ---------------------------------------------------------------------------------------------

    def meta(self, key: str, default: Any = None) -> Any:
        text = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return default if text is None else json.loads(text)

    def teams(self) -> list[Team]:
        return [Team(*row) for row in self._rows("SELECT id, name, token_hash FROM teams ORDER BY id")]

    def team(self, name: str) -> Team | None:
        rows = self._rows("SELECT id, name, token_hash FROM teams WHERE name = ?", (name,))
        return Team(*rows[0]) if rows else None

    def submission(self, submission_id: int) -> Submission | None:
        rows = self._rows(f"SELECT {_SUBMISSION_COLUMNS} FROM submissions s JOIN teams t ON t.id = s.team_id "
                          "WHERE s.id = ?", (submission_id,))
        return Submission(*rows[0]) if rows else None

    def submissions(self, team_id: int | None = None, status: str | None = None) -> list[Submission]:
        """Submissions (of one team, with one status), oldest first."""
        where: list[str] = []
        params: list[Any] = []
        if team_id is not None:
            where.append("s.team_id = ?")
            params.append(team_id)
        if status is not None:
            where.append("s.status = ?")
            params.append(status)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self._rows(f"SELECT {_SUBMISSION_COLUMNS} FROM submissions s JOIN teams t ON t.id = s.team_id"
                          f"{clause} ORDER BY s.id", params)
        return [Submission(*row) for row in rows]

    def current_submissions(self) -> dict[int, Submission]:
        """Each team's bot: its newest submission that built (teams without one are left out)."""
        current: dict[int, Submission] = {}
        for submission in self.submissions(status="ok"):
            current[submission.team_id] = submission  # ordered by id: the last one wins
        return current

    def build_records(self, team_id: int | None = None) -> dict[int, tuple[str, float]]:
        """``{submission id: (cache key, built)}`` of every recorded build (of one team's submissions)."""
        sql = "SELECT b.submission_id, b.cache_key, b.built FROM builds b"
        params: list[Any] = []
        if team_id is not None:
            sql += " JOIN submissions s ON s.id = b.submission_id WHERE s.team_id = ?"
            params.append(team_id)
        return {int(row[0]): (str(row[1]), float(row[2])) for row in self._rows(sql, params)}

    def pinned_submissions(self) -> set[int]:
        """The submissions pinned in games not finished (running or held; planned games pin none until they
        start) or being played again."""
        rows = self._rows("SELECT DISTINCT s.submission_id FROM seats s JOIN games g ON g.id = s.game_id "
                          "WHERE (g.state IN ('planned', 'running', 'held') OR g.id IN (SELECT game_id FROM replaying))"
                          " AND s.submission_id IS NOT NULL")
        return {int(row[0]) for row in rows}

    def nodes(self, game_ids: Sequence[int]) -> dict[int, str | None]:
        """The machine that played each of these finished games (None: not known), from the games table."""
        found: dict[int, str | None] = {}
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for game_id, node in self._rows(f"SELECT id, node FROM games WHERE id IN ({marks})", chunk):
                found[int(game_id)] = node
        return found

    def replaying(self) -> set[int]:
        """The finished games being played again now (:meth:`Transaction.set_replaying`)."""
        return {row[0] for row in self._rows("SELECT game_id FROM replaying")}

    def judge_errors(self, limit: int = 100, *, game_id: int | None = None) -> list[JudgeErrorRow]:
        """The judge's failures (of one game), newest first, each with the seats and teams of the box that failed
        and of the box that ran before it, when recorded."""
        where, params = ("WHERE j.game_id = ? ", [game_id]) if game_id is not None else ("", [])
        return [JudgeErrorRow(*row) for row in self._rows(
            "SELECT j.id, j.game_id, j.at, j.what, b.seat, t.name, b.after_seat, u.name FROM judge_errors j "
            "LEFT JOIN judge_error_boxes b ON b.judge_error_id = j.id "
            "LEFT JOIN seats s ON s.game_id = j.game_id AND s.seat = b.seat LEFT JOIN teams t ON t.id = s.team_id "
            "LEFT JOIN seats a ON a.game_id = j.game_id AND a.seat = b.after_seat "
            f"LEFT JOIN teams u ON u.id = a.team_id {where}ORDER BY j.id DESC LIMIT ?", [*params, limit])]

    def pairings(self) -> dict[int, dict[str, Any]]:
        """``{round: what its pairing was drawn from}`` (rounds planned by an older version have none)."""
        return {int(number): json.loads(body) for number, body in self._rows("SELECT round, body FROM pairings")}

    def replaced_results(self) -> dict[int, list[float]]:
        """``{game id: when its result was replaced}`` of the finished games played again (*Play again*), from the
        organiser's log."""
        found: dict[int, list[float]] = {}
        for at, detail in self._rows("SELECT at, detail FROM admin_log WHERE action = 'replayed' ORDER BY id"):
            word = str(detail).removeprefix("game ")
            if word.isdigit():
                found.setdefault(int(word), []).append(float(at))
        return found

    def rounds(self) -> list[tuple[int, float, float | None]]:
        """``(number, started, finished)`` of every round."""
        return [tuple(row) for row in self._rows("SELECT number, started, finished FROM rounds ORDER BY number")]

    def games(self, *, round_no: int | None = None, states: Sequence[str] = GAME_STATES,
              team_id: int | None = None, game_id: int | None = None) -> list[GameRow]:
        """Games with their seats, in id order (optionally one round's, in some states, with one team)."""
        where = [f"g.state IN ({', '.join('?' for _ in states)})"]
        params: list[Any] = list(states)
        if game_id is not None:
            where.append("g.id = ?")
            params.append(game_id)
        if round_no is not None:
            where.append("g.round = ?")
            params.append(round_no)
        if team_id is not None:
            where.append("g.id IN (SELECT game_id FROM seats WHERE team_id = ?)")
            params.append(team_id)
        rows = self._rows(
            "SELECT g.id, g.round, g.table_no, g.number, g.wall_seed, g.state, g.started, g.finished, s.seat, "
            "t.name, v.version, s.submission_id, s.status, s.reason, s.detail, s.rank, s.points, p.name "
            "FROM games g JOIN seats s ON s.game_id = g.id LEFT JOIN teams t ON t.id = s.team_id "
            "LEFT JOIN teams p ON p.id = s.planned_team_id "
            "LEFT JOIN submissions v ON v.id = s.submission_id "
            f"WHERE {' AND '.join(where)} ORDER BY g.id, s.seat", params)
        games: list[GameRow] = []
        seats: list[SeatRow] = []
        for index, row in enumerate(rows):
            seats.append(SeatRow(*row[8:]))
            if index + 1 == len(rows) or rows[index + 1][0] != row[0]:
                game_id, round_no, table_no, number, wall_seed, state, started, finished = row[:8]
                games.append(GameRow(game_id, round_no, table_no, number, wall_seed, state, started, finished,
                                     tuple(seats)))
                seats = []
        return games

    def game(self, game_id: int) -> GameRow | None:
        found = self.games(game_id=game_id)
        return found[0] if found else None

    def replay(self, game_id: int) -> str | None:
        """The replay of finished game ``game_id`` (its JSON text)."""
        return unpack(self._one("SELECT body FROM replays WHERE game_id = ?", (game_id,)))

    def replay_mark(self, game_id: int) -> float | None:
        """When the replay of finished game ``game_id`` was recorded (it changes when the game is played again),
        or None when there is none: what a view built from the replay can be kept by, read without the replay."""
        return self._one("SELECT COALESCE(g.replayed, g.finished) FROM games g JOIN replays r ON r.game_id = g.id "
                         "WHERE g.id = ? AND g.state = 'finished'", (game_id,))

    def finished_replays(self) -> Iterator[tuple[int, str]]:
        """``(game id, replay)`` of every finished game, in id order, read a row at a time."""
        rows = self._connection().execute(
            "SELECT r.game_id, r.body FROM replays r JOIN games g ON g.id = r.game_id WHERE g.state = 'finished' "
            "ORDER BY r.game_id")
        for game_id, body in rows:
            yield game_id, unpack(body)

    def results_mark(self) -> tuple[int, float | None]:
        """``(finished games, when the last result was recorded)``: it changes whenever a result does (a game
        played again is finished again), so what is drawn from the results can be kept until it changes."""
        count, last = self._rows("SELECT COUNT(*), MAX(COALESCE(replayed, finished)) FROM games "
                                 "WHERE state = 'finished'")[0]
        return int(count), last

    def totals(self, finished_before: float | None = None, *, house_games: bool = True
               ) -> dict[int, tuple[int, float]]:
        """Each team's ``(games, points)`` over its finished games (house bots are not teams); with
        ``finished_before``, over those that finished before that time only (the freeze); ``house_games``: False
        leaves out the games with a house bot at the table (they count for no team: the opening ``together``)."""
        rows = self._rows(
            "SELECT s.team_id, COUNT(*), SUM(s.points) FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.state = 'finished' AND s.team_id IS NOT NULL AND NOT COALESCE(g.finished >= ?, 0) "
            f"{'' if house_games else _NO_HOUSE}GROUP BY s.team_id", (finished_before,))
        return {team_id: (int(count), float(points or 0.0)) for team_id, count, points in rows}

    def thinking_totals(self, finished_before: float | None = None, *, house_games: bool = True
                        ) -> dict[int, tuple[int, float, float]]:
        """Each team's thinking over its finished games: ``(games, seconds in all, most seconds in one game)``
        (games recorded before thinking was kept are not counted); ``finished_before`` and ``house_games`` as for
        :meth:`totals`."""
        rows = self._rows(
            "SELECT s.team_id, COUNT(*), SUM(k.seconds), MAX(k.seconds) FROM seats s "
            "JOIN games g ON g.id = s.game_id JOIN thinking k ON k.game_id = s.game_id AND k.seat = s.seat "
            "WHERE g.state = 'finished' AND s.team_id IS NOT NULL AND NOT COALESCE(g.finished >= ?, 0) "
            f"{'' if house_games else _NO_HOUSE}GROUP BY s.team_id", (finished_before,))
        return {int(team_id): (int(count), float(total or 0.0), float(most or 0.0))
                for team_id, count, total, most in rows}

    def thinking_of(self, team_id: int) -> dict[int, float]:
        """The seconds that team ``team_id`` thought in each of its finished games: ``{game id: seconds}``."""
        rows = self._rows(
            "SELECT s.game_id, k.seconds FROM seats s JOIN games g ON g.id = s.game_id "
            "JOIN thinking k ON k.game_id = s.game_id AND k.seat = s.seat "
            "WHERE g.state = 'finished' AND s.team_id = ?", (team_id,))
        return {int(game_id): float(seconds) for game_id, seconds in rows}

    def team_flags(self) -> dict[int, set[str]]:
        """``{team id: its flags}`` (:data:`TEAM_FLAGS`) of the teams that have any."""
        flags: dict[int, set[str]] = {}
        for team_id, flag in self._rows("SELECT team_id, flag FROM team_flags"):
            flags.setdefault(int(team_id), set()).add(str(flag))
        return flags

    def flagged(self, flag: str) -> set[int]:
        """The ids of the teams with ``flag``."""
        return {int(row[0]) for row in self._rows("SELECT team_id FROM team_flags WHERE flag = ?", (flag,))}

    def announcements(self, team_id: int | None = None, *, every: bool = False) -> list[Message]:
        """The organiser's messages, newest first: those to every team, and those to team ``team_id``
        (``every``: all of them, for the organiser and the export)."""
        where, params = "", []
        if not every:
            where = " WHERE a.team_id IS NULL" + (" OR a.team_id = ?" if team_id is not None else "")
            params = [team_id] if team_id is not None else []
        rows = self._rows("SELECT a.id, a.at, t.name, a.text, a.question_id FROM announcements a "
                          f"LEFT JOIN teams t ON t.id = a.team_id{where} ORDER BY a.id DESC", params)
        return [Message("announcement", int(i), float(at), team, str(text), q) for i, at, team, text, q in rows]

    def questions(self, team_id: int | None = None) -> list[Message]:
        """The teams' questions (one team's), newest first."""
        where, params = ("WHERE q.team_id = ? ", [team_id]) if team_id is not None else ("", [])
        rows = self._rows("SELECT q.id, q.at, t.name, q.text FROM questions q JOIN teams t ON t.id = q.team_id "
                          f"{where}ORDER BY q.id DESC", params)
        return [Message("question", int(i), float(at), team, str(text)) for i, at, team, text in rows]

    def questions_page(self, offset: int, limit: int) -> list[tuple[Message, bool]]:
        """``limit`` of the teams' questions from ``offset``, each with whether it is answered: those not
        answered first, oldest first (the longest waiting at the top), then the answered ones, newest first."""
        rows = self._rows(f"SELECT q.id, q.at, t.name, q.text, {_ANSWERED} AS answered FROM questions q "
                          "JOIN teams t ON t.id = q.team_id ORDER BY answered, "
                          "CASE WHEN answered THEN -q.id ELSE q.id END LIMIT ? OFFSET ?", (limit, offset))
        return [(Message("question", int(i), float(at), team, str(text)), bool(answered))
                for i, at, team, text, answered in rows]

    def question_counts(self) -> tuple[int, int]:
        """How many questions the teams asked, and how many of them are not answered."""
        total, waiting = self._rows(f"SELECT COUNT(*), COALESCE(SUM(NOT {_ANSWERED}), 0) FROM questions q")[0]
        return int(total), int(waiting)

    def admin_log(self, limit: int = 50) -> list[tuple[float, str, str]]:
        """The organiser's last actions, newest first: ``(at, action, detail)``."""
        return [tuple(row) for row in self._rows("SELECT at, action, detail FROM admin_log ORDER BY id DESC LIMIT ?",
                                                 (limit,))]

    def house_meetings(self) -> dict[int, int]:
        """For each team, the games (planned ones too) in which it sat with a house bot."""
        rows = self._rows(
            "SELECT s.team_id, COUNT(DISTINCT s.game_id) FROM seats s WHERE s.team_id IS NOT NULL AND s.game_id IN "
            "(SELECT game_id FROM seats WHERE team_id IS NULL) GROUP BY s.team_id")
        return {int(team_id): int(count) for team_id, count in rows}

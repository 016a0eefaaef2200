"""The contest database's tables: the SQL that makes them, the values some columns take, how a replay is stored.

The types are standard ones that PostgreSQL takes too (``INTEGER``, ``BIGINT``, ``DOUBLE PRECISION``,
``VARCHAR``, ``TEXT``), and ids are the application's (no ``AUTOINCREMENT``).  The queries over these tables
are :mod:`mjarena.contest.db`'s.

A replay is stored compressed (zlib, as bytes in ``replays.body``: a BLOB in SQLite, where a column's declared
type does not convert it; a PostgreSQL port declares the column ``BYTEA``); a replay stored as text by an older
version is read as it is (:func:`pack`, :func:`unpack`).
"""

from __future__ import annotations

import zlib
from typing import overload

__all__ = ["ADDED_COLUMNS", "GAME_STATES", "PLACEHOLDER", "SCHEMA", "TEAM_FLAGS", "pack", "unpack"]

PLACEHOLDER = "?"
"""The parameter marker of the queries (a PostgreSQL driver would use ``%s``)."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS meta (
        key VARCHAR(64) PRIMARY KEY,
        value TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS teams (
        id INTEGER PRIMARY KEY,
        name VARCHAR(64) NOT NULL UNIQUE,
        token_hash CHAR(64) NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS submissions (
        id INTEGER PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams (id),
        version INTEGER NOT NULL,
        language VARCHAR(16) NOT NULL,
        filename VARCHAR(255) NOT NULL,
        path TEXT NOT NULL,
        sha256 CHAR(64) NOT NULL,
        status VARCHAR(16) NOT NULL,
        message TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        UNIQUE (team_id, version))""",
    """CREATE TABLE IF NOT EXISTS rounds (
        number INTEGER PRIMARY KEY,
        started DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS games (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL REFERENCES rounds (number),
        table_no INTEGER NOT NULL,
        number INTEGER NOT NULL,
        wall_seed BIGINT NOT NULL,
        state VARCHAR(16) NOT NULL,
        started DOUBLE PRECISION,
        finished DOUBLE PRECISION,
        replayed DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        team_id INTEGER REFERENCES teams (id),
        submission_id INTEGER REFERENCES submissions (id),
        status VARCHAR(16),
        reason VARCHAR(32),
        detail TEXT,
        rank INTEGER,
        points DOUBLE PRECISION,
        PRIMARY KEY (game_id, seat))""",
    """CREATE TABLE IF NOT EXISTS replays (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        body TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS sessions (
        token_hash CHAR(64) PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams (id),
        csrf VARCHAR(64) NOT NULL,
        expires DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS admin_sessions (
        token_hash CHAR(64) PRIMARY KEY,
        csrf VARCHAR(64) NOT NULL,
        expires DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS admin_log (
        id INTEGER PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL,
        action VARCHAR(32) NOT NULL,
        detail TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS builds (
        submission_id INTEGER PRIMARY KEY REFERENCES submissions (id),
        cache_key VARCHAR(64) NOT NULL,
        built DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS thinking (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat))""",
    """CREATE TABLE IF NOT EXISTS judge_errors (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        at DOUBLE PRECISION NOT NULL,
        what TEXT NOT NULL,
        counted INTEGER NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS judge_error_boxes (
        judge_error_id INTEGER PRIMARY KEY REFERENCES judge_errors (id),
        seat INTEGER,
        after_seat INTEGER)""",
    """CREATE TABLE IF NOT EXISTS pairings (
        round INTEGER PRIMARY KEY REFERENCES rounds (number),
        body TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS replaying (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        since DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS team_flags (
        team_id INTEGER NOT NULL REFERENCES teams (id),
        flag VARCHAR(16) NOT NULL,
        PRIMARY KEY (team_id, flag))""",
    """CREATE TABLE IF NOT EXISTS questions (
        id INTEGER PRIMARY KEY,
        team_id INTEGER NOT NULL REFERENCES teams (id),
        at DOUBLE PRECISION NOT NULL,
        text TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS announcements (
        id INTEGER PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL,
        team_id INTEGER REFERENCES teams (id),
        question_id INTEGER REFERENCES questions (id),
        text TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS games_by_round ON games (round, state)",
    "CREATE INDEX IF NOT EXISTS seats_by_team ON seats (team_id)",
    "CREATE INDEX IF NOT EXISTS submissions_by_team ON submissions (team_id, status)",
    "CREATE INDEX IF NOT EXISTS questions_by_team ON questions (team_id, at)",
    "CREATE INDEX IF NOT EXISTS answers_by_question ON announcements (question_id)",
)

ADDED_COLUMNS = (
    ("games", "replayed", "DOUBLE PRECISION"),
    ("seats", "planned_team_id", "INTEGER"),
    ("games", "node", "VARCHAR(255)"),
)
"""Columns added to :data:`SCHEMA`'s tables after contests were made with them: ``(table, column, type)``, added
to an older database when it is opened.  ``games.finished`` is when a game first finished (its place in time, for
the freeze: it never moves); ``games.replayed`` when its result was last replaced by playing it again;
``seats.planned_team_id`` the team planned in a seat that a house bot played, the team disabled before the game
started (``team_id`` is then NULL); ``games.node`` the machine that played a finished game (filled from the
replays when the column is added to an older database)."""

TEAM_FLAGS = ("disabled", "hidden")
"""``disabled``: the team plays no more games (its results stay); ``hidden``: left out of the public standings."""

GAME_STATES = ("planned", "running", "finished", "held")
"""``held``: left for the organiser after :data:`~mjarena.contest.db.MAX_JUDGE_ERRORS` judge errors (its pinned
versions kept)."""


def pack(replay: str) -> bytes:
    """A replay's JSON text as :data:`SCHEMA`'s ``replays.body`` keeps it: zlib-compressed UTF-8.

    >>> text = '{"debug": "' + "ab" * 1000 + '"}'
    >>> len(pack(text)) < len(text) // 20, unpack(pack(text)) == text, unpack('{"old": 1}'), unpack(None)
    (True, True, '{"old": 1}', None)
    """
    return zlib.compress(replay.encode("utf-8"), 6)


@overload
def unpack(body: bytes | str) -> str: ...


@overload
def unpack(body: None) -> None: ...


def unpack(body: bytes | str | None) -> str | None:
    """A stored replay's JSON text (one stored as text by an older version as it is); None for None."""
    if body is None or isinstance(body, str):
        return body
    return zlib.decompress(body).decode("utf-8")

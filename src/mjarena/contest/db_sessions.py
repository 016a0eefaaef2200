"""The contest database's sessions: a team's and the organiser's, written in a transaction and read back.

Kept apart from :mod:`mjarena.contest.db` (whose :class:`~mjarena.contest.db.Transaction` and
:class:`~mjarena.contest.db.Database` take these methods from the two classes here) so that each module stays
small; the SQL is plain as there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = ["SessionReads", "SessionWrites"]


class SessionWrites:
    """A transaction's writes of sessions (:class:`~mjarena.contest.db.Transaction`)."""

    _c: sqlite3.Connection

    def add_session(self, token_hash: str, team_id: int, csrf: str, expires: float) -> None:
        self._c.execute("INSERT INTO sessions (token_hash, team_id, csrf, expires) VALUES (?, ?, ?, ?)",
                        (token_hash, team_id, csrf, expires))

    def drop_session(self, token_hash: str) -> None:
        self._c.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    def drop_expired_sessions(self, now: float) -> None:
        self._c.execute("DELETE FROM sessions WHERE expires < ?", (now,))
        self._c.execute("DELETE FROM admin_sessions WHERE expires < ?", (now,))

    def add_admin_session(self, token_hash: str, csrf: str, expires: float) -> None:
        """A session of the organiser (the admin is no team, so its sessions have a table of their own)."""
        self._c.execute("INSERT INTO admin_sessions (token_hash, csrf, expires) VALUES (?, ?, ?)",
                        (token_hash, csrf, expires))

    def drop_admin_session(self, token_hash: str) -> None:
        self._c.execute("DELETE FROM admin_sessions WHERE token_hash = ?", (token_hash,))

    def drop_admin_sessions(self) -> None:
        """Every session of the organiser (its token was rotated)."""
        self._c.execute("DELETE FROM admin_sessions")


class SessionReads:
    """The database's reads of live sessions (:class:`~mjarena.contest.db.Database`)."""

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def admin_session(self, token_hash: str, now: float) -> str | None:
        """The CSRF token of a live session of the organiser."""
        return self._one("SELECT csrf FROM admin_sessions WHERE token_hash = ? AND expires >= ?", (token_hash, now))

    def session(self, token_hash: str, now: float) -> tuple[int, str] | None:
        """``(team id, CSRF token)`` of a live session."""
        rows = self._rows("SELECT team_id, csrf FROM sessions WHERE token_hash = ? AND expires >= ?",
                          (token_hash, now))
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

"""The contest database's rows as :mod:`mjarena.contest.db`'s queries give them back: teams, submissions,
games with their seats, messages and judge errors (frozen dataclasses, in the order of their columns).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["GameRow", "JudgeErrorRow", "Message", "SeatRow", "Submission", "Team"]


@dataclass(frozen=True)
class Team:
    id: int
    name: str
    token_hash: str


@dataclass(frozen=True)
class Submission:
    id: int
    team_id: int
    team: str
    version: int
    language: str
    filename: str
    path: str
    sha256: str
    status: str  # pending | ok | compile_error
    message: str
    created: float

    def to_json(self) -> dict[str, Any]:
        """What the API says of a submission."""
        return {"id": self.id, "team": self.team, "version": self.version, "language": self.language,
                "status": self.status, "message": self.message, "submitted": self.created}


@dataclass(frozen=True)
class SeatRow:
    seat: int
    team: str | None  # None: a house bot
    version: int | None
    submission_id: int | None
    status: str | None
    reason: str | None
    detail: str | None
    rank: int | None
    points: float | None
    without: str | None = None  # the team planned in this seat, disabled before the game started (a house bot played)


@dataclass(frozen=True)
class GameRow:
    id: int
    round: int
    table_no: int
    number: int
    wall_seed: int
    state: str  # planned | running | finished | held
    started: float | None
    finished: float | None
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class Message:
    """A question of a team (``kind`` ``question``) or an announcement of the organiser's (``announcement``): to
    every team (``team`` None) or to one; an answer names the question it answers (``question``)."""

    kind: str
    id: int
    at: float
    team: str | None
    text: str
    question: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "at": self.at, "team": self.team, "text": self.text,
                "question": self.question}


@dataclass(frozen=True)
class JudgeErrorRow:
    """A game that the judge failed (not a bot): when, and what happened; ``seat``: the seat whose box failed
    (None: not a box's start, or recorded by an older version), ``after_seat``: the seat whose box ran last before
    it in that game (None: none did); ``team`` and ``after_team`` their teams (None: a house bot)."""

    id: int
    game_id: int
    at: float
    what: str
    seat: int | None = None
    team: str | None = None
    after_seat: int | None = None
    after_team: str | None = None

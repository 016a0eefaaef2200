"""Announcements and questions: the organiser's word to the teams, and a team's question to the organiser.

An announcement goes to every team (the standings show it to everyone) or to one team (its own pages alone);
an answer is an announcement that names the question it answers, sent to the team that asked or to every team.
Every message is kept, with its time, in the contest's database and in the export.

A team asks at most one question every :data:`QUESTION_SECONDS` seconds, and has at most
:data:`MAX_OPEN_QUESTIONS` not answered yet at once (:class:`QuestionLimit` says which, and when to ask again):
a flood of questions cannot bury another team's, nor grow the console.  The console lists the questions
:data:`QUESTIONS_PER_PAGE` a page, those not answered first, the longest waiting at the top
(:func:`questions_page`).

>>> check_message("  ")
Traceback (most recent call last):
...
mjarena.contest.settings.ContestError: the message is empty
"""

from __future__ import annotations

import math
from typing import Any

from mjarena.contest.model import Contest, ContestError
from mjarena.i18n import N_, worded

__all__ = ["MAX_MESSAGE", "MAX_OPEN_QUESTIONS", "QUESTIONS_PER_PAGE", "QUESTION_SECONDS", "QuestionLimit", "announce",
           "ask", "check_message", "messages_json", "questions_page"]

MAX_MESSAGE = 2000
"""The longest message, in characters."""
MAX_OPEN_QUESTIONS = 5
"""The most questions a team has waiting for an answer at once."""
QUESTION_SECONDS = 30.0
"""The shortest time between two questions of one team, in seconds."""
QUESTIONS_PER_PAGE = 20
"""The questions on one page of the console."""


class QuestionLimit(ContestError):
    """A question refused for the team's rate or its open questions; ``retry_after``: seconds to wait (None:
    until one is answered)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def check_message(text: Any) -> str:
    """A message's text, stripped; :class:`ContestError` when it is empty or longer than :data:`MAX_MESSAGE`."""
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        raise ContestError(worded(N_("the message is empty")))
    if len(text) > MAX_MESSAGE:
        raise ContestError(worded(N_("the message has %(length)s characters: at most %(most)s"), length=len(text),
                                  most=MAX_MESSAGE))
    return text


def announce(contest: Contest, text: Any, now: float, *, team: str | None = None,
             question: int | None = None) -> int:
    """The organiser's message to every team (``team`` None) or to one, answering ``question`` if given; its id.
    Logged with the organiser's actions."""
    text = check_message(text)
    db = contest.db
    team_id = None
    if team is not None:
        found = db.team(team)
        if found is None:
            raise ContestError(f"no team {team!r}")
        team_id = found.id
    if question is not None and all(item.id != question for item in db.questions()):
        raise ContestError(f"no question {question}")
    with db.transaction() as tx:
        message_id = tx.add_announcement(now, text, team_id=team_id, question_id=question)
        tx.log_admin(now, "answer" if question is not None else "announce",
                     f"to {team or 'every team'}" + (f", question {question}" if question is not None else ""))
    return message_id


def ask(contest: Contest, team_id: int, text: Any, now: float) -> int:
    """A team's question to the organiser; its id.  :class:`QuestionLimit` when the team has
    :data:`MAX_OPEN_QUESTIONS` waiting, or asked one less than :data:`QUESTION_SECONDS` ago."""
    text = check_message(text)
    with contest.db.transaction() as tx:
        waiting, last = tx.question_load(team_id)
        if waiting >= MAX_OPEN_QUESTIONS:
            raise QuestionLimit(worded(N_("%(waiting)s of your questions wait for an answer, the most a team may have: "
                                          "ask again once the organiser answers one"), waiting=waiting))
        wait = QUESTION_SECONDS - (now - last) if last is not None else 0.0
        if wait > 0:
            raise QuestionLimit(worded(N_("one question every %(every)s s: ask again in %(wait)s s"),
                                       every=f"{QUESTION_SECONDS:g}", wait=math.ceil(wait)), wait)
        return tx.add_question(team_id, now, text)


def questions_page(contest: Contest, page: int) -> dict[str, Any]:
    """Page ``page`` (from 1; past the last: the last) of the teams' questions for the console, not answered
    first (:meth:`mjarena.contest.db.Database.questions_page`): ``{"questions": [... with "answered"], "page",
    "pages", "total", "open"}``."""
    total, waiting = contest.db.question_counts()
    pages = max(1, math.ceil(total / QUESTIONS_PER_PAGE))
    page = min(max(1, page), pages)
    found = contest.db.questions_page((page - 1) * QUESTIONS_PER_PAGE, QUESTIONS_PER_PAGE)
    return {"questions": [{**item.to_json(), "answered": answered} for item, answered in found], "page": page,
            "pages": pages, "total": total, "open": waiting}


def messages_json(contest: Contest, team: str | None = None, *, every: bool = False) -> dict[str, Any]:
    """``{"announcements": [...], "questions": [...]}``, newest first: the announcements to every team and to
    ``team``, and ``team``'s questions (``every``: all of them, for the organiser and the export)."""
    db = contest.db
    found = db.team(team) if team is not None else None
    team_id = found.id if found is not None else None
    announcements = db.announcements(team_id, every=every)
    if every:
        questions = db.questions()
    elif team_id is not None:
        questions = db.questions(team_id)
    else:
        questions = []
    return {"announcements": [item.to_json() for item in announcements],
            "questions": [item.to_json() for item in questions]}

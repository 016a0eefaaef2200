"""Announcements and questions: the organiser's word to the teams, and a team's question to the organiser.

An announcement goes to every team (the standings show it to everyone) or to one team (its own pages alone);
an answer is an announcement that names the question it answers, sent to the team that asked or to every team.
Every message is kept, with its time, in the contest's database and in the export.

>>> check_message("  ")
Traceback (most recent call last):
...
mjarena.contest.model.ContestError: the message is empty
"""

from __future__ import annotations

from typing import Any

from mjarena.contest.model import Contest, ContestError

__all__ = ["MAX_MESSAGE", "announce", "ask", "check_message", "messages_json"]

MAX_MESSAGE = 2000
"""The longest message, in characters."""


def check_message(text: Any) -> str:
    """A message's text, stripped; :class:`ContestError` when it is empty or longer than :data:`MAX_MESSAGE`."""
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        raise ContestError("the message is empty")
    if len(text) > MAX_MESSAGE:
        raise ContestError(f"the message has {len(text)} characters: at most {MAX_MESSAGE}")
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
    """A team's question to the organiser; its id."""
    text = check_message(text)
    with contest.db.transaction() as tx:
        return tx.add_question(team_id, now, text)


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

"""The console's front page and the contest's controls: the window (pause, resume, extend, end, reveal),
announcements and answers to the teams' questions, the admin token, every team's row and the judge errors.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.contest import admin_pages
from mjarena.contest.disk import disk_notice
from mjarena.contest.failures import ERROR_KINDS, version_errors
from mjarena.contest.handlers.console_sessions import (
    ADMIN_COOKIE,
    console_session,
    html,
    note,
    posted,
)
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.messages import announce, questions_page
from mjarena.contest.model import ADMIN, Contest, ContestError
from mjarena.contest.public import freeze_view, reveal
from mjarena.contest.rows import Submission
from mjarena.i18n import N_, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["announcement", "console", "console_view", "rotate_admin_token", "window"]


def _minutes(raw: str) -> float:
    """The minutes of *Extend the window*: a positive number; :class:`ContestError` naming what was given.

    >>> _minutes("30"), _minutes("1.5")
    (30.0, 1.5)
    >>> _minutes("soon")
    Traceback (most recent call last):
    ...
    mjarena.contest.settings.ContestError: extend the window by 'soon': give a number of minutes
    """
    try:
        if raw.isascii():
            return float(raw)
    except ValueError:
        pass
    raise ContestError(worded(N_("extend the window by %(raw)s: give a number of minutes"), raw=repr(raw[:20])))


def _ended(contest: Contest, now: float) -> bool:
    end = contest.end(now)
    return end is not None and now >= end


def teams_view(context: ContestContext) -> list[dict[str, Any]]:
    """Every team's row: its versions, the one playing, the last build, games, points, flags and errors."""
    db = context.db
    standings = {row["team"]: row for row in context.contest.standings(context.clock())["rows"]}
    history: dict[int, list[Submission]] = {}
    for submission in db.submissions():
        history.setdefault(submission.team_id, []).append(submission)
    figures = version_errors(db.games(states=("finished",)))
    flags = db.team_flags()
    rows = []
    for team in db.teams():
        mine = history.get(team.id, [])
        row = standings[team.name]
        errors: dict[str, int] = {}
        for item in figures.get(team.name, {}).values():
            for kind, games in item["errors"].items():
                errors[kind] = errors.get(kind, 0) + len(games)
        rows.append({"team": team.name, "versions": len(mine), "current": row["version"],
                     "last": mine[-1].to_json() if mine else None, "games": row["games"],
                     "points": row["points"], "flags": sorted(flags.get(team.id, ())),
                     "errors": {kind: errors[kind] for kind in [*ERROR_KINDS, "other"] if kind in errors}})
    return rows


def judge_errors_view(context: ContestContext) -> list[dict[str, Any]]:
    """The judge errors (a game the judge failed, not a bot), each saying whether its game is held."""
    states = {game.id: game.state for game in context.db.games()}
    return [{"id": row.id, "game": row.game_id, "at": row.at, "what": row.what,
             "held": states.get(row.game_id) == "held", "seat": row.seat, "team": row.team,
             "after_seat": row.after_seat, "after_team": row.after_team} for row in context.db.judge_errors()]


def console_view(context: ContestContext, csrf: str, notice: str | None = None, questions: int = 1) -> str:
    """The console; ``questions``: the page of the teams' questions shown."""
    contest, db = context.contest, context.db
    now = context.clock()
    messages = {"announcements": [item.to_json() for item in db.announcements(every=True)],
                **questions_page(contest, questions)}
    return admin_pages.console_page(state=contest.state(now), start=contest.start(), end=contest.end(now),
                                    paused_since=contest.paused_since(), teams=teams_view(context),
                                    log=db.admin_log(), csrf=csrf, notice=notice or disk_notice(contest),
                                    judge_errors=judge_errors_view(context), ended=_ended(contest, now),
                                    judging=context.judge is not None, messages=messages,
                                    freeze=freeze_view(contest, now),
                                    overloads=getattr(context.judge, "overloaded", None))


async def console(request: Request) -> Response:
    csrf = console_session(request)
    if csrf is None:
        return RedirectResponse("/admin/login", status_code=303)
    page = ascii_number(request.query_params.get("questions"), digits=6) or 1
    return html(await run_in_threadpool(console_view, context_of(request), csrf, None, page))


async def window(request: Request) -> Response:
    """Pause, resume, extend (by the form's ``minutes``) or end now; each logged by the model."""
    context = context_of(request)
    contest, clock = context.contest, context.clock
    csrf, form = await posted(request)
    action = form.get("action")
    try:
        if action == "pause":
            await run_in_threadpool(contest.pause, clock())
        elif action == "resume":
            await run_in_threadpool(contest.resume, clock())
        elif action == "extend":
            raw = form.get("minutes")
            minutes = _minutes(raw.strip() if isinstance(raw, str) else "")
            await run_in_threadpool(contest.extend, minutes, clock())
        elif action == "end":
            await run_in_threadpool(contest.end_now, clock())
        elif action == "reveal":
            await run_in_threadpool(reveal, contest, clock())
        else:
            raise HTTPException(400, N_("the window's action is pause, resume, extend, end or reveal"))
    except ContestError as error:
        return html(await run_in_threadpool(console_view, context, csrf, error.args[0]), 409)
    return RedirectResponse("/admin", status_code=303)


async def announcement(request: Request) -> Response:
    """An announcement to every team or to one (``team``), perhaps answering a question (``question``)."""
    context = context_of(request)
    csrf, form = await posted(request)
    team = form.get("team") or None
    raw_question = form.get("question")
    question = ascii_number(raw_question) if isinstance(raw_question, str) and raw_question else None
    try:
        if raw_question and question is None:
            raise ContestError(worded(N_("question %(raw)s: give its number"), raw=repr(str(raw_question)[:20])))
        await run_in_threadpool(lambda: announce(context.contest, form.get("text"), context.clock(),
                                                 team=team if isinstance(team, str) else None, question=question))
    except ContestError as error:
        return html(await run_in_threadpool(console_view, context, csrf, error.args[0]), 400)
    return RedirectResponse("/admin", status_code=303)


async def rotate_admin_token(request: Request) -> Response:
    context = context_of(request)
    await posted(request)
    token = await run_in_threadpool(context.contest.rotate_token, ADMIN)
    note(context, "new token", ADMIN)
    response = html(admin_pages.token_page("the organiser", token, "", N_("The new admin token")))
    response.delete_cookie(ADMIN_COOKIE, path="/admin")
    return response

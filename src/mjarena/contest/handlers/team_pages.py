"""A logged-in team's pages (its session cookie): its page (upload, history, versions, messages), an upload
from the page, a question to the organiser, a source of its own.
"""

from __future__ import annotations

import math

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from mjarena.contest import pages
from mjarena.contest.charts import versions_chart
from mjarena.contest.forms import check_csrf, check_origin, small_form
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.handlers.sessions import logged_in, session
from mjarena.contest.handlers.uploads import own_submission, receive_upload, source_response
from mjarena.contest.messages import QuestionLimit, ask, messages_json
from mjarena.contest.model import ContestError
from mjarena.contest.rows import Team
from mjarena.contest.sources import accepted_suffixes
from mjarena.contest.statistics import contest_statistics

__all__ = ["team_home", "team_question", "team_source", "team_upload", "team_view"]


def team_view(context: ContestContext, team: Team, csrf: str, message: str | None = None) -> str:
    """The team's page, with ``message`` (what went wrong) at its top."""
    contest, settings = context.contest, context.settings
    history = [submission.to_json() for submission in context.db.submissions(team_id=team.id)]
    figures = contest.version_figures(team.name)
    return pages.team_page(team.name, history, csrf, accepted_suffixes(), settings.max_upload, message,
                           figures=figures, chart=versions_chart(team.name, figures),
                           limits=settings.limits_json(), messages=messages_json(contest, team.name),
                           stats=contest_statistics(contest, team=team.name).get(team.name))


async def team_home(request: Request) -> Response:
    found = session(request)
    if found is None:
        return RedirectResponse("/login", status_code=303)
    return HTMLResponse(team_view(context_of(request), *found), headers={"cache-control": "no-store"})


async def team_upload(request: Request) -> Response:
    check_origin(request)
    team, csrf = logged_in(request)
    await receive_upload(request, team, csrf=csrf)
    return RedirectResponse("/team", status_code=303)


async def team_question(request: Request) -> Response:
    """A team's question to the organiser (the console lists it, with a form to answer it)."""
    context = context_of(request)
    check_origin(request)
    team, csrf = logged_in(request)
    form = await small_form(request)
    check_csrf(form, csrf)
    try:
        await run_in_threadpool(ask, context.contest, team.id, form.get("text"), context.clock())
    except ContestError as error:  # a QuestionLimit: 429, with when to ask again if a wait would do
        limited = isinstance(error, QuestionLimit)
        wait = error.retry_after if isinstance(error, QuestionLimit) else None
        headers = {"cache-control": "no-store", **({"retry-after": str(math.ceil(wait))} if wait else {})}
        return HTMLResponse(await run_in_threadpool(team_view, context, team, csrf, error.args[0]),
                            status_code=429 if limited else 400, headers=headers)
    return RedirectResponse("/team", status_code=303)


async def team_source(request: Request) -> Response:
    team, _ = logged_in(request)
    return source_response(own_submission(request, team))

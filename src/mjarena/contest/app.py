"""The contest's web server: the JSON API and the pages (Starlette).

API (``Authorization: Bearer TOKEN`` where private):

- ``POST /api/submissions``: multipart/form-data, the file in field ``source`` (its extension names the
  language) → 201 ``{"id", "team", "version", "language", "status", "message"}``; 413 over the size limit
  (refused from ``Content-Length`` before the body is read, else as soon as it is exceeded), 429 over the
  team's upload rate, 415 for an unknown extension, 400 for text that is not UTF-8.  A refused upload makes no
  submission.
- ``GET /api/submissions`` (the team's), ``GET /api/submissions/{id}``, ``GET /api/submissions/{id}/source``
  (the exact bytes): the team's own only (404 for another team's).
- ``GET /api/standings``, ``GET /api/games?team=NAME``, ``GET /api/rounds``: public (the standings carry a
  ``notice`` while the free-disk watch keeps the contest paused, :mod:`mjarena.contest.disk`).
- ``GET /api/replays/{id}``: a finished game for the web app's replay viewer (its transcript panel included), as
  the asker may see it: a team's own bots with their ``debug`` output and standard error, the others without;
  ``GET /api/games/{id}/turns``: the asker's own bots' exchanges with their ``debug`` output and standard error.
  Both are built once per game and way of seeing it, kept, and sent gzip-compressed to a client that accepts it
  (:mod:`mjarena.contest.views`: a client may have at most 30 views a minute built; kept ones are free).
- ``GET /api/live/{id}``: a game in progress, its moves so far for the same viewer (``"live": true``), as the
  asker may follow it (:mod:`mjarena.contest.handlers.live_pages`); ``{"finished": true}`` once it has ended.

Pages: ``/`` standings (with the race chart, ``/charts/race`` for its live updates), ``/rounds``,
``/teams/{name}`` (with its points per game by version), ``/replays/{id}``, ``/live/{id}`` (a game in progress,
followed as it is played), ``/login``, and for a logged-in team
``/team`` (upload, submission history); the organiser's console under ``/admin`` (:mod:`mjarena.contest.admin`).
A team logs in with its token once and gets a session cookie (HttpOnly, SameSite=Strict); every form carries the
session's CSRF token (the login form, the login page's own), and a form posted from another origin, or from a
page with none, is refused (:mod:`mjarena.contest.forms`).  Errors are a message (JSON under ``/api/``), never a
traceback.

The handlers live in :mod:`mjarena.contest.handlers`, by area; :data:`ROUTES` is every route in one table (the
console's are :data:`mjarena.contest.admin.ROUTES`), and :func:`create_app` only assembles them over a
:class:`~mjarena.contest.handlers.context.ContestContext`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import python_multipart  # noqa: F401  (uploads need it: fail at start, not at the first upload)
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from mjarena.contest import admin, pages
from mjarena.contest.forms import FormHeaders, failed_logins, origin_of
from mjarena.contest.handlers import api, live_pages, public_pages, sessions, team_pages
from mjarena.contest.handlers.context import ContestContext, Judge
from mjarena.contest.handlers.sessions import SESSION_COOKIE, viewer_name
from mjarena.contest.language import LanguageMiddleware, switch_language
from mjarena.contest.model import Contest
from mjarena.web.app import SecurityHeaders

__all__ = ["ROUTES", "SESSION_COOKIE", "create_app"]

WEB_STATIC = Path(__file__).parent.parent / "web" / "static"
STATIC = Path(__file__).parent / "static"

ROUTES: list[BaseRoute] = [
    # the public's pages
    Route("/", public_pages.index),
    Route("/rounds", public_pages.rounds_page),
    Route("/results", public_pages.results),
    Route("/charts/race", public_pages.race_fragment),
    Route("/teams/{name}", public_pages.team_games),
    Route("/replays/{id}", public_pages.replay_page),
    Route("/live/{id}", live_pages.live_page),
    Route("/tiles/{kind}.svg", public_pages.tile),
    # the language switch (mjarena.contest.language)
    Route("/lang/{tag}", switch_language),
    # login and sessions
    Route("/login", sessions.login_form),
    Route("/login", sessions.login, methods=["POST"]),
    Route("/logout", sessions.logout, methods=["POST"]),
    # the team's pages
    Route("/team", team_pages.team_home),
    Route("/team/upload", team_pages.team_upload, methods=["POST"]),
    Route("/team/questions", team_pages.team_question, methods=["POST"]),
    Route("/team/submissions/{id}/source", team_pages.team_source),
    # the API
    Route("/api/submissions", api.api_submit, methods=["POST"]),
    Route("/api/submissions", api.api_submissions),
    Route("/api/submissions/{id}", api.api_submission),
    Route("/api/submissions/{id}/source", api.api_source),
    Route("/api/standings", api.api_standings),
    Route("/api/games", api.api_games),
    Route("/api/rounds", api.api_rounds),
    Route("/api/announcements", api.api_announcements),
    Route("/api/replays/{id}", api.api_replay),
    Route("/api/games/{id}/turns", api.api_turns),
    Route("/api/live/{id}", live_pages.api_live),
    # the organiser's console (its own table)
    *admin.ROUTES,
    Mount("/static", StaticFiles(directory=WEB_STATIC), name="static"),
    Mount("/contest-static", StaticFiles(directory=STATIC), name="contest-static"),
]
"""Every route of the contest's app: the handlers of :mod:`mjarena.contest.handlers`, by area."""


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_response(request: Request, status: int, message: str, headers: Any = None) -> Response:
    """An error as a message: JSON under ``/api/``, else a page (never a traceback)."""
    if _is_api(request):
        return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers)
    try:
        who = viewer_name(request)
    except Exception:  # the error page must not fail on a broken cookie
        who = None
    return HTMLResponse(pages.error_page(status, message, who), status_code=status, headers=headers)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)  # a Worded one stays translatable
    return error_response(request, exc.status_code, detail, exc.headers)


async def server_error(request: Request, exc: Exception) -> Response:
    import logging

    logging.getLogger("mjarena.contest").error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error_response(request, 500, "the server failed to answer this request (its log has the details)")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Runs the service's ``on_start`` hooks (the builder, the judge, the disk watch), then its ``on_stop``."""
    for hook in app.state.on_start:
        hook()
    yield
    for hook in app.state.on_stop:
        hook()


def create_app(contest: Contest, *, on_submission: Callable[[int], None] | None = None,
               clock: Callable[[], float] = time.time, judge: Judge | None = None,
               public_urls: Sequence[str] = ()) -> Starlette:
    """The contest's app; ``on_submission(id)`` is told of each stored upload (the builder's queue); ``judge``
    plays a game again when the organiser's console asks (:mod:`mjarena.contest.admin`); ``public_urls`` are
    the URLs the browsers reach it at (``--public-url``: the forms' origin check accepts those alone, see
    :mod:`mjarena.contest.forms`; :class:`ValueError` for one that is not an http(s) URL of a site)."""
    public_origins = tuple(dict.fromkeys(origin_of(url) for url in public_urls))
    context = ContestContext(contest, clock=clock, judge=judge, on_submission=on_submission)
    language = Middleware(LanguageMiddleware, default=lambda: contest.settings.language)
    app = Starlette(routes=ROUTES, middleware=[Middleware(FormHeaders), Middleware(SecurityHeaders), language],
                    lifespan=lifespan, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.context = context
    app.state.contest = contest
    app.state.public_origins = public_origins
    app.state.failed_logins = failed_logins()
    app.state.views = context.views
    app.state.on_start = []
    app.state.on_stop = []
    return app

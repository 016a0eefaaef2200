"""Who is asking, and a team's login: a bearer token (the API), else a session cookie (the pages); the login
form, logging in and out.

>>> SESSION_COOKIE, SESSION_SECONDS // 3600
('mjarena_contest', 12)
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.contest import pages
from mjarena.contest.auth import hash_token, new_token
from mjarena.contest.forms import (
    check_csrf,
    check_origin,
    count_wrong_token,
    logged_in_response,
    login_page_response,
    small_form,
    token_of_login,
)
from mjarena.contest.handlers.context import context_of
from mjarena.contest.model import ADMIN
from mjarena.contest.rows import Team
from mjarena.i18n import N_

__all__ = ["SESSION_COOKIE", "SESSION_SECONDS", "bearer", "logged_in", "login", "login_form", "logout", "session",
           "viewer", "viewer_name"]

SESSION_COOKIE = "mjarena_contest"
SESSION_SECONDS = 12 * 3600


def bearer(request: Request) -> Team:
    """The team whose token the request sends (``Authorization: Bearer TOKEN``); 401 without a valid one."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "send the team's token: Authorization: Bearer TOKEN")
    team = context_of(request).contest.authenticate(token.strip())
    if team is None:  # counted as a failed login is (429 beyond 10 a minute from one client)
        count_wrong_token(request)
        raise HTTPException(401, "this token is not valid")
    return team


def session(request: Request) -> tuple[Team, str] | None:
    """The team of the request's session cookie and the session's CSRF token, or None."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    context = context_of(request)
    found = context.db.session(hash_token(cookie), context.clock())
    if found is None:
        return None
    team = next((team for team in context.db.teams() if team.id == found[0]), None)
    return None if team is None else (team, found[1])


def viewer(request: Request) -> Team | None:
    """The team behind the request (a bearer token, else the session), or None; a bad token is 401."""
    if request.headers.get("authorization"):
        return bearer(request)
    found = session(request)
    return found[0] if found else None


def viewer_name(request: Request) -> str | None:
    """The name of the team logged in (by its session), or None."""
    found = session(request)
    return found[0].name if found else None


def logged_in(request: Request) -> tuple[Team, str]:
    """The session's team and CSRF token; 401 without a session."""
    found = session(request)
    if found is None:
        raise HTTPException(401, "log in first: /login")
    return found


async def login_form(request: Request) -> Response:
    return login_page_response(request, pages.login_page)


async def login(request: Request) -> Response:
    context = context_of(request)
    team = await token_of_login(request, context.contest.authenticate)
    if team is None or team.name == ADMIN:
        problem = (N_("That is the organiser's token: the console's login is /admin/login.") if team is not None
                   else N_("That token is not a team's token."))  # the login page says it in the reader's language
        return login_page_response(request, lambda csrf: pages.login_page(csrf, problem), 401)
    cookie, csrf = new_token(), new_token()
    with context.db.transaction() as tx:
        tx.drop_expired_sessions(context.clock())
        tx.add_session(hash_token(cookie), team.id, csrf, context.clock() + SESSION_SECONDS)
    return logged_in_response(request, "/team", (SESSION_COOKIE, cookie), SESSION_SECONDS, "/")


async def logout(request: Request) -> Response:
    check_origin(request)
    _, csrf = logged_in(request)
    form = await small_form(request)
    check_csrf(form, csrf)
    with context_of(request).db.transaction() as tx:
        tx.drop_session(hash_token(request.cookies.get(SESSION_COOKIE, "")))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response

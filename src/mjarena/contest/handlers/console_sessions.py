"""The console's login and what every console handler shares: its session (a cookie of its own, path
``/admin``), a posted form's checks (origin, session, CSRF), the log of the organiser's actions.

>>> ADMIN_COOKIE, ADMIN_SESSION_SECONDS // 3600
('mjarena_admin', 8)
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from mjarena.contest import admin_pages
from mjarena.contest.auth import hash_token, new_token
from mjarena.contest.forms import (
    check_csrf,
    check_origin,
    logged_in_response,
    login_page_response,
    small_form,
    token_of_login,
)
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.model import ADMIN
from mjarena.i18n import N_

__all__ = ["ADMIN_COOKIE", "ADMIN_SESSION_SECONDS", "NO_STORE", "console_session", "html", "logged_in", "login",
           "login_form", "logout", "note", "posted"]

ADMIN_COOKIE = "mjarena_admin"
ADMIN_SESSION_SECONDS = 8 * 3600
NO_STORE = {"cache-control": "no-store"}


def console_session(request: Request) -> str | None:
    """The CSRF token of the request's console session, or None."""
    cookie = request.cookies.get(ADMIN_COOKIE)
    context = context_of(request)
    return context.db.admin_session(hash_token(cookie), context.clock()) if cookie else None


def logged_in(request: Request) -> str:
    """The console session's CSRF token; 401 without a session."""
    csrf = console_session(request)
    if csrf is None:
        raise HTTPException(401, N_("log in to the console first: /admin/login"))
    return csrf


async def posted(request: Request) -> tuple[str, Any]:
    """The console session's CSRF token and the form, after the origin, session and CSRF checks."""
    check_origin(request)
    csrf = logged_in(request)
    form = await small_form(request)
    check_csrf(form, csrf)
    return csrf, form


def note(context: ContestContext, action: str, detail: str) -> None:
    """Write one of the organiser's actions to the ``admin_log`` table."""
    with context.db.transaction() as tx:
        tx.log_admin(context.clock(), action, detail)


def html(text: str, status: int = 200) -> HTMLResponse:
    """A console page (never kept by a cache)."""
    return HTMLResponse(text, status_code=status, headers=NO_STORE)


async def login_form(request: Request) -> Response:
    return login_page_response(request, admin_pages.admin_login_page)


async def login(request: Request) -> Response:
    context = context_of(request)
    found = await token_of_login(request, context.contest.authenticate)
    if found is None or found.name != ADMIN:
        problem = N_("That is not the admin token.")
        return login_page_response(request, lambda csrf: admin_pages.admin_login_page(csrf, problem), 401)
    cookie, csrf = new_token(), new_token()
    with context.db.transaction() as tx:
        tx.drop_expired_sessions(context.clock())
        tx.add_admin_session(hash_token(cookie), csrf, context.clock() + ADMIN_SESSION_SECONDS)
    return logged_in_response(request, "/admin", (ADMIN_COOKIE, cookie), ADMIN_SESSION_SECONDS, "/admin")


async def logout(request: Request) -> Response:
    await posted(request)
    with context_of(request).db.transaction() as tx:
        tx.drop_admin_session(hash_token(request.cookies.get(ADMIN_COOKIE, "")))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(ADMIN_COOKIE, path="/admin")
    return response

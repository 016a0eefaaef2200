"""What every form of the contest's pages goes through: the origin check, the CSRF token, a small body.

A form is accepted only when posted from the contest's own site (an ``Origin`` header naming another host is
refused) and when it carries the session's CSRF token (compared in constant time).

>>> from starlette.exceptions import HTTPException
>>> try:
...     check_csrf({"csrf": "old"}, "new")
... except HTTPException as error:
...     error.status_code
403
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import Message

from mjarena.contest.db import Team
from mjarena.web.app import read_body

__all__ = ["FORM_OVERHEAD", "check_csrf", "check_origin", "logged_in_response", "read_limited", "small_form",
           "token_of_login", "upload_form"]

FORM_OVERHEAD = 64 << 10
"""Bytes a multipart body may carry besides the file (boundaries, headers, the CSRF field); the largest small
form."""


def check_origin(request: Request) -> None:
    """403 when the form was posted from another site (``Origin`` names another host)."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise HTTPException(403, "a form posted from another site")


def check_csrf(form: Mapping[str, Any], expected: str) -> None:
    """403 unless the form's ``csrf`` field is ``expected``."""
    given = form.get("csrf")
    if not isinstance(given, str) or not hmac.compare_digest(given, expected):
        raise HTTPException(403, "the form is out of date: reload the page and try again")


async def read_limited(request: Request, limit: int) -> bytes:
    """The body, or 413 as soon as it (or its declared length) passes ``limit`` bytes; 408 when it takes longer
    than :data:`mjarena.web.app.BODY_SECONDS` to arrive (a visitor sending a byte a minute holds nothing long)."""
    return await read_body(request, limit, what="upload")


async def _parsed(request: Request, body: bytes, *, max_files: int, max_fields: int, malformed: str) -> Any:
    """The form in ``body`` (the request's body, read already), with at most ``max_files`` files and
    ``max_fields`` fields; 400 saying ``malformed`` and why when it is not one."""
    parts = iter([body])

    async def receive() -> Message:
        return {"type": "http.request", "body": next(parts, b""), "more_body": False}

    try:
        return await Request(request.scope, receive).form(max_files=max_files, max_fields=max_fields)
    except (MultiPartException, AssertionError, ValueError) as error:
        raise HTTPException(400, f"{malformed} ({error})") from None


async def small_form(request: Request, *, max_fields: int = 8) -> Any:
    """A small form (login, logout, the console's buttons): at most :data:`FORM_OVERHEAD` bytes, urlencoded or
    multipart, no file; 400 if malformed."""
    body = await read_limited(request, FORM_OVERHEAD)
    return await _parsed(request, body, max_files=0, max_fields=max_fields, malformed="a malformed form")


async def upload_form(request: Request, body: bytes) -> Any:
    """The form of an upload whose ``body`` was read already (:func:`read_limited`, with the upload's own limit):
    multipart/form-data with one file; 400 if it is not one."""
    if "multipart/form-data" not in request.headers.get("content-type", ""):
        raise HTTPException(400, "send the file as multipart/form-data")
    return await _parsed(request, body, max_files=1, max_fields=8,
                         malformed="a malformed multipart/form-data body")


async def token_of_login(request: Request, authenticate: Callable[[str], Team | None]) -> Team | None:
    """Who the ``token`` field of a login form names (:meth:`mjarena.contest.model.Contest.authenticate`: a team,
    or the organiser), after the origin check; None for a missing or unknown token."""
    check_origin(request)
    form = await small_form(request)
    token = form.get("token")
    return authenticate(token.strip()) if isinstance(token, str) and token.strip() else None


def logged_in_response(request: Request, location: str, cookie: tuple[str, str], seconds: float,
                       path: str) -> Response:
    """The answer to a login: a redirect to ``location`` that sets the session ``cookie`` (name, value) for
    ``seconds`` under ``path``: HttpOnly, SameSite=Strict, Secure when served over HTTPS."""
    response = RedirectResponse(location, status_code=303)
    response.set_cookie(cookie[0], cookie[1], max_age=int(seconds), httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", path=path)
    return response

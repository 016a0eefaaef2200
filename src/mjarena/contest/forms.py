"""What every form of the contest's pages goes through: the origin check, the CSRF token, a small body.

A form is accepted only when posted from the contest's own site and when it carries its CSRF token (compared in
constant time): the session's for a logged-in form, and for the two logins (a team's, the console's) a
pre-session token that the login page sets as a cookie (:data:`LOGIN_COOKIE`: HttpOnly, SameSite=Strict) and
puts in the form, so that a foreign page cannot log a visitor in as its own team (login CSRF).

The origin check (:func:`check_origin`) refuses a form whose ``Sec-Fetch-Site`` (sent by current browsers) is not
``same-origin`` (or ``none``: typed by the user), whose ``Origin`` is ``null`` (what Chromium sends from a page
with ``<meta name=referrer content=no-referrer>``, or from a sandboxed frame), or whose ``Origin`` is not the
site's own.  The site's own origins are those given with ``mjarena contest serve --public-url`` (a reverse proxy
that rewrites ``Host`` then changes nothing), else the request's ``Host``.  A client that sends neither header (a
script, ``curl``) is left to the CSRF token.  The contest's pages are served with ``Referrer-Policy: same-origin``
(:class:`FormHeaders`), not the web app's ``no-referrer``, under which Chromium sends ``Origin: null`` from the
site's own forms too; and with ``form-action 'self'`` and ``base-uri 'none'`` in their CSP.

>>> from starlette.exceptions import HTTPException
>>> try:
...     check_csrf({"csrf": "old"}, "new")
... except HTTPException as error:
...     error.status_code
403
>>> origin_of("https://Contest.Example.org:443/"), origin_of("http://127.0.0.1:8000")
('https://contest.example.org', 'http://127.0.0.1:8000')
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mjarena.contest.auth import TOKEN_PREFIX, RateLimiter, new_token
from mjarena.contest.rows import Team
from mjarena.i18n import N_, worded
from mjarena.web.app import client_key, read_body

__all__ = ["FAILED_LOGINS_PER_MINUTE", "FORM_OVERHEAD", "LOGIN_COOKIE", "FormHeaders", "check_csrf", "check_origin",
           "count_wrong_token", "failed_logins", "logged_in_response", "login_page_response", "origin_of",
           "read_limited", "small_form", "token_of_login", "upload_form"]

FORM_OVERHEAD = 64 << 10
"""Bytes a multipart body may carry besides the file (boundaries, headers, the CSRF field); the largest small
form."""


LOGIN_COOKIE = "mjarena_login"
"""The pre-session cookie of the login forms: a random token that the login form must carry too."""
LOGIN_COOKIE_SECONDS = 12 * 3600
FAILED_LOGINS_PER_MINUTE = 10
"""Wrong tokens (a login form's, or an API request's ``Authorization: Bearer``) one client may send in a minute,
a client being an IPv4 address or an IPv6 /64 (:func:`mjarena.web.app.client_key`); beyond them a wrong token
gets 429.  A right token is checked first and always logs in, and is never counted: a class behind one address
logs in freely, whatever a guesser beside it does."""
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str:
    """The origin (``scheme://host[:port]``, lower case, the scheme's default port left out) of a public URL as
    ``--public-url`` gives it; :class:`ValueError` saying what is wrong when it is not an http(s) URL of a site.

    >>> origin_of("contest.example.org")
    Traceback (most recent call last):
    ...
    ValueError: --public-url contest.example.org: give the URL the browsers use, e.g. https://contest.example.org
    """
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname or port == -1 or parts.username \
            or parts.password or parts.query or parts.fragment or parts.path not in ("", "/"):
        raise ValueError(f"--public-url {url}: give the URL the browsers use, e.g. https://contest.example.org")
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + ("" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}")


class FormHeaders:
    """Outside :class:`mjarena.web.app.SecurityHeaders`: ``Referrer-Policy: same-origin`` in place of its
    ``no-referrer`` (so that the site's own forms are posted with their origin, and other sites still get no
    referrer), and ``form-action 'self'; base-uri 'none'`` added to its CSP."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = []
                for name, value in message.get("headers", []):
                    if name.lower() == b"referrer-policy":
                        value = b"same-origin"
                    elif name.lower() == b"content-security-policy":
                        value += b"; form-action 'self'; base-uri 'none'"
                    headers.append((name, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)


def _own_origins(request: Request) -> tuple[str, ...] | None:
    """The origins given with ``--public-url`` (the app's ``state.public_origins``), or None."""
    app = request.scope.get("app")
    found = getattr(getattr(app, "state", None), "public_origins", None)
    return tuple(found) if found else None


def check_origin(request: Request) -> None:
    """403 unless the form was posted from the site itself (see the module's docstring)."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        raise HTTPException(403, f"a form posted from another site (Sec-Fetch-Site: {fetch_site[:20]})")
    origin = request.headers.get("origin")
    if origin is None:
        return
    if origin == "null":
        raise HTTPException(403, "a form posted from a page without an origin (Origin: null): post it from the "
                            "contest's own page")
    own = _own_origins(request)
    if own is not None:
        if origin.lower().rstrip("/") not in own:
            raise HTTPException(403, f"a form posted from another site: this contest is served at "
                                f"{', '.join(own)} (mjarena contest serve --public-url)")
    elif origin.split("://", 1)[-1].lower() != request.headers.get("host", "").lower():
        raise HTTPException(403, "a form posted from another site (behind a reverse proxy that changes Host, "
                            "serve with --public-url)")


def check_csrf(form: Mapping[str, Any], expected: str) -> None:
    """403 unless the form's ``csrf`` field is ``expected``."""
    given = form.get("csrf")
    if not isinstance(given, str) or not hmac.compare_digest(given, expected):
        raise HTTPException(403, worded(N_("the form is out of date: reload the page and try again")))


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


def _login_cookie(request: Request) -> str | None:
    """The request's pre-session token, when it looks like one of ours."""
    value = request.cookies.get(LOGIN_COOKIE, "")
    return value if value.startswith(TOKEN_PREFIX) and 40 <= len(value) <= 64 else None


def _secure(request: Request) -> bool:
    """Whether cookies get ``Secure``: served over HTTPS, or every ``--public-url`` is HTTPS."""
    own = _own_origins(request)
    return request.url.scheme == "https" or (own is not None and all(o.startswith("https:") for o in own))


def login_page_response(request: Request, render: Callable[[str], str], status: int = 200) -> Response:
    """A login page, ``render(csrf)``, with the pre-session token in its form and in :data:`LOGIN_COOKIE` (the
    request's own token again when it has one, so two open tabs both work)."""
    csrf = _login_cookie(request) or new_token()
    response = HTMLResponse(render(csrf), status_code=status, headers={"cache-control": "no-store"})
    response.set_cookie(LOGIN_COOKIE, csrf, max_age=LOGIN_COOKIE_SECONDS, httponly=True, samesite="strict",
                        secure=_secure(request), path="/")
    return response


def failed_logins() -> RateLimiter:
    """A count of wrong tokens per client (the app keeps one as ``state.failed_logins``, for both logins and the
    API's bearer tokens)."""
    return RateLimiter(FAILED_LOGINS_PER_MINUTE, 60.0)


def count_wrong_token(request: Request) -> None:
    """Count a wrong token sent by the request's client (:func:`mjarena.web.app.client_key`: an IPv4 address, an
    IPv6 /64; behind a trusted proxy, the address it forwards); 429 with ``Retry-After`` when the client sent
    :data:`FAILED_LOGINS_PER_MINUTE` of them in the last minute (the refused one is not counted)."""
    client = client_key(request)
    failed: RateLimiter = request.scope["app"].state.failed_logins
    now = time.time()
    if not failed.allow(client, now=now):
        seconds = max(1, round(failed.retry_after(client, now=now)))
        raise HTTPException(429, f"too many failed logins from your address: at most {failed.count} wrong tokens "
                            f"a minute; try again in {seconds} s", headers={"retry-after": str(seconds)})


async def token_of_login(request: Request, authenticate: Callable[[str], Team | None]) -> Team | None:
    """Who the ``token`` field of a login form names (:meth:`mjarena.contest.model.Contest.authenticate`: a team,
    or the organiser), after the origin check and the check of the pre-session token (the form's ``csrf`` is the
    :data:`LOGIN_COOKIE` that its page set: 403 otherwise); None for a missing or unknown token.  The token is
    checked first: a right one always logs in; a wrong one is counted (:func:`count_wrong_token`: 429 beyond
    :data:`FAILED_LOGINS_PER_MINUTE` a minute from one client)."""
    check_origin(request)
    form = await small_form(request)
    expected = _login_cookie(request)
    if expected is None:
        raise HTTPException(403, worded(N_("log in from the login page (it sets a cookie this form needs: allow "
                                           "cookies for this site, reload the page and try again)")))
    check_csrf(form, expected)
    token = form.get("token")
    found = authenticate(token.strip()) if isinstance(token, str) and token.strip() else None
    if found is None:
        count_wrong_token(request)
    return found


def logged_in_response(request: Request, location: str, cookie: tuple[str, str], seconds: float,
                       path: str) -> Response:
    """The answer to a login: a redirect to ``location`` that sets the session ``cookie`` (name, value) for
    ``seconds`` under ``path``: HttpOnly, SameSite=Strict, Secure when served over HTTPS."""
    response = RedirectResponse(location, status_code=303)
    response.set_cookie(cookie[0], cookie[1], max_age=int(seconds), httponly=True, samesite="strict",
                        secure=_secure(request), path=path)
    return response

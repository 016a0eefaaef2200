"""The pages in the visitor's language, for both web apps (the contest's and ``mjarena serve``): a middleware that
picks it for each request, the switch that keeps a choice in the ``lang`` cookie, and the switch's links.

The language is picked as :func:`mjarena.i18n.negotiate` says (the cookie, then ``Accept-Language``, then the
app's default: the contest's ``--language``, English for ``mjarena serve``) and made the active one while the
request is answered, so the pages' ``_()`` (:func:`mjarena.i18n.gettext`) and :func:`mjarena.verdicts.render` write
in it.  Responses say ``Content-Language`` and ``Vary: Accept-Language, Cookie`` (a cache keeps one copy per
language).

>>> safe_next("/teams/ada?x=1"), safe_next("//evil.example/"), safe_next("https://evil.example/"), safe_next(None)
('/teams/ada?x=1', '/', '/', '/')
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from http.cookies import CookieError, SimpleCookie
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mjarena.i18n import COOKIE, LOCALES, activated, html_lang, locale_of, negotiate

__all__ = ["LanguageMiddleware", "language_links", "safe_next", "switch_language"]

COOKIE_SECONDS = 365 * 24 * 3600


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _cookie(scope: Scope) -> str | None:
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    try:
        jar = SimpleCookie(raw)
    except CookieError:
        return None
    return jar[COOKIE].value if COOKIE in jar else None


class LanguageMiddleware:
    """Answers each HTTP request in its visitor's language; ``default`` gives the app's (read per request, so a
    contest's setting is followed as it stands)."""

    def __init__(self, app: ASGIApp, default: Callable[[], str] | str = "en") -> None:
        self.app = app
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        default = self.default() if callable(self.default) else self.default
        locale = negotiate(_cookie(scope), _header(scope, b"accept-language"), default)
        scope.setdefault("state", {})["locale"] = locale

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(name, value) for name, value in message.get("headers", [])
                           if name.lower() not in (b"content-language", b"vary")]
                vary = [value for name, value in message.get("headers", []) if name.lower() == b"vary"]
                headers.append((b"content-language", html_lang(locale).encode()))
                headers.append((b"vary", b", ".join([*vary, b"Accept-Language, Cookie"])))
                message["headers"] = headers
            await send(message)

        with activated(locale):
            await self.app(scope, receive, send_with_language)


def safe_next(target: str | None) -> str:
    """Where the switch goes back to: a path of this site, never another site's address."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _referring_path(request: Request) -> str | None:
    """The path (and query) of the page of this site the visitor came from (its ``Referer``), or None."""
    from urllib.parse import urlsplit

    referer = urlsplit(request.headers.get("referer", ""))
    if not referer.path or referer.netloc != request.headers.get("host", ""):
        return None
    return referer.path + (f"?{referer.query}" if referer.query else "")


async def switch_language(request: Request) -> Response:
    """``GET /lang/{tag}?next=PATH``: keep the language in the ``lang`` cookie and go back to ``PATH`` (without
    one: to the page of the site the visitor came from, else the standings)."""
    chosen = locale_of(request.path_params.get("tag"))
    target = request.query_params.get("next") or _referring_path(request)
    response = RedirectResponse(safe_next(target), status_code=303)
    if chosen is not None:
        response.set_cookie(COOKIE, html_lang(chosen), max_age=COOKIE_SECONDS, samesite="lax", httponly=True)
    return response


def language_links(current: str, path: str | None = None) -> str:
    """The switch: a link to each language, in its own name, back to ``path`` (None: to the page it is on, read
    from the ``Referer`` the site's own links send); the current one marked.

    >>> language_links("zh_CN", "/rounds")  # doctest: +NORMALIZE_WHITESPACE
    '<span class="languages"><a href="/lang/en?next=/rounds" hreflang="en" lang="en">English</a>
     <a href="/lang/zh-CN?next=/rounds" hreflang="zh-CN" lang="zh-CN" aria-current="true">简体中文</a></span>'
    """
    links = []
    for locale, name in LOCALES.items():
        tag = html_lang(locale)
        mark = ' aria-current="true"' if locale == current else ""
        back = "" if path is None else f'?next={escape(quote(safe_next(path), safe="/?=&"))}'
        links.append(f'<a href="/lang/{tag}{back}" hreflang="{tag}" lang="{tag}"{mark}>{escape(name)}</a>')
    return f'<span class="languages">{" ".join(links)}</span>'

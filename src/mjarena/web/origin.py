"""Cross-site requests refused: a POST (or any request that is not GET, HEAD or OPTIONS) must come from the
server's own pages, and a body must be of exactly the media type the route reads.

A page on another site can make a visitor's browser send a form (``text/plain``, ``multipart/form-data``,
``application/x-www-form-urlencoded``) to any address, with the visitor's cookies and from the visitor's address,
so past every per-address cap.  Browsers say where such a request comes from: ``Sec-Fetch-Site`` (``cross-site``,
``same-site``, ``same-origin`` or ``none`` for one the person typed) and ``Origin``.  :class:`SameOrigin` refuses,
with 403, a request whose ``Sec-Fetch-Site`` is neither ``same-origin`` nor ``none``, or whose ``Origin`` is not
the host it was sent to (``null`` included).  A request with neither header (curl, a script) is no browser's, and
passes.  The contest server can wrap its app the same way.

>>> media_type("Application/JSON; charset=UTF-8"), media_type("text/plain; charset=application/json")
('application/json', 'text/plain')
>>> cross_site("POST", {"sec-fetch-site": "cross-site"}, "example.org")
'a request from another site (Sec-Fetch-Site: cross-site)'
>>> cross_site("POST", {"origin": "http://example.org:8000"}, "example.org:8000") is None
True
>>> cross_site("POST", {"origin": "http://evil.test"}, "example.org:8000")
'a request from another site (Origin: http://evil.test)'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["SAFE_METHODS", "SameOrigin", "cross_site", "media_type"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, so are never refused as cross-site."""
_SAME = frozenset({"same-origin", "none"})


def media_type(content_type: str | None) -> str:
    """The media type of a ``Content-Type`` header, lower case, without its parameters ('' if none).  Compare it
    whole: ``"application/json" in header`` takes ``text/plain; charset=application/json``, which a form on
    another site may send."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def cross_site(method: str, headers: Mapping[str, str], host: str) -> str | None:
    """Why a request with ``method`` and ``headers`` (lower-case names), sent to ``host`` (its ``Host`` header),
    comes from another site; None if it does not, or is a safe method."""
    if method.upper() in SAFE_METHODS:
        return None
    site = headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in _SAME:
        return f"a request from another site (Sec-Fetch-Site: {site[:40]})"
    origin = headers.get("origin")
    if origin is not None:
        try:
            netloc = urlsplit(origin.strip()).netloc.lower() if origin.strip() != "null" else ""
        except ValueError:
            netloc = ""
        if not netloc or netloc != host.strip().lower():
            return f"a request from another site (Origin: {origin[:80]})"
    return None


class SameOrigin:
    """ASGI middleware: :func:`cross_site` requests answered 403 (JSON under ``/api/``, text elsewhere) before
    the app reads a byte of their body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers: dict[str, str] = {}
            for name, value in scope.get("headers", ()):
                headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
            reason = cross_site(scope["method"], headers, headers.get("host", ""))
            if reason is not None:
                await _refuse(scope, send, f"refused: {reason}; use this server's own pages")
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, message: str) -> None:
    if str(scope.get("path", "")).startswith("/api/"):
        body, kind = json.dumps({"error": message, "status": 403}).encode(), b"application/json"
    else:
        body, kind = (message + "\n").encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})

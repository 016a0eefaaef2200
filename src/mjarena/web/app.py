"""The Starlette application: replays, tournaments and play, under one folder.

Routes: ``/`` (the replays and tournaments under the folder, and an upload form), ``/replays/<name>``,
``/tournaments/<name>``, ``/play`` and ``/play/<id>``, ``/lang/<tag>`` (the language switch); the pages read JSON
from ``/api/...``.  Each request is answered in its visitor's language (:mod:`mjarena.web.language`: the ``lang``
cookie, then ``Accept-Language``, else English).  Bad requests
get a 4xx with a message (JSON under ``/api/``, a page elsewhere), never a traceback.

The handlers live in :mod:`mjarena.web.handlers`, by area; :data:`ROUTES` is every route in one table, and
:func:`create_app` only assembles them over a :class:`~mjarena.web.handlers.context.ServeContext`.

>>> from starlette.testclient import TestClient
>>> import tempfile
>>> client = TestClient(create_app(tempfile.mkdtemp()))
>>> client.get("/").status_code, client.get("/replays/..%2F..%2Fetc%2Fpasswd").status_code
(200, 404)
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import python_multipart  # noqa: F401  (uploads need it: fail at start, not at the first upload)
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mjarena.i18n import DEFAULT, active, translated
from mjarena.web import pages
from mjarena.web.handlers import library_pages, play_pages, tournament_pages
from mjarena.web.handlers.common import BODY_SECONDS, MAX_JSON, client_key, json_response, read_body, wants_json
from mjarena.web.handlers.context import VIEW_BUILDS, ServeContext
from mjarena.web.handlers.library_pages import FORM_COOKIE
from mjarena.web.language import LanguageMiddleware, switch_language
from mjarena.web.library import (
    PLAYED_FILES,
    PLAYED_TOTAL,
    SHARE,
    UPLOAD_FILES,
    UPLOAD_RATE,
    UPLOAD_TOTAL,
    Library,
)
from mjarena.web.origin import SameOrigin
from mjarena.web.play import PlayError
from mjarena.web.play_room import MAX_SESSIONS, PER_CLIENT, PlayRoom

__all__ = ["BODY_SECONDS", "FORM_COOKIE", "MAX_JSON", "MAX_UPLOAD", "ROUTES", "VIEW_BUILDS", "SecurityHeaders",
           "client_key", "create_app", "json_response", "read_body"]

MAX_UPLOAD = 5 << 20
"""Uploads larger than this (bytes) are refused with 413."""
STATIC = Path(__file__).parent / "static"
_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"),
]


class SecurityHeaders:
    """Adds :data:`_HEADERS` to every response: own files only, no framing, no type sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)


ROUTES: list[BaseRoute] = [
    # the library: the index, uploads, replays, the tiles
    Route("/", library_pages.index),
    Route("/replays/{name:path}", library_pages.replay_page),
    Route("/api/replays/{name:path}", library_pages.replay_data),
    Route("/upload", library_pages.upload, methods=["POST"]),
    Route("/tiles/{kind}.svg", library_pages.tile),
    Route("/lang/{tag}", switch_language),  # the language switch: kept in a cookie (mjarena.web.language)
    # tournaments
    Route("/tournaments/{name:path}", tournament_pages.tournament_page),
    Route("/api/tournaments/{name:path}", tournament_pages.tournament_data),
    # games against bots
    Route("/play", play_pages.play_page),
    Route("/play/{id}", play_pages.game_page),
    Route("/api/play", play_pages.play_options),
    Route("/api/play", play_pages.play_start, methods=["POST"]),
    Route("/api/play/{id}", play_pages.game_state),
    Route("/api/play/{id}", play_pages.game_move, methods=["POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
"""Every route of ``mjarena serve``: the handlers of :mod:`mjarena.web.handlers`, by area."""


def _error(request: Request, status: int, message: str) -> Response:
    """The error as a page, or as JSON: ``error`` in English (what the API's clients read), and where the reader's
    language is another, ``error_text`` in it (what the pages' scripts show: ``MJ.json``)."""
    if wants_json(request):
        words = {} if active() == DEFAULT else {"error_text": translated(message)}
        return JSONResponse({"error": message, "status": status, **words}, status_code=status)
    return HTMLResponse(pages.error_page(status, message), status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(request, exc.status_code, exc.detail if isinstance(exc.detail, str) else str(exc.detail))


async def play_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PlayError)
    return _error(request, exc.status, exc.message)


async def server_error(request: Request, exc: Exception) -> Response:
    return _error(request, 500, "the server failed to answer this request (its log has the details)")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Reads the library's index at start; closes the room of games against bots at the end."""
    import threading

    context: ServeContext = app.state.context
    # the index read once, at start, beside the server: a request that comes first waits for it
    threading.Thread(target=context.library.index.refresh, name="mjarena-index", daemon=True).start()
    yield
    context.room.close()


def create_app(root: str | Path, bots: Sequence[str] = (), *, max_upload: int = MAX_UPLOAD,
               max_sessions: int = MAX_SESSIONS, sessions_per_client: int = PER_CLIENT,
               upload_total: int = UPLOAD_TOTAL, upload_files: int = UPLOAD_FILES,
               upload_rate: tuple[int, float] = UPLOAD_RATE, played_total: int = PLAYED_TOTAL,
               played_files: int = PLAYED_FILES, share: float = SHARE) -> Starlette:
    """The web app serving the replays and tournaments under ``root``; ``bots``: command lines a player may
    choose as opponents (besides the built-in bots), offered by their labels; ``max_upload`` bytes per upload,
    ``upload_total`` bytes and ``upload_files`` files in all, ``upload_rate`` (uploads, seconds) per client; games
    played kept within ``played_total`` bytes and ``played_files`` files (the oldest removed); a client may hold
    ``share`` of the uploads and of the games played; games
    against bots: at most ``max_sessions`` at once, ``sessions_per_client`` of them for one client."""
    library = Library(root, upload_total=upload_total, upload_files=upload_files, upload_rate=upload_rate,
                      played_total=played_total, played_files=played_files, share=share)
    room = PlayRoom(library.root, bots, limit=max_sessions, per_client=sessions_per_client, keep=library.save_played)
    app = Starlette(
        routes=ROUTES, middleware=[Middleware(SecurityHeaders), Middleware(SameOrigin), Middleware(LanguageMiddleware)],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, PlayError: play_error, Exception: server_error},
    )
    app.state.context = ServeContext(library, room, max_upload)
    app.state.library, app.state.room = library, room
    return app

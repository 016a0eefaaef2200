"""The Starlette application: replays, tournaments and play, under one folder.

Routes: ``/`` (the replays and tournaments under the folder, and an upload form), ``/replays/<name>``,
``/tournaments/<name>``, ``/play`` and ``/play/<id>``; the pages read JSON from ``/api/...``.  Bad requests
get a 4xx with a message (JSON under ``/api/``, a page elsewhere), never a traceback.

>>> from starlette.testclient import TestClient
>>> import tempfile
>>> client = TestClient(create_app(tempfile.mkdtemp()))
>>> client.get("/").status_code, client.get("/replays/..%2F..%2Fetc%2Fpasswd").status_code
(200, 404)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, overload

import python_multipart  # noqa: F401  (uploads need it: fail at start, not at the first upload)
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mjarena.untrusted import number as ascii_number
from mjarena.web import pages
from mjarena.web.library import (
    PAGE_SIZE,
    PLAYED_FILES,
    PLAYED_TOTAL,
    SHARE,
    UPLOAD_FILES,
    UPLOAD_RATE,
    UPLOAD_TOTAL,
    Library,
    NotFound,
    QuotaError,
    UploadError,
)
from mjarena.web.origin import SameOrigin, media_type
from mjarena.web.play import WAIT_SECONDS, PlayError
from mjarena.web.play_room import MAX_SESSIONS, PER_CLIENT, PlayRoom
from mjarena.web.server import BODY_SECONDS, client_of
from mjarena.web.tiles import BACK, KINDS, tile_svg

__all__ = ["BODY_SECONDS", "FORM_COOKIE", "MAX_JSON", "MAX_UPLOAD", "VIEW_BUILDS", "SecurityHeaders", "client_key",
           "create_app", "json_response", "read_body"]

MAX_UPLOAD = 5 << 20
"""Uploads larger than this (bytes) are refused with 413."""
VIEW_BUILDS = 2
"""Replay views read or built at once (each takes up to some 30 MB while it is built); more requests wait their
turn on the event loop, holding no thread."""
MAX_JSON = 64 << 10
"""JSON request bodies larger than this are refused with 413."""
FORM_COOKIE = "mjarena_form"
"""The cookie holding the upload form's token (the form carries it again: a page on another site cannot)."""
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


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


def _error(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return HTMLResponse(pages.error_page(status, message), status_code=status)


async def read_body(request: Request, limit: int, seconds: float = BODY_SECONDS, *, what: str = "request") -> bytes:
    """The request body; 413 as soon as it (or its declared length) is longer than ``limit`` bytes (the message
    calls it ``what``), 408 if it takes over ``seconds`` to arrive.  For both servers' apps."""
    declared = request.headers.get("content-length")
    too_large = f"the {what} is larger than the limit of {limit // 1024} KiB"
    if (ascii_number(declared) or 0) > limit:
        raise HTTPException(413, too_large)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HTTPException(413, too_large)
                chunks.append(chunk)
    except (TimeoutError, ClientDisconnect):  # a disconnect: the server cut a slow body (TimelyH11), or it left
        raise HTTPException(408, f"the request body did not arrive within {seconds:g} seconds") from None
    return b"".join(chunks)


def client_key(request: Request) -> str:
    """The client a request counts against: :func:`mjarena.web.server.client_of` its address (an IPv6 /64 is
    one client), as the server's connection caps count them."""
    return client_of((request.client.host, request.client.port) if request.client else "")


async def json_response(content: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``content`` as a JSON response, encoded in a worker thread: a large answer never stalls the event loop."""
    body = await run_in_threadpool(lambda: json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode())
    return Response(body, status_code=status, media_type="application/json", headers=headers)


async def _json_body(request: Request) -> dict[str, Any]:
    """A JSON object from the request; 415, 413 or 400 saying what is wrong."""
    if media_type(request.headers.get("content-type")) != "application/json":
        raise HTTPException(415, "send JSON (Content-Type: application/json)")
    raw = await read_body(request, MAX_JSON)
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HTTPException(400, f"malformed JSON: {error}") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "send a JSON object")
    return data


@overload
def _whole(data: dict[str, Any], key: str) -> int: ...


@overload
def _whole(data: dict[str, Any], key: str, *, required: bool) -> int | None: ...


def _whole(data: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    """``data[key]``, a whole number (or None when it is not ``required`` and missing); a 400 otherwise."""
    value = data.get(key)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise HTTPException(400, f'"{key}" must be a whole number, not {value!r}')
    return value


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
    view_builds = asyncio.Semaphore(VIEW_BUILDS)

    async def index(request: Request) -> Response:
        number = request.query_params.get("page", "1")
        if not 0 < (ascii_number(number) or 0) < 1_000_000:
            raise HTTPException(400, '"page" must be a page number, such as 2')
        replays, tournaments = await run_in_threadpool(lambda: (library.replays(), library.tournaments()))
        token = request.cookies.get(FORM_COOKIE, "")
        if not (len(token) == 43 and token.isascii() and token.replace("-", "").replace("_", "").isalnum()):
            token = secrets.token_urlsafe(32)
        response = HTMLResponse(pages.index_page(replays, tournaments, max_upload, int(number), PAGE_SIZE,
                                                 token=token))
        response.set_cookie(FORM_COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    async def replay_page(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            library.resolve(name)
        except NotFound as error:
            raise HTTPException(404, str(error)) from None
        return HTMLResponse(pages.replay_page(name))

    async def replay_data(request: Request) -> Response:
        try:
            async with view_builds:
                view = await run_in_threadpool(library.view, request.path_params["name"])
        except NotFound as error:
            raise HTTPException(404, str(error)) from None
        except UploadError as error:
            raise HTTPException(422, str(error)) from None
        return Response(view, media_type="application/json")

    async def upload(request: Request) -> Response:
        from starlette.datastructures import UploadFile
        from starlette.formparsers import MultiPartException

        if media_type(request.headers.get("content-type")) != "multipart/form-data":
            raise HTTPException(400, "send the replay as multipart/form-data with a 'file' field (the form on /)")
        raw = await read_body(request, max_upload + (64 << 10))
        body = iter([raw])

        async def replay_receive() -> Message:
            return {"type": "http.request", "body": next(body, b""), "more_body": False}

        try:
            form = await Request(request.scope, replay_receive).form(max_files=1, max_fields=4)
        except (MultiPartException, AssertionError) as error:
            raise HTTPException(400, f"send the replay as multipart/form-data with a 'file' field ({error})") from None
        token, cookie = form.get("token"), request.cookies.get(FORM_COOKIE)
        if not (isinstance(token, str) and cookie and secrets.compare_digest(token.encode(), cookie.encode())):
            raise HTTPException(403, "the upload form's token is missing or stale: upload from the form on /")
        file = form.get("file")
        if not isinstance(file, UploadFile):
            raise HTTPException(400, "no file: send the replay in the form field 'file'")
        content = await file.read(max_upload + 1)
        if len(content) > max_upload:
            raise HTTPException(413, f"the file is larger than the limit of {max_upload // 1024} KiB")
        try:
            async with view_builds:  # an upload's view is built (once) as it is checked
                name = await run_in_threadpool(library.save_upload, content, client_key(request))
        except QuotaError as error:
            raise HTTPException(error.status, str(error)) from None
        except UploadError as error:
            raise HTTPException(400, f"{str(file.filename)[:80]}: {error}") from None
        except OSError as error:
            raise HTTPException(403, f"the server cannot keep uploads here: {error.strerror or error}") from None
        url = "/replays/" + name
        if _wants_json(request):
            return JSONResponse({"name": name, "url": url}, status_code=201)
        return RedirectResponse(url, status_code=303)

    async def tournament_page(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            await run_in_threadpool(library.tournament, name)
        except NotFound as error:
            raise HTTPException(404, str(error)) from None
        except UploadError:
            pass  # the page shows the reason from the API
        return HTMLResponse(pages.tournament_page(name))

    charts: dict[str, tuple[Any, dict[str, str]]] = {}  # tournament -> (its games so far, their rating chart)

    def tournament_with_chart(name: str) -> dict[str, Any]:
        """The tournament's state with ``rating_chart`` (:func:`~mjarena.web.tournament_stats.rating_chart`),
        drawn again only when games were added."""
        from mjarena.web.tournament_stats import rating_chart

        state = library.tournament(name)
        key = (state["played"], state["games"][-1]["game"] if state["games"] else None,
               [row["bot"] for row in state["standings"]])
        cached = charts.get(name)
        if cached is None or cached[0] != key:
            cached = charts[name] = (key, rating_chart(state["standings"], state["ratings_by_round"]))
        return {**state, "rating_chart": cached[1]}

    async def tournament_data(request: Request) -> Response:
        try:
            state = await run_in_threadpool(tournament_with_chart, request.path_params["name"])
        except NotFound as error:
            raise HTTPException(404, str(error)) from None
        except UploadError as error:
            raise HTTPException(422, str(error)) from None
        return await json_response(state, headers={"cache-control": "no-store"})

    async def play_page(request: Request) -> Response:
        return HTMLResponse(pages.play_page())

    async def play_options(request: Request) -> Response:
        from mjarena.rulesets import RULE_SETS
        from mjarena.variants import get_variant

        rules = [{"name": name, "title": get_variant(name).title, "opponents": room.opponents(name)}
                 for name in RULE_SETS]
        return JSONResponse({"rules": rules})

    async def play_start(request: Request) -> Response:
        data = await _json_body(request)
        rules, opponents = data.get("rules"), data.get("opponents")
        if not isinstance(rules, str):
            raise HTTPException(400, '"rules" must name a rule set, such as "noi2014"')
        if not (isinstance(opponents, list) and all(isinstance(spec, str) for spec in opponents)):
            raise HTTPException(400, '"opponents" must be a list of three bot names')
        seat, seed = _whole(data, "seat"), _whole(data, "seed", required=False)
        session = await run_in_threadpool(room.create, rules, seat, opponents, seed, client_key(request))
        return JSONResponse({"id": session.id, "url": f"/play/{session.id}"}, status_code=201)

    async def game_page(request: Request) -> Response:
        room.get(request.path_params["id"])
        return HTMLResponse(pages.game_page(request.path_params["id"]))

    async def game_state(request: Request) -> Response:
        session = room.get(request.path_params["id"])
        try:
            wait = float(request.query_params.get("wait", "0"))
        except ValueError:
            raise HTTPException(400, '"wait" must be a number of seconds') from None
        if not 0 <= wait <= WAIT_SECONDS:
            raise HTTPException(400, f'"wait" must be between 0 and {WAIT_SECONDS:g} seconds')
        return JSONResponse(await session.next_view(wait), headers={"cache-control": "no-store"})

    async def game_move(request: Request) -> Response:
        session = room.get(request.path_params["id"])
        data = await _json_body(request)
        version = _whole(data, "version")
        choice = _whole(data, "choice", required=False)
        action = data.get("action")
        if choice is None and not isinstance(action, dict):
            raise HTTPException(400, 'send "choice" (the number of a legal choice) or "action" (an object)')
        session.submit(version, choice, None if choice is not None else action, timeout=0)
        return JSONResponse(await session.next_view(WAIT_SECONDS))

    async def tile(request: Request) -> Response:
        name = request.path_params["kind"]
        kind = BACK if name == "back" else ascii_number(name, digits=2)
        if kind is None or (kind != BACK and kind not in KINDS):
            raise HTTPException(404, f"no tile picture {name!r}")
        return Response(tile_svg(kind), media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400"})

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(request, exc.status_code, str(exc.detail))

    async def play_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PlayError)
        return _error(request, exc.status, exc.message)

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(request, 500, "the server failed to answer this request (its log has the details)")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import threading

        # the index read once, at start, beside the server: a request that comes first waits for it
        threading.Thread(target=library.index.refresh, name="mjarena-index", daemon=True).start()
        yield
        room.close()

    routes = [
        Route("/", index),
        Route("/replays/{name:path}", replay_page),
        Route("/api/replays/{name:path}", replay_data),
        Route("/upload", upload, methods=["POST"]),
        Route("/tournaments/{name:path}", tournament_page),
        Route("/api/tournaments/{name:path}", tournament_data),
        Route("/play", play_page),
        Route("/play/{id}", game_page),
        Route("/api/play", play_options),
        Route("/api/play", play_start, methods=["POST"]),
        Route("/api/play/{id}", game_state),
        Route("/api/play/{id}", game_move, methods=["POST"]),
        Route("/tiles/{kind}.svg", tile),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes, middleware=[Middleware(SecurityHeaders), Middleware(SameOrigin)], lifespan=lifespan,
        exception_handlers={HTTPException: http_error, PlayError: play_error, Exception: server_error},
    )
    app.state.library, app.state.room = library, room
    return app

"""The library's pages: the index of the replays and tournaments under the folder (with the upload form), an
upload, a replay's page and its data for the viewer, and the tiles' pictures.

>>> FORM_COOKIE
'mjarena_form'
"""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import Message

from mjarena.i18n import N_, worded
from mjarena.untrusted import number as ascii_number
from mjarena.web import pages
from mjarena.web.handlers.common import client_key, message_of, read_body, wants_json
from mjarena.web.handlers.context import context_of
from mjarena.web.library import PAGE_SIZE, NotFound, QuotaError, UploadError
from mjarena.web.origin import media_type
from mjarena.web.tiles import BACK, KINDS, tile_svg

__all__ = ["FORM_COOKIE", "index", "replay_data", "replay_page", "tile", "upload"]

FORM_COOKIE = "mjarena_form"
"""The cookie holding the upload form's token (the form carries it again: a page on another site cannot)."""


async def index(request: Request) -> Response:
    context = context_of(request)
    library = context.library
    number = request.query_params.get("page", "1")
    if not 0 < (ascii_number(number) or 0) < 1_000_000:
        raise HTTPException(400, '"page" must be a page number, such as 2')
    replays, tournaments = await run_in_threadpool(lambda: (library.replays(), library.tournaments()))
    token = request.cookies.get(FORM_COOKIE, "")
    if not (len(token) == 43 and token.isascii() and token.replace("-", "").replace("_", "").isalnum()):
        token = secrets.token_urlsafe(32)
    response = HTMLResponse(pages.index_page(replays, tournaments, context.max_upload, int(number), PAGE_SIZE,
                                             token=token))
    response.set_cookie(FORM_COOKIE, token, httponly=True, samesite="strict", path="/")
    return response


async def replay_page(request: Request) -> Response:
    name = request.path_params["name"]
    try:
        context_of(request).library.resolve(name)
    except NotFound as error:
        raise HTTPException(404, message_of(error)) from None
    return HTMLResponse(pages.replay_page(name))


async def replay_data(request: Request) -> Response:
    context = context_of(request)
    try:
        async with context.view_builds:
            view = await run_in_threadpool(context.library.view, request.path_params["name"])
    except NotFound as error:
        raise HTTPException(404, message_of(error)) from None
    except UploadError as error:
        raise HTTPException(422, message_of(error)) from None
    return Response(view, media_type="application/json")


async def upload(request: Request) -> Response:
    from starlette.datastructures import UploadFile
    from starlette.formparsers import MultiPartException

    context = context_of(request)
    max_upload = context.max_upload
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
        raise HTTPException(403, worded(N_("the upload form's token is missing or stale: upload from the form on /")))
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise HTTPException(400, "no file: send the replay in the form field 'file'")
    content = await file.read(max_upload + 1)
    if len(content) > max_upload:
        raise HTTPException(413, worded(N_("the file is larger than the limit of %(size)s KiB"),
                                        size=max_upload // 1024))
    try:
        async with context.view_builds:  # an upload's view is built (once) as it is checked
            name = await run_in_threadpool(context.library.save_upload, content, client_key(request))
    except QuotaError as error:
        raise HTTPException(error.status, str(error)) from None
    except UploadError as error:
        raise HTTPException(400, worded(N_("%(file)s: %(reason)s"), file=str(file.filename)[:80],
                                        reason=message_of(error))) from None
    except OSError as error:
        raise HTTPException(403, f"the server cannot keep uploads here: {error.strerror or error}") from None
    url = "/replays/" + name
    if wants_json(request):
        return JSONResponse({"name": name, "url": url}, status_code=201)
    return RedirectResponse(url, status_code=303)


async def tile(request: Request) -> Response:
    name = request.path_params["kind"]
    kind = BACK if name == "back" else ascii_number(name, digits=2)
    if kind is None or (kind != BACK and kind not in KINDS):
        raise HTTPException(404, f"no tile picture {name!r}")
    return Response(tile_svg(kind), media_type="image/svg+xml",
                    headers={"cache-control": "public, max-age=86400"})

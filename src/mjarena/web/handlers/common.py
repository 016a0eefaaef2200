"""What ``mjarena serve``'s handlers share, and the contest's app too: a request body read within a limit and a
deadline, the client a request counts against, JSON in and out.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, overload

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from mjarena.untrusted import number as ascii_number
from mjarena.web.origin import media_type
from mjarena.web.server import BODY_SECONDS, client_of

__all__ = ["BODY_SECONDS", "MAX_JSON", "client_key", "json_body", "json_response", "message_of", "read_body",
           "wants_json", "whole"]

MAX_JSON = 64 << 10
"""JSON request bodies larger than this are refused with 413."""


def wants_json(request: Request) -> bool:
    """Whether an error goes back as JSON (under ``/api/``, or asked for) rather than as a page."""
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


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


def message_of(error: BaseException) -> str:
    """What an error says, as it was raised: a :func:`mjarena.i18n.worded` message keeps its words, so that the
    page that shows it writes it in the reader's language (``str(error)`` would keep only the English).

    >>> from mjarena.i18n import N_, worded
    >>> message_of(LookupError(worded(N_("no such file here: %(name)s"), name="'x'"))).template
    'no such file here: %(name)s'
    """
    return error.args[0] if len(error.args) == 1 and isinstance(error.args[0], str) else str(error)


def client_key(request: Request) -> str:
    """The client a request counts against: :func:`mjarena.web.server.client_of` its address (an IPv6 /64 is
    one client), as the server's connection caps count them."""
    return client_of((request.client.host, request.client.port) if request.client else "")


async def json_response(content: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``content`` as a JSON response, encoded in a worker thread: a large answer never stalls the event loop."""
    body = await run_in_threadpool(lambda: json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode())
    return Response(body, status_code=status, media_type="application/json", headers=headers)


async def json_body(request: Request) -> dict[str, Any]:
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
def whole(data: dict[str, Any], key: str) -> int: ...


@overload
def whole(data: dict[str, Any], key: str, *, required: bool) -> int | None: ...


def whole(data: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    """``data[key]``, a whole number (or None when it is not ``required`` and missing); a 400 otherwise."""
    value = data.get(key)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise HTTPException(400, f'"{key}" must be a whole number, not {value!r}')
    return value


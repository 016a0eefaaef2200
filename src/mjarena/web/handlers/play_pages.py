"""Games against bots (:mod:`mjarena.web.play_room`): the page, the rule sets and opponents offered, a game
started, its state (waiting on the event loop for the person's decision, holding no thread) and a move; a game's
state in the reader's language (:func:`mjarena.web.play_words.play_view`).
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from mjarena.web import pages
from mjarena.web.handlers.common import client_key, json_body, whole
from mjarena.web.handlers.context import context_of
from mjarena.web.play import WAIT_SECONDS
from mjarena.web.play_words import play_view, rule_choices

__all__ = ["game_move", "game_page", "game_state", "play_options", "play_page", "play_start"]


async def play_page(request: Request) -> Response:
    return HTMLResponse(pages.play_page())


async def play_options(request: Request) -> Response:
    from mjarena.rulesets import RULE_SETS

    return JSONResponse({"rules": rule_choices(list(RULE_SETS), context_of(request).room)})


async def play_start(request: Request) -> Response:
    data = await json_body(request)
    rules, opponents = data.get("rules"), data.get("opponents")
    if not isinstance(rules, str):
        raise HTTPException(400, '"rules" must name a rule set, such as "noi2014"')
    if not (isinstance(opponents, list) and all(isinstance(spec, str) for spec in opponents)):
        raise HTTPException(400, '"opponents" must be a list of three bot names')
    seat, seed = whole(data, "seat"), whole(data, "seed", required=False)
    session = await run_in_threadpool(context_of(request).room.create, rules, seat, opponents, seed,
                                      client_key(request))
    return JSONResponse({"id": session.id, "url": f"/play/{session.id}"}, status_code=201)


async def game_page(request: Request) -> Response:
    context_of(request).room.get(request.path_params["id"])
    return HTMLResponse(pages.game_page(request.path_params["id"]))


async def game_state(request: Request) -> Response:
    session = context_of(request).room.get(request.path_params["id"])
    try:
        wait = float(request.query_params.get("wait", "0"))
    except ValueError:
        raise HTTPException(400, '"wait" must be a number of seconds') from None
    if not 0 <= wait <= WAIT_SECONDS:
        raise HTTPException(400, f'"wait" must be between 0 and {WAIT_SECONDS:g} seconds')
    return JSONResponse(play_view(await session.next_view(wait)), headers={"cache-control": "no-store"})


async def game_move(request: Request) -> Response:
    session = context_of(request).room.get(request.path_params["id"])
    data = await json_body(request)
    version = whole(data, "version")
    choice = whole(data, "choice", required=False)
    action = data.get("action")
    if choice is None and not isinstance(action, dict):
        raise HTTPException(400, 'send "choice" (the number of a legal choice) or "action" (an object)')
    session.submit(version, choice, None if choice is not None else action, timeout=0)
    return JSONResponse(play_view(await session.next_view(WAIT_SECONDS)))

"""A tournament's page, and its state for the page: standings, games and the rating chart (drawn again only
when games were added).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from mjarena.web import pages
from mjarena.web.handlers.common import json_response, message_of
from mjarena.web.handlers.context import ServeContext, context_of
from mjarena.web.library import NotFound, UploadError

__all__ = ["tournament_data", "tournament_page", "tournament_with_chart"]


async def tournament_page(request: Request) -> Response:
    name = request.path_params["name"]
    try:
        await run_in_threadpool(context_of(request).library.tournament, name)
    except NotFound as error:
        raise HTTPException(404, message_of(error)) from None
    except UploadError:
        pass  # the page shows the reason from the API
    return HTMLResponse(pages.tournament_page(name))


def tournament_with_chart(context: ServeContext, name: str) -> dict[str, Any]:
    """The tournament's state with ``rating_chart`` (:func:`~mjarena.web.tournament_stats.rating_chart`),
    drawn again only when games were added, and its words in the reader's language
    (:func:`~mjarena.web.play_words.tournament_words`)."""
    from mjarena.i18n import active
    from mjarena.web.play_words import tournament_words
    from mjarena.web.tournament_stats import rating_chart

    state = context.library.tournament(name)
    key = (state["played"], state["games"][-1]["game"] if state["games"] else None,
           [row["bot"] for row in state["standings"]])
    kept = (name, active())  # the chart's words are the reader's: kept once per language
    cached = context.charts.get(kept)
    if cached is None or cached[0] != key:
        cached = context.charts[kept] = (key, rating_chart(state["standings"], state["ratings_by_round"]))
    return {**tournament_words(state), "rating_chart": cached[1]}


async def tournament_data(request: Request) -> Response:
    try:
        state = await run_in_threadpool(tournament_with_chart, context_of(request), request.path_params["name"])
    except NotFound as error:
        raise HTTPException(404, message_of(error)) from None
    except UploadError as error:
        raise HTTPException(422, message_of(error)) from None
    return await json_response(state, headers={"cache-control": "no-store"})

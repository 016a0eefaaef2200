"""A game in progress, followed in the replay viewer (:mod:`mjarena.contest.live`): ``/live/{id}`` and its data
``/api/live/{id}`` for the public and the teams, ``/admin/live/{id}`` and ``/admin/live/{id}/view`` for the
organiser (its session cookie is sent to ``/admin`` alone).

Who may follow a game is who may see its replay once it has finished, and during the freeze only the teams that play
in it and the organiser (:func:`~mjarena.contest.handlers.shown.check_may_watch`).  The data is the viewer's, of the
moves so far, with ``"live": true``; ``{"live": true, "waiting": true}`` before the first move is written, and
``{"finished": true}`` once it has ended (the page then shows its replay).  A view is built from the live file (a
cluster node's game's too: :mod:`mjarena.contest.live_relay`) when the file has grown since the last one (kept in
:attr:`ContestContext.live_views`, counted against a client's builds as a replay's are); the judge does nothing for
it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.contest import pages
from mjarena.contest.handlers.api import client_of, packed
from mjarena.contest.handlers.console_sessions import logged_in
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.handlers.sessions import viewer, viewer_name
from mjarena.contest.handlers.shown import check_may_watch
from mjarena.contest.live import live_path, live_view, read_live
from mjarena.contest.model import ADMIN
from mjarena.i18n import N_, active, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["admin_live_page", "admin_live_view", "api_live", "live_page"]

_NO_STORE = {"cache-control": "no-store"}


def _game(context: ContestContext, request: Request, who: str | None) -> tuple[int, Any]:
    """The game the path names and its row, if ``who`` may follow it; 404 otherwise."""
    raw_id = request.path_params["id"]
    game_id = ascii_number(raw_id)
    if game_id is None:
        raise HTTPException(404, worded(N_("no game %(id)s"), id=raw_id))
    game = context.db.game(game_id)
    check_may_watch(context, game_id, game, who)
    return game_id, game


async def _answer(request: Request, who: str | None, *, client: str | None) -> Response:
    """The live data of the game the path names, as ``who`` may see it (``client``: whose builds are counted;
    None for the organiser)."""
    context = context_of(request)
    game_id, game = await run_in_threadpool(_game, context, request, who)
    if game.state == "finished":
        return Response(json.dumps({"finished": True}), media_type="application/json", headers=_NO_STORE)
    if game.state != "running":  # planned, or held after judge errors: nothing played to follow
        raise HTTPException(404, worded(N_("game %(id)s is not being played now"), id=game_id))
    path = live_path(context.contest.root, game_id)
    try:
        stat = os.stat(path)
    except OSError:
        return Response(json.dumps({"live": True, "waiting": True}), media_type="application/json", headers=_NO_STORE)
    own = tuple(seat.seat for seat in game.seats
                if who == ADMIN or (who is not None and seat.team == who))

    def build() -> tuple[int, bytes]:
        from mjarena.web.library import UploadError

        lines = read_live(path)
        if lines is None:  # (removed since: the game just ended; the next ask says so)
            return 200, json.dumps({"live": True, "waiting": True}).encode()
        try:
            view = live_view(lines, own)
        except UploadError as error:
            return 422, json.dumps({"error": f"this game cannot be shown: {error}", "status": 422}).encode()
        return 200, json.dumps({"name": str(game_id), **view}, ensure_ascii=False, separators=(",", ":")).encode()

    key = ("live", game_id, stat.st_size, stat.st_mtime_ns, own, active())  # (the viewer's words: the reader's)
    answer = await context.live_views.get(key, build, client=client, now=context.clock())
    return packed(request, answer)


async def api_live(request: Request) -> Response:
    """A game's moves so far, as the asker (a team's token or session, or the public) may see them."""
    team = viewer(request)
    return await _answer(request, team.name if team is not None else None, client=client_of(request))


async def live_page(request: Request) -> Response:
    """The viewer on a game in progress; a finished game's replay page once it has ended."""
    context = context_of(request)
    who = viewer_name(request)
    game_id, game = await run_in_threadpool(_game, context, request, who)
    if game.state == "finished":
        return RedirectResponse(f"/replays/{game_id}", status_code=303)
    return Response(pages.live_page(game_id, who), media_type="text/html; charset=utf-8", headers=_NO_STORE)


async def admin_live_view(request: Request) -> Response:
    """A game's moves so far as the organiser sees them (every seat's error in full)."""
    logged_in(request)
    return await _answer(request, ADMIN, client=None)


async def admin_live_page(request: Request) -> Response:
    """The viewer on a game in progress for the organiser; the console's replay once it has ended."""
    logged_in(request)
    context = context_of(request)
    game_id, game = await run_in_threadpool(_game, context, request, ADMIN)
    if game.state == "finished":
        return RedirectResponse(f"/admin/replays/{game_id}", status_code=303)
    return Response(pages.live_page(game_id, None, admin=True), media_type="text/html; charset=utf-8",
                    headers=_NO_STORE)

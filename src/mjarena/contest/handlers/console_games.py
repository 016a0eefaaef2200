"""The console's games: the games running now and the last rounds (each finished game with the node that
played it), a finished game played again, a game held after judge errors played now, a replay as the organiser
sees it (every seat's output), and the report of pairs of teams (collusion).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.arena.collusion import pairs_csv
from mjarena.contest import admin_pages
from mjarena.contest.handlers.api import packed
from mjarena.contest.handlers.console_controls import console_view
from mjarena.contest.handlers.console_sessions import NO_STORE, html, logged_in, note, posted
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.i18n import N_, active, gettext, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["admin_replay", "games", "pairs", "pairs_file", "release_game", "replay_by_id", "replay_game"]


def games_view(context: ContestContext, csrf: str, notice: str | None = None, every: bool = False) -> str:
    """The games page: the last five rounds (``every``: all of them), the games running now, the cluster."""
    judge = context.judge
    replaying = set(judge.replaying) if judge is not None else set()
    rounds = context.contest.rounds_view()
    shown = len(rounds) if every else 5
    nodes = context.db.nodes([game["id"] for item in rounds[-shown:] for game in item["games"]
                              if game["state"] == "finished"])
    cluster, running_on = getattr(judge, "nodes", None), getattr(judge, "running_on", None)
    if callable(running_on):  # the games running now, on the node playing them
        nodes.update(running_on())
    return admin_pages.games_page(rounds, replaying, csrf, judging=judge is not None, notice=notice,
                                  shown_rounds=shown, played_on=nodes,
                                  cluster=cluster() if callable(cluster) else None)


async def games(request: Request) -> Response:
    csrf = logged_in(request)
    every = request.query_params.get("rounds") == "all"
    return html(await run_in_threadpool(games_view, context_of(request), csrf, None, every))


async def _replay(context: ContestContext, game_id: int | None, raw_id: str, csrf: str) -> Response:
    judge = context.judge
    if judge is None:
        raise HTTPException(503, N_("no judge runs with this server: serve the contest to play games again"))
    game = context.db.game(game_id) if game_id is not None else None
    if game is None or game.state != "finished":
        raise HTTPException(404, worded(N_("no finished game %(id)s"), id=raw_id))
    try:
        judge.replay(game.id)
    except (ValueError, RuntimeError) as error:  # already being played again; a judge that is stopping
        return html(await run_in_threadpool(games_view, context, csrf, str(error)), 409)
    note(context, "play again", f"game {game.id}")
    return RedirectResponse("/admin/games", status_code=303)


async def replay_game(request: Request) -> Response:
    csrf, _ = await posted(request)
    raw_id = request.path_params["id"]
    return await _replay(context_of(request), ascii_number(raw_id), raw_id, csrf)


async def replay_by_id(request: Request) -> Response:
    csrf, form = await posted(request)
    raw_id = form.get("game")
    raw_id = raw_id.strip() if isinstance(raw_id, str) else ""
    return await _replay(context_of(request), ascii_number(raw_id), raw_id, csrf)


async def release_game(request: Request) -> Response:
    """Play now a game held after repeated judge errors."""
    context = context_of(request)
    csrf, _ = await posted(request)
    judge = context.judge
    if judge is None:
        raise HTTPException(503, N_("no judge runs with this server: serve the contest to play games"))
    raw_id = request.path_params["id"]
    game_id = ascii_number(raw_id)
    game = context.db.game(game_id) if game_id is not None else None
    if game is None or game.state != "held":
        raise HTTPException(404, f"no game {raw_id} held after judge errors")
    try:
        judge.release(game.id)
    except (ValueError, RuntimeError) as error:  # released meanwhile; a judge that is stopping
        return html(await run_in_threadpool(console_view, context, csrf, str(error)), 409)
    note(context, "play held game", f"game {game.id}")
    return RedirectResponse("/admin", status_code=303)


async def admin_replay(request: Request) -> Response:
    """A finished game in the viewer as the organiser sees it: every seat's output; built once per replay and kept
    (:mod:`mjarena.contest.views`, not counted against any client's builds)."""
    logged_in(request)
    context = context_of(request)
    db = context.db
    raw_id = request.path_params["id"]
    game_id = ascii_number(raw_id)
    mark = db.replay_mark(game_id) if game_id is not None else None
    if game_id is None or mark is None:
        raise HTTPException(404, worded(N_("no finished game %(id)s"), id=raw_id))

    def build() -> tuple[int, bytes]:
        from mjarena.web.library import UploadError, check_replay

        try:
            view = {"name": str(game_id), **check_replay((db.replay(game_id) or "").encode())}
        except UploadError as error:
            problem = gettext("this replay cannot be shown: %(error)s") % {"error": error}
            return 422, admin_pages.admin_replay_page(game_id, None, problem).encode()
        return 200, admin_pages.admin_replay_page(game_id, view).encode()

    answer = await context.views.get(("admin replay", game_id, mark, active()), build, client=None, now=context.clock())
    return packed(request, answer, "text/html; charset=utf-8")


def report(context: ContestContext) -> dict[str, Any]:
    """The report of pairs, brought up to date when the results changed (:class:`mjarena.contest.pairs.KeptPairs`:
    only the replays of the games finished or played again since are read)."""
    return context.pairs.report(context.contest)


async def pairs(request: Request) -> Response:
    csrf = logged_in(request)
    return html(admin_pages.pairs_page(await run_in_threadpool(report, context_of(request)), csrf))


async def pairs_file(request: Request) -> Response:
    logged_in(request)
    text = pairs_csv(await run_in_threadpool(report, context_of(request)))
    return Response(text, media_type="text/csv", headers={
        "content-disposition": 'attachment; filename="pairs.csv"', **NO_STORE})

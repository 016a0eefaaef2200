"""The JSON API under ``/api/`` (:mod:`mjarena.contest.app` lists it): a team's submissions (its bearer
token), the standings, games and rounds as the public sees them, the announcements, and the replays and bots'
exchanges as the asker may see them, built once per game and way of seeing it (:mod:`mjarena.contest.views`).
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from mjarena.contest.disk import disk_notice
from mjarena.contest.games import public_replay
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.handlers.sessions import bearer, viewer
from mjarena.contest.handlers.shown import check_not_frozen, masked, rounds_shown, shown_standings
from mjarena.contest.handlers.uploads import own_submission, receive_upload, source_response
from mjarena.contest.messages import messages_json
from mjarena.contest.model import ADMIN
from mjarena.contest.public import hidden_from
from mjarena.contest.rows import GameRow
from mjarena.i18n import active
from mjarena.untrusted import number as ascii_number

__all__ = ["api_announcements", "api_games", "api_replay", "api_rounds", "api_source", "api_standings",
           "api_submission", "api_submissions", "api_submit", "api_turns"]

_NO_STORE = {"cache-control": "no-store"}


def _json(value: Any) -> bytes:
    """``value`` as JSONResponse writes it.

    >>> _json({"a": [1, "é"]})
    b'{"a":[1,"\\xc3\\xa9"]}'
    """
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


# -- a team's submissions ------------------------------------------------------------------------------------

async def api_submit(request: Request) -> Response:
    team = bearer(request)
    if team.name == ADMIN:
        raise HTTPException(403, "the organiser's token cannot submit: use a team's token")
    submission = await receive_upload(request, team)
    return JSONResponse(submission.to_json(), status_code=201)


async def api_submission(request: Request) -> Response:
    team = bearer(request)
    return JSONResponse(own_submission(request, team).to_json())


async def api_submissions(request: Request) -> Response:
    team = bearer(request)
    db = context_of(request).db
    found = db.submissions() if team.name == ADMIN else db.submissions(team_id=team.id)
    return JSONResponse({"submissions": [submission.to_json() for submission in found]})


async def api_source(request: Request) -> Response:
    team = bearer(request)
    return source_response(own_submission(request, team))


# -- public data ---------------------------------------------------------------------------------------------

async def api_standings(request: Request) -> Response:
    context = context_of(request)
    standings = await run_in_threadpool(shown_standings, context)
    notice = disk_notice(context.contest)
    if notice is not None:  # why the contest paused itself (the free-disk watch)
        standings = {**standings, "notice": notice}
    return JSONResponse(standings, headers=_NO_STORE)


async def api_games(request: Request) -> Response:
    context = context_of(request)
    team = request.query_params.get("team")
    who = viewer(request)
    name = who.name if who else None
    games = await run_in_threadpool(lambda: masked(context, [] if hidden_from(context.contest, team, name)
                                                   else context.contest.games(team), name))
    return JSONResponse({"games": games}, headers=_NO_STORE)


async def api_rounds(request: Request) -> Response:
    who = viewer(request)
    rounds = await run_in_threadpool(rounds_shown, context_of(request), who.name if who else None)
    return JSONResponse({"rounds": rounds}, headers=_NO_STORE)


async def api_announcements(request: Request) -> Response:
    """The announcements to every team; with a team's token or session, its own too and its questions (the
    organiser's token: every message)."""
    contest = context_of(request).contest
    team = viewer(request)
    if team is not None and team.name == ADMIN:
        found = await run_in_threadpool(lambda: messages_json(contest, every=True))
    else:
        found = await run_in_threadpool(messages_json, contest, team.name if team is not None else None)
    return JSONResponse(found, headers=_NO_STORE)


# -- replays and the bots' exchanges -------------------------------------------------------------------------

def finished_game(request: Request) -> tuple[int, float, GameRow]:
    """The finished game the path names: its id, when its replay was recorded, its row; 404 if none."""
    db = context_of(request).db
    raw_id = request.path_params["id"]
    game_id = ascii_number(raw_id)
    mark = db.replay_mark(game_id) if game_id is not None else None
    game = db.game(game_id) if game_id is not None and mark is not None else None
    if game_id is None or mark is None or game is None:
        raise HTTPException(404, f"no finished game {raw_id}")
    return game_id, mark, game


def replay_of(context: ContestContext, game_id: int) -> dict[str, Any]:
    body = context.db.replay(game_id)
    if body is None:  # removed between the check and the read
        raise HTTPException(404, f"no finished game {game_id}")
    return json.loads(body)


def packed(request: Request, answer: tuple[int, bytes], media_type: str = "application/json") -> Response:
    """A kept view (:mod:`mjarena.contest.views`): sent compressed to a client that accepts gzip."""
    status, body = answer
    headers = {"cache-control": "no-store", "vary": "accept-encoding"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        headers["content-encoding"] = "gzip"
    else:
        body = gzip.decompress(body)
    return Response(body, status_code=status, media_type=media_type, headers=headers)


def client_of(request: Request) -> str:
    return request.client.host if request.client else ""


async def api_replay(request: Request) -> Response:
    context = context_of(request)
    team = viewer(request)
    game_id, mark, game = await run_in_threadpool(finished_game, request)
    own = tuple(seat.seat for seat in game.seats if team is not None and seat.team == team.name)
    check_not_frozen(context, game_id, game, team.name if team is not None else None)

    def build() -> tuple[int, bytes]:
        from mjarena.web.library import UploadError, check_replay

        shown = public_replay(replay_of(context, game_id), team.name if own and team is not None else None)
        try:
            view = check_replay(json.dumps(shown).encode())
        except UploadError as error:
            return 422, _json({"error": f"this replay cannot be shown: {error}", "status": 422})
        return 200, _json({"name": str(game_id), **view})

    # the view's words (moves, the ending, verdicts, errors) are in the reader's language: one kept view for each
    answer = await context.views.get(("replay", game_id, mark, own, active()), build, client=client_of(request),
                                     now=context.clock())
    return packed(request, answer)


async def api_turns(request: Request) -> Response:
    context = context_of(request)
    team = viewer(request)
    if team is None:
        raise HTTPException(401, "log in (or send the team's token) to see your bots' output")
    game_id, mark, game = await run_in_threadpool(finished_game, request)
    own = tuple(seat.seat for seat in game.seats
                if seat.team is not None and (seat.team == team.name or team.name == ADMIN))

    def build() -> tuple[int, bytes]:
        replay = replay_of(context, game_id)
        players = replay.get("contest", {}).get("players", [])
        seats = {str(p["seat"]): {"team": p["team"], "version": p["version"],
                                  "turns": replay.get("transcripts", {}).get(str(p["seat"]), []),
                                  "detail": replay["seats"][p["seat"]].get("detail")}
                 for p in players if p["seat"] in own}
        return 200, _json({"game": game_id, "seats": seats})

    answer = await context.views.get(("turns", game_id, mark, own), build, client=client_of(request),
                                     now=context.clock())
    return packed(request, answer)

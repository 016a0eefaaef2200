"""The contest's web server: the JSON API and the pages (Starlette).

API (``Authorization: Bearer TOKEN`` where private):

- ``POST /api/submissions``: multipart/form-data, the file in field ``source`` (its extension names the
  language) → 201 ``{"id", "team", "version", "language", "status", "message"}``; 413 over the size limit
  (refused from ``Content-Length`` before the body is read, else as soon as it is exceeded), 429 over the
  team's upload rate, 415 for an unknown extension, 400 for text that is not UTF-8.  A refused upload makes no
  submission.
- ``GET /api/submissions`` (the team's), ``GET /api/submissions/{id}``, ``GET /api/submissions/{id}/source``
  (the exact bytes): the team's own only (404 for another team's).
- ``GET /api/standings``, ``GET /api/games?team=NAME``, ``GET /api/rounds``: public (the standings carry a
  ``notice`` while the free-disk watch keeps the contest paused, :mod:`mjarena.contest.disk`).
- ``GET /api/replays/{id}``: a finished game for the web app's replay viewer (its transcript panel included), as
  the asker may see it: a team's own bots with their ``debug`` output and standard error, the others without;
  ``GET /api/games/{id}/turns``: the asker's own bots' exchanges with their ``debug`` output and standard error.
  Both are built once per game and way of seeing it, kept, and sent gzip-compressed to a client that accepts it
  (:mod:`mjarena.contest.views`: a client may have at most 30 views a minute built; kept ones are free).

Pages: ``/`` standings (with the race chart, ``/charts/race`` for its live updates), ``/rounds``,
``/teams/{name}`` (with its points per game by version), ``/replays/{id}``, ``/login``, and for a logged-in team
``/team`` (upload, submission history); the organiser's console under ``/admin`` (:mod:`mjarena.contest.admin`).
A team logs in with its token once and gets a session cookie (HttpOnly, SameSite=Strict); every form carries the
session's CSRF token (the login form, the login page's own), and a form posted from another origin, or from a
page with none, is refused (:mod:`mjarena.contest.forms`).  Errors are a message (JSON under ``/api/``), never a
traceback.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import python_multipart  # noqa: F401  (uploads need it: fail at start, not at the first upload)
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mjarena.contest import pages
from mjarena.contest.admin import Judge, admin_routes
from mjarena.contest.auth import RateLimiter, hash_token, new_token
from mjarena.contest.charts import race_chart, versions_chart
from mjarena.contest.disk import disk_notice
from mjarena.contest.forms import (
    FORM_OVERHEAD,
    FormHeaders,
    check_csrf,
    check_origin,
    count_wrong_token,
    failed_logins,
    logged_in_response,
    login_page_response,
    origin_of,
    read_limited,
    small_form,
    token_of_login,
    upload_form,
)
from mjarena.contest.games import public_replay
from mjarena.contest.messages import QuestionLimit, ask, messages_json
from mjarena.contest.model import ADMIN, Contest, ContestError
from mjarena.contest.public import frozen_games, hidden_from, public_standings, shown_games, shows_hidden_team
from mjarena.contest.rows import GameRow, Team
from mjarena.contest.sources import accepted_suffixes, check_text, language_of
from mjarena.contest.statistics import contest_statistics
from mjarena.contest.views import ViewCache
from mjarena.untrusted import number as ascii_number
from mjarena.web.app import SecurityHeaders
from mjarena.web.tiles import BACK, KINDS, tile_svg

__all__ = ["SESSION_COOKIE", "create_app"]

SESSION_COOKIE = "mjarena_contest"
SESSION_SECONDS = 12 * 3600
WEB_STATIC = Path(__file__).parent.parent / "web" / "static"
STATIC = Path(__file__).parent / "static"


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _json(value: Any) -> bytes:
    """``value`` as JSONResponse writes it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def create_app(contest: Contest, *, on_submission: Callable[[int], None] | None = None,
               clock: Callable[[], float] = time.time, judge: Judge | None = None,
               public_urls: Sequence[str] = ()) -> Starlette:
    """The contest's app; ``on_submission(id)`` is told of each stored upload (the builder's queue); ``judge``
    plays a game again when the organiser's console asks (:mod:`mjarena.contest.admin`); ``public_urls`` are
    the URLs the browsers reach it at (``--public-url``: the forms' origin check accepts those alone, see
    :mod:`mjarena.contest.forms`; :class:`ValueError` for one that is not an http(s) URL of a site)."""
    public_origins = tuple(dict.fromkeys(origin_of(url) for url in public_urls))
    settings = contest.settings
    limiter = RateLimiter(settings.uploads_per_minute, 60.0)
    db = contest.db

    # -- who is asking ---------------------------------------------------------------------------------

    def bearer(request: Request) -> Team:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HTTPException(401, "send the team's token: Authorization: Bearer TOKEN")
        team = contest.authenticate(token.strip())
        if team is None:  # counted as a failed login is (429 beyond 10 a minute from one client)
            count_wrong_token(request)
            raise HTTPException(401, "this token is not valid")
        return team

    def session(request: Request) -> tuple[Team, str] | None:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        found = db.session(hash_token(cookie), clock())
        if found is None:
            return None
        team = next((team for team in db.teams() if team.id == found[0]), None)
        return None if team is None else (team, found[1])

    def viewer(request: Request) -> Team | None:
        """The team behind the request (a bearer token, else the session), or None; a bad token is 401."""
        if request.headers.get("authorization"):
            return bearer(request)
        found = session(request)
        return found[0] if found else None

    def viewer_name(request: Request) -> str | None:
        found = session(request)
        return found[0].name if found else None

    # -- submissions -----------------------------------------------------------------------------------

    async def receive_upload(request: Request, team: Team, *, csrf: str | None = None) -> Any:
        """Check, read and store one upload of ``team``; the stored submission."""
        if not limiter.allow(team.name, now=clock()):
            wait = limiter.retry_after(team.name, now=clock())
            raise HTTPException(429, f"too many uploads: at most {settings.uploads_per_minute} a minute; "
                                f"try again in {wait:.0f} s", headers={"retry-after": str(max(1, round(wait)))})
        body = await read_limited(request, settings.max_upload + FORM_OVERHEAD)
        form = await upload_form(request, body)
        if csrf is not None:
            check_csrf(form, csrf)
        source = form.get("source")
        if not isinstance(source, UploadFile):
            raise HTTPException(400, "no file: send the source in the form field 'source'")
        raw = await source.read(settings.max_upload + 1)
        if len(raw) > settings.max_upload:
            raise HTTPException(413, f"the upload is larger than the limit of {settings.max_upload // 1024} KiB")
        filename = Path(source.filename or "").name
        language = language_of(filename)
        if language is None:
            raise HTTPException(415, f"{filename or 'the file'}: unknown language; send one of "
                                f"{', '.join(accepted_suffixes())}")
        problem = check_text(raw)
        if problem is not None:
            raise HTTPException(400, f"{filename}: {problem}")
        from mjarena.contest.building import QuotaError, store_submission  # (uploads alone need it)

        try:
            submission = await run_in_threadpool(store_submission, contest, team, filename, language, raw)
        except QuotaError as error:  # the team's sources and builds would pass its storage quota
            raise HTTPException(413, str(error)) from None
        if on_submission is not None:
            on_submission(submission.id)
        return submission

    async def api_submit(request: Request) -> Response:
        team = bearer(request)
        if team.name == ADMIN:
            raise HTTPException(403, "the organiser's token cannot submit: use a team's token")
        submission = await receive_upload(request, team)
        return JSONResponse(submission.to_json(), status_code=201)

    def own_submission(request: Request, team: Team) -> Any:
        raw_id = request.path_params["id"]
        submission_id = ascii_number(raw_id)
        submission = db.submission(submission_id) if submission_id is not None else None
        if submission is None or (team.name != ADMIN and submission.team_id != team.id):
            raise HTTPException(404, f"no submission {raw_id} of team {team.name}")
        return submission

    async def api_submission(request: Request) -> Response:
        team = bearer(request)
        return JSONResponse(own_submission(request, team).to_json())

    async def api_submissions(request: Request) -> Response:
        team = bearer(request)
        found = db.submissions() if team.name == ADMIN else db.submissions(team_id=team.id)
        return JSONResponse({"submissions": [submission.to_json() for submission in found]})

    def source_response(submission: Any) -> Response:
        raw = Path(submission.path).read_bytes()
        return Response(raw, media_type="application/octet-stream", headers={
            "content-disposition": f'attachment; filename="{submission.team}-v{submission.version}'
                                   f'{Path(submission.path).suffix}"', "cache-control": "no-store"})

    async def api_source(request: Request) -> Response:
        team = bearer(request)
        return source_response(own_submission(request, team))

    # -- public data -----------------------------------------------------------------------------------

    def shown_standings() -> dict[str, Any]:
        """The standings as the public sees them (:func:`mjarena.contest.public.public_standings`)."""
        return public_standings(contest, clock())

    def masked(games: list[dict[str, Any]], who: str | None) -> list[dict[str, Any]]:
        """``games`` as ``who`` may see them during the freeze (the organiser: all of them)."""
        return games if who == ADMIN else shown_games(contest, games, who, clock())

    def check_not_frozen(game_id: int, game: GameRow, who: str | None) -> None:
        """404 for a frozen game's replay, unless ``who`` played in it (or is the organiser)."""
        own = who is not None and any(seat.team == who for seat in game.seats)
        if who != ADMIN and shows_hidden_team(contest, game.seats, who):  # (issue 44: hidden is hidden)
            raise HTTPException(404, f"no finished game {game_id}")
        if who != ADMIN and not own and game_id in frozen_games(contest, clock()):
            raise HTTPException(404, f"game {game_id} finished during the freeze: its replay is shown once the "
                                "results are revealed")

    async def api_standings(request: Request) -> Response:
        standings = await run_in_threadpool(shown_standings)
        notice = disk_notice(contest)
        if notice is not None:  # why the contest paused itself (the free-disk watch)
            standings = {**standings, "notice": notice}
        return JSONResponse(standings, headers={"cache-control": "no-store"})

    async def api_games(request: Request) -> Response:
        team = request.query_params.get("team")
        who = viewer(request)
        games = await run_in_threadpool(lambda: masked([] if hidden_from(contest, team, who.name if who else None)
                                                       else contest.games(team), who.name if who else None))
        return JSONResponse({"games": games}, headers={"cache-control": "no-store"})

    def rounds_shown(who: str | None) -> list[dict[str, Any]]:
        return [{**item, "games": masked(item["games"], who)} for item in contest.rounds_view()]

    async def api_rounds(request: Request) -> Response:
        who = viewer(request)
        rounds = await run_in_threadpool(rounds_shown, who.name if who else None)
        return JSONResponse({"rounds": rounds}, headers={"cache-control": "no-store"})

    views = ViewCache()

    def finished_game(request: Request) -> tuple[int, float, GameRow]:
        """The finished game the path names: its id, when its replay was recorded, its row; 404 if none."""
        raw_id = request.path_params["id"]
        game_id = ascii_number(raw_id)
        mark = db.replay_mark(game_id) if game_id is not None else None
        game = db.game(game_id) if game_id is not None and mark is not None else None
        if game_id is None or mark is None or game is None:
            raise HTTPException(404, f"no finished game {raw_id}")
        return game_id, mark, game

    def replay_of(game_id: int) -> dict[str, Any]:
        body = db.replay(game_id)
        if body is None:  # removed between the check and the read
            raise HTTPException(404, f"no finished game {game_id}")
        return json.loads(body)

    def packed(request: Request, answer: tuple[int, bytes]) -> Response:
        """A kept view (:mod:`mjarena.contest.views`): sent compressed to a client that accepts gzip."""
        status, body = answer
        headers = {"cache-control": "no-store", "vary": "accept-encoding"}
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            headers["content-encoding"] = "gzip"
        else:
            body = gzip.decompress(body)
        return Response(body, status_code=status, media_type="application/json", headers=headers)

    def client_of(request: Request) -> str:
        return request.client.host if request.client else ""

    async def api_replay(request: Request) -> Response:
        team = viewer(request)
        game_id, mark, game = await run_in_threadpool(finished_game, request)
        own = tuple(seat.seat for seat in game.seats if team is not None and seat.team == team.name)
        check_not_frozen(game_id, game, team.name if team is not None else None)

        def build() -> tuple[int, bytes]:
            from mjarena.web.library import UploadError, check_replay

            shown = public_replay(replay_of(game_id), team.name if own and team is not None else None)
            try:
                view = check_replay(json.dumps(shown).encode())
            except UploadError as error:
                return 422, _json({"error": f"this replay cannot be shown: {error}", "status": 422})
            return 200, _json({"name": str(game_id), **view})

        answer = await views.get(("replay", game_id, mark, own), build, client=client_of(request), now=clock())
        return packed(request, answer)

    async def api_turns(request: Request) -> Response:
        team = viewer(request)
        if team is None:
            raise HTTPException(401, "log in (or send the team's token) to see your bots' output")
        game_id, mark, game = await run_in_threadpool(finished_game, request)
        own = tuple(seat.seat for seat in game.seats
                    if seat.team is not None and (seat.team == team.name or team.name == ADMIN))

        def build() -> tuple[int, bytes]:
            replay = replay_of(game_id)
            players = replay.get("contest", {}).get("players", [])
            seats = {str(p["seat"]): {"team": p["team"], "version": p["version"],
                                      "turns": replay.get("transcripts", {}).get(str(p["seat"]), []),
                                      "detail": replay["seats"][p["seat"]].get("detail")}
                     for p in players if p["seat"] in own}
            return 200, _json({"game": game_id, "seats": seats})

        answer = await views.get(("turns", game_id, mark, own), build, client=client_of(request), now=clock())
        return packed(request, answer)

    # -- pages -----------------------------------------------------------------------------------------

    async def api_announcements(request: Request) -> Response:
        """The announcements to every team; with a team's token or session, its own too and its questions (the
        organiser's token: every message)."""
        team = viewer(request)
        if team is not None and team.name == ADMIN:
            found = await run_in_threadpool(lambda: messages_json(contest, every=True))
        else:
            found = await run_in_threadpool(messages_json, contest, team.name if team is not None else None)
        return JSONResponse(found, headers={"cache-control": "no-store"})

    async def index(request: Request) -> Response:
        standings = await run_in_threadpool(shown_standings)
        end = contest.end(clock())
        chart = await run_in_threadpool(race, standings)
        return HTMLResponse(pages.standings_page(standings, contest.start(), end, viewer_name(request), chart,
                                                 notice=disk_notice(contest)))

    drawn_race: dict[str, Any] = {}  # the race chart as last drawn, and what it was drawn from

    def race(standings: dict[str, Any] | None = None) -> str:
        """The race chart, drawn again only when a result or the standings' order changed (every viewer's page
        asks for it as games finish)."""
        standings = standings or shown_standings()
        order = [row["team"] for row in standings["rows"]]
        frozen = frozen_games(contest, clock())
        key = (db.results_mark(), order, len(frozen))
        if drawn_race.get("key") != key:
            drawn_race.update(key=key, figure=race_chart(contest.history(frozen), order,
                                                         teams=[team.name for team in db.teams()]))
        return drawn_race["figure"]

    async def race_fragment(request: Request) -> Response:
        return HTMLResponse(await run_in_threadpool(race), headers={"cache-control": "no-store"})

    async def rounds_page(request: Request) -> Response:
        who = viewer_name(request)
        return HTMLResponse(pages.rounds_page(await run_in_threadpool(rounds_shown, who), who))

    async def team_games(request: Request) -> Response:
        name = request.path_params["name"]
        if db.team(name) is None or hidden_from(contest, name, viewer_name(request)):
            raise HTTPException(404, f"no team {name!r}")
        who = viewer_name(request)
        games = await run_in_threadpool(lambda: masked(contest.games(name), who))
        hidden = () if who == name else frozen_games(contest, clock())
        figures = await run_in_threadpool(contest.version_figures, name, hidden)
        stats = await run_in_threadpool(lambda: contest_statistics(contest, hidden, team=name))
        return HTMLResponse(pages.team_games_page(name, games, who, versions_chart(name, figures),
                                                  settings.limits_json(), figures, stats.get(name)))

    def results_view(who: str | None) -> str:
        standings = shown_standings()
        frozen = frozen_games(contest, clock())
        stats = contest_statistics(contest, frozen)
        best: dict[str, int | None] = {}
        for row in standings["rows"]:
            figures = contest.version_figures(row["team"], frozen)
            best[row["team"]] = max(figures, key=lambda v: (figures[v]["points_per_game"], figures[v]["games"]),
                                    default=None)
        return pages.results_page(standings, stats, best, who)

    async def results(request: Request) -> Response:
        """The results, to print or project (the public's: hidden teams out, frozen games out until revealed)."""
        return HTMLResponse(await run_in_threadpool(results_view, viewer_name(request)))

    async def replay_page(request: Request) -> Response:
        raw_id = request.path_params["id"]
        game_id = ascii_number(raw_id)
        game = db.game(game_id) if game_id is not None and db.replay_mark(game_id) is not None else None
        if game_id is None or game is None:
            raise HTTPException(404, f"no finished game {raw_id}")
        check_not_frozen(game_id, game, viewer_name(request))
        return HTMLResponse(pages.replay_page(game_id, viewer_name(request)))

    async def login_form(request: Request) -> Response:
        return login_page_response(request, pages.login_page)

    async def login(request: Request) -> Response:
        team = await token_of_login(request, contest.authenticate)
        if team is None or team.name == ADMIN:
            problem = ("That is the organiser's token: the console's login is /admin/login." if team is not None
                       else "That token is not a team's token.")
            return login_page_response(request, lambda csrf: pages.login_page(csrf, problem), 401)
        cookie, csrf = new_token(), new_token()
        with db.transaction() as tx:
            tx.drop_expired_sessions(clock())
            tx.add_session(hash_token(cookie), team.id, csrf, clock() + SESSION_SECONDS)
        return logged_in_response(request, "/team", (SESSION_COOKIE, cookie), SESSION_SECONDS, "/")

    def logged_in(request: Request) -> tuple[Team, str]:
        found = session(request)
        if found is None:
            raise HTTPException(401, "log in first: /login")
        return found

    def team_view(team: Team, csrf: str, message: str | None = None) -> str:
        history = [submission.to_json() for submission in db.submissions(team_id=team.id)]
        figures = contest.version_figures(team.name)
        return pages.team_page(team.name, history, csrf, accepted_suffixes(), settings.max_upload, message,
                               figures=figures, chart=versions_chart(team.name, figures),
                               limits=settings.limits_json(), messages=messages_json(contest, team.name),
                               stats=contest_statistics(contest, team=team.name).get(team.name))

    async def team_question(request: Request) -> Response:
        """A team's question to the organiser (the console lists it, with a form to answer it)."""
        check_origin(request)
        team, csrf = logged_in(request)
        form = await small_form(request)
        check_csrf(form, csrf)
        try:
            await run_in_threadpool(ask, contest, team.id, form.get("text"), clock())
        except ContestError as error:  # a QuestionLimit: 429, with when to ask again if a wait would do
            limited = isinstance(error, QuestionLimit)
            wait = error.retry_after if isinstance(error, QuestionLimit) else None
            headers = {"cache-control": "no-store", **({"retry-after": str(math.ceil(wait))} if wait else {})}
            return HTMLResponse(await run_in_threadpool(team_view, team, csrf, str(error)),
                                status_code=429 if limited else 400, headers=headers)
        return RedirectResponse("/team", status_code=303)

    async def team_home(request: Request) -> Response:
        found = session(request)
        if found is None:
            return RedirectResponse("/login", status_code=303)
        return HTMLResponse(team_view(*found), headers={"cache-control": "no-store"})

    async def team_upload(request: Request) -> Response:
        check_origin(request)
        team, csrf = logged_in(request)
        await receive_upload(request, team, csrf=csrf)
        return RedirectResponse("/team", status_code=303)

    async def team_source(request: Request) -> Response:
        team, _ = logged_in(request)
        return source_response(own_submission(request, team))

    async def logout(request: Request) -> Response:
        check_origin(request)
        _, csrf = logged_in(request)
        form = await small_form(request)
        check_csrf(form, csrf)
        with db.transaction() as tx:
            tx.drop_session(hash_token(request.cookies.get(SESSION_COOKIE, "")))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def tile(request: Request) -> Response:
        name = request.path_params["kind"]
        kind = BACK if name == "back" else ascii_number(name, digits=2)
        if kind is None or (kind != BACK and kind not in KINDS):
            raise HTTPException(404, f"no tile picture {name!r}")
        return Response(tile_svg(kind), media_type="image/svg+xml", headers={"cache-control": "public, max-age=86400"})

    # -- errors ----------------------------------------------------------------------------------------

    def error_response(request: Request, status: int, message: str, headers: Any = None) -> Response:
        if _is_api(request):
            return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers)
        try:
            who = viewer_name(request)
        except Exception:  # the error page must not fail on a broken cookie
            who = None
        return HTMLResponse(pages.error_page(status, message, who), status_code=status, headers=headers)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error_response(request, exc.status_code, str(exc.detail), exc.headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        import logging

        logging.getLogger("mjarena.contest").error("%s %s failed", request.method, request.url.path,
                                                   exc_info=exc)
        return error_response(request, 500, "the server failed to answer this request (its log has the details)")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for hook in app.state.on_start:
            hook()
        yield
        for hook in app.state.on_stop:
            hook()

    routes = [
        Route("/", index),
        Route("/rounds", rounds_page),
        Route("/results", results),
        Route("/charts/race", race_fragment),
        Route("/teams/{name}", team_games),
        Route("/replays/{id}", replay_page),
        Route("/login", login_form),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/team", team_home),
        Route("/team/upload", team_upload, methods=["POST"]),
        Route("/team/questions", team_question, methods=["POST"]),
        Route("/team/submissions/{id}/source", team_source),
        Route("/api/submissions", api_submit, methods=["POST"]),
        Route("/api/submissions", api_submissions),
        Route("/api/submissions/{id}", api_submission),
        Route("/api/submissions/{id}/source", api_source),
        Route("/api/standings", api_standings),
        Route("/api/games", api_games),
        Route("/api/rounds", api_rounds),
        Route("/api/announcements", api_announcements),
        Route("/api/replays/{id}", api_replay),
        Route("/api/games/{id}/turns", api_turns),
        Route("/tiles/{kind}.svg", tile),
        *admin_routes(contest, clock=clock, judge=judge, on_submission=on_submission),
        Mount("/static", StaticFiles(directory=WEB_STATIC), name="static"),
        Mount("/contest-static", StaticFiles(directory=STATIC), name="contest-static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(FormHeaders), Middleware(SecurityHeaders)], lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.contest = contest
    app.state.public_origins = public_origins
    app.state.failed_logins = failed_logins()
    app.state.views = views
    app.state.on_start = []
    app.state.on_stop = []
    return app

"""The organiser's console at ``/admin``: log in with the admin token, then

- ``/admin``: the window (pause, resume, extend it by some minutes, end it now; after its end none of them: a
  finished contest stays finished), every team with its versions, the version playing, the last build's
  verdict, games and points; add a team, give a team (or the organiser) a new token, shown once; the judge
  errors (a game the judge failed, not a bot: when and what), a game held after repeated ones played now; the
  log of the organiser's actions;
- ``/admin/submissions`` and ``/admin/submissions/{id}``: every submission, its source and build log;
  ``POST /admin/submissions/{id}/rebuild`` (and ``/admin/teams/{name}/rebuild``, its latest) builds it again;
- ``/admin/games``: the games running now, the last rounds (each finished game with the node that played it, from
  its replay), and a finished game played again from its record (its walls and pinned versions; the old result
  replaced in one transaction); on a Ray cluster, the nodes (their check, canary speed, flagged or left out, games
  played);
- ``/admin/pairs`` and ``/admin/pairs.csv``: the report of pairs of teams, whose discards the other claims or
  wins on more than the field explains (:mod:`mjarena.arena.collusion`); made again when a result changes;
- ``/admin/export.json`` and ``/admin/export.csv``: what ``mjarena contest export`` writes (``pairs.csv``: its
  ``--format pairs``).

A console session is a cookie of its own (HttpOnly, SameSite=Strict, path ``/admin``) kept in the
``admin_sessions`` table; every form carries its CSRF token and is refused from another origin.  Rotating the
admin token ends every console session.  Every action is written to the ``admin_log`` table.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from mjarena.arena.collusion import pairs_csv
from mjarena.contest import admin_pages
from mjarena.contest.auth import hash_token, new_token
from mjarena.contest.building import rebuild
from mjarena.contest.disk import disk_notice
from mjarena.contest.export import pairs_report, results_json, standings_csv
from mjarena.contest.failures import ERROR_KINDS, version_errors
from mjarena.contest.forms import (
    check_csrf,
    check_origin,
    logged_in_response,
    login_page_response,
    small_form,
    token_of_login,
)
from mjarena.contest.messages import announce, questions_page
from mjarena.contest.model import ADMIN, Contest, ContestError, game_json
from mjarena.contest.public import freeze_view, reveal
from mjarena.contest.rows import GameRow, Submission
from mjarena.untrusted import number as ascii_number

__all__ = ["ADMIN_COOKIE", "Judge", "admin_routes"]


def _minutes(raw: str) -> float:
    """The minutes of *Extend the window*: a positive number; :class:`ContestError` naming what was given.

    >>> _minutes("30"), _minutes("1.5")
    (30.0, 1.5)
    >>> _minutes("soon")
    Traceback (most recent call last):
    ...
    mjarena.contest.model.ContestError: extend the window by 'soon': give a number of minutes
    """
    try:
        if raw.isascii():
            return float(raw)
    except ValueError:
        pass
    raise ContestError(f"extend the window by {raw[:20]!r}: give a number of minutes")


def _ended(contest: Contest, now: float) -> bool:
    end = contest.end(now)
    return end is not None and now >= end

ADMIN_COOKIE = "mjarena_admin"
ADMIN_SESSION_SECONDS = 8 * 3600
_NO_STORE = {"cache-control": "no-store"}


class Judge(Protocol):
    """What the console asks of the judge that plays the games (:class:`mjarena.contest.scheduler.Scheduler`)."""

    replaying: Collection[int]

    def replay(self, game_id: int) -> Future[bool]: ...

    def release(self, game_id: int) -> Future[None]: ...


def admin_routes(contest: Contest, *, clock: Callable[[], float], judge: Judge | None = None,
                 on_submission: Callable[[int], None] | None = None) -> list[Route]:
    """The console's routes; ``judge`` plays games again (without one the console says it cannot);
    ``on_submission(id)`` queues a submission built again (the builder's queue)."""
    db = contest.db

    def console_session(request: Request) -> str | None:
        """The CSRF token of the request's console session, or None."""
        cookie = request.cookies.get(ADMIN_COOKIE)
        return db.admin_session(hash_token(cookie), clock()) if cookie else None

    def logged_in(request: Request) -> str:
        csrf = console_session(request)
        if csrf is None:
            raise HTTPException(401, "log in to the console first: /admin/login")
        return csrf

    async def posted(request: Request) -> tuple[str, Any]:
        """The console session's CSRF token and the form, after the origin, session and CSRF checks."""
        check_origin(request)
        csrf = logged_in(request)
        form = await small_form(request)
        check_csrf(form, csrf)
        return csrf, form

    def note(action: str, detail: str) -> None:
        with db.transaction() as tx:
            tx.log_admin(clock(), action, detail)

    def html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status_code=status, headers=_NO_STORE)

    # -- logging in and out ----------------------------------------------------------------------------

    async def login_form(request: Request) -> Response:
        return login_page_response(request, admin_pages.admin_login_page)

    async def login(request: Request) -> Response:
        found = await token_of_login(request, contest.authenticate)
        if found is None or found.name != ADMIN:
            problem = "That is not the admin token."
            return login_page_response(request, lambda csrf: admin_pages.admin_login_page(csrf, problem), 401)
        cookie, csrf = new_token(), new_token()
        with db.transaction() as tx:
            tx.drop_expired_sessions(clock())
            tx.add_admin_session(hash_token(cookie), csrf, clock() + ADMIN_SESSION_SECONDS)
        return logged_in_response(request, "/admin", (ADMIN_COOKIE, cookie), ADMIN_SESSION_SECONDS, "/admin")

    async def logout(request: Request) -> Response:
        await posted(request)
        with db.transaction() as tx:
            tx.drop_admin_session(hash_token(request.cookies.get(ADMIN_COOKIE, "")))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(ADMIN_COOKIE, path="/admin")
        return response

    # -- teams, tokens and the window ------------------------------------------------------------------

    def teams_view() -> list[dict[str, Any]]:
        standings = {row["team"]: row for row in contest.standings(clock())["rows"]}
        history: dict[int, list[Submission]] = {}
        for submission in db.submissions():
            history.setdefault(submission.team_id, []).append(submission)
        figures = version_errors(db.games(states=("finished",)))
        flags = db.team_flags()
        rows = []
        for team in db.teams():
            mine = history.get(team.id, [])
            row = standings[team.name]
            errors: dict[str, int] = {}
            for item in figures.get(team.name, {}).values():
                for kind, games in item["errors"].items():
                    errors[kind] = errors.get(kind, 0) + len(games)
            rows.append({"team": team.name, "versions": len(mine), "current": row["version"],
                         "last": mine[-1].to_json() if mine else None, "games": row["games"],
                         "points": row["points"], "flags": sorted(flags.get(team.id, ())),
                         "errors": {kind: errors[kind] for kind in [*ERROR_KINDS, "other"] if kind in errors}})
        return rows

    def judge_errors_view() -> list[dict[str, Any]]:
        states = {game.id: game.state for game in db.games()}
        return [{"id": row.id, "game": row.game_id, "at": row.at, "what": row.what,
                 "held": states.get(row.game_id) == "held", "seat": row.seat, "team": row.team,
                 "after_seat": row.after_seat, "after_team": row.after_team} for row in db.judge_errors()]

    def console_view(csrf: str, notice: str | None = None, questions: int = 1) -> str:
        """The console; ``questions``: the page of the teams' questions shown."""
        now = clock()
        messages = {"announcements": [item.to_json() for item in db.announcements(every=True)],
                    **questions_page(contest, questions)}
        return admin_pages.console_page(state=contest.state(now), start=contest.start(), end=contest.end(now),
                                        paused_since=contest.paused_since(), teams=teams_view(), log=db.admin_log(),
                                        csrf=csrf, notice=notice or disk_notice(contest),
                                        judge_errors=judge_errors_view(), ended=_ended(contest, now),
                                        judging=judge is not None, messages=messages,
                                        freeze=freeze_view(contest, now))

    async def console(request: Request) -> Response:
        csrf = console_session(request)
        if csrf is None:
            return RedirectResponse("/admin/login", status_code=303)
        page = ascii_number(request.query_params.get("questions"), digits=6) or 1
        return html(await run_in_threadpool(console_view, csrf, None, page))

    async def add_team(request: Request) -> Response:
        csrf, form = await posted(request)
        name = form.get("name")
        name = name.strip() if isinstance(name, str) else ""
        try:
            token = await run_in_threadpool(contest.add_team, name)
        except ContestError as error:
            return html(await run_in_threadpool(console_view, csrf, str(error)), 400)
        note("add team", name)
        return html(admin_pages.token_page(name, token, csrf, "The token"))

    async def rotate_team_token(request: Request) -> Response:
        csrf, _ = await posted(request)
        name = request.path_params["name"]
        if name == ADMIN or db.team(name) is None:
            raise HTTPException(404, f"no team {name!r}")
        token = await run_in_threadpool(contest.rotate_token, name)
        note("new token", name)
        return html(admin_pages.token_page(name, token, csrf))

    async def rotate_admin_token(request: Request) -> Response:
        await posted(request)
        token = await run_in_threadpool(contest.rotate_token, ADMIN)
        note("new token", ADMIN)
        response = html(admin_pages.token_page("the organiser", token, "", "The new admin token"))
        response.delete_cookie(ADMIN_COOKIE, path="/admin")
        return response

    async def window(request: Request) -> Response:
        """Pause, resume, extend (by the form's ``minutes``) or end now; each logged by the model."""
        csrf, form = await posted(request)
        action = form.get("action")
        try:
            if action == "pause":
                await run_in_threadpool(contest.pause, clock())
            elif action == "resume":
                await run_in_threadpool(contest.resume, clock())
            elif action == "extend":
                raw = form.get("minutes")
                minutes = _minutes(raw.strip() if isinstance(raw, str) else "")
                await run_in_threadpool(contest.extend, minutes, clock())
            elif action == "end":
                await run_in_threadpool(contest.end_now, clock())
            elif action == "reveal":
                await run_in_threadpool(reveal, contest, clock())
            else:
                raise HTTPException(400, "the window's action is pause, resume, extend, end or reveal")
        except ContestError as error:
            return html(await run_in_threadpool(console_view, csrf, str(error)), 409)
        return RedirectResponse("/admin", status_code=303)

    async def announcement(request: Request) -> Response:
        """An announcement to every team or to one (``team``), perhaps answering a question (``question``)."""
        csrf, form = await posted(request)
        team = form.get("team") or None
        raw_question = form.get("question")
        question = ascii_number(raw_question) if isinstance(raw_question, str) and raw_question else None
        try:
            if raw_question and question is None:
                raise ContestError(f"question {str(raw_question)[:20]!r}: give its number")
            await run_in_threadpool(lambda: announce(contest, form.get("text"), clock(),
                                                     team=team if isinstance(team, str) else None, question=question))
        except ContestError as error:
            return html(await run_in_threadpool(console_view, csrf, str(error)), 400)
        return RedirectResponse("/admin", status_code=303)

    # -- submissions -----------------------------------------------------------------------------------

    def submission_of(request: Request) -> Submission:
        raw_id = request.path_params["id"]
        submission_id = ascii_number(raw_id)
        found = db.submission(submission_id) if submission_id is not None else None
        if found is None:
            raise HTTPException(404, f"no submission {raw_id}")
        return found

    async def submissions(request: Request) -> Response:
        csrf = logged_in(request)
        found = await run_in_threadpool(db.submissions)
        figures = await run_in_threadpool(lambda: version_errors(db.games(states=("finished",))))
        return html(admin_pages.submissions_page([s.to_json() for s in found], csrf, figures))

    async def submission(request: Request) -> Response:
        csrf = logged_in(request)
        found = submission_of(request)
        source = await run_in_threadpool(Path(found.path).read_bytes)
        return html(admin_pages.submission_page(found.to_json(), source.decode("utf-8", "replace"), csrf))

    async def source(request: Request) -> Response:
        logged_in(request)
        found = submission_of(request)
        raw = await run_in_threadpool(Path(found.path).read_bytes)
        name = f"{found.team}-v{found.version}{Path(found.path).suffix}"
        return Response(raw, media_type="application/octet-stream",
                        headers={"content-disposition": f'attachment; filename="{name}"', **_NO_STORE})

    async def rebuild_submission(request: Request) -> Response:
        """Build a submission again (a compile that failed on a busy machine, say): logged."""
        await posted(request)
        found = submission_of(request)
        await run_in_threadpool(lambda: rebuild(contest, submission_id=found.id, now=clock()))
        if on_submission is not None:
            on_submission(found.id)
        return RedirectResponse(f"/admin/submissions/{found.id}", status_code=303)

    async def rebuild_team(request: Request) -> Response:
        """Build a team's latest submission again: logged."""
        await posted(request)
        team = team_of(request)
        try:
            found = await run_in_threadpool(lambda: rebuild(contest, team=team.name, now=clock()))
        except ContestError as error:
            raise HTTPException(400, str(error)) from None
        if on_submission is not None:
            on_submission(found.id)
        return RedirectResponse(f"/admin/submissions/{found.id}", status_code=303)

    # -- rounds and games ------------------------------------------------------------------------------

    def games_view(csrf: str, notice: str | None = None, every: bool = False) -> str:
        replaying = set(judge.replaying) if judge is not None else set()
        rounds = contest.rounds_view()
        shown = len(rounds) if every else 5
        nodes = db.nodes([game["id"] for item in rounds[-shown:] for game in item["games"]
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
        return html(await run_in_threadpool(games_view, csrf, None, every))

    async def replay(game_id: int | None, raw_id: str, csrf: str) -> Response:
        if judge is None:
            raise HTTPException(503, "no judge runs with this server: serve the contest to play games again")
        game = db.game(game_id) if game_id is not None else None
        if game is None or game.state != "finished":
            raise HTTPException(404, f"no finished game {raw_id}")
        try:
            judge.replay(game.id)
        except (ValueError, RuntimeError) as error:  # already being played again; a judge that is stopping
            return html(await run_in_threadpool(games_view, csrf, str(error)), 409)
        note("play again", f"game {game.id}")
        return RedirectResponse("/admin/games", status_code=303)

    async def replay_game(request: Request) -> Response:
        csrf, _ = await posted(request)
        raw_id = request.path_params["id"]
        return await replay(ascii_number(raw_id), raw_id, csrf)

    async def replay_by_id(request: Request) -> Response:
        csrf, form = await posted(request)
        raw_id = form.get("game")
        raw_id = raw_id.strip() if isinstance(raw_id, str) else ""
        return await replay(ascii_number(raw_id), raw_id, csrf)

    # -- one team: why its bots fail, disable, hide, play its games again ----------------------------------

    def team_of(request: Request) -> Any:
        name = request.path_params["name"]
        team = db.team(name) if name != ADMIN else None
        if team is None:
            raise HTTPException(404, f"no team {name!r}")
        return team

    def full_game(game: GameRow) -> dict[str, Any]:
        """A game as ``/api/games`` lists it, with each seat's error detail in full (its standard error too)."""
        shown = game_json(game)
        for player, seat in zip(shown["players"], game.seats, strict=True):
            player["detail"] = seat.detail if game.state == "finished" else None
        return shown

    def team_view(team: Any, csrf: str, kind: str | None, version: int | None, notice: str | None = None) -> str:
        games = db.games(team_id=team.id, states=("running", "finished", "held"))
        figures = version_errors(games).get(team.name, {})
        if kind is not None or version is not None:
            chosen = {game_id for number, item in figures.items() if version is None or number == version
                      for game_id in (item["errors"].get(kind, []) if kind is not None else item["games"])}
            games = [game for game in games if game.id in chosen]
        replaying = set(judge.replaying) if judge is not None else set()
        return admin_pages.admin_team_page(
            team.name, flags=db.team_flags().get(team.id, set()),
            submissions=[s.to_json() for s in db.submissions(team_id=team.id)], figures=figures,
            games=[full_game(game) for game in reversed(games)], replaying=replaying, csrf=csrf,
            judging=judge is not None, kind=kind, version=version, notice=notice)

    async def team_page(request: Request) -> Response:
        csrf = logged_in(request)
        team = team_of(request)
        kind = request.query_params.get("kind")
        if kind is not None and kind not in (*ERROR_KINDS, "other"):
            raise HTTPException(400, f"no kind of error {kind[:20]!r}: one of {', '.join(ERROR_KINDS)}, other")
        raw_version = request.query_params.get("version")
        version = ascii_number(raw_version) if raw_version is not None else None
        if raw_version is not None and version is None:
            raise HTTPException(400, f"version {raw_version[:20]!r}: give a number")
        return html(await run_in_threadpool(team_view, team, csrf, kind, version))

    async def team_flags(request: Request) -> Response:
        """Disable (no more games) or enable, hide (from the public standings) or show a team."""
        _, form = await posted(request)
        team = team_of(request)
        flag, on = form.get("flag"), form.get("on")
        if flag not in ("disabled", "hidden") or on not in ("0", "1"):
            raise HTTPException(400, "the flag is disabled or hidden, and on is 0 or 1")

        def change() -> None:
            with db.transaction() as tx:
                if tx.set_team_flag(team.id, flag, on == "1"):
                    action = {("disabled", True): "disable", ("disabled", False): "enable",
                              ("hidden", True): "hide", ("hidden", False): "show"}[flag, on == "1"]
                    tx.log_admin(clock(), action, team.name)

        await run_in_threadpool(change)
        return RedirectResponse(f"/admin/teams/{quote(team.name, safe='')}", status_code=303)

    async def replay_team(request: Request) -> Response:
        """Play every finished game of a team again (after a fix of the judge, say)."""
        csrf, _ = await posted(request)
        if judge is None:
            raise HTTPException(503, "no judge runs with this server: serve the contest to play games again")
        team = team_of(request)
        started, busy = [], []
        for game in db.games(team_id=team.id, states=("finished",)):
            try:
                judge.replay(game.id)
                started.append(game.id)
            except (ValueError, RuntimeError):  # being played again already; a judge that is stopping
                busy.append(game.id)
        note("play again", f"every game of {team.name}: {len(started)} game(s)")
        notice = (f"{len(started)} game(s) of {team.name} are being played again"
                  + (f"; {len(busy)} could not be (being played again already, or the judge is stopping)"
                     if busy else ""))
        return html(await run_in_threadpool(team_view, team, csrf, None, None, notice))

    async def admin_replay(request: Request) -> Response:
        """A finished game in the viewer as the organiser sees it: every seat's output."""
        logged_in(request)
        raw_id = request.path_params["id"]
        game_id = ascii_number(raw_id)
        body = db.replay(game_id) if game_id is not None and db.replay_mark(game_id) is not None else None
        if game_id is None or body is None:
            raise HTTPException(404, f"no finished game {raw_id}")

        def build() -> tuple[dict[str, Any] | None, str | None]:

            from mjarena.web.library import UploadError, check_replay

            try:
                return {"name": str(game_id), **check_replay(body.encode())}, None
            except UploadError as error:
                return None, f"this replay cannot be shown: {error}"

        view, problem = await run_in_threadpool(build)
        return html(admin_pages.admin_replay_page(game_id, view, problem), 200 if view is not None else 422)

    # -- pairs of teams ----------------------------------------------------------------------------------

    cached: dict[str, Any] = {}

    def report() -> dict[str, Any]:
        """The report of pairs, made again only when the results changed (it reads every replay)."""
        mark = db.results_mark()
        if cached.get("mark") != mark:
            cached["report"], cached["mark"] = pairs_report(contest), mark
        return cached["report"]

    async def pairs(request: Request) -> Response:
        csrf = logged_in(request)
        return html(admin_pages.pairs_page(await run_in_threadpool(report), csrf))

    async def pairs_file(request: Request) -> Response:
        logged_in(request)
        text = pairs_csv(await run_in_threadpool(report))
        return Response(text, media_type="text/csv", headers={
            "content-disposition": 'attachment; filename="pairs.csv"', **_NO_STORE})

    async def release_game(request: Request) -> Response:
        """Play now a game held after repeated judge errors."""
        csrf, _ = await posted(request)
        if judge is None:
            raise HTTPException(503, "no judge runs with this server: serve the contest to play games")
        raw_id = request.path_params["id"]
        game_id = ascii_number(raw_id)
        game = db.game(game_id) if game_id is not None else None
        if game is None or game.state != "held":
            raise HTTPException(404, f"no game {raw_id} held after judge errors")
        try:
            judge.release(game.id)
        except (ValueError, RuntimeError) as error:  # released meanwhile; a judge that is stopping
            return html(await run_in_threadpool(console_view, csrf, str(error)), 409)
        note("play held game", f"game {game.id}")
        return RedirectResponse("/admin", status_code=303)

    async def export_json(request: Request) -> Response:
        logged_in(request)
        text = await run_in_threadpool(results_json, contest)
        return Response(text, media_type="application/json", headers={
            "content-disposition": 'attachment; filename="results.json"', **_NO_STORE})

    async def export_csv(request: Request) -> Response:
        logged_in(request)
        standings = await run_in_threadpool(contest.standings, clock())
        return Response(standings_csv(standings["rows"]), media_type="text/csv", headers={
            "content-disposition": 'attachment; filename="standings.csv"', **_NO_STORE})

    async def archive(request: Request) -> Response:
        """Every source and replay as one zip (:mod:`mjarena.contest.archive`), built in a temporary file."""
        import tempfile

        from starlette.background import BackgroundTask
        from starlette.responses import FileResponse

        from mjarena.contest.archive import write_archive

        logged_in(request)
        handle = tempfile.NamedTemporaryFile(prefix="mjarena-archive-", suffix=".zip", delete=False)  # noqa: SIM115
        path = Path(handle.name)
        try:
            with handle:
                await run_in_threadpool(write_archive, contest, handle)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return FileResponse(path, media_type="application/zip", filename="contest.zip", headers=_NO_STORE,
                            background=BackgroundTask(path.unlink, missing_ok=True))

    return [
        Route("/admin", console),
        Route("/admin/archive.zip", archive),
        Route("/admin/login", login_form),
        Route("/admin/login", login, methods=["POST"]),
        Route("/admin/logout", logout, methods=["POST"]),
        Route("/admin/teams", add_team, methods=["POST"]),
        Route("/admin/teams/{name}/token", rotate_team_token, methods=["POST"]),
        Route("/admin/teams/{name}", team_page),
        Route("/admin/teams/{name}/flags", team_flags, methods=["POST"]),
        Route("/admin/teams/{name}/replay", replay_team, methods=["POST"]),
        Route("/admin/replays/{id}", admin_replay),
        Route("/admin/token", rotate_admin_token, methods=["POST"]),
        Route("/admin/window", window, methods=["POST"]),
        Route("/admin/announcements", announcement, methods=["POST"]),
        Route("/admin/submissions", submissions),
        Route("/admin/submissions/{id}", submission),
        Route("/admin/submissions/{id}/source", source),
        Route("/admin/submissions/{id}/rebuild", rebuild_submission, methods=["POST"]),
        Route("/admin/teams/{name}/rebuild", rebuild_team, methods=["POST"]),
        Route("/admin/games", games),
        Route("/admin/games/replay", replay_by_id, methods=["POST"]),
        Route("/admin/games/{id}/replay", replay_game, methods=["POST"]),
        Route("/admin/pairs", pairs),
        Route("/admin/pairs.csv", pairs_file),
        Route("/admin/games/{id}/release", release_game, methods=["POST"]),
        Route("/admin/export.json", export_json),
        Route("/admin/export.csv", export_csv),
    ]

"""The console's teams: add one (its token shown once), give one a new token, one team's page (why its bots
fail, by kind of error and version), disable or hide it, play its games again, build its latest submission again.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.contest import admin_pages
from mjarena.contest.building import rebuild
from mjarena.contest.failures import ERROR_KINDS, version_errors
from mjarena.contest.handlers.console_controls import console_view
from mjarena.contest.handlers.console_sessions import html, logged_in, note, posted
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.model import ADMIN, ContestError, game_json
from mjarena.contest.rows import GameRow
from mjarena.i18n import N_, gettext, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["add_team", "rebuild_team", "replay_team", "rotate_team_token", "team_flags", "team_page"]


async def add_team(request: Request) -> Response:
    context = context_of(request)
    csrf, form = await posted(request)
    name = form.get("name")
    name = name.strip() if isinstance(name, str) else ""
    try:
        token = await run_in_threadpool(context.contest.add_team, name)
    except ContestError as error:
        return html(await run_in_threadpool(console_view, context, csrf, error.args[0]), 400)
    note(context, "add team", name)
    return html(admin_pages.token_page(name, token, csrf, N_("The token")))


async def rotate_team_token(request: Request) -> Response:
    context = context_of(request)
    csrf, _ = await posted(request)
    name = request.path_params["name"]
    if name == ADMIN or context.db.team(name) is None:
        raise HTTPException(404, worded(N_("no team %(name)s"), name=repr(name)))
    token = await run_in_threadpool(context.contest.rotate_token, name)
    note(context, "new token", name)
    return html(admin_pages.token_page(name, token, csrf))


def team_of(request: Request) -> Any:
    """The team the path names (never the organiser); 404 if none."""
    name = request.path_params["name"]
    team = context_of(request).db.team(name) if name != ADMIN else None
    if team is None:
        raise HTTPException(404, worded(N_("no team %(name)s"), name=repr(name)))
    return team


def full_game(game: GameRow) -> dict[str, Any]:
    """A game as ``/api/games`` lists it, with each seat's error detail in full (its standard error too)."""
    shown = game_json(game)
    for player, seat in zip(shown["players"], game.seats, strict=True):
        player["detail"] = seat.detail if game.state == "finished" else None
    return shown


def team_view(context: ContestContext, team: Any, csrf: str, kind: str | None, version: int | None,
              notice: str | None = None) -> str:
    """One team's page: its games (those with errors of ``kind``, of ``version``, when given)."""
    db, judge = context.db, context.judge
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
    return html(await run_in_threadpool(team_view, context_of(request), team, csrf, kind, version))


async def team_flags(request: Request) -> Response:
    """Disable (no more games) or enable, hide (from the public standings) or show a team."""
    context = context_of(request)
    _, form = await posted(request)
    team = team_of(request)
    flag, on = form.get("flag"), form.get("on")
    if flag not in ("disabled", "hidden") or on not in ("0", "1"):
        raise HTTPException(400, worded(N_("the flag is disabled or hidden, and on is 0 or 1")))

    def change() -> None:
        with context.db.transaction() as tx:
            if tx.set_team_flag(team.id, flag, on == "1"):
                action = {("disabled", True): "disable", ("disabled", False): "enable",
                          ("hidden", True): "hide", ("hidden", False): "show"}[flag, on == "1"]
                tx.log_admin(context.clock(), action, team.name)

    await run_in_threadpool(change)
    return RedirectResponse(f"/admin/teams/{quote(team.name, safe='')}", status_code=303)


async def replay_team(request: Request) -> Response:
    """Play every finished game of a team again (after a fix of the judge, say)."""
    context = context_of(request)
    judge = context.judge
    csrf, _ = await posted(request)
    if judge is None:
        raise HTTPException(503, N_("no judge runs with this server: serve the contest to play games again"))
    team = team_of(request)
    started, busy = [], []
    for game in context.db.games(team_id=team.id, states=("finished",)):
        try:
            judge.replay(game.id)
            started.append(game.id)
        except (ValueError, RuntimeError):  # being played again already; a judge that is stopping
            busy.append(game.id)
    note(context, "play again", f"every game of {team.name}: {len(started)} game(s)")
    notice = (gettext("%(count)s game(s) of %(team)s are being played again")
              % {"count": len(started), "team": team.name}
              + (gettext("; %(busy)s could not be (being played again already, or the judge is stopping)")
                 % {"busy": len(busy)} if busy else ""))
    return html(await run_in_threadpool(team_view, context, team, csrf, None, None, notice))


async def rebuild_team(request: Request) -> Response:
    """Build a team's latest submission again: logged."""
    context = context_of(request)
    await posted(request)
    team = team_of(request)
    try:
        found = await run_in_threadpool(lambda: rebuild(context.contest, team=team.name, now=context.clock()))
    except ContestError as error:
        raise HTTPException(400, str(error)) from None
    if context.on_submission is not None:
        context.on_submission(found.id)
    return RedirectResponse(f"/admin/submissions/{found.id}", status_code=303)

"""Each area's handlers tested alone: a handler of :mod:`mjarena.contest.handlers` or :mod:`mjarena.web.handlers`
called with a request built here, over a context of the test's own (a real contest in a temporary folder, or
stand-ins), with no app, no routes and no other handler.  One handler (or two) per area: the contest's API,
public pages, team's pages, login and sessions, and the console's sessions, controls, teams, games, submissions
and downloads; ``mjarena serve``'s library, tournaments and games against bots.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from mjarena.contest.auth import hash_token
from mjarena.contest.handlers import (
    api,
    console_controls,
    console_exports,
    console_games,
    console_sessions,
    console_submissions,
    console_teams,
    public_pages,
    sessions,
    team_pages,
)
from mjarena.contest.handlers.context import ContestContext
from mjarena.contest.model import Contest, Settings
from mjarena.web.handlers import library_pages, play_pages, tournament_pages
from mjarena.web.handlers.context import ServeContext
from mjarena.web.library import Library, NotFound

NOW = 1000.0


def built_request(context: Any, *, path_params: dict[str, str] | None = None, query: str = "",
                  headers: Sequence[tuple[str, str]] = (), cookies: dict[str, str] | None = None) -> Request:
    """A GET request to a stand-in app whose ``state.context`` is ``context``."""
    raw = [(name.lower().encode(), value.encode()) for name, value in headers]
    if cookies:
        raw.append((b"cookie", "; ".join(f"{name}={value}" for name, value in cookies.items()).encode()))
    scope = {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": query.encode(),
             "headers": raw, "path_params": path_params or {}, "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "scheme": "http", "root_path": "",
             "app": SimpleNamespace(state=SimpleNamespace(context=context))}
    return Request(scope)


def answer(handler: Callable[[Request], Awaitable[Response]], request: Request) -> Response:
    return asyncio.run(handler(request))


def refused(handler: Callable[[Request], Awaitable[Response]], request: Request) -> int:
    with pytest.raises(HTTPException) as caught:
        answer(handler, request)
    return caught.value.status_code


@pytest.fixture
def contest(tmp_path: Path) -> tuple[ContestContext, dict[str, Any]]:
    """A real contest of two teams (no bot uploaded), its context on a fixed clock, and its tokens."""
    made, tokens = Contest.create(tmp_path / "contest", ["red", "blue"],
                                  Settings(sandbox="none", start=NOW, duration=10.0))
    return ContestContext(made, clock=lambda: NOW), tokens


def team_cookie(context: ContestContext, team: str, expires: float = NOW + 60) -> dict[str, str]:
    team_id = next(row.id for row in context.db.teams() if row.name == team)
    with context.db.transaction() as tx:
        tx.add_session(hash_token("cookie-" + team), team_id, "csrf-" + team, expires)
    return {sessions.SESSION_COOKIE: "cookie-" + team}


def console_cookie(context: ContestContext) -> dict[str, str]:
    with context.db.transaction() as tx:
        tx.add_admin_session(hash_token("console"), "csrf-console", NOW + 60)
    return {console_sessions.ADMIN_COOKIE: "console"}


# -- the contest ----------------------------------------------------------------------------------------------

def test_api_a_team_lists_its_own_submissions_and_the_standings_list_every_team(contest: Any) -> None:
    context, tokens = contest
    bearer = [("authorization", f"Bearer {tokens['teams']['red']}")]
    listed = answer(api.api_submissions, built_request(context, headers=bearer))
    assert json.loads(listed.body) == {"submissions": []}
    assert refused(api.api_submission, built_request(context, headers=bearer, path_params={"id": "1"})) == 404
    standings = json.loads(answer(api.api_standings, built_request(context)).body)
    assert sorted(row["team"] for row in standings["rows"]) == ["blue", "red"]


def test_public_pages_a_team_page_and_the_race_chart_drawn_once_per_change(contest: Any) -> None:
    context, _ = contest
    assert refused(public_pages.team_games, built_request(context, path_params={"name": "nobody"})) == 404
    page = answer(public_pages.team_games, built_request(context, path_params={"name": "red"}))
    assert page.status_code == 200 and b"red" in page.body
    first = public_pages.race(context)
    context.drawn_race["en"]["figure"] = "kept"  # the context keeps the chart (one per language): no new drawing
    assert public_pages.race(context) == "kept" and first != "kept"


def test_team_pages_home_needs_a_session_that_the_context_clock_has_not_ended(contest: Any) -> None:
    context, _ = contest
    assert answer(team_pages.team_home, built_request(context)).headers["location"] == "/login"
    cookies = team_cookie(context, "red")
    home = answer(team_pages.team_home, built_request(context, cookies=cookies))
    assert home.status_code == 200 and b"red" in home.body and home.headers["cache-control"] == "no-store"
    later = ContestContext(context.contest, clock=lambda: NOW + 120)  # the same contest, past the session's end
    assert answer(team_pages.team_home, built_request(later, cookies=cookies)).status_code == 303


def test_sessions_who_is_asking(contest: Any) -> None:
    context, tokens = contest
    red = sessions.viewer(built_request(context, headers=[("authorization", f"Bearer {tokens['teams']['red']}")]))
    assert red is not None and red.name == "red"
    assert sessions.viewer_name(built_request(context, cookies=team_cookie(context, "blue"))) == "blue"
    assert sessions.viewer(built_request(context)) is None
    with pytest.raises(HTTPException) as caught:
        sessions.bearer(built_request(context, headers=[("authorization", "Basic x")]))
    assert caught.value.status_code == 401


def test_console_sessions_and_controls_the_front_page(contest: Any) -> None:
    context, _ = contest
    assert answer(console_controls.console, built_request(context)).headers["location"] == "/admin/login"
    with pytest.raises(HTTPException) as caught:
        console_sessions.logged_in(built_request(context))
    assert caught.value.status_code == 401
    page = answer(console_controls.console, built_request(context, cookies=console_cookie(context)))
    assert page.status_code == 200 and b"red" in page.body and b"blue" in page.body


def test_console_teams_a_team_page_and_its_filters(contest: Any) -> None:
    context, _ = contest
    cookies = console_cookie(context)
    page = answer(console_teams.team_page, built_request(context, cookies=cookies, path_params={"name": "red"}))
    assert page.status_code == 200 and b"red" in page.body
    assert refused(console_teams.team_page, built_request(context, cookies=cookies,
                                                          path_params={"name": "admin"})) == 404
    assert refused(console_teams.team_page, built_request(context, cookies=cookies, path_params={"name": "red"},
                                                          query="kind=nonsense")) == 400


def test_console_games_without_a_judge(contest: Any) -> None:
    context, _ = contest
    cookies = console_cookie(context)
    assert answer(console_games.games, built_request(context, cookies=cookies)).status_code == 200
    with pytest.raises(HTTPException) as caught:  # the context has no judge: nothing can be played again
        asyncio.run(console_games._replay(context, 1, "1", "csrf-console"))
    assert caught.value.status_code == 503


def test_console_submissions_and_downloads(contest: Any) -> None:
    context, _ = contest
    cookies = console_cookie(context)
    assert refused(console_submissions.submission, built_request(context, cookies=cookies,
                                                                 path_params={"id": "7"})) == 404
    assert refused(console_exports.export_csv, built_request(context)) == 401
    csv = answer(console_exports.export_csv, built_request(context, cookies=cookies))
    assert csv.media_type == "text/csv" and b"red" in csv.body and b"blue" in csv.body


# -- mjarena serve --------------------------------------------------------------------------------------------

class Room:
    """A stand-in for the room of games against bots: its opponents, no game."""

    def opponents(self, rules: str) -> list[str]:
        return [f"builtin:{rules}-bot"]

    def close(self) -> None:
        pass


class Shelf:
    """A stand-in library with one tournament that cannot be read, and no other."""

    def tournament(self, name: str) -> Any:
        raise NotFound(f"no tournament {name!r}")


def test_library_pages_the_index_sets_the_form_cookie_and_an_unknown_tile_is_404(tmp_path: Path) -> None:
    library = Library(tmp_path)
    context = ServeContext(library, Room(), max_upload=1234 << 10)  # type: ignore[arg-type]
    index = answer(library_pages.index, built_request(context))
    assert index.status_code == 200 and library_pages.FORM_COOKIE in index.headers["set-cookie"]
    assert b"1234" in index.body, "the upload limit shown is the context's"
    assert refused(library_pages.tile, built_request(context, path_params={"kind": "99"})) == 404
    assert refused(library_pages.index, built_request(context, query="page=0")) == 400


def test_tournament_pages_an_unknown_tournament_is_404() -> None:
    context = ServeContext(Shelf(), Room(), max_upload=1)  # type: ignore[arg-type]
    assert refused(tournament_pages.tournament_page, built_request(context, path_params={"name": "cup"})) == 404
    assert refused(tournament_pages.tournament_data, built_request(context, path_params={"name": "cup"})) == 404


def test_play_pages_the_options_are_the_rooms() -> None:
    from mjarena.rulesets import RULE_SETS

    context = ServeContext(Shelf(), Room(), max_upload=1)  # type: ignore[arg-type]
    offered = json.loads(answer(play_pages.play_options, built_request(context)).body)["rules"]
    assert [(item["name"], item["opponents"]) for item in offered] == [(name, [f"builtin:{name}-bot"])
                                                                       for name in RULE_SETS]

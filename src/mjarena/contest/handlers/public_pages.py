"""The public's pages: the standings with the race chart (and ``/charts/race``, its live updates), the rounds,
the results to print or project, a team's games, a replay, and the tiles' pictures.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from mjarena.contest import pages
from mjarena.contest.charts import race_chart, versions_chart
from mjarena.contest.disk import disk_notice
from mjarena.contest.handlers.context import ContestContext, context_of
from mjarena.contest.handlers.sessions import viewer_name
from mjarena.contest.handlers.shown import check_not_frozen, masked, rounds_shown, shown_standings, watchable
from mjarena.contest.model import game_json
from mjarena.contest.public import frozen_games, hidden_from
from mjarena.contest.statistics import contest_statistics
from mjarena.i18n import N_, active, worded
from mjarena.untrusted import number as ascii_number
from mjarena.web.tiles import BACK, KINDS, tile_svg

__all__ = ["index", "race", "race_fragment", "replay_page", "results", "rounds_page", "team_games", "tile"]


async def index(request: Request) -> Response:
    context = context_of(request)
    contest = context.contest
    standings = await run_in_threadpool(shown_standings, context)
    end = contest.end(context.clock())
    chart = await run_in_threadpool(race, context, standings)
    return HTMLResponse(pages.standings_page(standings, contest.start(), end, viewer_name(request), chart,
                                             notice=disk_notice(contest)))


def race(context: ContestContext, standings: dict | None = None) -> str:
    """The race chart, drawn again only when a result or the standings' order changed (every viewer's page
    asks for it as games finish); one kept per language (its titles and labels are the reader's)."""
    standings = standings or shown_standings(context)
    order = [row["team"] for row in standings["rows"]]
    frozen = frozen_games(context.contest, context.clock())
    key = (context.db.results_mark(), order, len(frozen))
    drawn = context.drawn_race.setdefault(active(), {})
    if drawn.get("key") != key:
        drawn.update(key=key, figure=race_chart(context.contest.history(frozen), order,
                                                teams=[team.name for team in context.db.teams()]))
    return drawn["figure"]


async def race_fragment(request: Request) -> Response:
    return HTMLResponse(await run_in_threadpool(race, context_of(request)), headers={"cache-control": "no-store"})


async def rounds_page(request: Request) -> Response:
    who = viewer_name(request)
    return HTMLResponse(pages.rounds_page(await run_in_threadpool(rounds_shown, context_of(request), who), who))


async def team_games(request: Request) -> Response:
    context = context_of(request)
    contest = context.contest
    name = request.path_params["name"]
    team = context.db.team(name)
    if team is None or hidden_from(contest, name, viewer_name(request)):
        raise HTTPException(404, worded(N_("no team %(name)s"), name=repr(name)))
    who = viewer_name(request)

    def view() -> str:  # the team's games read once, for its list, its versions' figures and its statistics
        rows = context.db.games(states=("running", "finished"), team_id=team.id)
        every = [game_json(game) for game in reversed(rows)]  # as Contest.games lists them
        hidden = () if who == name else frozen_games(contest, context.clock())
        figures = contest.version_figures(name, hidden, games=every)
        stats = contest_statistics(contest, hidden, team=name, games=rows)
        shown = watchable(context, masked(context, every, who), who)  # a running game it may follow: linked
        return pages.team_games_page(name, shown, who, versions_chart(name, figures),
                                     context.settings.limits_json(), figures, stats.get(name))

    return HTMLResponse(await run_in_threadpool(view))


def results_view(context: ContestContext, who: str | None) -> str:
    standings = shown_standings(context)
    frozen = frozen_games(context.contest, context.clock())
    stats = contest_statistics(context.contest, frozen)
    best: dict[str, int | None] = {}
    for row in standings["rows"]:
        figures = context.contest.version_figures(row["team"], frozen)
        best[row["team"]] = max(figures, key=lambda v: (figures[v]["points_per_game"], figures[v]["games"]),
                                default=None)
    return pages.results_page(standings, stats, best, who)


async def results(request: Request) -> Response:
    """The results, to print or project (the public's: hidden teams out, frozen games out until revealed)."""
    return HTMLResponse(await run_in_threadpool(results_view, context_of(request), viewer_name(request)))


async def replay_page(request: Request) -> Response:
    context = context_of(request)
    db = context.db
    raw_id = request.path_params["id"]
    game_id = ascii_number(raw_id)
    game = db.game(game_id) if game_id is not None and db.replay_mark(game_id) is not None else None
    if game_id is None or game is None:
        raise HTTPException(404, worded(N_("no finished game %(id)s"), id=raw_id))
    check_not_frozen(context, game_id, game, viewer_name(request))
    return HTMLResponse(pages.replay_page(game_id, viewer_name(request)))


async def tile(request: Request) -> Response:
    """A tile's picture (``back`` or its two-digit kind), the same as ``mjarena serve``'s.

    >>> import asyncio
    >>> from types import SimpleNamespace
    >>> asyncio.run(tile(SimpleNamespace(path_params={"kind": "back"}))).media_type
    'image/svg+xml'
    """
    name = request.path_params["kind"]
    kind = BACK if name == "back" else ascii_number(name, digits=2)
    if kind is None or (kind != BACK and kind not in KINDS):
        raise HTTPException(404, f"no tile picture {name!r}")
    return Response(tile_svg(kind), media_type="image/svg+xml", headers={"cache-control": "public, max-age=86400"})

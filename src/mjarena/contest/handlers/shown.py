"""What the public may see, as the API and the pages both show it: the standings (hidden teams out, the freeze's
games masked), games and rounds as a team may see them during the freeze, and a frozen game's replay kept back.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException

from mjarena.contest.handlers.context import ContestContext
from mjarena.contest.model import ADMIN
from mjarena.contest.public import frozen_games, frozen_since, public_standings, shown_games, shows_hidden_team
from mjarena.contest.rows import GameRow
from mjarena.i18n import N_, worded

__all__ = ["check_may_watch", "check_not_frozen", "masked", "rounds_shown", "shown_standings", "watchable"]


def shown_standings(context: ContestContext) -> dict[str, Any]:
    """The standings as the public sees them (:func:`mjarena.contest.public.public_standings`)."""
    return public_standings(context.contest, context.clock())


def masked(context: ContestContext, games: list[dict[str, Any]], who: str | None) -> list[dict[str, Any]]:
    """``games`` as ``who`` may see them during the freeze (the organiser: all of them)."""
    return games if who == ADMIN else shown_games(context.contest, games, who, context.clock())


def check_not_frozen(context: ContestContext, game_id: int, game: GameRow, who: str | None) -> None:
    """404 for a frozen game's replay, unless ``who`` played in it (or is the organiser)."""
    own = who is not None and any(seat.team == who for seat in game.seats)
    if who != ADMIN and shows_hidden_team(context.contest, game.seats, who):  # (issue 44: hidden is hidden)
        raise HTTPException(404, worded(N_("no finished game %(id)s"), id=game_id))
    if who != ADMIN and not own and game_id in frozen_games(context.contest, context.clock()):
        raise HTTPException(404, f"game {game_id} finished during the freeze: its replay is shown once the "
                            "results are revealed")


def rounds_shown(context: ContestContext, who: str | None) -> list[dict[str, Any]]:
    """Every round with its games as ``who`` may see them (a running game they may follow, ``"live": true``)."""
    return [{**item, "games": watchable(context, masked(context, item["games"], who), who)}
            for item in context.contest.rounds_view()]


def check_may_watch(context: ContestContext, game_id: int, game: GameRow | None, who: str | None) -> None:
    """404 unless ``who`` may follow game ``game_id`` as it is played (:mod:`mjarena.contest.live`) or, once it has
    finished, see its replay: the same rules as a finished game's replay (:func:`check_not_frozen`: a hidden team's
    games are its own and the organiser's), and during the freeze a game in progress is followed only by the teams
    that play in it and the organiser (its moves would tell what the frozen standings keep back)."""
    if game is None:
        raise HTTPException(404, worded(N_("no game %(id)s"), id=game_id))
    if game.state == "finished":
        check_not_frozen(context, game_id, game, who)
        return
    own = who is not None and any(seat.team == who for seat in game.seats)
    if who != ADMIN and shows_hidden_team(context.contest, game.seats, who):
        raise HTTPException(404, worded(N_("no game %(id)s"), id=game_id))
    if who != ADMIN and not own and frozen_since(context.contest, context.clock()) is not None:
        raise HTTPException(404, worded(N_("game %(id)s is played during the freeze: its moves are shown once the "
                                           "results are revealed"), id=game_id))


def watchable(context: ContestContext, games: list[dict[str, Any]], who: str | None) -> list[dict[str, Any]]:
    """``games`` (as :func:`masked` shows them to ``who``), each running game that ``who`` may follow
    (:func:`check_may_watch`) marked ``"live": true``: the pages link it to its live view."""
    if not any(game["state"] == "running" for game in games):
        return games
    frozen = who != ADMIN and frozen_since(context.contest, context.clock()) is not None
    return [{**game, "live": True} if game["state"] == "running" and (who == ADMIN or (
        not any(player.get("hidden") for player in game["players"])
        and (not frozen or any(player["team"] == who for player in game["players"] if who is not None)))) else game
        for game in games]

"""What the public may see, as the API and the pages both show it: the standings (hidden teams out, the freeze's
games masked), games and rounds as a team may see them during the freeze, and a frozen game's replay kept back.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException

from mjarena.contest.handlers.context import ContestContext
from mjarena.contest.model import ADMIN
from mjarena.contest.public import frozen_games, public_standings, shown_games, shows_hidden_team
from mjarena.contest.rows import GameRow
from mjarena.i18n import N_, worded

__all__ = ["check_not_frozen", "masked", "rounds_shown", "shown_standings"]


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
    """Every round with its games as ``who`` may see them."""
    return [{**item, "games": masked(context, item["games"], who)} for item in context.contest.rounds_view()]

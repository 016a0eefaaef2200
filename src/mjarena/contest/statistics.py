"""Each team's statistics over its finished games, for the teams' pages, the final results and the export: games,
wins (first place, shared or not) and the win rate, the average place, errors by kind
(:mod:`mjarena.contest.failures`), and thinking time per game (mean and most).

>>> from mjarena.contest.rows import GameRow, SeatRow
>>> seats = (SeatRow(0, "red", 1, 1, "ok", None, None, 1, 4.0), SeatRow(1, "blue", 1, 2, "error", "timeout", "x", 2,
...          3.0), SeatRow(2, None, None, None, "ok", None, None, 3, 2.0), SeatRow(3, None, None, None, "ok", None,
...          None, 4, 1.0))
>>> stats = team_statistics([GameRow(1, 1, 1, 1, 0, "finished", 0.0, 1.0, seats)], {("red", 1): 2.5})
>>> stats["red"]["win_rate"], stats["blue"]["average_place"], stats["blue"]["errors"], stats["red"]["thinking_max"]
(1.0, 2.0, {'timeout': 1}, 2.5)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from mjarena.contest.failures import ERROR_KINDS, kind_of
from mjarena.contest.rows import GameRow

__all__ = ["contest_statistics", "team_statistics"]


def team_statistics(games: Iterable[GameRow], thinking: Mapping[tuple[str, int], float]) -> dict[str, dict[str, Any]]:
    """``{team: {"games", "wins", "win_rate", "average_place", "errors": {kind: count}, "thinking_per_game",
    "thinking_max"}}`` over the finished ``games`` (house bots left out); ``thinking``: seconds by ``(team, game
    id)`` (games without a figure are left out of the thinking columns)."""
    found: dict[str, dict[str, Any]] = {}
    for game in games:
        if game.state != "finished":
            continue
        for seat in game.seats:
            if seat.team is None:
                continue
            item = found.setdefault(seat.team, {"games": 0, "wins": 0, "places": 0, "errors": {}, "timed": []})
            item["games"] += 1
            item["wins"] += seat.rank == 1
            item["places"] += seat.rank or 0
            kind = kind_of(seat.reason)
            if kind is not None:
                item["errors"][kind] = item["errors"].get(kind, 0) + 1
            if (seat.team, game.id) in thinking:
                item["timed"].append(thinking[seat.team, game.id])
    order = [*ERROR_KINDS, "other"]
    for item in found.values():
        timed = item.pop("timed")
        places = item.pop("places")
        item["win_rate"] = round(item["wins"] / item["games"], 4)
        item["average_place"] = round(places / item["games"], 4)
        item["errors"] = {kind: item["errors"][kind] for kind in order if kind in item["errors"]}
        item["thinking_per_game"] = round(sum(timed) / len(timed), 3) if timed else None
        item["thinking_max"] = round(max(timed), 3) if timed else None
    return found


def contest_statistics(contest: Any, exclude: Collection[int] = (), *, team: str | None = None
                       ) -> dict[str, dict[str, Any]]:
    """:func:`team_statistics` of a contest's finished games (``exclude``: games left out, the frozen ones);
    ``team``: that team's alone, from its own games (a team's page reads no other team's)."""
    db = contest.db
    teams = db.teams() if team is None else [found for found in [db.team(team)] if found is not None]
    if team is not None and not teams:
        return {}
    games = [game for game in db.games(states=("finished",), team_id=None if team is None else teams[0].id)
             if game.id not in exclude]
    thinking = {(item.name, game_id): seconds for item in teams
                for game_id, seconds in db.thinking_of(item.id).items()}
    found = team_statistics(games, thinking)
    return found if team is None else {name: item for name, item in found.items() if name == team}

"""The contest's results as files: the standings and every game as JSON, the standings as CSV, and the
organiser's report of pairs of teams (:mod:`mjarena.arena.collusion`) as CSV (``mjarena contest export`` and the
organiser's console give the same bytes).

The JSON holds what ``mjarena contest verify`` needs (:mod:`mjarena.contest.verify`): the rules, the commitment
and, once the contest is finished, the secret; each finished game's round, table, number, seats, wall, recorded
answers and results.  Before the end it holds no secret, so it can be shown while the window is open.

>>> print(standings_csv([{"rank": 1, "team": "red", "points": 3.5, "games": 2, "points_per_game": 1.75,
...                       "version": 2}]), end="")
rank,team,points,games,points_per_game,version
1,red,3.5,2,1.75,2
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from mjarena.arena.collusion import CollusionError, TableGame, collusion_report, game_from_replay, pairs_csv
from mjarena.spreadsheet import csv_text

__all__ = ["pairs_report", "pairs_report_csv", "results", "results_json", "standings_csv"]

COLUMNS = ("rank", "team", "points", "games", "points_per_game", "version")


FORMAT = "mjarena-contest-results"


def results(contest: Any) -> dict[str, Any]:
    """The results: the standings (with the commitment, and the secret once finished), every started game,
    newest first (a finished one with its ``number`` at its table, ``wall`` and ``answers``: its replay's
    decisions), and the report of pairs of teams (``collusion``)."""
    games = []
    replays: dict[int, Any] = {}  # read once, for the games' walls and answers and for the pairs' report
    numbers = {game.id: game.number for game in contest.db.games(states=("running", "finished"))}
    for game in contest.games():
        entry = {**game, "number": numbers.get(game["id"])}
        body = contest.db.replay(game["id"]) if game["state"] == "finished" else None
        if body is not None:
            replay = replays[game["id"]] = json.loads(body)
            entry.update(wall=replay.get("wall"), answers=[
                {key: item.get(key) for key in ("seat", "stage", "response", "by")}
                for item in replay.get("decisions", [])])
        games.append(entry)
    from mjarena.contest.messages import messages_json  # (it imports the model)
    from mjarena.contest.statistics import contest_statistics

    return {"format": FORMAT, "version": 1, "rules": contest.settings.rules,
            "games_per_table": contest.settings.games_per_table, **contest.standings(), "games": games,
            "collusion": pairs_report(contest, sorted(replays.items())), "messages": messages_json(contest, every=True),
            "statistics": contest_statistics(contest)}


def results_json(contest: Any) -> str:
    """:func:`results` as indented JSON text."""
    return json.dumps(results(contest), indent=2, ensure_ascii=False) + "\n"


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The standings' rows as CSV (an empty cell for a missing value; a name a spreadsheet would read as a
    formula after a quote: :func:`mjarena.spreadsheet.safe_cell`)."""
    return csv_text(COLUMNS, ([row[column] for column in COLUMNS] for row in rows))


def pairs_report(contest: Any, replays: Iterable[tuple[int, Any]] | None = None) -> dict[str, Any]:
    """:func:`mjarena.arena.collusion.collusion_report` of the contest's finished games (teams by seat from the
    database, house bots as None), with ``unreadable``: the ids of the games whose replay could not be read
    (left out, named rather than fatal).  ``replays``: ``(game id, replay read already)`` in id order, or None
    to read the database's."""
    seats = {game.id: [seat.team for seat in game.seats] for game in contest.db.games(states=("finished",))}
    games: list[TableGame] = []
    unreadable: list[int] = []
    for game_id, replay in contest.db.finished_replays() if replays is None else replays:
        try:
            data = json.loads(replay) if isinstance(replay, str) else replay
            games.append(game_from_replay(data, seats.get(game_id, ()), f"game {game_id}"))
        except (ValueError, CollusionError):
            unreadable.append(game_id)
    return {**collusion_report(games), "unreadable": unreadable}


def pairs_report_csv(contest: Any) -> str:
    """The report of pairs of teams, one ordered pair a line (:func:`mjarena.arena.collusion.pairs_csv`)."""
    return pairs_csv(pairs_report(contest))

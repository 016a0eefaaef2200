"""The contest's results as files: the standings and every game as JSON, the standings as CSV (``mjarena contest
export`` and the organiser's console give the same bytes).

The JSON holds what ``mjarena contest verify`` needs (:mod:`mjarena.contest.verify`): the rules, the commitment
and, once the contest is finished, the secret; each finished game's round, table, number, seats, wall, recorded
answers and results.  Before the end it holds no secret, so it can be shown while the window is open.

>>> print(standings_csv([{"rank": 1, "team": "red", "points": 3.5, "games": 2, "points_per_game": 1.75,
...                       "version": 2}]), end="")
rank,team,points,games,points_per_game,version
1,red,3.5,2,1.75,2
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["results", "results_json", "standings_csv"]

COLUMNS = ("rank", "team", "points", "games", "points_per_game", "version")


FORMAT = "mjarena-contest-results"


def results(contest: Any) -> dict[str, Any]:
    """The results: the standings (with the commitment, and the secret once finished) and every started game,
    newest first; a finished one with its ``number`` at its table, ``wall`` and ``answers`` (its replay's
    decisions)."""
    games = []
    numbers = {game.id: game.number for game in contest.db.games(states=("running", "finished"))}
    for game in contest.games():
        entry = {**game, "number": numbers.get(game["id"])}
        body = contest.db.replay(game["id"]) if game["state"] == "finished" else None
        if body is not None:
            replay = json.loads(body)
            entry.update(wall=replay.get("wall"), answers=[
                {key: item.get(key) for key in ("seat", "stage", "response", "by")}
                for item in replay.get("decisions", [])])
        games.append(entry)
    return {"format": FORMAT, "version": 1, "rules": contest.settings.rules,
            "games_per_table": contest.settings.games_per_table, **contest.standings(), "games": games}


def results_json(contest: Any) -> str:
    """:func:`results` as indented JSON text."""
    return json.dumps(results(contest), indent=2, ensure_ascii=False) + "\n"


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The standings' rows as CSV (an empty cell for a missing value)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(["" if row[column] is None else row[column] for column in COLUMNS])
    return out.getvalue()

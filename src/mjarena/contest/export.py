"""The contest's results as files: the standings and every game as JSON, the standings as CSV (``mjarena contest
export`` and the organiser's console give the same bytes).

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


def results(contest: Any) -> dict[str, Any]:
    """The final results: the standings and every game."""
    return {**contest.standings(), "games": contest.games()}


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

"""What the public sees of the standings: the organiser's view less the hidden teams (ranked again without them),
with the organiser's announcements to every team, and why the rounds have not opened yet
(:mod:`mjarena.contest.opening`).

>>> rows = [{"rank": 1, "team": "a", "points": 9.0}, {"rank": 2, "team": "b", "points": 5.0},
...         {"rank": 2, "team": "c", "points": 5.0}]
>>> [(row["rank"], row["team"]) for row in rerank([row for row in rows if row["team"] != "a"])]
[(1, 'b'), (1, 'c')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.contest.opening import waiting_for

__all__ = ["public_standings", "rerank"]


def rerank(rows: Sequence[dict[str, Any]], key: str = "points") -> list[dict[str, Any]]:
    """``rows`` (in their order) ranked again: equal ``key``, equal rank."""
    ranked: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        tied = index and row[key] == rows[index - 1][key]
        ranked.append({**row, "rank": ranked[-1]["rank"] if tied else index + 1})
    return ranked


def public_standings(contest: Any, standings: dict[str, Any]) -> dict[str, Any]:
    """``standings`` (``Contest.standings``) as the public sees them: hidden teams left out, the others ranked
    again; ``announcements`` (the organiser's messages to every team, newest first) and ``waiting`` (``{"ready",
    "needed"}`` while the first round waits for teams, else None) added."""
    db = contest.db
    hidden = {team.name for team in db.teams() if team.id in db.flagged("hidden")}
    rows = [row for row in standings["rows"] if row["team"] not in hidden]
    waiting = waiting_for(contest) if standings["state"] in ("running", "not_started") else None
    return {**standings, "rows": rerank(rows, standings.get("ranked_by", "points")),
            "announcements": [message.to_json() for message in db.announcements()],
            "waiting": None if waiting is None else {"ready": waiting[0], "needed": waiting[1]}}

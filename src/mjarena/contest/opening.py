"""When the rounds open: at once (a team's bot that builds is enough), or, as the organiser chose at ``create``
(``--open-with N`` or ``all``), once enough teams have a bot that builds, so that the first rounds are not one
team against three house bots.  Only the first round waits: once the rounds have opened they go on.

Disabled teams (:data:`mjarena.contest.schema.TEAM_FLAGS`) neither play nor count here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ALL_TEAMS", "playing_teams", "waiting_for"]

ALL_TEAMS = 0
"""``Settings.open_with`` for "every team" (``--open-with all``)."""


def playing_teams(contest: Any) -> dict[int, Any]:
    """``{team id: its current submission}`` of the teams that may play: a bot that builds, not disabled."""
    disabled = contest.db.flagged("disabled")
    return {team_id: bot for team_id, bot in contest.db.current_submissions().items() if team_id not in disabled}


def waiting_for(contest: Any) -> tuple[int, int] | None:
    """``(teams with a bot, teams needed)`` while the first round waits for teams, else None.

    >>> class Db:
    ...     def rounds(self): return []
    ...     def flagged(self, flag): return set()
    ...     def current_submissions(self): return {1: "v1"}
    ...     def teams(self): return [1, 2, 3]
    >>> class Settings: open_with = ALL_TEAMS
    >>> class C: db, settings = Db(), Settings()
    >>> waiting_for(C())
    (1, 3)
    """
    if contest.db.rounds():
        return None
    ready = len(playing_teams(contest))
    need = contest.settings.open_with
    if need == ALL_TEAMS:
        need = len(contest.db.teams()) - len(contest.db.flagged("disabled"))
    need = max(1, need)
    return (ready, need) if ready < need else None

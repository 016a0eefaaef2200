"""When the rounds open, as the organiser chose at ``create`` (``--opening``):

- ``together`` (what ``contest create`` chooses unless told otherwise): the first round waits for every
  registered team not disabled to have a bot that builds, or for the deadline (``--opening-deadline`` minutes
  after the window opens), whichever comes first; then the teams with a bot play.  Games with a house bot at the
  table count for no team (their results are kept, and shown, but not in the standings or the race): no team
  gains from building first, or from meeting house bots while others wait.
- ``first-build``: as soon as ``--open-with N`` teams (``all``: every team not disabled) have a bot that builds,
  and games against house bots count like any (a contest made before openings existed has this one).

Only the first round waits: once the rounds have opened they go on.  Disabled teams
(:data:`mjarena.contest.schema.TEAM_FLAGS`) neither play nor count here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ALL_TEAMS", "FIRST_BUILD", "OPENINGS", "TABLE", "TOGETHER", "deadline", "few_teams_note",
           "house_games_count", "opening_json", "playing_teams", "waiting_for"]

ALL_TEAMS = 0
"""``Settings.open_with`` for "every team" (``--open-with all``)."""

TOGETHER = "together"
FIRST_BUILD = "first-build"
OPENINGS = (TOGETHER, FIRST_BUILD)


def playing_teams(contest: Any) -> dict[int, Any]:
    """``{team id: its current submission}`` of the teams that may play: a bot that builds, not disabled."""
    disabled = contest.db.flagged("disabled")
    return {team_id: bot for team_id, bot in contest.db.current_submissions().items() if team_id not in disabled}


def house_games_count(settings: Any) -> bool:
    """Whether a game with a house bot at its table counts for its teams (not with the opening ``together``)."""
    return getattr(settings, "opening", FIRST_BUILD) != TOGETHER


TABLE = 4
"""Seats at a table: with fewer teams than this, every table seats a house bot."""


def few_teams_note(settings: Any, teams: int) -> str | None:
    """What ``create`` says when, with this opening and ``teams`` teams, no game would count for a team (every
    table then seats a house bot); None when games will count.

    >>> class Together:
    ...     opening = TOGETHER
    >>> print(few_teams_note(Together(), 3))
    with 3 teams every table seats a house bot, and with --opening together a game with a house bot counts for no \
team: no game counts until a fourth team plays (add teams at create or from the console, or choose --opening \
first-build)
    >>> few_teams_note(Together(), 0), few_teams_note(Together(), 4)
    (None, None)
    """
    if house_games_count(settings) or not 0 < teams < TABLE:
        return None
    return (f"with {teams} team{'s' if teams > 1 else ''} every table seats a house bot, and with --opening together "
            f"a game with a house bot counts for no team: no game counts until a fourth team plays (add teams at "
            f"create or from the console, or choose --opening first-build)")


def deadline(contest: Any) -> float | None:
    """When the first round opens with the teams that have a bot, whoever is missing (``together``; None for
    ``first-build``, or before the window has a start)."""
    start = contest.start()
    if contest.settings.opening != TOGETHER or start is None:
        return None
    return start + contest.settings.opening_deadline * 60.0


def opening_json(contest: Any) -> dict[str, Any]:
    """The opening as the standings show it: ``{"rule", "deadline", "house_games_count"}``."""
    return {"rule": contest.settings.opening, "deadline": deadline(contest),
            "house_games_count": house_games_count(contest.settings)}


def waiting_for(contest: Any, now: float | None = None) -> tuple[int, int] | None:
    """``(teams with a bot, teams needed)`` while the first round waits for teams, else None; ``now`` (None:
    never past the deadline) against the opening's deadline.

    >>> class Db:
    ...     def rounds(self): return []
    ...     def flagged(self, flag): return set()
    ...     def current_submissions(self): return {1: "v1"}
    ...     def teams(self): return [1, 2, 3]
    >>> class Settings: open_with, opening, opening_deadline = ALL_TEAMS, TOGETHER, 10.0
    >>> class C:
    ...     db, settings = Db(), Settings()
    ...     def start(self): return 0.0
    >>> waiting_for(C(), now=599.0), waiting_for(C(), now=600.0)
    ((1, 3), None)
    """
    if contest.db.rounds():
        return None
    ready = len(playing_teams(contest))
    every = len(contest.db.teams()) - len(contest.db.flagged("disabled"))
    if contest.settings.opening == TOGETHER:
        until = deadline(contest)
        need = 1 if until is not None and now is not None and now >= until else every
    else:
        need = contest.settings.open_with
        if need == ALL_TEAMS:
            need = every
    need = max(1, need)
    return (ready, need) if ready < need else None

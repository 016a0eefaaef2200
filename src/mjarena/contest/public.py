"""What the public sees of the standings: the organiser's view less the hidden teams (ranked again without them),
with the organiser's announcements to every team, and why the rounds have not opened yet
(:mod:`mjarena.contest.opening`); and the freeze.

**The freeze** (``create --freeze MINUTES``): from that many minutes before the window's end, the games that
finish are left out of the public standings and race, and their results out of the public game lists, rounds,
teams' pages and replays, until the organiser reveals them after the end (:func:`reveal`).  A team still sees
its own games (results and replays); the organiser sees everything.  Rounds planned during the freeze are paired
on the standings as they stood when it began (:func:`frozen_since`): their tables are public.

>>> rows = [{"rank": 1, "team": "a", "points": 9.0}, {"rank": 2, "team": "b", "points": 5.0},
...         {"rank": 2, "team": "c", "points": 5.0}]
>>> [(row["rank"], row["team"]) for row in rerank([row for row in rows if row["team"] != "a"])]
[(1, 'b'), (1, 'c')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from mjarena.contest.opening import opening_json, waiting_for
from mjarena.i18n import N_, worded

__all__ = ["freeze_from", "freeze_view", "frozen_games", "frozen_since", "hidden_from", "hidden_names", "mask_games",
           "public_standings", "rerank", "reveal", "reveal_waits", "revealed", "shown_games", "shows_hidden_team"]


def freeze_from(contest: Any, now: float) -> float | None:
    """When the public standings freeze (the window's end less ``--freeze`` minutes), or None (no freeze, or no
    start yet)."""
    end = contest.end(now)
    minutes = contest.settings.freeze
    return None if not minutes or end is None else end - minutes * 60.0


def revealed(contest: Any) -> float | None:
    """When the organiser revealed the frozen results (None: not yet)."""
    return contest.db.meta("revealed_at")


def frozen_since(contest: Any, now: float) -> float | None:
    """When the public standings froze, while they are frozen (None: they are live, or revealed)."""
    since = freeze_from(contest, now)
    if since is None or now < since or revealed(contest) is not None:
        return None
    return since


def frozen_games(contest: Any, now: float) -> set[int]:
    """The finished games whose results the public does not see yet: those finished since the freeze."""
    since = frozen_since(contest, now)
    if since is None:
        return set()
    return {game.id for game in contest.db.games(states=("finished",))
            if game.finished is not None and game.finished >= since}


def _games(count: int, replaying: bool = False) -> str:
    """``count`` games running (``replaying``: being played again), in words (:func:`mjarena.i18n.worded`).

    >>> _games(1), _games(3, replaying=True)
    ('1 game running', '3 games being played again')
    """
    if replaying:
        template = N_("1 game being played again") if count == 1 else N_("%(count)s games being played again")
    else:
        template = N_("1 game running") if count == 1 else N_("%(count)s games running")
    return worded(template, count=count)


def reveal_waits(contest: Any, now: float) -> str | None:
    """What the reveal waits for (None: nothing, it may be revealed now): the window's end, then every game of
    the window finished: those planned or running (the last round's), and the finished ones being played again.
    A game held after judge errors does not hold the reveal back (the console's *Play it now* plays it)."""
    end = contest.end(now)
    if end is None or now < end:
        return (worded(N_("the window's end")) if end is None
                else worded(N_("the window's end (%(when)s)"), when=when_text(end)))
    db = contest.db
    running = len(db.games(states=("planned", "running")))
    replaying = len(db.replaying())
    if running and replaying:
        return worded(N_("%(running)s and %(replaying)s"), running=_games(running),
                      replaying=_games(replaying, replaying=True))
    if running or replaying:
        return _games(running) if running else _games(replaying, replaying=True)
    if contest.state(now) != "finished":  # the last round's games are in, its close a moment away
        return worded(N_("the last round's close"))
    return None


def when_text(epoch: float) -> str:
    """An epoch time as every page writes it (:func:`mjarena.contest.pages.when`)."""
    from mjarena.contest.pages import when

    return when(epoch)


def reveal(contest: Any, now: float) -> float:
    """Reveal the frozen results (the prize-giving): refused (:class:`~mjarena.contest.settings.ContestError`) until
    every game of the window has finished (:func:`reveal_waits`), without a freeze, or a second time.  Logged
    with the organiser's actions."""
    from mjarena.contest.model import ContestError

    if not contest.settings.freeze:
        raise ContestError(worded(N_("nothing to reveal: this contest has no freeze (create --freeze MINUTES)")))
    if revealed(contest) is not None:
        raise ContestError(worded(N_("the results are revealed already")))
    waits = reveal_waits(contest, now)
    if waits is not None:
        raise ContestError(worded(N_("reveal the results once every game of the window has finished: waiting for "
                                     "%(waits)s"), waits=waits))
    with contest.db.transaction() as tx:
        tx.set_meta("revealed_at", now)
        tx.log_admin(now, "reveal", "the frozen results")
    return now


def freeze_view(contest: Any, now: float) -> dict[str, Any]:
    """The freeze as the console shows it: ``{"minutes", "from", "revealed", "waiting"}`` (``waiting``: what the
    reveal waits for, :func:`reveal_waits`, or None)."""
    return {"minutes": contest.settings.freeze, "from": freeze_from(contest, now), "revealed": revealed(contest),
            "waiting": reveal_waits(contest, now) if contest.settings.freeze else None}


def mask_games(games: Sequence[dict[str, Any]], frozen: Collection[int], viewer: str | None) -> list[dict[str, Any]]:
    """``games`` (``game_json``) as ``viewer`` (a team's name, or None) may see them during the freeze: a frozen
    game without the viewer's team in it keeps its seats but loses its results (state ``frozen``)."""
    if not frozen:
        return list(games)
    shown = []
    for game in games:
        if game["id"] in frozen and (viewer is None or all(player["team"] != viewer for player in game["players"])):
            game = {**game, "state": "frozen", "players": [
                {**player, "points": None, "rank": None, "status": None, "reason": None} for player in game["players"]]}
        shown.append(game)
    return shown


def hidden_names(contest: Any) -> set[str]:
    """The names of the teams the organiser hid (*Hide*): absent from every public page and API."""
    db = contest.db
    hidden = db.flagged("hidden")
    return {team.name for team in db.teams() if team.id in hidden} if hidden else set()


def hidden_from(contest: Any, team: str | None, viewer: str | None) -> bool:
    """Whether team ``team`` is hidden from ``viewer`` (a team's name, or None): a hidden team sees itself, the
    organiser everyone."""
    from mjarena.contest.names import ADMIN

    return team is not None and viewer not in (team, ADMIN) and team in hidden_names(contest)


def shown_games(contest: Any, games: Sequence[dict[str, Any]], viewer: str | None, now: float
                ) -> list[dict[str, Any]]:
    """``games`` (``game_json``) as ``viewer`` (a team's name, or None) may see them: a hidden team's seats lose
    its name and version (``"team": null, "hidden": true``; the team itself still sees them), and the freeze's
    games their results (:func:`mask_games`)."""
    hidden = hidden_names(contest) - {viewer}
    if hidden:
        games = [{**game, "players": [
            {**player, "team": None, "version": None, "hidden": True} if player["team"] in hidden
            else {**player, "without": None} if player.get("without") in hidden else player
            for player in game["players"]]} for game in games]
    return mask_games(games, frozen_games(contest, now), viewer)


def shows_hidden_team(contest: Any, seats: Sequence[Any], viewer: str | None) -> bool:
    """Whether a game with these seats (``SeatRow``) seats a team hidden from ``viewer`` (its replay answers 404
    then, unless ``viewer`` played in it)."""
    return any(hidden_from(contest, seat.team, viewer) for seat in seats) and not any(
        viewer is not None and seat.team == viewer for seat in seats)


def rerank(rows: Sequence[dict[str, Any]], key: str = "points") -> list[dict[str, Any]]:
    """``rows`` (in their order) ranked again: equal ``key``, equal rank."""
    ranked: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        tied = index and row[key] == rows[index - 1][key]
        ranked.append({**row, "rank": ranked[-1]["rank"] if tied else index + 1})
    return ranked


def public_standings(contest: Any, now: float) -> dict[str, Any]:
    """The standings (``Contest.standings``) as the public sees them: during the freeze as they stood when it
    began (points, games and thinking; ``frozen``: ``{"since"}`` then, else None), hidden teams left out and the
    others ranked again; ``contest``: ``{"name", "start", "end"}`` (the window);
    ``announcements`` (the organiser's messages to every team, newest first) and
    ``waiting`` (``{"ready", "needed", "deadline"}`` while the first round waits for teams, else None) and
    ``opening`` (:func:`mjarena.contest.opening.opening_json`) added."""
    db = contest.db
    since = frozen_since(contest, now)
    standings = contest.standings(now, as_of=since)
    hidden = {team.name for team in db.teams() if team.id in db.flagged("hidden")}
    key = standings.get("ranked_by", "points")
    rows = [row for row in standings["rows"] if row["team"] not in hidden]
    waiting = waiting_for(contest, now) if standings["state"] in ("running", "not_started") else None
    opening = opening_json(contest)
    return {**standings, "rows": rerank(rows, key), "frozen": None if since is None else {"since": since},
            "contest": {"name": contest.name, "start": contest.start(), "end": contest.end(now)},
            "announcements": [message.to_json() for message in db.announcements()],
            "opening": opening, "waiting": None if waiting is None else {
                "ready": waiting[0], "needed": waiting[1], "deadline": opening["deadline"]}}

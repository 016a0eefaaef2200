"""The organiser's console at ``/admin``: log in with the admin token, then

- ``/admin``: the window (pause, resume, extend it by some minutes, end it now; after its end none of them: a
  finished contest stays finished), every team with its versions, the version playing, the last build's
  verdict, games and points; add a team, give a team (or the organiser) a new token, shown once; the judge
  errors (a game the judge failed, not a bot: when and what), a game held after repeated ones played now; the
  log of the organiser's actions;
- ``/admin/submissions`` and ``/admin/submissions/{id}``: every submission, its source and build log;
  ``POST /admin/submissions/{id}/rebuild`` (and ``/admin/teams/{name}/rebuild``, its latest) builds it again;
- ``/admin/games``: the games running now (each linked to ``/admin/live/{id}``, the game followed as it is
  played), the last rounds (each finished game with the node that played it, from
  its replay), and a finished game played again from its record (its walls and pinned versions; the old result
  replaced in one transaction); on a Ray cluster, the nodes (their check, canary speed, flagged or left out, games
  played);
- ``/admin/pairs`` and ``/admin/pairs.csv``: the report of pairs of teams, whose discards the other claims or
  wins on more than the field explains (:mod:`mjarena.arena.collusion`); made again when a result changes;
- ``/admin/export.json`` and ``/admin/export.csv``: what ``mjarena contest export`` writes (``pairs.csv``: its
  ``--format pairs``).

A console session is a cookie of its own (HttpOnly, SameSite=Strict, path ``/admin``) kept in the
``admin_sessions`` table; every form carries its CSRF token and is refused from another origin.  Rotating the
admin token ends every console session.  Every action is written to the ``admin_log`` table.

The console's handlers are in :mod:`mjarena.contest.handlers` by area (``console_sessions``,
``console_controls``, ``console_teams``, ``console_games``, ``console_submissions``, ``console_exports``);
:data:`ROUTES` is the console's table of routes, which :data:`mjarena.contest.app.ROUTES` takes in whole.
"""

from __future__ import annotations

from starlette.routing import Route

from mjarena.contest.handlers import (
    console_controls,
    console_exports,
    console_games,
    console_sessions,
    console_submissions,
    console_teams,
    live_pages,
)
from mjarena.contest.handlers.console_sessions import ADMIN_COOKIE
from mjarena.contest.handlers.context import Judge

__all__ = ["ADMIN_COOKIE", "ROUTES", "Judge"]

ROUTES = [
    # logging in and out
    Route("/admin/login", console_sessions.login_form),
    Route("/admin/login", console_sessions.login, methods=["POST"]),
    Route("/admin/logout", console_sessions.logout, methods=["POST"]),
    # the front page and the contest's controls
    Route("/admin", console_controls.console),
    Route("/admin/window", console_controls.window, methods=["POST"]),
    Route("/admin/announcements", console_controls.announcement, methods=["POST"]),
    Route("/admin/token", console_controls.rotate_admin_token, methods=["POST"]),
    # teams
    Route("/admin/teams", console_teams.add_team, methods=["POST"]),
    Route("/admin/teams/{name}/token", console_teams.rotate_team_token, methods=["POST"]),
    Route("/admin/teams/{name}", console_teams.team_page),
    Route("/admin/teams/{name}/flags", console_teams.team_flags, methods=["POST"]),
    Route("/admin/teams/{name}/replay", console_teams.replay_team, methods=["POST"]),
    Route("/admin/teams/{name}/rebuild", console_teams.rebuild_team, methods=["POST"]),
    # games, replays and pairs
    Route("/admin/games", console_games.games),
    Route("/admin/games/replay", console_games.replay_by_id, methods=["POST"]),
    Route("/admin/games/{id}/replay", console_games.replay_game, methods=["POST"]),
    Route("/admin/games/{id}/release", console_games.release_game, methods=["POST"]),
    Route("/admin/replays/{id}", console_games.admin_replay),
    Route("/admin/live/{id}", live_pages.admin_live_page),
    Route("/admin/live/{id}/view", live_pages.admin_live_view),
    Route("/admin/pairs", console_games.pairs),
    Route("/admin/pairs.csv", console_games.pairs_file),
    # submissions
    Route("/admin/submissions", console_submissions.submissions),
    Route("/admin/submissions/{id}", console_submissions.submission),
    Route("/admin/submissions/{id}/source", console_submissions.source),
    Route("/admin/submissions/{id}/rebuild", console_submissions.rebuild_submission, methods=["POST"]),
    # downloads
    Route("/admin/export.json", console_exports.export_json),
    Route("/admin/export.csv", console_exports.export_csv),
    Route("/admin/archive.zip", console_exports.archive),
]
"""The console's routes, by area."""

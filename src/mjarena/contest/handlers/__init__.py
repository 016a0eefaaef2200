"""The contest server's handlers, module-level functions grouped by area, each reading what it needs from one
small context (:class:`~mjarena.contest.handlers.context.ContestContext`, on ``app.state.context``):

- :mod:`.context`: the context (the contest, its clock, the judge, the view cache, the limiters, what the
  pages keep between requests) and how a handler finds it;
- :mod:`.sessions`: who is asking (a bearer token, a team's session cookie), logging in and out;
- :mod:`.shown`: what the public may see (the freeze's masks), shared by the API and the pages;
- :mod:`.uploads`: a team's upload and its own submissions, shared by the API and the team's pages;
- :mod:`.api`: the JSON API under ``/api/``;
- :mod:`.public_pages`: the standings, rounds, results, a team's games, a replay, the tiles;
- :mod:`.team_pages`: a logged-in team's page: upload, history, questions;
- the organiser's console (:mod:`mjarena.contest.admin` lists its routes): :mod:`.console_sessions` (its login,
  and what every console handler shares), :mod:`.console_controls` (the front page: the window,
  announcements, the admin token), :mod:`.console_teams`, :mod:`.console_games` (games, replays, pairs),
  :mod:`.console_submissions` and :mod:`.console_exports`.

The routes are two tables: :data:`mjarena.contest.app.ROUTES` and :data:`mjarena.contest.admin.ROUTES`;
:func:`mjarena.contest.app.create_app` only assembles them over a context.
"""

"""A contest as a live service: teams submit bots at any time, Swiss rounds are played back to back, the
standings are live (``mjarena contest``, ``mjarena submit``; docs/contest.md).

- :mod:`~mjarena.contest.db`: every query and write (SQLite, portable SQL), over the tables of
  :mod:`~mjarena.contest.schema`, giving back the rows of :mod:`~mjarena.contest.rows`;
- :mod:`~mjarena.contest.model`: a contest folder, its settings, window, tokens and standings;
- :mod:`~mjarena.contest.sources`: languages, builds and how a submission runs;
- :mod:`~mjarena.contest.scheduler`: builds, Swiss rounds and games in worker processes;
- :mod:`~mjarena.contest.games`: one game in a worker, and what the public may see of its replay;
- :mod:`~mjarena.contest.app` and :mod:`~mjarena.contest.pages`: the API and pages (``mjarena[web]``), their
  handlers by area in :mod:`~mjarena.contest.handlers`;
- :mod:`~mjarena.contest.service`: ``serve``, :mod:`~mjarena.contest.processes`: no process left behind;
- :mod:`~mjarena.contest.client`: ``mjarena submit``; the subcommands' parsers and handlers are
  :mod:`mjarena.cli.contest`.
"""

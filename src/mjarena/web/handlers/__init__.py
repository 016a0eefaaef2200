"""``mjarena serve``'s handlers, module-level functions grouped by area, each reading what it needs from one
small context (:class:`~mjarena.web.handlers.context.ServeContext`, on ``app.state.context``):

- :mod:`.context`: the context (the library of replays and tournaments, the room of games against bots, the
  upload limit, the replay views built at once, the rating charts kept) and how a handler finds it;
- :mod:`.common`: what the handlers share (a request body within a limit and a deadline, the client a request
  counts against, JSON in and out);
- :mod:`.library_pages`: the index, an upload, a replay's page and data, the tiles' pictures;
- :mod:`.tournament_pages`: a tournament's page and its standings, games and rating chart;
- :mod:`.play_pages`: a game against bots (the choices offered, a game started, its state, a move).

:data:`mjarena.web.app.ROUTES` is every route in one table; :func:`mjarena.web.app.create_app` only assembles.
"""

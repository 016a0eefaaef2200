"""The one context every handler of the contest's app reads: :class:`ContestContext` on ``app.state.context``.

A handler is a module-level function of the request alone; what it shares with the others (the contest, the
clock, the judge, the upload limiter, the kept views and charts) it reads from here, so it can be tested with a
context of its own:

>>> from types import SimpleNamespace
>>> contest = SimpleNamespace(settings=SimpleNamespace(uploads_per_minute=6), db="db")
>>> context = ContestContext(contest)  # a stand-in contest
>>> request = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(context=context)))
>>> context_of(request).db, context_of(request).uploads.count
('db', 6)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from mjarena.contest.auth import RateLimiter
from mjarena.contest.pairs import KeptPairs
from mjarena.contest.views import ViewCache

if TYPE_CHECKING:
    from mjarena.contest.db import Database
    from mjarena.contest.model import Contest, Settings

__all__ = ["LIVE_BUDGET", "ContestContext", "Judge", "context_of"]

LIVE_BUDGET = 8 << 20
"""Bytes of the games in progress' views kept (compressed)."""


class Judge(Protocol):
    """What the console asks of the judge that plays the games (:class:`mjarena.contest.scheduler.Scheduler`)."""

    replaying: Collection[int]

    def replay(self, game_id: int) -> Future[bool]: ...

    def release(self, game_id: int) -> Future[None]: ...


@dataclass
class ContestContext:
    """What the handlers share: ``contest`` (:class:`mjarena.contest.model.Contest`), ``clock`` (epoch
    seconds), ``judge`` (plays games again for the console; None: the console says it cannot), ``on_submission``
    (told of each stored upload: the builder's queue), ``uploads`` (each team's upload rate), ``views`` (the
    replays' kept views), ``live_views`` (the games in progress' views, :mod:`mjarena.contest.live`: kept
    apart, so that a game's views as it grows never push out the replays'), and what the pages keep between
    requests (the race chart, ``pairs``: the report of pairs, the node that played each game)."""

    contest: Contest
    clock: Callable[[], float] = time.time
    judge: Judge | None = None
    on_submission: Callable[[int], None] | None = None
    uploads: RateLimiter = field(init=False)
    views: ViewCache = field(default_factory=ViewCache)
    live_views: ViewCache = field(default_factory=lambda: ViewCache(budget=LIVE_BUDGET))
    drawn_race: dict[str, Any] = field(default_factory=dict)
    pairs: KeptPairs = field(default_factory=KeptPairs)

    def __post_init__(self) -> None:
        self.uploads = RateLimiter(self.contest.settings.uploads_per_minute, 60.0)

    @property
    def db(self) -> Database:
        """The contest's database."""
        return self.contest.db

    @property
    def settings(self) -> Settings:
        """The contest's settings."""
        return self.contest.settings


def context_of(request: Any) -> ContestContext:
    """The context of the app that ``request`` came to."""
    return request.app.state.context

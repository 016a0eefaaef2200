"""The expensive views a visitor can ask for (a replay for the viewer, a team's turns), each built once and kept.

Building a replay's view reads the whole replay, parses it and lays out the viewer's data: tens of milliseconds
to seconds of the server's one Python process.  Asked for in a loop by anonymous clients, it starved everyone
else (a bystander's ``/api/standings`` went from 2 ms to over a second).  So a view is built once per game and
per way of seeing it (the public's, or one team's with its own seats' output), when first asked for, and kept:

- :class:`ViewCache` keeps the answers (their status and their bytes, gzip-compressed: sent as they are to a
  client that accepts gzip, as every browser does) under a key that changes when the game's result does (a game
  played again is finished again), up to ``budget`` bytes, least recently used dropped first.  A view that
  cannot be built (a 422) is kept like any other answer.
- Two requests for a view not built yet wait for one build (one build per key at a time), and at most
  ``builders`` views are built at once, whoever asks: a flood of requests for many replays takes one thread.
  The waiting is done in the event loop, so waiting requests hold none of the threads that other requests
  (the standings) need.
- A client may make at most ``per_client`` builds a minute (:class:`~mjarena.contest.auth.RateLimiter`; a kept
  view costs nothing and is not counted): past that it gets a 429 saying when to try again.

>>> cache = ViewCache(budget=1 << 20)
>>> made = []
>>> def build() -> tuple[int, bytes]:
...     made.append(1)
...     return 200, b'{"big": "view"}'
>>> async def three() -> list[tuple[int, bytes]]:
...     return await asyncio.gather(*[cache.get(("replay", 1, 5.0, ()), build, client="a", now=0.0)
...                                   for _ in range(3)])
>>> {(status, gzip.decompress(packed)) for status, packed in asyncio.run(three())}
{(200, b'{"big": "view"}')}
>>> len(made), cache.builds
(1, 1)
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from mjarena.contest.auth import RateLimiter

__all__ = ["BUDGET", "BUILDS_PER_MINUTE", "ViewCache"]

BUDGET = 64 << 20
"""Bytes of compressed views kept (64 MiB)."""
BUILDS_PER_MINUTE = 30
"""Views one client may have built in a minute (kept views are free)."""


class ViewCache:
    """Built views by key, compressed, within ``budget`` bytes; see the module's docstring."""

    def __init__(self, *, budget: int = BUDGET, per_client: int = BUILDS_PER_MINUTE, builders: int = 1) -> None:
        self.budget = budget
        self.builds = 0
        """How many views were built (a test counts the work with it)."""
        self._kept: OrderedDict[Hashable, tuple[int, bytes]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._building: dict[Hashable, asyncio.Lock] = {}
        self._builders = asyncio.Semaphore(builders)
        self._limiter = RateLimiter(per_client, 60.0)

    def _kept_copy(self, key: Hashable) -> tuple[int, bytes] | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
        return found

    async def get(self, key: Hashable, build: Callable[[], tuple[int, bytes]], *, client: str | None, now: float,
                  ) -> tuple[int, bytes]:
        """The answer under ``key`` (its status and its gzip-compressed bytes), built by ``build()`` (its status and
        bytes, in a worker thread) when not kept; 429 when ``client`` has had its builds for this minute (None: the
        organiser's console, not limited).  Called in the event loop (one loop per cache)."""
        found = self._kept_copy(key)
        if found is not None:
            return found
        one = self._building.setdefault(key, asyncio.Lock())
        try:
            async with one:  # one build per key: the others wait for it and take what it kept
                found = self._kept_copy(key)
                if found is not None:
                    return found
                if client is not None and not self._limiter.allow(client, now=now):
                    wait = max(1, round(self._limiter.retry_after(client, now=now)))
                    raise HTTPException(429, f"too many replays asked for: at most {self._limiter.count} a minute "
                                        f"that were not viewed before; try again in {wait} s",
                                        headers={"retry-after": str(wait)})
                async with self._builders:
                    answer = await run_in_threadpool(_built, build)
                    self.builds += 1
                self._keep(key, answer)
                return answer
        finally:
            if not one.locked() and self._building.get(key) is one:
                del self._building[key]

    def _keep(self, key: Hashable, answer: tuple[int, bytes]) -> None:
        """Keep ``answer`` unless it alone is over the budget; drop the least recently used past the budget."""
        if len(answer[1]) > self.budget:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            self._size -= len(old[1]) if old is not None else 0
            self._kept[key] = answer
            self._size += len(answer[1])
            while self._size > self.budget:
                _, dropped = self._kept.popitem(last=False)
                self._size -= len(dropped[1])


def _built(build: Callable[[], tuple[int, bytes]]) -> tuple[int, bytes]:
    status, body = build()
    return status, gzip.compress(body, compresslevel=6)

"""The one context every handler of ``mjarena serve`` reads: :class:`ServeContext` on ``app.state.context``.

>>> import asyncio, tempfile
>>> from mjarena.web.library import Library
>>> from mjarena.web.play_room import PlayRoom
>>> library = Library(tempfile.mkdtemp())
>>> context = ServeContext(library, PlayRoom(library.root, ()), max_upload=1 << 20)
>>> context.charts, context.view_builds._value
({}, 2)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from mjarena.web.library import Library
from mjarena.web.play_room import PlayRoom

__all__ = ["VIEW_BUILDS", "ServeContext", "context_of"]

VIEW_BUILDS = 2
"""Replay views read or built at once (each takes up to some 30 MB while it is built); more requests wait their
turn on the event loop, holding no thread."""


@dataclass
class ServeContext:
    """What the handlers share: the ``library`` of replays and tournaments under the folder, the ``room`` of
    games against bots, ``max_upload`` (bytes per uploaded replay), ``view_builds`` (replay views read or built at
    once) and ``charts`` (each tournament's rating chart, with the games it was drawn from, by tournament and
    language)."""

    library: Library
    room: PlayRoom
    max_upload: int
    view_builds: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(VIEW_BUILDS))
    charts: dict[tuple[str, str], tuple[Any, dict[str, str]]] = field(default_factory=dict)


def context_of(request: Any) -> ServeContext:
    """The context of the app that ``request`` came to."""
    return request.app.state.context

"""The web app behind ``mjarena serve``: replays, tournaments and games against bots, in a browser.

Needs the ``web`` extra (``pip install 'mjarena[web]'``: Starlette, uvicorn, python-multipart).  The modules
that are plain Python (:mod:`~mjarena.web.timeline`, :mod:`~mjarena.web.play` and its room and choices,
:mod:`~mjarena.web.library`, :mod:`~mjarena.web.tiles`) import without it; :func:`create_app` is loaded on first use.

>>> from mjarena.web import timeline
>>> timeline.seat_names("noi2014")
('East', 'South', 'West', 'North')
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from mjarena.web.app import create_app

        return create_app
    raise AttributeError(f"module 'mjarena.web' has no attribute {name!r}")

"""Serving the app on the open internet's terms: uvicorn with timeouts on every way a visitor can hold on.

- A request's head (request line and headers) must arrive within :data:`HEADER_SECONDS` of the connection
  opening, or of the previous response on a kept-alive connection; else the connection is closed (uvicorn
  alone waits for ever: one slow visitor per connection can exhaust the server's sockets).
- Bodies must arrive within :data:`mjarena.web.app.BODY_SECONDS` (408), idle kept-alive connections close after
  :data:`KEEP_ALIVE_SECONDS`, heads are at most :data:`MAX_HEAD` bytes, and at most :data:`MAX_CONNECTIONS`
  connections are served at once (503 beyond).
- Long-polls (``/api/play/<id>?wait=``) wait on the event loop, not in worker threads
  (:meth:`mjarena.web.play.PlaySession.next_view`).

>>> config(object(), "127.0.0.1", 8000).timeout_keep_alive
5
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "MAX_CONNECTIONS", "MAX_HEAD", "config", "serve"]

HEADER_SECONDS = 10.0
"""Time a client has to send a request's head."""
KEEP_ALIVE_SECONDS = 5
"""An idle kept-alive connection closes after this."""
MAX_HEAD = 16 << 10
"""Largest request head (bytes)."""
MAX_CONNECTIONS = 256
"""Connections served at once; more get 503."""


class TimelyH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head does not arrive in time."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _too_slow(self) -> None:
        self._head_timer = None
        if self._between_requests() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._between_requests():
            self._arm()  # a new request is starting: its head has HEADER_SECONDS
        super().data_received(data)
        if not self._between_requests():
            self._disarm()  # its head arrived

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def config(app: Any, host: str, port: int, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration :func:`serve` uses (``options`` override it, as in tests)."""
    settings: dict[str, Any] = {
        "http": TimelyH11, "timeout_keep_alive": KEEP_ALIVE_SECONDS, "h11_max_incomplete_event_size": MAX_HEAD,
        "limit_concurrency": MAX_CONNECTIONS, "log_level": "warning", "server_header": False,
    }
    return uvicorn.Config(app, host=host, port=port, **{**settings, **options})


def serve(app: Any, host: str, port: int) -> None:
    """Run ``app`` until Ctrl-C."""
    uvicorn.Server(config(app, host, port)).run()

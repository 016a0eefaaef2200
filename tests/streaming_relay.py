"""A reverse proxy on loopback that streams request bodies as they come, as Caddy's ``reverse_proxy`` does by
default: each connection to it is relayed to a backend, its request head with ``X-Forwarded-For`` (the visitor's
address) added, and every byte after it passed on at once, both ways (one request a connection).

>>> with StreamingRelay(("127.0.0.1", 9)) as (host, port):
...     host
'127.0.0.1'
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from typing import Any


class StreamingRelay:
    """The relay to ``backend`` (host, port), run on an event loop of its own in a thread while the ``with`` block
    lasts; the block gets its address on 127.0.0.1.  It connects to the backend from 127.0.0.1, an address the
    server trusts for ``X-Forwarded-For`` (uvicorn's default)."""

    def __init__(self, backend: tuple[str, int]) -> None:
        self.backend = backend
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: Any = None

    def __enter__(self) -> tuple[str, int]:
        self._thread.start()
        start = asyncio.start_server(self._relay, "127.0.0.1", 0, backlog=256)
        self._server = asyncio.run_coroutine_threadsafe(start, self._loop).result(10)
        return self._server.sockets[0].getsockname()[:2]

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        visitor = writer.get_extra_info("peername")[0]
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            upstream_reader, upstream = await asyncio.open_connection(*self.backend, local_addr=("127.0.0.1", 0))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.close()
            return
        line, _, rest = head.partition(b"\r\n")
        upstream.write(line + b"\r\nX-Forwarded-For: " + visitor.encode() + b"\r\n" + rest)
        forward = asyncio.ensure_future(_pipe(reader, upstream))
        try:
            await _pipe(upstream_reader, writer)
        finally:
            forward.cancel()
            upstream.close()
            writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Every byte from ``reader`` to ``writer`` as it comes, until the end or an error."""
    with contextlib.suppress(OSError, asyncio.CancelledError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()


def visitor_socket(relay: tuple[str, int], address: str, timeout: float = 10.0) -> socket.socket:
    """A connection to the relay from ``address`` (one of loopback's 127.0.0.0/8: a visitor of its own)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((address, 0))
    sock.connect(relay)
    return sock

"""Serving an app on the open internet's terms: uvicorn with a bound on every way a visitor can hold on.

``mjarena serve`` and ``mjarena contest serve`` both run their app with :func:`config` in a :class:`Server`, after
:func:`raise_open_file_limit`, with :func:`mjarena.logs.limit_repeats` on their loggers:

- A request's head (request line and headers) must arrive within :data:`HEADER_SECONDS` of the connection
  opening, or of the previous response on a kept-alive connection; else the connection is closed (uvicorn
  alone waits for ever: one slow visitor per connection can exhaust the server's sockets).
- Bodies must arrive within :data:`mjarena.web.app.BODY_SECONDS` (408: :func:`mjarena.web.app.read_body`), a
  response the client stops reading is dropped after :data:`SEND_SECONDS`, idle kept-alive connections close
  after :data:`KEEP_ALIVE_SECONDS`, and heads are at most :data:`MAX_HEAD` bytes, however they arrive (uvicorn
  alone bounds only a head that arrives in pieces): a larger one gets 431 and the connection is closed.
- Connections are counted when they are accepted (:class:`Connections`): at most :data:`PER_CLIENT` per client
  (an IPv4 address, an IPv6 /64) and at most :func:`total_cap` in all, derived from the open-file limit so that
  the process never runs out of file descriptors.  At the total cap a newcomer closes the oldest idle connection
  of the client holding the most (one client flooding the server cannot lock the others out); a connection
  beyond the caps gets a 503 and is closed at once.
- The kernel queues up to :data:`LISTEN_QUEUE` connections waiting to be accepted (:class:`Server`), while
  asyncio accepts at most :data:`ACCEPT_BURST` at a time.
- Long-polls (``/api/play/<id>?wait=``) wait on the event loop, not in worker threads
  (:meth:`mjarena.web.play.PlaySession.next_view`).

>>> config(object(), "127.0.0.1", 8000).timeout_keep_alive
5
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
from collections import OrderedDict
from typing import Any, Protocol

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from mjarena.logs import limit_repeats

try:
    import resource
except ImportError:  # Windows: no per-process limit on sockets to read or raise
    resource = None  # type: ignore[assignment]

__all__ = ["ACCEPT_BURST", "FD_RESERVE", "HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "LISTEN_QUEUE", "MAX_HEAD",
           "MAX_TOTAL", "PER_CLIENT", "SEND_SECONDS", "Connections", "Server", "TimelyH11", "client_of", "config",
           "open_file_limit", "raise_open_file_limit", "serve", "total_cap"]

HEADER_SECONDS = 10.0
"""Time a client has to send a request's head."""
KEEP_ALIVE_SECONDS = 5
"""An idle kept-alive connection closes after this."""
SEND_SECONDS = 30.0
"""A response the client has stopped reading (the send buffer full all along) is dropped after this."""
MAX_HEAD = 16 << 10
"""Largest request head (bytes)."""
PER_CLIENT = 32
"""Connections one client (an IPv4 address, an IPv6 /64) may hold at once."""
MAX_TOTAL = 4096
"""Connections held at once, however high the open-file limit."""
MIN_TOTAL = 16
"""Connections held at once, however low the open-file limit."""
FD_RESERVE = 256
"""File descriptors kept for the rest of the process: a running contest's judge (its database, the worker pool's
pipes, the builds' compilers) used 39 at most with 2 workers (25 idle), measured in ``/proc/PID/fd`` during games
and builds."""
ACCEPT_BURST = 100
"""Connections accepted in one turn of the event loop (asyncio's default; asyncio takes uvicorn's ``backlog`` for
it): a connection is refused two turns after it is accepted, so up to three bursts are open beyond the caps."""
LISTEN_QUEUE = 2048
"""Connections the kernel queues for the server to accept (uvicorn's default backlog; they hold no file
descriptor of the server's): a burst of connections waits there rather than being dropped."""


UNLIMITED_HARD_CLAMP = 10240
"""The soft open-file limit asked for when the hard limit is unlimited (macOS by default, where a soft limit above
``OPEN_MAX``, 10240, is refused; Linux refuses one above ``nr_open``)."""


def open_file_limit() -> int:
    """This process's soft open-file limit; unlimited (``-1``, as :func:`total_cap` reads it) where there is none
    (Windows)."""
    if sys.platform == "win32" or resource is None:
        return -1
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_open_file_limit() -> int:
    """Raise this process's soft open-file limit to its hard limit, or to :data:`UNLIMITED_HARD_CLAMP` where the
    hard limit is unlimited (its children inherit it; the sandbox gives each boxed program its own); returns the
    soft limit now (:func:`open_file_limit`)."""
    if sys.platform == "win32" or resource is None:
        return open_file_limit()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(soft, UNLIMITED_HARD_CLAMP) if hard == resource.RLIM_INFINITY else hard
    if soft != target:
        with contextlib.suppress(ValueError, OSError):  # refused: keep the soft limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return open_file_limit()


def total_cap(open_files: int, *, reserve: int = FD_RESERVE, burst: int = ACCEPT_BURST,
              ceiling: int = MAX_TOTAL) -> int:
    """Connections to hold at once with ``open_files`` file descriptors: what is left after the ``reserve`` and
    three accept bursts, between :data:`MIN_TOTAL` and ``ceiling``.

    >>> total_cap(1024), total_cap(20_000), total_cap(-1)  # -1: unlimited (RLIM_INFINITY, or Windows)
    (468, 4096, 4096)
    """
    if open_files == -1:
        return ceiling
    if sys.platform != "win32" and resource is not None and open_files == resource.RLIM_INFINITY:
        return ceiling
    return max(MIN_TOTAL, min(ceiling, open_files - reserve - 3 * burst))


def client_of(peer: Any) -> str:
    """The client a connection from ``peer`` (a socket's peer name) counts against: its IPv4 address, or its
    IPv6 /64 network (one machine is commonly given a whole /64); ``local`` for a Unix socket.

    >>> client_of(("127.0.0.2", 50000)), client_of(("::ffff:10.0.0.1", 80, 0, 0))
    ('127.0.0.2', '10.0.0.1')
    >>> client_of(("2001:db8::1", 50000, 0, 0)), client_of("")
    ('2001:db8::/64', 'local')
    """
    if not isinstance(peer, tuple) or not peer:
        return "local"
    host = str(peer[0])
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


class Connection(Protocol):
    """What :class:`Connections` needs of a connection."""

    def idle(self) -> bool:
        """No request in progress (none started, or its response sent): closing it loses nothing."""
        ...

    def drop(self) -> None:
        """Close the connection."""
        ...


class Connections:
    """The connections a server holds, by client, within ``per_client`` each and ``total`` in all.

    >>> class Fake:
    ...     def __init__(self, name, idle=True):
    ...         self.name, self.busy, self.dropped = name, not idle, False
    ...     def idle(self):
    ...         return not self.busy
    ...     def drop(self):
    ...         self.dropped = True
    ...     def __repr__(self):
    ...         return self.name
    >>> held = Connections(per_client=2, total=3)
    >>> a1, a2, a3, b1, c1 = Fake("a1"), Fake("a2"), Fake("a3"), Fake("b1"), Fake("c1")
    >>> held.admit(a1, "a"), held.admit(a2, "a"), held.admit(a3, "a")
    (None, None, 'too many connections from your address')
    >>> held.admit(b1, "b"), held.admit(c1, "c"), a1.dropped, len(held)
    (None, None, True, 3)
    >>> held.admit(Fake("b2"), "b")  # every client holds one: none holds more than b, no one to close for it
    'the server is full'
    """

    def __init__(self, per_client: int = PER_CLIENT, total: int = MAX_TOTAL) -> None:
        self.per_client = per_client
        self.total = total
        self._by_client: dict[str, OrderedDict[Connection, None]] = {}  # each client's, oldest first
        self._client: dict[Connection, str] = {}

    def __len__(self) -> int:
        return len(self._client)

    def count(self, client: str) -> int:
        """The connections ``client`` holds."""
        return len(self._by_client.get(client, ()))

    def admit(self, connection: Connection, client: str) -> str | None:
        """Hold ``connection`` of ``client`` (None), closing another client's idle connection at the total cap,
        or say why it is refused (it is then not held, and the caller closes it)."""
        if self.count(client) >= self.per_client:
            return "too many connections from your address"
        if len(self) >= self.total and not self._make_room(client):
            return "the server is full"
        self._by_client.setdefault(client, OrderedDict())[connection] = None
        self._client[connection] = client
        return None

    def release(self, connection: Connection) -> None:
        """Forget ``connection`` (closed); nothing if it is not held."""
        client = self._client.pop(connection, None)
        if client is None:
            return
        held = self._by_client[client]
        del held[connection]
        if not held:
            del self._by_client[client]

    def _make_room(self, client: str) -> bool:
        """Close the oldest idle connection of the client holding the most, among those holding more than
        ``client`` does; False if there is none."""
        mine = self.count(client)
        larger = [held for held in self._by_client.values() if len(held) > mine]
        for held in sorted(larger, key=len, reverse=True):
            victim = next((connection for connection in held if connection.idle()), None)
            if victim is not None:
                self.release(victim)
                victim.drop()
                return True
        return False


_REFUSED = "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n" \
           "content-length: {length}\r\n\r\n{text}"


def _refuse(transport: asyncio.BaseTransport, reason: str, status: str = "503 Service Unavailable",
            advice: str = ": try again later") -> None:
    """A 503 (or ``status``) saying ``reason``, and the connection closed (before the request is handled)."""
    text = f"{reason}{advice}\n"
    if isinstance(transport, asyncio.WriteTransport):
        transport.write(_REFUSED.format(status=status, length=len(text), text=text).encode())
    transport.close()


class TimelyH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol within :class:`Connections`' caps, closing a connection whose request head
    does not arrive in time or whose client stops reading its response."""

    header_seconds = HEADER_SECONDS
    send_seconds = SEND_SECONDS
    max_head = MAX_HEAD
    per_client = PER_CLIENT
    total: int | None = None
    """The total cap; None: :func:`total_cap` of the soft open-file limit when the first connection arrives."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0  # of the request head arriving now
        refused = self._connections().admit(self, client_of(transport.get_extra_info("peername")))
        self._held = refused is None
        if refused is not None:
            self.transport = transport
            _refuse(transport, refused)
            return
        super().connection_made(transport)
        self._arm()

    def _connections(self) -> Connections:
        """The server's :class:`Connections` (one per uvicorn server, kept in its state)."""
        held = getattr(self.server_state, "mjarena_connections", None)
        if held is None:
            total = self.total or total_cap(open_file_limit())
            held = Connections(self.per_client, total)
            self.server_state.mjarena_connections = held  # type: ignore[attr-defined]
        return held

    def idle(self) -> bool:
        """No request in progress: none started (its head may be arriving) or its response sent."""
        return self.cycle is None or self.cycle.response_complete

    def drop(self) -> None:
        """Close the connection (to make room for another client's)."""
        if not self.transport.is_closing():
            self.transport.close()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.idle() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.idle():
            self._arm()  # a new request is starting: its head has HEADER_SECONDS
            end = data.find(b"\r\n\r\n")
            self._head_bytes += len(data) if end < 0 else end + 4
            if self._head_bytes > self.max_head:
                self._disarm()
                _refuse(self.transport, f"the request head is larger than {self.max_head >> 10} KiB",
                        "431 Request Header Fields Too Large", "")
                return
            if end >= 0:
                self._head_bytes = 0
        super().data_received(data)
        if not self.idle():
            self._disarm()  # its head arrived

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.send_seconds, self._not_reading)

    def resume_writing(self) -> None:
        self._stop_send_timer()
        super().resume_writing()

    def _stop_send_timer(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _not_reading(self) -> None:
        self._send_timer = None
        self.transport.abort()  # close() would wait for the unread response to be sent

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._stop_send_timer()
        if not self._held:
            return
        self._connections().release(self)
        super().connection_lost(exc)


def config(app: Any, host: str, port: int, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration both servers use (``options`` add to it or override it, as in tests)."""
    settings: dict[str, Any] = {
        "http": TimelyH11, "timeout_keep_alive": KEEP_ALIVE_SECONDS, "h11_max_incomplete_event_size": MAX_HEAD,
        "backlog": ACCEPT_BURST, "log_level": "warning", "server_header": False,
    }
    return uvicorn.Config(app, host=host, port=port, **{**settings, **options})


class Server(uvicorn.Server):
    """uvicorn's server, its listening sockets given a queue of :data:`LISTEN_QUEUE` connections once serving
    (asyncio listens with the accept burst, :data:`ACCEPT_BURST`)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        for listening in getattr(self, "servers", ()):
            for shared in listening.sockets:
                with shared.dup() as sock:  # the same socket
                    sock.listen(LISTEN_QUEUE)


def serve(app: Any, host: str, port: int) -> None:
    """Run ``app`` until Ctrl-C."""
    raise_open_file_limit()
    settings = config(app, host, port)  # which sets up uvicorn's loggers: their filters come after
    limit_repeats()
    Server(settings).run()

"""Serving an app on the open internet's terms: uvicorn with a bound on every way a visitor can hold on.

``mjarena serve`` and ``mjarena contest serve`` both run their app with :func:`config` in a :class:`Server`, after
:func:`raise_open_file_limit`, with :func:`mjarena.logs.limit_repeats` on their loggers:

- A request's head (request line and headers) must arrive within :data:`HEADER_SECONDS` of the connection
  opening, or of the previous response on a kept-alive connection; else the connection is closed (uvicorn
  alone waits for ever: one slow visitor per connection can exhaust the server's sockets).
- Bodies must arrive within :data:`BODY_SECONDS` (408, below, and :func:`mjarena.web.app.read_body`), a
  response the client stops reading is dropped after :data:`SEND_SECONDS`, idle kept-alive connections close
  after :data:`KEEP_ALIVE_SECONDS`, and heads are at most :data:`MAX_HEAD` bytes, however they arrive (uvicorn
  alone bounds only a head that arrives in pieces): a larger one gets 431 and the connection is closed.
- Connections are counted when they are accepted (:class:`Connections`): at most :data:`PER_CLIENT` per client
  (an IPv4 address, an IPv6 /64) and at most :func:`total_cap` in all, derived from the open-file limit so that
  the process never runs out of file descriptors.  At the total cap a newcomer closes the oldest idle connection
  of the client holding the most (one client flooding the server cannot lock the others out); a connection
  beyond the caps gets a 503 and is closed at once.
- A trusted proxy (an address in uvicorn's ``forwarded_allow_ips``: 127.0.0.1 and ::1 unless
  ``FORWARDED_ALLOW_IPS`` says otherwise) carries many visitors: its connections count against the total cap
  alone, and each visitor, the address it forwards in ``X-Forwarded-For``, may have :data:`PER_CLIENT` requests
  in progress (:class:`Visitors`; 503 beyond), so that one visitor cannot take every connection of the proxy.
- A request's body must arrive within :data:`BODY_SECONDS` of its head, whatever the route does with it: else
  408 (or, once the response has begun, the connection closed).
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

__all__ = ["ACCEPT_BURST", "BODY_SECONDS", "FD_RESERVE", "HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "LISTEN_QUEUE",
           "MAX_HEAD", "MAX_TOTAL", "PER_CLIENT", "SEND_SECONDS", "Connections", "Server", "TimelyH11", "Visitors",
           "client_of", "config", "open_file_limit", "raise_open_file_limit", "serve", "total_cap", "trusts"]

HEADER_SECONDS = 10.0
"""Time a client has to send a request's head."""
BODY_SECONDS = 30.0
"""Time a client has, from the end of a request's head, to send its body (408 after it)."""
KEEP_ALIVE_SECONDS = 5
"""An idle kept-alive connection closes after this."""
SEND_SECONDS = 30.0
"""A response the client has stopped reading (the send buffer full all along) is dropped after this."""
MAX_HEAD = 16 << 10
"""Largest request head (bytes)."""
PER_CLIENT = 32
"""Connections one client (an IPv4 address, an IPv6 /64) may hold at once; behind a trusted proxy, requests in
progress one visitor may have (:class:`Visitors`)."""
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


def trusts(allowed: str | list[str], host: str) -> bool:
    """Whether uvicorn takes ``X-Forwarded-For`` from a peer at ``host``, by its ``forwarded_allow_ips``
    (``allowed``: addresses and networks, separated by commas, or ``*`` for any).

    >>> trusts("127.0.0.1,::1", "127.0.0.1"), trusts("10.0.0.0/8", "10.1.2.3"), trusts("127.0.0.1", "10.1.2.3")
    (True, True, False)
    """
    items = [item.strip() for item in (allowed.split(",") if isinstance(allowed, str) else allowed)]
    if "*" in items:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host in items  # a Unix socket's name, as uvicorn compares it
    for item in items:
        try:
            if address in ipaddress.ip_network(item, strict=False):
                return True
        except ValueError:
            continue
    return False


_BUSY = b"too many requests in progress from your address: try again later\n"


class Visitors:
    """At most ``per_client`` requests in progress for one visitor (:func:`client_of` the request's client: behind a
    trusted proxy, the address it forwarded, which uvicorn's proxy-headers middleware, outside this one, put in the
    scope); a request beyond them gets 503 at once, before its body is read.

    >>> import asyncio
    >>> async def slow(scope, receive, send):
    ...     await asyncio.sleep(0.05)
    >>> sent = []
    >>> async def send(message):
    ...     sent.append(message.get("status"))
    >>> visitors = Visitors(slow, per_client=1)
    >>> async def two():
    ...     scope = {"type": "http", "client": ("203.0.113.9", 1)}
    ...     await asyncio.gather(visitors(scope, None, send), visitors(scope, None, send))
    >>> asyncio.run(two()); sent
    [503, None]
    """

    def __init__(self, app: Any, per_client: int = PER_CLIENT) -> None:
        self.app = app
        self.per_client = per_client
        self._in_progress: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        visitor = client_of(scope.get("client") or "")
        if self._in_progress.get(visitor, 0) >= self.per_client:
            await send({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                (b"content-length", str(len(_BUSY)).encode())]})
            await send({"type": "http.response.body", "body": _BUSY})
            return
        self._in_progress[visitor] = self._in_progress.get(visitor, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self._in_progress[visitor] - 1
            if left:
                self._in_progress[visitor] = left
            else:
                del self._in_progress[visitor]

    def __getattr__(self, name: str) -> Any:  # the app's own attributes (its ``state``) through the wrapper
        return getattr(self.app, name)


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

    def admit(self, connection: Connection, client: str, *, capped: bool = True) -> str | None:
        """Hold ``connection`` of ``client`` (None), closing another client's idle connection at the total cap,
        or say why it is refused (it is then not held, and the caller closes it).  A client not ``capped`` (a
        trusted proxy, carrying many visitors) has no cap of its own, and at the total cap may close its own
        oldest idle connection too."""
        if capped and self.count(client) >= self.per_client:
            return "too many connections from your address"
        if len(self) >= self.total and not self._make_room(client, own=not capped):
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

    def _make_room(self, client: str, *, own: bool = False) -> bool:
        """Close the oldest idle connection of the client holding the most, among those holding more than
        ``client`` does (and ``client`` itself when ``own``); False if there is none."""
        mine = self.count(client)
        larger = [held for name, held in self._by_client.items() if len(held) > mine or (own and name == client)]
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
    body_seconds = BODY_SECONDS
    send_seconds = SEND_SECONDS
    max_head = MAX_HEAD
    per_client = PER_CLIENT
    total: int | None = None
    """The total cap; None: :func:`total_cap` of the soft open-file limit when the first connection arrives."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0  # of the request head arriving now
        peer = transport.get_extra_info("peername")
        proxy = (self.config.proxy_headers and isinstance(peer, tuple) and bool(peer)
                 and trusts(self.config.forwarded_allow_ips, str(peer[0])))
        refused = self._connections().admit(self, client_of(peer), capped=not proxy)
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
            if self.cycle.more_body and self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_seconds, self._body_too_slow, self.cycle)
        if self._body_timer is not None and (self.cycle is None or not self.cycle.more_body):
            self._stop_body_timer()

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_too_slow(self, cycle: Any) -> None:
        """The body of ``cycle``'s request is not in after :attr:`body_seconds`: 408 if no response has begun, and
        the connection closed (the app reading the body is told the client left)."""
        self._body_timer = None
        if cycle is not self.cycle or not cycle.more_body or self.transport.is_closing():
            return
        if not cycle.response_started:
            cycle.response_started = True
            _refuse(self.transport, f"the request body did not arrive within {self.body_seconds:g} seconds",
                    "408 Request Timeout", "")
        cycle.disconnected = True
        cycle.message_event.set()
        self.transport.close()

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
        self._stop_body_timer()
        if not self._held:
            return
        self._connections().release(self)
        super().connection_lost(exc)


def config(app: Any, host: str, port: int, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration both servers use (``options`` add to it or override it, as in tests); the app
    within :class:`Visitors`' cap."""
    settings: dict[str, Any] = {
        "http": TimelyH11, "timeout_keep_alive": KEEP_ALIVE_SECONDS, "h11_max_incomplete_event_size": MAX_HEAD,
        "backlog": ACCEPT_BURST, "log_level": "warning", "server_header": False,
    }
    return uvicorn.Config(Visitors(app), host=host, port=port, **{**settings, **options})


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

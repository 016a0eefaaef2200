"""A server that stays up (:mod:`mjarena.web.server`, :mod:`mjarena.logs`): connections capped per client and in
total with the oldest idle connection of the largest client closed for a newcomer, repeated log lines counted
instead of written, and ``mjarena contest serve`` under a 1,024 open-file limit answering ``GET /`` in under 2 s
while 1,100 slow connections from 40 loopback addresses trickle their request heads, its log growing under 1 MiB.

Loopback only; every process and socket is the test's own and is closed at the end.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import logging
import os
import resource
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from live_server import running
from mjarena.logs import RepeatFilter, limit_repeats
from mjarena.web.server import Connections, TimelyH11, config, total_cap

MJARENA = [sys.executable, "-m", "mjarena.cli"]
OPEN_FILES = 1024
SLOW = 1100
PROBE_FROM = "127.0.0.200"


# -- the caps, in-process ------------------------------------------------------------------------------------


class Fake:
    """A connection for :class:`Connections`: idle unless ``busy``; ``dropped`` once closed to make room."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.dropped = False

    def idle(self) -> bool:
        return not self.busy

    def drop(self) -> None:
        self.dropped = True


def test_a_client_holds_at_most_its_cap_and_a_closed_connection_frees_its_place() -> None:
    held = Connections(per_client=3, total=100)
    mine = [Fake() for _ in range(3)]
    assert [held.admit(connection, "10.0.0.1") for connection in mine] == [None] * 3
    assert held.admit(Fake(), "10.0.0.1") == "too many connections from your address"
    assert held.admit(Fake(), "10.0.0.2") is None, "another client is not concerned"
    held.release(mine[0])
    held.release(mine[0])  # twice: nothing more
    assert held.count("10.0.0.1") == 2 and held.admit(Fake(), "10.0.0.1") is None
    assert not any(connection.dropped for connection in mine)


def test_at_the_total_cap_a_newcomer_closes_the_oldest_idle_connection_of_the_largest_client() -> None:
    held = Connections(per_client=10, total=6)
    flood = [Fake(busy=index == 0) for index in range(4)]  # its oldest has a request in progress
    other = [Fake(), Fake()]
    for connection in flood:
        assert held.admit(connection, "flood") is None
    for connection in other:
        assert held.admit(connection, "other") is None
    assert held.admit(Fake(), "newcomer") is None
    assert [connection.dropped for connection in flood] == [False, True, False, False], "oldest idle, not busy"
    assert not any(connection.dropped for connection in other) and len(held) == 6
    assert held.admit(Fake(), "flood") == "the server is full", "the largest client cannot push others out"
    assert held.count("flood") == 3


def test_a_full_server_of_busy_connections_refuses_the_newcomer() -> None:
    held = Connections(per_client=10, total=2)
    busy = [Fake(busy=True), Fake(busy=True)]
    for connection in busy:
        assert held.admit(connection, "a") is None
    assert held.admit(Fake(), "b") == "the server is full"
    assert not any(connection.dropped for connection in busy)


SmallServer = tuple[tuple[str, int], Any]


@pytest.fixture
def small_server() -> Iterator[SmallServer]:
    """A real server behind :func:`mjarena.web.server.config` with caps of 2 per client and 3 in all, which drops
    a response not read for 0.5 s: its address and the uvicorn server."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    class Small(TimelyH11):
        per_client = 2
        total = 3
        send_seconds = 0.5

    async def hello(request: Any) -> PlainTextResponse:
        return PlainTextResponse("hello")

    async def big(request: Any) -> Response:
        return Response(b"x" * (64 << 20))

    app = Starlette(routes=[Route("/", hello), Route("/big", big)])
    # no proxy trusted: 127.0.0.1 is a client like the others (a trusted proxy's own cap is tests/test_proxy_limits.py)
    server = uvicorn.Server(config(app, "127.0.0.1", 0, http=Small, proxy_headers=False))
    with running(server) as address:
        yield address, server


def _connect(address: tuple[str, int], source: str) -> socket.socket:
    connection = socket.socket()
    connection.settimeout(5)
    connection.bind((source, 0))
    connection.connect(address)
    return connection


def _get(address: tuple[str, int], source: str) -> bytes:
    """The whole answer to ``GET /`` from ``source``."""
    with _connect(address, source) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
        return received


def _refusal(address: tuple[str, int], source: str) -> bytes:
    """What the server sends a connection from ``source`` before it is asked anything (a request sent at once
    may meet the refused connection's reset instead)."""
    with _connect(address, source) as connection:
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
        return received


def test_the_caps_on_a_live_server_refuse_with_503_and_make_room_for_a_newcomer(small_server: SmallServer) -> None:
    address, _ = small_server
    slow = [_connect(address, "127.0.0.1") for _ in range(2)]
    for connection in slow:
        connection.sendall(b"GET / HTTP/1.1\r\n")  # a head that never ends
    third = _refusal(address, "127.0.0.1")
    assert third.startswith(b"HTTP/1.1 503")
    assert third.endswith(b"too many connections from your address: try again later\n")
    other = _connect(address, "127.0.0.2")
    other.sendall(b"GET / HTTP/1.1\r\n")
    answer = _get(address, "127.0.0.3")  # the server is full: 127.0.0.1's oldest makes room
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello")
    assert slow[0].recv(1024) == b"", "the oldest idle connection of the largest client was closed"
    slow[1].settimeout(0.3)
    with pytest.raises(TimeoutError):
        slow[1].recv(1024)
    for connection in [*slow, other]:
        connection.close()


def test_a_response_the_client_does_not_read_is_dropped(small_server: SmallServer) -> None:
    address, server = small_server
    with _connect(address, "127.0.0.1") as reader:
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")  # and never a recv

        def held() -> int:
            return len(getattr(server.server_state, "mjarena_connections", ()))

        deadline = time.monotonic() + 10
        while held() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        started = time.monotonic()
        while held() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert held() == 0 and not server.server_state.connections, "the stalled response was dropped"
        assert time.monotonic() - started >= 0.4, "after the client had 0.5 s to read"


# -- the log filter ------------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _logger(name: str, repeat: RepeatFilter | None) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    log = logging.getLogger(name)
    log.handlers = [logging.StreamHandler(stream)]
    log.propagate = False
    log.setLevel(logging.INFO)
    log.filters = [repeat] if repeat else []
    return log, stream


def _accept_failed(log: logging.Logger) -> None:
    """One line of code logging an error with its traceback, as asyncio's accept loop does."""
    try:
        raise OSError(errno.EMFILE, "Too many open files")
    except OSError:
        log.exception("accept failed on fd %d", 7)


def test_a_repeated_error_is_one_line_per_interval_with_a_count_and_no_second_traceback() -> None:
    clock = Clock()
    log, stream = _logger("test_server_limits.repeat", RepeatFilter(10.0, clock=clock))
    for _ in range(3):
        _accept_failed(log)
        clock.now += 1
    log.error("another error")  # another line of code: its own count
    log.info("an ordinary line")
    log.info("an ordinary line")  # below WARNING: never held back
    clock.now += 10
    for _ in range(1234):
        _accept_failed(log)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "accept failed on fd 7" and lines[1] == "Traceback (most recent call last):"
    assert lines.count("Traceback (most recent call last):") == 1
    assert lines[-4:] == ["another error", "an ordinary line", "an ordinary line",
                          "accept failed on fd 7 (repeated 2 times in the last 13 s)"]
    clock.now += 10
    log.error("another error")
    assert stream.getvalue().splitlines()[-1] == "another error", "one alone after a silence: as it is"


def test_the_filter_on_a_logger_and_on_its_handler_counts_a_record_once_and_sees_its_children() -> None:
    parent, stream = _logger("test_server_limits.parent", None)
    assert logging.lastResort is not None
    last_resort = list(logging.lastResort.filters)
    try:
        limit_repeats(["test_server_limits.parent"])
        assert any(isinstance(f, RepeatFilter) for f in logging.lastResort.filters)
    finally:
        logging.lastResort.filters = last_resort
    child = logging.getLogger("test_server_limits.parent.child")  # its records reach only the parent's handler
    for _ in range(1000):
        parent.error("flood")
        child.error("flood from the child")
    assert stream.getvalue().splitlines() == ["flood", "flood from the child"]
    assert sum(isinstance(f, RepeatFilter) for f in parent.filters + parent.handlers[0].filters) == 2
    limit_repeats(["test_server_limits.parent"])  # a second serve in one process: nothing added
    logging.lastResort.filters = last_resort
    assert sum(isinstance(f, RepeatFilter) for f in parent.filters + parent.handlers[0].filters) == 2


_HOLDING_SERVER = """
import asyncio, logging, resource, sys
from mjarena.logs import limit_repeats
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
logging.basicConfig(level=logging.INFO, stream=sys.stderr)
if sys.argv[2] == "limited":
    limit_repeats()
held = []
class Hold(asyncio.Protocol):
    def connection_made(self, transport):
        held.append(transport)
async def main():
    await asyncio.get_running_loop().create_server(Hold, "127.0.0.1", int(sys.argv[1]))
    print("ready", flush=True)
    await asyncio.sleep(1.5)
asyncio.run(main())
"""


def _accept_errors(limited: bool) -> bytes:
    """The standard error of a plain asyncio server with 64 open files, which holds every connection, as 200
    connections arrive (asyncio retries a failed accept each second, logging each failure)."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-c", _HOLDING_SERVER, str(port), "limited" if limited else "plain"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    clients: list[socket.socket] = []
    try:
        assert server.stdout is not None and server.stdout.readline() == b"ready\n"
        for _ in range(200):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(("127.0.0.1", port))
            clients.append(client)
        return server.communicate(timeout=30)[1]
    finally:
        for client in clients:
            client.close()
        if server.poll() is None:
            server.kill()
            server.wait(5)


def test_asyncio_out_of_files_at_accept_is_one_line_not_a_flood() -> None:
    plain, limited = _accept_errors(False), _accept_errors(True)
    assert plain.count(b"Too many open files") > 50, "the flood being bounded"
    assert limited.count(b"Too many open files") == 1 and len(limited) < 4096, limited.decode()


# -- contest serve under attack ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _limit_open_files() -> None:  # as `prlimit --nofile=1024:1024` would
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def _source(index: int) -> str:
    """100 connections from 127.0.0.1 (past its cap), the rest spread over 127.0.0.2 to 127.0.0.40."""
    return "127.0.0.1" if index < 100 else f"127.0.0.{2 + (index - 100) % 39}"


class Flood:
    """``count`` connections that each send a partial request head and then one byte a second, each reopened
    ``reopen`` seconds after the server closed it, until :meth:`stop` (run in a thread)."""

    def __init__(self, address: tuple[str, int], count: int, reopen: float = 1.0) -> None:
        self.address = address
        self.count = count
        self.reopen = reopen
        self.stopping = threading.Event()
        self.closed_by_server = 0
        self.most_open = 0
        self.errors: list[BaseException] = []

    def run(self) -> None:
        try:
            self._run()
        except BaseException as error:  # reported by the test
            self.errors.append(error)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        slots: dict[socket.socket, int] = {}  # each socket: its index (which gives its source address)
        free = [(0.0, index) for index in range(self.count)]  # (when it may be reopened, index), in time order
        next_byte = time.monotonic() + 1
        try:
            while not self.stopping.is_set():
                now = time.monotonic()
                due = [index for when, index in free[:200] if when <= now]  # at most 200 new connections a turn
                for index in due:
                    slots[self._open(selector, index)] = index
                del free[:len(due)]
                for key, events in selector.select(timeout=0.05):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if not self._ready(selector, sock, events):
                        free.append((time.monotonic() + self.reopen, slots.pop(sock)))
                        self.closed_by_server += 1
                self.most_open = max(self.most_open, len(slots))
                if time.monotonic() >= next_byte:
                    next_byte += 1
                    for key in list(selector.get_map().values()):
                        if key.events & selectors.EVENT_READ:
                            with contextlib.suppress(OSError):
                                key.fileobj.send(b"x")  # type: ignore[union-attr]
        finally:
            for sock in slots:
                selector.unregister(sock)
                sock.close()
            selector.close()

    def _open(self, selector: selectors.BaseSelector, index: int) -> socket.socket:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((_source(index), 0))
        sock.connect_ex(self.address)
        selector.register(sock, selectors.EVENT_WRITE)
        return sock

    def _ready(self, selector: selectors.BaseSelector, sock: socket.socket, events: int) -> bool:
        """Handle an event; False if the server closed the connection (the socket is then closed)."""
        try:
            if events & selectors.EVENT_WRITE:  # connected (or failed to)
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    raise ConnectionError
                sock.send(b"GET / HTTP/1.1\r\nHost: x\r\n")
                selector.modify(sock, selectors.EVENT_READ)
                return True
            if sock.recv(4096):  # a 503 before the close
                return True
        except BlockingIOError:  # nothing after all
            return True
        except OSError:
            pass
        selector.unregister(sock)
        sock.close()
        return False

    def stop(self) -> None:
        self.stopping.set()


def _probe(address: tuple[str, int]) -> tuple[float, bytes]:
    """Seconds for a whole ``GET /`` from :data:`PROBE_FROM`, and the answer's first line."""
    started = time.monotonic()
    answer = _get(address, PROBE_FROM)
    return time.monotonic() - started, answer.split(b"\r\n", 1)[0]


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.fixture
def contest_server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], tuple[str, int], Path]]:
    """``mjarena contest serve`` of a new contest with one team, under a 1,024 open-file limit, its output in a
    file."""
    root = tmp_path / "cup"
    subprocess.run([*MJARENA, "contest", "create", str(root), "--team=a", "--sandbox", "none", "--json"],
                   capture_output=True, check=True, timeout=60)
    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as output:
        process = subprocess.Popen([*MJARENA, "contest", "serve", str(root), "--port", str(port), "--workers", "1"],
                                   stdout=output, stderr=output, preexec_fn=_limit_open_files)
    try:
        deadline = time.monotonic() + 30
        while b"serving at most" not in log.read_bytes():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start in 30 s"
            time.sleep(0.1)
        while True:
            with contextlib.suppress(OSError):
                if _probe(("127.0.0.1", port))[1].startswith(b"HTTP/1.1 200"):
                    break
            assert time.monotonic() < deadline, "the server did not answer in 30 s"
            time.sleep(0.1)
        yield process, ("127.0.0.1", port), log
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_contest_serve_answers_under_a_flood_of_slow_connections_and_its_log_stays_small(
        contest_server: tuple[subprocess.Popen[bytes], tuple[str, int], Path]) -> None:
    process, address, log = contest_server
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < SLOW + 200:
        pytest.skip(f"this test opens {SLOW} connections: its open-file limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, SLOW + 200), hard))
    limits = Path(f"/proc/{process.pid}/limits").read_text()
    assert any(line.startswith("Max open files") and line.split()[3:5] == ["1024", "1024"]
               for line in limits.splitlines()), limits
    log_before = log.stat().st_size
    flood = Flood(address, SLOW)
    thread = threading.Thread(target=flood.run, daemon=True)
    thread.start()
    try:
        probes, most_files = [], 0
        deadline = time.monotonic() + 6
        time.sleep(1)
        while time.monotonic() < deadline:
            most_files = max(most_files, _open_files(process.pid))
            probes.append(_probe(address))
            time.sleep(0.3)
            most_files = max(most_files, _open_files(process.pid))
    finally:
        flood.stop()
        thread.join(10)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert not flood.errors, flood.errors
    grown = log.stat().st_size - log_before
    text = log.read_text(errors="replace")
    report = json.dumps({"probes": [round(seconds, 3) for seconds, _ in probes], "most_open": flood.most_open,
                         "closed_by_server": flood.closed_by_server, "server_files": most_files, "log": grown})
    print(report)
    assert len(probes) >= 4, report
    assert all(seconds < 2 and line.startswith(b"HTTP/1.1 200") for seconds, line in probes), report
    assert flood.closed_by_server >= SLOW - total_cap(OPEN_FILES), f"the caps closed connections: {report}"
    assert most_files < OPEN_FILES, report
    assert grown < 1 << 20, report
    assert "Too many open files" not in text, text[-3000:]
    assert process.poll() is None, "still serving"
    assert _probe(address)[1].startswith(b"HTTP/1.1 200")


def test_serve_raises_its_soft_open_file_limit_to_the_hard_limit() -> None:
    code = "from mjarena.web.server import raise_open_file_limit; print(raise_open_file_limit())"

    def soft_256() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, OPEN_FILES))

    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30,
                           preexec_fn=soft_256)
    assert shown.stdout.strip() == str(OPEN_FILES)

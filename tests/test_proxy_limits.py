"""One visitor behind a proxy that streams request bodies (issue 43, point 6): the contest server behind
:class:`streaming_relay.StreamingRelay`, which adds ``X-Forwarded-For`` as Caddy does and passes bodies on byte by
byte.  Every proxied visitor came from the proxy's one address, so 32 login posts sent a byte a second took all 32
connections the server allowed it: everyone else got 503."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from live_server import running
from streaming_relay import StreamingRelay, visitor_socket
from test_contest import Server


@contextlib.contextmanager
def behind_the_relay(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """The contest's app under :func:`mjarena.web.server.config` (as ``contest serve`` runs it), behind the relay;
    the relay's address."""
    from mjarena.web import server

    class Quick(server.TimelyH11):
        body_seconds = 2.0

    app = Server(tmp_path / "contest", ["red"]).app
    settings = server.config(app, "127.0.0.1", 0, lifespan="off", http=Quick)
    with running(server.Server(settings)) as address, StreamingRelay(address) as relay:
        yield relay


def slow_login(visitor: socket.socket) -> None:
    """A login form's head and the first byte of a body announced as 100 bytes long (the rest never comes)."""
    visitor.sendall(b"POST /login HTTP/1.1\r\nHost: contest.example\r\nContent-Type: application/x-www-form-urlencoded"
                    b"\r\nContent-Length: 100\r\nConnection: close\r\n\r\nt")


def answer(visitor: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or the socket's timeout)."""
    data = b""
    with contextlib.suppress(TimeoutError, ConnectionError):
        while chunk := visitor.recv(65536):
            data += chunk
    return data


def test_one_visitor_behind_a_proxy_cannot_take_the_server_from_the_others(tmp_path: Path) -> None:
    """36 slow logins from one visitor: 32 are in progress (its share), the 4 others are refused at once with 503,
    and another visitor of the same proxy still logs in page by page (before: 503, 20 of 20 tries)."""
    from mjarena.web.server import PER_CLIENT

    with behind_the_relay(tmp_path) as relay:
        attacker = [visitor_socket(relay, "127.0.0.2") for _ in range(PER_CLIENT + 4)]
        try:
            for visitor in attacker:
                slow_login(visitor)
            refused: list[bytes] = []
            deadline = time.monotonic() + 60  # a cap: the loop ends at the fourth refusal
            waiting = list(attacker)
            while len(refused) < 4 and time.monotonic() < deadline:
                ready, _, _ = select.select(waiting, [], [], 0.5)
                for visitor in ready:
                    refused.append(answer(visitor))
                    waiting.remove(visitor)
            assert len(refused) == 4, refused
            assert all(b" 503 " in text and b"too many requests in progress from your address" in text
                       for text in refused), refused
            bystander = visitor_socket(relay, "127.0.0.3")
            bystander.sendall(b"GET /login HTTP/1.1\r\nHost: contest.example\r\nConnection: close\r\n\r\n")
            page = answer(bystander)
            assert page.startswith(b"HTTP/1.1 200 ") and b'name="token"' in page, page[:300]
        finally:
            for visitor in attacker:
                visitor.close()


def test_a_body_sent_a_byte_a_second_is_cut_with_408(tmp_path: Path) -> None:
    """The body deadline holds at the protocol, whatever the route does with the body: a login whose body comes a
    byte a second is answered 408 once the deadline (2 s here) passes, and the connection closed."""
    with behind_the_relay(tmp_path) as relay:
        visitor = visitor_socket(relay, "127.0.0.4", timeout=15)
        stop = threading.Event()

        def dribble() -> None:
            with contextlib.suppress(OSError):
                while not stop.wait(1.0):
                    visitor.sendall(b"x")

        slow_login(visitor)
        thread = threading.Thread(target=dribble, daemon=True)
        thread.start()
        try:
            text = answer(visitor)
        finally:
            stop.set()
            thread.join(5)
            visitor.close()
        assert text.startswith(b"HTTP/1.1 408 ") and b"did not arrive within 2 seconds" in text, text[:300]


@pytest.mark.parametrize("allowed,host,trusted", [("127.0.0.1,::1", "::1", True), ("*", "203.0.113.5", True),
                                                  ("10.0.0.0/8", "10.9.8.7", True), ("", "127.0.0.1", False)])
def test_the_trusted_proxies_are_read_as_uvicorn_reads_forwarded_allow_ips(allowed: str, host: str,
                                                                           trusted: bool) -> None:
    from mjarena.web.server import trusts

    assert trusts(allowed, host) is trusted

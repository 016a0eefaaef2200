"""A real server in tests: a uvicorn server run in a thread on a free port of 127.0.0.1 (loopback only), stopped
and its socket closed at the end."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def running(server: Any) -> Iterator[tuple[str, int]]:
    """``server`` (a ``uvicorn.Server``) serving on a free port of 127.0.0.1 until the block ends; its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60  # a cap: on a busy machine an import and a bind can take seconds
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield sock.getsockname()
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()

"""How the judge reads and writes a bot's pipes: one interface, two kinds, chosen by what the system offers.

- ``select`` (:class:`SelectPipes`, every POSIX system): the pipes are non-blocking and one ``selectors`` wait
  watches them and the program's exit descriptor (a pidfd on Linux);
- ``threads`` (:class:`ThreadPipes`, Windows, whose ``select`` takes sockets only): a thread per output pipe reads
  it (blocking reads) into a bounded buffer and wakes the judge, and a thread writes the requests into standard
  input, so the judge itself never blocks on a pipe either.

:func:`reader_kind` picks the kind (``threads`` on Windows, ``select`` elsewhere; a kind asked for wins: the tests
run the bot protocol through the threads on Linux).  The bot's side (:class:`~mjarena.protocol.process.BotProcess`)
has one path over both, through these calls:

- ``wait(timeout)``: the names of the pipes ready (``"stdout"``, ``"stderr"``, ``"stdin"`` when a write can go on,
  ``"exit"`` when the exit descriptor fired); level-triggered like ``select``: a pipe with data, or at its end,
  stays ready until it is read or forgotten;
- ``read(name, size)``: at most ``size`` bytes, ``b""`` at the end, None when nothing is there now;
- ``write(data)``: what is left to write (the threads take it all at once);
- ``watch_stdin(on)``, ``forget(name)`` (a pipe at its end), ``is_open(name)``, ``close()``;
- ``settle(name, until)``: once the program has exited, whether more of ``name`` can be read (waiting until the
  ``time.monotonic()`` instant ``until`` at most): with ``select`` never (the kernel's pipe holds all the program
  wrote), with threads when the pipe's thread brings more or the pipe's end before then.

The limits are the same with both: a thread reads ``CHUNK_BYTES`` bytes at a time and stops reading while its buffer
holds ``_ROOM`` bytes (a flooding bot then blocks on its write, as on a full pipe), and the judge reads from the
buffer at most what it would have read from the pipe, so the output limit, the standard error's tail and the
deadline per answer are checked on the same bytes at the same points.

>>> reader_kind("threads"), reader_kind(None) == ("threads" if sys.platform == "win32" else "select")
('threads', True)
"""

from __future__ import annotations

import os
import queue
import selectors
import sys
import threading
import time
from typing import Protocol

__all__ = ["READER_KINDS", "Pipes", "SelectPipes", "ThreadPipes", "open_pipes", "reader_kind"]

READER_KINDS = ("select", "threads")
CHUNK_BYTES = 1 << 16
_ROOM = 4 * CHUNK_BYTES  # bytes a reading thread holds for the judge before it waits (a pipe's buffer is 64 KiB)


class Pipes(Protocol):
    """The judge's ends of one running program's standard streams (see the module's documentation)."""

    watches_exit: bool

    def wait(self, timeout: float) -> list[str]: ...

    def read(self, name: str, size: int) -> bytes | None: ...

    def write(self, data: memoryview) -> memoryview: ...

    def watch_stdin(self, on: bool) -> None: ...

    def forget(self, name: str) -> None: ...

    def is_open(self, name: str) -> bool: ...

    def settle(self, name: str, until: float) -> bool: ...

    def close(self) -> None: ...


def reader_kind(requested: str | None = None) -> str:
    """The kind of pipes for this system (``threads`` on Windows, ``select`` elsewhere), or ``requested``."""
    if requested is None:
        return "threads" if sys.platform == "win32" else "select"
    if requested not in READER_KINDS:
        raise ValueError(f"no such way to read a bot's pipes: {requested!r} (one of {', '.join(READER_KINDS)})")
    if requested == "select" and sys.platform == "win32":
        raise ValueError("a bot's pipes cannot be read with select on Windows (it takes sockets only): use threads")
    return requested


def open_pipes(kind: str, stdin: int, stdout: int, stderr: int, exit_fd: int | None) -> Pipes:
    """The pipes of one program (raw descriptors, the judge's ends) read the ``kind`` way."""
    if kind == "threads":
        return ThreadPipes(stdin, stdout, stderr)
    return SelectPipes(stdin, stdout, stderr, exit_fd)


class SelectPipes:
    """The pipes non-blocking, one selector over them and over the exit descriptor (POSIX)."""

    fds: dict[str, int]
    selector: selectors.BaseSelector
    watches_exit: bool
    closed: bool

    def __init__(self, stdin: int, stdout: int, stderr: int, exit_fd: int | None) -> None:
        if sys.platform == "win32":
            raise NotImplementedError("select takes sockets only on Windows: its pipes are read by threads")
        for fd in (stdin, stdout, stderr):
            os.set_blocking(fd, False)
        self.fds = {"stdin": stdin, "stdout": stdout, "stderr": stderr}
        self.selector = selectors.DefaultSelector()
        self.selector.register(stdout, selectors.EVENT_READ, "stdout")
        self.selector.register(stderr, selectors.EVENT_READ, "stderr")
        self.watches_exit = exit_fd is not None
        if exit_fd is not None:
            self.selector.register(exit_fd, selectors.EVENT_READ, "exit")
        self.closed = False

    def wait(self, timeout: float) -> list[str]:
        if not self.selector.get_map():  # none left: just wait
            time.sleep(timeout)
            return []
        return [key.data for key, _ in self.selector.select(timeout)]

    def read(self, name: str, size: int) -> bytes | None:
        try:
            return os.read(self.fds[name], size)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def write(self, data: memoryview) -> memoryview:
        try:
            written = os.write(self.fds["stdin"], data[:CHUNK_BYTES])
        except BlockingIOError:
            return data
        except OSError:
            return data[len(data) :]  # the bot closed its input: judge it by what it prints
        return data[written:]

    def watch_stdin(self, on: bool) -> None:
        if self.closed:
            return
        if on:
            self.selector.register(self.fds["stdin"], selectors.EVENT_WRITE, "stdin")
        else:
            self.selector.unregister(self.fds["stdin"])

    def forget(self, name: str) -> None:
        self.selector.unregister(self.fds[name])

    def is_open(self, name: str) -> bool:
        return not self.closed and self.fds[name] in self.selector.get_map()

    def settle(self, name: str, until: float) -> bool:
        return False  # the program has exited: the pipe already holds all it wrote

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.selector.close()


class _Reader(threading.Thread):
    """Reads one pipe (its own duplicate of the descriptor, closed at the pipe's end) into ``buffer``."""

    def __init__(self, name: str, fd: int, pipes: ThreadPipes) -> None:
        super().__init__(name=f"bot {name}", daemon=True)
        self.fd = os.dup(fd)
        self.pipes = pipes
        self.buffer = bytearray()
        self.ended = False

    def run(self) -> None:
        changed = self.pipes.changed
        try:
            while True:
                with changed:
                    changed.wait_for(lambda: len(self.buffer) < _ROOM or self.pipes.closed)
                    if self.pipes.closed:
                        return
                try:
                    chunk = os.read(self.fd, CHUNK_BYTES)
                except OSError:
                    chunk = b""
                with changed:
                    if chunk:
                        self.buffer += chunk
                    else:
                        self.ended = True
                    changed.notify_all()
                if not chunk:
                    return
        finally:
            os.close(self.fd)


class _Writer(threading.Thread):
    """Writes what is queued into standard input (its own duplicate of the descriptor), blocking as it must; stops
    at the first failed write (the bot closed its input: the rest is dropped) or at None."""

    def __init__(self, fd: int) -> None:
        super().__init__(name="bot stdin", daemon=True)
        self.fd = os.dup(fd)
        self.queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

    def run(self) -> None:
        try:
            while (data := self.queue.get()) is not None:
                view = memoryview(data)
                while view:
                    try:
                        view = view[os.write(self.fd, view):]
                    except OSError:
                        return
        finally:
            os.close(self.fd)


class ThreadPipes:
    """A thread reading each output pipe and one writing standard input, around a condition that wakes the judge
    (where ``select`` cannot wait on pipes: Windows).  The threads own duplicates of the descriptors, so the
    program's end (:meth:`~mjarena.sandbox.Process.reap` closes the originals) never pulls one from under a
    blocked read."""

    watches_exit = False  # no exit descriptor: the judge polls the program's exit every tick

    def __init__(self, stdin: int, stdout: int, stderr: int) -> None:
        self.changed = threading.Condition()
        self.closed = False
        self.readers = {"stdout": _Reader("stdout", stdout, self), "stderr": _Reader("stderr", stderr, self)}
        self.watched = set(self.readers)
        self.writer = _Writer(stdin)
        for thread in (*self.readers.values(), self.writer):
            thread.start()

    def _ready(self) -> list[str]:
        return [name for name, reader in self.readers.items()
                if name in self.watched and (reader.buffer or reader.ended)]

    def wait(self, timeout: float) -> list[str]:
        with self.changed:
            self.changed.wait_for(self._ready, timeout)
            return self._ready()

    def read(self, name: str, size: int) -> bytes | None:
        reader = self.readers[name]
        with self.changed:
            if reader.buffer:
                chunk = bytes(reader.buffer[:size])
                del reader.buffer[:size]
                self.changed.notify_all()  # room again for its thread
                return chunk
            return b"" if reader.ended else None

    def write(self, data: memoryview) -> memoryview:
        if data:
            self.writer.queue.put(bytes(data))
        return data[len(data) :]

    def watch_stdin(self, on: bool) -> None:
        """Nothing to watch: the writing thread takes each request whole."""

    def forget(self, name: str) -> None:
        self.watched.discard(name)

    def is_open(self, name: str) -> bool:
        return not self.closed and name in self.watched

    def settle(self, name: str, until: float) -> bool:
        reader = self.readers[name]
        if time.monotonic() >= until:
            return False
        with self.changed:
            return self.changed.wait_for(lambda: bool(reader.buffer) or reader.ended,
                                         max(0.0, until - time.monotonic()))

    def close(self) -> None:
        """Stop: the reading threads end at their next read (the program's end brings it), the writer at once."""
        with self.changed:
            if self.closed:
                return
            self.closed = True
            self.changed.notify_all()
        self.writer.queue.put(None)

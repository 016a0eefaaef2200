"""A running bot program as the judge reads it (:class:`_Child`): its pipes, what it wrote to them, its tree's
memory and CPU time from its :class:`~mjarena.sandbox.Process`; the one wait on a bot (:class:`Deadline`); and
where an answer ends in its output (:func:`_marker_span`, the keep-running marker line).
"""

from __future__ import annotations

import os
import platform
import selectors
import time

from mjarena.protocol.botzone import KEEP_RUNNING
from mjarena.sandbox import Process

_MARKER = KEEP_RUNNING.encode()
# read, poll, pread64, readv, select, pselect6, ppoll, epoll_pwait: numbers of x86-64 only
_READ_SYSCALLS = {0, 7, 17, 19, 23, 270, 271, 281} if platform.machine() == "x86_64" else set()
_CHUNK = 1 << 16


class Deadline:
    """A wall-clock deadline, and the one place where the judge waits on a bot (:meth:`select`); ``why`` says
    what set it, for the timeout's message (empty: the time limit per answer)."""

    def __init__(self, seconds: float, why: str = "") -> None:
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.seconds = seconds
        self.why = why

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.end

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def select(
        self, selector: selectors.BaseSelector, tick: float | None = None
    ) -> list[tuple[selectors.SelectorKey, int]]:
        """Wait for ready pipes (none left: just wait), at most ``tick`` seconds and never past the deadline."""
        timeout = self.remaining() if tick is None else min(tick, self.remaining())
        if not selector.get_map():
            time.sleep(timeout)
            return []
        return selector.select(timeout)


class _Child:
    """One running bot program (a :class:`~mjarena.sandbox.Process` of its box): its pipes, a selector over them
    and over its exit, and what was read from it."""

    def __init__(self, process: Process) -> None:
        self.process = process
        self.pid = process.pid
        self.stdin = process.stdin
        self.stdout = process.stdout
        self.stderr = process.stderr
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout, selectors.EVENT_READ, "stdout")
        self.selector.register(self.stderr, selectors.EVENT_READ, "stderr")
        self.watches_exit = process.exit_fd is not None
        if process.exit_fd is not None:
            self.selector.register(process.exit_fd, selectors.EVENT_READ, "exit")
        self.stdout_open = True
        self.leftover = b""  # stdout printed after a keep-running marker
        self.stderr_buffer = bytearray()
        self.turn_stderr = bytearray()  # what it wrote to standard error during the current answer (a tail)

    @property
    def reaped(self) -> bool:
        return self.process.reaped

    @property
    def exit_status(self) -> int | None:
        """As :func:`os.waitstatus_to_exitcode` (negative for a signal), once reaped."""
        return self.process.exit_status

    @property
    def peak_kib(self) -> int:
        return self.process.usage.peak_kib

    def exited(self) -> bool:
        """Whether the program has exited (the rest of its tree may still run until :meth:`reap`)."""
        return self.process.exited()

    def poll_memory(self, peaks: bool = False) -> int:
        return self.process.measure(peaks).peak_kib

    def cpu(self) -> float:
        return self.process.usage.cpu

    def reading_stdin(self) -> bool:
        """Whether the program (the last process of its tree) is blocked in a read or a wait for input (x86-64
        system call numbers from ``/proc/<pid>/syscall``; False where that cannot be told)."""
        try:
            with open(f"/proc/{self.process.tree()[-1]}/syscall", "rb") as handle:
                number = handle.read().split(maxsplit=1)[0]
        except (OSError, IndexError):
            return False
        return number.isdigit() and int(number) in _READ_SYSCALLS

    def reap(self) -> None:
        """Kill the whole process tree and collect how it ended (the box does it: :meth:`Process.reap`)."""
        if not self.reaped:
            self.selector.close()
            self.process.reap()

    def read_stderr(self, keep: int) -> None:
        """Drain what standard error holds now (a bounded number of reads), keeping at least its last ``keep`` bytes."""
        for _ in range(16):
            try:
                chunk = os.read(self.stderr, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.selector.unregister(self.stderr)
                return
            self.stderr_buffer += chunk
            self.turn_stderr += chunk
            if len(self.stderr_buffer) > 2 * keep + _CHUNK:
                del self.stderr_buffer[: len(self.stderr_buffer) - keep]
            if len(self.turn_stderr) > 2 * keep + _CHUNK:
                del self.turn_stderr[: len(self.turn_stderr) - keep]

    def stderr_tail(self, limit: int) -> str:
        return bytes(self.stderr_buffer[-limit:]).decode("utf-8", "replace") if limit else ""

    def take_turn_stderr(self, limit: int) -> str | None:
        """The tail of what it wrote to standard error since the last call (None: nothing)."""
        text = bytes(self.turn_stderr[-limit:]).decode("utf-8", "replace") if limit and self.turn_stderr else None
        self.turn_stderr.clear()
        return text

def _marker_span(buffer: bytes | bytearray, start: int = 0, final: bool = False) -> tuple[int, int] | None:
    """Where the first keep-running marker line at or after ``start`` begins and ends in ``buffer``.

    A line counts when it ends with a newline (or, when ``final``, at the end of the output).

    >>> _marker_span(b'{"response": "PASS"}\\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\r\\nrest')
    (21, 57)
    >>> _marker_span(b'x>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\n') is None
    True
    """
    at = buffer.find(_MARKER, start)
    while at >= 0:
        begin = buffer.rfind(b"\n", 0, at) + 1
        end = buffer.find(b"\n", at)
        stop = len(buffer) if end < 0 else end + 1
        if (end >= 0 or final) and bytes(buffer[begin:stop]).strip() == _MARKER:
            return begin, stop
        at = buffer.find(_MARKER, at + 1)
    return None

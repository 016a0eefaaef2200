"""A running bot program as the judge reads it (:class:`BotChild`): its pipes, what it wrote to them, its tree's
memory and CPU time from its :class:`~mjarena.sandbox.Process`; the one wait on a bot (:class:`Deadline`); and
where an answer ends in its output (:func:`marker_span`, the keep-running marker line).  The pipes are read the
way the system allows (:mod:`mjarena.protocol.pipe_readers`: ``select`` on POSIX, a thread per pipe on Windows).
"""

from __future__ import annotations

import platform
import sys
import time

from mjarena.protocol.botzone import KEEP_RUNNING
from mjarena.protocol.pipe_readers import CHUNK_BYTES, Pipes, open_pipes, reader_kind
from mjarena.sandbox import Process

_MARKER = KEEP_RUNNING.encode()
# read, poll, pread64, readv, select, pselect6, ppoll, epoll_pwait: numbers of x86-64 only
_READ_SYSCALLS = {0, 7, 17, 19, 23, 270, 271, 281} if platform.machine() == "x86_64" else set()


class Deadline:
    """A wall-clock deadline, and the one place where the judge waits on a bot (:meth:`wait`); ``why`` says
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

    def wait(self, pipes: Pipes, tick: float | None = None) -> list[str]:
        """Wait for ready pipes (the names of those ready), at most ``tick`` seconds and never past the deadline."""
        timeout = self.remaining() if tick is None else min(tick, self.remaining())
        return pipes.wait(timeout)


class BotChild:
    """One running bot program (a :class:`~mjarena.sandbox.Process` of its box): its pipes, read the ``pipes`` way
    (:func:`~mjarena.protocol.pipe_readers.reader_kind`: None for the system's), and what was read from it."""

    def __init__(self, process: Process, pipes: str | None = None) -> None:
        self.process = process
        self.pid = process.pid
        self.pipes = open_pipes(reader_kind(pipes), process.stdin, process.stdout, process.stderr, process.exit_fd)
        self.watches_exit = self.pipes.watches_exit
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
        if not sys.platform.startswith("linux"):
            return False
        try:
            with open(f"/proc/{self.process.tree()[-1]}/syscall", "rb") as handle:
                number = handle.read().split(maxsplit=1)[0]
        except (OSError, IndexError):
            return False
        return number.isdigit() and int(number) in _READ_SYSCALLS

    def reap(self) -> None:
        """Kill the whole process tree and collect how it ended (the box does it: :meth:`Process.reap`)."""
        if not self.reaped:
            self.pipes.close()
            self.process.reap()

    def read_stderr(self, keep: int) -> None:
        """Drain what standard error holds now (a bounded number of reads), keeping at least its last ``keep`` bytes."""
        for _ in range(16):
            chunk = self.pipes.read("stderr", CHUNK_BYTES)
            if chunk is None:
                return
            if not chunk:
                self.pipes.forget("stderr")
                return
            self.stderr_buffer += chunk
            self.turn_stderr += chunk
            if len(self.stderr_buffer) > 2 * keep + CHUNK_BYTES:
                del self.stderr_buffer[: len(self.stderr_buffer) - keep]
            if len(self.turn_stderr) > 2 * keep + CHUNK_BYTES:
                del self.turn_stderr[: len(self.turn_stderr) - keep]

    def stderr_tail(self, limit: int) -> str:
        return bytes(self.stderr_buffer[-limit:]).decode("utf-8", "replace") if limit else ""

    def take_turn_stderr(self, limit: int) -> str | None:
        """The tail of what it wrote to standard error since the last call (None: nothing)."""
        text = bytes(self.turn_stderr[-limit:]).decode("utf-8", "replace") if limit and self.turn_stderr else None
        self.turn_stderr.clear()
        return text


def marker_span(buffer: bytes | bytearray, start: int = 0, final: bool = False) -> tuple[int, int] | None:
    """Where the first keep-running marker line at or after ``start`` begins and ends in ``buffer``.

    A line counts when it ends with a newline (or, when ``final``, at the end of the output).

    >>> marker_span(b'{"response": "PASS"}\\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\r\\nrest')
    (21, 57)
    >>> marker_span(b'x>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\n') is None
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

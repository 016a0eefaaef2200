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


WALL_FACTOR = 5.0
"""The wall-clock cap of an answer, in time limits: a bot that hangs is ended then, however busy the machine."""

READ_GAP = 0.01
"""Seconds: once an answer's deadline has passed and moved, its wait for a CPU is read at most this often."""

OVERLOADED_SHARE = 0.1
"""An answer waited for a CPU for more than this share of its time limit: the judge's machine was overloaded."""


class Deadline:
    """The deadline of one answer in the bot's own time, and the one place where the judge waits on a bot
    (:meth:`wait`); ``why`` says what set it, for the timeout's message (empty: the time limit per answer).

    It starts as a wall-clock deadline ``seconds`` away.  When that passes, :meth:`extend` moves it by the time
    the bot's threads waited, ready to run, for a CPU (the judge's machine was busy: that time is the judge's),
    never past the wall-clock cap, ``cap`` seconds after the start (a bot that hangs still ends).  The system is
    asked for that figure only then, not at every poll.  :meth:`own` is the bot's own time: the wall time less
    that wait.

    >>> deadline = Deadline(1.0, cap=3.0)
    >>> deadline.extend(0.5), deadline.end - deadline.start
    (True, 1.5)
    >>> deadline.extend(9.0), deadline.end - deadline.start
    (True, 3.0)
    """

    def __init__(self, seconds: float, why: str = "", cap: float | None = None) -> None:
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.seconds = seconds
        self.cap = max(seconds, cap if cap is not None else seconds)
        self.why = why
        self.queued = 0.0  # seconds of waiting for a CPU counted so far

    def restart(self) -> None:
        """Start the clock again now (the program has just been started: making its box and forking it were the
        judge's work, not the bot's time)."""
        self.start = time.monotonic()
        self.end = self.start + self.seconds

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.end

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def extend(self, queued: float) -> bool:
        """Move the deadline by ``queued`` seconds of waiting for a CPU (the answer's so far), up to the cap;
        whether the answer still has time.  A deadline moved by less than :data:`READ_GAP` is checked again no
        sooner than that (the system is asked at most that often: a bot may get that much more at the end)."""
        self.queued = max(self.queued, queued)
        self.end = self.start + min(self.seconds + self.queued, self.cap)
        now = time.monotonic()
        if now < self.end < now + READ_GAP:
            self.end = min(now + READ_GAP, self.start + self.cap)
        return now < self.end

    def own(self, elapsed: float | None = None) -> float:
        """The bot's own time of the answer: its wall time (``elapsed``, now by default) less its wait for a CPU."""
        wall = self.elapsed() if elapsed is None else elapsed
        return max(0.0, wall - min(self.queued, wall))

    def spent(self) -> str:
        """How the time went, for a timeout's message: the own time, and the wall time when they differ."""
        wall = self.elapsed()
        if self.queued < 0.0005:
            return f"{wall:.3f} s"
        capped = " (the wall-clock cap)" if self.end - self.start >= self.cap else ""
        return (f"{self.own(wall):.3f} s of its own time, {wall:.3f} s of wall time{capped} of which "
                f"{self.queued:.3f} s waiting for a busy machine's CPU")

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
        self.queued_base = 0.0  # its run-queue delay when its current answer began (it waits for none while frozen)

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

    def queued(self) -> float:
        """Seconds its tree waited for a CPU during the current answer (read from the system: at a deadline or at
        the answer's end only; :meth:`~mjarena.sandbox.Process.queued`)."""
        return max(0.0, self.process.queued() - self.queued_base)

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

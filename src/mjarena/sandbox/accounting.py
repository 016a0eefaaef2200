"""Process accounting and process trees from ``/proc``: what a program's processes used (:class:`Usage`: memory, CPU
time and the time they waited for a CPU: :func:`run_delay`), a process's own memory high-water mark, waiting until a
stop has taken hold, the live members of a process group, and counting a uid's processes. The box
(:mod:`mjarena.sandbox.box`) walks its programs' trees with these; a second process backend can share them.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable

from mjarena.lifetime import stat_fields

__all__ = ["DelayTally", "Usage", "await_stopped", "live_group_members", "machine_waited", "peak_kib", "run_delay",
           "thread_delays"]


class Usage:
    """What a program's process tree used: peak memory (KiB: resident memory summed over its processes, plus
    the box's tmpfs pages), CPU seconds (of its processes alive, zombie or reaped) and ``queued``, the seconds
    its threads were ready to run but waited for a CPU (the kernel's run-queue delay: the judge's machine was
    busy; see :func:`run_delay`)."""

    __slots__ = ("cpu", "peak_kib", "queued")

    def __init__(self) -> None:
        self.peak_kib = 0
        self.cpu = 0.0
        self.queued = 0.0


SYSCONF = getattr(os, "sysconf", None)  # POSIX; on Windows, where no box runs, the figures below are never read
_TICKS = SYSCONF("SC_CLK_TCK") if SYSCONF else 100
_PAGE_KIB = SYSCONF("SC_PAGE_SIZE") // 1024 if SYSCONF else 4


def proc_stat(pid: int) -> tuple[float, float, int] | None:
    """(CPU seconds of its own, CPU seconds of the children it reaped, resident KiB: 0 for a zombie) of one
    process, None when it is gone."""
    fields = stat_fields(pid)
    return None if fields is None else usage_of(fields)


def usage_of(fields: list[bytes]) -> tuple[float, float, int]:
    """:func:`proc_stat` from a process's :func:`~mjarena.lifetime.parse_stat` fields."""
    own = (int(fields[11]) + int(fields[12])) / _TICKS
    reaped = (int(fields[13]) + int(fields[14])) / _TICKS
    resident = 0 if fields[0] in (b"Z", b"X") else int(fields[21]) * _PAGE_KIB
    return own, reaped, resident


def thread_delays(pids: Iterable[int]) -> dict[tuple[int, int], int]:
    """Nanoseconds that each thread of ``pids`` has waited, ready to run, for a CPU over its life, by ``(pid,
    tid)``: the second figure of ``/proc/PID/task/TID/schedstat``, for every thread alive or a zombie.

    A thread that has already exited is not there (the kernel keeps no total of them, nor adds a reaped child's
    to its parent's: a process that exited but is not reaped still has its main thread's).  Empty where ``/proc``
    has no such file (off Linux, or a kernel built without scheduler statistics).

    >>> all(pid == os.getpid() and ns >= 0 for (pid, _), ns in thread_delays([os.getpid()]).items())
    True
    """
    found: dict[tuple[int, int], int] = {}
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{pid}/task/{thread}/schedstat", "rb") as handle:
                    found[pid, int(thread)] = int(handle.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return found


def run_delay(pids: Iterable[int]) -> float:
    """Seconds that the threads of ``pids`` have waited, ready to run, for a CPU over their lives: the sum of
    :func:`thread_delays` (threads that have exited are not counted).

    >>> run_delay([os.getpid()]) >= 0.0
    True
    """
    return sum(thread_delays(pids).values()) / 1e9


class DelayTally:
    """The run-queue delay of a process tree read now and then (:meth:`read`), each thread's last figure kept
    after it exits: a compiler driver's ``cc1plus``, reaped by the driver and not by the box's init, takes its
    wait for a CPU with it, and a tree read only when its deadline passes would lose it (the deadline then
    passes again at once: a timeout charged for the machine's load).  The figure is a lower bound: what a
    thread waited after its last read and before it exited is not known.

    >>> tally = DelayTally()
    >>> tally.add({(7, 7): 2_000_000_000, (7, 8): 500_000_000})
    2.5
    >>> tally.add({(7, 7): 3_000_000_000})  # thread 8 exited: its last figure stays
    3.5
    >>> tally.add({(7, 7): 3_000_000_000, (7, 8): 100_000_000})  # a new thread took the id 8
    3.6
    """

    def __init__(self) -> None:
        self._last: dict[tuple[int, int], int] = {}
        self._retired = 0  # nanoseconds of the threads whose ids were taken again

    def add(self, delays: dict[tuple[int, int], int]) -> float:
        """Take in a reading of :func:`thread_delays`; the seconds waited by every thread seen so far."""
        for key, nanoseconds in delays.items():
            before = self._last.get(key, 0)
            if nanoseconds < before:  # not the thread read before: its id was taken again
                self._retired += before
            self._last[key] = nanoseconds
        return (self._retired + sum(self._last.values())) / 1e9

    def read(self, pids: Iterable[int]) -> tuple[float, float]:
        """Read the threads of ``pids`` now: ``(seconds waited by the live ones, by every one seen so far)``."""
        delays = thread_delays(pids)
        return sum(delays.values()) / 1e9, self.add(delays)


def machine_waited() -> float | None:
    """Seconds during which some task of the whole machine was ready to run but waited for a CPU, since boot (the
    kernel's pressure figure: ``some total=`` of ``/proc/pressure/cpu``, microseconds); None where the kernel
    keeps none (off Linux, or no PSI).  Its growth over a run says how busy the machine was meanwhile, exited
    processes included."""
    try:
        with open("/proc/pressure/cpu", "rb") as handle:
            for line in handle:
                if line.startswith(b"some "):
                    return int(line.rsplit(b"total=", 1)[1]) / 1e6
    except (OSError, ValueError, IndexError):
        pass
    return None


def peak_kib(pid: int) -> int:
    """A process's own high-water mark of resident memory (``VmHWM``) in KiB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def await_stopped(pids: Iterable[int], seconds: float) -> bool:
    """Wait, at most ``seconds``, until every thread of ``pids`` is stopped (or gone); whether all were.

    A stop takes hold asynchronously: a thread runs on until it is scheduled and sees the signal, and until then
    it still holds what a thread holds only while it runs, such as its place in the queue of a futex (a shared
    futex on a page of a file that every box maps is keyed by the file's inode, so a bot at the same table,
    asked next, would find it there: ``FUTEX_WAKE`` counts whom it wakes).  Stopped, a waiting thread has left
    the queue (its wait is restarted when it is let go)."""
    end = time.monotonic() + seconds
    pending = list(pids)
    while True:
        pending = [pid for pid in pending if not _all_stopped(pid)]
        if not pending:
            return True
        if time.monotonic() > end:
            return False
        if sys.platform == "win32":  # no sched_yield there: a sleep of 0 gives up the rest of the time slice
            time.sleep(0)
        else:
            os.sched_yield()


def _all_stopped(pid: int) -> bool:
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True  # gone
    for thread in threads:
        fields = stat_fields(f"{pid}/task/{thread}")
        if fields is not None and fields[0] not in (b"T", b"t", b"Z", b"X"):
            return False
    return True


def live_group_members(pgid: int) -> list[int]:
    """The pids of the processes of group ``pgid`` that are alive (zombies not counted), from ``/proc``."""
    return live_groups({pgid}).get(pgid, [])


def live_groups(pgids: set[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        fields = stat_fields(entry.name)
        if fields is None:
            continue
        if int(fields[2]) in pgids and fields[0] not in (b"Z", b"X"):
            found.setdefault(int(fields[2]), []).append(int(entry.name))
    return found


def count_processes(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count

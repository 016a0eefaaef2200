"""Unboxed programs off Linux (``--sandbox none`` on macOS and other POSIX systems): no util-linux wrapper, no
``/proc``; the process tree, its memory and CPU time from psutil (``pip install psutil``: a dependency of the core
install on those systems).

The program is the judge's child in a session (so a process group) of its own, started directly (no ``setpriv``,
no ``prlimit``: no rlimits, and it does not die with the judge by the kernel's doing; the judge kills it when it
stops, and the group is killed when its box closes).  Its tree is its main process and every descendant psutil
finds from it; memory is the resident memory of the tree sampled while it runs, and its peak from ``wait4`` when
it is reaped (``ru_maxrss``, which macOS gives in bytes); suspending and resuming between turns are SIGSTOP and
SIGCONT to the tree, as with no box on Linux.  Windows is not covered (its pipes need threads, and a Job Object
holds the tree there): :func:`available` says why.

Linux runs this backend only in the test mode that takes away what the other systems lack
(``tests/platform_sim.py``: ``sys.platform`` set, ``/proc`` hidden in a mount namespace, psutil reading a procfs
mounted elsewhere).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from typing import Any, Protocol


class Process(Protocol):
    """What this backend reads of the box's :class:`~mjarena.sandbox.process.Process` (that module imports this one,
    so the two are tied by this shape, not by an import)."""

    pid: int
    usage: Any  # mjarena.sandbox.accounting.Usage


class Box(Protocol):
    """What this backend reads and sets of a :class:`~mjarena.sandbox.box.Box`."""

    argv: list[str]
    env: dict[str, str]
    workdir: Any
    build_output: Any
    parent_hwm_kib: int
    started_pids: list[int]

__all__ = ["available", "in_use", "judge_peak_kib", "maxrss_kib", "start", "sweep"]


def in_use() -> bool:
    """Whether unboxed programs use this backend here: on every system but Linux."""
    return not sys.platform.startswith("linux")


def available() -> str | None:
    """None when this backend can run programs here; otherwise why not."""
    if sys.platform == "win32":
        return ("program bots need a POSIX system for now, this is win32: on Windows a bot's pipes need threads "
                "and its process tree a Job Object, which mjarena does not do yet")
    try:
        import psutil  # noqa: F401
    except ImportError:
        return f"program bots on {sys.platform} need psutil (pip install psutil): it follows their process tree"
    return None


def maxrss_kib(value: int) -> int:
    """``ru_maxrss`` in KiB: macOS gives bytes, Linux and the BSDs KiB.

    >>> maxrss_kib(2048) == (2 if sys.platform == "darwin" else 2048)
    True
    """
    return value // 1024 if sys.platform == "darwin" else value


def judge_peak_kib() -> int:
    """The judge's own peak resident memory in KiB (a forked child's ``ru_maxrss`` counts the pages it shared with
    the judge until ``execve``)."""
    import resource

    return maxrss_kib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _psutil() -> Any:
    import psutil

    return psutil


class _Tree:
    """What the box's :class:`~mjarena.sandbox.process.Process` asks of ``/proc`` on Linux, from psutil."""

    @staticmethod
    def pids(pid: int) -> list[int]:
        """``pid`` and its live descendants (none when it is gone)."""
        psutil = _psutil()
        try:
            return [pid, *(child.pid for child in psutil.Process(pid).children(recursive=True))]
        except psutil.Error:
            return []

    @staticmethod
    def sample(pid: int) -> tuple[float, int] | None:
        """(CPU seconds, its own and its reaped children's; resident KiB, 0 for a zombie), None when gone."""
        psutil = _psutil()
        try:
            process = psutil.Process(pid)
            with process.oneshot():
                times = process.cpu_times()
                cpu = times.user + times.system + times.children_user + times.children_system
                try:
                    resident = process.memory_info().rss // 1024
                except psutil.ZombieProcess:
                    resident = 0
        except psutil.Error:
            return None
        return cpu, resident


def exited(pid: int) -> bool:
    """Whether the judge's child ``pid`` has exited (it stays a zombie until reaped: no ``waitid`` needed)."""
    psutil = _psutil()
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return True


def tree(process: Process) -> list[int]:
    """The program's live tree, its main process first."""
    return _Tree.pids(process.pid)


def measure(process: Process, pids: list[int] | None) -> Any:
    """Sample the tree's memory and CPU time; both figures only grow."""
    resident, cpu = 0, 0.0
    for pid in tree(process) if pids is None else pids:
        sample = _Tree.sample(pid)
        if sample is not None:
            cpu += sample[0]
            resident += sample[1]
    usage = process.usage
    usage.peak_kib = max(usage.peak_kib, resident)
    usage.cpu = max(usage.cpu, cpu)
    return usage


def start(box: Box) -> subprocess.Popen[bytes]:
    """Start the box's program as the judge's child in a session of its own, its streams pipes."""
    problem = available()
    if problem is not None:
        raise OSError(problem)
    if box.build_output is not None:
        raise OSError(f"builds need Linux for now, this is {sys.platform}: the compilers run in the box")
    box.parent_hwm_kib = judge_peak_kib()
    return subprocess.Popen(box.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **box.env}, cwd=box.workdir, start_new_session=True, bufsize=0)


def sweep(box: Box) -> None:
    """Kill what is left of the process group of every program the box started."""
    for pgid in box.started_pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)

"""Unboxed programs off Linux (``--sandbox none`` on macOS, Windows and other systems): no util-linux wrapper,
no ``/proc``; the process tree, its memory and CPU time from psutil (``pip install psutil``: a dependency of the
core install on those systems).

On POSIX the program is the judge's child in a session (so a process group) of its own, started directly (no
``setpriv``, no ``prlimit``: no rlimits, and it does not die with the judge by the kernel's doing; the judge kills
it when it stops, and the group is killed when its box closes).  Its tree is its main process and every descendant
psutil finds from it; memory is the resident memory of the tree sampled while it runs, and its peak from ``wait4``
when it is reaped (``ru_maxrss``, which macOS gives in bytes); suspending and resuming between turns are SIGSTOP
and SIGCONT to the tree, as with no box on Linux.

On Windows (no process groups to kill, no signals, no ``wait4``) the program starts with
``CREATE_NEW_PROCESS_GROUP`` in a Job Object of its own (:mod:`mjarena.sandbox.job_object`), which kills its whole
tree at the end, also when the judge dies; where no job can be made, the tree psutil sees is killed process by
process.  Memory is the tree's working set sampled while it runs, each process's peak working set when it is
measured for its answer; suspending and resuming are psutil's (the system's own suspension of every thread), and
its pipes are read by threads (:mod:`mjarena.protocol.pipe_readers`).  The process kind is
:class:`mjarena.sandbox.process.WindowsChild`.

Linux runs this backend only in the test mode that takes away what the other systems lack
(``tests/platform_sim.py``: ``sys.platform`` set, the names the system lacks removed, ``/proc`` hidden in a mount
namespace, psutil reading a procfs mounted elsewhere).  For Windows that mode runs everything here but the Job
Object itself (no ``kernel32`` on Linux: psutil's tree walk kills the tree there).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from typing import Any, Protocol

from mjarena.sandbox import job_object


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

__all__ = ["available", "in_use", "judge_peak_kib", "kill_tree", "maxrss_kib", "resume", "start", "suspend", "sweep"]

_jobs: dict[int, int] = {}  # Windows: the Job Object of each program started, by its pid
_jobs_lock = threading.Lock()


def in_use() -> bool:
    """Whether unboxed programs use this backend here: on every system but Linux."""
    return not sys.platform.startswith("linux")


def available() -> str | None:
    """None when this backend can run programs here; otherwise why not."""
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
    the judge until ``execve``).  POSIX only (Windows has no ``resource``, and no fork)."""
    if sys.platform == "win32":
        raise NotImplementedError("no resource module on Windows")
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
    def sample(pid: int, peaks: bool = False) -> tuple[float, int] | None:
        """(CPU seconds, its own and its reaped children's; resident KiB, 0 for a zombie), None when gone.  With
        ``peaks``, on Windows, the process's peak working set instead of its working set now."""
        psutil = _psutil()
        try:
            process = psutil.Process(pid)
            with process.oneshot():
                times = process.cpu_times()
                cpu = times.user + times.system + times.children_user + times.children_system
                try:
                    memory = process.memory_info()
                except psutil.ZombieProcess:
                    return cpu, 0
        except psutil.Error:
            return None
        if peaks and sys.platform == "win32":
            return cpu, getattr(memory, "peak_wset", memory.rss) // 1024  # (psutil on Linux, in the test mode: rss)
        return cpu, memory.rss // 1024


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


def measure(process: Process, pids: list[int] | None, peaks: bool = False) -> Any:
    """Sample the tree's memory and CPU time (``peaks``: each process's own peak where the system keeps it); both
    figures only grow."""
    resident, cpu = 0, 0.0
    for pid in tree(process) if pids is None else pids:
        sample = _Tree.sample(pid, peaks)
        if sample is not None:
            cpu += sample[0]
            resident += sample[1]
    usage = process.usage
    usage.peak_kib = max(usage.peak_kib, resident)
    usage.cpu = max(usage.cpu, cpu)
    return usage


def start(box: Box) -> subprocess.Popen[bytes]:
    """Start the box's program as the judge's child, its streams pipes: in a session of its own on POSIX, in a
    process group and a Job Object of its own on Windows."""
    problem = available()
    if problem is not None:
        raise OSError(problem)
    if box.build_output is not None:
        raise OSError(f"builds need Linux for now, this is {sys.platform}: the compilers run in the box")
    if sys.platform == "win32":
        proc = subprocess.Popen(box.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**os.environ, **box.env}, cwd=box.workdir, bufsize=0,
                                creationflags=subprocess.CREATE_NEW_PROCESS_GROUP)
        job = job_object.open_job(proc.pid)
        if job is not None:
            with _jobs_lock:
                _jobs[proc.pid] = job
        return proc
    box.parent_hwm_kib = judge_peak_kib()
    return subprocess.Popen(box.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **box.env}, cwd=box.workdir, start_new_session=True, bufsize=0)


def kill_tree(process: Process) -> None:
    """Windows: kill the program's whole tree, the processes psutil sees of it (walked again while new ones turn
    up) and its Job Object (which holds the rest, and what the walk cannot see: the descendants of a process that
    has already exited)."""
    psutil = _psutil()
    done: set[int] = set()
    for _ in range(4):  # a process may start another while we walk
        fresh = [pid for pid in tree(process) if pid not in done]
        if not fresh:
            break
        for pid in fresh:
            with contextlib.suppress(psutil.Error):
                psutil.Process(pid).kill()
        done.update(fresh)
    with _jobs_lock:
        job = _jobs.get(process.pid)
    if job is not None:
        job_object.kill(job)


def suspend(pids: list[int]) -> list[int]:
    """Suspend each process (between a program's turns: it gets no CPU); those suspended."""
    psutil = _psutil()
    stopped = []
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            psutil.Process(pid).suspend()
            stopped.append(pid)
    return stopped


def resume(pids: list[int]) -> None:
    """Let the suspended processes run again."""
    psutil = _psutil()
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            psutil.Process(pid).resume()


def sweep(box: Box) -> None:
    """Kill what is left of every program the box started: its process group on POSIX, its Job Object (closed,
    which kills what is in it) on Windows."""
    if sys.platform == "win32":
        for pid in box.started_pids:
            with _jobs_lock:
                job = _jobs.pop(pid, None)
            if job is not None:
                job_object.close(job)
        return
    for pgid in box.started_pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)

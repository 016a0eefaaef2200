"""One program started in a box (:class:`Process`): its pipes, its whole process tree, its memory and CPU time,
freezing it between turns, killing and reaping it; one kind for each way a program runs (a plain child of the
judge, the same off Linux through :mod:`mjarena.sandbox.portable`, and on Windows, where it touches no POSIX
name, in a Job Object; a program that a box's init started).  What a
process asks of its box is the :class:`Box` shape below (:class:`mjarena.sandbox.box.Box` makes the processes, so
the two are tied by this shape, not by an import).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from typing import Protocol

from mjarena.lifetime import children as _children
from mjarena.sandbox import portable
from mjarena.sandbox.accounting import DelayTally, Usage, await_stopped, peak_kib, proc_stat
from mjarena.sandbox.cgroup import BoxCgroup

__all__ = ["Box", "Process"]

REAP_SECONDS = 5.0
_STOP_SECONDS = 0.2  # how long a freeze waits for the stop to take hold (a thread in the kernel may take longer)
_POSIX = "signals, process groups and wait4 are POSIX's: on Windows the process kind is WindowsChild"


class Box(Protocol):
    """What a process reads of its :class:`~mjarena.sandbox.box.Box`."""

    cgroup: BoxCgroup | None
    parent_hwm_kib: int

    @property
    def control_fd(self) -> int | None: ...

    def poll_exit(self) -> bool: ...

    def clean(self, timeout: float) -> tuple[int | None, int]: ...

    def init_children(self) -> list[int]: ...

    def init_reaped_cpu(self) -> float: ...

    def init_reaped_delay(self) -> float: ...

    def tmpfs_kib(self) -> int: ...


class Process:
    """One program started in a box: its standard streams (``stdin``, ``stdout``, ``stderr``: the judge's ends,
    raw file descriptors), its whole process tree, and how it ended (:attr:`exit_status` after :meth:`reap`,
    negative for a signal)."""

    def __init__(self, box: Box, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.box = box
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.usage = Usage()
        self.frozen = False
        self.reaped = False
        self.exit_status: int | None = None
        self._stopped: list[int] = []
        self._oom = False
        cgroup = box.cgroup
        self._waited_base = cgroup.cpu_waited() if cgroup is not None else None  # the box's figure at the start
        self._delays = DelayTally()  # (without a cgroup) each thread's wait as last read, kept once it exits

    # -- what each kind of box tells differently ------------------------------------------------------------

    @property
    def exit_fd(self) -> int | None:
        """A descriptor that becomes readable when the program has exited (None: poll :meth:`exited`)."""
        raise NotImplementedError

    def exited(self) -> bool:
        """Whether the program's main process has exited (the rest of its tree may still run)."""
        raise NotImplementedError

    def _roots(self) -> list[int]:
        raise NotImplementedError

    def _extra(self) -> tuple[float, int]:
        """CPU seconds and KiB that the box holds beyond the live tree (reaped processes, tmpfs pages)."""
        return 0.0, 0

    def _reaped_delay(self) -> float:
        """Run-queue delay (seconds) of the program's processes that are already reaped, as far as the kind knows."""
        return 0.0

    def _collect(self, timeout: float) -> None:
        """Wait (at most ``timeout``) until the killed tree is reaped and :attr:`exit_status` known."""
        raise NotImplementedError

    # -- the tree -------------------------------------------------------------------------------------------

    def tree(self) -> list[int]:
        """The pids of the program's live process tree (its main process first)."""
        seen = self._roots()
        index = 0
        while index < len(seen):
            seen.extend(_children(seen[index]))
            index += 1
        return seen

    def measure(self, peaks: bool = False, pids: list[int] | None = None) -> Usage:
        """Sample the tree's memory and CPU time (``peaks``: also each process's own high-water mark, which
        catches a spike between two samples); both figures only grow."""
        resident = high = 0
        cpu, held = self._extra()
        for pid in self.tree() if pids is None else pids:
            sample = proc_stat(pid)
            if sample is None:
                continue
            cpu += sample[0] + sample[1]
            resident += sample[2]
            if peaks:
                high += peak_kib(pid)
        cgroup = self.box.cgroup
        if cgroup is not None:
            high = max(high, cgroup.current_kib())
        usage = self.usage
        usage.peak_kib = max(usage.peak_kib, resident + held, high + held)
        usage.cpu = max(usage.cpu, cpu)
        return usage

    def queued(self) -> float:
        """Seconds that the program's threads have waited, ready to run, for a CPU since it started (the judge's
        machine was busy: that time is not the program's own); only grows, and is read from the system at each
        call (call it at a deadline or at the end of an answer, not at every poll).

        With a delegated cgroup, the kernel's pressure figure of the box (threads waiting at once count once,
        exited ones included); otherwise the sum over the live tree's threads
        (:func:`~mjarena.sandbox.accounting.run_delay`; a zombie main process still counts) plus what the kind
        knows of its reaped processes (a box's init reports each one's main thread), or, when more, every thread's
        figure as last read (:class:`~mjarena.sandbox.accounting.DelayTally`: a process reaped by another of the
        tree, a compiler's ``cc1plus`` by its driver, keeps what it waited as far as it was read: read the tree
        often enough while such processes come and go, as :func:`~mjarena.sandbox.run.run` does).  Once
        reaped, the last figure read."""
        if self.reaped:
            return self.usage.queued
        waited = None
        cgroup = self.box.cgroup
        if cgroup is not None and self._waited_base is not None:
            now = cgroup.cpu_waited()
            waited = None if now is None else now - self._waited_base
        if waited is None:  # (a tree stopped by signals cannot fork: the one walked to stop it is still whole)
            pids = self._stopped if self.frozen and self._stopped else self.tree()
            live, seen = self._delays.read(pids)
            waited = max(self._reaped_delay() + live, seen)  # two lower bounds (neither counts a wait twice)
        self.usage.queued = max(self.usage.queued, waited)
        return self.usage.queued

    # -- signals --------------------------------------------------------------------------------------------

    def _signal_tree(self, sig: int, rounds: int = 4) -> list[int]:
        """Send ``sig`` to every process of the tree; returns the tree as last seen."""
        done: set[int] = set()
        pids: list[int] = []
        for _ in range(rounds):  # a process may fork while we walk: walk again until nothing new turns up
            pids = self.tree()
            fresh = [pid for pid in pids if pid not in done]
            if not fresh:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, sig)
            done.update(fresh)
        return pids

    def freeze(self) -> Usage:
        """Stop every process of the program (it gets no CPU between its turns: with ptrace denied nothing in
        the box can resume it), and measure the tree as it is then, high-water marks included."""
        if sys.platform == "win32":
            raise NotImplementedError(_POSIX)
        if self.frozen:
            return self.usage
        self.frozen = True
        if self.box.cgroup is not None:
            self.box.cgroup.freeze(True)
            self.box.cgroup.await_frozen(_STOP_SECONDS)
            return self.measure(peaks=True)
        self._stopped = self._signal_tree(signal.SIGSTOP)
        await_stopped(self._stopped, _STOP_SECONDS)
        return self.measure(peaks=True, pids=self._stopped)

    def thaw(self) -> None:
        """Let the stopped processes run again (they could not fork while stopped: no walk is needed)."""
        if sys.platform == "win32":
            raise NotImplementedError(_POSIX)
        if not self.frozen:
            return
        self.frozen = False
        if self.box.cgroup is not None:
            self.box.cgroup.freeze(False)
            return
        for pid in self._stopped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGCONT)
        self._stopped = []

    def kill(self) -> None:
        """SIGKILL every process of the program's tree."""
        if sys.platform == "win32":
            raise NotImplementedError(_POSIX)
        if self.reaped:
            return  # its pids may belong to other processes by now
        if self.frozen and self.box.cgroup is not None:
            self.box.cgroup.freeze(False)  # a frozen cgroup would hold the box's init too
        self._signal_tree(signal.SIGKILL, rounds=2)
        self.frozen = False

    def reap(self, timeout: float = REAP_SECONDS) -> int | None:
        """Kill what is left of the program, reap it all, and give back its exit status (None when it could not
        be known within ``timeout``: stuck in the kernel; the judge never hangs on it).  Safe to call twice."""
        if not self.reaped:
            self.measure(peaks=True)
            self.queued()  # (a plain child's main process is a zombie until collected: its figure is still there)
            self.kill()
            self._collect(timeout)
            self.reaped = True
            self._oom = self.oom_killed()  # remembered: the cgroup goes with the box
            self.close_streams()
        return self.exit_status

    def close_streams(self) -> None:
        for name in ("stdin", "stdout", "stderr"):
            fd = getattr(self, name)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, -1)

    def oom_killed(self) -> bool:
        """Whether the kernel killed one of its processes for memory (known with a delegated cgroup only)."""
        if not self.reaped and self.box.cgroup is not None:
            self._oom = self._oom or self.box.cgroup.oom_killed()
        return self._oom


def _popen_fds(proc: subprocess.Popen[bytes]) -> tuple[int, int, int]:
    """The judge's ends of ``proc``'s pipes as raw descriptors of their own (the Popen's file objects closed)."""
    assert proc.stdin and proc.stdout and proc.stderr
    fds = (os.dup(proc.stdin.fileno()), os.dup(proc.stdout.fileno()), os.dup(proc.stderr.fileno()))
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()
    return fds


class PlainChild(Process):
    """No box: the program is the judge's own child (``setpriv --pdeathsig`` and ``prlimit`` in front)."""

    def __init__(self, box: Box, proc: subprocess.Popen[bytes], fds: tuple[int, int, int] | None = None) -> None:
        super().__init__(box, proc.pid, *(fds if fds is not None else _popen_fds(proc)))
        self.proc = proc
        self.pidfd: int | None = None
        if sys.platform == "linux":  # pidfds are Linux's (5.3 and later)
            with contextlib.suppress(AttributeError, OSError):
                self.pidfd = os.pidfd_open(proc.pid)

    @property
    def exit_fd(self) -> int | None:
        return self.pidfd

    def exited(self) -> bool:
        if sys.platform != "linux":
            raise NotImplementedError("waitid: off Linux the process kind is PortableChild")
        if self.reaped:
            return True
        try:  # it stays a zombie until reaped, so its pid and process group cannot be reused meanwhile
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None and info.si_pid == self.pid

    def _roots(self) -> list[int]:
        return [self.pid]

    def kill(self) -> None:
        if sys.platform == "win32":
            raise NotImplementedError(_POSIX)
        super().kill()
        if not self.reaped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)  # it leads its own process group

    def _collect(self, timeout: float) -> None:
        if sys.platform == "win32":
            raise NotImplementedError(_POSIX)
        end = time.monotonic() + timeout
        try:
            while True:
                try:
                    pid, status, usage = os.wait4(self.pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == self.pid:
                    self.exit_status = os.waitstatus_to_exitcode(status)
                    self.usage.cpu = max(self.usage.cpu, usage.ru_utime + usage.ru_stime)
                    # ru_maxrss also counts the judge's own pages that the child held between fork and exec,
                    # so it says something about the program only when it is above the judge's own peak.
                    maxrss = portable.maxrss_kib(usage.ru_maxrss)  # bytes on macOS
                    if maxrss > self.box.parent_hwm_kib + 1024:
                        self.usage.peak_kib = max(self.usage.peak_kib, maxrss)
                    break
                if time.monotonic() >= end:
                    break  # unkillable (stuck in the kernel): give up waiting, never hang
                time.sleep(0.001)
        finally:
            self.proc.returncode = self.exit_status if self.exit_status is not None else -signal.SIGKILL
            if self.pidfd is not None:
                os.close(self.pidfd)
                self.pidfd = None


class PortableChild(PlainChild):
    """No box, off Linux: the tree, its memory and CPU from psutil (:mod:`mjarena.sandbox.portable`)."""

    def exited(self) -> bool:
        return self.reaped or portable.exited(self.pid)

    def tree(self) -> list[int]:
        return portable.tree(self)

    def measure(self, peaks: bool = False, pids: list[int] | None = None) -> Usage:
        return portable.measure(self, pids)

    def queued(self) -> float:
        return 0.0  # no run-queue delay off Linux: the deadline is wall-clock time


class WindowsChild(Process):
    """No box, on Windows: no signals, process groups, pidfds or ``wait4``.  The tree, its memory and CPU from
    psutil; frozen and thawed by psutil's suspend and resume; killed by its Job Object and psutil's tree walk
    (:func:`mjarena.sandbox.portable.kill_tree`); its exit status from the :class:`subprocess.Popen`."""

    def __init__(self, box: Box, proc: subprocess.Popen[bytes]) -> None:
        super().__init__(box, proc.pid, *_popen_fds(proc))
        self.proc = proc

    @property
    def exit_fd(self) -> int | None:
        return None

    def exited(self) -> bool:
        return self.reaped or self.proc.poll() is not None  # (Windows keeps no zombies: nothing is reaped by it)

    def tree(self) -> list[int]:
        return portable.tree(self)

    def measure(self, peaks: bool = False, pids: list[int] | None = None) -> Usage:
        return portable.measure(self, pids, peaks)

    def queued(self) -> float:
        return 0.0  # Windows tells no run-queue delay: the deadline is wall-clock time

    def freeze(self) -> Usage:
        if self.frozen:
            return self.usage
        self.frozen = True
        self._stopped = portable.suspend(self.tree())
        return self.measure(peaks=True, pids=self._stopped)

    def thaw(self) -> None:
        if not self.frozen:
            return
        self.frozen = False
        portable.resume(self._stopped)
        self._stopped = []

    def kill(self) -> None:
        if not self.reaped:
            portable.kill_tree(self)
            self.frozen = False

    def _collect(self, timeout: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):  # unkillable: give up waiting, never hang
            self.exit_status = self.proc.wait(timeout)


class BoxedChild(Process):
    """A program that the box's init started."""

    def __init__(self, box: Box, pid: int, fds: tuple[int, int, int]) -> None:
        super().__init__(box, pid, *fds)
        self._cpu_base = box.init_reaped_cpu()
        self._delay_base = box.init_reaped_delay()

    @property
    def exit_fd(self) -> int | None:
        return self.box.control_fd

    def exited(self) -> bool:
        return self.reaped or self.box.poll_exit()

    def _roots(self) -> list[int]:
        return self.box.init_children()

    def _extra(self) -> tuple[float, int]:
        return self.box.init_reaped_cpu() - self._cpu_base, self.box.tmpfs_kib()

    def _reaped_delay(self) -> float:
        return self.box.init_reaped_delay() - self._delay_base

    def _collect(self, timeout: float) -> None:
        status, maxrss = self.box.clean(timeout)
        if status is not None:
            self.exit_status = os.waitstatus_to_exitcode(status)
        if maxrss > self.box.parent_hwm_kib + 1024:  # as with no box: above the init's pages shared at the fork
            self.usage.peak_kib = max(self.usage.peak_kib, maxrss)
        # every process of the program is reaped by now, so the init's children's CPU is the program's whole
        self.usage.cpu = max(self.usage.cpu, self.box.init_reaped_cpu() - self._cpu_base)

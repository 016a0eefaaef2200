"""A judge's processes end with it, at once: every command runs under :func:`stop_on_signals`, and every pool
worker starts with :func:`pool_worker`.

* SIGTERM, SIGHUP or SIGINT (:data:`STOP_SIGNALS`): the judge kills every process it started (SIGKILL, no grace:
  a bot's box, a pool worker, a compiler), and goes on killing any it starts until it has unwound; it unwinds
  like Ctrl-C (:class:`Stopped`, a KeyboardInterrupt), so that every ``finally`` reaps its bots and what is
  written stays consistent.  A second stop signal while it unwinds ends the judge outright.
* Pool workers leave the stop signals to the judge, which kills them (their running games are dropped, and
  played again on resume); they die with the judge, whatever kills it (``PR_SET_PDEATHSIG``).
* Program bots die with whatever process started them, the judge or a worker: their box holds them by
  ``--die-with-parent`` (``setpriv --pdeathsig`` without a box).

This module stands outside :mod:`mjarena.sandbox` because every command uses it, and the sandbox package loads
the box (subprocess and the rest) with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator

__all__ = ["STOP_SIGNALS", "Stopped", "children", "die_with_parent", "kill_children", "parse_stat", "pool_worker",
           "stat_fields", "stop_on_signals"]

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))
"""The signals that stop a judge (those of them the system has: Windows has no SIGHUP)."""

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


class Stopped(KeyboardInterrupt):
    """The judge was told to stop by a signal (a KeyboardInterrupt, so it unwinds the same way as Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _prctl(option: int, value: int) -> bool:
    import ctypes  # here, not at the top: every command imports this module, and only some call this
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(sig: int | None = None) -> bool:
    """Ask the kernel to send ``sig`` (default SIGKILL) to this process when its parent dies (Linux); False where
    it cannot."""
    if sig is None:
        sig = getattr(signal, "SIGKILL", None)
        if sig is None:  # Windows: no such signal, and no prctl
            return False
    return _prctl(_PR_SET_PDEATHSIG, int(sig))


def _ignore(_signum: int, _frame: object) -> None:
    """A handler that does nothing: unlike ``SIG_IGN``, a handler is not inherited through ``exec``, so the bots a
    worker starts get the default actions."""


def pool_worker(parent: int | None = None) -> None:
    """The initializer of a pool worker: the stop signals are the judge's to act on (Ctrl-C and a hangup reach
    the whole process group; the judge then kills its workers), and the worker dies with the judge.

    ``parent``: the pid of the process that started the worker (the judge, for a pool whose workers it forks or
    spawns itself), when known.  A judge killed between the fork and this call never signals the worker (the
    kernel sends ``PR_SET_PDEATHSIG`` only for a parent that dies after it was asked), and such an orphan held
    the judge's pipes open, waiting for work, forever; so a worker whose parent is no longer ``parent`` once it
    has asked exits at once."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, _ignore)
    die_with_parent()
    if parent is not None and os.getppid() != parent:  # orphaned before it asked: the judge is gone
        os._exit(1)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (of every thread of it), from ``/proc``; [] when it is gone.  (The judge's
    walks of a process tree, here and in :mod:`mjarena.sandbox`, all go through this one.)"""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as handle:
                found.extend(int(word) for word in handle.read().split())
        except (OSError, ValueError):
            continue
    return found


def parse_stat(data: bytes) -> list[bytes]:
    """The fields of a ``/proc/PID/stat`` text after the command name (which may hold spaces and parentheses):
    ``[0]`` the state, ``[1]`` the parent, ``[2]`` the process group, ``[11:15]`` the CPU times, ``[19]`` the start
    time, ``[21]`` the resident pages (proc(5)'s field numbers less 3).

    >>> parse_stat(b"42 (a) b) S 1 42 42 0")[:3]
    [b'S', b'1', b'42']
    """
    return data[data.rindex(b")") + 2:].split()


def stat_fields(pid: int | str) -> list[bytes] | None:
    """:func:`parse_stat` of process ``pid``, or None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return parse_stat(handle.read())
    except OSError:
        return None


def _parent(pid: int) -> int | None:
    fields = stat_fields(pid)
    return None if fields is None else int(fields[1])


def kill_children() -> int:
    """SIGKILL every child process of this one; how many were signalled.  A pid read from ``/proc`` is signalled
    through a pidfd opened before checking that its process is still a child of this one, so a pid reused
    meanwhile by someone else's process is never hit."""
    if not sys.platform.startswith("linux"):
        return _kill_children_portable()
    me, killed = os.getpid(), 0
    for pid in children(me):
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        except OSError:  # no pidfds (Linux before 5.3): a plain kill after the same check
            with contextlib.suppress(OSError):
                if _parent(pid) == me:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
            continue
        try:
            if _parent(pid) == me:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                killed += 1
        except OSError:
            pass
        finally:
            os.close(pidfd)
    return killed


def _kill_children_portable() -> int:
    """:func:`kill_children` off Linux (no ``/proc``, no pidfds), through psutil, which checks that a pid still
    names the process it listed (by its start time) before it signals it; 0 without psutil."""
    try:
        import psutil
    except ImportError:
        return 0
    killed = 0
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            child.kill()
            killed += 1
    return killed


def _kill_children_until(done: threading.Event) -> None:
    while not done.wait(0.01):
        kill_children()


@contextlib.contextmanager
def stop_on_signals(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[None]:
    """Within the block, ``signals`` stop the judge: its child processes are killed at once, and again every
    10 ms until the block ends (whatever unwinds may still start one: a thread pool running its queue; and the
    judge adopts the orphans of its descendants), and :class:`Stopped` is raised in the main thread; a second
    one ends the process (the default action).  The previous handlers come back afterwards."""
    done = threading.Event()

    def stop(signum: int, _frame: object) -> None:
        for sig in signals:
            signal.signal(sig, signal.SIG_DFL)
        # From now on a process orphaned below the judge becomes its child, to be killed too: a box whose bwrap
        # is killed while it sets the box up can lose its init before --die-with-parent holds it.
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        kill_children()
        threading.Thread(target=_kill_children_until, args=(done,), name="mjarena-stopping", daemon=True).start()
        raise Stopped(signum)

    previous = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, stop)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        yield
    finally:
        done.set()
        for sig, handler in previous.items():
            signal.signal(sig, handler)

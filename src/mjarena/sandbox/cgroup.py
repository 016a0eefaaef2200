"""A box in a cgroup that the user delegated (``--cgroup DIR``): the kernel then holds the memory and the
process count of the whole box exactly, freezes it between turns and kills it at once.

mjarena never creates cgroups on its own: only inside the cgroup v2 directory that the option names (and that
the user may write to, e.g. a systemd ``Delegate=yes`` unit's), one child cgroup per box, removed when the box
is gone.  The box's outermost process enters its cgroup before it executes anything (a ``sh`` writes its own
pid into ``cgroup.procs`` and then executes bwrap), so nothing the bot starts is ever outside it.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from pathlib import Path

__all__ = ["BoxCgroup", "delegated_cgroup"]

_counter = itertools.count()
_counter_lock = threading.Lock()
_ENTER = 'echo $$ > "$0/cgroup.procs" && exec "$@"'


class BoxCgroup:
    """One box's child cgroup of the delegated ``parent``: limits written at creation."""

    def __init__(self, parent: str, *, memory_bytes: int | None, max_processes: int) -> None:
        with _counter_lock:
            number = next(_counter)
        self.path = Path(parent) / f"mjarena-{os.getpid()}-{number}"
        self.path.mkdir()
        if memory_bytes is not None:
            self._write("memory.max", str(memory_bytes))
            self._write("memory.swap.max", "0", optional=True)
        self._write("pids.max", str(max_processes))

    def _write(self, name: str, value: str, optional: bool = False) -> None:
        try:
            (self.path / name).write_text(value + "\n")
        except OSError:
            if not optional:
                raise

    def enter_argv(self) -> list[str]:
        """The words to put before a command so that it runs inside this cgroup from its first instruction."""
        return ["/bin/sh", "-c", _ENTER, str(self.path)]

    def freeze(self, frozen: bool) -> None:
        self._write("cgroup.freeze", "1" if frozen else "0")

    def await_frozen(self, seconds: float) -> bool:
        """Wait, at most ``seconds``, until the kernel says every process is frozen (``frozen 1`` in
        ``cgroup.events``: freezing takes hold asynchronously); whether it did."""
        end = time.monotonic() + seconds
        while True:
            try:
                if "frozen 1" in (self.path / "cgroup.events").read_text():
                    return True
            except FileNotFoundError:
                return False  # not a cgroup the kernel keeps (a stand-in): nothing to wait for
            except OSError:
                pass
            if time.monotonic() > end:
                return False
            os.sched_yield()

    def kill(self) -> None:
        self._write("cgroup.kill", "1", optional=True)  # Linux 5.14+; the judge's signals do the rest

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the box for going over ``memory.max``."""
        try:
            events = (self.path / "memory.events").read_text()
        except OSError:
            return False
        return any(line.split()[:1] == ["oom_kill"] and line.split()[1] != "0" for line in events.splitlines())

    def cpu_waited(self) -> float | None:
        """Seconds during which at least one of the box's threads was ready to run but waited for a CPU, from the
        kernel's pressure figures (``some total=`` of ``cpu.pressure``, microseconds); None where the kernel keeps
        none (no PSI).  Unlike a sum over threads, two threads waiting at once count once."""
        try:
            for line in (self.path / "cpu.pressure").read_text().splitlines():
                if line.startswith("some "):
                    return int(line.rsplit("total=", 1)[1]) / 1e6
        except (OSError, ValueError, IndexError):
            pass
        return None

    def current_kib(self) -> int:
        """The memory the box holds now (its programs come and go in one box: a lifetime peak would not do)."""
        with contextlib.suppress(OSError, ValueError):
            return int((self.path / "memory.current").read_text()) // 1024
        return 0

    def remove(self, timeout: float = 2.0) -> None:
        """Remove the cgroup once its processes are gone (the kernel refuses while any is left)."""
        end = time.monotonic() + timeout
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > end:
                    return
                time.sleep(0.01)


_DELEGATE_MARKS = ("trusted.delegate", "user.delegate")  # what systemd sets on a unit's cgroup with Delegate=yes
_JUDGE_LEAF = "mjarena-judge"


def delegated_cgroup(proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> str | None:
    """The cgroup v2 directory delegated to this judge, made ready for boxes, or None (then no cgroup is used).

    A cgroup counts as delegated when systemd marked it so (``Delegate=yes`` sets the ``trusted.delegate`` or
    ``user.delegate`` attribute to 1) or, for a user other than root, when it belongs to that user; never the
    root of the tree, never a cgroup v1 hierarchy.  Because cgroup v2 lets a cgroup hand controllers to its
    children only when no process sits in it, the judge's processes first move into a leaf of it
    (``mjarena-judge``); then ``memory`` and ``pids`` are enabled for the children, the boxes.  Anything
    refused on the way leaves the judge where it was and gives None: nothing is created outside the delegated
    cgroup.
    """
    try:
        with open(proc_cgroup, encoding="utf-8") as handle:
            lines = [line.rstrip("\n") for line in handle]
    except OSError:
        return None
    paths = [line[3:] for line in lines if line.startswith("0::")]
    if len(paths) != 1 or paths[0] in ("", "/"):
        return None
    own = Path(root) / paths[0].lstrip("/")
    if own.name == _JUDGE_LEAF:  # moved there by an earlier call (or a parent judge)
        own = own.parent
    if not (own / "cgroup.procs").is_file() or not _delegated(own):
        return None
    try:
        leaf = own / _JUDGE_LEAF
        leaf.mkdir(exist_ok=True)
        for pid in (own / "cgroup.procs").read_text().split():
            (leaf / "cgroup.procs").write_text(pid + "\n")
        (own / "cgroup.subtree_control").write_text("+memory +pids\n")
    except OSError:
        return None
    return str(own)


def _delegated(path: Path) -> bool:
    for name in _DELEGATE_MARKS:
        with contextlib.suppress(OSError):
            if os.getxattr(path, name) == b"1":
                return True
    return os.getuid() != 0 and path.stat().st_uid == os.getuid()

"""A box's uid slot and the limits of its programs: each box of a root judge runs as a uid of its own
(:func:`box_uid`: one of :data:`SLOTS` slots per judge process, taken and given back), and every program in a box
runs under the rlimits :func:`rlimits` sets (files, core dumps, processes, private data, address space) and at
most :data:`OPEN_FILES` open files.

>>> box_uid(3, judge_pid=7) == UID_BASE + 7 * SLOTS + 3
True
>>> sorted(rlimits(Sandbox(), own_uid=True, memory_limit=None, address_space=None))
['core', 'fsize', 'nproc']
"""

from __future__ import annotations

import os
import sys
import threading

from mjarena.sandbox.accounting import SYSCONF, count_processes
from mjarena.sandbox.config import Sandbox

__all__ = ["DATA_ALLOWANCE", "MIB", "OPEN_FILES", "RLIMIT_NUMBERS", "SLOTS", "UID_BASE", "box_uid", "give_slot",
           "judge_uid", "rlimits", "take_slot"]

MIB = 1 << 20
UID_BASE = 2_000_000_000  # boxes of a root judge run as UID_BASE + judge pid * SLOTS + slot
SLOTS = 256
_slots_lock = threading.Lock()
_slots_free: list[int] = []
_slots_next = 0


def take_slot() -> int | None:
    """A free slot of this judge process, or None when all :data:`SLOTS` are taken."""
    global _slots_next
    with _slots_lock:
        if _slots_free:
            return _slots_free.pop()
        if _slots_next >= SLOTS:
            return None
        _slots_next += 1
        return _slots_next - 1


def give_slot(slot: int) -> None:
    """Give back a slot that :func:`take_slot` gave."""
    with _slots_lock:
        _slots_free.append(slot)


def box_uid(slot: int, judge_pid: int | None = None) -> int:
    """The uid of the box in ``slot`` of the judge process ``judge_pid`` (this one by default)."""
    return UID_BASE + (os.getpid() if judge_pid is None else judge_pid) * SLOTS + slot


def judge_uid() -> int:
    """The judge's uid (0: root); -1 on Windows, which has none (nor a box, nor rlimits)."""
    if sys.platform == "win32":
        return -1
    return os.getuid()


def rlimits(sandbox: Sandbox, own_uid: bool, memory_limit: int | None, address_space: int | None) -> dict[str, int]:
    """The rlimits of every program of a box, by ``prlimit`` option name: files, core dumps, processes (counted
    per uid: a box of its own uid counts its processes alone), private data (the kernel's hold on memory that
    leaves reserved address space alone, with room for what a JVM commits at start) and, when asked, the address
    space."""
    limits = {"fsize": sandbox.file_size_mib * MIB, "core": 0}
    if own_uid:
        limits["nproc"] = sandbox.max_processes
    elif judge_uid() != 0:  # the box shares the judge's uid: leave room for what it already runs
        limits["nproc"] = sandbox.max_processes + count_processes(judge_uid())
    # (root ignores the process-count limit: under a root judge without a uid of its own, none is set)
    if memory_limit is not None:
        limits["data"] = memory_limit + DATA_ALLOWANCE
    if address_space is not None:
        limits["as"] = address_space
    return limits


#: Private data a process may hold beyond the memory limit before the kernel refuses it: a JVM commits its initial
#: heap (1/64 of the machine's memory by default) at start, used or not; the watchdog holds the limit itself.
DATA_ALLOWANCE = (SYSCONF("SC_PHYS_PAGES") * SYSCONF("SC_PAGE_SIZE") // 64 if SYSCONF else 0) + 256 * MIB
RLIMIT_NUMBERS = {"fsize": 1, "data": 2, "core": 4, "nproc": 6, "nofile": 7, "as": 9}
#: Open files per boxed process (soft and hard): pipe and socket buffers are kernel memory that no count sees,
#: so their number is bounded (a JVM, Node or CPython needs a few dozen).
OPEN_FILES = 1024

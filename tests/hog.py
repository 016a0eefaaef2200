"""A CPU hog for the load tests (issue 42): busy shell loops, :data:`LOOPS_PER_CORE` per core this process may
use, each in a session of its own (the scheduler's autogroups weigh one session's loops as one, so loops sharing a
session would be one neighbour, not several), at the bots' priority.  A test kills exactly the loops it started,
by their pids (Linux: the loops are as many as the cores of its CPU affinity).  In a test::

    with cpu_hog() as loops:
        ...  # the bots and compilers started here wait for a CPU beside len(loops) busy loops
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator

__all__ = ["LOOPS_PER_CORE", "cpu_hog"]

LOOPS_PER_CORE = 2


@contextlib.contextmanager
def cpu_hog(per_core: int = LOOPS_PER_CORE) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Busy loops, ``per_core`` per core this process may use, each in a session of its own, while the block runs."""
    cores = len(os.sched_getaffinity(0))
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
             for _ in range(per_core * cores)]
    try:
        yield loops
    finally:
        for loop in loops:
            os.kill(loop.pid, signal.SIGKILL)  # only what this hog started, by its pid
            loop.wait()

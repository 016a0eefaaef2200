"""The one door through which every process that a bot or a compiler owns is started.

The box knows nothing of mahjong and the protocol layer knows nothing of namespaces (go-judge's and isolate's
split): a :class:`Box` is made once per seat per game and starts the program afresh in it at each
:meth:`Box.start`, giving back a :class:`Process` (pipes, the live process tree, its memory and CPU, freeze/thaw,
kill and reap); :func:`run` runs a command to the end under limits and gives back a :class:`RunResult` (exit,
wall, CPU, peak memory, output, verdict).

Two kinds of box (:class:`Sandbox`):

- ``bwrap`` (the default): Linux namespaces through bubblewrap, with our own init as the box's pid 1 and a seccomp
  filter on every program (:mod:`mjarena.sandbox.seccomp`). The program sees its own files read-only, the system
  directories read-only (a bot at a table's seat: only its seat slot's own copies of what its runtime needs,
  :mod:`mjarena.sandbox.copies`), a private size-capped ``/tmp`` and ``/dev/shm`` (wiped between programs, counted
  as its memory), a ``/proc`` of its own pid namespace, no network (loopback included), its own IPC and UTS
  namespaces, and an environment of ``PATH``, ``HOME`` and ``LANG`` only. When the judge runs as root the program
  runs under an unprivileged uid of its own, so that the process-count limit bites. Everything dies with the box,
  and the box dies with the judge.
- ``none``: a plain child process (trusted programs that need the real filesystem). The same limits are watched
  and it still dies with the judge, but it sees everything the judge sees.

>>> Sandbox.parse("none").kind, Sandbox.parse("none").private_runtimes
('none', False)
>>> Sandbox.parse("docker")
Traceback (most recent call last):
...
ValueError: unknown sandbox 'docker': expected bwrap or none
"""

from __future__ import annotations

from mjarena.sandbox.box import Box, BoxError
from mjarena.sandbox.config import DEFAULT_SANDBOX, KINDS, Sandbox, SandboxUnavailable, check
from mjarena.sandbox.process import Process
from mjarena.sandbox.run import RunResult, run

__all__ = [
    "DEFAULT_SANDBOX", "KINDS", "Box", "BoxError", "Process", "RunResult", "Sandbox", "SandboxUnavailable", "check",
    "run",
]

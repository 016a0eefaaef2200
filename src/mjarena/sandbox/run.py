"""Run a command to its end in a box, under limits, and say how it went (:func:`run`): what a compiler, a
pre-flight probe or a one-off check needs."""

from __future__ import annotations

import os
import selectors
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mjarena.sandbox.box import Box
from mjarena.sandbox.config import Sandbox
from mjarena.sandbox.process import Process

__all__ = ["DELAY_READ_SECONDS", "RunResult", "run"]

_CHUNK = 1 << 16
WALL_FACTOR = 5.0
"""A run's wall-clock cap, in its wall limits: its own time may be longer on a busy machine, never its wall time
past this."""
DELAY_READ_SECONDS = 0.1
"""How often a run's processes' waits for a CPU are read while it runs: a process of its tree that another one
reaps (a compiler driver's ``cc1plus``) takes its wait with it, so what it waited is read while it lives
(:class:`~mjarena.sandbox.accounting.DelayTally`)."""


@dataclass
class RunResult:
    """How a run ended. ``status``: ``ok`` (exit code 0), ``crash`` (another exit code, or a signal),
    ``timeout`` (wall or CPU time), ``memory`` (the tree's resident memory), ``output_limit`` or, for a compiler
    (``build_output``), ``disk_limit`` (it wrote more than that into its folder).
    ``exit_code`` is negative for a signal (None when it was killed by the judge); ``wall`` and ``cpu`` in
    seconds, ``peak_kib`` summed over the box's processes; ``stdout`` and ``stderr`` as printed (each capped at
    ``output_limit`` bytes); ``queued`` the seconds its threads waited for a CPU as far as it was measured (its
    live processes' when its wall-clock limit passed, and the box's reaped ones': a lower bound)."""

    status: str
    exit_code: int | None
    wall: float
    cpu: float
    peak_kib: int
    stdout: bytes
    stderr: bytes
    queued: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def run(
    argv: Sequence[str],
    *,
    sandbox: Sandbox,
    readable: Iterable[str | os.PathLike[str]] = (),
    writable: Iterable[str | os.PathLike[str]] = (),
    cwd: str | os.PathLike[str] | None = None,
    stdin: bytes = b"",
    time_limit: float = 10.0,
    memory_mib: int = 1024,
    output_limit: int = 1 << 20,
    env: Mapping[str, str] | None = None,
    poll_interval: float = 0.02,
    wall_limit: float | None = None,
    build_output: int | None = None,
    nice: int = 0,
) -> RunResult:
    """Run ``argv`` in ``sandbox`` until it exits or breaks a limit (``time_limit`` seconds of CPU time, and of
    its own time unless ``wall_limit`` says otherwise; the resident memory of its whole tree, ``output_limit``
    bytes on either stream); everything it started dies with it.  ``nice`` lowers its priority (a compile must not
    slow the games down).

    Its own time is the wall-clock time less what its threads waited, ready to run, for a CPU (the machine's
    load): when the wall-clock limit passes, the limit moves by that wait, up to :data:`WALL_FACTOR` times the
    limit (a program that hangs still ends).  The system is asked for that wait then, and every
    :data:`DELAY_READ_SECONDS` while the program runs (a process reaped by another of its tree takes its wait
    with it).

    ``build_output`` (bytes) runs a compiler: in a compiler's box (see :class:`~mjarena.sandbox.Box`), whose
    output is copied into ``cwd`` when it exits with 0, or refused (``disk_limit``) past that many bytes.

    >>> result = run(["sh", "-c", "echo hi; exit 3"], sandbox=Sandbox(kind="none"))
    >>> result.status, result.exit_code, result.stdout
    ('crash', 3, b'hi\\n')
    """
    start = time.monotonic()
    if build_output is not None and stdin:
        raise ValueError("a compiler (build_output) is given no input: its standard input is at its end")
    wall = time_limit if wall_limit is None else wall_limit
    limits = _Limits(time_limit, wall, memory_mib * 1024, output_limit, WALL_FACTOR * wall)
    with Box(argv, sandbox=sandbox, readable=readable, writable=writable, cwd=cwd, env=env,
             memory_limit=memory_mib << 20, build_output=build_output, nice=nice) as box:
        process = box.start()
        status, out = _watch(process, stdin, start, limits, poll_interval)
        code = process.reap()
        usage = process.usage
        if status == "ok" and code != 0:
            status = "memory" if usage.peak_kib > memory_mib * 1024 or process.oom_killed() else "crash"
        if status == "ok" and build_output is not None and box.keep_output() is None:
            status = "disk_limit"
    stdout, stderr = (bytes(buffer[:output_limit]) for buffer in out)
    return RunResult(status, code, time.monotonic() - start, usage.cpu, usage.peak_kib, stdout, stderr, usage.queued)


@dataclass(frozen=True)
class _Limits:
    """What :func:`_watch` holds a program to: CPU seconds and seconds of its own time (at most ``cap`` of wall-clock
    time), KiB of memory, bytes of each stream."""

    cpu: float
    wall: float
    kib: int
    output: int
    cap: float


def _watch(process: Process, stdin: bytes, start: float, limits: _Limits, poll_interval: float,
           ) -> tuple[str, tuple[bytearray, bytearray]]:
    """Feed ``stdin`` and collect both output streams until the program exits or breaks a limit."""
    if sys.platform == "win32":  # selectors watch sockets only there; Box.start refused already (sandbox.portable)
        raise OSError("a program's pipes cannot be watched on Windows yet")
    out = {process.stdout: bytearray(), process.stderr: bytearray()}
    selector = selectors.DefaultSelector()
    for fd in out:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    pending = memoryview(stdin)
    stdin_fd = process.stdin
    if pending:
        os.set_blocking(stdin_fd, False)
        selector.register(stdin_fd, selectors.EVENT_WRITE)
    elif stdin_fd >= 0:  # (a compiler's box keeps no end of its standard input: -1)
        os.close(stdin_fd)
        process.stdin = -1
    status = "ok"
    wall = limits.wall  # moved by its wait for a CPU when it passes (never past the cap)
    next_read = DELAY_READ_SECONDS
    try:
        while True:
            if process.exited():
                process.kill()  # what it left running
                if not any(key.fd in out for key in selector.get_map().values()):
                    break
            usage = process.measure()
            elapsed = time.monotonic() - start
            if usage.peak_kib > limits.kib:
                status = "memory"
                break
            if elapsed >= next_read:  # (read while its processes live: see DELAY_READ_SECONDS)
                process.queued()
                next_read = elapsed + DELAY_READ_SECONDS
            if elapsed > wall and wall < limits.cap:
                wall = min(limits.wall + process.queued(), limits.cap)
            if elapsed > wall or usage.cpu > limits.cpu:
                status = "timeout"
                break
            if any(len(buffer) > limits.output for buffer in out.values()):
                status = "output_limit"
                break
            for key, _ in selector.select(min(poll_interval, max(0.0, wall - elapsed))):
                if key.fd == stdin_fd:
                    try:
                        pending = pending[os.write(stdin_fd, pending[:_CHUNK]) :]
                    except OSError:
                        pending = pending[len(pending) :]
                    if not pending:
                        selector.unregister(stdin_fd)
                        os.close(stdin_fd)
                        process.stdin = -1
                    continue
                try:
                    chunk = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if chunk:
                    out[key.fd] += chunk
                else:
                    selector.unregister(key.fd)
    finally:
        selector.close()
    return status, (out[process.stdout], out[process.stderr])

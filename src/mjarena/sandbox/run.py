"""Run a command to its end in a box, under limits, and say how it went (:func:`run`): what a compiler, a
pre-flight probe or a one-off check needs."""

from __future__ import annotations

import os
import selectors
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mjarena.sandbox.box import Box, Process
from mjarena.sandbox.config import Sandbox

__all__ = ["RunResult", "run"]

_CHUNK = 1 << 16


@dataclass
class RunResult:
    """How a run ended. ``status``: ``ok`` (exit code 0), ``crash`` (another exit code, or a signal),
    ``timeout`` (wall or CPU time), ``memory`` (the tree's resident memory) or ``output_limit``.
    ``exit_code`` is negative for a signal (None when it was killed by the judge); ``wall`` and ``cpu`` in
    seconds, ``peak_kib`` summed over the box's processes; ``stdout`` and ``stderr`` as printed (each capped at
    ``output_limit`` bytes)."""

    status: str
    exit_code: int | None
    wall: float
    cpu: float
    peak_kib: int
    stdout: bytes
    stderr: bytes

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
) -> RunResult:
    """Run ``argv`` in ``sandbox`` until it exits or breaks a limit (wall and CPU ``time_limit``, the resident
    memory of its whole tree, ``output_limit`` bytes on either stream); everything it started dies with it.

    >>> result = run(["sh", "-c", "echo hi; exit 3"], sandbox=Sandbox(kind="none"))
    >>> result.status, result.exit_code, result.stdout
    ('crash', 3, b'hi\\n')
    """
    start = time.monotonic()
    with Box(argv, sandbox=sandbox, readable=readable, writable=writable, cwd=cwd, env=env,
             memory_limit=memory_mib << 20) as box:
        process = box.start()
        status, out = _watch(process, stdin, start, time_limit, memory_mib * 1024, output_limit, poll_interval)
        code = process.reap()
    usage = process.usage
    if status == "ok" and code != 0:
        status = "memory" if usage.peak_kib > memory_mib * 1024 or process.oom_killed() else "crash"
    stdout, stderr = (bytes(buffer[:output_limit]) for buffer in out)
    return RunResult(status, code, time.monotonic() - start, usage.cpu, usage.peak_kib, stdout, stderr)


def _watch(
    process: Process, stdin: bytes, start: float, time_limit: float, limit_kib: int, output_limit: int,
    poll_interval: float,
) -> tuple[str, tuple[bytearray, bytearray]]:
    """Feed ``stdin`` and collect both output streams until the program exits or breaks a limit."""
    out = {process.stdout: bytearray(), process.stderr: bytearray()}
    selector = selectors.DefaultSelector()
    for fd in out:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    pending = memoryview(stdin)
    stdin_fd = process.stdin
    os.set_blocking(stdin_fd, False)
    if pending:
        selector.register(stdin_fd, selectors.EVENT_WRITE)
    else:
        os.close(stdin_fd)
        process.stdin = -1
    status = "ok"
    try:
        while True:
            if process.exited():
                process.kill()  # what it left running
                if not any(key.fd in out for key in selector.get_map().values()):
                    break
            usage = process.measure()
            elapsed = time.monotonic() - start
            if usage.peak_kib > limit_kib:
                status = "memory"
                break
            if elapsed > time_limit or usage.cpu > time_limit:
                status = "timeout"
                break
            if any(len(buffer) > output_limit for buffer in out.values()):
                status = "output_limit"
                break
            for key, _ in selector.select(min(poll_interval, max(0.0, time_limit - elapsed))):
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

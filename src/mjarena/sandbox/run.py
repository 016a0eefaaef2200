"""Run a command to its end in a box, under limits, and say how it went (:func:`run`): what a compiler, a
pre-flight probe or a one-off check needs."""

from __future__ import annotations

import os
import selectors
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mjarena.sandbox.box import Boxed, spawn
from mjarena.sandbox.config import Sandbox

__all__ = ["RunResult", "finish", "run"]

_CHUNK = 1 << 16
_REAP_SECONDS = 5.0


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


def exit_code(status: int, boxed: bool) -> int:
    """The program's exit code from a wait status; a bwrap box reports death by signal N as 128 + N."""
    code = os.waitstatus_to_exitcode(status)
    if boxed and 128 < code < 128 + 65:
        return -(code - 128)
    return code


def finish(box: Boxed, timeout: float = _REAP_SECONDS) -> int | None:
    """Kill what is left of the box, reap its outermost process, and give back its exit code (None when it
    did not exit within ``timeout``: stuck in the kernel; the judge never hangs on it)."""
    box.kill()
    code = box.proc.returncode
    end = time.monotonic() + timeout
    while code is None:
        try:
            pid, status = os.waitpid(box.pid, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == box.pid:
            code = box.proc.returncode = exit_code(status, box.sandbox.boxed)
            break
        if time.monotonic() >= end:
            break
        time.sleep(0.002)
    for stream in (box.proc.stdin, box.proc.stdout, box.proc.stderr):
        if stream is not None:
            stream.close()
    box.release()
    return code


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
    box = spawn(argv, sandbox=sandbox, readable=readable, writable=writable, cwd=cwd, env=env,
                memory_limit=memory_mib << 20)
    proc = box.proc
    assert proc.stdin and proc.stdout and proc.stderr
    out = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    selector = selectors.DefaultSelector()
    for fd in out:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    pending = memoryview(stdin)
    stdin_fd = proc.stdin.fileno()
    os.set_blocking(stdin_fd, False)
    if pending:
        selector.register(stdin_fd, selectors.EVENT_WRITE)
    else:
        proc.stdin.close()
    status = "ok"
    limit_kib = memory_mib * 1024
    try:
        while True:
            if box.exited():
                box.kill()  # what it left running (bwrap: the namespace is gone already)
                if not any(key.fd in out for key in selector.get_map().values()):
                    break
            usage = box.measure()
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
                    except (BrokenPipeError, OSError):
                        pending = pending[len(pending) :]
                    if not pending:
                        selector.unregister(stdin_fd)
                        proc.stdin.close()
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
        box.measure(peaks=True)
        code = finish(box)
    if status == "ok" and code != 0:
        status = "memory" if box.usage.peak_kib > limit_kib or box.oom_killed() else "crash"
    stdout, stderr = (bytes(buffer[:output_limit]) for buffer in out.values())
    return RunResult(status, code, time.monotonic() - start, box.usage.cpu, box.usage.peak_kib, stdout, stderr)

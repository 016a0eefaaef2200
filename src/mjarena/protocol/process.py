"""Run a bot program as a real subprocess, one request at a time, with time (its own), memory and output limits.

:class:`BotProcess` is the judge's side of one bot for one game.  It keeps the history (requests, responses and
the bot's ``data``) and delivers each request the way the bot last asked for:

- restart mode (the spec's): start the program, write one line with the whole history
  (:func:`~mjarena.protocol.botzone.encode_input`), read its answer, and wait for it to exit;
- keep-running mode (Botzone's): a bot that prints :data:`~mjarena.protocol.botzone.KEEP_RUNNING` after its
  answer is kept, and its next request is written to it alone (``"2 T3"``, JSON-encoded).  A bot that answers
  without the marker is let exit and restarted, with the whole history, at its next request.

Limits, per answer:

- the bot's own time, from the moment the program has been started (restart mode: its box made and the process
  forked, the judge's work) or the request is written (keep mode) until the answer is complete: the marker line
  read, or the process exited.  Its own time is the wall-clock time less the time its threads waited, ready to
  run, for a CPU (the run-queue delay: the judge's machine was busy, not the bot): when the deadline passes it
  moves by that wait, read from the system then (``/proc/PID/task/TID/schedstat`` of the live tree, what the
  box's init read of the processes it reaped, or a delegated cgroup's ``cpu.pressure``), never past a wall-clock
  cap of :data:`~mjarena.protocol.bot_pipes.WALL_FACTOR` time limits (a bot that hangs still ends).  Off Linux
  no such wait is known: the deadline is wall-clock time.  Every wait goes through one helper,
  :meth:`Deadline.wait`, around the pipes read the way the system allows (never a blocking read by the judge):
  non-blocking and ``select`` on POSIX, a reading thread per pipe on Windows (``pipes="threads"`` forces that
  anywhere; :mod:`mjarena.protocol.pipe_readers`).
- CPU time: the CPU seconds that the bot's whole process tree uses for one answer may not exceed the time limit
  either (a bot cannot buy time with threads or children), or ``cpu_limit`` when given.
- memory: the resident memory of the bot's whole process tree (summed over its processes, sampled every
  ``poll_interval`` and checked against each process's own high-water mark when it answers), so that a JVM with
  its default address-space reservations runs, and forking does not multiply the limit.  The answer is
  ``memory`` when that exceeds the limit, or when the bot dies and its standard error shows an allocation
  failure.
- output: at most ``output_limit`` bytes of standard output per answer; past it the bot is killed.

And per game: ``game_budget``, the seat's thinking time for the whole game (the sum of its answers' own times,
as above).  An answer's deadline is the smaller of the time limit and what is left of the budget (a restart-mode
bot is told that deadline in its ``time_limit``), so a bot that answers just under its limit on every request
runs out of budget and is out with a ``timeout``, as for any answer over its limit; :attr:`BotProcess.thinking`
is the time used so far.

Every start goes through the bot's :class:`mjarena.sandbox.Box`, made at its first start and kept for the game
(a restart-mode request is a fresh process in it): with a ``bwrap`` :class:`~mjarena.sandbox.Sandbox` the bot
runs in namespaces of its own under a system-call filter, sees only its ``readable`` files and the system's,
has a process-count and file size limit, and between its turns a kept-running bot's whole tree is stopped
(``SIGSTOP``, ``SIGCONT`` when its next request comes), so it gets no CPU while the others think.  The box
owns the processes (start, measure, freeze, kill, reap); this class only speaks to them over their pipes.
With ``Sandbox(kind="none")`` (the default of this class; matches default to the box) it is a plain child
process with the same limits watched (on Windows in a Job Object of its own, its pipes read by threads:
:mod:`mjarena.sandbox.portable`).  Either way it dies with the judge.

On any breach, and at :meth:`close`, the bot's whole process tree is killed (``SIGKILL``; on Windows its Job
Object) and reaped: the judge never hangs and leaves nothing behind.  After an error the :class:`BotProcess` is
closed.  Standard error is drained all along (a chatty bot never blocks on it); its last ``stderr_tail`` bytes
go into error details.

Failures raise the :class:`~mjarena.agents.errors.BotError` subclasses: ``timeout``, ``crash`` (non-zero exit,
a signal, or a kept-running bot that exits before answering), ``memory``, ``output_limit``, ``bad_output``
(printed nothing, not JSON, no string ``"response"``).

What is not the bot's doing raises :class:`~mjarena.agents.errors.JudgeError` instead, never a ``crash``: a box
that cannot be made or cannot start the program (any :class:`OSError` of the box's set-up, the program missing;
but not what the bot's last run left in its box that cannot be deleted: that is its ``crash``),
and the bot's own files (its ``readable`` paths: its build) gone or replaced by another, found before each start
and after any failure (a build evicted under a restart-mode bot makes its next start fail with exit code 127:
the judge's failure, not the bot's).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence

from mjarena.agents.errors import (
    BotCrash,
    BotError,
    BotMemoryError,
    BotOutputLimit,
    BotTimeout,
    JudgeError,
)
from mjarena.protocol.bot_failures import DETAIL_STDERR, MEMORY_SIGNS, PRINTABLE, STDIN_HINT, describe_exit
from mjarena.protocol.bot_pipes import OVERLOADED_SHARE, WALL_FACTOR, BotChild, Deadline, marker_span
from mjarena.protocol.botzone import decode_output, encode_input, encode_request
from mjarena.protocol.pipe_readers import CHUNK_BYTES, reader_kind
from mjarena.protocol.transport import Exchange, Reply
from mjarena.sandbox import Box, Sandbox, SandboxUnavailable
from mjarena.sandbox.accounting import live_group_members
from mjarena.sandbox.box import BoxLeftovers

__all__ = ["MIB", "BotProcess", "Deadline", "ProcessTransport", "live_group_members"]

MIB = 1 << 20
# Pipes read by threads: how long, once the program has exited, the judge waits for what its pipes still bring
# (the threads read it at once: only a pipe held open by a process left behind takes this long).
_SETTLE_SECONDS = 0.5


class BotProcess:
    """The judge's side of one bot program for one game (a :class:`~mjarena.protocol.transport.Transport`).

    ``command`` is an argument list, or a string split like a shell would (no shell is run).
    ``time_limit`` is in seconds per answer, ``memory_limit_mib`` in MiB, ``output_limit`` in bytes per answer.
    ``sandbox`` is the box it runs in (none by default) and ``readable`` the files it may read there;
    ``limit_address_space`` also caps each process's address space at the memory limit (a native bot then
    fails its allocation at once; runtimes that reserve far more than they use, the JVM and node, need it off).
    ``cpu_limit`` is the CPU seconds of the whole tree per answer (default: the time limit).  ``game_budget`` is
    the own time of all its answers together (None: no such bound); :attr:`thinking` the time they used so far.
    ``seat`` is its seat at the table, when the other seats' bots are untrusted: its box then shows its seat
    slot's own copies of its runtime (:mod:`mjarena.sandbox.copies`, when the sandbox has ``private_runtimes``).
    ``pipes`` is how its pipes are read (``"select"`` or ``"threads"``; None: the system's way, threads on Windows).
    :meth:`ask` sends one request and returns a :class:`~mjarena.protocol.transport.Reply`; ``history`` records
    every exchange (request, response, elapsed ms, mode).  Close it (or use ``with``) when the game is over.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        time_limit: float = 1.0,
        memory_limit_mib: int = 256,
        output_limit: int = MIB,
        cwd: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        sandbox: Sandbox | None = None,
        readable: Sequence[str | os.PathLike[str]] = (),
        limit_address_space: bool = False,
        cpu_limit: float | None = None,
        game_budget: float | None = None,
        stderr_tail: int = 4096,
        poll_interval: float = 0.02,
        seat: int | None = None,
        pipes: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty bot command")
        self.time_limit = time_limit
        self.memory_limit_mib = memory_limit_mib
        self.output_limit = output_limit
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.sandbox = sandbox if sandbox is not None else Sandbox(kind="none")
        self.readable = [os.fspath(path) for path in readable]
        self.limit_address_space = limit_address_space
        self.cpu_limit = time_limit if cpu_limit is None else cpu_limit
        self.game_budget = game_budget
        self.seat = seat
        self.pipes = reader_kind(pipes)
        if seat is not None:  # the seat slot's copies of its runtime, made before any answer is timed
            Box(self.argv, sandbox=self.sandbox, cwd=self.cwd, seat=seat).prepare()
        self.thinking = 0.0  # seconds of its own time its answers took, failed ones included
        self.stderr_limit = stderr_tail
        self.poll_interval = poll_interval
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.data = ""
        self.history: list[Exchange] = []
        self.started_pids: list[int] = []
        self.error: BotError | None = None
        self.closed = False
        self._child: BotChild | None = None
        self._box: Box | None = None
        self._files: dict[str, tuple[int, int] | None] = {}  # readable path -> (device, inode) at the first start

    # -- public ---------------------------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The pid of the kept-running process, if any."""
        return self._child.pid if self._child is not None else None

    @property
    def starts(self) -> int:
        """How many times the program was started."""
        return len(self.started_pids)

    def ask(self, request: str) -> Reply:
        """Deliver ``request`` and return the bot's answer; raise a :class:`BotError` (and close) on any breach."""
        if self.closed:
            why = f" after {self.error}" if self.error is not None else ""
            raise RuntimeError(f"the bot process is closed{why}")
        child = self._child
        mode = "keep" if child is not None else "restart"
        deadline = self._deadline()
        if child is None:
            payload = encode_input(
                [*self.requests, request],
                self.responses,
                self.data,
                str(round(deadline.seconds * 1000)),
                str(self.memory_limit_mib),
            )
        else:
            payload = encode_request(request)
        try:
            if deadline.seconds <= 0:
                raise BotTimeout(f"no time left: {deadline.why}")
            if child is None:
                child = self._spawn()
                deadline.restart()  # its box made and the program forked: the judge's time, not the bot's
                child.queued_base = child.process.queued()  # (its wait for a CPU so far was the judge's too)
            text, kept = self._collect(child, (payload + "\n").encode(), deadline, mode)
            response, data, debug = decode_output(text, request)
        except BotError as error:
            self._fail(child, error, request, deadline, mode)
            problem = self._files_problem()
            if problem is not None:  # the bot failed because its files went away: the judge's failure
                raise JudgeError(f"{problem} (the bot then failed: {error.reason}: {error.detail})") from None
            raise
        except BaseException:  # a bug or ^C: still leave no process behind
            if child is not None:
                child.reap()
            self._child = None
            self.close()
            raise
        queued = child.queued()  # (frozen, or exited: it waits for no CPU now)
        deadline.queued = max(deadline.queued, queued)
        elapsed = deadline.own()
        self.thinking += elapsed
        child.queued_base += queued
        self._child = child if kept else None
        self.requests.append(request)
        self.responses.append(response)
        if data is not None:
            self.data = data
        stderr = child.take_turn_stderr(self.stderr_limit)
        self.history.append(Exchange(request, response, elapsed * 1000.0, mode, debug, stderr, queued * 1000.0))
        return Reply(response, data, elapsed, kept, mode, child.peak_kib or None, debug, stderr, queued)

    def _deadline(self) -> Deadline:
        """This answer's deadline: the time limit, or what is left of the game budget when that is less; in the
        bot's own time, with a wall-clock cap of :data:`WALL_FACTOR` time limits (:class:`Deadline`)."""
        slack = (WALL_FACTOR - 1.0) * self.time_limit
        if self.game_budget is None or self.game_budget - self.thinking >= self.time_limit:
            return Deadline(self.time_limit, cap=self.time_limit + slack)
        left = max(0.0, self.game_budget - self.thinking)
        return Deadline(left, f"the thinking budget of {self.game_budget:g} s for the game is used up "
                              f"({self.thinking:.3f} s over {len(self.responses)} answers)", cap=left + slack)

    def close(self) -> None:
        """Kill the bot's processes (if running), reap them and end its box.  Safe to call twice."""
        child, self._child = self._child, None
        if child is not None:
            child.reap()
        self.closed = True
        if self._box is not None:
            self._box.close()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("kept" if self._child else "idle")
        return f"<BotProcess {shlex.join(self.argv)!r} {state}, {len(self.requests)} answers>"

    # -- internals ------------------------------------------------------------------------------------------

    def _files_problem(self) -> str | None:
        """Why the bot's own files (its ``readable`` paths) are not those it started with: one is gone, or another
        file or folder now stands at its path (None: all are there).  Their identities are noted at the first
        start."""
        for path, identity in self._files.items():
            try:
                info = os.stat(path)
            except OSError as error:
                return f"the bot's file {path} is gone ({error.strerror or error})"
            if identity is not None and (info.st_dev, info.st_ino) != identity:
                return f"the bot's file {path} was replaced while it played"
        return None

    def _spawn(self) -> BotChild:
        """Start the program afresh in the bot's box (made at its first start, kept for the game); a
        :class:`JudgeError` when its files are not there or the box cannot start it."""
        if not self._files and self._box is None:
            for path in self.readable:
                try:
                    info = os.stat(path)
                except OSError:
                    self._files[path] = None  # reported just below
                else:
                    self._files[path] = (info.st_dev, info.st_ino)
        problem = self._files_problem()
        if problem is not None:
            raise JudgeError(f"cannot start {shlex.join(self.argv)!r}: {problem}")
        try:
            if self._box is None:
                address_space = self.memory_limit_mib * MIB if self.limit_address_space else None
                self._box = Box(
                    self.argv, sandbox=self.sandbox, readable=self.readable, cwd=self.cwd, env=self.env,
                    memory_limit=self.memory_limit_mib * MIB, address_space=address_space, seat=self.seat,
                )
            process = self._box.start()
        except BoxLeftovers as error:  # what the bot's last run left in its box: its own doing
            raise BotCrash(f"cannot start {shlex.join(self.argv)!r} again: {error}") from None
        except (OSError, subprocess.SubprocessError, SandboxUnavailable) as error:
            raise JudgeError(f"cannot start {shlex.join(self.argv)!r}: {error}") from None
        self.started_pids.append(process.pid)
        return BotChild(process, self.pipes)

    def _fail(self, child: BotChild | None, error: BotError, request: str, deadline: Deadline, mode: str) -> None:
        if child is not None:
            child.reap()
            deadline.queued = max(deadline.queued, child.queued())  # as read when it was reaped
        elapsed = deadline.own()
        # the verdict stands (the bot's own time decided it); the replay marks that the machine was busy then
        overloaded = deadline.queued > OVERLOADED_SHARE * self.time_limit
        if child is not None:
            tail = child.stderr_tail(self.stderr_limit)
            if tail and not error.stderr:
                error.stderr = tail
                last = tail.strip()[-DETAIL_STDERR:]  # the whole tail stays in error.stderr
                error.detail = f"{error.detail}; stderr:\n{last.translate(PRINTABLE)}"
                error.args = (error.reason, error.detail)
        error.request = request
        error.elapsed = elapsed
        error.queued = deadline.queued
        error.overloaded = overloaded
        self.thinking += elapsed
        self._child = None
        self.error = error
        stderr = child.take_turn_stderr(self.stderr_limit) if child is not None else None
        self.history.append(Exchange(request, None, elapsed * 1000.0, mode, None, stderr, deadline.queued * 1000.0,
                                     overloaded or None))
        self.close()

    def _limit_kib(self) -> int:
        return self.memory_limit_mib * 1024

    def _memory_error(self, child: BotChild, status: str | None = None) -> BotMemoryError:
        if child.peak_kib > self._limit_kib():
            peak = f"{child.peak_kib / 1024:.0f} MiB"
            what = f"peak resident memory {peak}, over the limit of {self.memory_limit_mib} MiB"
        else:
            what = f"an allocation failed (memory limit {self.memory_limit_mib} MiB)"
        return BotMemoryError(f"{what}; {status}" if status else what)

    def _collect(self, child: BotChild, payload: bytes, deadline: Deadline, mode: str) -> tuple[str, bool]:
        """Write the request and read until the answer is complete; return (answer text, kept running)."""
        if mode == "keep" and child.exited():
            child.reap()
            raise BotCrash(
                f"the bot asked to keep running, then exited ({describe_exit(child.exit_status)}) "
                "before its next request"
            )
        cpu_start = child.cpu()  # as measured when it was frozen after its last answer (0 for a new process)
        out = bytearray(child.leftover)
        child.leftover = b""
        pending = self._write(child, memoryview(payload))  # into the pipe while it is stopped: it wakes up once
        child.process.thaw()
        pipes = child.pipes
        writing = bool(pending)
        if writing:
            pipes.watch_stdin(True)
        next_poll = 0.0
        scanned = 0  # no marker line starts before this offset of ``out``
        try:
            while True:
                span = marker_span(out, scanned)
                scanned = out.rfind(b"\n") + 1  # a marker line still to come starts in the last, open line
                if span is not None:
                    child.leftover = bytes(out[span[1] :])
                    if child.process.freeze().peak_kib > self._limit_kib():  # kept: no CPU until its next request
                        child.reap()
                        raise self._memory_error(child)
                    self._check_cpu(child, cpu_start)
                    return bytes(out[: span[0]]).decode("utf-8", "replace"), True
                if len(out) > self.output_limit:
                    child.reap()
                    raise BotOutputLimit(f"printed more than {self.output_limit} bytes")
                if child.exited():
                    return self._finish(child, out, mode, cpu_start)
                if deadline.expired() and not deadline.extend(child.queued()):  # its waits for a CPU added
                    waiting = mode == "restart" and not out.strip() and child.reading_stdin()
                    child.reap()
                    if child.peak_kib > self._limit_kib():
                        raise self._memory_error(child)
                    budget = f": {deadline.why}" if deadline.why else ""
                    spent = f" ({deadline.spent()})"
                    if out.strip():
                        raise BotTimeout(
                            f"printed {len(out)} bytes but neither exited nor printed the keep-running marker "
                            f"within {deadline.seconds:.3f} s{budget}{spent}"
                        )
                    raise BotTimeout(f"no answer within {deadline.seconds:.3f} s{budget}{spent}"
                                     f"{STDIN_HINT if waiting else ''}")
                now = time.monotonic()
                if now >= next_poll:
                    next_poll = now + self.poll_interval
                    if child.poll_memory() > self._limit_kib():
                        child.reap()
                        raise self._memory_error(child)
                    self._check_cpu(child, cpu_start)
                tick = self.poll_interval if child.stdout_open or child.watches_exit else 0.002
                for ready in deadline.wait(pipes, tick=tick):
                    if ready == "stdout":
                        self._read_stdout(child, out)
                    elif ready == "stderr":
                        child.read_stderr(self.stderr_limit)
                    elif ready == "stdin":
                        pending = self._write(child, pending)
                        if not pending:
                            pipes.watch_stdin(False)
                            writing = False
        finally:
            if writing and not child.reaped:
                pipes.watch_stdin(False)

    def _check_cpu(self, child: BotChild, cpu_start: float) -> None:
        """A timeout when the bot's process tree used more CPU time on this answer than the time limit."""
        used = child.cpu() - cpu_start
        if used > self.cpu_limit:
            child.reap()
            raise BotTimeout(f"used {used:.2f} s of CPU time, over the limit of {self.cpu_limit:.3f} s per answer")

    def _read_stdout(self, child: BotChild, out: bytearray) -> None:
        room = self.output_limit + 1 - len(out)
        chunk = child.pipes.read("stdout", max(1, min(CHUNK_BYTES, room)))
        if chunk is None:
            return
        if chunk:
            out += chunk
        else:
            child.stdout_open = False
            child.pipes.forget("stdout")

    @staticmethod
    def _write(child: BotChild, pending: memoryview) -> memoryview:
        return child.pipes.write(pending)

    def _finish(self, child: BotChild, out: bytearray, mode: str, cpu_start: float) -> tuple[str, bool]:
        """The program exited: read what it left in the pipe, reap it, and judge how it ended."""
        until = time.monotonic() + _SETTLE_SECONDS  # pipes read by threads: what they still bring (not select)
        while child.stdout_open and len(out) <= self.output_limit:
            before = len(out)
            self._read_stdout(child, out)
            if len(out) == before and child.stdout_open and not child.pipes.settle("stdout", until):
                break  # nothing more now (a grandchild may hold the pipe open): the answer is what we have
        if child.pipes.is_open("stderr"):
            child.read_stderr(self.stderr_limit)
            while child.pipes.is_open("stderr") and child.pipes.settle("stderr", until):
                child.read_stderr(self.stderr_limit)
        child.reap()
        if len(out) > self.output_limit:
            raise BotOutputLimit(f"printed more than {self.output_limit} bytes")
        status = child.exit_status
        stderr = bytes(child.stderr_buffer).lower()
        if status != 0:
            memory = child.peak_kib > self._limit_kib() or child.process.oom_killed()
            if memory or any(sign in stderr for sign in MEMORY_SIGNS):
                raise self._memory_error(child, describe_exit(status))
            raise BotCrash(describe_exit(status))
        self._check_cpu(child, cpu_start)  # all of its processes reaped: every child's CPU time is in
        if child.peak_kib > self._limit_kib():
            raise self._memory_error(child)
        span = marker_span(out, final=True)
        if span is not None:  # answered and asked to be kept, then exited: found out at the next request
            child.leftover = bytes(out[span[1] :])
            return bytes(out[: span[0]]).decode("utf-8", "replace"), True
        if mode == "keep" and not out.strip():
            raise BotCrash("the kept-running bot exited (exit code 0) before answering")
        return bytes(out).decode("utf-8", "replace"), False


class ProcessTransport:
    """The subprocess transport: requests go to a :class:`~mjarena.protocol.process.BotProcess`.

    (A :class:`BotProcess` already has ``ask`` and ``close``; this wrapper names the role and keeps the agent
    independent of the process class.)
    """

    def __init__(self, process: BotProcess) -> None:
        self.process = process

    def ask(self, request: str) -> Reply:
        return self.process.ask(request)

    def close(self) -> None:
        self.process.close()

    @property
    def history(self) -> list[Exchange]:
        return self.process.history

    def __repr__(self) -> str:
        return f"<ProcessTransport {self.process!r}>"

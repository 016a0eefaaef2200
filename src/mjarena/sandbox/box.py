"""A box (:class:`Box`), made once per seat per game, and the programs started in it one at a time
(:class:`~mjarena.sandbox.process.Process`): their pipes, their whole process tree, its memory and CPU time,
freezing it between turns, killing and reaping it.  This module is the one owner of a box's life; the protocol only
speaks over the pipes.  The programs are :mod:`mjarena.sandbox.process`, what is read of them
:mod:`mjarena.sandbox.accounting`, what a box shows :mod:`mjarena.sandbox.binds`, and a compiler's output
:mod:`mjarena.sandbox.build_output`.

A ``bwrap`` box is layered like this (``bwrap`` runs as the judge's user)::

    bwrap [namespaces, mounts, --as-pid-1, --die-with-parent] -- python -I -S -c <boxinit> FD

The namespaces, the mounts and the box's uid are made once.  The box's pid 1 is our own init
(:mod:`mjarena.sandbox.boxinit`), which starts each program on the judge's word: a fresh process (the previous
one's processes all killed and reaped, what it left in ``/tmp`` and ``/dev/shm`` deleted), under the box's uid, a new
session keyring, the rlimits and the seccomp filter (:mod:`mjarena.sandbox.seccomp`).  A restart-mode request
costs a fork and an ``execve`` in the box, not a new box.

The judge follows a program's tree through ``/proc/<pid>/task/<tid>/children`` from the box's init (every
orphan is adopted by it), for memory (resident memory of every process, plus what the box's tmpfs mounts hold),
CPU time (of every live or zombie process, of the children each has reaped, and of everything the init reaped
since the program started), stopping and killing.  With no box (``--sandbox none``) the program is a plain child
of the judge and its tree is followed from it.
"""

from __future__ import annotations

import contextlib
import functools
import marshal
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mjarena.lifetime import children as _children
from mjarena.lifetime import parse_stat
from mjarena.sandbox import copies, portable, procview, seccomp
from mjarena.sandbox.accounting import live_groups, peak_kib, usage_of
from mjarena.sandbox.binds import (
    TMPFS,
    bot_own,
    bwrap_binds,
    check_others_can_read,
    interpreter_tree,
    resolve_command,
    runtime_binds,
    within,
)
from mjarena.sandbox.box_limits import (
    MIB,
    OPEN_FILES,
    RLIMIT_NUMBERS,
    SLOTS,
    box_uid,
    give_slot,
    judge_uid,
    rlimits,
    take_slot,
)
from mjarena.sandbox.build_output import compiler_streams, copy_output, measure_output
from mjarena.sandbox.cgroup import BoxCgroup
from mjarena.sandbox.config import Sandbox, SandboxUnavailable, bwrap_path, check
from mjarena.sandbox.process import REAP_SECONDS, BoxedChild, PlainChild, PortableChild, Process, WindowsChild

__all__ = ["BOX_ENV", "HOSTNAME", "Box", "BoxError", "BoxLeftovers"]

#: The whole environment of a boxed program (plus what the caller adds explicitly).
BOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
#: The host name every box shows (its own UTS namespace): nothing of the judge's machine.
HOSTNAME = "mjarena"

# The init's only capabilities: to switch to the box's uid, to kill its programs, to delete what they left, and
# to write the answer of a call its filter hands over (sysinfo) into the caller's memory; and, until it has
# bounded the files of the box's tmpfs mounts (before any program), to remount them (CAP_SYS_ADMIN, then dropped).
_INIT_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_SYS_PTRACE",
              "CAP_SYS_ADMIN")
#: Files and folders each of a box's tmpfs mounts may hold: what a program leaves there is deleted in bounded time
#: (by the init between programs, by the kernel with the box), and their kernel memory is bounded.
TMPFS_INODES = 8192
_REPLY_SECONDS = 10.0  # how long the judge waits for the box's init to answer


class BoxError(OSError):
    """The box could not be made or could not start a program; the message says why."""


class BoxLeftovers(BoxError):
    """The box cannot start the program afresh because what the previous program left in it cannot be deleted
    (a folder nested past the longest path, say): that program's doing, not the judge's."""


def _off_linux() -> SandboxUnavailable:
    """What a bwrap box's own methods raise off Linux, where :func:`~mjarena.sandbox.config.check` refuses to make
    one: the ``sys.platform`` test in front of it is what tells the type checker that the rest is Linux's."""
    return SandboxUnavailable(f"the bwrap sandbox needs Linux, this is {sys.platform}")


@functools.cache
def _init_source() -> str:
    return Path(__file__).with_name("boxinit.py").read_text(encoding="utf-8")


@functools.cache
def _init_python() -> str:
    """The interpreter that runs the box's init: the judge's own, resolved to its real file (a venv's python
    is a link to its base interpreter, which ``-I -S`` runs without the venv)."""
    return os.path.realpath(sys.executable)


class Box:
    """One box for one program (``argv``), made on its first :meth:`start` and kept until :meth:`close`; each
    :meth:`start` runs the program afresh in it.

    ``readable`` paths are shown read-only and ``writable`` ones read-write, each at its own path; ``cwd`` (the
    judge's current folder by default) is where the program starts, an empty folder in the box unless shown.
    ``env`` is added to :data:`BOX_ENV`; ``memory_limit`` (bytes) caps each process's private data
    (``RLIMIT_DATA``) and is the box's ``memory.max`` when the sandbox names a delegated cgroup;
    ``address_space`` (bytes) also caps each process's address space.  :meth:`start` raises
    :class:`FileNotFoundError` when the program does not exist, :class:`BoxError` when the box cannot start it,
    and :class:`~mjarena.sandbox.SandboxUnavailable` when no box can be made here.

    ``build_output`` (bytes) makes it a compiler's box (builds only; a bot's box never has it): nothing a
    compiler opens can block it or feed it forever.  ``/dev`` holds ``null`` alone (read-only: no ``tty``,
    ``ptmx``, ``zero``, ``urandom``, ``stdin`` or ``fd/``); its standard streams are sockets, which
    ``/proc/self/fd/N`` cannot open (a pipe there would open and wait for a writer), and its input is at its end
    from the start.  The working folder ``cwd`` is a tmpfs of ``build_output`` bytes showing the judge's folder's files
    read-only, so that what the compiler writes never reaches the disk until :meth:`keep_output` copies it, within
    its cap.  With no box the program writes into ``cwd`` itself, and :meth:`keep_output` only counts it.

    ``seat`` (a bot's box at a table: its seat there) gives the box, when the sandbox has ``private_runtimes``,
    the seat slot's own copies of the files its program needs, and nothing else of the system directories
    (:mod:`mjarena.sandbox.copies`): no page of a file is shared with the boxes of the other seats.
    ``nice`` lowers its programs' priority by that much (a compiler's, so that it never slows a game down).

    >>> with Box(["sh", "-c", "echo hi"], sandbox=Sandbox(kind="none")) as box:
    ...     process = box.start()
    ...     output = os.read(process.stdout, 100)
    ...     while not process.exited():  # reap() kills what still runs: let it end first
    ...         time.sleep(0.01)
    ...     output, process.reap()
    (b'hi\\n', 0)
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        sandbox: Sandbox,
        readable: Iterable[str | os.PathLike[str]] = (),
        writable: Iterable[str | os.PathLike[str]] = (),
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        memory_limit: int | None = None,
        address_space: int | None = None,
        build_output: int | None = None,
        seat: int | None = None,
        nice: int = 0,
    ) -> None:
        self.argv = list(argv)
        self.nice = nice
        self.seat = seat
        self.sandbox = sandbox
        self.readable = [os.fspath(path) for path in readable]
        self.writable = [os.fspath(path) for path in writable]
        self.workdir = os.path.abspath(cwd if cwd is not None else os.getcwd())
        self.env = dict(env or {})
        self.memory_limit = memory_limit
        self.address_space = address_space
        self.build_output = build_output
        if build_output is not None and self.workdir == "/":
            raise ValueError("a compiler's box needs a working folder of its own (cwd), not /")
        self._before: set[str] = set()  # with no box: the working folder's entries before the compiler ran
        self._output_fd = -1  # the box's tmpfs at cwd, seen from the judge
        self.cgroup: BoxCgroup | None = None
        self.parent_hwm_kib = 0  # the high-water mark of the process each program is forked from
        self.init_pid = 0
        self.started_pids: list[int] = []
        self._bwrap: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._messages: list[tuple[str, list]] = []
        self._exit: tuple[int | None, int] | None = None  # the current program's (wait status, maxrss)
        self._reaped_delay = 0.0  # seconds: see init_reaped_delay
        self._slot: int | None = None
        self._command: list[str] = []
        self._stat_fd = self._children_fd = -1
        self._tmpfs_fds: list[int] = []
        self.closed = False

    # -- life -----------------------------------------------------------------------------------------------

    def start(self) -> Process:
        """Start the program afresh (whatever is left of the previous one is killed first)."""
        if self.closed:
            raise BoxError("the box is closed")
        if not self.sandbox.boxed:
            return self._start_child()
        if self._bwrap is None:
            self._open()
        return self._start_boxed()

    def close(self) -> None:
        """End the box: every process in it is killed (its init, and with it the pid namespace), and reaped."""
        if self.closed:
            return
        self.closed = True
        if self.cgroup is not None:
            self.cgroup.freeze(False)
            self.cgroup.kill()
        if not self.sandbox.boxed:
            self._sweep()
        if sys.platform.startswith("linux") and self._bwrap is not None:  # (a bwrap box is Linux's)
            if self.init_pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(self.init_pid, signal.SIGKILL)  # the kernel kills the rest of the namespace
            if self._control is not None:
                self._control.close()
                self._control = None
            for fd in [self._stat_fd, self._children_fd, *self._tmpfs_fds]:
                if fd >= 0:
                    os.close(fd)
            self._stat_fd = self._children_fd = self._output_fd = -1
            self._tmpfs_fds = []
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._bwrap.wait(REAP_SECONDS)
            if self._bwrap.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self._bwrap.pid, signal.SIGKILL)
            if self._bwrap.stderr is not None:
                self._bwrap.stderr.close()
        if self.cgroup is not None:
            self.cgroup.oom_killed()  # remembered: the cgroup is about to go
            self.cgroup.remove()
        if self._slot is not None:
            give_slot(self._slot)
            self._slot = None

    def __enter__(self) -> Box:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _sweep(self, seconds: float = 1.0) -> None:
        """With no box: kill what is left of the process groups of every program started (SIGKILL takes effect
        asynchronously: wait, at most ``seconds``, until ``/proc`` shows no live member)."""
        if sys.platform == "win32" or portable.in_use():  # (in use on Windows too: said so for the type checker)
            portable.sweep(self)
            return
        end = time.monotonic() + seconds
        while groups := live_groups(set(self.started_pids)):
            for pgid in groups:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pgid, signal.SIGKILL)
            if time.monotonic() > end:
                return
            time.sleep(0.002)

    # -- no box ---------------------------------------------------------------------------------------------

    def _start_child(self) -> Process:
        if portable.in_use():
            resolve_command(self.argv, self.workdir)
            proc = portable.start(self)
            self.started_pids.append(proc.pid)
            if sys.platform == "win32":
                return WindowsChild(self, proc)
            return PortableChild(self, proc)
        if not self._command:
            resolve_command(self.argv, self.workdir)  # the same errors as with a box, before anything starts
            limits = rlimits(self.sandbox, False, self.memory_limit, self.address_space)
            if judge_uid() == 0:
                limits.pop("nproc", None)
            lower = ["/usr/bin/nice", "-n", str(self.nice)] if self.nice else []
            self._command = ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--", *lower, "/usr/bin/prlimit",
                             *(f"--{name}={value}" for name, value in limits.items()), "--", *self.argv]
            self.parent_hwm_kib = peak_kib(os.getpid())
            if self.sandbox.cgroup is not None:
                self.cgroup = BoxCgroup(self.sandbox.cgroup, memory_bytes=self.memory_limit,
                                        max_processes=self.sandbox.max_processes)
                self._command = [*self.cgroup.enter_argv(), *self._command]
        if self.build_output is None:
            proc = subprocess.Popen(
                self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env={**os.environ, **self.env}, cwd=self.workdir, start_new_session=True, bufsize=0,
            )
            self.started_pids.append(proc.pid)
            return PlainChild(self, proc)
        self._before = set(os.listdir(self.workdir))
        ours, theirs = compiler_streams()
        try:
            proc = subprocess.Popen(self._command, stdin=theirs[0], stdout=theirs[1], stderr=theirs[2],
                                    env={**os.environ, **self.env}, cwd=self.workdir, start_new_session=True)
        except BaseException:
            for fd in ours[1:]:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        self.started_pids.append(proc.pid)
        return PlainChild(self, proc, ours)

    # -- a bwrap box ----------------------------------------------------------------------------------------

    def _open(self) -> None:
        command, visible = resolve_command(self.argv, self.workdir)
        check(self.sandbox)
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        root = os.getuid() == 0
        init_tree = interpreter_tree(_init_python())
        runtime = self._runtime(command[0])
        if runtime is not None:  # the runtime's files come from the slot's copies: only the bot's own shown as they are
            visible = [path for path in visible[1:] if path != interpreter_tree(command[0])]
            if bot_own(command[0]):
                visible.append(command[0])
            init_tree = None
        shown = [*self.readable, *visible, *([init_tree] if init_tree else [])]
        if self.build_output is not None:  # the working folder's files are shown in its tmpfs
            shown = [path for path in shown if not within(os.path.abspath(path), self.workdir)]
        if root:
            check_others_can_read([*self.readable, *visible])
            self._slot = take_slot()
            if self._slot is None:
                raise BoxError(f"more than {SLOTS} boxes at once in one judge process")
        uid = None if self._slot is None else box_uid(self._slot)
        tmp_bytes = self.sandbox.tmp_mib * MIB
        outer = [bwrap_path(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--hostname",
                 HOSTNAME, "--unshare-cgroup-try", "--as-pid-1", "--die-with-parent", "--new-session", "--clearenv",
                 "--cap-drop", "ALL"]
        if not root:
            outer += ["--unshare-user", "--disable-userns"]
        for cap in _INIT_CAPS:
            outer += ["--cap-add", cap]
        sources = {}
        if runtime is not None:  # the bot's own files too from copies on the tmpfs (what a box leaves: issue 41)
            sources = {os.path.abspath(path): copies.own_copy(runtime[0], os.path.abspath(path))
                       for path in [*self.readable, *visible] if os.path.exists(path)}
        outer += bwrap_binds(shown, self.writable, self.workdir, tmp_bytes, self.build_output, self.memory_limit,
                             runtime, sources)
        outer += ["--chdir", "/"]
        parent_end, init_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [*outer, "--", _init_python(), "-I", "-S", "-c", _init_source(), str(init_end.fileno())]
        if self.sandbox.cgroup is not None:
            self.cgroup = BoxCgroup(self.sandbox.cgroup, memory_bytes=self.memory_limit,
                                    max_processes=self.sandbox.max_processes)
            argv = [*self.cgroup.enter_argv(), *argv]
        try:
            self._bwrap = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={},
                cwd="/", start_new_session=True, pass_fds=(init_end.fileno(),),
            )
        finally:
            init_end.close()
        self._control = parent_end
        limits = {**rlimits(self.sandbox, uid is not None, self.memory_limit, self.address_space),
                  "nofile": OPEN_FILES}
        config = {
            "uid": uid, "cwd": self.workdir, "env": {**BOX_ENV, **self.env, "PWD": self.workdir},
            "rlimits": [(RLIMIT_NUMBERS[name], value, value) for name, value in limits.items()],
            "tmpfs": list(TMPFS), "tmpfs_inodes": TMPFS_INODES,
            "seccomp": _filter(), "totalram": procview.sysinfo_totalram(self.memory_limit),
        }
        self._command = command
        self._send({"config": config})
        self.parent_hwm_kib = self._await("ready")[0]
        children = _children(self._bwrap.pid)
        if not children:
            self._fail("the box's init is not running")
        self.init_pid = children[0]
        if self.nice:  # the init forks each program: they start at its lower priority
            os.setpriority(os.PRIO_PROCESS, self.init_pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + self.nice))
        # kept open: the judge reads them at every answer (the box's tmpfs roots, seen through the init's root)
        self._stat_fd = os.open(f"/proc/{self.init_pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        self._children_fd = os.open(f"/proc/{self.init_pid}/task/{self.init_pid}/children", os.O_RDONLY | os.O_CLOEXEC)
        self._tmpfs_fds = [os.open(f"/proc/{self.init_pid}/root{mount}", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
                           for mount in TMPFS]
        if self.build_output is not None:  # opened before any program runs: nothing in the box has moved yet
            self._output_fd = os.open(f"/proc/{self.init_pid}/root{self.workdir}",
                                      os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
            self._tmpfs_fds.append(self._output_fd)  # its pages are memory too

    def prepare(self) -> None:
        """Make the seat slot's copies of the program's runtime now (when this box gets them), so that the first
        :meth:`start` does not spend a bot's time on it: a copy made for the first time takes seconds (a JDK's
        190 MiB), a check that the copies are there and fresh some 0.2 s once per judge process.  Errors are left
        for :meth:`start` to report."""
        if not self.sandbox.boxed:
            return
        with contextlib.suppress(OSError):
            command, _ = resolve_command(self.argv, self.workdir)
            runtime = self._runtime(command[0])
            if runtime is not None:
                runtime_binds(*runtime)

    def _runtime(self, program: str) -> tuple[str, int, list[str]] | None:
        """(the copies' folder, the seat slot, the paths to show from it) when this box gets private copies of its
        runtime: a seat's box under a sandbox with ``private_runtimes``, not a compiler's."""
        if self.seat is None or not self.sandbox.private_runtimes or self.build_output is not None:
            return None
        paths: list[str] = []
        for executable, own in ((program, bot_own(program)), (_init_python(), False)):
            trees, files = copies.runtime_paths(executable, own)
            paths += [path for path in (*trees, *files) if path not in paths]
        folder = self.sandbox.runtime_copies or copies.default_folder()
        copies.warn_if_on_disk(folder)
        return folder, self.seat % copies.SLOTS, paths

    def _start_boxed(self) -> Process:
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        self._exit = None
        if self.build_output is None:
            pipes = [os.pipe2(os.O_CLOEXEC) for _ in range(3)]
            theirs = (pipes[0][0], pipes[1][1], pipes[2][1])
            ours = (pipes[0][1], pipes[1][0], pipes[2][0])
        else:
            ours, theirs = compiler_streams()
        try:
            self._send({"run": self._command}, theirs)
        finally:
            for fd in theirs:
                os.close(fd)
        try:
            started = self._await("started")
        except BaseException:
            for fd in ours:
                if fd >= 0:
                    os.close(fd)
            raise
        pid = self._host_pid(started[0])
        self.started_pids.append(pid)
        return BoxedChild(self, pid, ours)

    def _host_pid(self, inner: int) -> int:
        """The judge's pid of the init's child ``inner`` (0 when it is already gone)."""
        for pid in self.init_children():
            with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/status", "rb") as handle:
                for line in handle:
                    if line.startswith(b"NSpid:") and int(line.split()[-1]) == inner:
                        return pid
        return 0

    def _send(self, message: dict[str, object], fds: Sequence[int] = ()) -> None:
        assert self._control is not None
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        try:
            socket.send_fds(self._control, [marshal.dumps(message)], list(fds))
        except OSError as error:
            self._fail(f"the box's init is gone ({error})")

    def _receive(self, timeout: float | None) -> bool:
        """Read one answer of the init into the queue (False when none came within ``timeout``): its words, the
        first a name, the rest numbers (``error`` keeps its text)."""
        assert self._control is not None
        self._control.settimeout(timeout)
        try:
            data = self._control.recv(1 << 16)
        except (TimeoutError, BlockingIOError):
            return False
        except OSError as error:
            self._fail(f"the box's init is gone ({error})")
        if not data:
            self._fail("the box's init is gone")
        name, _, rest = data.decode("ascii", "replace").partition(" ")
        if name in ("error", "leftover"):
            self._messages.append((name, [rest]))
            return True
        try:
            numbers = [int(word) for word in rest.split()]
        except ValueError:
            self._fail(f"the box's init said {data[:80]!r}")
        if name == "exit" and len(numbers) in (2, 3):
            self._exit = (numbers[0], numbers[1])
            if len(numbers) == 3:  # the run-queue delay of every process it reaped so far, in nanoseconds
                self._reaped_delay = numbers[2] / 1e9
        else:
            self._messages.append((name, numbers))
        return True

    def _await(self, key: str, timeout: float = _REPLY_SECONDS) -> list[int]:
        """The numbers of the init's next answer named ``key``."""
        end = time.monotonic() + timeout
        while True:
            for index, (name, values) in enumerate(self._messages):
                if name == key:
                    del self._messages[index]
                    return values
                if name in ("error", "leftover"):
                    del self._messages[index]
                    kind = BoxLeftovers if name == "leftover" else BoxError
                    raise kind(f"the box cannot start the program: {values[0]}")
            left = end - time.monotonic()
            if left <= 0 or not self._receive(left):
                self._fail(f"the box's init did not answer within {timeout:.0f} s")

    def _fail(self, why: str) -> None:
        """Raise :class:`BoxError` with ``why`` and what bwrap said, after ending the box."""
        said = ""
        bwrap = self._bwrap
        if sys.platform.startswith("linux") and bwrap is not None and bwrap.stderr is not None:  # (Linux's)
            with contextlib.suppress(subprocess.TimeoutExpired):
                bwrap.wait(0.5 if bwrap.poll() is None else 0)
            # what it has said by now, never waiting for more: an init left behind by a bwrap killed while it made
            # the box holds the pipe open until the box is closed
            os.set_blocking(bwrap.stderr.fileno(), False)
            with contextlib.suppress(OSError, TypeError):
                said = (bwrap.stderr.read(4096) or b"").decode("utf-8", "replace").strip()
        self.close()
        raise BoxError(f"{why}: {said}" if said else why)

    # -- what the programs ask of the box -------------------------------------------------------------------

    @property
    def control_fd(self) -> int | None:
        return self._control.fileno() if self._control is not None else None

    def poll_exit(self) -> bool:
        """Whether the init has said that the current program exited (reads what it sent, never waits)."""
        while self._exit is None and self._control is not None:
            try:
                if not self._receive(0):
                    break
            except BoxError:
                return True  # the box is gone, and its programs with it
        return self._exit is not None

    def clean(self, timeout: float) -> tuple[int | None, int]:
        """Have the init kill and reap every process of the current program; its (wait status, maxrss)."""
        with contextlib.suppress(BoxError):
            self._send({"kill": True})
            self._await("clean", timeout)
        status, maxrss = self._exit if self._exit is not None else (None, 0)
        return status, maxrss

    def init_children(self) -> list[int]:
        """The pids of the init's children (it has one thread: one file to read)."""
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        try:
            return [int(word) for word in os.pread(self._children_fd, 1 << 16, 0).split()]
        except (OSError, ValueError):
            return []

    def init_reaped_cpu(self) -> float:
        """CPU seconds of every process that the box's init has reaped (``cutime`` + ``cstime``)."""
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        try:
            return usage_of(parse_stat(os.pread(self._stat_fd, 4096, 0)))[1]
        except (OSError, ValueError, IndexError):
            return 0.0

    def init_reaped_delay(self) -> float:
        """Seconds that the processes the box's init has reaped had waited for a CPU (their main threads', read by
        the init before it reaped each; as of the last program's exit)."""
        return self._reaped_delay

    def keep_output(self) -> int | None:
        """A compiler's box (``build_output``), once its program has ended: copy what it wrote into its working
        folder (the box's tmpfs) to the judge's folder of the same path, and give its
        :func:`~mjarena.sandbox.build_output.output_cost`; None once that passes ``build_output`` (what was copied
        by then is left for the caller to remove).  With no box the program wrote into the judge's folder itself:
        only counted."""
        if self.build_output is None:
            raise BoxError("keep_output is for a compiler's box (build_output)")
        if not self.sandbox.boxed:
            return measure_output(self.workdir, self._before, self.build_output)
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        if self._output_fd < 0:
            raise BoxError("the box is closed, or its program never started")
        folder = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=self._output_fd)
        try:
            return copy_output(folder, self.workdir, self.build_output)
        finally:
            os.close(folder)

    def tmpfs_kib(self) -> int:
        """KiB held in the box's tmpfs mounts (files in ``/tmp`` and ``/dev/shm`` are memory too)."""
        if not sys.platform.startswith("linux"):
            raise _off_linux()
        used = 0
        for fd in self._tmpfs_fds:
            with contextlib.suppress(OSError):
                info = os.fstatvfs(fd)
                used += (info.f_blocks - info.f_bfree) * info.f_frsize // 1024
        return used


@functools.cache
def _filter() -> bytes:
    return seccomp.build()

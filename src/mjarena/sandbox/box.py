"""Start a program in a box (:func:`spawn`) and hold it (:class:`Boxed`): its pipes, its whole process tree, the
memory and CPU time of that tree, freezing it between turns, and killing all of it.

The tree is followed from the process the judge started, through ``/proc/<pid>/task/<tid>/children``: inside a
pid namespace an orphan is adopted by the namespace's init, which is in the tree, so a bot cannot leave it by
forking twice or by ``setsid``. A bwrap box is layered like this (``bwrap`` runs as the judge's user; the uid
switch only happens when that user is root)::

    bwrap [namespaces, mounts, --die-with-parent] -- setpriv --reuid U ... -- prlimit [limits] -- COMMAND

so the limits are set inside the box, after the uid switch, and the judge needs no ``preexec_fn`` (which is not
safe in a threaded judge, and cost 1.7 ms a start).
"""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import shutil
import signal
import stat
import subprocess
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mjarena.sandbox.cgroup import BoxCgroup
from mjarena.sandbox.config import Sandbox, bwrap_path, check

__all__ = ["BOX_ENV", "Boxed", "Usage", "peak_kib", "spawn"]

#: The whole environment of a boxed program (plus what the caller adds explicitly).
BOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
MIB = 1 << 20

# Read-only system paths a compiler's output or an interpreter needs; missing ones are skipped.
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_SYSTEM_ETC = (
    "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/fpc.cfg", "/etc/fpc-*.cfg", "/etc/java-*",
    "/etc/ssl/certs/java", "/etc/ssl/openssl.cnf",
)
_UID_BASE = 2_000_000_000  # boxes of a root judge run as _UID_BASE + judge pid * _SLOTS + slot
_SLOTS = 256
_slots_lock = threading.Lock()
_slots_free: list[int] = []
_slots_next = 0


def _take_slot() -> int:
    global _slots_next
    with _slots_lock:
        if _slots_free:
            return _slots_free.pop()
        if _slots_next >= _SLOTS:
            raise RuntimeError(f"more than {_SLOTS} boxes at once in one judge process")
        _slots_next += 1
        return _slots_next - 1


def _give_slot(slot: int) -> None:
    with _slots_lock:
        _slots_free.append(slot)


class Usage:
    """What a box's process tree used: peak resident memory (KiB, summed over its processes) and CPU seconds of
    its live processes."""

    __slots__ = ("cpu", "peak_kib")

    def __init__(self) -> None:
        self.peak_kib = 0
        self.cpu = 0.0


_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def _children(pid: int) -> list[int]:
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


def _stat(pid: int) -> tuple[float, int] | None:
    """(CPU seconds, resident KiB) of one process, None when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2 :].split()
    if fields[0] in (b"Z", b"X"):
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS, int(fields[21]) * _PAGE_KIB


def peak_kib(pid: int) -> int:
    """A process's own high-water mark of resident memory (``VmHWM``) in KiB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class Boxed:
    """One started program and its box. ``proc`` is the :class:`subprocess.Popen` of the outermost process
    (``bwrap``, or the program itself with no box); its pipes are the program's standard streams."""

    def __init__(
        self, proc: subprocess.Popen[bytes], sandbox: Sandbox, slot: int | None, cgroup: BoxCgroup | None = None
    ) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.sandbox = sandbox
        self.cgroup = cgroup
        self._slot = slot
        self.usage = Usage()
        self.frozen = False
        self._stopped: list[int] = []
        self._oom = False

    # -- the tree ---------------------------------------------------------------------------------------------

    def tree(self) -> list[int]:
        """The pids of the live process tree (the outermost process first)."""
        seen = [self.pid]
        index = 0
        while index < len(seen):
            seen.extend(_children(seen[index]))
            index += 1
        return seen

    def measure(self, peaks: bool = False, pids: list[int] | None = None) -> Usage:
        """Sample the tree's resident memory and CPU time (``peaks``: also each process's own high-water mark,
        which catches a spike between two samples); the sampled peak only grows."""
        resident = 0
        high = 0
        cpu = 0.0
        if pids is None:
            pids = self.tree()
        for pid in pids:
            sample = _stat(pid)
            if sample is None:
                continue
            cpu += sample[0]
            resident += sample[1]
            if peaks:
                high += peak_kib(pid)
        if self.cgroup is not None:
            high = max(high, self.cgroup.peak_kib())
        usage = self.usage
        usage.peak_kib = max(usage.peak_kib, resident, high)
        usage.cpu = max(usage.cpu, cpu)
        return usage

    # -- signals ----------------------------------------------------------------------------------------------

    def _signal_tree(self, sig: int, rounds: int = 4, skip: int = 0) -> list[int]:
        """Send ``sig`` to every process of the tree but its first ``skip``; returns the whole tree as last seen."""
        done: set[int] = set()
        pids: list[int] = []
        for _ in range(rounds):  # a process may fork while we walk: walk again until nothing new turns up
            pids = self.tree()
            fresh = [pid for pid in pids[skip:] if pid not in done]
            if not fresh:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, sig)
            done.update(fresh)
        return pids

    def freeze(self) -> Usage:
        """Stop every process of the program (it gets no CPU between its turns), and measure the tree as it is
        then, high-water marks included.  The box's own processes (bwrap and the namespace's init) only wait for
        the program: they are left alone."""
        if not self.frozen and self.cgroup is not None:
            self.cgroup.freeze(True)
            self.frozen = True
            return self.measure(peaks=True)
        if not self.frozen:
            pids = self._signal_tree(signal.SIGSTOP, skip=2 if self.sandbox.boxed else 0)
            self._stopped = pids[2 if self.sandbox.boxed else 0 :]
            self.frozen = True
            return self.measure(peaks=True, pids=pids)
        return self.usage

    def thaw(self) -> None:
        """Let the stopped processes run again (they could not fork while stopped: no walk is needed)."""
        if self.frozen and self.cgroup is not None:
            self.cgroup.freeze(False)
            self.frozen = False
        if self.frozen:
            for pid in self._stopped:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGCONT)
            self._stopped = []
            self.frozen = False

    def kill(self) -> None:
        """SIGKILL every process of the box (the namespace's init too: the kernel then kills the rest)."""
        if self.proc.returncode is not None:
            return  # reaped: its pid may belong to another process by now
        if self.cgroup is not None:
            self.cgroup.kill()
        self._signal_tree(signal.SIGKILL, rounds=2)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)  # the outermost process leads its own process group
        self.frozen = False

    def exited(self) -> bool:
        """Whether the outermost process has exited; it stays a zombie until reaped (:func:`finish`), so its pid
        and process group cannot be reused meanwhile."""
        if self.proc.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None and info.si_pid == self.pid

    def oom_killed(self) -> bool:
        """Whether the kernel killed one of its processes for memory (known with a delegated cgroup only)."""
        if self.cgroup is not None:
            self._oom = self._oom or self.cgroup.oom_killed()
        return self._oom

    def release(self) -> None:
        """Give the box's uid (and cgroup) back (after the tree is dead and reaped)."""
        if self.cgroup is not None:
            self.oom_killed()  # remembered: the cgroup is about to go
            self.cgroup.remove()
            self.cgroup = None
        if self._slot is not None:
            _give_slot(self._slot)
            self._slot = None


def _ancestors(path: str) -> list[str]:
    parts = Path(path).parts
    return [str(Path(*parts[:i])) for i in range(2, len(parts))]


def _interpreter_tree(executable: str) -> str | None:
    """The folder to show for an executable outside the system directories (``…/bin/python3.11`` → ``…``)."""
    real = os.path.realpath(executable)
    if any(real == d or real.startswith(d + "/") for d in _SYSTEM_DIRS):
        return None
    folder = os.path.dirname(real)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


@functools.cache
def _unshim(program: str) -> str:
    """The real program behind a version manager's shim (pyenv's ``…/shims/python3`` is a shell script that
    needs pyenv itself, which a box does not show); any other program as it is."""
    folder, name = os.path.split(program)
    if os.path.basename(folder) != "shims":
        return program
    for manager in (os.path.join(os.path.dirname(folder), "libexec", "pyenv"), shutil.which("pyenv")):
        if manager and os.access(manager, os.X_OK):
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                found = subprocess.run([manager, "which", name], capture_output=True, text=True, timeout=10)
                if found.returncode == 0 and found.stdout.strip():
                    return found.stdout.strip()
    return program


def resolve_command(argv: Sequence[str], cwd: str) -> tuple[list[str], list[str]]:
    """The command with its program made absolute and real, and the paths it names that must be visible:
    the program's own tree when it lives outside the system directories, and every argument that is an
    existing file or folder (relative to ``cwd``).

    >>> resolve_command(["true"], "/")[0][0]
    '/usr/bin/true'
    """
    program = argv[0]
    if "/" not in program:
        found = shutil.which(program)
        if found is None:
            raise FileNotFoundError(f"program {program!r} not found on PATH")
        program = _unshim(found)
    program = os.path.realpath(os.path.join(cwd, program))
    if not os.path.isfile(program):
        raise FileNotFoundError(f"no such program: {argv[0]}")
    if not os.access(program, os.X_OK):
        raise PermissionError(f"not executable: {argv[0]}")
    visible = [program]
    tree = _interpreter_tree(program)
    if tree is not None:
        visible.append(tree)
    for word in argv[1:]:
        if word.startswith("-") or "\0" in word:
            continue
        path = os.path.join(cwd, word)
        if os.path.exists(path):
            visible.append(os.path.abspath(path))
    return [program, *argv[1:]], visible


@functools.cache
def _system_etc() -> tuple[str, ...]:
    return tuple(path for pattern in _SYSTEM_ETC for path in sorted(glob.glob(pattern)))


def _binds(readable: Iterable[str], writable: Iterable[str], cwd: str, tmp_bytes: int) -> list[str]:
    """bwrap arguments for the file system: system directories, a private ``/tmp``, the given paths at their
    own place, parents made traversable (bwrap would copy a parent's mode, e.g. /root's 0700), the working
    folder."""
    args: list[str] = []
    shown: list[str] = []
    for folder in _SYSTEM_DIRS:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
            shown.append(folder + "/")
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp"]
    mounts = {(path, "--ro-bind") for path in _system_etc()}
    mounts |= {(os.path.abspath(p), "--ro-bind") for p in readable}
    mounts |= {(os.path.abspath(p), "--bind") for p in writable}
    made: set[str] = {"/", "/usr", "/tmp", "/proc", "/dev"}
    for path, how in sorted(mounts, key=lambda item: (item[0].count("/"), item[0], item[1])):
        if how == "--ro-bind" and (path + "/").startswith(tuple(shown)):
            continue  # already visible read-only
        for parent in _ancestors(path):
            if parent not in made:
                args += ["--perms", "0755", "--dir", parent]
                made.add(parent)
        args += [how, path, path]
        made.add(path)
    for folder in [*_ancestors(cwd), cwd]:
        if folder not in made:
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
    return args


def _check_others_can_read(paths: Iterable[str]) -> None:
    """A root judge runs the box under a uid of its own, which sees a shown file only when anyone may read it:
    say so at once (:class:`PermissionError`) rather than let the bot crash on its own files."""
    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue
        need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) or mode & stat.S_IXUSR else 0)
        if mode & need != need:
            raise PermissionError(f"{path} is not readable by others (mode {stat.S_IMODE(mode):o}), so a bot in the "
                                  f"sandbox cannot read it: chmod o+r{'x' if need & stat.S_IXOTH else ''} {path}")


def _count_processes(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += 1
    return count


def _limits_argv(sandbox: Sandbox, uid: int | None, address_space: int | None) -> list[str]:
    processes = sandbox.max_processes
    if uid is None and os.getuid() != 0:  # the box shares the judge's uid: leave room for what it already runs
        processes += _count_processes(os.getuid())
    if uid is None and os.getuid() == 0:
        processes = 0  # root ignores the process-count limit: do not pretend
    argv = ["/usr/bin/prlimit", f"--fsize={sandbox.file_size_mib * MIB}", "--core=0"]
    if processes:
        argv.append(f"--nproc={processes}")
    if address_space is not None:
        argv.append(f"--as={address_space}")
    return [*argv, "--"]


def spawn(
    argv: Sequence[str],
    *,
    sandbox: Sandbox,
    readable: Iterable[str | os.PathLike[str]] = (),
    writable: Iterable[str | os.PathLike[str]] = (),
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    address_space: int | None = None,
    memory_limit: int | None = None,
) -> Boxed:
    """Start ``argv`` in a box, its standard streams as non-inherited pipes.

    ``readable`` paths are shown read-only and ``writable`` ones read-write, each at its own path; ``cwd`` (the
    judge's current folder by default) is where the program starts, an empty folder in the box unless shown.
    ``env`` is added to :data:`BOX_ENV`; ``address_space`` (bytes) also caps each process's address space;
    ``memory_limit`` (bytes) is the whole box's ``memory.max`` when the sandbox names a delegated cgroup.
    Raises :class:`FileNotFoundError` when the program does not exist and
    :class:`~mjarena.sandbox.SandboxUnavailable` when the box cannot be made here.
    """
    workdir = os.path.abspath(cwd if cwd is not None else os.getcwd())
    command, visible = resolve_command(argv, workdir)
    box_env = {**BOX_ENV, **(env or {})}
    limits = _limits_argv(sandbox, None, address_space)
    if not sandbox.boxed:  # the program as the user named it (a venv's python stays the venv's)
        full = ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--", *limits, *argv]
        return _start(full, sandbox, None, memory_limit, cwd=workdir, env={**os.environ, **(env or {})})
    check(sandbox)
    if os.getuid() == 0:
        _check_others_can_read([*map(str, readable), *visible])
    slot = _take_slot() if os.getuid() == 0 else None
    uid = None if slot is None else _UID_BASE + os.getpid() * _SLOTS + slot
    outer = [bwrap_path(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
             "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv"]
    for name, value in box_env.items():
        outer += ["--setenv", name, value]
    outer += _binds([*map(str, readable), *visible], map(str, writable), workdir, sandbox.tmp_mib * MIB)
    outer += ["--chdir", workdir]
    inner: list[str] = []
    if uid is not None:
        outer += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        inner = ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                 "--bounding-set=-all", "--"]
    full = [*outer, "--", *inner, *_limits_argv(sandbox, uid, address_space), *command]
    try:
        return _start(full, sandbox, slot, memory_limit, cwd="/", env={})
    except BaseException:
        if slot is not None:
            _give_slot(slot)
        raise


def _start(
    argv: list[str], sandbox: Sandbox, slot: int | None, memory_limit: int | None, *, cwd: str,
    env: Mapping[str, str],
) -> Boxed:
    """Start the outermost process (in its own cgroup first, when one is delegated)."""
    cgroup = None
    if sandbox.cgroup is not None:
        cgroup = BoxCgroup(sandbox.cgroup, memory_bytes=memory_limit, max_processes=sandbox.max_processes)
        argv = [*cgroup.enter_argv(), *argv]
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
            start_new_session=True, bufsize=0,
        )
    except BaseException:
        if cgroup is not None:
            cgroup.remove()
        raise
    return Boxed(proc, sandbox, slot, cgroup)

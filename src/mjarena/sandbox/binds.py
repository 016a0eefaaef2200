"""What a box shows: the program's command resolved to its real file and the paths it names, and the bwrap
arguments for the box's file system (system directories, ``/proc``, the private tmpfs mounts, the shown paths, and
with private runtimes the seat slot's copies, :mod:`mjarena.sandbox.copies`).
"""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import shutil
import stat
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mjarena.sandbox import copies, procview

__all__ = ["own_path", "resolve_command"]

# Read-only system paths a compiler's output or an interpreter needs; missing ones are skipped.
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_SYSTEM_ETC = (
    "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/fpc.cfg", "/etc/fpc-*.cfg", "/etc/java-*",
    "/etc/ssl/certs/java", "/etc/ssl/openssl.cnf",
)
TMPFS = ("/tmp", "/dev/shm")  # the box's writable places: capped, wiped between programs, counted as memory
_DEV_BYTES = 64 << 10  # a compiler's /dev: a read-only tmpfs holding null alone


def within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or inside it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _ancestors(path: str) -> list[str]:
    parts = Path(path).parts
    return [str(Path(*parts[:i])) for i in range(2, len(parts))]


def interpreter_tree(executable: str) -> str | None:
    """The runtime tree to show for an executable outside the system directories: ``prefix`` for
    ``prefix/bin/python3.11`` when ``prefix/lib`` exists (pyenv, nvm, a JDK); None for any other program, which
    is shown alone (a folder that merely holds a bot, /tmp say, is not shown with it).

    >>> interpreter_tree("/usr/bin/python3") is None
    True
    """
    real = os.path.realpath(executable)
    if any(real == d or real.startswith(d + "/") for d in _SYSTEM_DIRS):
        return None
    folder = os.path.dirname(real)
    prefix = os.path.dirname(folder)
    if os.path.basename(folder) == "bin" and os.path.isdir(os.path.join(prefix, "lib")) and prefix != "/":
        return prefix
    return None


def bot_own(program: str) -> bool:
    """Whether the real path ``program`` is a bot's own file (shown as it is), not a system or interpreter one.

    >>> bot_own("/usr/bin/true"), bot_own("/srv/builds/team/bot")
    (False, True)
    """
    return not any(within(program, folder) for folder in _SYSTEM_DIRS) and interpreter_tree(program) is None


def own_path(path: str, *, program: bool = False) -> bool:
    """Whether ``path`` (as its real path) is a bot's own, not in the system directories nor, for the ``program``
    a command runs, an interpreter in a runtime's tree: what a cluster sends to its nodes (the rest must be there).

    >>> own_path("/usr/bin/python3", program=True), own_path("/srv/bots/mine/bot.py")
    (False, True)
    """
    real = os.path.realpath(path)
    return bot_own(real) if program else not any(within(real, folder) for folder in _SYSTEM_DIRS)


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
    tree = interpreter_tree(program)
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



def runtime_binds(folder: str, slot: int, paths: Sequence[str]) -> list[str]:
    """bwrap arguments showing the slot's copies of ``paths`` and of the ``/etc`` files (made when missing)."""
    links = [folder for folder in _SYSTEM_DIRS if os.path.islink(folder)]  # made by :func:`bwrap_binds`
    return copies.slot_binds(folder, slot, [*paths, *_system_etc()], links)


def bwrap_binds(readable: Iterable[str], writable: Iterable[str], cwd: str, tmp_bytes: int,
                output_bytes: int | None = None, memory_limit: int | None = None,
                runtime: tuple[str, int, Sequence[str]] | None = None,
                sources: Mapping[str, str] | None = None) -> list[str]:
    """bwrap arguments for the file system: system directories, ``/proc`` with fixed files over the machine's
    counters (:mod:`mjarena.sandbox.procview`, ``MemTotal`` the ``memory_limit``), the private tmpfs mounts, the
    given paths at their own place, parents made traversable (bwrap would copy a parent's mode, e.g. /root's 0700), the
    working folder.  With ``runtime`` (the copies' folder, a seat slot, the runtime's paths): no system
    directory whole, but the slot's copies of those paths and of the ``/etc`` and ``/proc`` files (see
    :mod:`mjarena.sandbox.copies`).  With ``output_bytes`` (a compiler's box, see
    :class:`~mjarena.sandbox.box.Box`): a ``/dev`` of ``null`` alone, read-only, and the working folder a tmpfs of
    that size showing the judge's folder's files read-only.  ``sources`` names, for a shown path, the file or
    folder shown there instead (a copy of a bot's own files: :func:`mjarena.sandbox.copies.own_copy`)."""
    sources = sources or {}
    args: list[str] = []
    shown: list[str] = []
    for folder in _SYSTEM_DIRS:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder) and runtime is None:
            args += ["--ro-bind", folder, folder]
            shown.append(folder + "/")
    proc = procview.binds(memory_limit)
    if runtime is not None:
        folder, slot, paths = runtime
        args += runtime_binds(folder, slot, paths)
        proc = [copies.copy_of_once(folder, slot, word) if word.startswith("/") and not word.startswith("/proc/")
                and os.path.exists(word) else word for word in proc]
    args += ["--proc", "/proc", *proc]
    if output_bytes is None:
        args += ["--dev", "/dev"]
    else:  # no tty, ptmx, zero, random, stdin, fd/: nothing in /dev that a compiler could wait on or read forever
        args += ["--size", str(_DEV_BYTES), "--perms", "0755", "--tmpfs", "/dev", "--dev-bind", "/dev/null",
                 "/dev/null", "--perms", "0755", "--dir", "/dev/shm", "--remount-ro", "/dev"]
    for mount in TMPFS:
        args += ["--size", str(tmp_bytes), "--perms", "1777", "--tmpfs", mount]
    mounts = {(path, "--ro-bind") for path in _system_etc()} if runtime is None else set()
    mounts |= {(os.path.abspath(p), "--ro-bind") for p in readable}
    mounts |= {(os.path.abspath(p), "--bind") for p in writable}
    private = ("/", *TMPFS)  # never covered by a shown folder: the box's own root and tmpfs mounts
    mounts = {(path, how) for path, how in mounts if not any(within(place, path) for place in private)}
    made: set[str] = {"/", "/usr", "/tmp", "/proc", "/dev"}
    for path, how in sorted(mounts, key=lambda item: (item[0].count("/"), item[0], item[1])):
        if how == "--ro-bind" and (path + "/").startswith(tuple(shown)):
            continue  # already visible read-only
        for parent in _ancestors(path):
            if parent not in made:
                args += ["--perms", "0755", "--dir", parent]
                made.add(parent)
        args += [how, sources.get(path, path), path]
        made.add(path)
    for folder in [*_ancestors(cwd), cwd]:
        if folder not in made:
            args += ["--perms", "0755", "--dir", folder]
            made.add(folder)
    if output_bytes is not None:
        args += ["--size", str(output_bytes), "--perms", "0777", "--tmpfs", cwd]
        for entry in sorted(os.listdir(cwd)):  # the source, shown read-only in the tmpfs (and never copied back)
            args += ["--ro-bind", os.path.join(cwd, entry), os.path.join(cwd, entry)]
    return args



def check_others_can_read(paths: Iterable[str]) -> None:
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

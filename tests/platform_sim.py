"""Import every mjarena module as on another system, on Linux: ``python platform_sim.py win32|darwin``.

Run in a fresh interpreter (tests/test_platforms.py does).  First the standard library modules and the third-party
packages mjarena imports are loaded as they are here (on the real systems they bring their own code: Linux's
``subprocess`` reads ``os.WNOHANG`` at import, Windows' reads ``_winapi``); then what the system lacks is taken
away: on Windows the POSIX-only modules (``fcntl``, ``resource``, ...: importing them raises ImportError), every
signal but the few Windows has, and the POSIX-only names of ``os`` (``sysconf``, ``fchmod``, ``getuid``,
``killpg``, ...), ``select``'s ``poll`` and ``epoll``, and ``selectors.DefaultSelector`` takes sockets only (as
Windows' ``select``: a pipe raises "not a socket"); ``subprocess.Popen`` takes Windows' ``creationflags``
(``CREATE_NEW_PROCESS_GROUP``, made a session of its own here, the nearest Linux has) and refuses the arguments
that Windows' Popen does not honour (``start_new_session``, ``preexec_fn``, ``pass_fds``, ...) while it keeps the
``os`` names its Linux code waits with, and psutil keeps the signals it sends (on Windows both bring their own
calls instead: ``WaitForSingleObject``, ``TerminateProcess``, ``NtSuspendProcess``); ``ctypes`` has no ``WinDLL``
here, so no Job Object is made (its calls are type-checked for win32, never run here).  ``multiprocessing`` offers
``spawn`` only (``fork`` and ``forkserver`` are refused, as there), while its own POSIX code (queues, semaphores,
the resource tracker, starting and killing a worker: Windows brings its own) keeps Linux's platform, ``os`` and
``signal``.  On macOS the Linux-only names (``os.pidfd_open``, ``os.waitid`` before Python 3.13, ...).
``sys.platform`` is set to the system's name, and process pools start their workers by ``spawn`` by default, as
there.  Then every module of the package is imported, and each one that fails is printed as
``FAILED module: error``; the last line is ``imported N modules, M failed``.

``python platform_sim.py SYSTEM -- ARGS...`` runs ``python -m mjarena ARGS...`` that way instead, and
``--run SCRIPT ARGS...`` runs SCRIPT (the ``mjarena`` command's, a test's); the processes ``multiprocessing``
starts for them (a pool's spawned workers, a ``forkserver`` process and the workers forked from it) start through a
stand-in for Python that runs them in the same test mode (``--python-for``: :func:`as_python`).  ``--procfs DIR``
after SYSTEM has psutil read processes from a procfs mounted at DIR: run in a mount namespace where ``/proc`` is
hidden (tests/test_platforms.py does), nothing of mjarena can read ``/proc``, as on macOS and Windows.

``mjarena.sandbox.boxinit`` is left out: it is not imported by the judge but read as text and run inside the box
(``python -c``), which only Linux has.
"""

from __future__ import annotations

import ast
import atexit
import builtins
import importlib
import importlib.util
import multiprocessing
import os
import runpy
import select
import selectors
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

NOT_IMPORTED = {"mjarena.sandbox.boxinit"}
POSIX_MODULES = ("fcntl", "resource", "termios", "pwd", "grp", "pty", "tty", "syslog", "crypt", "posix", "readline")
WINDOWS_SIGNAL_NAMES = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIGBREAK", "CTRL_C_EVENT",
                        "CTRL_BREAK_EVENT", "SIG_DFL", "SIG_IGN", "NSIG", "Signals", "Handlers", "signal",
                        "getsignal", "default_int_handler", "set_wakeup_fd", "raise_signal", "strsignal",
                        "valid_signals"}
LINUX_ONLY_OS = ("pidfd_open", "sched_getaffinity", "sched_setaffinity", "memfd_create", "O_PATH", "getrandom",
                 "eventfd", "splice", "copy_file_range", "P_PIDFD", "pipe2", "posix_fadvise", "sendfile")
WAITID = ("waitid", "P_PID", "P_PGID", "P_ALL", "WEXITED", "WNOWAIT", "WSTOPPED", "WCONTINUED")
POSIX_ONLY_OS = ("sysconf", "sysconf_names", "fchmod", "fchown", "chown", "lchown", "getuid", "geteuid", "getgid",
                 "getegid", "getpgid", "getpgrp", "setpgrp", "setpgid", "killpg", "setsid", "fork", "forkpty",
                 "wait3", "wait4", "WNOHANG", "getloadavg", "nice", "setuid", "getgroups", "uname", "statvfs",
                 "mkfifo", "posix_spawn", "O_CLOEXEC", "O_NOFOLLOW", "O_DIRECTORY", "sched_yield", "WIFEXITED",
                 "WEXITSTATUS", "WIFSIGNALED", "WTERMSIG", "getpriority", "setpriority", "setgroups", "setresuid",
                 "setresgid", "fchdir", "chroot", "openpty", "ttyname", "ctermid", "fdatasync", "sync", "mknod",
                 "pathconf", "fpathconf", "confstr", "getsid", "tcgetpgrp")
STANDARD = ("subprocess", "selectors", "multiprocessing", "multiprocessing.pool", "multiprocessing.connection",
            "concurrent.futures", "concurrent.futures.process", "asyncio", "shutil", "tempfile", "socket",
            "socketserver", "http.server", "http.client", "ssl", "sqlite3", "threading", "logging.handlers",
            "urllib.request", "mimetypes", "uuid", "zipfile", "tarfile", "platform", "getpass", "ctypes",
            "ctypes.util", "webbrowser", "hashlib", "secrets", "gzip", "csv", "sysconfig", "email.utils",
            "multiprocessing.popen_fork", "multiprocessing.popen_spawn_posix", "multiprocessing.spawn",
            "multiprocessing.resource_tracker", "multiprocessing.queues", "multiprocessing.synchronize")
POSIX_SELECT = ("poll", "epoll", "devpoll", "kqueue", "POLLIN", "POLLOUT", "EPOLLIN", "EPOLLOUT")
CREATE_NEW_PROCESS_GROUP = 0x200
POSIX_POPEN = {"start_new_session": False, "process_group": None, "preexec_fn": None, "pass_fds": (), "user": None,
               "group": None, "extra_groups": None, "umask": -1}


class SocketsOnlySelector(selectors.SelectSelector):
    """Windows' ``select``: sockets only (WSAENOTSOCK for a pipe or a file)."""

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        fd = fileobj if isinstance(fileobj, int) else fileobj.fileno()
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            raise OSError(10038, "An operation was attempted on something that is not a socket (select on "
                                 "Windows takes sockets only)")
        return super().register(fileobj, events, data)


def _popen_as_on_windows() -> None:
    """``subprocess.Popen`` as on Windows, as far as mjarena's calls go (see the module's documentation)."""
    subprocess.CREATE_NEW_PROCESS_GROUP = CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
    posix_init = subprocess.Popen.__init__

    def init(self: subprocess.Popen[Any], args: Any, *rest: Any, creationflags: int = 0, **options: Any) -> None:
        used = [name for name, default in POSIX_POPEN.items() if name in options and options[name] != default]
        if used:
            raise ValueError(f"Popen({used[0]}=...) is POSIX-only: Windows' Popen does not honour it")
        if creationflags & ~CREATE_NEW_PROCESS_GROUP:
            raise ValueError(f"creationflags {creationflags:#x}: this test mode knows CREATE_NEW_PROCESS_GROUP only")
        options = {name: value for name, value in options.items() if name not in POSIX_POPEN}
        posix_init(self, args, *rest, start_new_session=bool(creationflags), **options)

    subprocess.Popen.__init__ = init  # type: ignore[method-assign]


def _third_party(root: Path) -> set[str]:
    """The top-level packages outside the standard library that mjarena's modules import (installed or not)."""
    names = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return {name for name in names if name not in sys.stdlib_module_names and name not in ("mjarena", "__future__")}


def _take_away(system: str) -> None:
    removed_os = LINUX_ONLY_OS + (WAITID if sys.version_info < (3, 13) else ())
    linux_os, linux_signal = types.SimpleNamespace(**vars(os)), types.SimpleNamespace(**vars(signal))
    if system == "win32":
        psutil = sys.modules.get("psutil")
        if psutil is not None:  # its own signals (on Windows it calls the system instead)
            psutil.signal = linux_signal  # type: ignore[attr-defined]
        subprocess.os = linux_os  # type: ignore[attr-defined]  # (Windows': _winapi)
        for name in POSIX_SELECT:
            if hasattr(select, name):
                delattr(select, name)
        selectors.DefaultSelector = SocketsOnlySelector  # type: ignore[misc]
        _popen_as_on_windows()
        _multiprocessing_as_on_windows(linux_os, linux_signal)
        for name in POSIX_MODULES:
            sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
        for name in dir(signal):
            if not name.startswith("_") and name not in WINDOWS_SIGNAL_NAMES:
                delattr(signal, name)
        removed_os = LINUX_ONLY_OS + WAITID + POSIX_ONLY_OS
    elif system == "darwin":
        if hasattr(signal, "pidfd_send_signal"):
            delattr(signal, "pidfd_send_signal")
    else:
        raise SystemExit(f"no such system to simulate: {system} (win32 or darwin)")
    for name in removed_os:
        if hasattr(os, name):
            delattr(os, name)
    sys.platform = system
    multiprocessing.set_start_method("spawn", force=True)  # both systems' default (their workers start afresh)


class LinuxSys(types.ModuleType):
    """``sys`` as multiprocessing's own POSIX code reads it in the test mode for Windows: the platform is Linux's,
    everything else (and what is set) the real ``sys``."""

    def __init__(self, platform: str) -> None:
        super().__init__("sys")
        object.__setattr__(self, "_platform", platform)

    def __getattr__(self, name: str) -> Any:
        return self._platform if name == "platform" else getattr(sys, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(sys, name, value)


def _multiprocessing_as_on_windows(linux_os: types.SimpleNamespace, linux_signal: types.SimpleNamespace) -> None:
    """``multiprocessing`` as on Windows where mjarena looks: ``spawn`` is the only start method
    (``get_all_start_methods()`` reads ``sys.platform``; ``get_context("fork")`` and ``"forkserver"`` raise
    ValueError, as there).  Its own POSIX code, which Windows replaces with its own (pipes, semaphores, the queues'
    locks, the resource tracker, starting, waiting for and killing a worker), keeps Linux's ``sys.platform``,
    ``os`` and ``signal``: with Windows' platform a queue drops the lock that keeps its writers' messages whole on
    a POSIX pipe, and a semaphore is sent to a worker as an address in this process."""
    from multiprocessing import context

    for method in ("fork", "forkserver"):
        context._concrete_contexts.pop(method, None)  # type: ignore[attr-defined]
    linux_sys = LinuxSys(sys.platform)
    for name, module in list(sys.modules.items()):
        if not name.startswith("multiprocessing.") or name == "multiprocessing.context" or module is None:
            continue  # (context: what the system offers, read as Windows)
        for attr, value in (("sys", linux_sys), ("os", linux_os), ("signal", linux_signal)):
            if attr in vars(module):
                setattr(module, attr, value)


def _prepare(system: str, packages: Sequence[str] | None = None) -> tuple[Path, list[str], set[str]]:
    """Load what the real systems bring their own of (the standard library's modules, and ``packages``: by default
    every third-party package mjarena's modules import), then take away what ``system`` lacks; (mjarena's folder,
    the packages loaded, those not installed here)."""
    spec = importlib.util.find_spec("mjarena")
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent
    for name in STANDARD:
        importlib.import_module(name)
    loaded, missing = [], set()
    for name in sorted(_third_party(root)) if packages is None else packages:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except ImportError:
            missing.add(name)  # an extra that is not installed here
    _take_away(system)
    return root, loaded, missing


def main(system: str) -> None:
    root, _loaded, missing = _prepare(system)
    modules = sorted("mjarena." + ".".join(path.relative_to(root).with_suffix("").parts)
                     for path in root.rglob("*.py"))
    modules = [name.removesuffix(".__init__") for name in modules if name not in NOT_IMPORTED]
    failed = 0
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as error:  # any error at import is what this looks for
            if isinstance(error, ImportError) and error.name in missing:
                continue  # an extra not installed here
            failed += 1
            print(f"FAILED {name}: {type(error).__name__}: {error}")
    print(f"imported {len(modules)} modules, {failed} failed")


def run_command(system: str, argv: list[str], *, script: str | None = None, procfs: str | None = None) -> None:
    """``python -m mjarena ARGV`` (or ``SCRIPT ARGV``: e.g. the ``mjarena`` command, whose script a spawned worker
    runs again) with what ``system`` lacks taken away (as :func:`main` does before importing), and the workers of
    its process pools too (:func:`_workers_too`); exits as they do."""
    if procfs is not None:
        _read_proc_from(procfs)
    _root, loaded, _missing = _prepare(system)
    _workers_too(system, procfs, loaded)
    if script is None:
        sys.argv = ["mjarena", *argv]
        runpy.run_module("mjarena", run_name="__main__", alter_sys=True)
    else:
        sys.argv = [script, *argv]
        runpy.run_path(script, run_name="__main__")


def _workers_too(system: str, procfs: str | None, packages: list[str]) -> None:
    """Start the processes of ``multiprocessing`` (a pool's workers, spawned; a ``forkserver`` process, which macOS
    has, and the workers forked from it; its resource tracker) through a stand-in for Python
    (``multiprocessing.set_executable``: a script in a temporary folder) that runs :func:`as_python` in the same
    test mode, loading the third-party ``packages`` first as this process did."""
    folder = tempfile.mkdtemp(prefix="mjarena-platform-sim-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    python = Path(folder) / "python"
    words = [sys.executable, str(Path(__file__).resolve()), "--python-for", system, *_options(procfs, packages)]
    python.write_text(f'#!/bin/sh\nexec {shlex.join(words)} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    multiprocessing.set_executable(str(python))


def _options(procfs: str | None, packages: Sequence[str] | None) -> list[str]:
    return (["--procfs", procfs] if procfs else []) + (["--packages", ",".join(packages)] if packages is not None
                                                        else [])


RESOURCE_TRACKER = "from multiprocessing.resource_tracker import main"


def as_python(system: str, procfs: str | None, packages: Sequence[str] | None, words: list[str]) -> None:
    """Python started as ``python [FLAGS] -c CODE ARGS...`` (``words``: how ``multiprocessing`` starts its
    processes), with what ``system`` lacks taken away before CODE runs; the worker's own start (``spawn_main``)
    then reads Linux's platform (:func:`_multiprocessing_as_on_windows`) before it imports the judge's main module
    and mjarena's code under the test mode.  The resource tracker runs as on Linux: it is multiprocessing's own
    helper for POSIX semaphores (Windows has none), and no mjarena code runs in it."""
    if "-c" not in words:
        raise SystemExit(f"platform_sim.py --python-for: expected Python's [FLAGS] -c CODE ARGS..., not {words}")
    cut = words.index("-c")
    if cut:  # interpreter flags (-W, -X, ...): the interpreter's own
        again = [__file__, "--python-for", system, *_options(procfs, packages), *words[cut:]]
        os.execv(sys.executable, [sys.executable, *words[:cut], *again])
    code = words[cut + 1]
    if not code.startswith(RESOURCE_TRACKER):
        if procfs is not None:
            _read_proc_from(procfs)
        _prepare(system, packages)
    sys.argv = ["-c", *words[cut + 2:]]
    exec(compile(code, "<string>", "exec"), {"__name__": "__main__", "__builtins__": builtins})


def _read_proc_from(folder: str) -> None:
    """psutil reads processes from ``folder`` (a procfs mounted there), not ``/proc``, which the test mode hides."""
    import psutil

    psutil.PROCFS_PATH = folder


def _cli(words: list[str]) -> None:
    usage = ("usage: platform_sim.py SYSTEM | SYSTEM [--procfs DIR] (-- ARGS... | --run SCRIPT ARGS...) | "
             "--python-for SYSTEM [--procfs DIR] [--packages NAME,...] [FLAGS] -c CODE ARGS...")
    python_for = words[:1] == ["--python-for"]
    words = words[1:] if python_for else words
    if not words:
        raise SystemExit(usage)
    system, words = words[0], words[1:]
    options: dict[str, str] = {}
    while words[:1] in (["--procfs"], ["--packages"]) and len(words) > 1:
        options[words[0]], words = words[1], words[2:]
    procfs = options.get("--procfs")
    if python_for:
        packages = options.get("--packages")
        as_python(system, procfs, None if packages is None else [name for name in packages.split(",") if name],
                  words)
    elif words[:1] == ["--"]:
        run_command(system, words[1:], procfs=procfs)
    elif words[:1] == ["--run"] and len(words) > 1:
        run_command(system, words[2:], script=words[1], procfs=procfs)
    elif not words and not options:
        main(system)
    else:
        raise SystemExit(usage)


if __name__ == "__main__":
    _cli(sys.argv[1:])

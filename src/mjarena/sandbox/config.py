"""What a box is made of (:class:`Sandbox`), and whether this machine can make one (:func:`check`)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_SANDBOX", "KINDS", "Sandbox", "SandboxUnavailable", "check"]

KINDS = ("bwrap", "none")
_INSTALL = "install the Debian package bubblewrap (apt-get install bubblewrap)"


class SandboxUnavailable(RuntimeError):
    """The sandbox asked for cannot work on this machine; the message says what to install or change."""


@dataclass(frozen=True)
class Sandbox:
    """How to box a program.

    ``kind`` is ``bwrap`` (namespaces, the default) or ``none``; ``tmp_mib`` caps the private ``/tmp``;
    ``max_processes`` caps processes and threads of the box; ``file_size_mib`` caps any file it writes;
    ``cgroup`` names a delegated cgroup v2 directory to use for the box's processes (None: namespaces, rlimits
    and the judge's watchdog only; mjarena never creates cgroups on its own).  ``private_runtimes`` (the
    contest's default; ``--private-runtimes`` elsewhere) shows a box started for a seat of a table
    (:class:`~mjarena.sandbox.Box`'s ``seat``) its seat slot's own copies of the runtime files its program needs
    instead of the shared ``/usr`` (:mod:`mjarena.sandbox.copies`), and its own files from a copy, kept in
    ``runtime_copies`` (None: :func:`~mjarena.sandbox.copies.default_folder`, on the ``/dev/shm`` tmpfs where it
    can be; a folder named here should be on a tmpfs too).
    """

    kind: str = "bwrap"
    tmp_mib: int = 64
    max_processes: int = 128
    file_size_mib: int = 64
    cgroup: str | None = None
    private_runtimes: bool = False
    runtime_copies: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown sandbox {self.kind!r}: expected {' or '.join(KINDS)}")
        for name in ("tmp_mib", "max_processes", "file_size_mib"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"sandbox {name} must be a positive integer, got {value!r}")
        if self.cgroup is not None and not Path(self.cgroup, "cgroup.procs").is_file():
            raise ValueError(f"--cgroup {self.cgroup}: not a cgroup v2 directory (no cgroup.procs there)")

    @classmethod
    def parse(cls, text: str) -> Sandbox:
        """The sandbox a command-line word names: ``bwrap`` or ``none``."""
        return cls(kind=text)

    @property
    def boxed(self) -> bool:
        return self.kind != "none"


#: The box every program bot gets unless told otherwise.
DEFAULT_SANDBOX = Sandbox()


@functools.cache
def _bwrap_works(bwrap: str) -> str | None:
    """None when bubblewrap can make a box here; otherwise why not (checked once per process)."""
    try:
        proc = subprocess.run(
            [bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"],
            env={}, stdin=subprocess.DEVNULL, capture_output=True, timeout=20,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if proc.returncode != 0:
        return proc.stderr.decode("utf-8", "replace").strip() or f"exit code {proc.returncode}"
    return None


def bwrap_path() -> str:
    """The bubblewrap executable, or :class:`SandboxUnavailable` saying what to install."""
    found = shutil.which("bwrap", path=os.environ.get("PATH", "") + os.pathsep + "/usr/bin:/bin")
    if found is None:
        raise SandboxUnavailable(f"the bwrap sandbox needs bubblewrap, which is not installed: {_INSTALL}, "
                                 "or run trusted bots with --sandbox none")
    return found


def check(sandbox: Sandbox) -> None:
    """Raise :class:`SandboxUnavailable` unless ``sandbox`` can be used here (never a silent fallback).  Off Linux
    there is no box (it is Linux's namespaces), and an unboxed program needs what
    :func:`mjarena.sandbox.portable.available` checks."""
    if not sys.platform.startswith("linux"):
        if sandbox.boxed:
            raise SandboxUnavailable(
                f"the bwrap sandbox needs Linux, this is {sys.platform}: its namespaces, seccomp and cgroups exist "
                "only there; run bots you trust with --sandbox none")
        from mjarena.sandbox.portable import available

        problem = available()
        if problem is not None:
            raise SandboxUnavailable(problem)
        return
    if not sandbox.boxed:
        return
    bwrap = bwrap_path()
    problem = _bwrap_works(bwrap)
    if problem is not None:
        raise SandboxUnavailable(
            f"bubblewrap cannot create namespaces on this machine ({problem}); unprivileged user namespaces "
            "must be enabled (sysctl kernel.unprivileged_userns_clone=1 / user.max_user_namespaces > 0), "
            "or run trusted bots with --sandbox none"
        )

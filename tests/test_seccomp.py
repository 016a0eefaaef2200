"""The seccomp filter (mjarena.sandbox.seccomp): every call of its table is denied on this machine, with the
numbers right, and the calls an honest bot makes still work; in the box, the filter is on every program.

The table test installs the filter, built with an errno that no call gives by itself, in a forked child of
the test and calls each denied system call with arguments of -1 (which no call accepts: without the filter
each fails with EBADF, EFAULT, EINVAL, ESRCH or EIO and does nothing), so that a wrong number shows.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import socket
import sys

import pytest

from mjarena.sandbox import Sandbox, run, seccomp
from mjarena.sandbox.boxinit import install_filter

from boxes import requires_bwrap

MARK = errno.ENOTRECOVERABLE  # "state not recoverable" (131): never the answer of any call made here
pytestmark = pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"), reason="no seccomp table here")


def _in_filtered_child(check) -> dict[str, int]:
    """Run ``check(libc)`` in a forked child under the filter (denial MARK); give back what it returned."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.setsid()  # no controlling terminal: vhangup() has nothing to hang up
            install_filter(seccomp.build(denial=MARK))
            os.write(write, json.dumps(check(ctypes.CDLL(None, use_errno=True))).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        data = handle.read()
    os.waitpid(pid, 0)
    return json.loads(data)


def _errno_of(libc, number: int, *args: int) -> int:
    result = libc.syscall(number, *(args or (-1,) * 6))
    if result >= 0:
        if number == seccomp.numbers()["clone"] and result == 0:
            os._exit(0)  # a clone that the filter let through: the copy leaves at once
        return 0
    return ctypes.get_errno()


def test_every_denied_call_fails_with_the_filters_errno() -> None:
    table = seccomp.numbers()

    def check(libc) -> dict[str, int]:
        return {name: _errno_of(libc, table[name]) for name in seccomp.DENIED if name in table}

    results = _in_filtered_child(check)
    assert results and set(results.values()) == {MARK}, {k: v for k, v in results.items() if v != MARK}


def test_namespace_flags_lock_commands_and_foreign_sockets_are_denied_and_the_rest_allowed() -> None:
    table = seccomp.numbers()

    def check(libc) -> dict[str, int]:
        found = {}
        for name, flag in (("newuser", 0x10000000), ("newns", 0x20000), ("newnet", 0x40000000)):
            found[f"clone {name}"] = _errno_of(libc, table["clone"], flag | 17, 0, 0, 0, 0)
        for name, command in seccomp.DENIED_FCNTL.items():
            found[f"fcntl {name}"] = _errno_of(libc, table["fcntl"], -1, command, 0)
        found["fcntl F_GETFL"] = _errno_of(libc, table["fcntl"], -1, 3, 0)  # allowed: EBADF
        found["clone3"] = _errno_of(libc, table["clone3"], 0, 0)
        found["socket AF_VSOCK"] = _errno_of(libc, table["socket"], 40, 1, 0)
        found["socket AF_UNIX"] = _errno_of(libc, table["socket"], 1, 1, 0)
        child = os.fork()  # an ordinary fork (clone without namespace flags) still works
        if child == 0:
            os._exit(7)
        found["fork"] = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        return found

    results = _in_filtered_child(check)
    assert {results[f"clone {name}"] for name in ("newuser", "newns", "newnet")} == {MARK}
    assert {results[f"fcntl {name}"] for name in seccomp.DENIED_FCNTL} == {MARK}
    assert results["fcntl F_GETFL"] == errno.EBADF
    assert results["clone3"] == errno.ENOSYS  # so that the C library falls back to clone, whose flags are seen
    assert results["socket AF_VSOCK"] == MARK and results["socket AF_UNIX"] == 0
    assert results["fork"] == 7


def test_page_cache_probes_fail_as_missing_calls_and_eviction_advice_is_denied() -> None:
    """``preadv2``/``pwritev2`` (``RWF_NOWAIT`` tells whether a page is cached) fail with ENOSYS, so that the C
    library falls back to ``preadv``; ``madvise`` with ``MADV_COLD`` or ``MADV_PAGEOUT`` (which drop a shared
    file's pages) is denied, other advice is not; ``sysinfo`` with no listener (outside a box's init) ENOSYS."""
    table = seccomp.numbers()

    def check(libc) -> dict[str, int]:
        found = {name: _errno_of(libc, table[name]) for name in seccomp.DENIED_ENOSYS if name != "clone3"}
        for name, advice in seccomp.DENIED_MADVISE.items():
            found[name] = _errno_of(libc, table["madvise"], 0, 0, advice)
        found["MADV_DONTNEED"] = _errno_of(libc, table["madvise"], 0, 0, 4)  # allowed: a length of 0 is fine
        found["sysinfo"] = _errno_of(libc, table["sysinfo"], 0)
        read, write = os.pipe()  # the C library's preadv2 with no flags falls back to preadv
        os.write(write, b"abc")
        buffer = ctypes.create_string_buffer(3)
        vector = (ctypes.c_void_p * 2)(ctypes.cast(buffer, ctypes.c_void_p), 3)
        found["preadv2 fallback"] = libc.preadv2(read, vector, 1, -1, 0)
        return found

    results = _in_filtered_child(check)
    assert results["preadv2"] == results["pwritev2"] == errno.ENOSYS, results
    assert results["MADV_COLD"] == results["MADV_PAGEOUT"] == MARK and results["MADV_DONTNEED"] == 0, results
    assert results["sysinfo"] == errno.ENOSYS and results["preadv2 fallback"] == 3, results


def test_an_unknown_machine_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known: aarch64, x86_64"):
        seccomp.build("riscv64")
    assert len(seccomp.build("aarch64")) % 8 == 0 and seccomp.build("aarch64") != seccomp.build("x86_64")


PROBE = r"""
import fcntl, json, os, socket, struct
found = {}
status = open("/proc/self/status").read()
found["seccomp"] = [line.split()[1] for line in status.splitlines() if line.startswith("Seccomp:")][0]
found["no_new_privs"] = [line.split()[1] for line in status.splitlines() if line.startswith("NoNewPrivs:")][0]
def attempt(name, call):
    try:
        call()
        found[name] = "ok"
    except OSError as error:
        found[name] = error.errno
with open("/etc/passwd") as handle:
    attempt("lock", lambda: fcntl.fcntl(handle, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 7, 1, 0)))
    attempt("flock", lambda: fcntl.flock(handle, fcntl.LOCK_SH))
attempt("memfd", lambda: os.memfd_create("x"))
attempt("unix socket", lambda: socket.socket(socket.AF_UNIX).close())
print(json.dumps(found))
"""


@pytest.mark.parametrize("kind", ["none", pytest.param("bwrap", marks=requires_bwrap)])
def test_the_box_runs_every_program_under_the_filter(kind: str) -> None:
    result = run([sys.executable, "-c", PROBE], sandbox=Sandbox(kind=kind), time_limit=20)
    assert result.ok, result.stderr.decode()
    found = json.loads(result.stdout)
    assert found["unix socket"] == "ok"
    if kind == "bwrap":
        assert found["seccomp"] == "2" and found["no_new_privs"] == "1"
        assert found["lock"] == found["flock"] == found["memfd"] == errno.EPERM
    else:  # no box, no filter: the same calls work, so the test can tell
        assert found["seccomp"] == "0"
        assert found["lock"] == found["flock"] == found["memfd"] == "ok"


def test_a_socket_pair_still_works_under_the_filter() -> None:
    def check(libc) -> dict[str, int]:
        left, right = socket.socketpair()
        left.send(b"x")
        return {"got": len(right.recv(1))}

    assert _in_filtered_child(check) == {"got": 1}

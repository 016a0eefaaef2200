"""Holds memory that no process's resident size shows, then plays on (keep-running).

``memory_outside_bot.py memfd COUNT MIB``: COUNT memfds of MIB MiB each (``memfd_create`` and
``posix_fallocate``, never mapped).  ``devshm MIB``: writes MIB MiB into an unlinked file of ``/dev/shm``.
``sysv MIB``: a SysV segment (``shmget``), removed at once (it only shows whether the call works).
The attack runs at the first request; every answer then reports in ``debug`` (and, as it goes, on standard error
as ``REPORT {json}`` lines) what it holds: ``held_mib`` measured with ``fstat`` on its own descriptors, and the
errors it met as ``"errno N (NAME): text"``.
"""

import contextlib
import ctypes
import errno
import json
import os
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MIB = 1 << 20
REPORT = {}
HELD = []  # the descriptors that hold the memory, for the whole game


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(error):
    return f"errno {error.errno} ({errno.errorcode.get(error.errno, '?')}): {error.strerror}"


def held_mib():
    total = 0
    for fd in HELD:
        with contextlib.suppress(OSError):
            total += os.fstat(fd).st_blocks * 512
    return total / MIB


def memfds(count, mib):
    for index in range(count):
        try:
            fd = os.memfd_create(f"hoard{index}")
            HELD.append(fd)
            os.posix_fallocate(fd, 0, mib * MIB)
        except OSError as error:
            report(error=failure(error), held_mib=held_mib())
            return
        report(held_mib=held_mib())


def devshm(mib):
    """Files of 16 MiB (each under the file size cap), unlinked at once: held by their descriptors alone, so
    nothing is left behind whatever kills the bot."""
    chunk = b"\x01" * MIB
    try:
        for done in range(mib):
            if done % 16 == 0:
                path = f"/dev/shm/mjarena-hoard-{os.getpid()}-{done}"
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
                os.unlink(path)
                HELD.append(fd)
            os.write(fd, chunk)
            if done % 8 == 7:
                report(held_mib=held_mib())
    except OSError as error:
        report(error=failure(error))
    report(held_mib=held_mib())


def sysv(mib):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
    libc.shmctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    ipc_private, ipc_creat, ipc_rmid = 0, 0o1000, 0
    segment = libc.shmget(ipc_private, mib * MIB, ipc_creat | 0o600)
    if segment < 0:
        number = ctypes.get_errno()
        report(shmget=failure(OSError(number, os.strerror(number))))
        return
    libc.shmctl(segment, ipc_rmid, None)  # removed at once: it was only to see whether the call works
    report(shmget="ok")


def answer(request):
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    mode = sys.argv[1]
    first = json.loads(sys.stdin.readline())
    request = first["requests"][-1]
    if mode == "memfd":
        memfds(int(sys.argv[2]), int(sys.argv[3]))
    elif mode == "devshm":
        devshm(int(sys.argv[2]))
    elif mode == "sysv":
        sysv(int(sys.argv[2]))
    while True:
        report(held_mib=held_mib())
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

"""Escapes the size cap of its private /tmp with a tmpfs of its own (``unshare -Urm`` and ``mount``, through
libc), then fills it (keep-running).

``tmp_escape_bot.py MIB``: at the first request it tries ``unshare(CLONE_NEWUSER | CLONE_NEWNS)``, maps its
uid and gid, makes every mount private and mounts a tmpfs of 1 GiB on /tmp; whatever worked, it then writes MIB
MiB into /tmp (its own tmpfs or the box's) in files of 16 MiB, and plays on.  It reports as it goes on standard
error (``REPORT {json}`` lines) and in each answer's ``debug``: ``unshare``, ``mount`` ("ok" or
``"errno N (NAME): text"``), ``written_mib`` and ``write_error``.
"""

import ctypes
import errno
import json
import os
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_REC, MS_PRIVATE = 0x4000, 1 << 18
MIB = 1 << 20
REPORT = {}
HELD = []  # the descriptors of what it wrote, for the whole game
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(number):
    return f"errno {number} ({errno.errorcode.get(number, '?')}): {os.strerror(number)}"


def checked(result):
    return "ok" if result == 0 else failure(ctypes.get_errno())


def own_tmpfs():
    uid, gid = os.getuid(), os.getgid()
    unshared = checked(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))
    report(unshare=unshared)
    if unshared != "ok":
        return
    for name, text in (("uid_map", f"0 {uid} 1"), ("setgroups", "deny"), ("gid_map", f"0 {gid} 1")):
        with open(f"/proc/self/{name}", "w") as handle:
            handle.write(text)
    private = checked(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None))  # nothing propagates out
    if private != "ok":
        report(mount=private)
        return
    report(mount=checked(libc.mount(b"none", b"/tmp", b"tmpfs", 0, b"size=1g")))


def fill(mib):
    """Files of 16 MiB (each under the file size cap), unlinked at once: held by their descriptors alone, so
    nothing is left behind whatever kills the bot."""
    written = 0
    chunk = b"\x01" * MIB
    try:
        for _ in range(mib):
            if written % 16 == 0:
                path = f"/tmp/escape-{os.getpid()}-{written}"
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
                os.unlink(path)
                HELD.append(fd)
            os.write(fd, chunk)
            written += 1
            if written % 8 == 0:
                report(written_mib=written)
    except OSError as error:
        report(write_error=failure(error.errno))
    report(written_mib=written)


def answer(request):
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    first = json.loads(sys.stdin.readline())
    request = first["requests"][-1]
    own_tmpfs()
    fill(int(sys.argv[1]))
    while True:
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

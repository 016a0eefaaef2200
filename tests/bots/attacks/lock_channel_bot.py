"""Two bots at one table talk through file locks on files both can only read (keep-running).

``lock_channel_bot.py send fcntl SECRET PATH``: takes a read lock (``fcntl`` ``F_SETLK``, ``F_RDLCK``) of one
byte at offset SECRET of PATH, opened read-only, and keeps it for the game.
``lock_channel_bot.py receive fcntl PATH``: lists the locks others hold on PATH with ``F_GETLK`` (asking for a
write lock of the whole file, then past each lock found) and reports their offsets: the secret is one of them.
``lock_channel_bot.py send flock BITS PATH...``: holds ``flock(LOCK_SH)`` on the I-th PATH when the I-th
character of BITS is ``1``.  ``receive flock PATH...``: tries ``flock(LOCK_EX | LOCK_NB)`` on each PATH and
reports the bits (``1``: someone holds it).
Each answer reports in ``debug`` (and on standard error, ``REPORT {json}``) what it did, errors as
``"errno N (NAME): text"``.
"""

import errno
import fcntl
import json
import os
import struct
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
FLOCK = "hhxxxxqqixxxx"  # struct flock on 64-bit Linux: l_type, l_whence, l_start, l_len, l_pid
REPORT = {}
HELD = []


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(error):
    return f"errno {error.errno} ({errno.errorcode.get(error.errno, '?')}): {error.strerror}"


def send_fcntl(secret, path):
    fd = os.open(path, os.O_RDONLY)
    HELD.append(fd)
    try:
        fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack(FLOCK, fcntl.F_RDLCK, os.SEEK_SET, secret, 1, 0))
        report(locked=True)
    except OSError as error:
        report(locked=False, error=failure(error))


def receive_fcntl(path):
    fd = os.open(path, os.O_RDONLY)
    found = []
    start = 0
    try:
        for _ in range(64):
            asked = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, start, 0, 0)
            kind, _, lock_start, length, _pid = struct.unpack(FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, asked))
            if kind == fcntl.F_UNLCK:
                break
            found.append(lock_start)
            if length == 0:
                break
            start = lock_start + length
        report(found=found)
    except OSError as error:
        report(found=found, error=failure(error))
    finally:
        os.close(fd)


def send_flock(bits, paths):
    errors = []
    for bit, path in zip(bits, paths, strict=False):
        if bit != "1":
            continue
        fd = os.open(path, os.O_RDONLY)
        HELD.append(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        except OSError as error:
            errors.append(failure(error))
    report(locked=not errors, errors=errors)


def receive_flock(paths):
    bits = ""
    errors = []
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            bits += "0"
        except BlockingIOError:
            bits += "1"
        except OSError as error:
            errors.append(failure(error))
        finally:
            os.close(fd)  # drops a lock it got
    report(bits=bits if not errors else None, errors=errors)


def answer(request):
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    role, kind = sys.argv[1], sys.argv[2]
    first = json.loads(sys.stdin.readline())
    request = first["requests"][-1]
    if (role, kind) == ("send", "fcntl"):
        send_fcntl(int(sys.argv[3]), sys.argv[4])
    elif (role, kind) == ("receive", "fcntl"):
        receive_fcntl(sys.argv[3])
    elif (role, kind) == ("send", "flock"):
        send_flock(sys.argv[3], sys.argv[4:])
    else:
        receive_flock(sys.argv[3:])
    while True:
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

"""Two bots pass a secret through the kernel's keyrings, which no namespace of the box separates (keep-running).

``keyring_bot.py send TAG SECRET [user]``: adds a key of type ``user`` described ``mjarena-TAG`` holding SECRET,
readable by anyone (``KEYCTL_SETPERM``) and expiring in two minutes (``KEYCTL_SET_TIMEOUT``): with ``user``, to
its user keyring (``@u``); always to a fresh session keyring of its own (``KEYCTL_JOIN_SESSION_KEYRING``), which
goes when the bot does.  ``keyring_bot.py receive TAG``: looks for ``mjarena-TAG`` with ``KEYCTL_SEARCH`` in
``@u`` and in ``/proc/keys``, and reads what it finds (``KEYCTL_READ``).
Each answer reports in ``debug`` (and on standard error, ``REPORT {json}``) what worked, errors as
``"errno N (NAME): text"``.
"""

import ctypes
import errno
import json
import os
import platform
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
NUMBERS = {"x86_64": (248, 250), "aarch64": (217, 219)}  # add_key, keyctl
SESSION, USER = -3, -4  # KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING
JOIN_SESSION, SETPERM, READ, SEARCH, SET_TIMEOUT = 1, 5, 11, 10, 15  # KEYCTL_*
EVERYONE = 0x3F3F3F3F  # possessor, user, group and other: all permissions
REPORT = {}
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(number):
    return f"errno {number} ({errno.errorcode.get(number, '?')}): {os.strerror(number)}"


def call(number, *args):
    """A raw system call: its result, or the failure as text."""
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return result if result >= 0 else failure(ctypes.get_errno())


def keyctl(*args):
    return call(NUMBERS[platform.machine()][1], *args)


def add(description, secret, keyring):
    add_key = NUMBERS[platform.machine()][0]
    serial = call(add_key, b"user", description, secret, len(secret), keyring)
    if isinstance(serial, int):
        keyctl(SET_TIMEOUT, serial, 120)
        keyctl(SETPERM, serial, EVERYONE)
    return serial


def read(serial):
    buffer = ctypes.create_string_buffer(4096)
    length = keyctl(READ, serial, buffer, len(buffer))
    return buffer.raw[:length].decode() if isinstance(length, int) else length


def send(tag, secret, user):
    description = f"mjarena-{tag}".encode()
    if user:
        report(user_keyring=add(description, secret.encode(), USER))
    joined = keyctl(JOIN_SESSION, None)
    report(session_joined=joined)
    report(session_key=add(description, secret.encode(), SESSION))


def receive(tag):
    description = f"mjarena-{tag}"
    learned = []
    serial = keyctl(SEARCH, USER, b"user", description.encode(), 0)
    report(user_search=serial)
    if isinstance(serial, int):
        learned.append(read(serial))
    try:
        with open("/proc/keys") as handle:
            lines = handle.read().splitlines()
        report(proc_keys=len(lines))
    except OSError as error:
        lines = []
        report(proc_keys=failure(error.errno))
    for line in lines:
        words = line.split()
        if len(words) > 8 and words[8].rstrip(":") == description:
            learned.append(read(int(words[0], 16)))
    report(learned=learned)


def answer(request):
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    first = json.loads(sys.stdin.readline())
    request = first["requests"][-1]
    report(uid=os.getuid())
    if sys.argv[1] == "send":
        send(sys.argv[2], sys.argv[3], sys.argv[4:] == ["user"])
    else:
        receive(sys.argv[2])
    while True:
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

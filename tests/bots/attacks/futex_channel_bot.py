"""Two bots pass a number through a futex on a page of a file that both map (the C library's code).

``futex_channel_bot.py send BASE WORD``: a thread waits (``FUTEX_WAIT``, shared: no ``FUTEX_PRIVATE_FLAG``) on the
WORD-th of 32 words from offset BASE (hex) of the page of ``printf``, for at most 30 s; prints
``{"waited": "woken" | "timed out" | "errno N (NAME)"}``.
``futex_channel_bot.py receive BASE``: for up to 2 s, wakes (``FUTEX_WAKE``, shared) each of the 32 words in turn
until one wakes someone; prints ``{"woke": [the words that did]}``.  (The test draws BASE, so that two runs of it
at once, two test suites on one machine, use words of their own.)
"""

import ctypes
import errno
import json
import os
import sys
import time

LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
FUTEX = {"x86_64": 202, "aarch64": 98}[os.uname().machine]
FUTEX_WAIT, FUTEX_WAKE = 0, 1


class Timespec(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_long), ("nanoseconds", ctypes.c_long)]


BASE = [0x80]


def word(number):
    return (ctypes.cast(LIBC.printf, ctypes.c_void_p).value & ~0xFFF) + BASE[0] + 4 * number


def send(number):
    address = word(number)
    value = ctypes.c_uint32.from_address(address).value
    result = LIBC.syscall(FUTEX, ctypes.c_void_p(address), FUTEX_WAIT, ctypes.c_uint32(value),
                          ctypes.byref(Timespec(30, 0)), None, 0)
    code = ctypes.get_errno()
    if result == 0:
        return "woken"
    if code == errno.ETIMEDOUT:
        return "timed out"
    return f"errno {code} ({errno.errorcode.get(code, '?')})"


def receive():
    end = time.monotonic() + 2
    while time.monotonic() < end:
        woke = [number for number in range(32) if LIBC.syscall(FUTEX, ctypes.c_void_p(word(number)), FUTEX_WAKE, 1,
                                                                None, None, 0) > 0]
        if woke:
            return woke
        time.sleep(0.002)
    return []


if __name__ == "__main__":
    BASE[0] = int(sys.argv[2], 16) & 0xF80
    if sys.argv[1] == "send":
        print(json.dumps({"waited": send(int(sys.argv[3]))}))
    else:
        print(json.dumps({"woke": receive()}))

"""Keeps a worker computing while the judge has stopped the bot between its turns (keep-running).

``ptrace_thaw_bot.py TOKEN [HEARTBEATS]``: at the first request it forks a worker (a child: in the bot's tree,
so the judge stops it with the rest) that counts heartbeats every 10 ms, in memory shared with the bot and, when
HEARTBEATS (a file) is given, as ``time.time()`` lines appended there.  Then a grandchild, made an orphan by a
double fork so that it is no longer in the bot's tree, attaches to the worker with ``PTRACE_SEIZE`` and, each
time a stopping signal (SIGSTOP, SIGTSTP, ...) reaches the worker, suppresses it and lets the worker go on.
Every answer reports in ``debug`` (and on standard error, ``REPORT {json}``): ``ptrace`` ("ok" or
``"errno N (NAME): text"``) and ``frozen_beats``, the heartbeats counted between its last answer and this
request (while the judge had it stopped). Worker and tracer give up after a minute.  TOKEN is for the tests'
clean-up: every process of the bot has it in its argv.
"""

import ctypes
import errno
import json
import mmap
import os
import signal
import struct
import sys
import time

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
PTRACE_CONT, PTRACE_SEIZE = 7, 0x4206
WALL = 0x40000000  # __WALL
STOPPING = {signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU}
REPORT = {}
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(number):
    return f"errno {number} ({errno.errorcode.get(number, '?')}): {os.strerror(number)}"


def worker(beats, heartbeats):
    signal.alarm(60)
    count = 0
    while True:
        sum(range(2000))  # a little work between heartbeats
        count += 1
        beats[:8] = struct.pack("q", count)
        if heartbeats:
            try:
                with open(heartbeats, "a") as handle:
                    handle.write(f"{time.time()}\n")
            except OSError:
                pass
        time.sleep(0.01)


def tracer(target, write_end):
    signal.alarm(60)
    if libc.ptrace(PTRACE_SEIZE, target, None, None) != 0:
        os.write(write_end, failure(ctypes.get_errno()).encode())
        os._exit(0)
    os.write(write_end, b"ok")
    os.close(write_end)
    while True:
        try:
            _, status = os.waitpid(target, WALL)
        except ChildProcessError:
            os._exit(0)
        if not os.WIFSTOPPED(status):
            os._exit(0)  # the worker is gone
        stop = os.WSTOPSIG(status)
        libc.ptrace(PTRACE_CONT, target, None, ctypes.c_void_p(0 if stop in STOPPING else stop))


def quiet():
    """Let go of the bot's standard streams (the judge's pipes)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


def start(heartbeats):
    beats = mmap.mmap(-1, 8)  # shared with the children (MAP_SHARED | MAP_ANONYMOUS)
    worker_pid = os.fork()
    if worker_pid == 0:
        quiet()
        worker(beats, heartbeats)
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(read_end)
        if os.fork() == 0:
            quiet()
            tracer(worker_pid, write_end)
        os._exit(0)
    os.close(write_end)
    os.waitpid(middle, 0)
    result = b""
    while chunk := os.read(read_end, 256):
        result += chunk
    os.close(read_end)
    report(ptrace=result.decode() or "no answer from the tracer")
    return beats


def count(beats):
    return struct.unpack("q", beats[:8])[0]


def answer(request):
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    heartbeats = sys.argv[2] if len(sys.argv) > 2 else None
    first = json.loads(sys.stdin.readline())
    request = first["requests"][-1]
    beats = start(heartbeats)
    while True:
        last = count(beats)
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        report(frozen_beats=count(beats) - last)
        request = json.loads(line)


if __name__ == "__main__":
    main()

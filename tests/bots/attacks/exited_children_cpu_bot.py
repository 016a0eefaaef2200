"""Buys CPU time with children that have exited before anyone looks (restart mode).

``exited_children_cpu_bot.py VARIANT COUNT SECONDS [TOKEN]``: for its answer it runs COUNT children one after
the other, each burning SECONDS of CPU and exiting, so that at no moment is more than one of them alive.
VARIANT ``reaped``: it waits for each; ``zombie``: it never waits (they stay zombies until it exits);
``orphan``: each is a grandchild whose parent exits at once (a double fork), so that someone else reaps it.
It knows a child is done when the pipe the child holds closes; each child writes its CPU seconds there first.
Then it answers PASS, with ``{"children": N, "cpu": seconds burnt in them, "zombies": N}`` in ``debug``.
"""

import json
import os
import sys
import time


def burn(seconds, write_end):
    while time.process_time() < seconds:
        pass
    os.write(write_end, f"{time.process_time()}\n".encode())
    os._exit(0)


def child(variant, seconds):
    """Run one child to its end; returns the CPU seconds it reported."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        if variant == "orphan":
            if os.fork() == 0:
                burn(seconds, write_end)
            os._exit(0)
        burn(seconds, write_end)
    os.close(write_end)
    if variant == "orphan":
        os.waitpid(pid, 0)  # the middle one, at once: the grandchild is now an orphan
    text = b""
    while chunk := os.read(read_end, 64):
        text += chunk
    os.close(read_end)
    if variant == "reaped":
        os.waitpid(pid, 0)
    elif variant == "zombie":
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # until it is a zombie (its pipe closes a little earlier)
    return float(text or 0)


def zombies():
    found = 0
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/children") as handle:
            for pid in handle.read().split():
                try:
                    with open(f"/proc/{pid}/stat", "rb") as stat:
                        found += stat.read().rsplit(b")", 1)[1].split()[0] == b"Z"
                except OSError:
                    pass
    return found


def main():
    variant, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    sys.stdin.readline()
    cpu = sum(child(variant, seconds) for _ in range(count))
    report = {"children": count, "cpu": round(cpu, 3), "zombies": zombies()}
    print(json.dumps({"response": "PASS", "debug": report}), flush=True)


if __name__ == "__main__":
    main()

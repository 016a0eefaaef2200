"""A restart-mode bot that looks for what an earlier start of it could have left in its box: a file in /tmp and
/dev/shm, and other processes (it leaves a sleeping child behind on purpose, with ``argv[1]``, a token, in its
argv).  Reports in its debug field: whether it found the files, the pids it sees, and the start time of its
box's pid 1 (the same box across requests has the same pid 1)."""

import json
import os
import sys


def main() -> None:
    token = sys.argv[1]
    sys.stdin.readline()
    found = [path for path in ("/tmp/left-behind", "/dev/shm/left-behind") if os.path.exists(path)]
    pids = sorted(int(name) for name in os.listdir("/proc") if name.isdigit())
    with open("/proc/1/stat", "rb") as handle:
        init_start = handle.read().rsplit(b")", 1)[1].split()[19].decode()
    for path in ("/tmp/left-behind", "/dev/shm/left-behind"):
        with open(path, "w") as handle:
            handle.write("state kept outside the data field\n")
    if os.fork() == 0:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", token])
    report = {"found": found, "pids": pids, "me": os.getpid(), "init_start": init_start}
    print(json.dumps({"response": "PASS", "debug": json.dumps(report)}), flush=True)


if __name__ == "__main__":
    main()

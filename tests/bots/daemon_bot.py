"""Leaves a daemon behind that escapes its process group and its parent (``setsid`` and a double fork), with
``argv[1]`` (a token) in the daemon's argv, then answers PASS.  ``keep`` as argv[2]: keeps running after that."""

import json
import os
import sys


def main() -> None:
    token = sys.argv[1]
    sys.stdin.readline()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", token])
        os._exit(0)
    os.wait()
    print(json.dumps({"response": "PASS"}), flush=True)
    if sys.argv[2:] == ["keep"]:
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        for _ in sys.stdin:
            print(json.dumps({"response": "PASS"}), flush=True)
            print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)


if __name__ == "__main__":
    main()

"""Answers after 6 s of wall time while four forked children burn CPU (the CPU time of its process tree grows
faster than the wall time where there are several cores)."""

import os
import sys
import time


def main() -> None:
    sys.stdin.readline()
    for _ in range(4):
        if os.fork() == 0:
            while True:
                pass
    time.sleep(6)
    print('{"response": "PASS"}', flush=True)


if __name__ == "__main__":
    main()

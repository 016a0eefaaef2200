"""Answers its first request and asks to be kept running, then hangs on the next request."""

import sys
import time


def main() -> None:
    sys.stdin.readline()
    print('{"response": "PASS"}', flush=True)
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    sys.stdin.readline()
    time.sleep(30)


if __name__ == "__main__":
    main()

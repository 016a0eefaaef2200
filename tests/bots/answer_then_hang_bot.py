"""Answers without the keep-running marker, then neither exits nor reads: the judge must not wait forever."""

import sys
import time


def main() -> None:
    sys.stdin.readline()
    print('{"response": "PASS"}', flush=True)
    time.sleep(30)


if __name__ == "__main__":
    main()

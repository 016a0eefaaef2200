"""Prints something that is not JSON."""

import sys


def main() -> None:
    sys.stdin.readline()
    print("hello, judge! PASS", flush=True)


if __name__ == "__main__":
    main()

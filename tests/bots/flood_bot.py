"""Prints 10 MB to standard output and would go on for a while."""

import sys


def main() -> None:
    sys.stdin.readline()
    block = "x" * (1 << 16)
    for _ in range(160):
        sys.stdout.write(block)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

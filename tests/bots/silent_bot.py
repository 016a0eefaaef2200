"""Reads its input and exits normally without printing anything."""

import sys


def main() -> None:
    sys.stdin.readline()


if __name__ == "__main__":
    main()

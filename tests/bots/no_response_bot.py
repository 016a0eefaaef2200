"""Prints valid JSON without a "response" key."""

import sys


def main() -> None:
    sys.stdin.readline()
    print('{"data": "I forgot to answer"}', flush=True)


if __name__ == "__main__":
    main()

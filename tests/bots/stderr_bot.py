"""Writes 1 MiB to standard error (more than any pipe holds), then a last line, then a valid answer;
with ``fail`` (argv[1]) it exits with code 1 instead of answering."""

import sys


def main() -> None:
    sys.stdin.readline()
    for number in range(16384):
        sys.stderr.write(f"debug line {number:06d} ......................................\n")
    sys.stderr.write("last words of the bot\n")
    sys.stderr.flush()
    if sys.argv[1:] == ["fail"]:
        sys.exit(1)
    print('{"response": "PASS", "data": "chatty"}', flush=True)


if __name__ == "__main__":
    main()

"""Crashes.  Mode (argv[1]): ``exit`` (default: exit code 3 before answering), ``signal`` (SIGSEGV),
``after-answer`` (a valid answer, then exit code 2), ``raise`` (an uncaught exception)."""

import os
import signal
import sys


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "exit"
    sys.stdin.readline()
    sys.stderr.write("boom: the bot is about to fail\n")
    sys.stderr.flush()
    if mode == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "after-answer":
        print('{"response": "PASS"}', flush=True)
        sys.exit(2)
    elif mode == "raise":
        raise RuntimeError("the bot lost track of its hand")
    sys.exit(3)


if __name__ == "__main__":
    main()

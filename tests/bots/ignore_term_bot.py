"""A slow, legal NOI 2014 bot that ignores SIGTERM, SIGHUP and SIGINT: only SIGKILL (or its box dying) ends it.

argv: ``[MODE [TOKEN [SECONDS]]]``.  MODE is ``keep`` (the default: one process for the whole game) or
``restart`` (one process per answer); TOKEN is only there to be found in ``/proc/*/cmdline`` by the test that
started it; each answer takes SECONDS (default 0.2), so that a game lasts and its bots are alive when the test
signals the judge.
It discards the tile it drew, passes on everything else, and names a target hand when asked."""

import json
import signal
import sys
import time

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def answer(request: str) -> str:
    tokens = request.split()
    if tokens[0] == "2":
        return "PLAY " + tokens[1]
    if tokens[0] == "4":  # the target hand asked at the end
        return "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5"
    return "PASS"


def main() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    mode = sys.argv[1] if len(sys.argv) > 1 else "keep"
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 0.2
    request = json.loads(sys.stdin.readline())["requests"][-1]
    while True:
        time.sleep(seconds)
        print(json.dumps({"response": answer(request)}), flush=True)
        if mode != "keep":
            return
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

"""A keep-running bot that burns CPU between its turns (in a thread and in a forked child), to slow down the
others; each answer's ``data`` is the CPU seconds its own process used so far."""

import json
import os
import sys
import threading
import time


def burn() -> None:
    while True:
        pass


def main() -> None:
    sys.stdin.readline()
    threading.Thread(target=burn, daemon=True).start()
    if os.fork() == 0:
        burn()
    while True:
        print(json.dumps({"response": "PASS", "data": str(time.process_time())}), flush=True)
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        if not sys.stdin.readline():
            return


if __name__ == "__main__":
    main()

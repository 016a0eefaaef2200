"""A restart-mode test bot that leaves in ``/tmp`` folders nested past the longest path (4096 bytes) before it
answers ``PASS``: only relative steps reach them, as the box's init deletes them before the next start (neither a
judge error nor the bot's crash: ``test_bot_process.py``)."""

import json
import os
import sys


def main() -> None:
    sys.stdin.readline()
    os.chdir("/tmp")
    for _ in range(24):  # 24 levels of 200 bytes: past PATH_MAX, which only relative steps can reach
        os.mkdir("d" * 200)
        os.chdir("d" * 200)
    print(json.dumps({"response": "PASS"}), flush=True)


if __name__ == "__main__":  # pytest's doctest collection imports every module here
    main()

"""Leaves a grandchild behind (sleeping, holding no pipe) and answers; the judge must kill it with the group.
The grandchild's pid is in ``data``."""

import json
import subprocess
import sys


def main() -> None:
    sys.stdin.readline()
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    print(json.dumps({"response": "PASS", "data": str(child.pid)}), flush=True)


if __name__ == "__main__":
    main()

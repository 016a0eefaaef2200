"""Escapes a per-process memory limit by forking: ``argv[1]`` children each hold ``argv[2]`` MiB (touched),
each under the limit, all of them together far over it; then it answers PASS."""

import json
import os
import sys
import time


def main() -> None:
    children, mib = int(sys.argv[1]), int(sys.argv[2])
    sys.stdin.readline()
    for _ in range(children):
        if os.fork() == 0:
            hoard = bytearray(b"\x01" * (mib << 20))
            time.sleep(30 + len(hoard) * 0)
            os._exit(0)
    time.sleep(1.0)
    print(json.dumps({"response": "PASS"}), flush=True)


if __name__ == "__main__":
    main()

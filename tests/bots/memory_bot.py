"""Tries to take 1 GiB.  Default: one allocation (fails at once under an address-space limit).
``--touch``: grows in touched 16 MiB steps, to be caught by the judge's resident-memory watch."""

import sys
import time


def main() -> None:
    sys.stdin.readline()
    if "--touch" in sys.argv:
        hoard = []
        for _ in range(64):
            hoard.append(bytearray(b"\x01" * (16 << 20)))
            time.sleep(0.01)
    else:
        hoard = [bytearray(1 << 30)]
    print('{"response": "PASS"}', flush=True)


if __name__ == "__main__":
    main()

"""Never answers in time: sleeps far past any limit (argv[1] seconds, default 30)."""

import sys
import time


def main() -> None:
    sys.stdin.readline()
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0)
    print('{"response": "PASS"}', flush=True)


if __name__ == "__main__":
    main()

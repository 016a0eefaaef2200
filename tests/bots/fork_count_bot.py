"""Forks sleeping children until the system says no (at most 500) and prints how many it got."""

import os
import time


def main() -> None:
    count = 0
    try:
        while count < 500:
            if os.fork() == 0:
                time.sleep(5)
                os._exit(0)
            count += 1
    except OSError:
        pass
    print(count)


if __name__ == "__main__":
    main()

"""A restart-mode bot that plays plainly (PASS; play the tile just drawn) until its Nth draw, then misbehaves.

    python misbehave_bot.py MODE [N]

MODE: sleep, crash, garbage, flood, memory, illegal (plays a tile it cannot hold), false_hu.
"""

import json
import sys
import time


def tiles_seen(requests):
    seen = set()
    for request in requests:
        words = request.split()
        if words[0] == "1":
            seen.update(words[1:])
        elif words[0] == "2":
            seen.add(words[1])
    return seen


def main() -> None:
    mode = sys.argv[1]
    when = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    state = json.loads(sys.stdin.readline())
    requests = state["requests"]
    words = requests[-1].split()
    draws = sum(1 for r in requests if r.startswith("2 "))
    response = "PASS"
    if words[0] == "2":
        response = f"PLAY {words[1]}"
        if draws >= when:
            if mode == "sleep":
                time.sleep(30)
            elif mode == "crash":
                sys.exit(3)
            elif mode == "garbage":
                print("this is not JSON", flush=True)
                return
            elif mode == "flood":
                sys.stdout.write("x" * (10 << 20))
                sys.stdout.flush()
                return
            elif mode == "memory":
                hoard = bytearray(1 << 30)
                hoard[::4096] = b"x" * len(hoard[::4096])
            elif mode == "illegal":
                held = tiles_seen(requests)
                absent = next(f"{s}{n}" for s in "WBT" for n in range(1, 10) if f"{s}{n}" not in held)
                response = f"PLAY {absent}"
            elif mode == "false_hu":
                response = "HU"
    elif words[0] == "4":
        response = "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 B9 T9 T9"
    print(json.dumps({"response": response}), flush=True)


if __name__ == "__main__":
    main()

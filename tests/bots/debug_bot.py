"""A well-behaved bot (PASS; play the tile just drawn) that fills Botzone's ``debug`` field and its stderr.

    python debug_bot.py [keep]

Every answer carries ``"debug": "turn N: REQUEST"``; every 5th one a 10,000-character debug instead (more than
the judge keeps) and every 7th a debug that is a JSON object, not a string.  Each turn it also writes
``stderr turn N`` to its standard error.  ``keep``: stays running after every answer.
"""

import json
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def main() -> None:
    keep = len(sys.argv) > 1 and sys.argv[1] == "keep"
    requests = json.loads(sys.stdin.readline())["requests"]
    while True:
        turn = len(requests)
        words = requests[-1].split()
        response = "PASS"
        if words[0] == "2":
            response = f"PLAY {words[1]}"
        elif words[0] == "4":
            response = "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 B9 T9 T9"
        debug: object = f"turn {turn}: {requests[-1]}"
        if turn % 5 == 0:
            debug = f"turn {turn}: " + "麻" * 10_000
        elif turn % 7 == 0:
            debug = {"turn": turn, "request": requests[-1]}
        print(f"stderr turn {turn}", file=sys.stderr, flush=True)
        print(json.dumps({"response": response, "debug": debug}), flush=True)
        if not keep:
            return
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        requests.append(json.loads(line))


if __name__ == "__main__":
    main()

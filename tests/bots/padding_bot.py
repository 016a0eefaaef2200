"""A contest bot that plays like contest_bot.py but pads everything it may (issue 31): each answer's response
with 4,000 spaces, its ``debug`` field and its standard error with 4,000 random characters, control characters
among them (JSON writes each as a six-byte escape; random, so that compression cannot hide them)."""

import json
import random
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
ALPHABET = [chr(code) for code in range(1, 127) if code not in (10, 13)]


def main() -> None:
    pick = random.Random(31)
    query = json.loads(sys.stdin.readline())
    requests = query["requests"]
    hand = next((r.split()[1:] for r in requests if r.startswith("1 ")), [])
    request = requests[-1]
    while True:
        words = request.split()
        if words[0] == "1":
            hand = words[1:]
        response = f"PLAY {words[1]}" if words[0] == "2" else " ".join(hand) if words[0] == "4" else "PASS"
        sys.stderr.write("".join(pick.choices(ALPHABET, k=4000)) + "\n")
        sys.stderr.flush()
        print(json.dumps({"response": response + " " * 4000, "debug": "".join(pick.choices(ALPHABET, k=4000))}))
        print(KEEP, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

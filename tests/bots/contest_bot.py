"""A small keep-running NOI 2014 bot for the contest tests: it discards what it draws (so its hand stays the one
dealt), never claims, gives that hand as its target, and says something private each turn: a ``debug`` field
and a line on standard error, both carrying the MARK below (a test edits it to tell versions apart)."""

import json
import sys

MARK = "contest-bot-v1"
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def main() -> None:
    query = json.loads(sys.stdin.readline())
    requests = query["requests"]
    hand = next((r.split()[1:] for r in requests if r.startswith("1 ")), [])
    request = requests[-1]
    while True:
        words = request.split()
        if words[0] == "1":
            hand = words[1:]
        response = f"PLAY {words[1]}" if words[0] == "2" else " ".join(hand) if words[0] == "4" else "PASS"
        sys.stderr.write(f"{MARK} stderr at {request}\n")
        sys.stderr.flush()
        print(json.dumps({"response": response, "debug": f"{MARK} debug at {request}"}))
        print(KEEP, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()

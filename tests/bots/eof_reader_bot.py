"""A restart-mode bot with a classic mistake: it reads its input to the end (the judge keeps it open)."""

import json
import sys


def main() -> None:
    message = json.loads(sys.stdin.read())
    print(json.dumps({"response": "PASS", "data": str(len(message["requests"]))}), flush=True)


if __name__ == "__main__":
    main()

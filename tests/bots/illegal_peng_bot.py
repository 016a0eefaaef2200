"""A restart-mode NOI 2014 bot that plays each tile it draws (so its hand stays as dealt) and, at the first
discard of a kind it holds none of, answers ``PENG Y`` with a Y it does not hold either: an illegal PENG."""

import json
import sys

NAMES = [f"{suit}{number}" for suit in "WBT" for number in range(1, 10)]


def main() -> None:
    state = json.loads(sys.stdin.readline())
    requests, responses = state["requests"], state.get("responses", [])
    hand = next((r.split()[1:] for r in requests if r.startswith("1 ")), [])
    words = requests[-1].split()
    response = "PASS"
    if words[0] == "2":
        response = f"PLAY {words[1]}"
    elif words[0] == "3" and words[2] == "PLAY" and words[3] not in hand and not any(
            answer.startswith("PENG") for answer in responses):
        absent = next(name for name in NAMES if name not in hand and name != words[3])
        response = f"PENG {absent}"
    elif words[0] == "4":
        response = " ".join([*hand, hand[0]])
    print(json.dumps({"response": response}), flush=True)


if __name__ == "__main__":
    main()

"""A bot that plays plainly (PASS; play the tile just drawn) until its Nth draw, then prints hostile bytes.

    python hostile_output_bot.py MODE [N] [keep]

MODE (what it prints at that draw, instead of its answer):

- ``deep_array`` / ``deep_object``: JSON nested 200,000 / 100,000 deep (``json.loads`` raises RecursionError on it);
- ``huge_number``: an answer with a 100,000-digit number (``int`` refuses more than 4300 digits);
- ``bad_utf8``: an answer whose response holds bytes that are not UTF-8;
- ``nul``: a NUL byte before the answer, ``nul_escaped``: an answer whose response ends in an escaped NUL;
- ``surrogate``: an answer whose response holds a lone surrogate (``\\ud800``);
- ``surrogate_debug``: a legal answer whose ``debug`` holds lone surrogates (the answer stands);
- ``huge_line``: a single line of 100 MB.

``keep``: ask to be kept running after every answer (the attack then arrives in keep-running mode).
"""

import json
import sys
from collections.abc import Iterator

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def hostile(mode: str, tile: str) -> Iterator[bytes]:
    """The hostile output, in pieces (the 100 MB line is never whole in memory)."""
    if mode == "huge_line":
        yield b'{"response": "'
        for _ in range(100):
            yield b"A" * (1 << 20)
        yield b'"}\n'
    else:
        yield hostile_line(mode, tile)


def hostile_line(mode: str, tile: str) -> bytes:
    if mode == "deep_array":
        return b'{"response": ' + b"[" * 200_000 + b"\n"
    if mode == "deep_object":
        return b'{"a": ' * 100_000 + b"\n"
    if mode == "huge_number":
        return b'{"response": "PLAY ' + tile.encode() + b'", "n": ' + b"9" * 100_000 + b"}\n"
    if mode == "bad_utf8":
        return b'{"response": "PLAY \xff\xfe\xc3"}\n'
    if mode == "nul":
        return b'\x00{"response": "PLAY ' + tile.encode() + b'"}\n'
    if mode == "nul_escaped":
        return b'{"response": "PLAY ' + tile.encode() + b'\\u0000"}\n'
    if mode == "surrogate":
        return b'{"response": "PLAY \\ud800"}\n'
    if mode == "surrogate_debug":
        return b'{"response": "PLAY ' + tile.encode() + b'", "debug": "lone \\ud800 and \\udfff"}\n'
    raise SystemExit(f"unknown mode {mode!r}")


def answer(request: str, draws: int, mode: str, when: int) -> Iterator[bytes]:
    words = request.split()
    if words[0] == "2":
        if draws >= when:
            return hostile(mode, words[1])
        return iter([(json.dumps({"response": f"PLAY {words[1]}"}) + "\n").encode()])
    if words[0] == "4":
        return iter([b'{"response": "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 B9 T9 T9"}\n'])
    return iter([b'{"response": "PASS"}\n'])


def main() -> None:
    mode = sys.argv[1]
    when = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    keep = len(sys.argv) > 3 and sys.argv[3] == "keep"
    requests = json.loads(sys.stdin.readline())["requests"]
    out = sys.stdout.buffer
    while True:
        draws = sum(1 for r in requests if r.startswith("2 "))
        for piece in answer(requests[-1], draws, mode, when):
            out.write(piece)
        out.flush()
        if not keep:
            return
        out.write((MARKER + "\n").encode())
        out.flush()
        line = sys.stdin.readline()
        if not line:
            return
        requests.append(json.loads(line))


if __name__ == "__main__":
    main()

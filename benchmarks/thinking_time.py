"""Thinking time as a channel between two bots at one table (issue 41): bits a game, in both modes.

    python benchmarks/thinking_time.py [--games 1] [--step-ms 70] [--restart-step-ms 40] [--sandbox bwrap]
                                       [--json FILE]

Seat 0 (the sender) and seat 1 (the receiver) are bots of one team's mind, seats 2 and 3 the built-in ``greedy``;
all play within the default limits (1 s an answer, the game's budget).  At each answer the sender waits
``symbol × step`` (a symbol of 3 bits, 0 to 7, drawn at random: what it would pass, its hand say) while its
budget allows, and says the symbol in its ``debug``; the receiver reads the monotonic clock at each request and
says in its ``debug`` how long it waited since its last answer (in restart mode it keeps that instant in Botzone's
``data``, which lasts the game).  Both play legally (the tile drawn, else PASS; a fixed target hand at the end).
The receiver's symbol is its wait less the shortest wait of the game, over the step, rounded; each is set beside
the sender's answer made during that wait (the judge asks the seats in turn; both bots write the instant).
Printed, per mode: the symbols the sender sent, those the receiver read right, and the bits a game: the symbols
a game times the information one read symbol carries of the sent one (the mutual information of the table of
sent and read symbols, less its bias for so few: 0 at chance).  In restart mode the step is shorter
(``--restart-step-ms``): the interpreter's start is in the answer's second too.  Nothing here is a pass or
fail: ``docs/security.md`` states the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

from mjarena.arena.match import run_match
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox

BOT = r'''
import json, os, random, sys, time
role, mode, step = sys.argv[1], sys.argv[2], float(sys.argv[3])
budget = float(sys.argv[4]) - 3.0  # what the sender may spend waiting, with room for its own work
rng = random.Random(os.getpid())
spent = 0.0

def answer(request, data):
    global spent
    now = time.monotonic()
    debug = ""
    if role == "receiver":
        debug = f"R:{(now - float(data)) * 1000:.1f}:{now:.6f}" if data else "R:-"
    else:
        symbol = rng.randrange(8)
        if spent + symbol * step < budget:
            time.sleep(symbol * step)
            spent += symbol * step
            debug = f"S:{symbol}:{time.monotonic():.6f}"
        else:
            debug = "S:-"
    words = request.split()
    response = f"PLAY {words[1]}" if words[0] == "2" else "PASS"
    if words[0] == "4":  # the wall is exhausted: a target hand (any will do here)
        response = "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5"
    return response, debug

if mode == "restart":
    line = json.loads(sys.stdin.readline())
    response, debug = answer(line["requests"][-1], line.get("data", ""))
    print(json.dumps({"response": response, "debug": debug, "data": repr(time.monotonic())}), flush=True)
else:
    line = json.loads(sys.stdin.readline())
    request, data = line["requests"][-1], ""
    while True:
        response, debug = answer(request, data)
        data = repr(time.monotonic())
        print(json.dumps({"response": response, "debug": debug}), flush=True)
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        request = json.loads(line)
'''


def _decode(sent: list[tuple[int, float]], waits: list[tuple[float, float]], step_ms: float) -> list[tuple[int, int]]:
    """(symbol sent, symbol read) for each of the sender's symbols.  The receiver reads each wait alone (its length
    less the game's shortest, over the step); the benchmark pairs it with the sender's answer made during it, by
    the instants both wrote (one clock for the machine)."""
    base = min(wait for wait, _ in waits) if waits else 0.0
    pairs = []
    for symbol, instant in sent:
        window = [wait for wait, end in waits if end - wait / 1000 <= instant <= end]
        if window:
            pairs.append((symbol, min(7, max(0, round((window[0] - base) / step_ms)))))
    return pairs


def information(pairs: list[tuple[int, int]]) -> float:
    """Bits a symbol that the read symbols carry of the sent ones: the mutual information of their table, less its
    bias for so few pairs (Miller and Madow: (8 - 1)² / (2 n ln 2)); 0 at chance."""
    if not pairs:
        return 0.0
    count = len(pairs)
    joint: dict[tuple[int, int], int] = {}
    for pair in pairs:
        joint[pair] = joint.get(pair, 0) + 1
    sent = {symbol: sum(n for (s, _), n in joint.items() if s == symbol) for symbol, _ in joint}
    read = {symbol: sum(n for (_, r), n in joint.items() if r == symbol) for _, symbol in joint}
    plug_in = sum(n / count * math.log2(n * count / (sent[s] * read[r])) for (s, r), n in joint.items())
    return max(0.0, plug_in - 49 / (2 * count * math.log(2)))


def one_game(folder: Path, mode: str, step_ms: float, sandbox: str, seed: int) -> list[tuple[int, int]]:
    limits = Limits(sandbox=Sandbox(kind=sandbox))
    bot = folder / "bot.py"
    step = str(step_ms / 1000)
    budget = str(limits.budget)
    bots = [f"python3 {bot} {role} {mode} {step} {budget}" for role in ("sender", "receiver")]
    result = run_match([*bots, "builtin:greedy", "builtin:greedy"], seed=seed, limits=limits)
    for seat in (0, 1):
        if result.seats[seat].reason is not None:
            raise SystemExit(f"seat {seat} failed: {result.seats[seat].detail}")
    debugs = [[exchange["debug"] or "" for exchange in result.transcripts[seat]] for seat in (0, 1)]
    sent = [(int(parts[1]), float(parts[2])) for parts in (text.split(":") for text in debugs[0]) if len(parts) == 3]
    waits = [(float(parts[1]), float(parts[2])) for parts in (text.split(":") for text in debugs[1])
             if len(parts) == 3]
    return _decode(sent, waits, step_ms)


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--games", type=int, default=1, help="games per mode (1)")
    arguments.add_argument("--step-ms", type=float, default=70.0, help="the sender's wait per symbol step (70)")
    arguments.add_argument("--restart-step-ms", type=float, default=40.0, help="the same in restart mode (40)")
    arguments.add_argument("--sandbox", default="bwrap", help="the bots' sandbox (bwrap)")
    arguments.add_argument("--json", help="write the figures to this file")
    options = arguments.parse_args()
    print(f"machine: {describe()}")
    figures = {}
    with tempfile.TemporaryDirectory(prefix="mjarena-thinking-") as name:
        folder = Path(name)
        folder.chmod(0o755)
        (folder / "bot.py").write_text(BOT)
        (folder / "bot.py").chmod(0o644)
        for mode in ("keep", "restart"):
            step_ms = options.step_ms if mode == "keep" else options.restart_step_ms
            pairs = []
            for game in range(options.games):
                pairs += one_game(folder, mode, step_ms, options.sandbox, seed=game + 1)
            right = sum(sent == read for sent, read in pairs)
            bits = information(pairs) * len(pairs) / options.games
            figures[mode] = {"symbols_a_game": len(pairs) / options.games, "read_right": right / max(1, len(pairs)),
                             "bits_a_game": bits}
            name = "keep-running" if mode == "keep" else "restart"
            print(f"{name} mode: {len(pairs) / options.games:.0f} symbols of 3 bits sent a game, "
                  f"{right} of {len(pairs)} read right (chance 1 in 8): {bits:.0f} bits a game "
                  f"(step {step_ms:.0f} ms, {options.games} game(s), sandbox {options.sandbox})")
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()

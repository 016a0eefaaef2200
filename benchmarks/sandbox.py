"""What the sandbox costs per request, next to no sandbox, measured in the same run.

    python benchmarks/sandbox.py [--runs 60] [--requests 3000] [--json FILE]

The figures are ratios to no sandbox, measured in the same run, interleaved.

- restart mode: the wall time of ``BotProcess.ask`` for a first request to a trivial Python bot started fresh,
  in the bwrap box and with ``--sandbox none``, interleaved run by run (medians);
- keep-running mode: the median round trip of one kept bot, box and no box, alternating rounds of 100 requests
  (with the box, each round trip also thaws and freezes the bot's process tree).
Goals (issue 12): at most 10 ms per restart request and 0.2 ms per keep-running request over no sandbox.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, machine_line, parser

from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox

TRIVIAL_BOT = r"""
import json, sys
line = sys.stdin.readline()
while line:
    json.loads(line)
    sys.stdout.write('{"response": "PASS"}\n')
    if "--keep" in sys.argv:
        sys.stdout.write(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    if "--keep" not in sys.argv:
        break
    line = sys.stdin.readline()
"""
KINDS = ("none", "bwrap")


def restart(command: list[str], runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for _ in range(runs):
        for kind in KINDS:
            with BotProcess(command, time_limit=5.0, sandbox=Sandbox(kind=kind)) as process:
                start = time.perf_counter()
                process.ask("0 1")
                times[kind].append((time.perf_counter() - start) * 1000)
    return {kind: statistics.median(values) for kind, values in times.items()}


def keep(command: list[str], requests: int) -> dict[str, float]:
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    processes = {kind: BotProcess([*command, "--keep"], time_limit=5.0, sandbox=Sandbox(kind=kind)) for kind in KINDS}
    try:
        for process in processes.values():
            process.ask("0 1")
        for round_no in range(max(1, requests // 100)):
            for kind, process in processes.items():
                for number in range(100):
                    start = time.perf_counter()
                    reply = process.ask(f"3 {number % 4} PLAY W{(round_no + number) % 9 + 1}")
                    times[kind].append((time.perf_counter() - start) * 1000)
                    assert reply.mode == "keep"
    finally:
        for process in processes.values():
            process.close()
    return {kind: statistics.median(values) for kind, values in times.items()}


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--runs", type=int, default=60, help="restart-mode runs per kind")
    arguments.add_argument("--requests", type=int, default=3000, help="keep-running requests per kind")
    args = arguments.parse_args()
    record = Record("sandbox")
    print(machine_line())
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "trivial_bot.py"
        script.write_text(TRIVIAL_BOT)
        # the real interpreter for both kinds: the box resolves a venv's python to it, and their start-up differs
        command = [os.path.realpath(sys.executable), str(script)]
        first = restart(command, args.runs)
        kept = keep(command, args.requests)
    restart_ratio = record.add("restart request, boxed / no box", first["bwrap"], "ms",
                               anchor=("no box, ms", first["none"]))
    record.add("restart request, box overhead", first["bwrap"] - first["none"], "ms", goal=("<=", 10))
    keep_ratio = record.add("keep-running round trip, boxed / no box", kept["bwrap"], "ms",
                            anchor=("no box, ms", kept["none"]))
    record.add("keep-running round trip, box overhead", kept["bwrap"] - kept["none"], "ms", goal=("<=", 0.2))
    print(f"restart mode, first request: {restart_ratio['ratio']:.2f}x without a box ({first['bwrap']:.2f} ms boxed, "
          f"{first['none']:.2f} ms not: +{first['bwrap'] - first['none']:.2f} ms, goal <= 10)")
    print(f"keep-running round trip:     {keep_ratio['ratio']:.2f}x without a box ({kept['bwrap']:.3f} ms boxed, "
          f"{kept['none']:.3f} ms not: +{kept['bwrap'] - kept['none']:.3f} ms, goal <= 0.2)")
    record.save(args.json)


if __name__ == "__main__":
    main()

"""What the sandbox costs per request, next to no sandbox, measured in the same run.

    python benchmarks/sandbox.py [--runs 60] [--requests 3000] [--json FILE]

- restart mode: the wall time of ``BotProcess.ask`` for a first request to a trivial Python bot started fresh,
  in the bwrap box and with ``--sandbox none``, interleaved run by run (medians);
- keep-running mode: the median round trip of one kept bot, box and no box, alternating rounds of 100 requests
  (with the box, each round trip also thaws and freezes the bot's process tree).
Goals (issue 12): at most 10 ms per restart request and 0.2 ms per keep-running request over no sandbox.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60, help="restart-mode runs per kind")
    parser.add_argument("--requests", type=int, default=3000, help="keep-running requests per kind")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    print(f"machine: {describe()}; load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "trivial_bot.py"
        script.write_text(TRIVIAL_BOT)
        command = [sys.executable, str(script)]
        first = restart(command, args.runs)
        kept = keep(command, args.requests)
    figures = {
        "restart_ms": first, "restart_overhead_ms": first["bwrap"] - first["none"],
        "keep_ms": kept, "keep_overhead_ms": kept["bwrap"] - kept["none"],
    }
    print(f"restart mode, first request: {first['bwrap']:.2f} ms boxed, {first['none']:.2f} ms without a box: "
          f"+{figures['restart_overhead_ms']:.2f} ms (goal <= 10)")
    print(f"keep-running round trip:     {kept['bwrap']:.3f} ms boxed, {kept['none']:.3f} ms without a box: "
          f"+{figures['keep_overhead_ms']:.3f} ms (goal <= 0.2)")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": describe(), **figures}, indent=2) + "\n")


if __name__ == "__main__":
    main()

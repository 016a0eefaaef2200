"""The bot judge's own overhead per request.

Restart mode: the wall time of ``BotProcess.ask`` minus that of a bare ``subprocess.run`` of the same trivial bot
with the same input line (medians over interleaved runs), with and without the address-space limit (which makes
``subprocess`` fork and run a pre-exec hook instead of using vfork), for a first request and for a late-game
history.  The bot also reports its own run time from its first line to its answer, for scale.  Keep-running mode:
requests per second through one kept process.  Target: under 5 ms of overhead per restart-mode request.

Run: ``.venv/bin/python benchmarks/protocol_overhead.py [--runs N] [--requests N]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mjarena.protocol.botzone import encode_input
from mjarena.protocol.process import BotProcess

TRIVIAL_BOT = r"""
import time
start = time.perf_counter()
import json, sys
line = sys.stdin.readline()
while True:
    message = json.loads(line)
    inside = (time.perf_counter() - start) * 1000
    sys.stdout.write(json.dumps({"response": "PASS", "data": "%.3f" % inside}) + "\n")
    if "--keep" in sys.argv:
        sys.stdout.write(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    if "--keep" not in sys.argv:
        break
    line = sys.stdin.readline()
    start = time.perf_counter()
    if not line:
        break
"""


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    return (
        f"{platform.platform()} | {cpu} | {os.cpu_count()} CPUs | "
        f"Python {platform.python_version()} ({platform.python_implementation()})"
    )


def history(length: int) -> tuple[list[str], list[str]]:
    requests = ["0 1", "1 W1 W1 W2 W3 W4 B5 B5 B6 B7 T8 T8 T9 T9"]
    while len(requests) < length:
        requests += ["3 0 PLAY B3", "3 2 PLAY T5", "2 W6"][: length - len(requests)]
    responses = ["PASS" if not r.startswith("2 ") else "PLAY " + r[2:] for r in requests[:-1]]
    return requests, responses


def restart_overhead(command: list[str], runs: int, length: int, limit_address_space: bool) -> dict[str, float]:
    requests, responses = history(length)
    line = encode_input(requests, responses, "", "1000", "256") + "\n"
    asks, bares, insides, judge_cpu = [], [], [], []
    for _ in range(runs):
        process = BotProcess(command, time_limit=5.0, limit_address_space=limit_address_space)
        process.requests, process.responses = list(requests[:-1]), list(responses)
        cpu = time.process_time()
        start = time.perf_counter()
        reply = process.ask(requests[-1])
        asks.append((time.perf_counter() - start) * 1000)
        judge_cpu.append((time.process_time() - cpu) * 1000)
        insides.append(float(reply.data or 0))
        process.close()
        start = time.perf_counter()
        done = subprocess.run(command, input=line.encode(), capture_output=True, check=True)
        bares.append((time.perf_counter() - start) * 1000)
        assert json.loads(done.stdout)["response"] == "PASS"
    ask, bare = statistics.median(asks), statistics.median(bares)
    return {
        "ask": ask,
        "bare": bare,
        "overhead": ask - bare,
        "inside": statistics.median(insides),
        "judge_cpu": statistics.median(judge_cpu),
        "input_bytes": len(line),
    }


def keep_running_rate(command: list[str], requests: int) -> dict[str, float]:
    with BotProcess([*command, "--keep"], time_limit=5.0) as process:
        process.ask("0 1")
        latencies = []
        start = time.perf_counter()
        for number in range(requests):
            reply = process.ask(f"3 {number % 4} PLAY W{number % 9 + 1}")
            assert reply.kept and reply.mode == "keep"
            latencies.append(reply.elapsed * 1000)
        total = time.perf_counter() - start
        assert process.starts == 1
    return {
        "rate": requests / total,
        "median_ms": statistics.median(latencies),
        "p99_ms": sorted(latencies)[int(0.99 * len(latencies))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="restart-mode runs per configuration")
    parser.add_argument("--requests", type=int, default=5000, help="keep-running requests")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "trivial_bot.py"
        script.write_text(TRIVIAL_BOT)
        command = [sys.executable, "-I", str(script)]
        restart_overhead(command, 5, 2, True)  # warm up
        print(f"restart mode (median of {args.runs}; ms; 'bare' is subprocess.run of the same bot and input):")
        header = f"  {'history':>8} {'AS limit':>8} {'input B':>8} {'ask':>7} {'bare':>7} {'overhead':>9}"
        print(header + f" {'judge CPU':>10} {'in bot':>7}")
        for length in (2, 150):
            for limited in (True, False):
                r = restart_overhead(command, args.runs, length, limited)
                print(
                    f"  {length:>8} {'on' if limited else 'off':>8} {r['input_bytes']:>8} {r['ask']:>7.2f} "
                    f"{r['bare']:>7.2f} {r['overhead']:>9.2f} {r['judge_cpu']:>10.2f} {r['inside']:>7.2f}"
                )
        k = keep_running_rate(command, args.requests)
        print(
            f"keep-running mode: {k['rate']:.0f} requests/s through one process "
            f"(median {k['median_ms']:.3f} ms, p99 {k['p99_ms']:.3f} ms per request, {args.requests} requests)"
        )


if __name__ == "__main__":
    main()

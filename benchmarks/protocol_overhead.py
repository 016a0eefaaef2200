"""The bot judge's own overhead per request.

Restart mode: the wall time of ``BotProcess.ask`` minus that of a bare ``subprocess.run`` of the same trivial bot
with the same input line (medians over interleaved runs), with and without the address-space limit (which makes
``subprocess`` fork and run a pre-exec hook instead of using vfork), for a first request and for a late-game
history.  The bot also reports its own run time from its first line to its answer, for scale.  Keep-running mode:
requests per second through one kept process, against the same bot driven over bare pipes (write a line, read
its two lines back) in alternating rounds.  Target: under 5 ms of overhead per restart-mode request.

Run: ``.venv/bin/python benchmarks/protocol_overhead.py [--runs N] [--requests N] [--json FILE]``
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

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


def keep_running_rates(command: list[str], requests: int, rounds: int) -> dict[str, float]:
    """Median round trip (ms) through ``BotProcess`` and over bare pipes to the same kept bot, alternating rounds."""
    bare = subprocess.Popen([*command, "--keep"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert bare.stdin is not None and bare.stdout is not None
    pipe_in, pipe_out = bare.stdin, bare.stdout

    def bare_round_trips() -> float:
        start = time.perf_counter()
        for number in range(requests):
            pipe_in.write(json.dumps({"requests": [f"3 {number % 4} PLAY W{number % 9 + 1}"], "responses": []}) + "\n")
            pipe_in.flush()
            pipe_out.readline()
            pipe_out.readline()
        return (time.perf_counter() - start) * 1000 / requests

    try:
        with BotProcess([*command, "--keep"], time_limit=5.0) as process:
            process.ask("0 1")

            def judged_round_trips() -> float:
                start = time.perf_counter()
                for number in range(requests):
                    reply = process.ask(f"3 {number % 4} PLAY W{number % 9 + 1}")
                    assert reply.kept and reply.mode == "keep"
                return (time.perf_counter() - start) * 1000 / requests

            times = interleave({"judge": judged_round_trips, "bare": bare_round_trips}, rounds)
            assert process.starts == 1
    finally:
        pipe_in.close()
        bare.wait(5)
    return {name: median(values) for name, values in times.items()}


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--runs", type=int, default=100, help="restart-mode runs per configuration")
    arguments.add_argument("--requests", type=int, default=1000, help="keep-running requests per round")
    arguments.add_argument("--rounds", type=int, default=5, help="keep-running alternating rounds")
    args = arguments.parse_args()
    record = Record("protocol_overhead")
    print(machine_line())
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "trivial_bot.py"
        script.write_text(TRIVIAL_BOT)
        command = [sys.executable, "-I", str(script)]
        restart_overhead(command, 5, 2, True)  # warm up
        print(f"restart mode (median of {args.runs} interleaved runs; ms; 'bare' is subprocess.run of the same bot "
              "and input):")
        header = f"  {'history':>8} {'AS limit':>8} {'input B':>8} {'ask':>7} {'bare':>7} {'overhead':>9}"
        print(header + f" {'ask/bare':>9} {'judge CPU':>10} {'in bot':>7}")
        for length in (2, 150):
            for limited in (True, False):
                r = restart_overhead(command, args.runs, length, limited)
                figure = record.add(f"restart request, history {length}, address-space limit "
                                    f"{'on' if limited else 'off'}: ask / bare subprocess.run", r["ask"], "ms",
                                    anchor=("bare subprocess.run, ms", r["bare"]))
                record.add(f"restart request, history {length}, address-space limit {'on' if limited else 'off'}: "
                           "overhead", r["overhead"], "ms", goal=("<=", 5))
                print(
                    f"  {length:>8} {'on' if limited else 'off':>8} {r['input_bytes']:>8} {r['ask']:>7.2f} "
                    f"{r['bare']:>7.2f} {r['overhead']:>9.2f} {figure['ratio']:>8.2f}x {r['judge_cpu']:>10.2f} "
                    f"{r['inside']:>7.2f}"
                )
        k = keep_running_rates(command, args.requests, args.rounds)
    figure = record.add("keep-running round trip: judge / bare pipes", k["judge"], "ms",
                        anchor=("bare pipes to the same kept bot, ms", k["bare"]))
    print(f"keep-running mode: {figure['ratio']:.2f}x the round trip over bare pipes ({k['judge']:.3f} ms against "
          f"{k['bare']:.3f} ms; {1000 / k['judge']:.0f} requests/s; medians of {args.rounds} alternating rounds of "
          f"{args.requests} requests)")
    record.save(args.json)


if __name__ == "__main__":
    main()

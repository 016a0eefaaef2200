"""Contest server throughput and API latency, with the real server (``mjarena contest serve``) on loopback.

    python benchmarks/contest.py [--seconds S] [--workers N] [--readers R] [--sandbox bwrap|none] [--json FILE]

Two contests of four teams each play for ``--seconds`` after every team's first build is in: one whose bots
run in restart mode (the example bots in C, C++, JavaScript and Python, each started afresh for every request,
as the NOI 2014 spec has it), one in keep-running mode (the Python and Java examples, two teams each).  The
figure is games finished per minute of that time, counted from the API.  While the keep-running contest plays,
``--readers`` threads read ``/api/standings`` back to back: the latency of those requests (median, 95th and 99th
percentile) and their rate are printed, as a ratio to the latency of one reader before any game started (the
anchor, same run); the games per minute of keep-running mode as a ratio to restart mode.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import Record, machine_line, parser

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"
MJARENA = [sys.executable, "-m", "mjarena.cli"]
RESTART = {"c": "bot.c", "cpp": "bot.cpp", "js": "bot.js", "py": "restart_bot.py"}
KEEP = {"py1": "keep_running_bot.py", "py2": "keep_running_bot.py", "java1": "Main.java", "java2": "Main.java"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def finished_games(url: str) -> int:
    return sum(1 for game in httpx.get(f"{url}/api/games", timeout=30).json()["games"] if game["state"] == "finished")


def read_standings(url: str, stop: threading.Event, latencies: list[float]) -> None:
    with httpx.Client(timeout=30) as client:
        while not stop.is_set():
            start = time.perf_counter()
            response = client.get(f"{url}/api/standings")
            latencies.append(time.perf_counter() - start)
            response.raise_for_status()


def run_contest(folder: Path, bots: dict[str, str], args: Any, record: Record, label: str,
                readers: int = 0) -> float:
    """Games per minute of one contest; with ``readers``, the standings latency figures go to ``record``."""
    root = folder / "contest"
    created = subprocess.run([*MJARENA, "contest", "create", str(root), *(f"--team={team}" for team in bots),
                              "--duration", "600", "--sandbox", args.sandbox, "--uploads-per-minute", "60",
                              "--json"], capture_output=True, text=True, check=True)
    tokens = json.loads(created.stdout)["teams"]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(folder / "serve.log", "wb") as log:
        server = subprocess.Popen([*MJARENA, "contest", "serve", str(root), "--port", str(port), "--workers",
                                   str(args.workers)], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/api/standings", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: see {folder / 'serve.log'}") from None
                time.sleep(0.2)
        idle: list[float] = []
        with httpx.Client(timeout=30) as client:
            for _ in range(50):  # the anchor: one reader, no game running yet
                start = time.perf_counter()
                client.get(f"{url}/api/standings").raise_for_status()
                idle.append(time.perf_counter() - start)
        for team, name in bots.items():
            subprocess.run([*MJARENA, "submit", url, str(EXAMPLES / name), "--token", tokens[team]], check=True,
                           capture_output=True)
        stop = threading.Event()
        latencies: list[float] = []
        threads = [threading.Thread(target=read_standings, args=(url, stop, latencies), daemon=True)
                   for _ in range(readers)]
        start_games, start = finished_games(url), time.perf_counter()
        for thread in threads:
            thread.start()
        time.sleep(args.seconds)
        stop.set()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
        games = finished_games(url) - start_games
        rate = games * 60 / elapsed
        print(f"  {games} games in {elapsed:.0f} s: {rate:.1f} games per minute")
        if latencies:
            ms = sorted(value * 1000 for value in latencies)
            idle_ms = statistics.median(idle) * 1000
            figure = record.add(f"{label}: /api/standings median with {readers} readers while games run / one reader "
                                "before", statistics.median(ms), "ms", anchor=("one reader, no game running, ms",
                                                                                idle_ms))
            record.add(f"{label}: /api/standings p95 with {readers} readers", ms[int(0.95 * len(ms))], "ms")
            print(f"  /api/standings: {figure['ratio']:.1f}x the latency of one reader before the games "
                  f"({idle_ms:.1f} ms)")
            print(f"  /api/standings with {readers} concurrent readers while games run: median "
                  f"{statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * len(ms))]:.1f} ms, "
                  f"p99 {ms[int(0.99 * len(ms))]:.1f} ms, {len(ms) / elapsed:.0f} requests/s")
    finally:
        server.terminate()
        server.wait(15)
    return rate


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--seconds", type=float, default=60.0, help="how long each contest is measured (60)")
    arguments.add_argument("--workers", type=int, default=2, help="games at once (2)")
    arguments.add_argument("--readers", type=int, default=50, help="concurrent standings readers (50)")
    arguments.add_argument("--sandbox", choices=("bwrap", "none"), default="none", help="where bots run (none)")
    args = arguments.parse_args()
    record = Record("contest")
    print(machine_line())
    print(f"{args.workers} workers, sandbox {args.sandbox}")
    with tempfile.TemporaryDirectory() as folder:
        print("restart mode (C, C++, JavaScript, Python):")
        restart = run_contest(Path(folder) / "restart", RESTART, args, record, "restart")
        print("keep-running mode (Python x2, Java x2):")
        keep = run_contest(Path(folder) / "keep", KEEP, args, record, "keep-running", readers=args.readers)
    figure = record.add("games per minute, keep-running / restart mode", keep, "games/min",
                        anchor=("restart mode, games/min", restart))
    print(f"keep-running mode plays {figure['ratio']:.1f}x the games of restart mode ({keep:.1f} against "
          f"{restart:.1f} per minute; one after the other, not interleaved)")
    record.save(args.json)


if __name__ == "__main__":
    main()

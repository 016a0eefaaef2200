"""Contest server throughput and API latency, with the real server (``mjarena contest serve``) on loopback.

    python benchmarks/contest.py [--seconds S] [--fields cc:bwrap,mixed,keep] [--repeat N] [--workers N]
                                 [--readers R] [--sandbox bwrap|none] [--before FILE] [--json FILE]

Each *field* is a contest of four teams that plays for ``--seconds`` after every team's first build is in and
the first game is over (so the window sees games playing all along); the figure is games finished per minute
of that time, counted from the API (also noted: the rate between the first and the last finish in the
window).  The fields:

- ``cc``: restart mode, two C teams and two C++ teams (``examples/bots/bot.c`` and ``bot.cpp``): the judge's
  own cost per request (process start, and the box) is most of what such a contest spends;
- ``mixed``: restart mode, the example bots in C, C++, JavaScript and Python, each started afresh for every
  request, as the NOI 2014 spec has it;
- ``keep``: keep-running mode, the Python and Java examples, two teams each.  While it plays, ``--readers``
  threads read ``/api/standings`` back to back: the latency of those requests (median, 95th and 99th
  percentile) and their rate are printed, as a ratio to the latency of one reader before any game started (the
  anchor, same run).

``--fields`` lists the fields to run, in order, each optionally with the box its bots run in (``cc:bwrap``);
a field without one runs in ``--sandbox`` (``none`` by default: outside the box, as this script always did).
The default, ``cc:bwrap,mixed,keep``, takes about ``3 * (S + 20)`` seconds.  ``--repeat N`` runs the fields
N times, their order alternating (A B, B A, ...), each figure the games of all its runs over their time.
Ratios printed, each between two fields of the same run (not interleaved unless repeated): keep-running /
restart (``keep`` and ``mixed`` in the same box), C/C++ / mixed (same box), boxed / no box (a field run both
ways).  ``--before FILE`` (a JSON file that this script wrote with ``--json`` for an earlier commit) adds each
field's figure as a ratio to the same figure there: *another run*, so read it with both load averages (issue
23's goal: the ``cc`` field in the box at least 2.5x its games per minute before the box was rewritten).
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

import mjarena

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import Record, load_average, machine_line, parser

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"
MJARENA = [sys.executable, "-m", "mjarena.cli"]
RESTART = {"c": "bot.c", "cpp": "bot.cpp", "js": "bot.js", "py": "restart_bot.py"}
KEEP = {"py1": "keep_running_bot.py", "py2": "keep_running_bot.py", "java1": "Main.java", "java2": "Main.java"}
C_CPP = {"c1": "bot.c", "c2": "bot.c", "cpp1": "bot.cpp", "cpp2": "bot.cpp"}
#: field: (teams, what it is in a figure's name, what it is in the printout)
FIELDS = {
    "cc": (C_CPP, "restart mode, C/C++ field", "restart mode (C x2, C++ x2)"),
    "mixed": (RESTART, "restart mode, mixed field", "restart mode (C, C++, JavaScript, Python)"),
    "keep": (KEEP, "keep-running mode", "keep-running mode (Python x2, Java x2)"),
}
DEFAULT_FIELDS = "cc:bwrap,mixed,keep"
GOAL_CC_BOXED = 2.5  # issue 23: the C/C++ field in the box, games per minute after / before the box's rewrite


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def finished_games(url: str) -> int:
    return sum(1 for game in httpx.get(f"{url}/api/games", timeout=30).json()["games"] if game["state"] == "finished")


def watch_finished(url: str, stop: threading.Event, seen: list[tuple[float, int]]) -> None:
    """Every second: (time, finished games), to time the first and the last game that finish in the window."""
    with httpx.Client(timeout=30) as client:
        while not stop.wait(1.0):
            try:
                games = client.get(f"{url}/api/games").json()["games"]
            except (httpx.HTTPError, ValueError, KeyError):
                continue
            seen.append((time.perf_counter(), sum(1 for game in games if game["state"] == "finished")))


def read_standings(url: str, stop: threading.Event, latencies: list[float]) -> None:
    with httpx.Client(timeout=30) as client:
        while not stop.is_set():
            start = time.perf_counter()
            response = client.get(f"{url}/api/standings")
            latencies.append(time.perf_counter() - start)
            response.raise_for_status()


def run_contest(folder: Path, bots: dict[str, str], args: Any, record: Record, label: str,
                readers: int = 0, sandbox: str | None = None) -> dict[str, Any]:
    """Games per minute of one contest (``rate``, with its counts and load averages); with ``readers``, the
    standings latency figures go to ``record``."""
    sandbox = sandbox or args.sandbox
    root = folder / "contest"
    created = subprocess.run([*MJARENA, "contest", "create", str(root), *(f"--team={team}" for team in bots),
                              "--duration", "600", "--sandbox", sandbox, "--uploads-per-minute", "60",
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
        # the window opens when the first game is over (the pipeline full), not while the first games still play
        warm_up = time.monotonic() + max(120.0, 4 * args.seconds)
        while finished_games(url) == 0 and time.monotonic() < warm_up:
            time.sleep(0.25)
        stop = threading.Event()
        latencies: list[float] = []
        threads = [threading.Thread(target=read_standings, args=(url, stop, latencies), daemon=True)
                   for _ in range(readers)]
        seen: list[tuple[float, int]] = []
        threads.append(threading.Thread(target=watch_finished, args=(url, stop, seen), daemon=True))
        load_before = load_average()
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
        load_after = load_average()
        # the same rate between the first and the last finish seen in the window (less quantized when few games)
        changes = [(moment, count) for (moment, count), (_, before) in zip(seen[1:], seen[:-1], strict=True)
                   if count > before]
        between = None
        if len(changes) >= 2 and changes[-1][0] > changes[0][0]:
            between = (changes[-1][1] - changes[0][1]) * 60 / (changes[-1][0] - changes[0][0])
        result = {"rate": rate, "games": games, "seconds": round(elapsed, 1), "sandbox": sandbox,
                  "rate_between_finishes": None if between is None else round(between, 2),
                  "load_average_before": load_before, "load_average_after": load_after}
        print(f"  {games} games in {elapsed:.0f} s: {rate:.1f} games per minute"
              + ("" if between is None else f" ({between:.1f} between the first and last finish seen)")
              + f"; load average {' '.join(map(str, load_before))} -> {' '.join(map(str, load_after))}")
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
    return result


def parse_fields(text: str, default_sandbox: str) -> list[tuple[str, str]]:
    """``cc:bwrap,mixed`` -> [("cc", "bwrap"), ("mixed", default_sandbox)]."""
    fields = []
    for item in text.split(","):
        name, _, sandbox = item.strip().partition(":")
        if not name:
            continue
        if name not in FIELDS:
            raise SystemExit(f"--fields: unknown field {name!r}: expected {', '.join(FIELDS)}")
        sandbox = sandbox or default_sandbox
        if sandbox not in ("bwrap", "none"):
            raise SystemExit(f"--fields: unknown sandbox {sandbox!r} for {name}: expected bwrap or none")
        if (name, sandbox) in fields:
            raise SystemExit(f"--fields: {name}:{sandbox} twice")
        fields.append((name, sandbox))
    if not fields:
        raise SystemExit("--fields: no field to run")
    return fields


def games_figure_name(field: str, sandbox: str) -> str:
    return f"games per minute, {FIELDS[field][1]}, sandbox {sandbox}"


def before_figures(path: str) -> dict[str, float]:
    """The contest figures (name: value) in an earlier ``--json`` file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    figures = data["benchmarks"]["contest"]["figures"]
    return {figure["name"]: figure["value"] for figure in figures}


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--seconds", type=float, default=60.0, help="how long each contest is measured (60)")
    arguments.add_argument("--fields", default=DEFAULT_FIELDS,
                           help=f"fields to run, each cc, mixed or keep, optionally :bwrap or :none ({DEFAULT_FIELDS})")
    arguments.add_argument("--workers", type=int, default=2, help="games at once (2)")
    arguments.add_argument("--readers", type=int, default=50, help="concurrent standings readers (50)")
    arguments.add_argument("--sandbox", choices=("bwrap", "none"), default="none",
                           help="where the bots of a field without its own :sandbox run (none)")
    arguments.add_argument("--repeat", type=int, default=1,
                           help="run the fields this many times, alternating their order; sum the games (1)")
    arguments.add_argument("--before", metavar="FILE", help="a --json file of an earlier run: ratios to its figures")
    args = arguments.parse_args()
    fields = parse_fields(args.fields, args.sandbox)
    before = before_figures(args.before) if args.before else {}
    record = Record("contest")
    print(machine_line())
    print(f"mjarena from {Path(mjarena.__file__).parent}")
    print(f"{args.workers} workers; fields {', '.join(f'{name}:{sandbox}' for name, sandbox in fields)}")
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {field: [] for field in fields}
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(args.repeat):
            # with --repeat, the fields alternate their order (A B, B A, ...): a drift in the load hits them alike
            for name, sandbox in fields if repeat % 2 == 0 else reversed(fields):
                bots, _, title = FIELDS[name]
                print(f"{title}, sandbox {sandbox}" + (f", run {repeat + 1} of {args.repeat}:" if args.repeat > 1
                                                       else ":"))
                # the standings figures keep their names of old: "keep-running: ..." (the first keep field only)
                first_keep = not any(runs[field] for field in fields if field[0] == "keep")
                label = "keep-running" if first_keep else f"keep-running {sandbox}"
                readers = args.readers if name == "keep" else 0
                # every keep run has its readers (they load the server alike); the first one's latency is recorded
                into = record if not runs[name, sandbox] else Record("contest, a repeat")
                runs[name, sandbox].append(run_contest(Path(folder) / f"{name}-{sandbox}-{repeat}", bots, args,
                                                       into, label, readers=readers, sandbox=sandbox))
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for (name, sandbox), done in runs.items():
        games, seconds = sum(run["games"] for run in done), sum(run["seconds"] for run in done)
        results[name, sandbox] = {"rate": games * 60 / seconds, "games": games, "seconds": round(seconds, 1),
                                  "runs": done}
        record.add(games_figure_name(name, sandbox), results[name, sandbox]["rate"], "games/min")
        record.note(f"{name}:{sandbox}", done[0] if len(done) == 1 else {"games": games, "seconds": seconds,
                                                                         "runs": done})
        if len(done) > 1:
            print(f"{FIELDS[name][2]}, sandbox {sandbox}: {games} games in {seconds:.0f} s over {len(done)} runs: "
                  f"{games * 60 / seconds:.1f} games per minute (runs: "
                  + ", ".join(f"{run['rate']:.1f}" for run in done) + ")")
    sandboxes = list(dict.fromkeys(sandbox for _, sandbox in fields))
    for sandbox in sandboxes:
        keep, restart = results.get(("keep", sandbox)), results.get(("mixed", sandbox))
        if keep and restart:
            # the figure of old (no sandbox in its name: the first box both fields ran in)
            old = "games per minute, keep-running / restart mode"
            taken = any(figure["name"] == old for figure in record.figures)
            figure = record.add(old if not taken else f"{old}, sandbox {sandbox}", keep["rate"], "games/min",
                                anchor=("restart mode, games/min", restart["rate"]))
            print(f"keep-running mode plays {figure['ratio']:.1f}x the games of restart mode ({keep['rate']:.1f} "
                  f"against {restart['rate']:.1f} per minute, sandbox {sandbox}; one after the other, not "
                  "interleaved)")
        cc, mixed = results.get(("cc", sandbox)), results.get(("mixed", sandbox))
        if cc and mixed:
            figure = record.add(f"games per minute, restart mode, C/C++ field / mixed field, sandbox {sandbox}",
                                cc["rate"], "games/min", anchor=("mixed field, games/min", mixed["rate"]))
            print(f"the C/C++ field plays {figure['ratio']:.1f}x the games of the mixed field ({cc['rate']:.1f} "
                  f"against {mixed['rate']:.1f} per minute, sandbox {sandbox}; not interleaved)")
    for name in FIELDS:
        boxed, bare = results.get((name, "bwrap")), results.get((name, "none"))
        if boxed and bare:
            figure = record.add(f"games per minute, {FIELDS[name][1]}, boxed / no box", boxed["rate"], "games/min",
                                anchor=("no box, games/min", bare["rate"]))
            print(f"{FIELDS[name][2]}: the box plays {figure['ratio']:.2f}x the games of no box ({boxed['rate']:.1f} "
                  f"against {bare['rate']:.1f} per minute; not interleaved)")
    for (name, sandbox), result in results.items():
        figure_name = games_figure_name(name, sandbox)
        if figure_name not in before:
            continue
        goal = (">=", GOAL_CC_BOXED) if (name, sandbox) == ("cc", "bwrap") else None
        figure = record.add(f"{figure_name}, this run / before", result["rate"], "games/min",
                            anchor=(f"before ({args.before}: another run), games/min", before[figure_name]), goal=goal)
        print(f"{FIELDS[name][2]}, sandbox {sandbox}: {figure['ratio']:.2f}x before ({result['rate']:.1f} against "
              f"{before[figure_name]:.1f} per minute, another run; see both load averages)"
              + ("" if goal is None else f"; goal >= {GOAL_CC_BOXED:g}: {'met' if figure['met'] else 'not met'}"))
    record.save(args.json)


if __name__ == "__main__":
    main()

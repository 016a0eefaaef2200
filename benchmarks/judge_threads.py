"""The judge's own CPU per game by thread, one 2,000-game Swiss tournament of 32 built-in bots on 2 workers.

    python benchmarks/judge_threads.py [--runs N]
    python benchmarks/trees.py BEFORE AFTER --repeat 3 -- judge_threads.py   # two trees in turn

The figure of issue 47 (``resource.getrusage(RUSAGE_SELF)`` around the run, the pool started and warmed up before)
and where it goes: the main loop (``time.thread_time``), the group commit's thread, and the pool's own threads
(its manager, which takes the results from the workers, and the queue's feeder, which sends them the tasks), read
from ``/proc/self/task`` (Linux).  Medians of ``--runs`` runs in one pool; the wall time beside them.
"""

from __future__ import annotations

import io
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import Record, machine_line, median, parser

import mjarena.arena.results_file as results_file
from mjarena.arena.executors import LocalExecutor
from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings


def bots(count: int) -> list[Entrant]:
    return [Entrant(f"{kind}{i}", f"builtin:{kind}") for i in range(count // 2) for kind in ("greedy", "random")]


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def threads_cpu() -> dict[str, float]:
    """Each live thread's CPU seconds by its name (Linux's /proc; empty elsewhere)."""
    tick, seconds = os.sysconf("SC_CLK_TCK"), {}
    for thread in threading.enumerate():
        try:
            with open(f"/proc/self/task/{thread.native_id}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[thread.name] = (int(fields[11]) + int(fields[12])) / tick
    return seconds


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--runs", type=int, default=3)
    args = arguments.parse_args()
    commits: list[float] = []
    loop = results_file.GroupCommit._loop

    def timed_loop(self: results_file.GroupCommit) -> None:  # the commit thread ends with the run: timed inside
        start = time.thread_time()
        try:
            loop(self)
        finally:
            commits.append(time.thread_time() - start)

    results_file.GroupCommit._loop = timed_loop  # type: ignore[method-assign]
    settings = Settings.create(bots(32), rounds=10, games_per_table=25, seed=2014)
    games = settings.total_games
    figures: dict[str, list[float]] = {}
    print(machine_line())
    with LocalExecutor(2) as pool:
        with tempfile.TemporaryDirectory() as folder:  # the pool started and timed
            Tournament(Settings.create(bots(8), rounds=1, games_per_table=4, seed=1), folder).run(
                pool, progress=False, log=io.StringIO())
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                commits.clear()
                before, main_cpu, cpu, wall = threads_cpu(), time.thread_time(), process_cpu(), time.perf_counter()
                Tournament(settings, folder).run(pool, progress=False, log=io.StringIO())
                wall, cpu = time.perf_counter() - wall, process_cpu() - cpu
                main_cpu = time.thread_time() - main_cpu
                after = threads_cpu()
            run = {"judge": cpu, "main loop": main_cpu, "group commit": sum(commits)}
            for name in ("Thread-1", "QueueFeederThread"):
                if name in after:
                    label = "pool manager" if name == "Thread-1" else "pool feeder"
                    run[label] = after[name] - before.get(name, 0.0)
            for name, seconds in run.items():
                figures.setdefault(name, []).append(seconds * 1000 / games)
            figures.setdefault("wall s", []).append(wall)
            print(f"  judge {cpu * 1000 / games:.4f} ms a game, wall {wall:.1f} s, load {os.getloadavg()[0]:.1f}",
                  flush=True)
    record = Record("judge_threads")
    print(f"{games} games, 2 workers, medians of {args.runs} runs (ms a game; wall in seconds):")
    for name, values in figures.items():
        print(f"  {name:>13}: {median(values):.4f}")
        record.add(f"{name}, ms a game" if name != "wall s" else "wall seconds", median(values),
                   "s" if name == "wall s" else "ms", goal=("<=", 0.1) if name == "judge" else None)
    record.save(args.json)


if __name__ == "__main__":
    main()

"""Tournament throughput: two local workers against one, beside what two processes get on this machine at all.

    python benchmarks/tournament.py [--rounds R] [--games-per-table K] [--repeat N] [--ray] [--json FILE]

Every run is a fresh round-robin tournament of 8 built-in bots (2 tables a round) in a temporary folder, with
everything a real run does: the schedule, replays written, one fsync'ed line per game (committed in groups),
standings after each round.  The pools are started and warmed up first (process start is not in the figure).

Figure: the speed-up of 2 workers over 1 worker (goal >= 1.8x), measured in alternating rounds (1, 2, 2, 1, ...;
medians).  Beside it, in the same rounds, two ceilings: the same games played by 2 bare processes in fixed halves
against 1 (no tournament around them: what this workload itself gets from a second core, caches and memory
shared), and a tight pure-Python loop in 2 processes against 1 (2.0 on two free cores; less when other work
shares them).  The speed-up is also given as a share of the first.  The serial part of a tournament (the
schedule, the standings) is timed apart.  ``--ray``: Ray's per-game overhead against the local pool with 2
workers (``ray.init`` timed apart).
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import Record, interleave, machine_line, median, parser

from mjarena.arena.executors import Executor, LocalExecutor, make_executor
from mjarena.arena.schedules import round_robin_schedule
from mjarena.arena.standings import compute_standings
from mjarena.arena.tournament import GameTask, Tournament, play_game
from mjarena.arena.tournament_settings import Entrant, Settings

BOTS = [Entrant(f"{kind}{i}", f"builtin:{kind}") for i in range(4) for kind in ("greedy", "random")]


def timed_run(settings: Settings, executor: Executor) -> float:
    """Seconds to open and play the whole tournament on ``executor`` (already started) in a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        Tournament(settings, folder).run(executor, progress=False, log=io.StringIO())
        return time.perf_counter() - start


def _burn(count: int) -> int:
    total = 0
    for i in range(count):
        total += i * i
    return total


def burn_time(pool: ProcessPoolExecutor, units: int) -> float:
    """Seconds for ``pool`` to burn ``units`` units of pure-Python work (one unit per task)."""
    start = time.perf_counter()
    list(pool.map(_burn, [3_000_000] * units))
    return time.perf_counter() - start


def _play_all(tasks: list[GameTask]) -> int:
    for task in tasks:
        play_game(task)
    return len(tasks)


def bare_games_time(pool: ProcessPoolExecutor, tasks: list[GameTask], workers: int) -> float:
    """Seconds for ``workers`` processes to play ``tasks`` in fixed shares (task i by process i % workers), with
    no tournament around them: no scheduling, no results sent back, no journal, no standings."""
    start = time.perf_counter()
    list(pool.map(_play_all, [tasks[i::workers] for i in range(workers)]))
    return time.perf_counter() - start


def serial_seconds(settings: Settings) -> tuple[float, float]:
    """(schedule, standings after the last round) in seconds: the main process's work that no worker shares."""
    start = time.perf_counter()
    round_robin_schedule(settings.names, settings.rounds, settings.seed)
    schedule = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        pool = LocalExecutor(1)
        try:
            tournament = Tournament(settings, folder)
            tournament.run(pool, progress=False, log=io.StringIO())
        finally:
            pool.close()
        start = time.perf_counter()
        compute_standings(settings, tournament.records)
        return schedule, time.perf_counter() - start


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--rounds", type=int, default=4)
    arguments.add_argument("--games-per-table", type=int, default=40, help="(2 tables: games per round / 2)")
    arguments.add_argument("--repeat", type=int, default=4, help="alternating rounds (default 4)")
    arguments.add_argument("--ray", action="store_true", help="also time the Ray executor (starts Ray: ~5 s)")
    args = arguments.parse_args()
    record = Record("tournament")
    settings = Settings.create(BOTS, format="round-robin", rounds=args.rounds, games_per_table=args.games_per_table,
                               seed=2014)
    games = settings.total_games
    print(machine_line())
    print(f"tournament: {len(BOTS)} built-in bots, round-robin, {args.rounds} rounds, {games} games; "
          f"{args.repeat} alternating rounds, medians")
    pools = {workers: LocalExecutor(workers) for workers in (1, 2)}
    burners = {workers: ProcessPoolExecutor(workers) for workers in (1, 2)}
    folder = tempfile.TemporaryDirectory()
    games_alone = Tournament(settings, folder.name)
    tasks = [task for round_no in range(1, args.rounds + 1) for task in games_alone.tasks(round_no, sync_replays=False)]
    try:
        for workers, pool in pools.items():  # start the processes and warm them up
            timed_run(Settings.create(BOTS, rounds=1, seed=1), pool)
            burn_time(burners[workers], workers)
            bare_games_time(burners[workers], tasks[:8], workers)
        times = interleave({
            "1 worker": lambda: timed_run(settings, pools[1]),
            "2 workers": lambda: timed_run(settings, pools[2]),
            "burn, 1 process": lambda: burn_time(burners[1], 8),
            "burn, 2 processes": lambda: burn_time(burners[2], 8),
            "games alone, 1 process": lambda: bare_games_time(burners[1], tasks, 1),
            "games alone, 2 processes": lambda: bare_games_time(burners[2], tasks, 2),
        }, args.repeat)
    finally:
        folder.cleanup()
        for executor in pools.values():
            executor.close()
        for burner in burners.values():
            burner.shutdown()
    one, two = median(times["1 worker"]), median(times["2 workers"])
    ceiling = median(times["burn, 1 process"]) / median(times["burn, 2 processes"])
    speedup = record.add("2 workers / 1 worker, games per second", one / two, "x", goal=(">=", 1.8))
    record.add("2 processes / 1 process, pure-Python burn (the machine's ceiling now)", ceiling, "x")
    alone = median(times["games alone, 1 process"]) / median(times["games alone, 2 processes"])
    record.add("the same games alone, 2 processes / 1 (the workload's own ceiling here)", alone, "x")
    share = record.add("speed-up as a share of the workload's ceiling", speedup["value"] / alone, "fraction")
    record.add("1 worker", games / one, "games/s")
    record.add("2 workers", games / two, "games/s")
    schedule, standings = serial_seconds(settings)
    record.add("serial: the round-robin schedule", schedule * 1000, "ms")
    record.add("serial: standings after the last round", standings * 1000, "ms")
    print(f"speed-up with 2 workers: {speedup['value']:.2f}x (goal >= 1.8x); in the same rounds, the same games "
          f"played by 2 bare processes in fixed halves: {alone:.2f}x, so the tournament gets {share['value']:.0%} of "
          f"what the workload itself gets from a second core; a tight pure-Python loop: {ceiling:.2f}x")
    print(f"  1 worker {games / one:6.1f} games/s ({one * 1000 / games:.2f} ms/game), 2 workers "
          f"{games / two:6.1f} games/s; runs 1: {', '.join(f'{t:.2f}' for t in times['1 worker'])} s, "
          f"2: {', '.join(f'{t:.2f}' for t in times['2 workers'])} s")
    print(f"  serial work of the main process: schedule {schedule * 1000:.0f} ms once, standings "
          f"{standings * 1000:.0f} ms per round (all games so far)")
    if args.ray:
        ray_overhead(settings, games / two, record)
    record.save(args.json)


def ray_overhead(settings: Settings, local_rate: float, record: Record) -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        print("ray: not installed (pip install 'mjarena[ray]'), skipped")
        return
    start = time.perf_counter()
    pool = make_executor("ray", 2)
    started = time.perf_counter() - start
    try:
        timed_run(Settings.create(BOTS, rounds=1, seed=1), pool)
        seconds = median([timed_run(settings, pool) for _ in range(3)])
    finally:
        pool.close()
    per_game = seconds / settings.total_games
    record.add("ray, 2 CPUs, per game beyond the local pool with 2 workers", (per_game - 1 / local_rate) * 1000, "ms")
    print(f"ray, 2 CPUs: {1 / per_game:7.1f} games/s ({(per_game - 1 / local_rate) * 1000:+.2f} ms/game vs the "
          f"local pool with 2 workers, not interleaved); ray.init took {started:.1f} s")


if __name__ == "__main__":
    main()

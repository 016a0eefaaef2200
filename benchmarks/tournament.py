"""Tournament throughput: the judge's own CPU per game, and the speed-up of 1, 2, 4, ... workers up to the machine's
cores beside what that many bare processes get from the same games.

    python benchmarks/tournament.py [--bots N] [--rounds R] [--games-per-table K] [--repeat N] [--max-workers W]
                                    [--ray] [--json FILE]

Every run is a fresh Swiss tournament of built-in bots (half ``greedy``, half ``random``) in a temporary folder,
with everything a real run does: the pairing, replays written, lines of ``games.jsonl`` committed in groups,
standings after each round.  The pools are started and warmed up first (process start is not in the figures).

Figures, for each worker count, in alternating rounds (medians):

- the judge's own CPU per game: ``resource.getrusage(RUSAGE_SELF)`` of this process (all its threads: the loop,
  the pool's threads, the group commit) around the run, over the games (goal at 2 workers: <= 0.1 ms);
- the speed-up over 1 worker, games per second;
- the ceiling beside it, in the same rounds: the same games (the schedule of a finished run) played by that many
  bare processes in fixed shares, writing their replays, with no judge around them: what the workload itself
  gets from that many cores here (caches and memory shared, the machine's other load);
- the speed-up as a share of that ceiling.

``--ray``: Ray's per-game overhead against the local pool with 2 workers (``ray.init`` timed apart).
"""

from __future__ import annotations

import io
import os
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import Record, interleave, machine_line, median, parser

from mjarena.arena.executors import Executor, LocalExecutor, make_executor
from mjarena.arena.tournament import GameTask, Tournament, play_game
from mjarena.arena.tournament_settings import Entrant, Settings


def bots(count: int) -> list[Entrant]:
    return [Entrant(f"{kind}{i}", f"builtin:{kind}") for i in range(count // 2) for kind in ("greedy", "random")]


def cpu_seconds() -> float:
    """This process's CPU seconds, all its threads (not its workers)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed_run(settings: Settings, executor: Executor) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds) to open and play the whole tournament on ``executor`` (already
    started) in a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        cpu, start = cpu_seconds(), time.perf_counter()
        Tournament(settings, folder).run(executor, progress=False, log=io.StringIO())
        return time.perf_counter() - start, cpu_seconds() - cpu


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


def worker_counts(most: int) -> list[int]:
    """1, 2, 4, ... up to ``most``, and ``most`` itself.

    >>> worker_counts(2), worker_counts(6), worker_counts(16)
    ([1, 2], [1, 2, 4, 6], [1, 2, 4, 8, 16])
    """
    counts = [1]
    while counts[-1] * 2 <= most:
        counts.append(counts[-1] * 2)
    return counts if counts[-1] == most else [*counts, most]


def schedule(settings: Settings, folder: str) -> list[GameTask]:
    """Every game of a finished run of ``settings`` in ``folder``, as tasks that write their replays there
    (unsynced, as the tournament's workers write them)."""
    with LocalExecutor(1) as pool:
        tournament = Tournament(settings, folder)
        tournament.run(pool, progress=False, log=io.StringIO())
    return [task for round_no in range(1, settings.rounds + 1)
            for task in tournament.tasks(round_no, sync_replays=False)]


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--bots", type=int, default=32, help="entrants (a multiple of 4: no house bots)")
    arguments.add_argument("--rounds", type=int, default=4)
    arguments.add_argument("--games-per-table", type=int, default=25)
    arguments.add_argument("--repeat", type=int, default=3, help="alternating rounds (default 3)")
    arguments.add_argument("--max-workers", type=int, default=os.cpu_count() or 1)
    arguments.add_argument("--ray", action="store_true", help="also time the Ray executor (starts Ray: ~5 s)")
    args = arguments.parse_args()
    record = Record("tournament")
    settings = Settings.create(bots(args.bots), rounds=args.rounds, games_per_table=args.games_per_table, seed=2014)
    games = settings.total_games
    counts = worker_counts(args.max_workers)
    print(machine_line())
    print(f"tournament: {args.bots} built-in bots, Swiss, {args.rounds} rounds, {games} games; workers "
          f"{', '.join(map(str, counts))}; {args.repeat} alternating rounds, medians")
    pools = {workers: LocalExecutor(workers) for workers in counts}
    bare = {workers: ProcessPoolExecutor(workers) for workers in counts}
    folder = tempfile.TemporaryDirectory()
    runs: dict[int, list[tuple[float, float]]] = {workers: [] for workers in counts}
    try:
        tasks = schedule(settings, folder.name)
        for workers in counts:  # start the processes and warm them up
            timed_run(Settings.create(bots(8), rounds=1, games_per_table=2 * workers, seed=1), pools[workers])
            bare_games_time(bare[workers], tasks[:2 * workers], workers)

        def tournament(workers: int) -> float:
            runs[workers].append(timed_run(settings, pools[workers]))
            return runs[workers][-1][0]

        contenders = {}
        for workers in counts:
            contenders[f"tournament, {workers}"] = lambda workers=workers: tournament(workers)
            contenders[f"bare, {workers}"] = lambda workers=workers: bare_games_time(bare[workers], tasks, workers)
        times = interleave(contenders, args.repeat)
    finally:
        folder.cleanup()
        for executor in pools.values():
            executor.close()
        for processes in bare.values():
            processes.shutdown()
    one, bare_one = median(times["tournament, 1"]), median(times["bare, 1"])
    print(f"{'workers':>7}  {'games/s':>8}  {'speed-up':>8}  {'bare processes':>14}  {'share':>6}  "
          f"{'judge CPU/game':>14}")
    for workers in counts:
        seconds, bare_seconds = median(times[f"tournament, {workers}"]), median(times[f"bare, {workers}"])
        parent = median([cpu for _wall, cpu in runs[workers]]) * 1000 / games
        speedup, ceiling = one / seconds, bare_one / bare_seconds
        record.add(f"{workers} workers / 1 worker, games per second", speedup, "x",
                   anchor=(f"{workers} bare processes / 1", ceiling))
        record.add(f"{workers} workers, the judge's own CPU per game", parent, "ms",
                   goal=("<=", 0.1) if workers == 2 else None)
        record.add(f"{workers} workers", games / seconds, "games/s")
        print(f"{workers:>7}  {games / seconds:>8.1f}  {speedup:>7.2f}x  {ceiling:>13.2f}x  {speedup / ceiling:>6.0%}  "
              f"{parent:>11.3f} ms")
    print("  speed-up: games per second over 1 worker; bare processes: the same games in that many processes with "
          "no judge (the ceiling here now); judge CPU/game: this process's getrusage over the run, per game")
    if args.ray:
        ray_overhead(settings, games / median(times[f"tournament, {counts[min(1, len(counts) - 1)]}"]), record)
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
        timed_run(Settings.create(bots(8), rounds=1, seed=1), pool)
        seconds = median([timed_run(settings, pool)[0] for _ in range(3)])
    finally:
        pool.close()
    per_game = seconds / settings.total_games
    record.add("ray, 2 CPUs, per game beyond the local pool with 2 workers", (per_game - 1 / local_rate) * 1000, "ms")
    print(f"ray, 2 CPUs: {1 / per_game:7.1f} games/s ({(per_game - 1 / local_rate) * 1000:+.2f} ms/game vs the "
          f"local pool with 2 workers, not interleaved); ray.init took {started:.1f} s")


if __name__ == "__main__":
    main()

"""Tournament throughput: games per second with 1 and 2 local workers, and the Ray executor's overhead per game.

    python benchmarks/tournament.py [--rounds R] [--games-per-table K]

Every run is a fresh round-robin tournament of 8 built-in bots (2 tables a round) in a temporary folder, with
everything a real run does: replays written, one fsync'ed line per game, standings after each round.  The
speed-up with 2 workers is measured against 1 worker of the same pool (the target is 1.8x on 2 cores).  Ray's
start-up (``ray.init``) is timed apart from its per-game overhead, which is compared with the local pool at the
same number of workers.  The machine's own ceiling (two CPU-bound processes against one) is printed too: on a
VM whose two vCPUs share one core's time no executor can go faster than 1x.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import describe

from mjarena.arena.executors import Executor, LocalExecutor, make_executor
from mjarena.arena.tournament import Entrant, Settings, Tournament

BOTS = [Entrant(f"{kind}{i}", f"builtin:{kind}") for i in range(4) for kind in ("greedy", "random")]


def timed_run(settings: Settings, executor: Executor) -> float:
    """Seconds to play the whole tournament on ``executor`` (already started) in a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        tournament = Tournament(settings, folder)
        start = time.perf_counter()
        tournament.run(executor, progress=False, log=io.StringIO())
        return time.perf_counter() - start


def _burn(count: int) -> int:
    total = 0
    for i in range(count):
        total += i * i
    return total


def parallel_ceiling() -> float:
    """How much faster 2 processes do 2 units of pure-Python work than 1 process: the best speed-up this
    machine allows (2.0 on two real cores; about 1.0 where two vCPUs share one core's time)."""
    from concurrent.futures import ProcessPoolExecutor

    times = {}
    for workers in (1, 2):
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_burn, [10] * workers))
            start = time.perf_counter()
            list(pool.map(_burn, [3_000_000] * 4))
            times[workers] = time.perf_counter() - start
    return times[1] / times[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games-per-table", type=int, default=40, help="(with 2 tables: games per round / 2)")
    args = parser.parse_args()
    settings = Settings.create(BOTS, format="round-robin", rounds=args.rounds, games_per_table=args.games_per_table,
                               seed=2014)
    games = settings.total_games
    print(f"machine: {describe()}")
    print(f"tournament: {len(BOTS)} built-in bots, round-robin, {args.rounds} rounds, {games} games")
    rates = {}
    for workers in (1, 2):
        pool = LocalExecutor(workers)
        try:
            timed_run(Settings.create(BOTS, rounds=1, seed=1), pool)  # warm the workers up
            seconds = min(timed_run(settings, pool) for _ in range(3))
        finally:
            pool.close()
        rates[workers] = games / seconds
        print(f"local, {workers} worker(s): {rates[workers]:7.1f} games/s  ({seconds * 1000 / games:.2f} ms/game)")
    ceiling = parallel_ceiling()
    print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x (target >= 1.8x); this machine's ceiling for "
          f"2 CPU-bound processes: {ceiling:.2f}x, so {rates[2] / rates[1] / ceiling:.0%} of what it allows")
    try:
        import ray  # noqa: F401
    except ImportError:
        print("ray: not installed (pip install 'mjarena[ray]'), skipped")
        return
    start = time.perf_counter()
    ray_pool = make_executor("ray", 2)
    started = time.perf_counter() - start
    try:
        timed_run(Settings.create(BOTS, rounds=1, seed=1), ray_pool)
        seconds = min(timed_run(settings, ray_pool) for _ in range(3))
    finally:
        ray_pool.close()
    per_game = seconds / games
    overhead = per_game - 1 / rates[2]
    print(f"ray, 2 CPUs: {games / seconds:7.1f} games/s  ({per_game * 1000:.2f} ms/game; "
          f"{overhead * 1000:+.2f} ms/game vs the local pool with 2 workers); ray.init took {started:.1f} s")


if __name__ == "__main__":
    main()

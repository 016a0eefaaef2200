"""Contest games a minute on a Ray cluster of one node and of two (one CPU each), as a ratio.

    python benchmarks/ray_cluster.py [--rounds R] [--json FILE]

Needs root (it runs itself in network, pid and mount namespaces, loopback only, as tests/test_ray_cluster.py's
cluster does; everything it starts dies with them), g++ and Node.js.  The contest is that test's: eight teams of
Python, JavaScript and C++ bots, two tables a round, 3 games a table; the far node sees no contest folder (its
builds are sent to it).  Phases, in order: the head alone, head and far node, the head alone again (the far node
killed): the two one-node phases bracket the two-node one, so a drift in the machine's load shows.  Figure: the
games a minute of two nodes over the mean of the two one-node phases; beside it, its ceiling on this machine at
the time: a pure-Python loop in two processes over one, measured before and after (2.0 on two free cores).  The
far node is killed between rounds, but the judge may still have a worker of it leased: a game sent to it then
is a judge error and played again (counted in the one-node phase after).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _bench import Record, machine_line, parser  # noqa: E402


def games_a_minute(server: object, rounds: int) -> float:
    """Play ``rounds`` whole rounds; their games a minute."""
    scheduler = server.scheduler  # type: ignore[attr-defined]
    db = scheduler.contest.db
    start = time.perf_counter()
    games = 0
    for _ in range(rounds):
        assert scheduler.step()  # plans the round
        number = db.rounds()[-1][0]
        while db.rounds()[-1][2] is None:
            scheduler.step()
        games += len(db.games(round_no=number))
    return games * 60.0 / (time.perf_counter() - start)


def _spin(count: int) -> int:
    total = 0
    for value in range(count):
        total += value * value
    return total


def two_processes_over_one(count: int = 3_000_000) -> float:
    """What a second process gets on this machine now: the rate of a pure-Python loop in 2 processes over 1
    (2.0 on two free cores)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [1000, 1000]))
        start = time.perf_counter()
        pool.submit(_spin, count).result()
        one = time.perf_counter() - start
        start = time.perf_counter()
        list(pool.map(_spin, [count, count]))
        two = time.perf_counter() - start
    return 2 * one / two


def inside(rounds: int, json_file: str | None) -> None:
    from mjarena.arena.executors import RayExecutor
    from mjarena.contest.scheduler import Scheduler
    from ray_cluster_scenario import (
        PORT,
        cluster_env,
        make_contest,
        private_temp,
        start_far_node,
        start_head,
        wait_for_nodes,
    )

    cluster_env()
    work = Path(tempfile.mkdtemp(prefix="mjbench-"))
    try:
        ray_temp = private_temp()
        start_head(ray_temp, work / "head-cache", work / "head.log")
        server = make_contest(work / "contest", games_per_table=3)
        executor = RayExecutor(2, address=f"127.0.0.1:{PORT}")
        server.scheduler = Scheduler(server.contest, executor, 2, clock=server.clock, retry=0.0)
        games_a_minute(server, 1)  # warm: every build unpacked on the head, workers started
        spare = [two_processes_over_one()]
        one_before = games_a_minute(server, rounds)
        far = start_far_node(ray_temp, work / "far-cache", work / "contest", work / "far.log")
        wait_for_nodes(2, far, work / "far.log")
        checked = executor.check_nodes()  # the far node plays once it passed its check
        games_a_minute(server, 1)  # warm the far node likewise
        two = games_a_minute(server, rounds)
        os.kill(far.pid, signal.SIGKILL)
        far.wait()
        import ray

        while len([node for node in ray.nodes() if node["Alive"]]) > 1:
            time.sleep(0.3)
        one_after = games_a_minute(server, rounds)
        spare.append(two_processes_over_one())
        errors = len(server.contest.db.judge_errors())
        executor.close(cancel=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    one = (one_before + one_after) / 2
    record = Record("ray_cluster")
    ceiling = sum(spare) / len(spare)
    record.add("two_nodes_over_one", two / one, "x", anchor=("one node", 1.0))
    record.add("two_processes_over_one", ceiling, "x", anchor=("one process", 1.0))
    record.note("games_a_minute", {"one_before": round(one_before, 1), "two": round(two, 1),
                                   "one_after": round(one_after, 1)})
    record.note("nodes", [{key: row[key] for key in ("state", "ratio", "slots", "head")} for row in checked])
    print(f"two nodes / one node: {two / one:.2f}x  (games a minute: one {one_before:.1f}, two {two:.1f}, "
          f"one again {one_after:.1f}; {rounds} rounds of 6 games each; judge errors {errors})")
    print(f"beside it, what a second process gets on this machine now (a Python loop, 2 processes / 1): "
          f"{ceiling:.2f}x")
    print("nodes checked: " + ", ".join(f"{'head' if row['head'] else 'far'} {row['state']}, canary "
                                        f"x{row['ratio'] or 0:.2f} of the head's" for row in checked))
    print(machine_line())
    record.save(json_file)


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--rounds", type=int, default=3)
    arguments.add_argument("--inside", action="store_true", help=("(internal: already in the namespaces)"))
    args = arguments.parse_args()
    if args.inside:
        inside(args.rounds, args.json)
        return
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        sys.exit("benchmarks/ray_cluster.py needs root and unshare(1) (network, pid and mount namespaces)")
    command = ["unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child", sys.executable, __file__,
               "--inside", "--rounds", str(args.rounds)]
    if args.json:
        command += ["--json", str(Path(args.json).resolve())]
    sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()

"""The two-node Ray cluster of test_ray_cluster.py, run inside namespaces of its own; prints what it saw as JSON.

Run only by that test, as ``unshare --net --pid --fork --mount-proc --kill-child python ray_cluster_scenario.py
WORK``: the network namespace has loopback alone (Ray listens on 127.0.0.1; nothing goes to the machine's own
address), and every process started here (the head, the far node, their workers and bots) dies with the namespace.

1. ``ray start --head`` (one CPU), and a far node (one CPU) in a mount and pid namespace of its own whose view of
   the contest folder is an empty tmpfs: it has no shared file system with the judge, as another machine.
2. A contest of eight teams (Python, JavaScript and C++ bots, built on the judge's machine), two tables a
   round, played by the scheduler on the :class:`~mjarena.arena.executors.RayExecutor`; once the far node has
   started a game, it is killed (its namespace, with its raylet, worker and bots), and the round is played on.
3. A second round is started and the judge stopped as the server stops it (the scheduler, then the executor,
   cancelling), while a game runs.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

PORT = 6391
FAR_NODE = "far-node"
PY_BOT = (Path(__file__).parent / "bots" / "contest_bot.py").read_text()
JS_BOT = r"""
const lines = require('readline').createInterface({input: process.stdin});
let hand = [];
let first = true;
lines.on('line', (line) => {
  let request;
  if (first) {
    first = false;
    const query = JSON.parse(line);
    for (const r of query.requests) if (r.startsWith('1 ')) hand = r.split(' ').slice(1);
    request = query.requests[query.requests.length - 1];
  } else {
    request = JSON.parse(line);
  }
  const words = request.split(' ');
  if (words[0] === '1') hand = words.slice(1);
  const response = words[0] === '2' ? 'PLAY ' + words[1] : words[0] === '4' ? hand.join(' ') : 'PASS';
  process.stdout.write(JSON.stringify({response}) + '\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n');
});
"""
C_BOT = r"""
#include <iostream>
#include <string>
#include <vector>
// restart mode: the whole query on one line; keeps the dealt hand, plays what it draws
int main() {
    std::string line, hand, last;
    std::getline(std::cin, line);
    size_t at = line.find("\"requests\"");
    size_t end = line.find(']', at);
    std::vector<std::string> requests;
    for (size_t i = line.find('"', line.find('[', at)); i != std::string::npos && i < end;) {
        size_t close = line.find('"', i + 1);
        requests.push_back(line.substr(i + 1, close - i - 1));
        i = line.find('"', close + 1);
    }
    for (auto &r : requests) if (r.rfind("1 ", 0) == 0) hand = r.substr(2);
    last = requests.back();
    std::string response = last[0] == '2' ? "PLAY " + last.substr(2) : last[0] == '4' ? hand : "PASS";
    std::cout << "{\"response\":\"" << response << "\"}" << std::endl;
}
"""
TEAMS = {"red": ("bot.py", PY_BOT), "blue": ("bot.js", JS_BOT), "green": ("bot.cpp", C_BOT),
         "gold": ("bot.cpp", C_BOT), "jade": ("bot.py", PY_BOT), "teal": ("bot.js", JS_BOT),
         "pink": ("bot.cpp", C_BOT), "gray": ("bot.py", PY_BOT)}


def ray_processes() -> dict[int, str]:
    """The Ray processes of this pid namespace: pid -> command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            words = Path("/proc", entry, "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        line = b" ".join(words).decode(errors="replace")
        if "ray" in line and ("raylet" in line or "gcs_server" in line or "ray::" in line or "default_worker" in line
                              or "dashboard" in line or "runtime_env" in line):
            found[int(entry)] = line[:160]
    return found


def _nodes(db: Any) -> dict[int, str]:
    """The host of the node that played each finished game, from its replay (``HOST/NODEID``)."""
    return {game_id: json.loads(replay)["contest"]["node"].split("/")[0] for game_id, replay in db.finished_replays()}


def _round_record(db: Any) -> list[Any]:
    """Round 1's games as comparable: wall seed, seats' results, and the replay's wall and events."""
    record = []
    for game in db.games(round_no=1):
        replay = json.loads(db.replay(game.id))
        record.append((game.id, game.wall_seed, [(seat.team, seat.status, seat.points) for seat in game.seats],
                       replay["wall"], replay["events"]))
    return record


def _same_round(server: Any, twin_root: Path) -> bool:
    """Play round 1 of the twin contest (a copy made before any game) here, in-process, and compare."""
    from mjarena.contest.model import Contest
    from mjarena.contest.scheduler import Scheduler
    from test_contest import Inline

    twin = Contest.open(twin_root)
    scheduler = Scheduler(twin, Inline(), 1, clock=server.clock)
    scheduler.step()
    scheduler.step()
    scheduler._games.shutdown(wait=True)  # its game threads gone: only the judge's are looked for at the stop
    return _round_record(twin.db) == _round_record(server.contest.db) != []


def _parent(pid: int) -> int | None:
    try:
        return int(Path("/proc", str(pid), "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def processes_naming(*marks: str) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                line = Path("/proc", entry, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if any(mark in line for mark in marks):
                found.append(line[:160])
    return found


def private_temp() -> Path:
    """Ray's folder: a tmpfs on /mnt in this mount namespace (a short path: Ray's socket paths must fit in 107
    bytes), gone with the namespace however the run ends."""
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/mnt"], check=True)
    return Path("/mnt/ray")


def cluster_env() -> None:
    """Loopback up, and the environment every Ray process here gets: a token of its own, fast health checks."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    os.environ.update({
        "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_health_check_period_ms": "500", "RAY_health_check_timeout_ms": "500",
        "RAY_health_check_failure_threshold": "4", "RAY_DEDUP_LOGS": "0",
    })


def ray_options(ray_temp: Path) -> list[str]:
    return ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--temp-dir", str(ray_temp), "--disable-usage-stats"]


RAY_BIN = str(Path(sys.executable).parent / "ray")


def start_head(ray_temp: Path, cache: Path, log: Path) -> None:
    """``ray start --head`` (one CPU) on 127.0.0.1:PORT, its workers unpacking builds into ``cache``."""
    with open(log, "w") as out:
        subprocess.run([RAY_BIN, "start", "--head", f"--port={PORT}", "--include-dashboard=false",
                        *ray_options(ray_temp)], env={**os.environ, "MJARENA_SHIPPED": str(cache)},
                       stdout=out, stderr=out, check=True)


def start_far_node(ray_temp: Path, cache: Path, hidden: Path, log: Path) -> subprocess.Popen[bytes]:
    """A node of one CPU, called ``far-node``, in a mount, UTS and pid namespace of its own where ``hidden`` is an
    empty tmpfs; killing the process returned kills the node (its namespace)."""
    hidden.mkdir(parents=True, exist_ok=True)
    script = (f'mount -t tmpfs tmpfs "$1" && hostname {FAR_NODE} && exec "$2" start --address=127.0.0.1:{PORT} '
              "--block " + " ".join(f"'{word}'" for word in ray_options(ray_temp)))
    with open(log, "w") as out:
        command = ["unshare", "--mount", "--uts", "--pid", "--fork", "--mount-proc", "--kill-child", "sh", "-c",
                   script, "far", str(hidden), RAY_BIN]
        return subprocess.Popen(command, env={**os.environ, "MJARENA_SHIPPED": str(cache)},
                                stdout=out, stderr=out)


def make_contest(root: Path, **settings: Any) -> Any:
    """test_contest's contest of the eight TEAMS, each bot built (on the judge's machine)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_contest import Server

    server = Server(root, teams=list(TEAMS), **settings)
    for team, (name, text) in TEAMS.items():
        response = server.upload(team, text.encode(), name=name)
        assert response.status_code == 201, response.text
    return server


def wait_for_nodes(count: int, far: subprocess.Popen[bytes], log: Path) -> None:
    import ray

    deadline = time.monotonic() + 60
    while len([node for node in ray.nodes() if node["Alive"]]) < count:
        assert time.monotonic() < deadline, "the far node did not join"
        assert far.poll() is None, log.read_text()[-2000:]
        time.sleep(0.3)


def main(work: Path, ray_temp: Path) -> dict[str, Any]:
    cluster_env()
    facts: dict[str, Any] = {"steps": []}
    started = time.monotonic()

    def step(what: str) -> None:
        facts["steps"].append(f"{time.monotonic() - started:6.1f} s {what}")

    contest_root = work / "contest"
    head_cache, far_cache = work / "head-cache", work / "far-cache"
    logs = work / "logs"
    logs.mkdir()
    start_head(ray_temp, head_cache, logs / "head.log")
    step("head started")

    from mjarena.arena.executors import RayExecutor
    from mjarena.arena.node_check import NodeCheck
    from mjarena.contest.scheduler import Scheduler

    server = make_contest(contest_root, games_per_table=2)
    facts["built"] = len(server.contest.db.current_submissions())
    step("contest built")
    twin_root = work / "twin"  # the same contest (the same secret, the same builds), to be played on one machine
    shutil.copytree(contest_root, twin_root, ignore=shutil.ignore_patterns("contest.db*", "serve.lock"))
    with sqlite3.connect(contest_root / "contest.db") as source, sqlite3.connect(twin_root / "contest.db") as copy:
        source.backup(copy)
    far = start_far_node(ray_temp, far_cache, contest_root, logs / "far.log")

    executor = RayExecutor(2, address=f"127.0.0.1:{PORT}",
                           check=NodeCheck.for_games(server.contest.settings.sandbox))
    import ray

    wait_for_nodes(2, far, logs / "far.log")
    step("far node joined")
    facts["checked"] = [(row["node"].split("/")[0], row["state"], row["reasons"]) for row in executor.check_nodes()]
    step("far node checked")
    head_id = ray.get_runtime_context().get_node_id()
    (far_id,) = [node["NodeID"] for node in ray.nodes() if node["Alive"] and node["NodeID"] != head_id]
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    @ray.remote(num_cpus=1, scheduling_strategy=NodeAffinitySchedulingStrategy(far_id, soft=False))
    def sees(path: str) -> bool:
        return os.path.exists(path)

    facts["far_sees_contest"] = ray.get(sees.remote(str(contest_root / "contest.db")))
    facts["head_sees_contest"] = (contest_root / "contest.db").exists()

    # round 1: the far node is killed once it has started a game
    scheduler = Scheduler(server.contest, executor, 2, clock=server.clock, retry=0.0)
    server.scheduler = scheduler
    killed = threading.Event()

    def kill_far_node_mid_game() -> None:
        while not killed.is_set():
            if FAR_NODE in _nodes(server.contest.db).values() and server.contest.db.games(states=("running",)):
                time.sleep(0.3)  # it has finished a game and started the next: its bots are running
                facts["far_playing_at_kill"] = [game.id for game in server.contest.db.games(states=("running",))]
                os.kill(far.pid, signal.SIGKILL)  # its namespace dies: raylet, worker, bots
                far.wait()
                killed.set()
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_far_node_mid_game, daemon=True)
    killer.start()
    assert scheduler.step()  # plans round 1
    for _ in range(10):
        if scheduler.contest.db.rounds()[-1][2] is not None:
            break
        scheduler.step()
    killed.set()
    step("round 1 finished")
    db = server.contest.db
    facts["nodes"] = _nodes(db)
    facts["far_cache"] = sorted(entry.name for entry in far_cache.iterdir()) if far_cache.is_dir() else []
    facts["sources_sent"] = sorted(path.name for path in far_cache.rglob("bot.cpp")) if far_cache.is_dir() else []
    facts["head_cache"] = sorted(entry.name for entry in head_cache.iterdir()) if head_cache.is_dir() else []
    facts["judge_errors"] = [(row.game_id, row.what) for row in db.judge_errors()]
    games = db.games(round_no=1)
    facts["round1"] = [{"id": game.id, "state": game.state,
                        "seats": [(seat.team, seat.status, seat.reason, seat.points) for seat in game.seats]}
                       for game in games]
    facts["round1_finished"] = db.rounds()[0][2] is not None
    facts["round1_on_one_machine_is_the_same"] = _same_round(server, twin_root)
    step("round 1 played again on one machine")
    totals = db.totals()
    facts["totals_points"] = sum(points for _, points in totals.values())
    facts["totals_games"] = sum(count for count, _ in totals.values())

    # round 2: stopped as the server stops, while a game runs
    before = ray_processes()
    scheduler.start()
    deadline = time.monotonic() + 60
    while not db.games(states=("running",)):
        assert time.monotonic() < deadline, "round 2 never started a game"
        time.sleep(0.05)
    time.sleep(0.5)
    facts["running_at_stop"] = [game.id for game in db.games(states=("running",))]
    stop_started = time.monotonic()
    scheduler.stop()
    executor.close(cancel=True)
    facts["stop_seconds"] = round(time.monotonic() - stop_started, 2)
    scheduler.join(10)
    facts["scheduler_alive_after_stop"] = scheduler._thread.is_alive()
    step(f"stopped in {facts['stop_seconds']} s")
    facts["ray_initialized_after_stop"] = ray.is_initialized()
    game_threads = [thread.name for thread in threading.enumerate() if thread.name.startswith("contest-game")]
    time.sleep(1.0)
    after = ray_processes()
    facts["game_threads_after_stop"] = [name for name in game_threads
                                        if any(t.name == name and t.is_alive() for t in threading.enumerate())]
    raylets = {pid for pid, line in before.items() if "raylet/raylet" in line}
    new = [pid for pid in after if pid not in before]
    # the cluster's raylets start workers of their own (a cancelled game's worker is replaced): those are the
    # cluster's; anything else new (a gcs_server, a raylet, their agents) would be a Ray instance of the judge's
    facts["new_cluster_workers"] = len([pid for pid in new if _parent(pid) in raylets])
    facts["new_ray_processes"] = [after[pid] for pid in new if _parent(pid) not in raylets]
    facts["cluster_processes_kept"] = all(pid in after for pid, line in before.items()
                                          if "raylet" in line or "gcs_server" in line)
    facts["bots_left"] = processes_naming(str(head_cache), str(far_cache), str(contest_root / "builds"))
    try:
        executor.run(len, [[1]]).__next__()
    except Exception as error:  # what the closed executor says
        facts["run_after_close"] = type(error).__name__
    step("stopped")
    facts["serve"] = serve_and_stop(server, contest_root, [head_cache, far_cache], logs)
    step("mjarena contest serve --executor ray played and was stopped by SIGTERM")
    return facts  # the rest of the cluster dies with the namespace


def serve_and_stop(server: Any, contest_root: Path, caches: list[Path], logs: Path) -> dict[str, Any]:
    """``mjarena contest serve --executor ray`` on the cluster, on round 2's games (the window has closed; the round
    in progress is finished): SIGTERM once a game of it is finished, with others running; what is left after."""
    db = server.contest.db
    finished = len(db.games(states=("finished",)))
    before = ray_processes()
    raylets = {pid for pid, line in before.items() if "raylet/raylet" in line}
    with open(logs / "serve.log", "w") as out:
        command = [sys.executable, "-m", "mjarena.cli", "contest", "serve", str(contest_root), "--executor", "ray",
                   "--workers", "2", "--port", "8765"]
        serve = subprocess.Popen(command,
                                 env={**os.environ, "RAY_ADDRESS": f"127.0.0.1:{PORT}"}, stdout=out, stderr=out)
    deadline = time.monotonic() + 90
    while len(db.games(states=("finished",))) == finished or not db.games(states=("running",)):
        assert serve.poll() is None, (logs / "serve.log").read_text()[-3000:]
        assert time.monotonic() < deadline, "the server played no game of round 2"
        time.sleep(0.1)
    facts: dict[str, Any] = {"running_at_sigterm": [game.id for game in db.games(states=("running",))]}
    started = time.monotonic()
    serve.send_signal(signal.SIGTERM)
    try:
        facts["exit"] = serve.wait(60)
    except subprocess.TimeoutExpired:
        facts["exit"] = "still running after 60 s"
        serve.kill()
        serve.wait()
    facts["stop_seconds"] = round(time.monotonic() - started, 2)
    time.sleep(1.0)
    after = ray_processes()
    new = [pid for pid in after if pid not in before]
    facts["new_ray_processes"] = [after[pid] for pid in new if _parent(pid) not in raylets]
    facts["cluster_processes_kept"] = all(pid in after for pid, line in before.items()
                                          if "raylet" in line or "gcs_server" in line)
    facts["bots_left"] = processes_naming(*(str(cache) for cache in caches), str(contest_root / "builds"))
    log = (logs / "serve.log").read_text()
    facts["started_a_local_ray"] = "Started a local Ray instance" in log
    facts["traceback"] = "Traceback" in log
    facts["played_on"] = sorted(set(re.findall(r"played on node (\S+)", log)))
    facts["judge_errors"] = [what for _, what in [(row.game_id, row.what) for row in db.judge_errors()]][1:]
    return facts


if __name__ == "__main__":
    if sys.argv[2:] == ["no-shipping"]:  # the executor as it was: every node runs the bots from the judge's paths
        from mjarena.contest.games import GameTask

        GameTask.folders = lambda self: {}  # type: ignore[method-assign]
    if sys.argv[2:] == ["old-stop"]:  # the executor's run and close as they were (ray.shutdown under the threads)
        from mjarena.arena.executors import RayExecutor

        def old_run(self: Any, fn: Any, tasks: Any) -> Any:
            from ray._private import auto_init_hook

            auto_init_hook.enable_auto_connect = True
            refs = {self._submit(fn, task): task for task in tasks}
            pending = list(refs)
            try:
                while pending:
                    done, pending = self._ray.wait(pending, num_returns=1)
                    for ref in done:
                        yield refs[ref], self._result(ref, refs[ref])
            finally:
                for ref in pending:
                    self._ray.cancel(ref, force=True)

        RayExecutor.run = old_run  # type: ignore[method-assign]
        RayExecutor.close = lambda self, cancel=False: self._ray.shutdown()  # type: ignore[method-assign]
    print("\n" + json.dumps(main(Path(sys.argv[1]), private_temp())), flush=True)

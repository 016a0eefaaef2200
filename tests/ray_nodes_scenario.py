"""The Ray part of test_ray_nodes.py, run inside namespaces of its own; prints what it saw as JSON.

Run only by that test, as ``unshare --net --pid --fork --mount-proc --kill-child python ray_nodes_scenario.py
WORK``: the network namespace has loopback alone (Ray's nodes listen on 127.0.0.1, nothing goes to the machine's
own address), every Ray process started here dies with the namespace, and Ray's folder is a tmpfs of its own.

A cluster of two nodes in this process (``ray.cluster_utils.Cluster``), each given more CPUs than the machine
has cores: the head, whose ``PATH`` has the runtime :data:`RUNTIME`, and a far node without it.

1. A :class:`~mjarena.arena.executors.RayExecutor` whose nodes need :data:`RUNTIME`: the far node is left out;
   tasks that note where they run and how many run there at once are played; a task whose box cannot start
   leaves its node (the head) out until its check passes again.
2. A third node with the runtime joins: the executor checks it when it first sees it; more tasks are played.
3. An executor whose nodes need a runtime no node has: a task is a :class:`NodeFailure`.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

RUNTIME = "mjarena-canary-runtime"


def where(counter: str) -> str:
    """A task: note that it runs on this node (the most at once, in the file ``counter.NODE``), wait a little;
    its node id."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    path = Path(f"{counter}.{node}")
    for step in (1, -1):
        with open(f"{path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            now, most = json.loads(path.read_text()) if path.exists() else (0, 0)
            path.write_text(json.dumps([now + step, max(most, now + step)]))
        if step == 1:
            time.sleep(1.0)
    return node


def box_fails(_: int) -> None:
    """A task whose box cannot start on its node: the judge's failure there, not a bot's."""
    from mjarena.agents.errors import JudgeError

    raise JudgeError("cannot start the bot: its box failed on this node")


def most_at_once(counter: Path) -> dict[str, int]:
    """Each node's most tasks at once."""
    return {path.name.rsplit(".", 1)[1][:8]: json.loads(path.read_text())[1]
            for path in counter.parent.glob(counter.name + ".*") if not path.name.endswith(".lock")}


def main(work: Path) -> dict[str, Any]:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    # Ray's folder (its sessions and the address file that a later ray.init() would connect to) on a tmpfs of
    # this mount namespace: nothing of this cluster is left in the machine's /tmp/ray
    Path("/tmp/ray").mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/tmp/ray"], check=True)
    os.environ.update({"RAY_USAGE_STATS_ENABLED": "0", "RAY_DEDUP_LOGS": "0"})
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    import ray
    from ray.cluster_utils import Cluster

    from mjarena.arena.executors import NodeFailure, RayExecutor
    from mjarena.arena.node_check import NodeCheck

    runtimes = work / "bin"
    runtimes.mkdir()
    (runtimes / RUNTIME).write_text("#!/bin/sh\n")
    (runtimes / RUNTIME).chmod(0o755)
    cores = len(os.sched_getaffinity(0))
    cpus = cores + 2
    with_runtime = f"{runtimes}:{os.environ['PATH']}"
    cluster = Cluster(initialize_head=True, head_node_args={
        "node_ip_address": "127.0.0.1", "num_cpus": cpus, "include_dashboard": False,
        "env_vars": {"PATH": with_runtime, "MJARENA_SHIPPED": str(work / "head-cache")}})
    cluster.add_node(node_ip_address="127.0.0.1", num_cpus=cpus,
                     env_vars={"MJARENA_SHIPPED": str(work / "far-cache")})
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    facts: dict[str, Any] = {"cores": cores, "cpus": cpus, "head": ray.get_runtime_context().get_node_id()[:8]}

    records: list[str] = []

    class Notes(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logging.getLogger("mjarena.executors").addHandler(Notes())
    executor = RayExecutor(check=NodeCheck("bwrap", (RUNTIME,)))
    facts["nodes_at_start"] = executor.nodes()
    first = work / "first"
    seen: list[list[str]] = []
    watching = threading.Event()

    def watch() -> None:  # what the console would show of the tasks running, while they run
        while not watching.is_set():
            seen.append([node for _, node in executor.running()])
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    facts["first"] = [node[:8] for _, node in executor.run(where, [str(first)] * (cores + 2))]
    watching.set()
    watcher.join()
    facts["running_seen"] = seen
    facts["running_after"] = executor.running()
    facts["first_most_at_once"] = most_at_once(first)
    try:
        list(executor.run(box_fails, [1]))
    except Exception as error:
        facts["box_failed"] = f"{type(error).__name__}: {error}"
    facts["nodes_after_box_failed"] = executor.nodes()
    cluster.add_node(node_ip_address="127.0.0.1", num_cpus=1,
                     env_vars={"PATH": with_runtime, "MJARENA_SHIPPED": str(work / "late-cache")})
    deadline = time.monotonic() + 60
    while len([node for node in ray.nodes() if node["Alive"]]) < 3:
        assert time.monotonic() < deadline, "the late node did not join"
        time.sleep(0.2)
    facts["nodes_after_join"] = executor.check_nodes()
    second = work / "second"
    facts["second"] = [node[:8] for _, node in executor.run(where, [str(second)] * (2 * cores + 4))]
    facts["second_most_at_once"] = most_at_once(second)
    facts["nodes_at_end"] = executor.nodes()
    executor.close()
    none = RayExecutor(check=NodeCheck("none", ("mjarena-no-such-runtime",)))
    try:
        list(none.run(abs, [-1]))
    except NodeFailure as error:
        facts["no_node"] = str(error)
    none.close()
    facts["log"] = records
    ray.shutdown()
    cluster.shutdown()
    return facts


if __name__ == "__main__":
    print("\n" + json.dumps(main(Path(sys.argv[1]))), flush=True)

"""A cluster node checked before it plays: what runs on the node (:func:`check_here`), and the judge's roster of
nodes (:class:`Roster`) that decides, from the checks, on which nodes games are placed.

On every node, when the judge first sees it (at the start, or when it joins later), one task checks:

- **the sandbox**: the contest's kind of box can be made there (:func:`mjarena.sandbox.check`), and a canary
  program in such a box answers one line (the box's start and a request, as a bot's);
- **the runtimes**: every program the judge's machine runs bots with (``java``, ``node``, ``python3``: the
  toolchains' run commands that are not the build's own program) is there too (:func:`judge_runtimes`);
- **its build cache** can be written (:func:`mjarena.builds.shipping.node_cache`);
- **the clock**: the node's time lies within the check's round trip as the judge's clock sees it, give or take
  :data:`MAX_CLOCK_SKEW` seconds;
- **its speed**: a canary of built-in games (:data:`CANARY_GAMES` games, the best of :data:`CANARY_RUNS` runs)
  timed there, compared with the head's; a node whose time differs from the head's by more than
  :data:`SPEED_MARGIN` (either way) is *flagged*: it plays, and the log and the console say so, since a bot's
  time limit is measured on the machine that plays it;
- **its cores**: a node plays at most as many games at once as it has cores, whatever Ray's ``--num-cpus`` says.

A node that fails any check but its speed is *left out*: no game is placed on it; the reason goes to the log
and to the console; it is checked again every :data:`RECHECK_SECONDS`.  A node on which a game failed for the
judge's reasons (its worker or node died, its cache could not unpack a build, a box could not start) is left out
too, until it passes its check again (at the judge's next look at the cluster).

>>> roster = Roster("h")
>>> roster.to_check({"h": 2.0, "n": 4.0})
['h', 'n']
>>> roster.checked("h", {"name": "head", "problems": [], "canary": 1.0, "cores": 2, "time": 10.0}, 9.0, 11.0)
>>> roster.checked("n", {"name": "far", "problems": ["no runtime node"], "canary": 1.0, "cores": 4, "time": 10.0},
...                9.0, 11.0)
>>> [(row["node"], row["state"], row["reasons"]) for row in roster.rows()]
[('head', 'ready', []), ('far', 'left out', ['no runtime node'])]
>>> roster.take(), roster.take(), roster.take()
('h', 'h', None)
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CANARY_GAMES", "CANARY_RUNS", "MAX_CLOCK_SKEW", "RECHECK_SECONDS", "SPEED_MARGIN", "NodeCheck", "Roster",
           "check_here", "judge_runtimes", "node_name", "summary"]

log = logging.getLogger("mjarena.executors")

SPEED_MARGIN = 0.3
"""A node whose canary takes more than 1.3 times the head's, or less than 1/1.3 of it, is flagged."""
MAX_CLOCK_SKEW = 2.0
"""The most seconds a node's clock may be off the judge's (beyond the check's round trip)."""
CANARY_GAMES = 20
"""Games of built-in bots in one run of the speed canary (about 3 ms each)."""
CANARY_RUNS = 5
"""Runs of the speed canary; the fastest counts (the others met other work on the node)."""
RECHECK_SECONDS = 300.0
"""How often a node left out after its check is checked again (it may have been fixed meanwhile)."""
_CANARY_BOT = ["sh", "-c", 'read line && echo "$line"']


@dataclass(frozen=True)
class NodeCheck:
    """What a node must have to play: the contest's kind of box (``sandbox``: bwrap or none) and the bots'
    runtimes (``runtimes``: program names found on the node's ``PATH``)."""

    sandbox: str = "none"
    runtimes: tuple[str, ...] = ()

    @classmethod
    def for_games(cls, sandbox: str) -> NodeCheck:
        """The check for games in boxes of kind ``sandbox`` with the runtimes the judge's machine has."""
        return cls(sandbox, judge_runtimes())


def judge_runtimes() -> tuple[str, ...]:
    """The programs of the toolchain table's run commands (not the build's own program) found on this machine:
    every node must have them too, since a bot built here runs with them there."""
    from mjarena.builds.table import load_toolchains

    programs = {chain.run[0] for chain in load_toolchains().values() if chain.run and "{" not in chain.run[0]}
    return tuple(sorted(program for program in programs if shutil.which(program)))


def node_name() -> str:
    """This machine as the log, the replays and the console name it: its host name, and in a Ray worker the start
    of its Ray node id (two nodes may share a host name).

    >>> node_name() == socket.gethostname() or "/" in node_name()
    True
    """
    host = socket.gethostname()
    ray = sys.modules.get("ray")
    if ray is not None:
        with contextlib.suppress(Exception):
            if ray.is_initialized():
                return f"{host}/{ray.get_runtime_context().get_node_id()[:8]}"
    return host


def canary_seconds(games: int = CANARY_GAMES, runs: int = CANARY_RUNS) -> float:
    """The fastest of ``runs`` plays of ``games`` games of built-in bots, in seconds (the node's speed at the
    judge's own work: Python, one core)."""
    from mjarena.arena.match import run_match

    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for seed in range(games):
            run_match(["builtin:greedy"] * 4, rules="noi2014", seed=seed)
        best = min(best, time.perf_counter() - start)
    return best


def _box_problem(kind: str) -> str | None:
    """Why a box of ``kind`` cannot run the canary bot here (None when it answers its one request)."""
    from mjarena.sandbox import Sandbox, SandboxUnavailable, check, run

    try:
        sandbox = Sandbox(kind=kind)
        check(sandbox)
        result = run(_CANARY_BOT, sandbox=sandbox, stdin=b"canary\n", time_limit=20.0, memory_mib=256)
    except (SandboxUnavailable, ValueError, OSError) as error:
        return f"the {kind} box does not work: {error}"
    except Exception as error:  # the box's own failure (a BoxError, ...): the node's, reported as such
        return f"the {kind} box does not work: {type(error).__name__}: {error}"
    if not result.ok or result.stdout != b"canary\n":
        detail = result.stderr.decode("utf-8", "replace").strip()[:200]
        return f"the canary bot in a {kind} box did not answer ({result.status}{': ' + detail if detail else ''})"
    return None


def _cache_problem() -> str | None:
    """Why the node's build cache cannot be written (None when it can)."""
    from mjarena.builds.shipping import node_cache

    root = node_cache()
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".unpacking-check-"):
            pass
    except OSError as error:
        return f"its build cache {root} cannot be written: {error.strerror or error}"
    return None


def check_here(check: NodeCheck) -> dict[str, Any]:
    """Run on a node: ``{"name", "problems": [why it cannot play], "canary": seconds, "cores", "time"}``
    (``time``: this node's clock as the check ends)."""
    problems = []
    box = _box_problem(check.sandbox)
    if box is not None:
        problems.append(box)
    missing = [program for program in check.runtimes if shutil.which(program) is None]
    if missing:
        problems.append(f"the bots' runtimes are missing: {', '.join(missing)}")
    cache = _cache_problem()
    if cache is not None:
        problems.append(cache)
    cores = os.cpu_count() or 1
    if sys.platform.startswith("linux"):  # the CPUs this node's processes may use
        with contextlib.suppress(OSError):
            cores = len(os.sched_getaffinity(0))
    return {"name": node_name(), "problems": problems, "canary": canary_seconds(), "cores": cores,
            "time": time.time()}


def _skew(node_time: float, sent: float, received: float) -> float:
    """How far the node's clock is off the judge's, beyond the round trip ``sent``–``received``.

    >>> _skew(10.0, 9.0, 11.0), _skew(15.0, 9.0, 11.0), _skew(4.0, 9.0, 11.0)
    (0.0, 4.0, -5.0)
    """
    if node_time > received:
        return node_time - received
    if node_time < sent:
        return node_time - sent
    return 0.0


@dataclass
class _Node:
    node_id: str
    cpus: int
    name: str = ""
    state: str = "checking"  # checking | ready | left out | gone
    reasons: list[str] = field(default_factory=list)
    canary: float | None = None
    skew: float | None = None
    cores: int | None = None
    flagged: str | None = None
    busy: int = 0
    played: int = 0
    recheck: bool = False
    left_at: float = 0.0  # when it was last left out (the judge's monotonic clock)

    @property
    def slots(self) -> int:
        """Games at once: one per CPU Ray gives it, never more than its cores."""
        return max(0, min(self.cpus, self.cores if self.cores is not None else self.cpus))


class Roster:
    """The judge's view of the cluster's nodes (not thread-safe: the executor holds its lock around each call).

    ``head``: the id of the node whose canary the others are compared with (the judge's machine).
    """

    def __init__(self, head: str | None) -> None:
        self.head = head
        self._nodes: dict[str, _Node] = {}

    def to_check(self, alive: Mapping[str, float], now: float | None = None) -> list[str]:
        """Given the alive nodes (id -> Ray's CPUs), the ones to check now (new, left out after a failed game, or
        left out :data:`RECHECK_SECONDS` ago or more: it may have been fixed), marked as being checked; a node no
        longer alive is gone.  ``now``: the judge's monotonic clock."""
        now = time.monotonic() if now is None else now
        launch = []
        for node_id, cpus in alive.items():
            node = self._nodes.get(node_id)
            if node is None:
                node = self._nodes[node_id] = _Node(node_id, int(cpus))
                launch.append(node_id)
            elif (node.recheck or node.state == "gone"
                  or (node.state == "left out" and now - node.left_at >= RECHECK_SECONDS)):
                node.cpus, node.state, node.recheck = int(cpus), "checking", False
                launch.append(node_id)
        for node_id, node in self._nodes.items():
            if node_id not in alive and node.state != "gone":
                if node.state == "ready":
                    log.warning("node %s is gone from the cluster", node.name or node_id[:8])
                node.state = "gone"
        return launch

    def checked(self, node_id: str, report: Mapping[str, Any], sent: float, received: float) -> None:
        """The check's ``report`` (:func:`check_here`), sent at ``sent`` and back at ``received`` (the judge's
        clock): the node is ready, or left out with the reasons (logged)."""
        node = self._nodes.get(node_id)
        if node is None or node.state != "checking":
            return
        node.name = str(report.get("name") or node.name or node_id[:8])
        reasons = [str(problem) for problem in report.get("problems", [])]
        if isinstance(report.get("time"), int | float):
            node.skew = _skew(float(report["time"]), sent, received)
            if abs(node.skew) > MAX_CLOCK_SKEW:
                reasons.append(f"its clock is {node.skew:+.1f} s off the judge's (at most {MAX_CLOCK_SKEW:g} s)")
        node.canary = report.get("canary") if isinstance(report.get("canary"), int | float) else None
        node.cores = report.get("cores") if isinstance(report.get("cores"), int) else None
        if node.cores is not None and node.cpus > node.cores:
            log.warning("node %s: Ray gives it %d CPUs but it has %d cores: it plays %d games at once", node.name,
                        node.cpus, node.cores, node.cores)
        if node.slots < 1:
            reasons.append("Ray gives it no CPU for games (ray start --num-cpus=0)")
        node.reasons = reasons
        node.state = "left out" if reasons else "ready"
        node.left_at = time.monotonic()
        if reasons:
            log.warning("node %s is left out (no game is placed on it): %s", node.name, "; ".join(reasons))
        else:
            log.info("node %s passed its check: %d game(s) at once", node.name, node.slots)
        self._judge_speeds()

    def _judge_speeds(self) -> None:
        """Flag (once, logged) each checked node whose canary differs from the head's by more than the margin."""
        head = self._nodes.get(self.head) if self.head is not None else None
        if head is None or not head.canary:
            return
        for node in self._nodes.values():
            ratio = self.ratio(node)
            if ratio is None or node.flagged is not None:
                continue
            if ratio > 1 + SPEED_MARGIN or ratio < 1 / (1 + SPEED_MARGIN):
                node.flagged = (f"its canary took {ratio:.2f} times the head's (more than {SPEED_MARGIN:.0%} "
                                "off): bots' times there are not comparable")
                log.warning("node %s is flagged: %s", node.name, node.flagged)

    def ratio(self, node: _Node) -> float | None:
        """The node's canary time over the head's (above 1: slower), once both are known."""
        head = self._nodes.get(self.head) if self.head is not None else None
        if head is None or not head.canary or node.canary is None:
            return None
        return node.canary / head.canary

    def failed(self, node_id: str, why: str) -> None:
        """A game on the node failed for the cluster's reasons: it is left out until checked again."""
        node = self._nodes.get(node_id)
        if node is None or node.state != "ready":
            return
        node.state, node.reasons, node.recheck = "left out", [why], True
        log.warning("node %s is left out until it is checked again: %s", node.name, why)

    def timed_out(self, node_id: str, seconds: float) -> None:
        """The node's check did not come back in ``seconds``: left out (checked again at the next look)."""
        node = self._nodes.get(node_id)
        if node is not None and node.state == "checking":
            node.state, node.recheck = "left out", True
            node.reasons = [f"its check did not finish in {seconds:g} s"]
            node.left_at = time.monotonic()
            log.warning("node %s is left out: %s", node.name or node_id[:8], node.reasons[0])

    def take(self) -> str | None:
        """A ready node with a free slot (the one with the most), now holding one more game; None if none."""
        free = [(node.slots - node.busy, node.node_id) for node in self._nodes.values()
                if node.state == "ready" and node.busy < node.slots]
        if not free:
            return None
        _, node_id = max(free)
        self._nodes[node_id].busy += 1
        return node_id

    def give_back(self, node_id: str, played: bool) -> None:
        """A game placed on the node is over (``played``: it came back from it)."""
        node = self._nodes.get(node_id)
        if node is not None:
            node.busy = max(0, node.busy - 1)
            node.played += played

    def checking(self) -> bool:
        """Whether a node is being checked now (a game may soon be placed on it)."""
        return any(node.state == "checking" for node in self._nodes.values())

    def playable(self) -> bool:
        """Whether any node is ready, being checked, or to be checked again (after a game failed on it)."""
        return any(node.state in ("ready", "checking") or node.recheck for node in self._nodes.values())

    def rechecks(self) -> bool:
        """Whether a node waits to be checked again."""
        return any(node.recheck and node.state != "gone" for node in self._nodes.values())

    def why_none(self) -> str:
        """Why no node can play, for the judge error: each node and its reasons."""
        parts = [f"{node.name or node.node_id[:8]}: {'; '.join(node.reasons) or node.state}"
                 for node in self._nodes.values()]
        return "no node of the cluster may play a game (" + (" | ".join(parts) or "no node is alive") + ")"

    def name(self, node_id: str) -> str:
        node = self._nodes.get(node_id)
        return (node.name if node is not None and node.name else node_id[:8])

    def rows(self) -> list[dict[str, Any]]:
        """Each node for the console: name, id, state, reasons, canary ratio to the head, clock skew, CPUs, cores,
        games at once, flagged, games running and played."""
        return [{"node": node.name or node.node_id[:8], "id": node.node_id[:8], "state": node.state,
                 "reasons": list(node.reasons), "ratio": self.ratio(node), "skew": node.skew, "cpus": node.cpus,
                 "cores": node.cores, "slots": node.slots, "flagged": node.flagged, "head": node.node_id == self.head,
                 "running": node.busy, "played": node.played} for node in self._nodes.values()]


def summary(rows: Sequence[Mapping[str, Any]]) -> str:
    """One line on the nodes, for the log.

    >>> summary([{"state": "ready"}, {"state": "left out"}, {"state": "ready"}])
    '3 node(s): 2 ready, 1 left out'
    """
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["state"]] = counts.get(row["state"], 0) + 1
    return f"{len(rows)} node(s): " + ", ".join(f"{count} {state}" for state, count in counts.items())

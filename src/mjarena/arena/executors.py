"""Where tournament games run: a local process pool (the default) or a Ray cluster.

An executor takes a picklable top-level function and a batch of picklable tasks and yields ``(task, result)``
pairs *as they complete*.  The caller never relies on that order: results are keyed by game id and applied in
game-id order, so the same seed gives the same games and standings on any executor and any number of workers.

Ray (``pip install 'mjarena[ray]'``)
------------------------------------
``--executor ray`` starts a local Ray instance of its own on this machine (``--workers`` caps the CPUs it uses),
unless it is told of a cluster: it never joins one that ``ray start`` left running here (a bare ``ray.init()``
would, and fail if that cluster had died).  To use a cluster, name it the usual way:

* start the cluster (``ray start --head`` on one node, ``ray start --address=HEAD:6379`` on the others), then
* run ``mjarena tournament ... --executor ray`` on a cluster node with ``RAY_ADDRESS=auto`` (or the head's
  address, e.g. ``RAY_ADDRESS=ray://head:10001`` through Ray Client); ``ray.init()`` reads ``RAY_ADDRESS``,
  which is the same as calling ``ray.init(address="auto")`` in code.

On a cluster every node needs mjarena installed.  A task that names its folders (:class:`Portable`: a contest's
game names its bots' builds, a tournament's its bots' builds and program folders) has them sent by content, so its
nodes need no shared file system (:mod:`mjarena.arena.shipped_bots` says what a tournament sends).  Replays are returned
to the driver and written there, so ``--out`` only has to exist on the machine that runs the command.  A node or
worker that dies under a task is a :class:`NodeFailure` (a judge error), never retried by Ray behind the
caller's back.

Every node is checked before it plays (:mod:`mjarena.arena.node_check`: the box, the runtimes, its cache, the
clock, a canary), when the executor starts and whenever it first sees a node that joined later; tasks are placed
on the nodes that passed, one per CPU and never more than a node's cores (each task pinned to its node), and a
node that failed its check, or under a task, is left out.
"""

from __future__ import annotations

from mjarena.arena.executor_types import Executor, ExecutorClosed, ExecutorUnavailable, NodeFailure, Portable
from mjarena.arena.local_executor import LocalExecutor
from mjarena.arena.node_check import NodeCheck
from mjarena.arena.ray_executor import RayExecutor

__all__ = ["EXECUTORS", "Executor", "ExecutorClosed", "ExecutorUnavailable", "LocalExecutor", "NodeFailure",
           "Portable", "RayExecutor", "make_executor"]

EXECUTORS = ("local", "ray")


def make_executor(kind: str, workers: int | None = None, *, check: NodeCheck | None = None) -> Executor:
    """``local`` or ``ray`` (its nodes checked with ``check``: the default checks no box and no runtime); raises
    :class:`ExecutorUnavailable` (with the pip command) when Ray is missing."""
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "ray":
        return RayExecutor(workers, check=check)
    raise ValueError(f"unknown executor {kind!r}; known: {', '.join(EXECUTORS)}")

"""Where tournament games run: a local process pool (the default) or a Ray cluster.

An executor takes a picklable top-level function and a batch of picklable tasks and yields ``(task, result)``
pairs *as they complete*.  The caller never relies on that order: results are keyed by game id and applied in
game-id order, so the same seed gives the same games and standings on any executor and any number of workers.

Ray (``pip install 'mjarena[ray]'``)
------------------------------------
``--executor ray`` calls ``ray.init()``.  With no cluster configured that starts a local Ray instance on this
machine (``--workers`` then caps the CPUs it uses).  To use a cluster, point Ray at it the usual way:

* start the cluster (``ray start --head`` on one node, ``ray start --address=HEAD:6379`` on the others), then
* run ``mjarena tournament ... --executor ray`` on a cluster node with ``RAY_ADDRESS=auto`` (or the head's
  address, e.g. ``RAY_ADDRESS=ray://head:10001`` through Ray Client); ``ray.init()`` reads ``RAY_ADDRESS``,
  which is the same as calling ``ray.init(address="auto")`` in code.

On a cluster every node needs mjarena (and any bot program a SPEC names, at the same path) installed.  Replays
are returned to the driver and written there, so ``--out`` only has to exist on the machine that runs the
command.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

from mjarena.sandbox.lifetime import die_with_parent

__all__ = ["EXECUTORS", "Executor", "ExecutorUnavailable", "LocalExecutor", "RayExecutor", "make_executor"]

EXECUTORS = ("local", "ray")

T = TypeVar("T")


class ExecutorUnavailable(RuntimeError):
    """The executor asked for cannot be used here (for Ray: not installed)."""


class Executor(Protocol):
    """Runs ``fn`` on each task and yields ``(task, fn(task))`` in completion order."""

    #: True when results come back to this process from another machine (write files here, not in ``fn``).
    remote: bool

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]: ...

    def close(self, cancel: bool = False) -> None: ...


def _init_worker() -> None:
    """Pool workers leave Ctrl-C to the parent, which cancels what has not started and keeps what finished,
    and die with the parent: a tournament killed outright leaves no worker (nor, through their boxes, bot)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


class LocalExecutor:
    """A :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes (default: ``os.cpu_count()``)."""

    remote = False

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_init_worker)

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]:
        """Submit every task, then yield each as it finishes; on an early exit the rest are cancelled.

        ``as_completed`` watches all the futures with one waiter; ``wait(pending, FIRST_COMPLETED)`` in a loop set
        up a waiter on every pending future per result, quadratic in the tasks queued (a whole round-robin
        tournament is queued at once)."""
        futures: dict[Future[Any], T] = {self._pool.submit(fn, task): task for task in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()  # nothing for the finished and running ones

    def close(self, cancel: bool = False) -> None:
        """Shut the pool down; ``cancel`` drops queued tasks and does not wait for the ones running."""
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)


class RayExecutor:
    """Ray tasks, one per game; see the module docstring for running on a cluster."""

    remote = True

    def __init__(self, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorUnavailable("the Ray executor needs Ray: pip install 'mjarena[ray]'") from None
        self._ray = ray
        self._owns = not ray.is_initialized()
        if self._owns:
            options: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False,
                                       "log_to_driver": False}
            if workers and not os.environ.get("RAY_ADDRESS"):
                options["num_cpus"] = workers
            ray.init(**options)
        self._remote_fns: dict[Callable[[Any], Any], Any] = {}

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]:
        """Launch every task, then yield each as ``ray.wait`` reports it done."""
        ray = self._ray
        remote_fn = self._remote_fns.get(fn)
        if remote_fn is None:
            remote_fn = self._remote_fns[fn] = ray.remote(fn)
        refs = {remote_fn.remote(task): task for task in tasks}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield refs[ref], ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self, cancel: bool = False) -> None:
        """Shut Ray down if this executor started it; a Ray instance that was already there is left running."""
        if self._owns:
            self._ray.shutdown()


def make_executor(kind: str, workers: int | None = None) -> Executor:
    """``local`` or ``ray``; raises :class:`ExecutorUnavailable` (with the pip command) when Ray is missing."""
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "ray":
        return RayExecutor(workers)
    raise ValueError(f"unknown executor {kind!r}; known: {', '.join(EXECUTORS)}")

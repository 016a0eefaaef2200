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

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from mjarena.lifetime import pool_worker

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

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc_info: object) -> None: ...


def _quiet_broken_pool(previous: Callable[[Any], object]) -> Callable[[Any], object]:
    """A thread exception hook that drops the one error CPython 3.11's pool manager raises when its workers die
    while futures are cancelled (``terminate_broken`` sets an exception on a cancelled future:
    ``InvalidStateError``); anything else goes to ``previous``."""

    def hook(args: Any) -> object:
        if isinstance(args.exc_value, InvalidStateError):
            return None
        return previous(args)

    return hook


class LocalExecutor:
    """A :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes (default: ``os.cpu_count()``).

    Fast tasks go to the workers in chunks: the first ``2 * workers`` tasks go one by one, and the time the first
    of them took sizes the chunks of the rest (about :data:`CHUNK_SECONDS` of work each, at most
    :data:`MAX_CHUNK` tasks, and enough chunks to keep every worker busy to the end).  A game of built-in bots
    takes about 3 ms; sent one by one, the pool's own work per task (pickling, queues, futures) in the main
    process took a quarter of a core, which two workers on two cores paid for.  Tasks of 50 ms or more (games of
    program bots) still go one at a time.

    A judge that stops (a signal, an error) closes it with ``cancel``: the workers are killed at once, and their
    bots with them (:mod:`mjarena.lifetime`); the results the caller has already are kept.

    A worker that dies (killed, out of memory) breaks the pool: the tasks it held fail with
    :class:`~concurrent.futures.process.BrokenProcessPool` (the caller's to report: a contest notes a judge error
    and plays the game again), and the next :meth:`run` starts a new pool, its workers forked from a fresh
    ``forkserver`` process (the judge has threads by then: a worker forked from it could inherit a held lock).
    """

    remote = False

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=pool_worker)
        self._renewing = threading.Lock()

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Submit to the pool, after starting a new one if a dead worker broke it."""
        pool = self._pool
        try:
            return pool.submit(fn, *args)
        except BrokenProcessPool:
            with self._renewing:
                if self._pool is pool:
                    self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=pool_worker,
                                                     mp_context=multiprocessing.get_context("forkserver"))
                    pool.shutdown(wait=False, cancel_futures=True)
            return self._pool.submit(fn, *args)

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]:
        """Submit every task (see the class for the chunks), then yield each as its chunk finishes; on an early
        exit the chunks not started are cancelled.

        ``as_completed`` watches all the futures with one waiter; ``wait(pending, FIRST_COMPLETED)`` in a loop set
        up a waiter on every pending future per result, quadratic in the tasks queued (a whole round-robin
        tournament is queued at once)."""
        tasks = list(tasks)
        submit = self._submit
        probes = min(len(tasks), 2 * self.workers)
        futures: dict[Future[Any], list[T]] = {submit(_run_chunk, fn, tasks[i:i + 1]): tasks[i:i + 1]
                                               for i in range(probes)}
        try:
            if probes < len(tasks):
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                size = chunk_size(_seconds_per_task(done), len(tasks) - probes, self.workers)
                futures.update({submit(_run_chunk, fn, tasks[i:i + size]): tasks[i:i + size]
                                for i in range(probes, len(tasks), size)})
            for future in as_completed(futures):
                results, _seconds = future.result()
                yield from zip(futures[future], results, strict=True)
        finally:
            for future in futures:
                future.cancel()  # nothing for the finished and running ones

    def close(self, cancel: bool = False) -> None:
        """Shut the pool down: wait for the tasks submitted, or with ``cancel`` drop them and kill the workers
        (SIGKILL: a game running is lost, its bots die with their worker; nothing waits for it to end)."""
        if not cancel:
            self._pool.shutdown(wait=True)
            return
        previous = threading.excepthook
        threading.excepthook = _quiet_broken_pool(previous)
        try:
            for process in list((self._pool._processes or {}).values()):  # the pool's own: no public way
                with contextlib.suppress(OSError):
                    process.kill()
            self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            threading.excepthook = previous

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(cancel=exc_info[0] is not None)


CHUNK_SECONDS = 0.05
"""About how much work one chunk of tasks sent to a worker holds."""
MAX_CHUNK = 32
"""The most tasks in one chunk."""


def chunk_size(seconds_per_task: float | None, tasks: int, workers: int) -> int:
    """How many tasks to send a worker at once: about :data:`CHUNK_SECONDS` of work, at most :data:`MAX_CHUNK`,
    and no more than leaves four chunks a worker (so that all finish together); 1 when the time is unknown.

    >>> chunk_size(0.003, 320, 2), chunk_size(0.003, 20, 2), chunk_size(0.2, 320, 2), chunk_size(None, 320, 2)
    (16, 2, 1, 1)
    """
    if not seconds_per_task or seconds_per_task <= 0:
        return 1
    return max(1, min(int(CHUNK_SECONDS / seconds_per_task), MAX_CHUNK, tasks // (4 * workers)))


def _run_chunk(fn: Callable[[Any], Any], tasks: Sequence[Any]) -> tuple[list[Any], float]:
    """In a worker: ``fn`` on each task, and the seconds per task."""
    start = time.perf_counter()
    results = [fn(task) for task in tasks]
    return results, (time.perf_counter() - start) / max(1, len(tasks))


def _seconds_per_task(done: set[Future[Any]]) -> float | None:
    """The shortest time per task among finished chunks (None if they all failed: their errors come later)."""
    times = [future.result()[1] for future in done if future.exception() is None]
    return min(times) if times else None


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

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(cancel=exc_info[0] is not None)


def make_executor(kind: str, workers: int | None = None) -> Executor:
    """``local`` or ``ray``; raises :class:`ExecutorUnavailable` (with the pip command) when Ray is missing."""
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "ray":
        return RayExecutor(workers)
    raise ValueError(f"unknown executor {kind!r}; known: {', '.join(EXECUTORS)}")

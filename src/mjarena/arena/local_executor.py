"""The default executor (:mod:`mjarena.arena.executors`): a process pool on this machine, fast games sent to it in
chunks."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mjarena.arena.executor_types import ExecutorUnavailable, T
from mjarena.lifetime import pool_worker

__all__ = ["CHUNK_SECONDS", "CHUNK_WALL_SECONDS", "MAX_CHUNK", "MIN_CHUNK_SECONDS", "LocalExecutor", "chunk_size",
           "chunks"]

log = logging.getLogger("mjarena.executors")


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

    Tasks go to the workers in chunks (:func:`chunks`), all of a run's at once when :meth:`run` is called.  The
    first run of a function sends its first ``2 * workers`` tasks one by one, and the first of them to finish
    times the function; every chunk that finishes times it again, and the next run starts from that (no probes).
    A chunk holds about :data:`CHUNK_SECONDS` of CPU (the workers' CPU, their bots' included: on a loaded machine
    a wall clock made every chunk a single task, just when the judge's own work per chunk costs most), less
    towards the end of a run so that the workers finish together, and never more than :data:`CHUNK_WALL_SECONDS`
    of wall time (bots that wait).  Each chunk costs the judge's process the same, however small: the pool's
    futures, its manager and feeder threads, pickling, pipes, about 0.2 ms of CPU and several times that on a
    loaded machine; a game of built-in bots takes about 4 ms of a worker, so one game a chunk cost the judge
    more than a quarter of a core, which two workers on two cores paid for.  Games of program bots (a wall
    second each or more) still go one at a time.
    A judge that stops (a signal, an error) closes it with ``cancel``: the workers are killed at once, and their
    bots with them (:mod:`mjarena.lifetime`); the results the caller has already are kept.

    A worker that dies (killed, out of memory) breaks the pool: the tasks it held fail with
    :class:`~concurrent.futures.process.BrokenProcessPool` (the caller's to report: a contest notes a judge error
    and plays the game again), and the next :meth:`run` starts a new pool (:meth:`renewal_context`).

    The first pool's workers start the system's default way: forked from the judge on Linux before Python 3.14
    (quick: nothing to import again), spawned on macOS and Windows.  A spawned worker is a fresh interpreter: it
    imports the main module again as ``__mp_main__`` (the ``mjarena`` command's script runs nothing then;
    ``python -m mjarena`` is not imported again), then the function and each task, which travel pickled by
    reference: top-level functions, tasks of plain data (bots by their specs; a ``python:`` bot's module must be
    importable there, as its spec says).
    """

    remote = False
    #: The most workers a pool has on Windows, where its wait for them takes at most 63 handles (as
    #: :mod:`concurrent.futures` caps it there): more is refused, the default (one per CPU) is cut to it.
    MAX_WINDOWS_WORKERS = 61

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        if sys.platform == "win32" and self.workers > self.MAX_WINDOWS_WORKERS:
            if workers:
                raise ExecutorUnavailable(f"--workers {workers}: at most {self.MAX_WINDOWS_WORKERS} worker processes "
                                          "on Windows (a pool's wait for them takes 63 handles)")
            self.workers = self.MAX_WINDOWS_WORKERS
        # the first pool's workers start the system's default way; when that makes them the judge's own children
        # (forked or spawned, not from a forkserver) they know its pid, and exit if it is gone before they start
        context = multiprocessing.get_context()
        own = context.get_start_method() in ("fork", "spawn")
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=pool_worker,
                                         initargs=(os.getpid() if own else None,))
        self._renewing = threading.Lock()
        self._pace: dict[Callable[..., Any], tuple[float, float]] = {}  # each function's CPU, wall s a task

    @staticmethod
    def renewal_context() -> multiprocessing.context.BaseContext:
        """How a new pool's workers start: from a fresh ``forkserver`` process where the system has one (Linux,
        macOS: the judge has threads by then, and a worker forked from it could inherit a held lock), else spawned
        (Windows, where ``spawn`` is the only start method).

        >>> LocalExecutor.renewal_context().get_start_method()  # Linux, macOS; 'spawn' on Windows
        'forkserver'
        """
        methods = multiprocessing.get_all_start_methods()
        return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Submit to the pool, after starting a new one if a dead worker broke it."""
        pool = self._pool
        try:
            return pool.submit(fn, *args)
        except BrokenProcessPool:
            with self._renewing:
                if self._pool is pool:
                    self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=pool_worker,
                                                     mp_context=self.renewal_context())
                    pool.shutdown(wait=False, cancel_futures=True)
            return self._pool.submit(fn, *args)

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]:
        """Submit the tasks now (see the class for the chunks), and return an iterator that yields each task with
        its result as its chunk finishes; on an early exit from it the chunks not started are cancelled.

        Submitting at once (not at the first ``next``) lets a caller send the next batch before it does its own
        work on the last one, so that no worker waits on it.  ``as_completed`` watches all the futures with one
        waiter; ``wait(pending, FIRST_COMPLETED)`` in a loop set up a waiter on every pending future per result,
        quadratic in the tasks queued (a whole round-robin tournament is queued at once)."""
        tasks = list(tasks)
        pace = self._pace.get(fn)
        futures: dict[Future[Any], list[T]] = {}
        first = 0
        if pace is None:  # the first tasks of this function go one by one, to time it
            first = min(len(tasks), 2 * self.workers)
            self._send(futures, fn, [tasks[i:i + 1] for i in range(first)])
        else:
            self._send(futures, fn, chunks(tasks, pace, self.workers))
            first = len(tasks)
        return self._results(fn, tasks, futures, first)

    def _send(self, futures: dict[Future[Any], list[T]], fn: Callable[[Any], Any], parts: Iterable[list[T]]
              ) -> None:
        submit = self._submit
        for part in parts:
            futures[submit(_run_chunk, fn, part)] = part

    def _results(self, fn: Callable[[Any], Any], tasks: list[T], futures: dict[Future[Any], list[T]],
                 sent: int) -> Iterator[tuple[T, Any]]:
        """Yield the results of ``futures`` as they finish; the tasks from ``sent`` on go once the first one-by-one
        task has timed the function.  The CPU and wall seconds per task of the chunks done are kept for the next
        run."""
        cpu = wall = 0.0
        timed = 0
        try:
            if sent < len(tasks):
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                self._send(futures, fn, chunks(tasks[sent:], _pace(done), self.workers))
            for future in as_completed(futures):
                results, (cpu_per_task, wall_per_task) = future.result()
                part = futures[future]
                cpu += cpu_per_task * len(part)
                wall += wall_per_task * len(part)
                timed += len(part)
                self._pace[fn] = (cpu / timed, wall / timed)  # (the next run may start before this one ends)
                yield from zip(part, results, strict=True)
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


CHUNK_SECONDS = 0.5
"""About how much work one chunk of tasks sent to a worker holds, at most."""


CHUNK_WALL_SECONDS = 1.0
"""About how much wall time one chunk of tasks takes, at most (games of bots that wait)."""


MIN_CHUNK_SECONDS = 0.02
"""About how much work the last, smallest chunks hold."""


MAX_CHUNK = 128
"""The most tasks in one chunk."""


def chunk_size(seconds_per_task: float | None, tasks: int, workers: int, wall_per_task: float | None = None) -> int:
    """How many of the ``tasks`` tasks still to send to send a worker at once: a worker's share of them, so that
    the chunks halve towards the end (on 2 workers) and the workers all finish together (guided
    self-scheduling; half a share, tried first, made twice the chunks: a Swiss round of 200 fast games went out
    in 12 of them, each costing the judge about 0.6 ms of CPU on a loaded machine), but about
    :data:`CHUNK_SECONDS` of work at most (``seconds_per_task``: the CPU a task took, bots included; a wall clock
    on a loaded machine would shrink the chunks just when the judge's own work per chunk costs most),
    :data:`CHUNK_WALL_SECONDS` of wall time at most (``wall_per_task``: bots that wait), :data:`MAX_CHUNK` tasks
    at most, and :data:`MIN_CHUNK_SECONDS` of work at least (a chunk costs the judge the same however small), the
    last chunk taking what would be left below that; 1 when the time is unknown.

    >>> chunk_size(0.003, 320, 2), chunk_size(0.003, 40, 2), chunk_size(0.003, 20, 2), chunk_size(0.2, 320, 2)
    (128, 20, 10, 2)
    >>> chunk_size(0.003, 320, 2, wall_per_task=0.25), chunk_size(None, 320, 2)
    (4, 1)
    """
    if not seconds_per_task or seconds_per_task <= 0:
        return 1
    largest = min(int(CHUNK_SECONDS / seconds_per_task), MAX_CHUNK)
    if wall_per_task and wall_per_task > 0:
        largest = min(largest, int(CHUNK_WALL_SECONDS / wall_per_task))
    smallest = max(1, min(int(MIN_CHUNK_SECONDS / seconds_per_task), largest))
    size = max(smallest, min(largest, -(-tasks // workers)))
    return tasks if tasks - size < smallest else size


def chunks(tasks: Sequence[T], pace: tuple[float, float] | None, workers: int) -> Iterator[list[T]]:
    """``tasks`` cut in chunks of :func:`chunk_size`, each sized by the tasks left after it; ``pace``: the CPU and
    wall seconds a task took (None: unknown, one task a chunk).

    >>> [len(chunk) for chunk in chunks(list(range(200)), (0.004, 0.004), 2)]  # a Swiss round of 32 bots
    [100, 50, 25, 13, 6, 6]
    """
    cpu, wall = pace or (None, None)
    start = 0
    while start < len(tasks):
        size = chunk_size(cpu, len(tasks) - start, workers, wall)
        yield list(tasks[start:start + size])
        start += size


def _cpu_seconds() -> float:
    """This process's CPU seconds and its children's (a bot's program, once reaped; on Windows, this process's
    alone)."""
    if sys.platform == "win32":
        return time.process_time()
    import resource

    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _run_chunk(fn: Callable[[Any], Any], tasks: Sequence[Any]) -> tuple[list[Any], tuple[float, float]]:
    """In a worker: ``fn`` on each task; the results, and the CPU and wall seconds per task."""
    wall, cpu = time.perf_counter(), _cpu_seconds()
    results = [fn(task) for task in tasks]
    count = max(1, len(tasks))
    return results, ((_cpu_seconds() - cpu) / count, (time.perf_counter() - wall) / count)


def _pace(done: set[Future[Any]]) -> tuple[float, float] | None:
    """The CPU and wall seconds per task of the quickest finished chunk (None if they all failed: their errors
    come later)."""
    paces = [future.result()[1] for future in done if future.exception() is None]
    return min(paces) if paces else None

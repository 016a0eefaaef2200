"""The default executor (:mod:`mjarena.arena.executors`): a process pool on this machine, fast games sent to it in
chunks."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, InvalidStateError, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mjarena.arena.executor_types import ExecutorUnavailable, T
from mjarena.lifetime import pool_worker

__all__ = ["CHUNK_SECONDS", "MAX_CHUNK", "LocalExecutor", "chunk_size"]

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
        import sys

        self.workers = workers or os.cpu_count() or 1
        if sys.platform == "win32" and self.workers > self.MAX_WINDOWS_WORKERS:
            if workers:
                raise ExecutorUnavailable(f"--workers {workers}: at most {self.MAX_WINDOWS_WORKERS} worker processes "
                                          "on Windows (a pool's wait for them takes 63 handles)")
            self.workers = self.MAX_WINDOWS_WORKERS
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=pool_worker)
        self._renewing = threading.Lock()

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

"""What every executor shares (:mod:`mjarena.arena.executors`): the :class:`Executor` protocol, the task that can
travel to another machine (:class:`Portable`), and the executors' errors."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from mjarena.agents.errors import JudgeError

__all__ = ["Executor", "ExecutorClosed", "ExecutorUnavailable", "NodeFailure", "Portable", "usable_cores"]

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


class ExecutorClosed(RuntimeError):
    """The executor is closing (or closed): no task starts on it any more."""


class NodeFailure(JudgeError):
    """The machine or worker playing a task failed (a Ray node or worker died, an object was lost, the cluster
    went away): the judge's failure, never the task's; a contest plays the game again (a judge error)."""


class Portable(Protocol):
    """A task that names the folders it reads on this machine, so that an executor can send them to another."""

    def folders(self) -> Mapping[str, Sequence[str]]:
        """Each folder the task reads, with the names in it that are not to leave this machine."""
        ...

    def relocated(self, places: Mapping[str, str]) -> Any:
        """The same task with each folder of ``places`` at its new place."""
        ...


def usable_cores() -> int:
    """The CPUs this process may run on: its affinity where the system gives one (``os.sched_getaffinity``: Linux;
    a container or ``taskset`` may allow fewer than the machine has), else ``os.cpu_count()`` (macOS, Windows).

    >>> usable_cores() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1

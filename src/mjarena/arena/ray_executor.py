"""Games on a Ray cluster (:mod:`mjarena.arena.executors` says how to use one): each node checked before it plays
(:mod:`mjarena.arena.node_check`), each task pinned to a node that passed, its build folders sent by content
(:mod:`mjarena.builds.shipping`)."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mjarena.agents.errors import JudgeError
from mjarena.arena.executor_types import ExecutorClosed, ExecutorUnavailable, NodeFailure, T
from mjarena.arena.node_check import NodeCheck, Roster, check_here, node_name, summary
from mjarena.lifetime import STOP_SIGNALS

__all__ = ["CHECK_SECONDS", "CLOSE_SECONDS", "MAX_PARCELS", "POLL_SECONDS", "REFRESH_SECONDS", "RayExecutor"]

log = logging.getLogger("mjarena.executors")


POLL_SECONDS = 0.2
"""How often a task's wait on Ray looks whether the executor is closing."""


CLOSE_SECONDS = 30.0
"""How long :meth:`RayExecutor.close` waits for the threads inside :meth:`RayExecutor.run` to leave it."""


MAX_PARCELS = 512
"""The most build parcels the judge keeps in Ray's object store (the least recently used are dropped)."""


REFRESH_SECONDS = 5.0
"""How often the executor looks at the cluster's nodes (a node that joined is checked, one gone dropped)."""


CHECK_SECONDS = 120.0
"""How long a node's check may take; the executor's start waits that long at most for the first checks."""


def _ray_call(fn: Callable[[Any], Any], task: Any, places: Sequence[tuple[str, str]], *parcels: bytes) -> Any:
    """On a node: unpack the task's build folders (``places``: ``(folder, digest)``, ``parcels``: their bytes)
    into the node-local cache (:func:`mjarena.builds.shipping.node_cache`), checked against their digests, held
    while ``fn`` runs on the task moved to them (the cache's bound then removes only builds no game holds:
    :func:`mjarena.builds.shipping.trim`); ``(node, result)``."""
    from mjarena.builds.shipping import ShippingError, held, node_cache, trim

    node = node_name()
    if not places:
        return node, fn(task)
    moved = {}
    with contextlib.ExitStack() as holding:
        for (folder, digest), data in zip(places, parcels, strict=True):
            try:
                moved[folder] = str(holding.enter_context(held(node_cache(), digest, data)))
            except ShippingError as error:
                raise NodeFailure(f"node {node} cannot unpack a bot's build: {error}") from None
        with contextlib.suppress(OSError):
            trim(node_cache())
        return node, fn(task.relocated(moved))


def _stop_handlers() -> dict[int, Any]:
    """The handlers of the stop signals now (none off the main thread, where none can be set)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.getsignal(signum) for signum in STOP_SIGNALS if signal.getsignal(signum) is not None}


def _first_sentence(error: BaseException) -> str:
    """The error's class and the first sentence of what it says (Ray's messages go on for a paragraph).

    >>> _first_sentence(ValueError("Task failed because the node is dead. This can happen if ..."))
    'ValueError: Task failed because the node is dead.'
    """
    text = " ".join(str(error).split())
    end = text.find(". ")
    return f"{type(error).__name__}: {text[:end + 1] if end >= 0 else text}"[:300]


class RayExecutor:
    """Ray tasks, one per game and one CPU each, never retried by Ray (a game whose node dies raises
    :class:`NodeFailure`: the caller plays it again, and knows it did); see the module docstring for a cluster.

    ``ray.init`` is called once, here (``address``: a cluster's, else ``$RAY_ADDRESS``, else a local instance of
    ``workers`` CPUs); the threads that call :meth:`run` never start Ray (its automatic ``ray.init`` is turned
    off).  A :class:`Portable` task's folders (a game's builds) travel by content: each is packed once
    (:mod:`mjarena.builds.shipping`), put in Ray's object store, and unpacked by the node that plays the game into
    its own cache, checked against the digest before every game; no node needs the contest folder.

    Nodes: each is checked (``check``, :class:`~mjarena.arena.node_check.NodeCheck`) before a task is placed on
    it, here for the nodes alive now (waiting at most :data:`CHECK_SECONDS`), and for a node that joins later
    when :meth:`run` first sees it (it looks every :data:`REFRESH_SECONDS`).  A task goes to a node that passed
    and has a free slot (one per CPU, at most its cores), pinned there; with none free, :meth:`run` waits; with
    none that may play at all, it raises :class:`NodeFailure` saying why.  :meth:`nodes` is the console's view.

    :meth:`close` stops it in order: no new task starts, the tasks running are cancelled (``cancel``) or waited
    for, every thread inside :meth:`run` leaves it, and only then does the executor disconnect from Ray (and stop
    the local instance if it started one; a cluster's own processes are left alone).
    """

    remote = True

    def __init__(self, workers: int | None = None, *, address: str | None = None,
                 check: NodeCheck | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorUnavailable("the Ray executor needs Ray: pip install 'mjarena[ray]'") from None
        self._ray = ray
        with contextlib.suppress(ImportError, AttributeError):  # a thread's Ray call never starts an instance
            from ray._private import auto_init_hook

            auto_init_hook.enable_auto_connect = False
        self._owns = not ray.is_initialized()
        if self._owns:
            options: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False,
                                       "log_to_driver": False}
            if address:
                options["address"] = address
            elif not os.environ.get("RAY_ADDRESS"):  # a new instance, never a cluster `ray start` left running here
                options["address"] = "local"
                if workers:
                    options["num_cpus"] = workers
            handlers = _stop_handlers()
            ray.init(**options)
            for signum, handler in handlers.items():  # Ray's own SIGTERM handler would exit past the judge's
                signal.signal(signum, handler)
        self._call = ray.remote(num_cpus=1, max_retries=0, retry_exceptions=False)(_ray_call)
        # no CPU held: a node that Ray gives no CPU for games (a head started with --num-cpus=0) is checked too, its
        # canary the one the others are compared with
        self._check_call = ray.remote(num_cpus=0, max_retries=0, retry_exceptions=False)(check_here)
        self._check = check or NodeCheck()
        self._state = threading.Condition()
        self._active = 0
        self._closing = False
        self._cancelling = False
        self._parcels: OrderedDict[tuple[Any, ...], tuple[str, Any]] = OrderedDict()
        self._running: dict[Any, tuple[Any, str]] = {}  # a task's ref -> (the task, its node's id)
        head = None
        with contextlib.suppress(Exception):
            head = ray.get_runtime_context().get_node_id()
        self._roster = Roster(head)
        self._checks: dict[Any, tuple[str, float, float]] = {}  # check ref -> (node id, sent, monotonic sent)
        self._looking = threading.Lock()
        self._looked = float("-inf")
        try:
            self.check_nodes()
        except BaseException:
            if self._owns and ray.is_initialized():
                ray.shutdown()
            raise

    # -- the nodes ---------------------------------------------------------------------------------------

    def check_nodes(self, timeout: float = CHECK_SECONDS) -> list[dict[str, Any]]:
        """Look at the cluster now, check the nodes not checked yet, and wait (at most ``timeout`` seconds) for
        every check; the nodes as :meth:`nodes` gives them."""
        self._look(force=True)
        deadline = time.monotonic() + timeout
        while self._checks and time.monotonic() < deadline and not self._closing:
            self._look(wait=min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))
        rows = self.nodes()
        log.info("the cluster: %s", summary(rows))
        return rows

    def nodes(self) -> list[dict[str, Any]]:
        """Each node the executor has seen: its name, check result and reasons, canary speed over the head's,
        clock skew, CPUs and cores, games at once, flagged, games running and played
        (:meth:`~mjarena.arena.node_check.Roster.rows`)."""
        with self._state:
            return self._roster.rows()

    def running(self) -> list[tuple[Any, str]]:
        """Each task placed on a node and not back yet, with its node's name."""
        with self._state:
            return [(task, self._roster.name(node_id)) for task, node_id in self._running.values()]

    def _look(self, *, force: bool = False, wait: float = 0.0) -> None:
        """Collect the checks that finished (waiting up to ``wait`` seconds for one), and every
        :data:`REFRESH_SECONDS` (or ``force``) list the alive nodes and check those not checked yet."""
        if not self._looking.acquire(blocking=force):
            return
        ray = self._ray
        try:
            with self._state:
                due = force or self._roster.rechecks() or time.monotonic() - self._looked >= REFRESH_SECONDS
            if due:
                self._looked = time.monotonic()
                alive = {node["NodeID"]: float(node.get("Resources", {}).get("CPU", 0))
                         for node in ray.nodes() if node.get("Alive")}
                with self._state:
                    launch = self._roster.to_check(alive)
                for node_id in launch:
                    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

                    ref = self._check_call.options(
                        scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False)).remote(self._check)
                    self._checks[ref] = (node_id, time.time(), time.monotonic())
            if not self._checks:
                return
            done, _ = ray.wait(list(self._checks), num_returns=1, timeout=wait) if wait else ([], None)
            done = set(done) | set(ray.wait(list(self._checks), num_returns=len(self._checks), timeout=0)[0])
            for ref in done:
                node_id, sent, _ = self._checks.pop(ref)
                try:
                    report = ray.get(ref)
                except ray.exceptions.RayError as error:
                    report = {"problems": [f"its check failed: {_first_sentence(error)}"]}
                received = time.time()
                with self._state:
                    self._roster.checked(node_id, report, sent, received)
                    self._state.notify_all()
            for ref, (node_id, _, started) in list(self._checks.items()):
                if time.monotonic() - started > CHECK_SECONDS:
                    del self._checks[ref]
                    with contextlib.suppress(Exception):
                        ray.cancel(ref, force=True)
                    with self._state:
                        self._roster.timed_out(node_id, CHECK_SECONDS)
                        self._state.notify_all()
        except ray.exceptions.RayError as error:
            raise NodeFailure(f"the Ray cluster failed: {_first_sentence(error)}") from None
        finally:
            self._looking.release()

    def actor_here(self, cls: type, *args: Any) -> Any:
        """A Ray actor of ``cls`` (made with ``args``) on the judge's own node, holding no CPU, never restarted,
        ending with the executor: what a node's task may hand something to on the judge's machine (the contest's
        live relay, :mod:`mjarena.contest.live_relay`).  Ray's errors as they come."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        node_id = self._ray.get_runtime_context().get_node_id()
        actor = self._ray.remote(num_cpus=0, max_restarts=0)(cls)
        return actor.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False)).remote(*args)

    # -- the tasks ---------------------------------------------------------------------------------------

    def _enter(self) -> None:
        with self._state:
            if self._closing:
                raise ExecutorClosed("the Ray executor is closing: no game starts on it")
            self._active += 1

    def _leave(self) -> None:
        with self._state:
            self._active -= 1
            self._state.notify_all()

    def _parcel(self, folder: str, leave_out: Sequence[str]) -> tuple[str, Any]:
        """``(digest, object ref)`` of ``folder``'s parcel, packed and put once per published folder (a build
        published again has another inode)."""
        from mjarena.builds.shipping import ShippingError, pack

        try:
            info = os.stat(folder)
        except OSError as error:
            raise JudgeError(f"the bot's build {folder} is gone ({error.strerror or error})") from None
        key = (folder, info.st_dev, info.st_ino, info.st_mtime_ns, tuple(leave_out))
        with self._state:
            if key in self._parcels:
                self._parcels.move_to_end(key)
                return self._parcels[key]
        try:
            parcel = pack(folder, leave_out)
        except ShippingError as error:
            raise JudgeError(f"cannot send the bot's build: {error}") from None
        entry = (parcel.digest, self._ray.put(parcel.data))
        with self._state:
            self._parcels[key] = entry
            while len(self._parcels) > MAX_PARCELS:
                self._parcels.popitem(last=False)
        return entry

    def _submit(self, fn: Callable[[Any], Any], task: Any, node_id: str) -> Any:
        """Launch ``fn`` on ``task`` pinned to node ``node_id``, its build folders sent as parcels."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        places: list[tuple[str, str]] = []
        refs = []
        if callable(getattr(task, "folders", None)) and callable(getattr(task, "relocated", None)):
            for folder, leave_out in task.folders().items():
                digest, ref = self._parcel(folder, leave_out)
                places.append((folder, digest))
                refs.append(ref)
        pinned = self._call.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False))
        return pinned.remote(fn, task, places, *refs)

    def _result(self, ref: Any, task: Any, node_id: str) -> Any:
        """The task's result; Ray's own failures as :class:`NodeFailure`, the task's exception as itself; after
        either of those or a :class:`~mjarena.agents.errors.JudgeError` of the task the node is left out until
        it passes its check again."""
        exceptions = self._ray.exceptions
        try:
            node, result = self._ray.get(ref)
        except exceptions.TaskCancelledError:
            raise ExecutorClosed("the Ray executor closed while the task ran") from None
        except exceptions.RayTaskError as error:  # what the task raised, as it raised it: the caller's to judge
            cause = getattr(error, "cause", None)
            if isinstance(cause, JudgeError):  # the node's (a box that cannot start there, a build not unpacked)
                self._node_failed(node_id, str(cause))  # until its check says otherwise
            raise (cause if isinstance(cause, Exception) else error) from None
        except exceptions.RayError as error:  # a node, worker or object lost, the cluster gone
            why = f"the Ray node or worker playing it failed: {_first_sentence(error)}"
            self._node_failed(node_id, why)
            raise NodeFailure(why) from None
        if callable(getattr(task, "folders", None)):  # a game (not a warm-up)
            log.info("%s: played on node %s", task, node)
        return result

    def _node_failed(self, node_id: str, why: str) -> None:
        with self._state:
            self._roster.failed(node_id, why)

    def _take(self) -> str | None:
        """A node with a free slot, now holding it; None when every ready node is full (or being checked)."""
        with self._state:
            node_id = self._roster.take()
            if node_id is None and not self._roster.playable():
                raise NodeFailure(self._roster.why_none())
            return node_id

    def _give_back(self, ref: Any, node_id: str, played: bool) -> None:
        with self._state:
            self._running.pop(ref, None)
            self._roster.give_back(node_id, played)
            self._state.notify_all()

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[T]) -> Iterator[tuple[T, Any]]:
        """Place each task on a node with a free slot as one frees up, and yield each as ``ray.wait`` reports it
        done; leave at once (cancelling what is left) when :meth:`close` cancels, or on an early exit.
        :class:`ExecutorClosed` once closing; :class:`NodeFailure` when no node may play."""
        ray = self._ray
        self._enter()
        queue = list(tasks)
        placed: dict[Any, tuple[T, str]] = {}
        try:
            while queue or placed:
                if self._cancelling:
                    raise ExecutorClosed("the Ray executor closed while the task ran")
                self._look()
                while queue:
                    node_id = self._take()
                    if node_id is None:
                        break
                    try:
                        ref = self._submit(fn, queue[0], node_id)
                    except BaseException:
                        self._give_back(None, node_id, False)
                        raise
                    placed[ref] = (queue.pop(0), node_id)
                    with self._state:
                        self._running[ref] = placed[ref]
                if not placed:  # every slot is taken (by other threads' games) or its node is being checked
                    with self._state:
                        self._state.wait(POLL_SECONDS)
                    continue
                done, _ = ray.wait(list(placed), num_returns=1, timeout=POLL_SECONDS)
                for ref in done:
                    task, node_id = placed.pop(ref)
                    played = False
                    try:
                        result = self._result(ref, task, node_id)
                        played = True
                    finally:
                        self._give_back(ref, node_id, played)
                    yield task, result
        except self._ray.exceptions.RayError as error:  # put, submit or wait: the cluster failed, not the task
            if isinstance(error, self._ray.exceptions.RayTaskError):
                raise
            raise NodeFailure(f"the Ray cluster failed: {_first_sentence(error)}") from None
        finally:
            for ref, (_, node_id) in placed.items():
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
                self._give_back(ref, node_id, False)
            self._leave()

    def close(self, cancel: bool = False) -> None:
        """Stop: no new task starts; with ``cancel`` the running ones are cancelled (their workers, and the bots
        in them, killed), else waited for; then, once every thread has left :meth:`run` (at most
        :data:`CLOSE_SECONDS`), disconnect from Ray (which stops the local instance this executor started; a
        cluster is left running).  Safe to call twice."""
        with self._state:
            self._closing = True
            self._cancelling = self._cancelling or cancel
            self._state.notify_all()
            deadline = time.monotonic() + CLOSE_SECONDS
            while self._active and time.monotonic() < deadline:
                self._state.wait(max(0.0, deadline - time.monotonic()))
            stuck = self._active
            self._parcels.clear()
        if stuck:
            log.warning("%d game thread(s) still wait on Ray after %g s; disconnecting anyway", stuck, CLOSE_SECONDS)
        with self._looking:  # (a look in progress ends within POLL_SECONDS)
            for ref in list(self._checks):
                with contextlib.suppress(Exception):
                    self._ray.cancel(ref, force=True)
            self._checks.clear()
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(cancel=exc_info[0] is not None)

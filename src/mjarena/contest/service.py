"""``mjarena contest serve``: one process that serves the app and runs the judge.

Order of things: take the folder's lock (one server per contest), bind the port (a serve that cannot listen
leaves the contest as it was: its window not opened), kill what a previous server left running
(:func:`~mjarena.contest.processes.kill_leftovers`), start the worker pool before any thread (a forked worker
then copies no held lock), note its workers in ``serve.json``, then serve.  The builder and the scheduler
start with the app and stop with it: on SIGTERM, SIGHUP or Ctrl-C (:data:`mjarena.lifetime.STOP_SIGNALS`)
running games are dropped, their workers and bots killed at once, and the process exits (after at most
:data:`GRACE_SECONDS` for the requests in flight); those games are played again from their start at the next
serve.  The server has the same limits as ``mjarena serve`` (:mod:`mjarena.web.server`: timeouts, connections
capped per client and in total, the open-file limit raised) and rate-limited error lines (:mod:`mjarena.logs`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mjarena.contest import processes
from mjarena.contest.disk import MIN_FREE_MIB, DiskWatch
from mjarena.contest.model import Contest, ContestError
from mjarena.lifetime import STOP_SIGNALS
from mjarena.logs import limit_repeats

__all__ = ["serve"]

log = logging.getLogger("mjarena.contest")
GRACE_SECONDS = 1
"""How long a stopped server waits for the requests in flight (the judge is stopped before it waits)."""


@contextlib.contextmanager
def _lock(root: Path) -> Iterator[None]:
    """Hold ``root/serve.lock`` (:class:`ContestError` if another server holds it)."""
    import fcntl  # POSIX: read here, so that the module imports on every system

    with open(root / "serve.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ContestError(f"{root}: another mjarena contest serve runs on this contest") from None
        yield


def _stopping_server(config: Any, on_exit: Callable[[], None]) -> Any:
    """uvicorn's server, stopping the judge the moment a signal asks it to exit (not after the grace period
    it gives open connections, during which no new game should start), on every stop signal (uvicorn's own are
    SIGINT and SIGTERM; a SIGHUP would otherwise break out of its event loop and leave the games running)."""
    from mjarena.web.server import Server as LimitedServer

    class Server(LimitedServer):
        def handle_exit(self, sig: int, frame: Any) -> None:
            on_exit()
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():  # which raises the signals caught again after the shutdown
                previous = {}
                if threading.current_thread() is threading.main_thread():
                    previous = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS
                                if signal.getsignal(sig) != self.handle_exit}
                try:
                    yield
                finally:
                    for sig, handler in previous.items():
                        signal.signal(sig, handler)

    return Server(config)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (IPv4 or IPv6, as ``host`` resolves), before anything else starts: a
    port taken is :class:`ContestError` while the contest is as it was (its window not opened, no game started).

    >>> sock = listening_socket("127.0.0.1", 0)
    >>> listening_socket("127.0.0.1", sock.getsockname()[1])
    Traceback (most recent call last):
    ...
    mjarena.contest.settings.ContestError: cannot listen on 127.0.0.1:... (the contest is left as it was)
    >>> sock.close()
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as error:
        raise ContestError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen()
    except OSError as error:
        sock.close()
        raise ContestError(f"cannot listen on {host}:{port}: {error.strerror or error} (the contest is left as it "
                           "was)") from None
    sock.set_inheritable(True)
    return sock


def _worker_pids(executor: Any) -> list[int]:
    """The pids of a local pool's worker processes (none for Ray)."""
    pool = getattr(executor, "_pool", None)
    return list(getattr(pool, "_processes", None) or {})


def serve(root: str | Path, *, host: str = "127.0.0.1", port: int = 8000, workers: int | None = None,
          executor: str = "local", public_urls: list[str] | None = None, min_free_mib: int = MIN_FREE_MIB,
          ) -> None:
    """Serve the contest in ``root`` until SIGTERM or Ctrl-C, behind :mod:`mjarena.web.server`'s limits;
    ``public_urls``: where the browsers reach it (behind a reverse proxy), for the forms' origin check; the
    contest pauses itself when its disk has less than ``min_free_mib`` MiB free (:mod:`mjarena.contest.disk`); on a
    system other than Linux, :class:`ContestError` saying why (the contest's sandbox needs Linux)."""
    if not sys.platform.startswith("linux"):
        raise ContestError(f"a contest needs Linux, this is {sys.platform}: its sandbox (bubblewrap's namespaces, "
                           "seccomp, cgroups; docs/security.md) exists only there, and a contest runs other "
                           "people's bots")
    from mjarena.arena.executors import make_executor
    from mjarena.arena.node_check import NodeCheck
    from mjarena.contest.app import create_app
    from mjarena.contest.building import Builder
    from mjarena.contest.cores import plan
    from mjarena.contest.forms import origin_of
    from mjarena.contest.scheduler import Scheduler, warm_up
    from mjarena.web import server

    try:
        for url in public_urls or ():
            origin_of(url)
    except ValueError as error:
        raise ContestError(str(error)) from None
    open_files = server.raise_open_file_limit()  # before the pool: its workers inherit it
    contest = Contest.open(root)
    root = contest.root
    cores = plan(workers, build_workers=contest.settings.build_workers)
    # games on this machine share its cores with the compiles; on a cluster they play on the nodes
    slots = cores.games if executor == "local" else (workers or os.cpu_count() or 1)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    log.info("%d game(s) and %d compile(s) at once (%d usable cores)", slots, cores.compiles, cores.cores)
    if cores.note is not None and executor == "local":
        log.warning("%s", cores.note)
    with _lock(root), listening_socket(host, port) as sock:  # the port first: a serve that cannot listen opens nothing
        killed = processes.kill_leftovers(root)
        if killed:
            log.info("killed %d process(es) left by the previous server", killed)
        pool = make_executor(executor, slots, check=NodeCheck.for_games(contest.settings.sandbox))
        try:
            warm_up(pool, slots)
            pids = _worker_pids(pool)
            processes.record_workers(root, pids)
            builder = Builder(contest, workers=cores.compiles)
            scheduler = Scheduler(contest, pool, slots)
            watch = DiskWatch(contest, min_free=min_free_mib << 20)
            app = create_app(contest, on_submission=builder.submit, judge=scheduler, public_urls=public_urls or ())

            def stop() -> None:
                watch.stop()
                scheduler.stop()
                builder.stop()
                processes.kill(_worker_pids(pool) or pids)
                processes.kill(processes.find_by_token(processes.contest_tokens(root)))

            app.state.on_start += [builder.start, watch.start, scheduler.start]
            app.state.on_stop.append(stop)
            print(f"mjarena contest: {root} on http://{host}:{port}/ (SIGTERM or Ctrl-C stops)", file=sys.stderr,
                  flush=True)
            if public_urls:
                log.info("forms accepted from %s only (--public-url)", ", ".join(app.state.public_origins))
            settings = server.config(app, host, port, timeout_graceful_shutdown=GRACE_SECONDS)
            limit_repeats()  # after the configuration, which sets up uvicorn's loggers
            log.info("serving at most %d connections, %d per client (%d open files)",
                     server.total_cap(open_files), server.PER_CLIENT, open_files)
            _stopping_server(settings, stop).run(sockets=[sock])
        finally:
            pool.close(cancel=True)

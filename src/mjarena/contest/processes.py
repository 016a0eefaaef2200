"""Leaving no process behind: the server's workers and every bot or compiler of the contest.

A server killed with ``kill -9`` cannot clean up, so the next ``serve`` does it: ``DIR/serve.json`` names the
previous server's worker processes (pid and start time, so a reused pid is never hit), and every bot or
compiler of the contest is found by a token in its command line: the path of ``DIR/submissions/`` or
``DIR/builds/``, which every bot's argv holds (the sandbox's too).  Only processes of this user are touched.

>>> start_time(os.getpid()) is not None, start_time(-1), alive(os.getpid()), alive(os.getpid(), start=-5)
(True, None, True, False)
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterable
from pathlib import Path

from mjarena.lifetime import stat_fields

__all__ = ["alive", "contest_tokens", "find_by_token", "kill", "kill_leftovers", "record_workers", "start_time"]


def start_time(pid: int) -> int | None:
    """The start time of process ``pid`` (clock ticks since boot), or None if there is none."""
    fields = stat_fields(pid)
    return None if fields is None else int(fields[19])


def contest_tokens(root: Path) -> list[bytes]:
    """What a bot's or compiler's command line holds when it belongs to the contest in ``root``."""
    return [f"{root}/submissions/".encode(), f"{root}/builds/".encode()]


def find_by_token(tokens: Iterable[bytes]) -> list[int]:
    """Processes of this user (not this one) whose command line holds one of ``tokens``."""
    tokens = list(tokens)
    me, uid = os.getpid(), os.getuid()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                cmdline = handle.read()
        except OSError:
            continue
        if any(token in cmdline for token in tokens):
            found.append(int(entry.name))
    return found


def kill(pids: Iterable[int]) -> None:
    """``SIGKILL`` each process and, when it leads a process group other than ours, its whole group."""
    own_group = os.getpgid(0)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            group = os.getpgid(pid)
            if group == pid and group != own_group:
                os.killpg(group, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)


def record_workers(root: Path, pids: Iterable[int]) -> None:
    """Note this server's worker processes in ``root/serve.json``."""
    workers = [{"pid": pid, "start": start_time(pid)} for pid in sorted(set(pids))]
    (root / "serve.json").write_text(json.dumps({"server": os.getpid(), "workers": workers}) + "\n")


def kill_leftovers(root: Path, *, wait: float = 5.0) -> int:
    """Kill what a previous server of ``root`` left running (its workers, the contest's bots and compilers);
    how many processes were killed."""
    victims: set[int] = set()
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        record = json.loads((root / "serve.json").read_text())
        for worker in record["workers"]:
            pid = int(worker["pid"])
            if pid != os.getpid() and worker["start"] is not None and start_time(pid) == worker["start"]:
                victims.add(pid)
    victims.update(find_by_token(contest_tokens(root)))
    kill(victims)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(alive(pid) for pid in victims):
        time.sleep(0.02)
    return len(victims)


def alive(pid: int, start: int | None = None) -> bool:
    """Whether process ``pid`` (the one started at ``start``, when given) runs: it exists and is no zombie."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in (b"Z", b"X") and (start is None or int(fields[19]) == start)

"""Stopping a judge (issue 23, item 8): SIGTERM, SIGHUP or SIGINT to ``mjarena match``, ``tournament``,
``compare`` or ``contest serve`` ends every bot process within 1 s, bots that ignore those signals included (they
get SIGKILL, or their box is killed), and the judge with its pool workers within 2 s; what was written stays
consistent, and a stopped tournament resumes.

The real CLI runs as a subprocess.  Its bots (``tests/bots/ignore_term_bot.py``) carry a token of the test as a
word of their argv; the test looks only at processes with that token and at the judge's own process tree, and
signals nothing but the judge it started (and, after a failed test, processes with its token).  The times are
measured from the signal; waits for start-up are generous.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from mjarena.lifetime import children as _children
from mjarena.lifetime import stat_fields

from boxes import processes_with, requires_bwrap

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BOT = Path(__file__).resolve().parent / "bots" / "ignore_term_bot.py"
BOTS_WITHIN = 1.0  # seconds from the signal until no bot process is left
JUDGE_WITHIN = 2.0  # ... until the judge and its pool workers are gone
START = 90.0  # for start-up on a loaded machine: the judge, pre-flight, the first game
IN_GAME = 1.0  # a bot that has run this long plays a game (a pre-flight probe lives for one answer)
TICKS = os.sysconf("SC_CLK_TCK")


# -- processes, read from /proc -----------------------------------------------------------------------------


def _start(pid: int) -> int | None:
    fields = stat_fields(pid)
    return int(fields[19]) if fields else None


def _alive(pid: int, start: int | None) -> bool:
    """Whether the process ``pid`` that started at ``start`` still runs (not a zombie; not a reused pid)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in (b"Z", b"X") and int(fields[19]) == start


def _age(pid: int) -> float:
    start = _start(pid)
    if start is None:
        return 0.0
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - start / TICKS


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _descendants(pid: int) -> list[int]:
    found, queue = [], _children(pid)
    while queue:
        child = queue.pop()
        found.append(child)
        queue += _children(child)
    return found


def bot(token: str, mode: str = "keep", seconds: float = 0.2) -> str:
    return f"{PY} {BOT} {mode} {token} {seconds}"


def word(token: str) -> bytes:
    """The token as a word of its own in an argv: a bot's (the judge's argv holds it inside a bot's command)."""
    return b"\0" + token.encode() + b"\0"


_started: list[subprocess.Popen[bytes]] = []


def mjarena(*args: str, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    judge = subprocess.Popen([PY, "-m", "mjarena.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    _started.append(judge)
    return judge


@pytest.fixture(autouse=True)
def _no_judge_left() -> Iterator[None]:
    """A judge that a failed test did not stop is killed (its pool workers and bots die with it)."""
    yield
    while _started:
        judge = _started.pop()
        if judge.poll() is None:
            judge.kill()
        judge.communicate(timeout=30)


# -- the measure ----------------------------------------------------------------------------------------------


def stop_in_game(judge: subprocess.Popen[bytes], bots: tuple[bytes, ...], sig: int, *,
                 in_workers: bool) -> None:
    """Wait until a game is under way (a bot has run for :data:`IN_GAME`; with ``in_workers``, one under a pool
    worker; without, a slow pre-flight probe passes too), send ``sig`` to the judge, and check that its bots (the
    processes with one of ``bots`` in their argv, and every process of the judge's tree that is not the judge's
    own program: boxes) are gone within :data:`BOTS_WITHIN` and the judge with its pool workers (its children
    that run its program) within :data:`JUDGE_WITHIN`; then that it reports the signal, with no traceback."""
    command = b""  # the judge's argv, which its forked pool workers share (empty for a moment after the exec)
    deadline = time.monotonic() + START
    while True:
        command = command or _cmdline(judge.pid)
        if judge.poll() is not None:
            pytest.fail(f"the judge ended before the test stopped it:\n{judge.communicate()[1].decode()[-3000:]}")
        workers = [pid for pid in _children(judge.pid) if _cmdline(pid) == command] if in_workers else [judge.pid]
        playing = {pid for worker in workers for pid in _descendants(worker)}
        if any(_age(pid) >= IN_GAME for pid in processes_with(*bots) if pid in playing):
            break
        assert time.monotonic() < deadline, f"no game under way after {START:g} s"
        time.sleep(0.05)
    own = [judge.pid] + [pid for pid in _children(judge.pid) if _cmdline(pid) == command]
    others = [pid for pid in _descendants(judge.pid) + processes_with(*bots) if pid not in own]
    own_started = {pid: _start(pid) for pid in own}
    others_started = {pid: _start(pid) for pid in others}
    assert others, "no bot process to stop"

    sent = time.monotonic()
    judge.send_signal(sig)
    bots_gone = judge_gone = None
    while bots_gone is None or judge_gone is None:
        now = time.monotonic() - sent
        if now > JUDGE_WITHIN + 3:
            break
        if bots_gone is None and not processes_with(*bots) and not any(
                _alive(pid, start) for pid, start in others_started.items()):
            bots_gone = now
        if judge_gone is None and judge.poll() is not None and not any(
                _alive(pid, start) for pid, start in own_started.items()):
            judge_gone = now
        time.sleep(0.01)
    name = signal.Signals(sig).name
    left = [(pid, _cmdline(pid)[:80]) for pid, start in others_started.items() if _alive(pid, start)]
    assert bots_gone is not None and bots_gone <= BOTS_WITHIN, \
        f"{name}: bots gone after {bots_gone} s (of {len(others)} processes; left: {left})"
    assert judge_gone is not None and judge_gone <= JUDGE_WITHIN, \
        f"{name}: judge and workers gone after {judge_gone} s ({len(own)} processes)"
    _, err = judge.communicate(timeout=30)
    assert judge.returncode == 128 + sig, err.decode()[-3000:]
    assert "Traceback" not in err.decode() and f"interrupted ({name})" in err.decode(), err.decode()[-3000:]


# -- the commands ---------------------------------------------------------------------------------------------


def _kinds(*cases: tuple[str, int]) -> list[object]:
    """``(sandbox, signal)`` cases, the bwrap ones skipped where bubblewrap cannot make a box."""
    return [pytest.param(kind, sig, id=f"{kind}-{signal.Signals(sig).name}",
                         marks=[requires_bwrap] if kind == "bwrap" else []) for kind, sig in cases]


@pytest.mark.parametrize(("kind", "sig"), _kinds(("none", signal.SIGTERM), ("bwrap", signal.SIGINT),
                                                 ("bwrap", signal.SIGHUP)))
def test_a_stopped_match_kills_its_bots_at_once(kind: str, sig: int, token: str) -> None:
    judge = mjarena("match", "--seed", "1", "--quiet", "--time-limit", "5", "--sandbox", kind,
                    "--bot", bot(token), "--bot", bot(token, "restart"), "--bot", bot(token),
                    "--bot", "builtin:greedy")
    stop_in_game(judge, (word(token),), sig, in_workers=False)


@pytest.mark.parametrize(("command", "kind", "sig"), [
    pytest.param("match", "none", signal.SIGTERM, id="match-none-SIGTERM"),
    pytest.param("tournament", "bwrap", signal.SIGHUP, id="tournament-bwrap-SIGHUP", marks=requires_bwrap),
])
def test_a_judge_stopped_in_pre_flight_does_not_wait_for_the_probes(command: str, kind: str, sig: int, token: str,
                                                                    tmp_path: Path) -> None:
    """Pre-flight probes every program in threads of the judge; stopped, it does not wait for their answers."""
    slow = bot(token, seconds=4.0)  # its first answer, the probe's, takes 4 s
    if command == "match":
        judge = mjarena("match", "--seed", "1", "--quiet", "--time-limit", "5", "--sandbox", kind,
                        "--bot", slow, "--bot", bot(token, "restart", 4.0), "--bot", "builtin:greedy",
                        "--bot", "builtin:random")
    else:
        entrants = [f"--bot={name}={bot(token, 'keep', 4.0 + i)}" for i, name in enumerate("abcdef")]
        judge = mjarena("tournament", *entrants,
                        "--rounds", "1", "--seed", "4", "--workers", "2", "--time-limit", "9", "--sandbox", kind,
                        "--out", str(tmp_path / "cup"))
    stop_in_game(judge, (word(token),), sig, in_workers=False)


@pytest.mark.parametrize(("kind", "sig", "workers"), [
    *(pytest.param(*case.values, 2, id=f"{case.id}-2", marks=case.marks) for case in _kinds(("none", signal.SIGHUP),
                                                                           ("bwrap", signal.SIGTERM))),
    *(pytest.param(*case.values, 1, id=f"{case.id}-1", marks=case.marks) for case in _kinds(("bwrap", signal.SIGINT))),
])
def test_a_stopped_tournament_kills_its_workers_and_bots_at_once(kind: str, sig: int, workers: int, token: str,
                                                                  tmp_path: Path) -> None:
    judge = mjarena("tournament", "--bot", f"a={bot(token)}", "--bot", f"b={bot(token, 'restart')}",
                    "--bot", f"c={bot(token)}", "--bot", "d=builtin:greedy", "--rounds", "1",
                    "--games-per-table", "2", "--seed", "4", "--workers", str(workers), "--time-limit", "5",
                    "--sandbox", kind, "--out", str(tmp_path / "cup"))
    stop_in_game(judge, (word(token),), sig, in_workers=True)


@pytest.mark.parametrize(("kind", "sig"), _kinds(("none", signal.SIGINT), ("bwrap", signal.SIGHUP)))
def test_a_stopped_compare_kills_its_workers_and_bots_at_once(kind: str, sig: int, token: str) -> None:
    judge = mjarena("compare", bot(token), bot(token, "restart"), "--games", "28", "--workers", "2", "--quiet",
                    "--time-limit", "5", "--sandbox", kind)
    stop_in_game(judge, (word(token),), sig, in_workers=True)


def test_a_stopped_tournament_keeps_its_games_and_resumes(token: str, tmp_path: Path) -> None:
    out = tmp_path / "cup"
    fast = bot(token, seconds=0.02)
    args = ["tournament", "--bot", f"a={fast}", "--bot", f"b={fast}", "--bot", "c=builtin:greedy",
            "--bot", "d=builtin:random", "--rounds", "1", "--games-per-table", "4", "--seed", "4",
            "--workers", "2", "--time-limit", "5", "--sandbox", "none", "--out", str(out)]
    first = mjarena(*args)
    games = out / "games.jsonl"
    deadline = time.monotonic() + START
    while not (games.exists() and games.read_text().count("\n") >= 1):  # a game finished, others running
        assert first.poll() is None, first.communicate()[1].decode()[-3000:]
        assert time.monotonic() < deadline, "no game finished"
        time.sleep(0.02)
    stop_in_game(first, (word(token),), signal.SIGTERM, in_workers=True)
    kept = games.read_text()
    assert kept.endswith("\n")
    finished = [json.loads(line)["game"] for line in kept.splitlines()]
    assert 1 <= len(finished) < 4 and len(set(finished)) == len(finished)
    again = mjarena(*args)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err.decode()[-3000:]
    lines = games.read_text()
    assert lines.startswith(kept)
    ids = [json.loads(line)["game"] for line in lines.splitlines()]
    assert len(ids) == len(set(ids)) == 4
    assert all((out / "replays" / f"{game}.json").exists() for game in ids)


# -- the contest server ----------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "sig"), _kinds(("none", signal.SIGHUP), ("bwrap", signal.SIGTERM)))
def test_a_stopped_contest_server_kills_its_workers_and_bots_at_once(kind: str, sig: int, token: str,
                                                                      tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    root = (tmp_path / f"contest-{token}").resolve()
    created = subprocess.run([PY, "-m", "mjarena.cli", "contest", "create", str(root), "--team=red",
                              "--sandbox", kind, "--json"], capture_output=True, text=True, cwd=ROOT)
    assert created.returncode == 0, created.stderr
    red = json.loads(created.stdout)["teams"]["red"]
    url = f"http://127.0.0.1:{_free_port()}"
    judge = mjarena("contest", "serve", str(root), "--port", url.rsplit(":", 1)[1], "--workers", "2")
    deadline = time.monotonic() + START
    while True:
        assert judge.poll() is None, judge.communicate()[1].decode()[-3000:]
        try:
            with urllib.request.urlopen(f"{url}/api/standings", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server never answered"
        time.sleep(0.2)
    submitted = subprocess.run([PY, "-m", "mjarena.cli", "submit", url, str(BOT), "--token", red],
                               capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert submitted.returncode == 0, submitted.stderr
    # The contest's bots hold its builds/ (or submissions/) folder in their argv; the server's only the root.
    stop_in_game(judge, (f"{root}/builds/".encode(), f"{root}/submissions/".encode()), sig, in_workers=True)


def test_a_pool_worker_whose_judge_died_before_it_started_exits_at_once() -> None:
    """A judge killed between a worker's fork and its initializer never sends it ``PR_SET_PDEATHSIG`` (the kernel
    sends it only for a parent that dies after the worker asked): such an orphan held the judge's pipes open,
    waiting for work, and a killed tournament's caller waited for ever.  The initializer knows its judge's pid and
    exits when its parent is another process (here: told of pid 1, not its parent)."""
    import subprocess
    import sys

    code = ("from mjarena.lifetime import pool_worker\n"
            "import os\n"
            "pool_worker(os.getppid())\n"
            "print('kept', flush=True)\n"
            "pool_worker(1)\n"
            "print('orphan kept', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.splitlines() == ["kept"] and done.returncode == 1, (done.stdout, done.stderr)

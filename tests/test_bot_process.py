"""Bots as real subprocesses: restart and keep-running mode, every limit, and nothing left behind.

The misbehaving bots are in tests/bots/.  Limits are short (0.3-0.5 s) where a bot must be stopped; durations are
only checked against generous ceilings, never as timings.
"""

from __future__ import annotations

import ast
import json
import os
import selectors
import shutil
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mjarena.agents.errors import (
    BotBadOutput,
    BotCrash,
    BotError,
    BotMemoryError,
    BotOutputLimit,
    BotTimeout,
    JudgeError,
)
from mjarena.lifetime import stat_fields
from mjarena.protocol.pipe_readers import _ROOM, CHUNK_BYTES, ThreadPipes
from mjarena.protocol.process import BotProcess, ProcessTransport, live_group_members
from mjarena.sandbox import Sandbox

from boxes import requires_bwrap, sandbox_kinds

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "bots"
EXAMPLES = ROOT / "examples" / "bots"
HAND = "1 W1 W1 W1 W2 W3 W4 B5 B5 B6 B7 T8 T8 T9"
CEILING = 10.0  # seconds: far above every limit used here, far below the sleeping bots' 30 s


def bot(name: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / name), *args]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in (b"Z", b"X")


def eventually(predicate: Callable[[], bool], within: float = CEILING) -> bool:
    """Whether ``predicate`` becomes true within ``within`` seconds (polled)."""
    end = time.monotonic() + within
    while not predicate():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


@pytest.fixture
def processes() -> Iterator[list[BotProcess]]:
    """Collects the BotProcess objects of a test; afterwards checks that each is closed and its groups are gone."""
    made: list[BotProcess] = []
    yield made
    for process in made:
        process.close()
        for pid in process.started_pids:
            assert live_group_members(pid) == [], f"process group {pid} of {process!r} is still alive"


def _factory(processes: list[BotProcess], kind: str, pipes: str = "select"):
    def factory(command: list[str], **limits: object) -> BotProcess:
        limits.setdefault("time_limit", 5.0)
        limits.setdefault("sandbox", Sandbox(kind=kind))
        limits.setdefault("pipes", pipes)
        process = BotProcess(command, **limits)  # type: ignore[arg-type]
        processes.append(process)
        return process

    return factory


class _SocketsOnlySelector(selectors.SelectSelector):
    """``select`` as Windows has it: sockets only."""

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        fd = fileobj if isinstance(fileobj, int) else fileobj.fileno()
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            raise OSError(10038, "not a socket: select on Windows takes sockets only")
        return super().register(fileobj, events, data)


def _as_windows_reads_pipes(monkeypatch: pytest.MonkeyPatch) -> None:
    """What Windows lacks to read pipes taken away: ``select`` on a pipe fails, and ``os.set_blocking`` (Windows'
    Python before 3.12 has none) too; the thread reader needs neither."""
    monkeypatch.setattr(selectors, "DefaultSelector", _SocketsOnlySelector)

    def set_blocking(fd: int, blocking: bool) -> None:
        raise AttributeError("os.set_blocking: not on Windows")

    monkeypatch.setattr(os, "set_blocking", set_blocking)


@pytest.fixture(params=[*sandbox_kinds(), "none-threads"])
def make(processes: list[BotProcess], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Makes BotProcess objects without a box and in the bwrap sandbox, their pipes read with ``select``, and
    without a box, their pipes read by threads as on Windows (where ``select`` takes sockets only): the verdicts
    are the same."""
    kind, _, pipes = request.param.partition("-")
    if pipes == "threads":
        _as_windows_reads_pipes(monkeypatch)
    return _factory(processes, kind, pipes or "select")


@pytest.fixture
def make_boxed(processes: list[BotProcess]):
    """Makes BotProcess objects in the bwrap sandbox only."""
    return _factory(processes, "bwrap")


@pytest.fixture(params=["select", "threads"])
def make_plain(processes: list[BotProcess], request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Makes unboxed BotProcess objects, for tests of process identity: in a box a bot sees namespace pids; their
    pipes read with ``select``, and by threads as on Windows."""
    if request.param == "threads":
        _as_windows_reads_pipes(monkeypatch)
    return _factory(processes, "none", request.param)


def fails(process: BotProcess, request: str, error_class: type[BotError]) -> BotError:
    """Ask, expect ``error_class``, and check what every failure leaves: a closed process, no live group."""
    with pytest.raises(error_class) as caught:
        process.ask(request)
    error = caught.value
    assert error.request == request
    assert error.elapsed is not None and 0 <= error.elapsed < CEILING
    assert process.closed and process.error is error and process.pid is None
    assert process.history[-1].request == request and process.history[-1].response is None
    for pid in process.started_pids:
        assert live_group_members(pid) == []
        assert not alive(pid)
    with pytest.raises(RuntimeError, match="closed"):
        process.ask("2 T1")
    return error


# -- well-behaved bots: the two modes ----------------------------------------------------------------------------


def test_a_restart_bot_is_started_for_every_request_with_the_whole_history(make_plain) -> None:
    process = make_plain(bot("good_bot.py"), time_limit=5.0, memory_limit_mib=128)
    replies = [process.ask(request) for request in ("0 1", HAND, "2 T3")]
    assert [r.response for r in replies] == ["PASS", "PASS", "PLAY T3"]
    assert [r.mode for r in replies] == ["restart"] * 3
    assert not any(r.kept for r in replies)
    reports = [json.loads(r.data) for r in replies]
    assert len({report["pid"] for report in reports}) == 3 == process.starts
    assert [report["seen"] for report in reports] == [1, 2, 3]  # requests in its input
    assert [report["responses"] for report in reports] == [0, 1, 2]  # one fewer response
    assert [report["data"] for report in reports] == ["", replies[0].data, replies[1].data]  # data comes back
    assert reports[0]["time_limit"] == "5000" and reports[0]["memory_limit"] == "128"
    assert process.requests == ["0 1", HAND, "2 T3"] and process.responses == ["PASS", "PASS", "PLAY T3"]
    assert process.data == replies[-1].data
    assert [(line.request, line.response, line.mode) for line in process.history] == [
        ("0 1", "PASS", "restart"),
        (HAND, "PASS", "restart"),
        ("2 T3", "PLAY T3", "restart"),
    ]
    assert all(line.elapsed_ms > 0 for line in process.history)
    assert process.pid is None  # nothing kept running between requests
    for report in reports:
        assert not alive(report["pid"])


def test_a_keep_running_bot_keeps_one_process_and_gets_bare_requests(make_plain) -> None:
    process = make_plain(bot("good_bot.py", "keep"))
    replies = [process.ask(request) for request in ("0 1", HAND, "2 T3", "3 2 HU SELF")]
    assert [r.mode for r in replies] == ["restart", "keep", "keep", "keep"]
    assert all(r.kept for r in replies)
    reports = [json.loads(r.data) for r in replies]
    pid = reports[0]["pid"]
    assert {report["pid"] for report in reports} == {pid} and process.starts == 1
    assert [report["request"] for report in reports] == ["0 1", HAND, "2 T3", "3 2 HU SELF"]  # quotes decoded
    assert process.pid == pid and alive(pid)
    process.close()
    assert not alive(pid) and live_group_members(pid) == []
    process.close()  # twice is harmless


def test_the_judge_follows_the_bot_from_one_mode_to_the_other(make_plain) -> None:
    process = make_plain(bot("good_bot.py", "alternate"))  # keeps running after its 1st, 3rd, ... answers
    replies = [process.ask(request) for request in ("0 1", HAND, "2 T3", "3 1 PLAY W1", "2 W9")]
    assert [r.mode for r in replies] == ["restart", "keep", "restart", "keep", "restart"]
    assert [r.kept for r in replies] == [True, False, True, False, True]
    pids = [json.loads(r.data)["pid"] for r in replies]
    assert pids[0] == pids[1] and pids[2] == pids[3] and len(set(pids)) == 3 == process.starts
    assert json.loads(replies[2].data)["seen"] == 3  # restarted with the whole history


def test_context_manager_and_transport_close_a_kept_bot() -> None:
    with BotProcess(bot("good_bot.py", "keep"), time_limit=5.0) as process:
        transport = ProcessTransport(process)
        assert transport.ask("0 0").kept
        pid = process.pid
        assert pid is not None and alive(pid)
    assert not alive(pid) and process.closed
    assert transport.history == process.history
    transport.close()


def test_the_reading_thread_holds_a_bounded_buffer_and_gives_everything_then_the_end() -> None:
    """The thread reader (Windows' way) stops reading while its buffer holds ``_ROOM`` bytes, so a flood waits on
    its write as on a full pipe; the judge reads at most what it asks for, every byte in order, then the end."""
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    in_read, in_write = os.pipe()
    pipes = ThreadPipes(in_write, out_read, err_read)
    try:
        os.set_blocking(out_write, False)
        block, written, full_rounds = bytes(range(256)) * 256, bytearray(), 0
        while full_rounds < 3 and len(written) < 16 << 20:
            try:
                written += block[: os.write(out_write, block)]
                full_rounds = 0
            except BlockingIOError:  # the pipe is full: is the thread waiting for room, or still reading?
                full_rounds += len(pipes.readers["stdout"].buffer) >= _ROOM
                time.sleep(0.01)
        assert full_rounds == 3, f"the reading thread took {len(written)} bytes without stopping"
        assert len(written) <= _ROOM + CHUNK_BYTES + (1 << 20)  # its buffer, one read, the pipe's largest size
        assert pipes.wait(0.0) == ["stdout"] and pipes.read("stderr", 10) is None
        os.close(out_write)
        got = bytearray()
        while (chunk := pipes.read("stdout", 1000)) != b"":
            if chunk is None:
                assert pipes.wait(CEILING) == ["stdout"]
                continue
            assert len(chunk) <= 1000
            got += chunk
        assert got == written
        pipes.write(memoryview(b"2 T3\n"))
        assert os.read(in_read, 100) == b"2 T3\n"
    finally:
        pipes.close()
        for fd in (err_write, in_read):
            os.close(fd)


def test_a_chatty_stderr_never_blocks_the_bot(make) -> None:
    process = make(bot("stderr_bot.py"))
    assert process.ask("0 0").response == "PASS"


def test_a_grandchild_left_behind_is_killed_with_the_group(make_plain) -> None:
    process = make_plain(bot("forking_bot.py"))
    grandchildren = [int(process.ask(request).data) for request in ("0 0", HAND)]
    assert eventually(lambda: not any(alive(pid) for pid in grandchildren))  # SIGKILL lands asynchronously
    process.close()
    assert all(live_group_members(pid) == [] for pid in process.started_pids)  # close() checks it too


# -- every failure gets its reason ----------------------------------------------------------------------------


def test_timeout(make) -> None:
    error = fails(make(bot("sleep_bot.py"), time_limit=0.3), "0 0", BotTimeout)
    assert error.reason == "timeout" and "no answer within 0.300 s" in error.detail


def test_timeout_of_a_kept_bot_that_hangs(make) -> None:
    process = make(bot("keep_then_hang_bot.py"), time_limit=0.5)
    first = process.ask("0 0")
    assert first.response == "PASS" and first.kept
    pid = process.pid
    error = fails(process, HAND, BotTimeout)
    assert error.reason == "timeout"
    assert pid is not None and not alive(pid)


def test_timeout_of_a_bot_that_answers_but_neither_exits_nor_asks_to_stay(make) -> None:
    error = fails(make(bot("answer_then_hang_bot.py"), time_limit=0.5), "0 0", BotTimeout)
    assert "neither exited nor printed the keep-running marker" in error.detail


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("exit", "exit code 3"),
        ("signal", "killed by SIGSEGV"),
        ("after-answer", "exit code 2"),
        ("raise", "exit code 1"),
    ],
)
def test_crash(make, mode: str, words: str) -> None:
    error = fails(make(bot("crash_bot.py", mode)), "0 0", BotCrash)
    assert error.reason == "crash" and error.detail.startswith(words)
    assert "boom: the bot is about to fail" in error.stderr and "boom" in error.detail
    if mode == "raise":
        assert "RuntimeError: the bot lost track of its hand" in error.stderr


def test_a_bot_that_reads_to_the_end_of_input_gets_a_hint(make) -> None:
    error = fails(make(bot("eof_reader_bot.py"), time_limit=0.5), "0 0", BotTimeout)
    assert "read one line, not to the end of input" in error.detail


def test_a_slow_bot_gets_no_such_hint(make) -> None:
    error = fails(make(bot("sleep_bot.py"), time_limit=0.5), "0 0", BotTimeout)
    assert "end of input" not in error.detail


def test_crash_of_a_kept_bot_that_exits_instead_of_waiting(make) -> None:
    process = make(bot("keep_then_exit_bot.py"))
    assert process.ask("0 0").kept
    error = fails(process, HAND, BotCrash)
    assert "exited" in error.detail and "exit code 0" in error.detail


def test_a_program_that_cannot_start_is_the_judges_error_not_a_crash(make) -> None:
    process = make([str(BOTS / "no_such_bot")])
    with pytest.raises(JudgeError, match="cannot start") as caught:
        process.ask("0 0")
    assert not isinstance(caught.value, BotError) and process.closed


@requires_bwrap
def test_folders_nested_past_the_longest_path_are_wiped_and_the_bot_plays_on(make_boxed) -> None:
    """A program that leaves folders nested past PATH_MAX in its /tmp: the box's init deletes them relative to open
    folders (issue 41: whatever the depth, one call an entry), so the next start is an ordinary one, neither a
    judge error (a bot could turn a losing game into one) nor the bot's crash.  (Past its bounded time such litter
    is the bot's own failure: ``test_box_leftovers.py``.)"""
    process = make_boxed(bot("deep_tmp_bot.py"))
    assert process.ask("0 0").response == "PASS"
    assert process.ask(HAND).response == "PASS"


def _built(tmp_path: Path) -> Path:
    """good_bot.py as a build folder's ``work/`` (readable by the box's own uid)."""
    work = tmp_path / "builds" / "KEY" / "work"
    work.mkdir(parents=True)
    (work / "bot.py").write_bytes((BOTS / "good_bot.py").read_bytes())
    for folder in (work, work.parent):
        folder.chmod(0o755)
    (work / "bot.py").chmod(0o644)
    return work


@pytest.mark.parametrize("how", ["evicted", "emptied", "replaced"])
def test_a_build_lost_between_restarts_is_the_judges_error_not_a_crash(make, tmp_path: Path, how: str) -> None:
    """Issue 30, attack 4: the build of a restart-mode bot goes (evicted: renamed away and removed, as the cache
    does; its files removed; another folder put at its path) after its first answer: its next start is the
    judge's failure.  Before, the start failed (exit code 127, or python's 2) and the bot was given a ``crash``."""
    work = _built(tmp_path)
    process = make([sys.executable, str(work / "bot.py")], readable=[str(work)])
    assert process.ask("0 0").response == "PASS" and process.starts == 1
    if how == "evicted":
        work.parent.rename(tmp_path / "away")
        shutil.rmtree(tmp_path / "away")
    elif how == "emptied":
        (work / "bot.py").unlink()
        work.rmdir()
    else:
        work.rename(tmp_path / "old")
        _built(tmp_path / "again").rename(work)
    with pytest.raises(JudgeError, match=str(work)) as caught:
        process.ask(HAND)
    assert not isinstance(caught.value, BotError) and process.closed
    assert not any(exchange.response is None for exchange in process.history)  # no answer was recorded as failed


def test_memory_by_address_space_limit(make) -> None:
    process = make(bot("memory_bot.py"), memory_limit_mib=128, limit_address_space=True)
    error = fails(process, "0 0", BotMemoryError)
    assert error.reason == "memory" and "MemoryError" in error.stderr
    assert "128 MiB" in error.detail


def test_memory_by_the_resident_size_watch(make) -> None:
    process = make(bot("memory_bot.py", "--touch"), memory_limit_mib=64)
    error = fails(process, "0 0", BotMemoryError)
    assert "over the limit of 64 MiB" in error.detail


def test_output_limit(make) -> None:
    error = fails(make(bot("flood_bot.py")), "0 0", BotOutputLimit)
    assert error.reason == "output_limit" and "1048576 bytes" in error.detail


def test_output_limit_counts_a_valid_answer_too(make) -> None:
    error = fails(make(bot("good_bot.py"), output_limit=20), "0 0", BotOutputLimit)
    assert "20 bytes" in error.detail


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("garbage_bot.py", "'hello, judge! PASS' to '0 0' is not JSON"),
        ("silent_bot.py", "printed nothing"),
        ("no_response_bot.py", 'has no "response" key'),
    ],
)
def test_bad_output(make, name: str, words: str) -> None:
    error = fails(make(bot(name)), "0 0", BotBadOutput)
    assert error.reason == "bad_output" and words in error.detail


def test_stderr_in_an_error_is_the_bounded_tail(make) -> None:
    error = fails(make(bot("stderr_bot.py", "fail"), stderr_tail=4096), "0 0", BotCrash)
    assert error.stderr.endswith("last words of the bot\n")
    assert len(error.stderr) <= 4096
    assert "last words of the bot" in error.detail


def test_a_failure_after_good_answers_keeps_the_history(make) -> None:
    process = make(bot("keep_then_hang_bot.py"), time_limit=0.3)
    process.ask("0 3")
    fails(process, HAND, BotTimeout)
    assert [(line.request, line.response) for line in process.history] == [("0 3", "PASS"), (HAND, None)]
    assert process.requests == ["0 3"]  # the failed request is not part of the bot's history


def test_bad_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="empty bot command"):
        BotProcess("")
    with pytest.raises(ValueError, match="no such way to read a bot's pipes: 'poll' \\(one of select, threads\\)"):
        BotProcess("true", pipes="poll")
    assert BotProcess("true").pipes == "select"
    monkeypatch.setattr(sys, "platform", "win32")
    assert BotProcess("true").pipes == "threads", "Windows' select takes sockets only"
    with pytest.raises(ValueError, match="cannot be read with select on Windows"):
        BotProcess("true", pipes="select")


# -- the example bots ------------------------------------------------------------------------------------------

EXAMPLE_BOTS = ("restart_bot.py", "keep_running_bot.py")


@pytest.mark.parametrize("name", EXAMPLE_BOTS)
def test_example_bots_use_only_the_standard_library(name: str) -> None:
    source = (EXAMPLES / name).read_text()
    assert "mjarena" not in source
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= {"json", "sys"}


def test_example_bots_share_one_strategy() -> None:
    def strategy(name: str) -> str:
        text = (EXAMPLES / name).read_text()
        return text[text.index("# ---- strategy:") : text.index("# ---- end of strategy")]

    assert strategy("restart_bot.py") == strategy("keep_running_bot.py")


WINNING = "1 W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 T9 T9"  # wins with B6 or B9


@pytest.mark.parametrize(
    ("requests", "responses", "answer"),
    [
        (["0 2"], [], "PASS"),
        (["0 2", WINNING], ["PASS"], "PASS"),
        (["0 2", WINNING, "2 B9"], ["PASS", "PASS"], "HU"),
        (["0 2", WINNING, "3 1 PLAY B6"], ["PASS", "PASS"], "HU"),
        (["0 2", WINNING, "3 1 PLAY T4"], ["PASS", "PASS"], "PASS"),
        (["0 2", WINNING, "3 1 PENG T4"], ["PASS", "PASS"], "PASS"),
        (["0 2", WINNING, "2 W9"], ["PASS", "PASS"], "PLAY W9"),  # the isolated tile
    ],
)
@pytest.mark.parametrize("name", EXAMPLE_BOTS)
def test_example_bots_answer_sensibly(make, name: str, requests, responses, answer: str) -> None:
    process = make([sys.executable, str(EXAMPLES / name)])
    process.requests, process.responses = list(requests[:-1]), list(responses)
    assert process.ask(requests[-1]).response == answer


@pytest.mark.parametrize("name", EXAMPLE_BOTS)
def test_example_bots_give_a_winning_shaped_target(make, name: str) -> None:
    from mjarena.hand.standard import is_winning
    from mjarena.tiles import counts_of, parse_tiles

    process = make([sys.executable, str(EXAMPLES / name)])
    hand = "1 W1 W5 W9 B2 B4 B8 T1 T3 T3 T6 T7 T9 W2"
    process.requests, process.responses = ["0 0", hand, "2 B5"], ["PASS", "PASS", "PLAY W9"]
    target = parse_tiles(process.ask("4").response, "noi")
    assert len(target) == 14
    counts = counts_of(target)
    assert max(counts) <= 4 and is_winning(counts)


def test_example_keep_running_bot_keeps_running(make) -> None:
    process = make([sys.executable, str(EXAMPLES / "keep_running_bot.py")])
    replies = [process.ask(request) for request in ("0 1", WINNING, "3 0 PLAY T5", "2 B6")]
    assert [r.response for r in replies] == ["PASS", "PASS", "PASS", "HU"]
    assert [r.mode for r in replies] == ["restart", "keep", "keep", "keep"] and process.starts == 1

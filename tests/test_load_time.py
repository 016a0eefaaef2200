"""A bot's time is its own (RULINGS.md, "Limits per answer"): beside a CPU hog, a bot that needs 350 ms of CPU per
answer under a 1 s limit is never timed out, while one that burns 1.3 s of CPU, or sleeps 1.3 s, still is.

The hog (tests/hog.py) is several busy shell loops per core, each in a session of its own, at the bots' priority;
it runs only while the bots answer, and the test kills exactly the processes it started.  The example bots of
five languages in a contest beside the same hog: test_load_contest.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hog import cpu_hog
from mjarena.agents.errors import BotError
from mjarena.builds import BuildBusy, build
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox

from boxes import sandbox_kinds

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the run-queue delay is Linux's")

_BOT = r"""
import json, sys, time
mode, seconds = sys.argv[1], float(sys.argv[2])
keep = len(sys.argv) > 3
for line in sys.stdin:
    if mode == "burn":
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
    else:
        time.sleep(seconds)
    print(json.dumps({"response": "PASS"}))
    if keep:
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<")
    sys.stdout.flush()
    if not keep:
        break
"""


@pytest.fixture
def hog() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The busy loops of :func:`hog.cpu_hog` while the test runs."""
    with cpu_hog() as loops:
        yield loops


def _answer(bot: BotProcess, requests: int, outcome: dict[str, object], name: str) -> None:
    try:
        replies = [bot.ask(f"{index} 0") for index in range(requests)]
        outcome[name] = replies
    except BotError as error:
        outcome[name] = error
    finally:
        bot.close()


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_own_time_under_a_cpu_hog(hog: list[subprocess.Popen[bytes]], kind: str, tmp_path: Path) -> None:
    """The bots at once beside the hog: the 350 ms one answers (with no box twice: a restart, then kept running;
    in bwrap once, its wait read by the box's init), the 1.3 s sleeper and (with no box) the 1.3 s burner are
    timed out.  (The burner's CPU limit is the same code in a box; left out there to keep the hog short.)"""
    script = str(tmp_path / "bot.py")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(_BOT)
    sandbox = Sandbox(kind=kind)
    readable = [script, sys.prefix, sys.base_prefix]

    def make(*args: str) -> BotProcess:
        return BotProcess([sys.executable, "-S", script, *args], time_limit=1.0, sandbox=sandbox,
                          readable=readable, poll_interval=0.05)

    boxed = kind != "none"
    bots = {"fair": (make("burn", "0.35", "keep"), 1 if boxed else 2), "sleeper": (make("sleep", "1.3"), 1)}
    if not boxed:
        bots["burner"] = (make("burn", "1.3"), 1)
    outcome: dict[str, object] = {}
    threads = [threading.Thread(target=_answer, args=(bot, requests, outcome, name))
               for name, (bot, requests) in bots.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    fair = outcome["fair"]
    assert isinstance(fair, list), f"the 350 ms bot was failed under load: {fair}"
    assert [reply.mode for reply in fair] == ["restart", "keep"][: 1 if boxed else 2]
    assert all(reply.queued is not None for reply in fair)  # measured, however little
    for name in bots.keys() - {"fair"}:
        error = outcome[name]
        assert isinstance(error, BotError) and error.reason == "timeout", f"{name}: {error}"


@pytest.fixture
def one_busy_core() -> Iterator[None]:
    """This process (and so the compilers it starts) on one core beside eight busy loops pinned to it, each in a
    session of its own: a newcomer there gets about a ninth of that core, however quiet the rest of the machine."""
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})  # the loops started next inherit it
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True) for _ in range(8)]
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        for loop in loops:
            loop.kill()
            loop.wait()


def test_a_compile_out_of_time_on_a_busy_machine_is_built_again(one_busy_core: None, tmp_path: Path) -> None:
    """A compiler that the busy core starves (it gets less CPU than its own time allows before the wall-clock cap,
    five times its limit, ends it): the judge's failure, kept nowhere, so the same source is compiled again at the
    next try (never a cached ``compile_error``).  A compiler that had its CPU and still passed its limit is the
    source's verdict: that is the other half of the rule (``test_builds.py``)."""
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"languages": {"slow": {
        "suffixes": [".slow"], "package": "dash", "source_name": "bot.slow",
        "compile": ["sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"], "run": ["sh", "bot.slow"],
        "version": ["sh", "-c", "echo 1"],
    }}}))
    source = tmp_path / "mine.slow"
    source.write_text("echo '{\"response\": \"PASS\"}'\n")
    cache = tmp_path / "cache"
    for _ in range(2):
        with pytest.raises(BuildBusy, match="the judge's machine was busy"):
            build(source, sandbox=Sandbox(kind="none"), toolchains=table, cache_dir=cache, wall_limit=0.05)
    kept = [entry.name for entry in cache.iterdir()] if cache.exists() else []
    assert kept == [], "nothing kept for the source"


def _spin(iterations: int) -> str:
    return f"sh -c 'i=0; while [ $i -lt {iterations} ]; do i=$((i+1)); done'"


def test_a_compilers_subprocess_keeps_its_wait_for_a_cpu_once_reaped(one_busy_core: None, tmp_path: Path) -> None:
    """A compiler as g++ is one (a driver running ``cc1plus``, then ``as``, each reaped by the driver, not by the
    box's init), starved on the busy core: about 0.3 s of CPU in all, against a 1 s limit of its own time.  Its
    first process's wait went with it when the driver reaped it, so its deadline, moved by the waits read when it
    passed, passed again at once with the second process running: a timeout charged for the load (BuildBusy).
    Read while it runs (``sandbox.run.DELAY_READ_SECONDS``), it is built."""
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"languages": {"twostep": {
        "suffixes": [".twostep"], "package": "dash", "source_name": "bot.twostep",
        "compile": ["sh", "-c", f"{_spin(150_000)}; {_spin(150_000)}"], "run": ["sh", "bot.twostep"],
        "version": ["sh", "-c", "echo 1"],
    }}}))
    source = tmp_path / "mine.twostep"
    source.write_text("echo '{\"response\": \"PASS\"}'\n")
    result = build(source, sandbox=Sandbox(kind="none"), toolchains=table, cache_dir=tmp_path / "cache",
                   wall_limit=1.0)
    assert result.status == "ok", result.message


def test_match_says_in_one_line_when_the_machine_was_overloaded(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``match`` reads the answers' waits for a CPU from the transcripts: one line on standard error, with the
    figures, when an answer waited more than a tenth of its limit (none for a match of in-process bots)."""
    import mjarena.arena.match as match_module
    from mjarena.cli import main

    real = match_module.run_match

    def loaded(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        result.transcripts[0] = [{"request": "0 0", "response": "PASS", "elapsed_ms": 30.0, "mode": "restart",
                                  "queued_ms": 450.0}, {"request": "1 W1", "response": "PASS", "elapsed_ms": 20.0,
                                                        "mode": "keep", "queued_ms": 50.0}]
        return result

    assert main(["match", "--seed", "1", "--quiet", "--sandbox", "none"]) == 0
    assert "overloaded" not in capsys.readouterr().err
    monkeypatch.setattr(match_module, "run_match", loaded)
    assert main(["match", "--seed", "1", "--quiet", "--sandbox", "none"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "overloaded" in line]
    assert said == ["the judge's machine was overloaded: the bots waited 0.500 s for a CPU over 2 answers (most "
                    "0.450 s on one; 1 answer waited over 0.100 s), not counted as their time"]

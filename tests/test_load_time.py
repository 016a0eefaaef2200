"""A bot's time is its own (RULINGS.md, "Limits per answer"): beside a CPU hog, a bot that needs 350 ms of CPU per
answer under a 1 s limit is never timed out, while one that burns 1.3 s of CPU, or sleeps 1.3 s, still is.

The hog is several busy shell loops per core, each in a session of its own (the scheduler's autogroups weigh one
session's loops as one, so loops sharing a session would be one neighbour, not several), at the bots' priority;
it runs only while the bots answer, and the test kills exactly the processes it started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from mjarena.agents.errors import BotError
from mjarena.builds import BuildBusy, build
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox

from boxes import sandbox_kinds

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the run-queue delay is Linux's")

LOOPS_PER_CORE = 2
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
    """Busy loops, ``LOOPS_PER_CORE`` per core this process may use, each in a session of its own."""
    cores = len(os.sched_getaffinity(0))
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
             for _ in range(LOOPS_PER_CORE * cores)]
    try:
        yield loops
    finally:
        for loop in loops:
            os.kill(loop.pid, signal.SIGKILL)  # only what this fixture started, by its pid
            loop.wait()


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


def test_a_compile_out_of_time_on_a_busy_machine_is_built_again(hog: list[subprocess.Popen[bytes]],
                                                                 tmp_path: Path) -> None:
    """A compiler that needs more than its (tiny) limit of its own time beside the hog: the judge's failure, kept
    nowhere, so the same source is compiled again at the next try (never a cached ``compile_error``)."""
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

"""mjarena on macOS and Windows, tested on Linux with what those systems lack taken away (issue 34): every module
imports (tests/platform_sim.py), a bot's command line is split by the system's rules, the web server's open-file
limit is clamped where the hard limit is unlimited, and a contest refuses to serve off Linux, saying why."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjarena.cli import main
from mjarena.command_line import split_command, split_windows

from boxes import processes_with

SIMULATION = Path(__file__).with_name("platform_sim.py")
ROOT = Path(__file__).resolve().parents[1]


def _why_proc_cannot_be_hidden() -> str | None:
    if os.geteuid() != 0:
        return "hiding /proc takes a mount namespace: run as root"
    if shutil.which("unshare") is None:
        return "no unshare (util-linux) to make a mount namespace"
    if importlib.util.find_spec("psutil") is None:
        return "psutil is not installed (the test extra installs it)"
    return None


WHY_NOT_HIDDEN = _why_proc_cannot_be_hidden()


@pytest.mark.parametrize("system", ["win32", "darwin"])
def test_every_module_imports_without_the_names_the_system_lacks(system: str) -> None:
    """Before issue 34, on Windows: signal.SIGHUP (mjarena.lifetime, imported by every subcommand), os.sysconf
    (the sandbox package), fcntl (the contest) and resource (the web server) failed at import; 28 modules."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1] / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(SIMULATION), system], capture_output=True, text=True, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and lines[-1].endswith(" 0 failed"), done.stdout
    assert int(lines[-1].split()[1]) > 90, "every module of the package was imported"


def test_a_windows_path_in_a_bot_command_stays_one_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bot "python C:\\Users\\me\\bot.py"`` was split by POSIX rules into ``C:Usersmebot.py``."""
    from mjarena.agents.factory import make_agent
    from mjarena.limits import Limits
    from mjarena.protocol import process

    command = r"python C:\Users\me\bot.py"
    assert split_command(command, windows=False) == ["python", "C:Usersmebot.py"], "the old way"
    started: list[list[str]] = []

    class Recorder:
        def __init__(self, argv: list[str], **_: Any) -> None:
            started.append(argv)
            raise RuntimeError("recorded")

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(process, "BotProcess", Recorder)
    with pytest.raises(RuntimeError, match="recorded"):
        make_agent(command, 0, Limits())
    assert started == [["python", r"C:\Users\me\bot.py"]]
    assert split_command(r'"C:\Program Files\Python\python.exe" "my bot.py"') == [
        r"C:\Program Files\Python\python.exe", "my bot.py"]


@given(st.lists(st.text(alphabet=st.sampled_from('ab \t\\"C:.'), max_size=8), min_size=1, max_size=5))
def test_windows_rules_read_back_what_python_writes_for_windows(words: list[str]) -> None:
    """``subprocess`` joins an argv into a Windows command line with ``list2cmdline``; split by Windows' rules it
    gives the same words back."""
    assert split_windows(subprocess.list2cmdline(words)) == words


def test_the_open_file_limit_is_clamped_where_the_hard_limit_is_unlimited(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS: the hard limit is RLIM_INFINITY and a soft limit above OPEN_MAX (10240) is refused, so asking for
    the hard limit left the soft one at 256."""
    from mjarena.web import server

    unlimited = 2**63 - 1
    limits = {"nofile": (256, unlimited)}

    def setrlimit(_which: int, pair: tuple[int, int]) -> None:
        if pair[0] > 10240:
            raise ValueError("not allowed to raise maximum limit")
        limits["nofile"] = pair

    fake = SimpleNamespace(RLIMIT_NOFILE=7, RLIM_INFINITY=unlimited, getrlimit=lambda _which: limits["nofile"],
                           setrlimit=setrlimit)
    monkeypatch.setattr(server, "resource", fake)
    assert server.raise_open_file_limit() == server.UNLIMITED_HARD_CLAMP == 10240
    assert limits["nofile"] == (10240, unlimited)
    assert server.total_cap(unlimited) == server.MAX_TOTAL
    monkeypatch.setattr(server, "resource", None)  # Windows: no such module
    assert server.raise_open_file_limit() == -1 and server.total_cap(-1) == server.MAX_TOTAL


def test_a_replay_is_written_where_os_has_no_fchmod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mjarena.files import write_atomically

    monkeypatch.delattr(os, "fchmod")
    write_atomically(tmp_path / "game.json", "{}")
    assert (tmp_path / "game.json").read_text(encoding="utf-8") == "{}"


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_contest_serve_refuses_other_systems_with_the_reason(system: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "platform", system)
    assert main(["contest", "serve", str(tmp_path / "cup")]) == 2
    err = capsys.readouterr().err
    assert f"a contest needs Linux, this is {system}" in err and err.count("\n") == 1


@pytest.mark.parametrize("system", ["win32", "darwin"])
def test_a_match_of_built_in_bots_plays_the_same_game_there(system: str) -> None:
    """The judge's own loop (signals, the lifetime of its children, the replay) with what the system lacks taken
    away: the same game as here."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1] / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    args = ["match", "--seed", "11", "--json", "--bot", "builtin:strong", "--bot", "builtin:greedy", "--bot",
            "builtin:random", "--bot", "builtin:greedy"]
    done = subprocess.run([sys.executable, str(SIMULATION), system, "--", *args], capture_output=True, text=True,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    here = subprocess.run([sys.executable, "-c", "import sys; from mjarena.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, env=env, check=True)
    assert done.stdout == here.stdout and '"events"' in here.stdout


@pytest.mark.parametrize(("system", "sandbox", "why"), [
    ("darwin", "bwrap", "the bwrap sandbox needs Linux, this is darwin: "),
    ("win32", "bwrap", "the bwrap sandbox needs Linux, this is win32: "),
])
def test_what_cannot_run_off_linux_is_refused_before_play_saying_why(system: str, sandbox: str, why: str,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Before: on macOS the default box said to install a Debian package (bubblewrap)."""
    monkeypatch.setattr(sys, "platform", system)
    bot = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'restart_bot.py'}"
    args = ["match", "--sandbox", sandbox, "--bot", bot] + ["--bot", "builtin:greedy"] * 3
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"--sandbox {sandbox}: {why}" in err and err.count("\n") == 1


def test_ru_maxrss_is_read_in_the_unit_of_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS gives bytes: read as KiB, a bot's 31 MiB was "peak resident memory 31980 MiB"."""
    from mjarena.sandbox.portable import maxrss_kib

    monkeypatch.setattr(sys, "platform", "darwin")
    assert maxrss_kib(31 << 20) == 31 << 10
    monkeypatch.setattr(sys, "platform", "linux")
    assert maxrss_kib(31 << 10) == 31 << 10


def _as_on_macos(tmp_path: Path, args: list[str], system: str = "darwin", *, script: str | None = None,
                 own_pids: bool = False) -> subprocess.CompletedProcess[str]:
    """``mjarena ARGS`` (as ``python -m mjarena``, or run by ``script``: the ``mjarena`` command, a test's script) in
    the test mode for macOS (or ``system``), its pools' workers too, ``/proc`` hidden (skipped or failed where it
    cannot be).  ``own_pids``: in a PID namespace of its own as well, whose procfs shows its processes only (on
    Linux psutil reads every process's ``stat`` to find a bot's children, many times a game: four times slower on
    a shared machine); not for a test that looks for processes left behind, which the namespace's end kills."""
    if WHY_NOT_HIDDEN is not None:
        (pytest.fail if os.environ.get("MJARENA_REQUIRE_SANDBOX") == "1" else pytest.skip)(WHY_NOT_HIDDEN)
    procfs = tmp_path / "procfs"
    procfs.mkdir()
    script_words = ["--"] if script is None else ["--run", script]
    shell = ('set -e; mount -t proc proc "$1"; mount -t tmpfs -o size=64k,mode=555 none /proc; '
             'test ! -e /proc/self/stat; shift; ' + ('"$@"' if own_pids else 'exec "$@"'))  # (not the pid 1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    namespaces = ["--mount", "--propagation", "private"] + (["--pid", "--fork"] if own_pids else [])
    return subprocess.run(["unshare", *namespaces, "--", "sh", "-c", shell, "sh", str(procfs), sys.executable,
                           str(SIMULATION), system, "--procfs", str(procfs), *script_words, *args],
                          capture_output=True, text=True, env=env, check=False)


def _mjarena_command() -> str:
    """The ``mjarena`` command installed beside this Python (``pip install -e .`` makes it)."""
    command = shutil.which("mjarena", path=str(Path(sys.executable).parent))
    if command is None:
        pytest.fail(f"no mjarena command in {Path(sys.executable).parent}: pip install -e . makes it")
    return command


def test_program_bots_play_unboxed_as_on_macos_with_proc_hidden(tmp_path: Path) -> None:
    """The test mode for macOS: ``sys.platform`` is darwin, ``os.waitid`` and the pidfds are gone, and ``/proc``
    is an empty folder in a mount namespace of its own (psutil reads a procfs mounted elsewhere).  Before issue
    34 an unboxed bot started through util-linux's setpriv and prlimit, was watched through /proc and waited
    for with os.waitid.  The example bots in both modes play clean games; a bot that takes 1 GiB is caught with
    a figure a little over the limit, while it runs.  Skipped with the reason where /proc cannot be hidden, unless
    ``MJARENA_REQUIRE_SANDBOX=1`` (as ``.ci/run`` sets), where that fails."""
    replay = tmp_path / "game.json"
    python = sys.executable
    bots = [f"{python} {ROOT / 'examples' / 'bots' / 'restart_bot.py'}",
            f"{python} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}",
            f"{python} {ROOT / 'tests' / 'bots' / 'memory_bot.py'} --touch", "builtin:greedy"]
    # Off Linux an answer's time is its wall-clock time (no run-queue delay to take off): a limit far from what the
    # bots need, so that a busy machine (a second make test) times out none of them, the 1 GiB one included.
    args = ["match", "--seed", "2", "--quiet", "--allow-broken", "--time-limit", "10", "--replay", str(replay),
            *[word for bot in bots for word in ("--bot", bot)]]  # --sandbox auto
    done = _as_on_macos(tmp_path, args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("mjarena match: --sandbox auto: the bwrap sandbox needs Linux, this is darwin: its namespaces, seccomp "
            "and cgroups exist only there; ") in done.stderr and "the program bots run unboxed" in done.stderr
    seats = json.loads(replay.read_text(encoding="utf-8"))["seats"]
    assert [seat["reason"] for seat in seats[:2]] == [None, None], [seat["detail"] for seat in seats]
    assert {seat["status"] for seat in seats[:2]} <= {"won", "in"}
    assert seats[2]["reason"] == "memory", seats[2]["detail"]
    peak = int(re.search(r"peak resident memory (\d+) MiB", seats[2]["detail"]).group(1))
    assert 256 < peak < 512, seats[2]["detail"]


def test_program_bots_play_unboxed_as_on_windows_with_proc_hidden(tmp_path: Path) -> None:
    """The test mode for Windows: ``sys.platform`` is win32, the POSIX-only modules, signals and ``os`` names are
    gone, ``select`` takes sockets only (so the bots' pipes are read by threads), ``Popen`` refuses
    ``start_new_session`` (so the bots start with ``CREATE_NEW_PROCESS_GROUP``), and ``/proc`` is hidden.  Before,
    ``--sandbox none`` there said "program bots need a POSIX system for now".  The Python example bots in both modes
    play clean games, a bot that takes 1 GiB is caught with a figure a little over the limit, and the child a
    kept-running bot started is killed with it at the end (by psutil's walk: no Job Object on Linux)."""
    token = f"mjarena-family-{uuid.uuid4().hex}"
    replay = tmp_path / "game.json"
    python = sys.executable
    bots = [f"{python} {ROOT / 'examples' / 'bots' / 'restart_bot.py'}",
            f"{python} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}",
            f"{python} {ROOT / 'tests' / 'bots' / 'memory_bot.py'} --touch",
            f"{python} {ROOT / 'tests' / 'bots' / 'family_bot.py'} {token}"]
    # Off Linux an answer is timed by the wall clock: a limit far from what the bots need on a busy machine.
    args = ["match", "--seed", "2", "--quiet", "--allow-broken", "--sandbox", "none", "--time-limit", "10",
            "--replay", str(replay), *[word for bot in bots for word in ("--bot", bot)]]
    done = _as_on_macos(tmp_path, args, system="win32")
    assert done.returncode == 0, done.stdout + done.stderr
    seats = json.loads(replay.read_text(encoding="utf-8"))["seats"]
    assert [seat["reason"] for seat in seats] == [None, None, "memory", None], [seat["detail"] for seat in seats]
    assert {seat["status"] for seat in (seats[0], seats[1], seats[3])} <= {"won", "in"}
    peak = int(re.search(r"peak resident memory (\d+) MiB", seats[2]["detail"]).group(1))
    assert 256 < peak < 512, seats[2]["detail"]
    assert processes_with(token) == [], "the kept-running bot's child outlived the game"


def test_a_build_off_linux_is_refused_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjarena.builds import BuildError, build
    from mjarena.sandbox import Sandbox

    monkeypatch.setattr(sys, "platform", "darwin")
    with pytest.raises(BuildError, match="builds need Linux for now, this is darwin: the contest's compilers run in"):
        build(ROOT / "examples" / "bots" / "bot.cpp", sandbox=Sandbox(kind="none"))


def test_sandbox_auto_is_bwrap_where_it_works_and_says_when_it_is_not(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from argparse import Namespace

    from mjarena.cli.shared import sandbox_for
    from mjarena.sandbox import Sandbox, SandboxUnavailable, check
    from mjarena.sandbox import portable as portable_backend

    program = [f"{sys.executable} bot.py"]
    try:
        check(Sandbox(kind="bwrap"))
        works = True
    except SandboxUnavailable:
        works = False
    here = sandbox_for(Namespace(sandbox="auto", cgroup="none", command="match"), program)
    assert here.kind == ("bwrap" if works else "none")
    assert (capsys.readouterr().err == "") == works
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(portable_backend, "available", lambda: None)  # psutil there
    there = sandbox_for(Namespace(sandbox="auto", cgroup="none", command="match"), program)
    err = capsys.readouterr().err
    assert there.kind == "none" and err.count("\n") == 1
    assert err.startswith("mjarena match: --sandbox auto: the bwrap sandbox needs Linux, this is darwin: ")
    assert sandbox_for(Namespace(sandbox="auto", cgroup="none", command="match"), ["builtin:greedy"]).kind == "bwrap"
    assert capsys.readouterr().err == "", "no program bot: nothing to say"


@pytest.mark.parametrize(("system", "entry"), [("win32", "command"), ("darwin", "module")])
def test_compare_of_two_program_bots_runs_on_a_process_pool_there(system: str, entry: str, tmp_path: Path) -> None:
    """On a pool of 2 spawned workers, as on Windows and macOS, each of them in the test mode too (on Windows:
    Linux's ``multiprocessing`` could not start a worker under it, its resource tracker lacking the signals taken
    away), started as ``mjarena`` (the command's script, which each worker runs again) or ``python -m mjarena``."""
    bot = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}"
    args = ["compare", bot, f"{bot} --again", "--games", "14", "--workers", "2", "--quiet", "--json"]
    done = _as_on_macos(tmp_path, args, system, script=_mjarena_command() if entry == "command" else None,
                        own_pids=True)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 14 and summary["a"]["errors"] == summary["b"]["errors"] == 0
    assert sum(summary["a"]["places"]) == sum(summary["b"]["places"]) == 28


@pytest.mark.parametrize(("system", "entry"), [("win32", "module"), ("darwin", "command")])
def test_a_tournament_of_program_bots_runs_on_a_process_pool_there(system: str, entry: str, tmp_path: Path) -> None:
    """Two program bots (both modes), a built-in and a ``python:`` bot (imported by the worker) on 2 spawned
    workers in the test mode: clean games, their replays written by the workers that played them."""
    python = sys.executable
    out = tmp_path / "cup"
    args = ["tournament", "--bot", f"restart={python} {ROOT / 'examples' / 'bots' / 'restart_bot.py'}",
            "--bot", f"keep={python} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}",
            "--bot", "greedy=builtin:greedy", "--bot", "py=python:mjarena.agents.builtin:GreedyAgent",
            "--rounds", "1", "--games-per-table", "2", "--seed", "5", "--workers", "2", "--quiet", "--out", str(out)]
    done = _as_on_macos(tmp_path, args, system, script=_mjarena_command() if entry == "command" else None,
                        own_pids=True)
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2 and len(list((out / "replays").glob("*.json"))) == 2
    seats = [seat for record in records for seat in record["results"]]
    assert {seat["bot"] for seat in seats} == {"restart", "keep", "greedy", "py"}
    assert [(seat["status"], seat["reason"]) for seat in seats if seat["status"] == "error" or seat["reason"]] == []


POOL_RENEWED = """
import os
import sys
from concurrent.futures.process import BrokenProcessPool

from mjarena.arena.executors import LocalExecutor


def die(code):
    os._exit(code)


def seen(number):
    return number, sys.platform, hasattr(os, "fork")


if __name__ == "__main__":
    pool = LocalExecutor(1)
    try:
        try:
            list(pool.run(die, [3]))
        except BrokenProcessPool:
            print("broken")
        print(sorted(pool.run(seen, [1, 2])), pool._pool._mp_context.get_start_method())
    finally:
        pool.close(cancel=True)
"""


@pytest.mark.parametrize(("system", "start"), [("win32", "spawn"), ("darwin", "forkserver")])
def test_a_pool_broken_by_a_dead_worker_starts_anew_the_way_the_system_offers(system: str, start: str,
                                                                           tmp_path: Path) -> None:
    """A worker that dies breaks the pool; the next run starts a new one: before, always from a ``forkserver``
    process, which Windows does not have (ValueError: cannot find context for 'forkserver').  Now from one where
    the system has it (macOS), else spawned; the new workers run in the test mode too (``os.fork`` is not there on
    Windows)."""
    script = tmp_path / "renewed.py"
    script.write_text(POOL_RENEWED, encoding="utf-8")
    done = _as_on_macos(tmp_path, [], system, script=str(script))
    assert done.returncode == 0, done.stdout + done.stderr
    fork = system != "win32"
    seen = f"[(1, (1, '{system}', {fork})), (2, (2, '{system}', {fork}))]"
    assert done.stdout.splitlines() == ["broken", f"{seen} {start}"]


def test_the_test_mode_for_windows_offers_spawn_only(tmp_path: Path) -> None:
    """As on Windows: ``spawn`` is the only start method, ``fork`` and ``forkserver`` are refused."""
    script = tmp_path / "methods.py"
    script.write_text("import multiprocessing\nprint(multiprocessing.get_all_start_methods())\n"
                      "for method in ('fork', 'forkserver'):\n"
                      "    try:\n        multiprocessing.get_context(method)\n"
                      "    except ValueError as error:\n        print(error)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(SIMULATION), "win32", "--run", str(script)], capture_output=True,
                          text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['spawn']", "cannot find context for 'fork'",
                                        "cannot find context for 'forkserver'"]


def test_a_pool_has_at_most_61_workers_on_windows(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Windows' pools wait for their workers on at most 63 handles: ``--workers 62`` there failed with a traceback
    (ValueError from concurrent.futures), as did the default (one per CPU) on a machine of more than 61 CPUs."""
    from mjarena.arena.executors import LocalExecutor

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "cpu_count", lambda: 128)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # Windows has none: its CPUs are cpu_count's
    pool = LocalExecutor()
    pool.close()
    assert pool.workers == 61
    assert main(["compare", "builtin:greedy", "builtin:random", "--games", "14", "--workers", "62", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--workers 62: at most 61 worker processes on Windows" in err and err.count("\n") == 1

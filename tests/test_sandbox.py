"""The sandbox against bots that try to cheat and to harm (issue: untrusted bots can neither cheat, nor harm
each other, nor crash the judge).  Every attack is shown PREVENTED in the bwrap box, and, where the box is what
stops it, shown to SUCCEED with ``--sandbox none`` (so the test can fail).

Victims are found only by a token in their argv; nothing here signals a process it did not start.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from mjarena.agents.errors import BotMemoryError, BotTimeout
from mjarena.arena.match import run_match
from mjarena.limits import Limits
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox, run

from boxes import gone, processes_with, requires_bwrap, sandbox_kinds

BOTS = Path(__file__).resolve().parent / "bots"
ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


class Listener:
    """A loopback TCP server that counts the connections it gets."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                conn, _ = self.socket.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


def mjarena(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PY, "-m", "mjarena.cli", *args], cwd=cwd, env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


# -- cheating and harming from inside a game -------------------------------------------------------------------


@pytest.fixture
def spy_game(tmp_path: Path, token: str):
    """Plays one NOI 2014 match through the CLI with the spy in seat 0 and a victim (token in argv) in seat 1;
    returns the spy's report, the replay and the listener."""

    def play(sandbox: str) -> tuple[dict[str, object], dict[str, object], Listener, Path]:
        secret = str(900_000_000 + uuid.uuid4().int % 99_999_999)  # the judge's seed: digits found nowhere else
        (tmp_path / "wall.txt").write_text(f"the wall of seed {secret}\n")
        other = tmp_path / "other"
        other.mkdir(exist_ok=True)
        (other / "rival_bot.py").write_text("# a rival's source\n")
        results = tmp_path / "results"
        results.mkdir(exist_ok=True)
        (results / "games.jsonl").write_text("")
        listener = Listener()
        targets = {
            "secret": secret, "wall": str(tmp_path / "wall.txt"), "other_source": str(other / "rival_bot.py"),
            "results": str(results / "games.jsonl"), "port": listener.port, "victim_token": token,
            "fill_mib": 100,
        }
        spy_dir = tmp_path / "spy"
        spy_dir.mkdir(exist_ok=True)
        (spy_dir / "targets.json").write_text(json.dumps(targets))
        victim = tmp_path / "victim_bot.py"  # takes the token into its argv only once started, so that the judge's
        victim.write_text(  # argv does not hold it (the spy kills by token: it would kill the judge otherwise)
            "import os, sys\n"
            f"if {token!r} not in sys.argv:\n"
            f"    os.execv(sys.executable, [sys.executable, __file__, {token!r}])\n"
            + (BOTS / "good_bot.py").read_text().replace("sys.argv[1] if len(sys.argv) > 1 else", "'keep' or")
        )
        replay = tmp_path / f"replay-{sandbox}.json"
        judge = mjarena(
            "match", "--seed", secret, "--sandbox", sandbox, "--replay", str(replay), "--quiet",
            "--bot", f"{PY} {BOTS / 'spy_bot.py'} {spy_dir / 'targets.json'}",
            "--bot", f"{PY} {victim}",
            "--bot", "builtin:greedy", "--bot", "builtin:random",
            env={"MJARENA_TEST_SECRET": secret}, cwd=tmp_path,
        )
        try:
            _, err = judge.communicate(timeout=120)
        finally:
            listener.close()
        assert judge.returncode == 0, err.decode()
        data = json.loads(replay.read_text())
        fourth = data["transcripts"]["0"][3]
        return json.loads(fourth["debug"]), data, listener, results

    return play


@requires_bwrap
def test_a_spy_in_the_box_finds_nothing_and_harms_no_one(spy_game, token: str) -> None:
    report, data, listener, results = spy_game("bwrap")
    assert report["argv_secret"] is False  # the judge's --seed is not visible
    assert report["environ_secret"] is False and report["own_env_secret"] is False
    assert report["env"] == ["HOME", "LANG", "PATH", "PWD"]
    assert report["foreign_mem_opened"] == 0
    assert report["visible_pids"] <= 3  # its namespace: the box's init and itself
    assert report["wall_read"] is False and report["other_source_read"] is False
    assert report["results_written"] is False and (results / "games.jsonl").read_text() == ""
    assert report["network"] is False and listener.connections == 0
    assert report["victims_seen"] == 0 and report["victim_fds_seen"] == 0 and report["victims_killed"] == 0
    assert report["tmp_mib_written"] < 70  # the private /tmp is capped at 64 MiB
    assert report["cwd_written"] is False
    assert data["seats"][1]["status"] != "error", data["seats"][1]  # the victim played on


def test_without_the_box_the_same_spy_succeeds(spy_game, token: str) -> None:
    """The attacks are real: with --sandbox none each one works (so the test above can fail)."""
    report, data, listener, results = spy_game("none")
    assert report["argv_secret"] is True and report["environ_secret"] is True
    assert report["wall_read"] is True and report["other_source_read"] is True
    assert report["results_written"] is True and "forged" in (results / "games.jsonl").read_text()
    assert report["network"] is True and listener.connections == 1
    assert report["victims_seen"] >= 1 and report["victims_killed"] >= 1
    assert data["seats"][1]["status"] == "error"  # the victim was killed mid-game


# -- limits that hold for the whole process tree ---------------------------------------------------------------


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_forking_does_not_multiply_the_memory_limit(kind: str) -> None:
    process = BotProcess([PY, str(BOTS / "fork_memory_bot.py"), "6", "100"], time_limit=5.0,
                         memory_limit_mib=256, sandbox=Sandbox(kind=kind))
    with process, pytest.raises(BotMemoryError) as caught:
        process.ask("0 0")
    assert "over the limit of 256 MiB" in caught.value.detail


@requires_bwrap
def test_the_process_count_is_capped() -> None:
    result = run([PY, str(BOTS / "fork_count_bot.py")], sandbox=Sandbox(max_processes=16), time_limit=10,
                 memory_mib=2048)
    assert result.ok, result
    assert int(result.stdout) < 16


@requires_bwrap
def test_files_are_capped_in_size() -> None:
    result = run([PY, str(BOTS / "big_file_bot.py")], sandbox=Sandbox(file_size_mib=1), time_limit=10)
    assert result.status == "crash" and b"File too large" in result.stderr, result  # Python ignores SIGXFSZ: EFBIG


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_kept_bot_gets_no_cpu_between_its_turns(kind: str) -> None:
    with BotProcess([PY, str(BOTS / "cpu_thief_bot.py")], time_limit=5.0, sandbox=Sandbox(kind=kind)) as process:
        first = float(process.ask("0 0").data or 0)
        time.sleep(0.6)
        second = float(process.ask("1 W1 W1 W1 W2 W3 W4 B5 B5 B6 B7 T8 T8 T9").data or 0)
    assert second - first < 0.3, f"burned {second - first:.2f} s of CPU while it was not asked"


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_cpu_time_of_the_whole_tree_counts_against_the_limit(kind: str) -> None:
    process = BotProcess([PY, str(BOTS / "cpu_burner_bot.py")], time_limit=20.0, cpu_limit=0.5,
                         sandbox=Sandbox(kind=kind))
    with process, pytest.raises(BotTimeout) as caught:
        process.ask("0 0")
    assert "CPU" in caught.value.detail


# -- nothing outlives its game or its judge --------------------------------------------------------------------


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_daemon_dies_with_its_game(kind: str, token: str) -> None:
    result = run_match([f"{PY} {BOTS / 'daemon_bot.py'} {token} keep", "builtin:greedy", "builtin:random",
                        "builtin:random"], seed=5, limits=Limits(time=5.0, sandbox=Sandbox(kind=kind)))
    assert result.transcripts[0], "the bot was never asked"
    if kind == "bwrap":
        assert gone(token, within=5.0), "a daemon of the bot outlived the game"
    else:  # a plain child that calls setsid and forks twice escapes: that is what the box is for
        assert processes_with(token), "expected the unboxed daemon to survive (the attack is real)"


def _slow_match(token: str, tmp_path: Path, sandbox: str) -> subprocess.Popen[bytes]:
    slow = tmp_path / "slow_bot.py"
    slow.write_text(  # a legal keep-running bot that takes 0.2 s an answer: plays what it draws, else PASS
        "import json, sys, time\n"
        "request = json.loads(sys.stdin.readline())['requests'][-1]\n"
        "while True:\n"
        "    time.sleep(0.2)\n"
        "    words = request.split()\n"
        "    answer = 'PLAY ' + words[1] if words[0] == '2' else 'PASS'\n"
        "    print(json.dumps({'response': answer}), flush=True)\n"
        "    print('>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"
        "    line = sys.stdin.readline()\n"
        "    if not line:\n"
        "        break\n"
        "    request = json.loads(line)\n"
    )
    command = f"{PY} {slow} {token}"
    return mjarena("match", "--seed", "1", "--sandbox", sandbox, "--quiet", "--time-limit", "5",
                   "--bot", command, "--bot", command, "--bot", "builtin:greedy", "--bot", "builtin:greedy")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL])
@pytest.mark.parametrize("kind", sandbox_kinds())
def test_bots_die_with_a_judge_that_is_stopped_or_killed(kind: str, sig: int, token: str, tmp_path: Path) -> None:
    judge = _slow_match(token, tmp_path, kind)
    end = time.monotonic() + 120  # a box starts slowly on a loaded machine (beside a second make test: over 60 s once)
    while len(processes_with(token)) < 3 and time.monotonic() < end and judge.poll() is None:  # the judge, two bots
        time.sleep(0.05)
    if judge.poll() is not None:
        pytest.fail(f"the judge ended before its bots started: {judge.communicate()[1].decode()[-2000:]}")
    assert len(processes_with(token)) >= 3, "the bots never started"
    judge.send_signal(sig)
    _, err = judge.communicate(timeout=20)
    assert gone(token), f"bots outlived a judge stopped by {signal.Signals(sig).name}"
    if sig != signal.SIGKILL:
        assert judge.returncode == 128 + sig and "Traceback" not in err.decode(), err.decode()


@requires_bwrap
def test_a_killed_tournament_leaves_nothing_behind_and_resumes(token: str, tmp_path: Path) -> None:
    slow = f"{PY} {BOTS / 'good_bot.py'} keep {token}"
    out = tmp_path / f"cup-{token}"
    args = ["tournament", "--bot", f"a={slow}", "--bot", f"b={slow}", "--bot", "c=builtin:greedy",
            "--bot", "d=builtin:random", "--rounds", "2", "--games-per-table", "3", "--seed", "4",
            "--workers", "2", "--out", str(out)]
    first = mjarena(*args)
    end = time.monotonic() + 30
    while len(processes_with(token)) < 4 and time.monotonic() < end:  # the judge, a worker and a bot at least
        time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=60)  # its pipes close when its workers and their bots are gone
    assert gone(token), "bots outlived a killed tournament"
    assert gone(str(out)), "pool workers outlived a killed tournament"
    again = mjarena(*args)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err.decode()
    lines = (out / "games.jsonl").read_text().splitlines()
    ids = [json.loads(line)["game"] for line in lines]
    assert len(ids) == len(set(ids)) == 6


# -- what a box can run -----------------------------------------------------------------------------------------


@requires_bwrap
@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["java", "-version"], id="java"),
        pytest.param(["node", "-e", "console.log(new Array(1e6).fill(1).length)"], id="node"),
    ],
)
def test_java_and_node_start_under_the_default_memory_limit(argv: list[str]) -> None:
    import shutil

    if shutil.which(argv[0]) is None and os.environ.get("MJARENA_REQUIRE_TOOLCHAINS") != "1":
        pytest.skip(f"{argv[0]} is not installed")
    result = run(argv, sandbox=Sandbox(), time_limit=10, memory_mib=256)
    assert result.ok, result.stderr.decode()


# -- a delegated cgroup ---------------------------------------------------------------------------------------


def test_a_delegated_cgroup_gets_the_limits_the_processes_and_the_freezer(tmp_path: Path) -> None:
    """The plumbing, on a stand-in folder: this machine's cgroups are not ours to change, so the kernel's side
    (enforcing memory.max and pids.max) is not exercised here; what mjarena writes, and when, is."""
    delegated = tmp_path / "delegated"
    delegated.mkdir()
    (delegated / "cgroup.procs").write_text("")
    sandbox = Sandbox(kind="none", cgroup=str(delegated), max_processes=40)
    process = BotProcess([PY, str(BOTS / "good_bot.py"), "keep"], time_limit=5.0, memory_limit_mib=128,
                         sandbox=sandbox)
    with process:
        process.ask("0 0")
        (box_cgroup,) = [path for path in delegated.iterdir() if path.is_dir()]
        assert (box_cgroup / "memory.max").read_text() == f"{128 << 20}\n"
        assert (box_cgroup / "pids.max").read_text() == "40\n"
        assert (box_cgroup / "cgroup.procs").read_text().strip() == str(process.pid)  # entered before exec
        assert (box_cgroup / "cgroup.freeze").read_text() == "1\n"  # frozen between its turns
        (box_cgroup / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
        process.ask("1 W1 W1 W1 W2 W3 W4 B5 B5 B6 B7 T8 T8 T9")
        assert (box_cgroup / "cgroup.freeze").read_text() == "1\n"
        assert process._child is not None and process._child.process.oom_killed()  # read from memory.events
    assert (box_cgroup / "cgroup.kill").read_text() == "1\n"  # killed through the cgroup at the end


def test_a_cgroup_option_that_names_no_cgroup_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a cgroup v2 directory"):
        Sandbox(cgroup=str(tmp_path))


# -- one box per seat per game ----------------------------------------------------------------------------------


@requires_bwrap
def test_restart_requests_run_afresh_in_one_box_that_keeps_nothing_between_them(token: str) -> None:
    """Each restart-mode request is a new process in the same box (its pid 1 started once), which finds
    neither the files the previous start left in /tmp and /dev/shm nor the process it left running."""
    with BotProcess([PY, str(BOTS / "restart_state_bot.py"), token], time_limit=5.0, sandbox=Sandbox()) as process:
        reports = [json.loads(process.ask(request).debug or "{}") for request in ("0 1", "1 0 0", "2 T3", "2 T4")]
        assert processes_with(token) == []  # the child each start leaves is killed with its answer
    assert gone(token)
    assert len({report["init_start"] for report in reports}) == 1  # one box, made once
    assert len({report["me"] for report in reports}) == 4 and process.starts == 4
    assert [report["found"] for report in reports] == [[]] * 4  # /tmp and /dev/shm wiped between starts
    assert [report["pids"] for report in reports] == [[1, report["me"]] for report in reports]  # nothing left


def _stand_in_cgroup(tmp_path: Path, mark: bool) -> tuple[Path, Path]:
    """A stand-in cgroup v2 tree with the judge in ``/judge.service`` (marked delegated when ``mark``)."""
    root = tmp_path / "cgroup"
    unit = root / "judge.service"
    unit.mkdir(parents=True)
    (root / "cgroup.procs").write_text("")
    (unit / "cgroup.procs").write_text(f"{os.getpid()}\n")
    (unit / "cgroup.subtree_control").write_text("")
    if mark:
        os.setxattr(unit, "user.delegate", b"1")
    proc = tmp_path / "proc-self-cgroup"
    proc.write_text("0::/judge.service\n")
    return root, proc


def test_a_cgroup_that_systemd_delegated_is_found_and_made_ready_for_boxes(tmp_path: Path) -> None:
    """The plumbing, on a stand-in folder (this machine's cgroups are not ours to change): the judge moves into a
    leaf of its delegated cgroup, whose children get the memory and process controllers."""
    from mjarena.sandbox.cgroup import delegated_cgroup

    root, proc = _stand_in_cgroup(tmp_path, mark=True)
    unit = root / "judge.service"
    assert delegated_cgroup(str(proc), str(root)) == str(unit)
    assert (unit / "mjarena-judge" / "cgroup.procs").read_text() == f"{os.getpid()}\n"
    assert (unit / "cgroup.subtree_control").read_text() == "+memory +pids\n"
    proc.write_text("0::/judge.service/mjarena-judge\n")  # where the judge now is: found again, not nested
    assert delegated_cgroup(str(proc), str(root)) == str(unit)


def test_no_cgroup_is_used_or_made_unless_one_was_delegated(tmp_path: Path) -> None:
    from mjarena.sandbox.cgroup import delegated_cgroup

    root, proc = _stand_in_cgroup(tmp_path, mark=False)
    before = sorted(path.relative_to(root) for path in root.rglob("*"))
    assert delegated_cgroup(str(proc), str(root)) is None  # root may write anywhere: that is no delegation
    for text in ("0::/\n", "4:memory:/judge.service\n", ""):  # the tree's root; a cgroup v1 line; nothing
        proc.write_text(text)
        assert delegated_cgroup(str(proc), str(root)) is None
    assert sorted(path.relative_to(root) for path in root.rglob("*")) == before  # nothing created

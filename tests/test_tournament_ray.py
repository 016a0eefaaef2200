"""Issue 35: ``mjarena tournament --executor ray`` sends its bots' files to the node that plays a game
(:mod:`mjarena.arena.shipped_bots`), so that no node needs them at the same path: a source file is built on the
judge's machine and only its build travels (a compiled bot's source stays), a program's folder travels whole, and a
program whose files cannot travel is refused before any game (exit 2).

One local Ray instance (2 CPUs) serves the module; its workers unpack what they are sent into a folder of the
test's own (``$MJARENA_SHIPPED``), and the bots say in their answers' ``debug`` where they ran from.  Before this
issue the tasks named the bots' own paths, and the bots ran from there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena import shipped_bots
from mjarena.arena.results_file import load_records
from mjarena.arena.shipped_bots import CannotShip, ShippedBot, plan_bot
from mjarena.arena.tournament import GameTask
from mjarena.builds import build, shipping
from mjarena.cli import main
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox

from boxes import requires_bwrap

ROOT = Path(__file__).resolve().parent.parent

ANSWER = """
import json, os, sys

def answer(request):  # plays the tile it drew, passes on anything else
    words = request.split()
    if words[0] == "2":
        return "PLAY " + words[1]
    if words[0] == "4":
        return "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5"
    return "PASS"

extra = open(sys.argv[1]).read().strip() if len(sys.argv) > 1 else ""
request = json.loads(sys.stdin.readline())["requests"][-1]
while request is not None:  # kept running (one box a game, not one an answer: a faster test)
    print(json.dumps({"response": answer(request), "debug": os.path.abspath(__file__) + " " + extra}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    line = sys.stdin.readline()
    request = json.loads(line) if line else None
"""
C_BOT = r"""
#include <stdio.h>
#include <string.h>
int main(void) {  /* as ANSWER, kept running */
    static char line[1 << 20];
    char request[64];
    if (!fgets(line, sizeof line, stdin)) return 1;
    char *list = strstr(line, "\"requests\"");
    char *close = list ? strchr(list, ']') : NULL;
    if (!close) return 1;
    char *last = close; while (last > list && *last != '"') last--;
    char *first = last - 1; while (first > list && *first != '"') first--;
    for (;;) {
        size_t size = (size_t)(last - first - 1);
        if (size >= sizeof request) size = sizeof request - 1;
        memcpy(request, first + 1, size);
        request[size] = 0;
        if (request[0] == '2') printf("{\"response\":\"PLAY %s\"}\n", request + 2);
        else if (request[0] == '4') printf("{\"response\":\"W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 W5 W5\"}\n");
        else printf("{\"response\":\"PASS\"}\n");
        printf(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) return 0;
        first = strchr(line, '"');
        last = first ? strrchr(line, '"') : NULL;
        if (!first || last == first) return 1;
    }
}
"""


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder where the module's Ray workers unpack what they are sent (one Ray instance for the module)."""
    import ray

    folder = tmp_path_factory.mktemp("shipped")
    assert not ray.is_initialized()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,  # never another one
             runtime_env={"env_vars": {"MJARENA_SHIPPED": str(folder)}})
    try:
        yield folder
    finally:
        ray.shutdown()


def _bots(here: Path) -> list[str]:
    """Four entrants in ``here``: a program (relative paths: its script and a file it reads), a Python source, a
    C source, a built-in bot."""
    (here / "prog").mkdir()
    (here / "prog" / "where_bot.py").write_text(ANSWER)
    (here / "prog" / "weights.txt").write_text("weights-of-prog\n")
    (here / "src").mkdir()
    (here / "src" / "mine.py").write_text(ANSWER)
    (here / "src" / "plays.c").write_text(C_BOT)
    return ["--bot", "prog=python3 prog/where_bot.py prog/weights.txt", "--bot", "mine=src/mine.py",
            "--bot", "cbot=src/plays.c", "--bot", "greedy=builtin:greedy"]


def _debug(out: Path, bot: str) -> set[str]:
    """The ``debug`` of every answer of ``bot`` in the tournament's replays."""
    found = set()
    for path in (out / "replays").glob("*.json"):
        replay = json.loads(path.read_text())
        seat = replay["tournament"]["bots"].index(bot)
        found |= {line["debug"] for line in replay["transcripts"][str(seat)]}
    return found


@requires_bwrap
def test_source_and_program_bots_play_from_the_folders_sent_to_the_node(
        tmp_path: Path, shipped: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    bots = _bots(tmp_path)
    common = [*bots, "--rounds", "1", "--seed", "5", "--sandbox", "bwrap", "--quiet"]
    assert main(["tournament", *common, "--executor", "ray", "--out", "ray"]) == 0, capsys.readouterr().err
    # the program and the Python source ran from the node's copies (SHIPPED/DIGEST/...), not from here
    prog = _debug(tmp_path / "ray", "prog")
    mine = _debug(tmp_path / "ray", "mine")
    assert prog and all(line.startswith(f"{shipped}/") and line.endswith("/where_bot.py weights-of-prog")
                        for line in prog), prog
    assert mine and all(line.startswith(f"{shipped}/") and line.endswith("/bot.py ") for line in mine), mine
    # the C bot's build travelled without its source, which the build on this machine holds
    travelled = {path.name: sorted(os.listdir(path)) for path in shipped.iterdir() if not path.name.startswith(".")}
    c_builds = [names for names in travelled.values() if "bot" in names]
    assert c_builds == [["bot"]], travelled
    built = build("src/plays.c", sandbox=Sandbox(kind="bwrap"))  # from the cache: what the judge built
    assert {"bot", "bot.c"} <= set(os.listdir(built.readable[0]))
    # the same games as on this machine's own pool, seat for seat
    assert main(["tournament", *common, "--executor", "local", "--workers", "1", "--out", "local"]) == 0
    records = load_records(tmp_path / "ray" / "games.jsonl")
    assert records == load_records(tmp_path / "local" / "games.jsonl")
    assert {seat["reason"] for record in records.values() for seat in record["results"]} == {None}, records
    assert (tmp_path / "ray" / "standings.json").read_text() == (tmp_path / "local" / "standings.json").read_text()


@pytest.mark.parametrize("case", ["unrelated places", "too many files", "too many bytes", "the results folder"])
def test_a_program_whose_files_cannot_travel_is_refused_before_any_game(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text(ANSWER)
    out = tmp_path / "cup"
    if case == "unrelated places":  # a script here and a file it reads in the repository: their folder is /
        elsewhere = ROOT / "tests" / "sources" / "pass.py"
        if os.path.commonpath([elsewhere, tmp_path]) != "/":
            elsewhere = Path("/proc/version")
        spec = f"python3 {tmp_path / 'bot.py'} {elsewhere}"
        why = "names files in unrelated places"
    elif case == "too many files":  # a home folder, say
        monkeypatch.setattr(shipped_bots, "MAX_FOLDER_FILES", 3)
        for number in range(5):
            (tmp_path / f"note{number}.txt").write_text("x")
        spec, why, out = "python3 bot.py", "holds more than 3 files", tmp_path.parent / f"{tmp_path.name}-cup"
    elif case == "too many bytes":
        monkeypatch.setattr(shipping, "MAX_PARCEL_BYTES", 1000)
        (tmp_path / "model.bin").write_bytes(bytes(2000))
        spec, why, out = "python3 bot.py", "holds more than 1000 bytes", tmp_path.parent / f"{tmp_path.name}-cup"
    else:
        spec, why = "python3 bot.py", "holds the tournament's folder"
    code = main(["tournament", "--bot", f"mine={spec}", "--bot", "g=builtin:greedy", "--rounds", "1", "--seed", "1",
                 "--sandbox", "none", "--executor", "ray", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "--bot mine: cannot send its files to the cluster's nodes" in err and why in err, err
    assert not (out / "games.jsonl").exists() or not (out / "games.jsonl").read_text()
    assert not list((out / "replays").glob("*.json"))


def test_a_tournament_on_ray_checks_its_nodes_for_its_own_box_and_the_runtimes(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, a tournament's nodes were checked for no box and no runtime: a node whose box could not start took
    games, and every bot of them erred there."""
    from mjarena.arena import executors
    from mjarena.arena.executors import LocalExecutor
    from mjarena.arena.node_check import NodeCheck, judge_runtimes
    from mjarena.arena.tournament import run_tournament
    from mjarena.arena.tournament_settings import Entrant, Settings

    asked: dict[str, Any] = {}

    def recording(kind: str, workers: int | None = None, *, check: NodeCheck | None = None) -> LocalExecutor:
        asked.update(kind=kind, check=check)
        return LocalExecutor(1)

    monkeypatch.setattr(executors, "make_executor", recording)
    settings = Settings.create([Entrant(f"g{number}", "builtin:greedy") for number in range(4)], rounds=1, seed=1)
    run_tournament(settings, tmp_path / "t", executor="ray", workers=1, progress=False,
                   sandbox=Sandbox(kind="none"))
    assert asked == {"kind": "ray", "check": NodeCheck("none", judge_runtimes())}


def test_what_travels_of_a_command(tmp_path: Path) -> None:
    """The program's own files (relative paths made absolute) travel in their folder; an interpreter, a bare
    name and an option stay; a game relocated to the node names the node's copy."""
    import sys

    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "run.py").write_text("")
    (tmp_path / "bot" / "model").mkdir()
    limits = Limits()
    plan = plan_bot(f"{sys.executable} bot/run.py --model bot/model -q", limits, cwd=str(tmp_path))
    assert plan is not None and plan.folder == str(tmp_path / "bot") and plan.leave_out == ()
    assert plan.argv == (sys.executable, str(tmp_path / "bot" / "run.py"), "--model", str(tmp_path / "bot" / "model"),
                         "-q")
    assert plan_bot("python3 -c pass", limits, cwd=str(tmp_path)) == ShippedBot(("python3", "-c", "pass"), 1.0, 256,
                                                                                 limits.budget)
    task = GameTask("r1-t1-g1", 1, 1, 1, 7, None, ("a", "b", "c", "d"), ("x",) * 4, 1.0, 256, None,
                    programs=(plan, None, None, None))
    assert task.folders() == {str(tmp_path / "bot"): []}
    moved = task.relocated({str(tmp_path / "bot"): "/node/D"})
    assert moved.programs is not None and moved.programs[0] is not None
    assert moved.programs[0].argv[1:4] == ("/node/D/run.py", "--model", "/node/D/model")
    assert moved.folders() == {"/node/D": []}
    with pytest.raises(CannotShip, match="holds the tournament's folder"):
        plan_bot("python3 bot/run.py", limits, cwd=str(tmp_path), private=tmp_path / "bot" / "cup")
    # a source that does not build travels as its reason, and errs at its first request as on one machine
    (tmp_path / "bad.py").write_text("def (\n")
    broken = plan_bot(str(tmp_path / "bad.py"), Limits(sandbox=Sandbox(kind="none")))
    assert broken is not None and broken.folder is None and (broken.broken or "").startswith("compile_error: ")


def test_the_executor_starts_its_own_instance_rather_than_join_a_cluster_left_on_the_machine() -> None:
    """A bare ``ray.init()`` joins the cluster whose address ``ray start`` left in Ray's folder, dead or alive
    (here: a dead one, as after a crash), and fails; the executor was told of no cluster, so it starts its own."""
    import subprocess
    import sys
    import tempfile

    folder = tempfile.mkdtemp(prefix="mjr", dir="/tmp")  # short: Ray's socket paths live under it
    Path(folder, "ray").mkdir()
    Path(folder, "ray", "ray_current_cluster").write_text("127.0.0.1:9\n")  # nothing listens on port 9
    program = ("from mjarena.arena.executors import RayExecutor\n"
               "executor = RayExecutor(1)\n"
               "print(sorted(result for _, result in executor.run(abs, [-1, -2])))\n"
               "executor.close()\n")
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    env.update(RAY_TMPDIR=folder, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                          os.environ.get("PYTHONPATH")])))
    try:
        done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                              timeout=240, check=False)
    finally:
        subprocess.run(["rm", "-rf", folder], check=False)
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1] == "[1, 2]", done.stderr[-3000:]

"""The example bots in examples/bots/ play whole games in the sandbox, no seat erring.

Each NOI 2014 example is built with the contest's own command (no optimisation flags) into a temporary folder
and played through :func:`run_match` with the default :class:`Limits` (the bwrap sandbox, 1 s, 256 MiB).  Few
games, chosen to stay quick: Java is the keep-running bot, since a JVM start costs about half a second.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mjarena.arena.match import run_match
from mjarena.limits import Limits
from mjarena.replay import MatchResult

BOTS = Path(__file__).resolve().parent.parent / "examples" / "bots"

BUILDS = {  # language -> (source, compile command run in the build folder, run command with {dir})
    "c": ("bot.c", ["gcc", "-o", "bot", "bot.c", "-lm"], "{dir}/bot"),
    "cpp": ("bot.cpp", ["g++", "-o", "bot", "bot.cpp"], "{dir}/bot"),
    "pascal": ("bot.pas", ["fpc", "bot.pas"], "{dir}/bot"),
    "java": ("Main.java", ["javac", "Main.java"], "java -cp {dir} Main"),
    "javascript": ("bot.js", ["node", "--check", "bot.js"], "node {dir}/bot.js"),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Language -> the command line of its example bot, built once for this module."""
    commands = {}
    for language, (source, compile_argv, run) in BUILDS.items():
        folder = tmp_path_factory.mktemp(language)
        folder.chmod(0o755)  # the sandbox runs bots as another user: the build must be readable to all
        shutil.copy(BOTS / source, folder / source)
        done = subprocess.run(compile_argv, cwd=folder, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{source} does not build: {done.stdout}{done.stderr}"
        commands[language] = run.format(dir=folder)
    return commands


def python(name: str) -> str:
    return f"python3 {BOTS / name}"


def assert_no_seat_erred(result: MatchResult) -> None:
    assert [seat.reason for seat in result.seats] == [None] * 4, [seat.detail for seat in result.seats]


def modes(result: MatchResult, seat: int) -> set[str]:
    """How the judge found the seat's bot answering: ``restart`` and/or ``keep``."""
    return {exchange["mode"] for exchange in result.transcripts[seat]}


def test_cpp_pascal_java_and_javascript_play_a_game_together(built: dict[str, str]) -> None:
    bots = [built["cpp"], built["pascal"], built["java"], built["javascript"]]
    result = run_match(bots, seed=0, limits=Limits())
    assert_no_seat_erred(result)
    assert modes(result, 0) == modes(result, 1) == modes(result, 3) == {"restart"}
    assert "keep" in modes(result, 2)  # the first answer comes in restart mode, with the whole history
    # On this wall the JavaScript bot holds a PENG of a tile another seat discards, and claims it with GANG.
    assert [event.seat for event in result.events if event.type == "gang_on_peng"] == [3]


def test_c_and_the_python_bots_in_both_modes_play_a_game(built: dict[str, str]) -> None:
    bots = [built["c"], python("restart_bot.py"), python("keep_running_bot.py"), "builtin:greedy"]
    result = run_match(bots, seed=1, limits=Limits())
    assert_no_seat_erred(result)
    assert modes(result, 1) == {"restart"} and "keep" in modes(result, 2)
    assert any(seat.status == "won" for seat in result.seats[:3])


@pytest.mark.parametrize(
    ("rules", "bot", "house", "seeds"),
    [("baida", "baida_bot.py", "builtin:greedy", (2, 3)), ("thupc2021", "thupc_bot.py", "builtin:fixed", (0, 1))],
)
def test_the_baida_and_thupc_examples_play_whole_games(rules: str, bot: str, house: str,
                                                       seeds: tuple[int, int]) -> None:
    wins = 0
    for seed in seeds:
        result = run_match([python(bot), house, python(bot), python(bot)], rules=rules, seed=seed, limits=Limits())
        assert_no_seat_erred(result)
        wins += sum(result.seats[seat].status == "won" for seat in (0, 2, 3))
    assert wins, "the example bot should win now and then: its HU check is exercised"

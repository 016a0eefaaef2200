"""The README's shell examples work as written from a fresh clone (issue 25: they named `deck.in`, `bots/mine.py`
and `bots/theirs.py`, which did not ship).

Every ``mjarena`` command of the README's ``sh`` blocks is checked: its options parse, and every file it reads
ships with the repository or is written by a command before it.  The quick ones are also run, in order, in a
scratch folder holding the repository's ``examples/``: the THUPC decks, a match with its replay, the replay
printed, the hand analysis.  The others are parsed only, for time: tournaments and comparisons of thousands of
games and servers run for minutes (their own tests play them: test_tournament, test_compare, test_contest_e2e).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mjarena.cli import _replay_show_by_default, build_parser

ROOT = Path(__file__).resolve().parent.parent
RUN = ("thupc", "match", "replay", "hand")  # commands quick enough to run as written
WRITES = {"--replay", "--out", "--out-dir"}  # options naming what a command writes
READS_NOTHING = ("builtin:", "python:")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("mjarena ") or line.startswith("echo "):
                commands.append(line)
    return commands


COMMANDS = readme_commands()


def test_the_readme_has_commands_to_check() -> None:
    assert len(COMMANDS) >= 15 and any(command.startswith("mjarena thupc") for command in COMMANDS)


def _inputs(words: list[str]) -> list[str]:
    """The words of a command line that name files it reads (not what it writes, not a bot spec of another
    kind, not an option's value that is no path)."""
    found = []
    skip_next = False
    for index, word in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        if word in WRITES:
            skip_next = True
            continue
        if word.startswith("-") or word.startswith(READS_NOTHING) or word.startswith("http"):
            continue
        value = word.split("=", 1)[1] if re.match(r"^[\w.+-]+=", word) else word
        for part in shlex.split(value):
            if "/" in part and not part.endswith("/") and not part.startswith(READS_NOTHING):
                found.append(part)
        del index
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_every_readme_command_parses_and_names_files_that_ship(command: str) -> None:
    words = shlex.split(command.split("|")[-1].strip())
    assert words[0] == "mjarena"
    parser = build_parser()
    try:
        parser.parse_args(_replay_show_by_default(words[1:]))
    except SystemExit as error:  # argparse's way of refusing
        pytest.fail(f"{command!r} does not parse (exit {error.code})")
    for path in _inputs(words[1:]):
        matches = list(ROOT.glob(path)) if "*" in path else [ROOT / path]
        written_before = path in ("game.json", "results/", "cup/")
        assert written_before or (matches and all(match.exists() for match in matches)), \
            f"{command!r} names {path}, which does not ship"


def test_the_quick_readme_commands_run_as_written(tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    ran = 0
    for command in COMMANDS:
        words = shlex.split(command.split("|")[-1].strip())
        if words[1] not in RUN:
            continue
        stdin = None
        if "|" in command:  # echo "..." | mjarena hand --json -
            stdin = shlex.split(command.split("|")[0])[1] + "\n"
        argv = []  # a path with * is a shell glob (the hand's "**" are wildcards in quotes: no /)
        for word in words[1:]:
            argv += sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob(word)) if "*" in word and "/" in word \
                else [word]
        # once: a loaded machine's wait for a CPU is not the bots' time (RULINGS.md, "Limits per answer")
        done = subprocess.run([sys.executable, "-m", "mjarena.cli", *argv], cwd=tmp_path, input=stdin,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        ran += 1
    assert ran >= 7
    assert (tmp_path / "game.json").is_file() and len(list((tmp_path / "out").glob("*.out"))) == 3

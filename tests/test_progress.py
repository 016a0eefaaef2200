"""Progress on a pipe or a file is a line every few percent, never carriage-return updates; a terminal gets the
live bar; --quiet gets nothing (issue 25: a 140-game compare piped to a file was one 40 KB line)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from mjarena.progress import LineProgress, progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_gets_a_line_each_five_percent_and_the_last() -> None:
    out = io.StringIO()
    with progress_bar(140, desc="games", stream=out) as bar:
        for done in range(140):
            bar.set_postfix_str(f"LOS {done / 140:.3f}")
            bar.update(1)
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    assert len(lines) == 20 and lines[-1] == "games: 140/140 (100%), LOS 0.993"
    assert lines[0] == "games: 7/140 (5%), LOS 0.043"


def test_resumed_work_counts_from_where_it_was_and_quiet_prints_nothing() -> None:
    out = io.StringIO()
    bar = LineProgress(10, desc="games", stream=out, initial=6)
    bar.update(4)
    assert out.getvalue().splitlines() == ["games: 10/10 (100%)"]
    silent = io.StringIO()
    quiet = progress_bar(10, desc="games", stream=silent, enabled=False)
    quiet.update(10)
    assert silent.getvalue() == ""


def test_a_terminal_gets_the_live_bar() -> None:
    screen = Terminal()
    with progress_bar(4, desc="games", stream=screen) as bar:
        bar.update(4)
    assert "\r" in screen.getvalue()


def test_a_tournament_piped_to_a_file_logs_progress_lines(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    with log.open("w") as handle:
        subprocess.run(
            [sys.executable, "-m", "mjarena.cli", "tournament", "--rounds", "2", "--seed", "3", "--out",
             str(tmp_path / "cup"), *(f"--bot=b{i}=builtin:greedy" for i in range(4))],
            check=True, stdout=subprocess.DEVNULL, stderr=handle, timeout=300,
        )
    text = log.read_text()
    assert "\r" not in text
    progress = [line for line in text.splitlines() if line.startswith("games: ")]
    assert progress and progress[-1].startswith("games: ") and progress[-1].endswith("(100%)")

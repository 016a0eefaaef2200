"""A crashing bot's standard error keeps its lines wherever it is shown (issue 25: a Python traceback became one
line in the CLI's errors section and in the web pages)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mjarena.agents.errors import BotCrash
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox

BOTS = Path(__file__).resolve().parent / "bots"
STATIC = Path(__file__).resolve().parent.parent / "src" / "mjarena" / "web" / "static"


def test_the_error_detail_keeps_the_tracebacks_lines() -> None:
    with BotProcess([sys.executable, str(BOTS / "crash_bot.py"), "raise"], time_limit=5.0,
                    sandbox=Sandbox(kind="none")) as process, pytest.raises(BotCrash) as caught:
        process.ask("0 0")
    detail = caught.value.detail
    lines = detail.splitlines()
    assert lines[0] == "exit code 1; stderr:"
    assert "Traceback (most recent call last):" in lines
    assert lines[-1] == "RuntimeError: the bot lost track of its hand"


def test_the_cli_errors_section_shows_the_traceback_as_lines(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mjarena.cli", "match", "--seed", "2", "--sandbox", "none", "--allow-broken",
         "--bot", f"{sys.executable} {BOTS / 'crash_bot.py'} raise", *(["--bot", "builtin:greedy"] * 3)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    errors = done.stdout.split("errors:\n", 1)[1].splitlines()
    assert errors[0].endswith("crash: exit code 1; stderr:")
    assert "      Traceback (most recent call last):" in errors  # indented under its seat
    assert errors[-1] == "      RuntimeError: the bot lost track of its hand"


def test_pages_show_error_details_with_their_line_breaks() -> None:
    css = (STATIC / "style.css").read_text()
    assert ".banner, .errors, p.error { white-space: pre-wrap; }" in css

"""The command line as a new user meets it: --version, help texts that list what can be used, --quiet; and a
``python:`` agent that raises, recorded as that seat's crash while the game goes on."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mjarena import __version__
from mjarena.arena.match import run_match
from mjarena.cli import main
from mjarena.replay import replay_game
from mjarena.rulesets import RULE_SETS, judge_rules

CRASHING = "python:test_cli_usability:CrashOnThirdAnswer"


class CrashOnThirdAnswer:
    """Answers with the first legal action twice, then fails the way a buggy agent does."""

    def __init__(self, seat: int | None = None, seed: int | None = None) -> None:
        self.answers = 0

    def act(self, game: object, seat: int, legal: list[object]) -> object:
        self.answers += 1
        if self.answers == 3:
            return {}["no such key"]  # type: ignore[index]
        return legal[0] if legal else None


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"mjarena {__version__}"


@pytest.mark.parametrize("module", ["mjarena", "mjarena.cli"])
def test_python_dash_m_runs_the_command(module: str) -> None:
    """``python -m mjarena`` and ``python -m mjarena.cli`` are the ``mjarena`` command: its output, its status."""
    done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"mjarena {__version__}")
    refused = subprocess.run([sys.executable, "-m", module, "no-such-command"], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2
    assert "invalid choice: 'no-such-command'" in refused.stderr


def test_match_help_lists_every_kind_of_bot_and_builtin_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    text = capsys.readouterr().out
    assert "python:MODULE:NAME" in text and "builtin:NAME" in text and "examples:" in text
    for name in RULE_SETS:
        assert f"{name}: {', '.join(judge_rules(name).agents)}" in text


@pytest.mark.parametrize("command", ["thupc", "match", "replay", "tournament", "standings", "hand", "serve"])
def test_every_command_has_examples(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert f"mjarena {command}" in capsys.readouterr().out.split("examples:")[-1]


def test_tournament_help_names_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "NOI 2014 games" not in text
    assert "any rule set (noi2014, baida or thupc2021)" in text


def test_quiet_match_prints_the_results_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--seed", "3"]) == 0
    full = capsys.readouterr().out.splitlines()
    assert main(["match", "--seed", "3", "--quiet"]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert len(quiet) == 7, quiet  # the title, the header and its rule, four seats
    assert quiet[0] == full[0] and quiet[1:] == full[-6:]


@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_a_raising_python_agent_is_that_seats_crash(rules: str) -> None:
    others = "builtin:greedy"
    result = run_match([others, CRASHING, others, others], rules=rules, seed=4)
    crashed = result.seats[1]
    assert (crashed.status, crashed.reason) == ("error", "crash")
    assert "KeyError: 'no such key'" in crashed.detail
    assert "test_cli_usability.py" in crashed.detail, "the traceback says where"
    assert [seat.reason for seat in result.seats if seat.seat != 1] == [None, None, None]
    answered = [d["by"] for d in result.decisions if d["seat"] == 1]
    assert answered[:2] == ["bot", "bot"] and set(answered[2:]) == {"judge"}, "the judge plays on for the seat"
    assert replay_game(result.to_json()).decision is None, "the game played to its end and replays as recorded"


def test_a_raising_python_agent_in_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--seed", "4", "-q", "--bot", "builtin:greedy", "--bot", CRASHING,
                 "--bot", "builtin:random", "--bot", "builtin:random"]) == 0
    out = capsys.readouterr().out
    assert "error: crash" in out and "KeyError" in out

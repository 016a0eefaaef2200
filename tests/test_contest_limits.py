"""Issue 30, parts 2 and 3: one time limit for every language (the statement's), and a thinking budget per game.

Before: the contest multiplied each language's time limit by the toolchain table's factor (6 for Python), so a
Python bot that took 0.6 s under ``--time-limit 0.25`` was not timed out; and a seat had no bound over a whole
game, so a bot answering just under its limit held its game (and its round) for ~65 answers times the limit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mjarena.agents.errors import BotTimeout
from mjarena.arena.match import run_match
from mjarena.arena.tournament import GameTask, Tournament
from mjarena.arena.tournament_settings import Entrant
from mjarena.arena.tournament_settings import Settings as TournamentSettings
from mjarena.cli import main
from mjarena.contest.model import ContestError, Settings
from mjarena.limits import Limits
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox
from test_contest import BOT, Server, login, play_round

BOTS = Path(__file__).parent / "bots"
NONE = Sandbox(kind="none")


def sleepy(seconds: float, *, every_answer: bool) -> bytes:
    """The contest's test bot (keep-running Python), sleeping ``seconds`` before its first answer or every one."""
    where = b"        response = " if every_answer else b"    query = json.loads"
    assert where in BOT
    indent = where[: len(where) - len(where.lstrip())]
    return BOT.replace(where, indent + f"__import__('time').sleep({seconds})\n".encode() + where, 1)


def only_result(server: Server, team: str) -> dict:
    (game,) = server.games(team)
    (seat,) = [player for player in game["players"] if player["team"] == team]
    return seat


def test_a_python_bot_over_the_limit_is_timed_out_under_the_default_limits(tmp_path: Path) -> None:
    """The attack: 0.9 s for an answer under a 0.4 s limit, in Python (6x under the old contest: 2.4 s). The
    default is the statement's, one limit for all: it is a timeout, and the pages say which limits hold."""
    server = Server(tmp_path / "c", ["red"], time_limit=0.4)
    server.upload("red", sleepy(0.9, every_answer=False))
    play_round(server)
    seat = only_result(server, "red")
    assert (seat["status"], seat["reason"]) == ("error", "timeout")
    standings = server.standings()
    assert standings["limits"] == {"time_limit": 0.4, "memory_limit": 256, "game_budget": 12.0,
                                   "per_language": False}
    assert "the same for every language: 0.4 s per answer, 256 MiB, 12 s of thinking per game" in \
        server.client.get("/").text
    assert "0.4 s per answer" in server.client.get("/teams/red").text
    login(server, "red")
    assert "0.4 s per answer" in server.client.get("/team").text


def test_per_language_limits_are_the_organisers_explicit_choice(tmp_path: Path) -> None:
    """--per-language-limits (Botzone's way): Python gets its 6x, on the answer's limit and the game's budget,
    and the standings list each language's limits."""
    server = Server(tmp_path / "c", ["red"], time_limit=0.4, per_language_limits=True)
    server.upload("red", sleepy(0.9, every_answer=False))
    play_round(server)
    assert only_result(server, "red")["status"] != "error"
    limits = server.standings()["limits"]
    assert limits["per_language"] is True
    assert limits["languages"]["python"] == {"time_limit": 2.4, "memory_limit": 256, "game_budget": 72.0}
    assert limits["languages"]["cpp"]["time_limit"] == 0.4
    assert 'data-language="python"' in server.client.get("/").text


def test_a_seat_past_its_game_budget_is_out_with_timeout(tmp_path: Path) -> None:
    """The attack: every answer under the per-answer limit (0.2 s of 0.8 s), so that a game lasts up to 65 of
    them. Past its 1.2 s budget for the game the seat is out with a timeout, the game goes on (the judge plays
    for it), and its thinking per game shows on the standings and on its team's pages."""
    server = Server(tmp_path / "c", ["red"], time_limit=0.8, game_budget=1.2)
    server.upload("red", sleepy(0.2, every_answer=True))
    play_round(server)
    seat = only_result(server, "red")
    assert (seat["status"], seat["reason"]) == ("error", "timeout")
    (game,) = server.games("red")
    replay = json.loads(server.contest.db.replay(game["id"]))
    (mine,) = [row for row in replay["seats"] if row["seat"] == seat["seat"]]
    assert "thinking budget of 1.2 s for the game is used up" in mine["detail"]
    answered = [line for line in replay["transcripts"][str(seat["seat"])] if line["response"] is not None]
    assert 0 < len(answered) < 10  # out after a few answers, not ~65
    assert any(row["by"] == "judge" and row["seat"] == seat["seat"] for row in replay["decisions"])
    (row,) = server.standings()["rows"]
    assert row["thinking_per_game"] is not None and row["thinking_max"] == row["thinking_per_game"]
    assert "thinking per game" in server.client.get("/").text
    assert server.contest.version_figures("red")[1]["thinking_per_game"] == row["thinking_per_game"]
    assert 'id="thinking"' in server.client.get("/teams/red").text


def test_the_budget_and_the_limits_are_checked_at_create(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(ContestError, match="--game-budget"):
        Settings(game_budget=0.0).check()
    assert main(["contest", "create", str(tmp_path / "c"), "--team", "a", "--game-budget", "-1"]) == 2
    assert "--game-budget -1: must be positive" in capsys.readouterr().err
    assert main(["contest", "create", str(tmp_path / "d"), "--team", "a", "--game-budget", "12",
                 "--per-language-limits", "--json"]) == 0
    from mjarena.contest.model import Contest

    settings = Contest.open(tmp_path / "d").settings
    assert (settings.game_budget, settings.per_language_limits) == (12.0, True)
    assert Settings().limits_json()["game_budget"] == 30.0  # the default: 30 answers' limits


# -- the judge: BotProcess, matches, tournaments ------------------------------------------------------------


def test_the_deadline_is_the_smaller_of_the_limit_and_the_budget_left() -> None:
    """A restart-mode bot that takes 0.3 s an answer, under a 1.5 s limit: with a 2 s budget for the game its
    answers stop within a few requests, with a timeout that names the budget; without it, it goes on."""
    command = [sys.executable, str(BOTS / "sleep_bot.py"), "0.3"]
    with BotProcess(command, time_limit=1.5, game_budget=2.0) as bot:
        answers = 0
        with pytest.raises(BotTimeout, match=r"thinking budget of 2 s for the game is used up"):
            for _ in range(20):
                bot.ask("2 W1")
                answers += 1
        assert 1 <= answers < 20
        assert bot.closed
    with BotProcess(command, time_limit=1.5) as free:
        for _ in range(8):
            assert free.ask("2 W1").response == "PASS"


def test_a_match_applies_the_budget_to_program_bots() -> None:
    bot = f"{sys.executable} {BOTS / 'sleep_bot.py'} 0.1"
    result = run_match([bot, "builtin:greedy", "builtin:greedy", "builtin:greedy"], seed=3,
                       limits=Limits(time=1.0, sandbox=NONE, game_budget=0.3))
    seat = result.seats[0]
    assert (seat.status, seat.reason) == ("error", "timeout") and "thinking budget" in seat.detail


def test_match_and_tournament_take_a_game_budget(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["match", "--game-budget", "0", "--sandbox", "none"]) == 2
    assert "--game-budget 0" in capsys.readouterr().err
    settings = TournamentSettings.create([Entrant("a", "builtin:greedy"), Entrant("b", "builtin:random")],
                                         game_budget=5.0)
    assert TournamentSettings.from_json(settings.to_json()).game_budget == 5.0
    assert "game_budget" not in TournamentSettings.create([Entrant("a", "builtin:greedy"),
                                                           Entrant("b", "builtin:random")]).to_json()
    tasks = Tournament(settings, tmp_path / "cup", sandbox=NONE).tasks(1)
    assert tasks and all(isinstance(task, GameTask) and task.game_budget == 5.0 for task in tasks)

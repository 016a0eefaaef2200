"""What a tournament's local workers do for the judge (issue 47): deal each game's seats and wall from its table."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings

ENTRANTS = [Entrant(f"{kind}{number}", f"builtin:{kind}") for number in range(3) for kind in ("greedy", "random")]


@pytest.mark.parametrize("format, duplicate", [("swiss", False), ("swiss", True), ("round-robin", False)])
def test_a_game_dealt_by_its_worker_is_the_game_dealt_by_the_judge(tmp_path: Path, format: str,
                                                                    duplicate: bool) -> None:
    """6 entrants and 2 house bots: every seat, spec, wall and rotation the same, whoever deals them."""
    settings = Settings.create(ENTRANTS, format=format, rounds=2, games_per_table=3, duplicate=duplicate, seed=5)
    tournament = Tournament(settings, tmp_path)
    for round_no in (1, 2) if format == "round-robin" else (1,):
        here = tournament.tasks(round_no)
        there = tournament.tasks(round_no, dealt=False)
        assert all(task.deal is not None and not task.names for task in there)
        assert [task.dealt() for task in there] == here
        assert {task.rotation for task in here} == ({0, 1, 2, 3} if duplicate else {None})

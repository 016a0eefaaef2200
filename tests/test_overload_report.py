"""Issue 42: ``tournament``, ``compare`` and the contest's scheduler say in one line, as ``match`` does, when the
judge's machine was overloaded during a run, from the answers' waits for a CPU (``queued_ms`` of the games'
transcripts, summed in the worker that played each game).  No machine is loaded here: ``run_match`` is wrapped to
add a transcript whose answers waited, as a busy machine's would."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest

import mjarena.arena.match as match_module
from mjarena.arena.compare import compare
from mjarena.arena.compare_report import format_result
from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from test_contest import Inline, Server, play_round
from test_contest_admin import console

WAITED = [{"request": "0 0", "response": "PASS", "elapsed_ms": 30.0, "mode": "restart", "queued_ms": 450.0},
          {"request": "1 W1", "response": "PASS", "elapsed_ms": 20.0, "mode": "keep", "queued_ms": 50.0}]
"""Seat 0's answers in a loaded game: one waited 0.45 s for a CPU (over a tenth of a 1 s limit), one 0.05 s."""


def load_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game played from now on (in this process) has seat 0's transcript :data:`WAITED`."""
    real = match_module.run_match

    def loaded(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        result.transcripts[0] = [dict(line) for line in WAITED]
        return result

    monkeypatch.setattr(match_module, "run_match", loaded)


def play_tournament(out: Path) -> str:
    """One game of four built-in bots, played in this process; what the run said on its log."""
    bots = [Entrant(f"{kind}{n}", f"builtin:{kind}") for kind in ("greedy", "random") for n in (1, 2)]
    log = io.StringIO()
    Tournament(Settings.create(bots, rounds=1, games_per_table=1, seed=3), out).run(Inline(), progress=False,
                                                                                     log=log)
    return log.getvalue()


def test_a_tournament_says_when_the_machine_was_overloaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "overloaded" not in play_tournament(tmp_path / "calm")
    load_the_machine(monkeypatch)
    said = [line for line in play_tournament(tmp_path / "busy").splitlines() if "overloaded" in line]
    assert len(said) == 1 and said[0].startswith("the judge's machine was overloaded: the bots waited 0.500 s")
    assert "(most 0.450 s on one; 1 answer waited over 0.100 s)" in said[0]


def test_compare_reports_the_overload_in_its_text_and_json(monkeypatch: pytest.MonkeyPatch) -> None:
    calm = compare("builtin:greedy", "builtin:random", rules="baida", games=14, seed=2).to_json()
    assert calm["overload"]["slowed"] == 0 and "overloaded" not in format_result(calm)
    load_the_machine(monkeypatch)
    busy = compare("builtin:greedy", "builtin:random", rules="baida", games=14, seed=2).to_json()
    assert busy["overload"]["slowed"] == 14 and busy["overload"]["waited_s"] == pytest.approx(7.0)
    assert busy["overload"]["most_s"] == 0.45 and busy["overload"]["slowed_over_s"] == 0.1
    said = [line.strip() for line in format_result(busy).splitlines() if "overloaded" in line]
    assert said == ["the judge's machine was overloaded: the bots waited 7.000 s for a CPU over "
                    f"{busy['overload']['answers']} answers (most 0.450 s on one; 14 answers waited over 0.100 s), "
                    "not counted as their time"]


def test_the_contest_logs_a_round_played_under_overload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        caplog: Any) -> None:
    server = Server(tmp_path / "contest", teams=["red", "blue"])
    for team in ("red", "blue"):
        server.upload(team)
    with caplog.at_level(logging.INFO, logger="mjarena.contest"):
        assert play_round(server) == 1
        assert "overloaded" not in caplog.text and server.scheduler.overloaded == {}
        load_the_machine(monkeypatch)
        assert play_round(server) == 2
    said = [record.getMessage() for record in caplog.records if "overloaded" in record.getMessage()]
    assert len(said) == 1 and said[0].startswith("round 2: the judge's machine was overloaded: the bots waited ")
    assert list(server.scheduler.overloaded) == [2]
    assert server.scheduler.overloaded[2].line() == said[0].removeprefix("round 2: ")
    assert server.scheduler.loads == []  # started again with the next round
    console(server)  # the organiser sees it too
    page = server.client.get("/admin").text
    figures = server.scheduler.overloaded[2]
    assert 'id="overloads"' in page and f"Round 2: the bots waited {figures.waited:.3f} s for a CPU over" in page

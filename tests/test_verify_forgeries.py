"""Issue 41, point 5: ``mjarena contest verify`` misses nothing.

One real contest (test_contest.py's: five teams and three house bots, two tables a round, two walls a table, two
rounds) is exported once; each test forges a copy as a team that wants to win would, with the standings made to
add up again (and, where it moves teams, their seats made the ones the revealed secret draws), and verify must
refuse it.  Before, verify passed every one of these forgeries, and a deeply nested file crashed it with a
traceback.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.draws import Draws
from mjarena.cli import main
from mjarena.contest.verify import _expected_seats
from test_contest import TEAMS, Server, play_round

Data = dict[str, Any]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Data:
    """The finished contest's export (8 games in 2 rounds of 2 tables; game 1 played again; the second round
    paired during the freeze, on the points the public sees)."""
    root = tmp_path_factory.mktemp("forgeries") / "c"
    server = Server(root, teams=TEAMS, games_per_table=2, freeze=5.0)
    for team in TEAMS:
        assert server.upload(team).status_code == 201
    play_round(server)
    assert server.scheduler.replay(1).result(timeout=120)  # the organiser's Play again: its result replaced
    server.clock.now = 1000.0 + 6 * 60  # the last 5 minutes of the window: frozen (the public's games hide it)
    assert server.scheduler.step() and server.contest.round_number() == 2
    server.scheduler.step()
    server.clock.now = 1000.0 + 11 * 60  # the window is over: the secret is in the export
    out = root.parent / "export.json"
    assert main(["contest", "export", str(root), "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["state"] == "finished" and len(data["games"]) == 8 and data["secret"]
    assert [entry["pairing"]["as_of"] for entry in data["rounds"]] == [None, 1000.0 + 5 * 60]
    assert [game["played_again"] for game in data["games"] if "played_again" in game] == [[1000.0]]
    return data


def run_verify(tmp_path: Path, data: Data | str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "forged.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    status = main(["contest", "verify", str(path)])
    captured = capsys.readouterr()
    return status, captured.err + captured.out


def restand(data: Data) -> None:
    """The standings made to add up again from the finished games listed (as a forger would)."""
    totals = {row["team"]: [0, 0.0] for row in data["rows"]}
    for game in data["games"]:
        if game["state"] == "finished":
            for seat in game["players"]:
                if seat["team"] is not None:
                    totals[seat["team"]][0] += 1
                    totals[seat["team"]][1] += seat["points"]
    for row in data["rows"]:
        row["games"], row["points"] = totals[row["team"]]
        row["points_per_game"] = round(row["points"] / row["games"], 3) if row["games"] else None
    data["rows"].sort(key=lambda row: (-row["points"], row["team"]))
    for row in data["rows"]:
        row["rank"] = 1 + sum(other["points"] > row["points"] for other in data["rows"])


def reseat(data: Data, game: Data, teams: list[str | None]) -> None:
    """Game ``game`` with the players ``teams`` (None: a house bot), each in the seat the secret draws for them;
    each seat keeps its results (they follow its answers)."""
    game["players"] = [{**seat, "team": None} for seat in game["players"]]
    for seat, team in zip(game["players"], teams, strict=True):
        seat["team"] = team
    drawn = _expected_seats(Draws.secret(bytes.fromhex(data["secret"])), game)
    for seat in sorted(game["players"], key=lambda seat: seat["seat"]):
        seat["team"] = drawn[seat["seat"]]


def games_at(data: Data, round_no: int, table: int) -> list[Data]:
    return [game for game in data["games"] if game["round"] == round_no and game["table"] == table]


def teams_at(data: Data, round_no: int, table: int) -> list[str | None]:
    return [seat["team"] for seat in games_at(data, round_no, table)[0]["players"]]


def ranked(game: Data, rank: int) -> str | None:
    """The team at rank ``rank`` of a game, if a team holds it."""
    return next((seat["team"] for seat in game["players"] if seat["rank"] == rank and seat["team"]), None)


def won_game_twice(data: Data) -> None:
    game = next(game for game in data["games"] if ranked(game, 1))
    data["games"].append(copy.deepcopy(game))


def won_game_again_under_a_new_id(data: Data) -> None:
    game = copy.deepcopy(next(game for game in data["games"] if ranked(game, 1)))
    game["id"] = max(other["id"] for other in data["games"]) + 1
    data["games"].insert(0, game)


def lost_game_removed(data: Data) -> None:
    data["games"].remove(next(game for game in data["games"] if ranked(game, 4)))


def lost_game_state(state: str) -> Callable[[Data], None]:
    def forge(data: Data) -> None:
        game = next(game for game in data["games"] if ranked(game, 4))
        game["state"] = state
        for seat in game["players"]:
            seat["points"] = seat["rank"] = None
    return forge


def team_at_two_tables(data: Data) -> None:
    """Round 1: a team of the teams' table also takes a house bot's seat at the other table (and its points)."""
    houses = next(table for table in (1, 2) if None in teams_at(data, 1, table))
    other = teams_at(data, 1, 3 - houses)
    teams = teams_at(data, 1, houses)
    teams[teams.index(None)] = next(team for team in other if team is not None)
    for game in games_at(data, 1, houses):
        reseat(data, game, teams)


def table_missing(data: Data) -> None:
    for game in games_at(data, 2, 2):
        data["games"].remove(game)


def tables_swapped(data: Data) -> None:
    """Round 2: a team of table 1 and a team of table 2 change tables, each seated where the secret draws."""
    first, second = teams_at(data, 2, 1), teams_at(data, 2, 2)
    a = next(team for team in first if team is not None)
    b = next(team for team in second if team is not None)
    first[first.index(a)], second[second.index(b)] = b, a
    for table, teams in ((1, first), (2, second)):
        for game in games_at(data, 2, table):
            reseat(data, game, teams)


def pairing_points_changed(data: Data) -> None:
    pairing = data["rounds"][1]["pairing"]
    team = pairing["teams"][0]
    pairing["points"][team] += 1.0


FORGERIES = {
    "a won game listed twice": (won_game_twice, "listed twice"),
    "a won game listed again under a new id": (won_game_again_under_a_new_id, "the same round, table and game as"),
    "a lost game removed": (lost_game_removed, "is missing"),
    "a lost game voided": (lost_game_state("voided"), "its state 'voided' is none of planned, running, finished"),
    "a lost game held with no judge error": (lost_game_state("held"), "held with 0 judge error(s) listed"),
    "a lost game left planned": (lost_game_state("planned"), "planned: neither finished nor held"),
    "a team at two tables of one round": (team_at_two_tables, "sits at tables 1, 2: a team plays one table a round"),
    "a missing table": (table_missing, "round 2: table 2 is missing: the pairing drawn from the secret seats"),
    "two teams swapped between tables": (tables_swapped, "the pairing drawn from the secret seats"),
    "a pairing's points changed": (pairing_points_changed, "round 2: the pairing gives"),
    "an answer that is none": (lambda data: data["games"][0]["answers"][2].update(response="x"), "cannot be read"),
}


def test_the_honest_export_verifies(exported: Data, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, text = run_verify(tmp_path, exported, capsys)
    assert status == 0, text
    assert "2 round(s): their tables as drawn; 8 game(s)" in text


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_export_fails(name: str, exported: Data, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    forge, says = FORGERIES[name]
    data = copy.deepcopy(exported)
    forge(data)
    restand(data)
    assert data != exported
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 1 and says in text, text
    assert "Traceback" not in text


def test_a_teams_points_set_to_nan_is_refused(exported: Data, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The last team's points made NaN (and its rank what a NaN compares to: nothing is above it)."""
    data = copy.deepcopy(exported)
    data["rows"][-1]["points"], data["rows"][-1]["rank"] = math.nan, 1
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 2 and text.count("\n") == 1 and "NaN is not a number" in text


def nested(depth: int) -> str:
    return '{"format": "mjarena-contest-results", "games": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(("edit", "says"), [
    (lambda data: data["games"][0].update(players="x"), "games[0].players: a list, not 'x'"),
    (lambda data: data["rows"][0].update(games="3"), "rows[0].games: a whole number, not '3'"),
    (lambda data: data["games"][1].update(round=1.5), "games[1].round: a whole number, not 1.5"),
    (lambda data: data["games"][2].pop("state"), "games[2].state: missing"),
    (lambda data: data["rows"][0].update(points=10 ** 300), "rows[0].points: a number of at most 2^53"),
    (lambda data: data["rounds"][0]["pairing"].update(points=[]), "rounds[0].pairing.points: an object, not list"),
    (lambda data: data["games"][0]["answers"].append(None), "games[0].answers["),
])
def test_a_malformed_export_is_one_line_and_exit_2(edit: Callable[[Data], Any], says: str, exported: Data,
                                                    tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = copy.deepcopy(exported)
    edit(data)
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 2 and text.count("\n") == 1 and says in text, text


@pytest.mark.parametrize(("text", "says"), [
    (nested(100_000), "not JSON (nested too deeply)"),
    ('{"format": "mjarena-contest-results", "rows": [], "games": [], "x": 1e999}', "1e999 is too large a number"),
    ('{"format": "mjarena-contest-results", "x": ' + "9" * 5000 + "}", "not JSON (Exceeds the limit"),
])
def test_a_file_that_no_parser_should_trust_is_one_line_and_exit_2(text: str, says: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    status, output = run_verify(tmp_path, text, capsys)
    assert status == 2 and output.count("\n") == 1 and says in output, output

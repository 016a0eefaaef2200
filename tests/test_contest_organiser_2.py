"""The organiser's contest, round two (issue 44): a reveal that waits for every game of the window, results that
say what they are, a game played again that keeps its place in time, a fair opening, hidden teams absent from
every public page, chart styles fixed by a team's identity, a disabled team's planned games.

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contest_forms import post_login
from test_contest import BOT, TEAMS, Server, play_round
from test_contest_admin import console


def frozen_contest(tmp_path: Path) -> Server:
    """A contest of 10 minutes from 1000 s, frozen for its last 5, each team with a bot, one round played."""
    server = Server(tmp_path / "cup", freeze=5.0, name="Spring cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    return server


def test_the_reveal_waits_for_every_game_of_the_window_and_the_results_say_what_they_are(tmp_path: Path) -> None:
    server = frozen_contest(tmp_path)
    server.clock.now = 1599.0  # the last round starts a second before the end
    assert server.scheduler.step()
    last = server.contest.round_number()
    server.clock.now = 1700.0  # the window has ended, the last round's games not played yet
    csrf = console(server)
    page = server.client.get("/admin").text
    assert 'id="reveal"' not in page and 'id="reveal-waits"' in page
    running = len(server.contest.db.games(round_no=last))
    assert f"waiting for {running} games running" in page
    refused = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"})
    assert refused.status_code == 409 and f"waiting for {running} games running" in refused.text
    results = server.client.get("/results").text
    assert "Spring cup: results" in results and "Not final: Frozen since" in results
    server.scheduler.step()  # the last round played to its end
    assert server.standings()["state"] == "finished"
    assert 'id="reveal"' in server.client.get("/admin").text
    done = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"}, follow_redirects=False)
    assert done.status_code == 303
    results = server.client.get("/results").text
    assert "Final results." in results and "Frozen since" not in results
    assert 'id="results-window"' in results and "Spring cup" in results


def test_a_game_played_again_during_the_freeze_keeps_its_place_in_time(tmp_path: Path) -> None:
    server = frozen_contest(tmp_path)
    before = {row["team"]: (row["points"], row["games"]) for row in server.standings()["rows"]}
    game = server.games("red")[0]["id"]
    server.clock.now = 1400.0  # frozen from 1300 s
    assert server.scheduler.replay(game).result(timeout=60)
    assert server.contest.db.game(game).finished < 1300.0  # its first finish, not the replay's
    public = server.standings()
    assert public["frozen"] == {"since": 1300.0}
    assert {row["team"]: (row["points"], row["games"]) for row in public["rows"]} == before
    assert next(item for item in server.games() if item["id"] == game)["state"] == "finished"
    assert server.client.get(f"/api/replays/{game}").status_code == 200


def test_the_opening_together_waits_for_every_team_up_to_its_deadline_and_house_games_count_for_no_team(
        tmp_path: Path) -> None:
    server = Server(tmp_path / "cup", opening="together", opening_deadline=2.0)  # the deadline: 1120 s
    first, *others, last = TEAMS
    for team in [first, *others]:
        server.upload(team)
    assert not server.scheduler.step()  # the first to build does not play alone against house bots
    waiting = server.standings()["waiting"]
    assert waiting == {"ready": len(TEAMS) - 1, "needed": len(TEAMS), "deadline": 1120.0}
    assert "or at " in server.client.get("/").text and "opening: together" in server.client.get("/").text
    server.clock.now = 1120.0
    play_round(server)  # opened at the deadline with the teams that have a bot
    server.upload(last)
    play_round(server)
    games = server.contest.db.games(states=("finished",))
    counted: dict[str, list[float]] = {}
    for game in games:
        if all(seat.team is not None for seat in game.seats):
            for seat in game.seats:
                counted.setdefault(seat.team, []).append(seat.points or 0.0)
    assert any(seat.team is None for game in games for seat in game.seats)  # a house bot played...
    rows = {row["team"]: (row["games"], row["points"]) for row in server.standings()["rows"]}
    assert rows == {team: (len(counted.get(team, [])), sum(counted.get(team, []))) for team in TEAMS}  # ...for no one


def test_create_chooses_the_opening_together_unless_told_and_says_so(tmp_path: Path, capsys: Any) -> None:
    from mjarena.cli import main
    from mjarena.contest.model import Contest

    assert main(["contest", "create", str(tmp_path / "a"), "--team", "ada", "--duration", "30"]) == 0
    settings = Contest.open(tmp_path / "a").settings
    assert (settings.opening, settings.opening_deadline) == ("together", 5.0)
    assert "note: with 1 team every table seats a house bot" in capsys.readouterr().err  # no game would count
    assert main(["contest", "create", str(tmp_path / "four"), *(f"--team={name}" for name in "wxyz")]) == 0
    assert "note:" not in capsys.readouterr().err
    assert main(["contest", "create", str(tmp_path / "b"), "--team", "ada", "--opening", "first-build",
                 "--name", "Spring cup"]) == 0
    assert Contest.open(tmp_path / "b").settings.opening == "first-build"
    assert Contest.open(tmp_path / "b").name == "Spring cup"
    assert main(["contest", "create", str(tmp_path / "c"), "--team", "ada", "--opening-deadline", "90"]) == 2
    assert "--opening-deadline 90" in capsys.readouterr().err


def styles(server: Server) -> dict[str, tuple[str, str]]:
    """Each team's colour and dash on the race chart."""
    figure = server.client.get("/charts/race").text.split('id="race-gap-chart"', 1)[0]
    found = {}
    for part in figure.split('<g class="chart-series')[1:]:
        name = part.split('data-series="', 1)[1].split('"', 1)[0]
        line = part.split('class="chart-line"', 1)[1].split(">", 1)[0]
        dash = line.split('stroke-dasharray="', 1)[1].split('"', 1)[0] if "stroke-dasharray" in line else ""
        found[name] = (part.split('data-colour="', 1)[1].split('"', 1)[0], dash)
    return found


def test_a_hidden_team_is_absent_from_every_public_page_and_the_others_keep_their_styles(tmp_path: Path) -> None:
    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    before = styles(server)
    csrf = console(server)
    hidden = TEAMS[0]  # the first team added: every other team's style would move with it
    server.client.post(f"/admin/teams/{hidden}/flags", data={"csrf": csrf, "flag": "hidden", "on": "1"})
    server.client.cookies.clear()  # the public
    after = styles(server)
    assert hidden not in after and after == {team: before[team] for team in TEAMS[1:]}
    (game,) = [item["id"] for item in server.contest.games(hidden)]
    for path in ("/rounds", "/api/rounds", "/api/games", f"/api/games?team={TEAMS[1]}", "/", "/results",
                 f"/teams/{TEAMS[1]}"):
        answer = server.client.get(path)
        assert answer.status_code == 200, path
        assert all(form not in answer.text for form in (f'"{hidden}"', f">{hidden}<", f"/teams/{hidden}")), path
    assert server.client.get(f"/api/games?team={hidden}").json()["games"] == []
    assert server.client.get(f"/teams/{hidden}").status_code == 404
    assert server.client.get(f"/api/replays/{game}").status_code == 404
    assert server.client.get(f"/replays/{game}").status_code == 404
    assert server.client.get(f"/api/replays/{game}", headers=server.auth(hidden)).status_code == 200  # its own
    assert 'a hidden team' in server.client.get("/rounds").text


def test_chart_styles_are_distinct_for_24_teams_whoever_is_hidden() -> None:
    from mjarena.contest.charts import race_chart, team_style

    names = [f"t{index:02d}" for index in range(30)]
    history = {"rounds": [1], "teams": {name: {"first": 1, "points": [float(index)], "versions": []}
                                        for index, name in enumerate(names)}}
    assert len({team_style(index) for index in range(len(names))}) == len(names)
    every = race_chart(history, names, teams=names)
    some = race_chart(history, names[3:], teams=names)  # the first three hidden
    for name in names[3:]:
        style = f'data-series="{name}" data-colour="{team_style(names.index(name))[0]}"'
        assert style in every and style in some


def test_a_serve_that_cannot_listen_leaves_the_contest_as_it_was(tmp_path: Path, capsys: Any) -> None:
    import socket

    from mjarena.cli import main
    from mjarena.contest.model import Contest

    assert main(["contest", "create", str(tmp_path / "cup"), "--team", "ada", "--sandbox", "none"]) == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["contest", "serve", str(tmp_path / "cup"), "--port", str(port), "--workers", "1"]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert Contest.open(tmp_path / "cup").start() is None  # the clock not started


def test_a_team_disabled_after_the_pairing_is_replaced_by_a_house_bot_and_it_says_so(tmp_path: Path) -> None:
    from mjarena.contest.export import results
    from mjarena.contest.verify import verify

    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    assert server.scheduler.step()  # round 2 planned, its games not started
    planned = server.contest.db.games(round_no=2)
    gone = next(seat.team for seat in planned[0].seats if seat.team is not None)
    csrf = console(server)
    server.client.post(f"/admin/teams/{gone}/flags", data={"csrf": csrf, "flag": "disabled", "on": "1"})
    server.scheduler.step()
    played = [game for game in server.games() if game["round"] == 2]
    assert played and all(game["state"] == "finished" for game in played)
    assert gone not in {player["team"] for game in played for player in game["players"]}  # played without it
    ((game_id, seat),) = [(game["id"], player) for game in played for player in game["players"]
                          if player.get("without") == gone]
    assert seat["team"] is None
    assert f"(for {gone}, disabled)" in server.client.get("/rounds").text
    assert f"played without · game {game_id}: {gone} (disabled)" in server.client.get("/admin").text
    server.clock.now = 2000.0  # after the end: the export's secret checks every game as planned
    assert not server.scheduler.step()
    assert verify(results(server.contest)) == []


def test_an_error_links_to_the_viewer_at_its_move_and_win_chance_says_its_unit(tmp_path: Path) -> None:
    from mjarena.web.outcome import _chance_unit
    from test_contest_organiser import jade_crashes

    server = Server(tmp_path / "cup")
    (game, *_) = jade_crashes(server)
    console(server)
    assert f'href="/admin/replays/{game}#error"' in server.client.get("/admin/teams/jade").text
    # a team that did not err links to its games' starts (any of them: the pairing may seat jade with house bots)
    other, played = next((player["team"], item["id"]) for item in server.games() for player in item["players"]
                         if player["team"] not in (None, "jade") and item["state"] == "finished")
    assert f'href="/admin/replays/{played}"' in server.client.get(f"/admin/teams/{other}").text
    assert "discard 56 of the game" in _chance_unit(56)


RAISER = b"""import sys
sys.stdin.readline()
raise RuntimeError("raiser-boom")
"""


def test_a_teams_own_page_names_its_errors_kinds_and_paths_relative_to_its_bots_folder(tmp_path: Path) -> None:
    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team, RAISER if team == "jade" else BOT)
    play_round(server)
    game = server.games("jade")[0]["id"]
    replay = server.contest.db.replay(game) or ""
    assert "raiser-boom" in replay and 'File \\"bot.py\\"' in replay and "/builds/" not in replay
    post_login(server.client, "/login", server.tokens["teams"]["jade"])
    page = server.client.get("/team").text
    row = page.split('<tr data-version="1">', 1)[1].split("</tr>", 1)[0]
    assert "crash 1" in row  # the kind, as the console says it, not a bare count


def test_the_node_is_kept_in_the_games_table_and_one_teams_statistics_are_its_own(tmp_path: Path) -> None:
    import json
    import sqlite3

    from mjarena.contest.model import Contest
    from mjarena.contest.statistics import contest_statistics

    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    db = server.contest.db
    ids = [game.id for game in db.games(states=("finished",))]
    played = {game_id: json.loads(db.replay(game_id) or "{}")["contest"]["node"] for game_id in ids}
    assert db.nodes(ids) == played and all(played.values())
    every = contest_statistics(server.contest)
    assert contest_statistics(server.contest, team="red") == {"red": every["red"]}
    assert contest_statistics(server.contest, team="nobody") == {}
    with sqlite3.connect(tmp_path / "cup" / "contest.db") as raw:  # a database made before the column
        raw.execute("ALTER TABLE games DROP COLUMN node")
    assert Contest.open(tmp_path / "cup").db.nodes(ids) == played  # filled from the replays, once


def test_the_transcript_is_numbered_by_the_move_at_which_each_exchange_was_asked(tmp_path: Path) -> None:
    import json

    from mjarena.web.library import viewer_data
    from test_contest_organiser import jade_crashes

    server = Server(tmp_path / "cup")
    (game, *_) = jade_crashes(server)
    view = viewer_data(json.loads(server.contest.db.replay(game) or "{}"))
    errors = {mark["seat"]: mark["step"] for mark in view["errors"]}
    for panel in view["transcripts"]:
        moves = [row["move"] for row in panel["rows"]]
        assert moves == sorted(moves) and all(0 < move < len(view["steps"]) for move in moves)
        if panel["error"] is not None:  # the crash's exchange is at the move the viewer marks
            assert panel["rows"][-1]["move"] == errors[panel["seat"]]
        elif panel["kind"] == "exchanges":  # each answer after a draw is asked at the seat's own draw
            draws = [row["move"] for row in panel["rows"] if row["request"].startswith("2 ")]
            assert draws and all(view["steps"][move]["event"]["type"] == "draw" and
                                 view["steps"][move]["event"]["seat"] == panel["seat"] for move in draws)


def test_peak_memory_per_game_goes_from_the_box_to_the_replay_the_statistics_and_the_teams_pages(
        tmp_path: Path) -> None:
    import json

    from mjarena.contest.statistics import contest_statistics
    from mjarena.replay import check

    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    db = server.contest.db
    game = server.games("red")[0]["id"]
    replay = json.loads(db.replay(game) or "{}")
    teams = {player["seat"]: player["team"] for player in replay["contest"]["players"]}
    for seat in replay["seats"]:  # a program's peak, as its box measured it; none for an in-process house bot
        assert (seat.get("peak_mib") or 0) > 1 if teams[seat["seat"]] else "peak_mib" not in seat
    red = next(seat for seat in replay["seats"] if teams[seat["seat"]] == "red")
    assert db.thinking_of(db.team("red").id, "peak_mib")[game] == red["peak_mib"]
    stats = contest_statistics(server.contest)["red"]
    assert 0 < stats["memory_per_game"] <= stats["memory_max"] and stats["memory_max"] >= red["peak_mib"]
    page = server.client.get("/teams/red").text
    assert f'{stats["memory_per_game"]:.1f} MiB (max {stats["memory_max"]:.1f} MiB)' in page
    for seat in replay["seats"]:  # a replay made before the field stays valid
        seat.pop("peak_mib", None)
    check(replay)


def test_the_consoles_replay_is_built_once_per_record_and_a_teams_page_reads_its_games_once(
        tmp_path: Path, monkeypatch: Any) -> None:
    import json

    from mjarena.contest.db import Database

    server = Server(tmp_path / "cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    console(server)
    db, views = server.contest.db, server.app.state.context.views
    game = server.games("red")[0]["id"]
    first = server.client.get(f"/admin/replays/{game}")
    assert first.status_code == 200 and 'id="mj-data"' in first.text and views.builds == 1
    assert server.client.get(f"/admin/replays/{game}").text == first.text and views.builds == 1  # kept
    replay = json.loads(db.replay(game) or "{}")
    results = [{key: seat[key] for key in ("seat", "status", "reason", "detail", "rank", "points")}
               for seat in replay["seats"]]
    with db.transaction() as tx:  # played again: its new record is shown
        assert tx.replace_result(game, 2000.0, results, json.dumps(replay))
    assert server.client.get(f"/admin/replays/{game}").status_code == 200 and views.builds == 2
    read: list[int] = []
    games = Database.games
    monkeypatch.setattr(Database, "games", lambda self, **kwargs: read.append(1) or games(self, **kwargs))
    page = server.client.get("/teams/red")
    assert page.status_code == 200 and f'href="/replays/{game}"' in page.text and len(read) == 1

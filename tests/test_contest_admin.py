"""The organiser's console (issue 24) in one process: logging in, teams and tokens, the window, submissions, a
game played again from its record, the export; and the seat beside the house bots rotating.

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
The console in Chromium is in test_contest_e2e.py.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from contest_forms import post_login
from mjarena.cli import main
from test_contest import TEAMS, Server, play_round


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "contest")


def csrf_of(page: str) -> str:
    return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]


def console(server: Server) -> str:
    """Log the server's client in to the console; the session's CSRF token."""
    response = post_login(server.client, "/admin/login", server.tokens["admin"], follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/admin"
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "path=/admin" in cookie.lower() and "samesite=strict" in cookie.lower()
    return csrf_of(server.client.get("/admin").text)


def test_the_console_takes_only_the_admin_token(server: Server) -> None:
    client = server.client
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/admin/login"
    for token in ("wrong", server.tokens["teams"]["red"]):
        refused = post_login(client, "/admin/login", token)
        assert refused.status_code == 401 and "not the admin token" in refused.text
    post_login(client, "/login", server.tokens["teams"]["red"])  # a team's session is no console session
    for path in ("/admin/submissions", "/admin/games", "/admin/export.json", "/admin/submissions/1"):
        assert client.get(path).status_code == 401, path
    assert client.post("/admin/window", data={"action": "pause"}).status_code == 401
    assert server.contest.paused_since() is None
    console(server)
    assert client.get("/admin/submissions").status_code == 200


def test_forms_need_the_session_csrf_token_and_the_own_origin(server: Server) -> None:
    csrf = console(server)
    client = server.client
    assert client.post("/admin/teams", data={"name": "newbie"}).status_code == 403
    assert client.post("/admin/teams", data={"name": "newbie", "csrf": "mjc_x"}).status_code == 403
    foreign = client.post("/admin/teams", data={"name": "newbie", "csrf": csrf}, headers={"origin": "http://x.example"})
    assert foreign.status_code == 403
    assert server.contest.db.team("newbie") is None


def test_add_a_team_its_token_shown_once_and_working(server: Server) -> None:
    csrf = console(server)
    client = server.client
    shown = client.post("/admin/teams", data={"name": "newbie", "csrf": csrf})
    assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"
    token = shown.text.split('id="new-token" class="token">', 1)[1].split("<", 1)[0]
    assert token.startswith("mjc_")
    assert TestClient(server.app).get("/api/submissions", headers={"authorization": f"Bearer {token}"}).status_code \
        == 200
    page = client.get("/admin").text
    assert 'data-team="newbie"' in page and token not in page and "add team · newbie" in page
    twice = client.post("/admin/teams", data={"name": "newbie", "csrf": csrf})
    assert twice.status_code == 400 and "exists already" in twice.text
    bad = client.post("/admin/teams", data={"name": "no/slash", "csrf": csrf})
    assert bad.status_code == 400 and "letters, digits" in bad.text


def test_a_new_token_ends_the_old_one_and_its_sessions(server: Server) -> None:
    csrf = console(server)
    team = TestClient(server.app)
    post_login(team, "/login", server.tokens["teams"]["red"])
    assert team.get("/team", follow_redirects=False).status_code == 200
    shown = server.client.post("/admin/teams/red/token", data={"csrf": csrf})
    token = shown.text.split('id="new-token" class="token">', 1)[1].split("<", 1)[0]
    assert team.get("/team", follow_redirects=False).status_code == 303  # logged out
    assert server.upload("red").status_code == 401  # the old token
    assert team.get("/api/submissions", headers={"authorization": f"Bearer {token}"}).status_code == 200
    assert server.client.post("/admin/teams/nobody/token", data={"csrf": csrf}).status_code == 404
    assert server.client.post("/admin/teams/admin/token", data={"csrf": csrf}).status_code == 404
    # the organiser's own token: every console session ends, the new token logs in
    shown = server.client.post("/admin/token", data={"csrf": csrf})
    admin = shown.text.split('id="new-token" class="token">', 1)[1].split("<", 1)[0]
    assert server.client.get("/admin", follow_redirects=False).headers["location"] == "/admin/login"
    assert post_login(server.client, "/admin/login", server.tokens["admin"]).status_code == 401
    server.tokens["admin"] = admin
    console(server)


def test_pause_stops_games_from_starting_and_resume_moves_the_end(server: Server) -> None:
    for team in TEAMS[:4]:
        server.upload(team)
    csrf = console(server)
    end = server.contest.end(server.clock())
    assert server.client.post("/admin/window", data={"action": "pause", "csrf": csrf}).status_code == 200
    assert server.standings()["state"] == "paused"
    assert not server.scheduler.step()  # no new round while paused
    server.clock.now += 120
    assert server.contest.end(server.clock()) == end + 120  # the end moves while paused
    assert 'id="resume"' in server.client.get("/admin").text
    server.client.post("/admin/window", data={"action": "resume", "csrf": csrf})
    assert server.standings()["state"] == "running" and server.contest.end(server.clock()) == end + 120
    assert server.scheduler.step()  # the round is planned; pause again before its games start
    server.client.post("/admin/window", data={"action": "pause", "csrf": csrf})
    server.scheduler.play_round(1)
    assert {game.state for game in server.contest.db.games(round_no=1)} == {"planned"}
    server.client.post("/admin/window", data={"action": "resume", "csrf": csrf})
    server.scheduler.play_round(1)
    assert {game.state for game in server.contest.db.games(round_no=1)} == {"finished"}
    log = server.client.get("/admin").text
    assert log.count("pause · the window") == 2 and log.count("resume · the window") == 2
    assert server.client.post("/admin/window", data={"action": "stop", "csrf": csrf}).status_code == 400


def test_every_submission_with_its_source_and_build_log(server: Server) -> None:
    server.upload("red")
    hostile = b"# </pre><script>alert(1)</script>\ndef oops(:\n"
    server.upload("blue", hostile)
    console(server)
    listing = server.client.get("/admin/submissions").text
    assert 'data-submission="1"' in listing and 'data-submission="2"' in listing
    page = server.client.get("/admin/submissions/2").text
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    build_log = page.split('id="build-log">', 1)[1].split("</pre>", 1)[0]
    assert "compile_error" in page and build_log != "—" and "line 2" in build_log
    assert server.client.get("/admin/submissions/2/source").content == hostile
    assert server.client.get("/admin/submissions/3").status_code == 404


def test_the_organiser_builds_a_submission_or_a_teams_latest_again(server: Server, monkeypatch: Any,
                                                                     capsys: Any) -> None:
    """The console's Build again (a submission; a team's latest) and ``mjarena contest rebuild``: each compiles the
    source afresh, its cached verdict dropped, and is written in the organiser's log."""
    import mjarena.builds.builder as builder_module

    server.upload("blue", b"def oops(:\n")
    compiles: list[list[str]] = []
    real_run = builder_module.run
    monkeypatch.setattr(builder_module, "run", lambda argv, **kw: compiles.append(list(argv)) or real_run(argv, **kw))
    csrf = console(server)
    again = server.client.post("/admin/submissions/1/rebuild", data={"csrf": csrf}, follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == "/admin/submissions/1"
    assert server.client.post("/admin/teams/blue/rebuild", data={"csrf": csrf}).status_code == 200
    assert server.client.post("/admin/teams/nobody/rebuild", data={"csrf": csrf}).status_code == 404
    assert main(["contest", "rebuild", str(server.contest.root), "--submission", "1"]) == 1
    assert "compile_error" in capsys.readouterr().out
    assert len([argv for argv in compiles if "version" not in " ".join(argv)]) >= 3, "compiled each time"
    assert server.contest.db.submission(1).status == "compile_error"
    logged = [entry for entry in server.contest.db.admin_log() if entry[1] == "rebuild"]
    assert len(logged) == 3 and all("submission 1 (blue v1" in entry[2] for entry in logged)


def test_a_game_played_again_from_its_record_replaces_its_result_in_one_transaction(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    game = server.contest.db.games(round_no=1)[0]
    before = json.loads(server.contest.db.replay(game.id) or "{}")
    totals = server.contest.db.totals()
    with sqlite3.connect(server.contest.root / "contest.db") as db:  # a result gone wrong
        db.execute("UPDATE seats SET points = 99 WHERE game_id = ?", (game.id,))
    csrf = console(server)
    assert "Play again" in server.client.get("/admin/games").text
    done = server.client.post(f"/admin/games/{game.id}/replay", data={"csrf": csrf}, follow_redirects=False)
    assert done.status_code == 303
    deadline = time.monotonic() + 60
    while server.scheduler.replaying and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.scheduler.replaying
    after = server.contest.db.game(game.id)
    assert after is not None and after.state == "finished"
    assert [seat.submission_id for seat in after.seats] == [seat.submission_id for seat in game.seats]
    assert server.contest.db.totals() == totals  # counted once, with the result of playing it again
    replay = json.loads(server.contest.db.replay(game.id) or "{}")
    assert replay["contest"] == before["contest"] and replay.get("wall") == before.get("wall")
    assert "play again · game" in server.client.get("/admin").text
    for raw in ("999", "x"):
        assert server.client.post("/admin/games/replay", data={"csrf": csrf, "game": raw}).status_code == 404


def test_the_export_is_what_the_command_writes(server: Server, tmp_path: Path, capsys: Any) -> None:
    server.upload("red")
    play_round(server)
    console(server)
    for form in ("json", "csv"):
        out = tmp_path / f"results.{form}"
        assert main(["contest", "export", str(server.contest.root), "--format", form, "--out", str(out)]) == 0
        served = server.client.get(f"/admin/export.{form}")
        assert served.status_code == 200 and served.text == out.read_text()


@pytest.mark.parametrize("teams", [5, 6])
def test_the_seats_beside_the_house_bots_rotate(tmp_path: Path, teams: int) -> None:
    """With 5 teams one sits with three house bots each round, with 6 two sit with two: never the same lot."""
    names = [f"t{i}" for i in range(teams)]
    server = Server(tmp_path / "contest", names, duration=600.0)
    for name in names:
        server.upload(name)
    seated = len(names) % 4  # teams at the house bots' table
    rounds = len(names) // seated if len(names) % seated == 0 else len(names)
    for _ in range(rounds):
        server.scheduler.new_round()
    meetings = server.contest.db.house_meetings()
    ids = {team.name: team.id for team in server.contest.db.teams()}
    assert sorted(meetings.get(ids[name], 0) for name in names) == [rounds * seated // len(names)] * len(names)
